#!/usr/bin/env bash
# Makes tests/data/espeak_names.wav: a sentence with a surname tiny.en does not know, the clip of
# the vocabulary tests (a listed word the decoder favours).
#
# espeak-ng voice en-us, 150 wpm, converted by sox to 16 kHz mono 16-bit with 0.3 s of silence
# before and after (as make_clips.sh does). Checked with tiny.en at fp32: without the vocabulary
# it writes "Schwars cup" (greedy) and "Shwar's cup" (beam 5); with "Schwarzkopf" listed at the
# default boost it writes the name, greedy and beam 5.
#
# Needs: espeak-ng, sox. Usage: tests/data/make_names_clip.sh (writes next to this script).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
text="The invoice from Schwarzkopf arrived after the deadline."
espeak-ng -v en-us -s 150 -w "$tmp/raw.wav" "$text"
sox -R -D "$tmp/raw.wav" -r 16000 -c 1 -b 16 -e signed-integer "$here/espeak_names.wav" pad 0.3 0.3
echo "wrote $here/espeak_names.wav: $text"
