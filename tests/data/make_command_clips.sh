#!/usr/bin/env bash
# Makes the spoken editing command clips (tests/dictation/test_voice_commands_replay.py,
# tests/ui/test_spoken_edits.py): dictated sentences, then a command said alone, each part
# separated by 1.5 s of silence (longer than the live policy's utterance end, so every part is
# its own utterance, as a user pauses before a command).
#
# espeak-ng voice en-us, 150 words per minute (unless `voices` names another voice and speed for
# a clip), converted by sox to 16 kHz mono 16-bit; 0.3 s of silence before the first part and
# after the last. Needs: espeak-ng, sox.
# Usage: tests/data/make_command_clips.sh (writes next to this script).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rate=16000
gap_s=1.5
lead_s=0.3
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# name|part|part|...
clips=(
  "espeak_scratch_that|Please call the office today.|Send the report to the whole team.|scratch that"
  "espeak_delete_word|Please call the office today.|delete last word"
  "espeak_period_slow|Please call the office today.|period|Send the report to the whole team."
  "espeak_cap_london|Please call the office today.|cap london"
  "espeak_literal_comma|Please call the office today.|literal comma"
  "espeak_colon|Please call the office today.|colon"
)
# slower speech, in which tiny.en writes "period" said alone as other words ("Here it is")
# and "colon" in the British RP voice, which tiny.en writes "Cohen." or "Go learn."
declare -A voices=(["espeak_period_slow"]="en-us 130" ["espeak_colon"]="en-gb-x-rp 175")

for entry in "${clips[@]}"; do
  IFS='|' read -r -a fields <<< "$entry"
  name="${fields[0]}"
  read -r voice speed <<< "${voices[$name]:-en-us 150}"
  parts=()
  for i in "${!fields[@]}"; do
    [[ $i -eq 0 ]] && continue
    espeak-ng -v "$voice" -s "$speed" -w "$tmp/part.raw.wav" "${fields[$i]}"
    before=$gap_s; after=0
    [[ $i -eq 1 ]] && before=$lead_s
    [[ $i -eq $(( ${#fields[@]} - 1 )) ]] && after=$lead_s
    sox -R -D "$tmp/part.raw.wav" -r "$rate" -c 1 -b 16 -e signed-integer "$tmp/$name.$i.wav" pad "$before" "$after"
    parts+=("$tmp/$name.$i.wav")
  done
  sox "${parts[@]}" "$here/$name.wav"
done
echo "wrote ${#clips[@]} clips to $here"
