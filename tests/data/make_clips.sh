#!/usr/bin/env bash
# Regenerates the committed espeak-ng test clips and tests/data/clips.json.
#
# The clips are what a fresh clone tests with (engine parity, dictation replay, GUI tests):
# 16 kHz, mono, signed 16-bit WAV, synthesised with espeak-ng (voice en-us, 150 words per
# minute) and converted by sox. Each sentence was checked to be transcribed exactly by Whisper
# tiny.en (faster-whisper float32, greedy and beam 5, compared after Whisper's English
# normaliser) before it was kept. Dropped because tiny.en mishears the espeak voice: "The quick
# brown fox jumps over the lazy dog." ("jump", "round-fark"), "Send twenty copies ..." ("and"),
# "... fresh bread ..." ("fresh red"), "... at a steady pace" ("understand the pace").
#
# Needs: espeak-ng, sox (Debian packages of the same names). Output is deterministic for a
# given espeak-ng and sox version (sox -R seeds its noise generator; -D turns dithering off).
#
# Usage: tests/data/make_clips.sh        (from anywhere; writes next to this script)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
voice="en-us"
speed=150          # words per minute
rate=16000
lead_s=0.3         # silence before and after the speech
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# name|exact spoken text (numbers written as words, as espeak-ng reads them)
clips=(
  "espeak_meeting|Please move the meeting to Thursday afternoon and invite the whole team."
  "espeak_weather|The weather today is sunny with a light wind from the west."
  "espeak_laptop|I need three hundred dollars for the new laptop."
  "espeak_team|Our team has twelve people and two of them work from home."
  "espeak_callback|Call me back in ten minutes when you are ready."
  "espeak_morning|Good morning everyone. Today we will review the budget for the next quarter and plan the new website."
)

json="$tmp/clips.json"
{
  echo "{"
  echo "  \"sample_rate\": $rate,"
  echo "  \"generator\": \"tests/data/make_clips.sh (espeak-ng voice $voice, $speed wpm; sox)\","
  echo "  \"clips\": ["
} > "$json"

for entry in "${clips[@]}"; do
  name="${entry%%|*}"
  text="${entry#*|}"
  espeak-ng -v "$voice" -s "$speed" -w "$tmp/$name.raw.wav" "$text"
  sox -R -D "$tmp/$name.raw.wav" -r "$rate" -c 1 -b 16 -e signed-integer "$here/$name.wav" \
    pad "$lead_s" "$lead_s"
  duration="$(soxi -D "$here/$name.wav")"
  printf '    {"file": "%s.wav", "text": "%s", "kind": "speech", "duration_s": %.3f},\n' \
    "$name" "$text" "$duration" >> "$json"
done

# Non-speech: 0.5 s of digital silence, then 2.5 s of faint pink noise (about -55 dBFS).
sox -R -D -n -r "$rate" -c 1 -b 16 -e signed-integer "$here/espeak_noise.wav" \
  synth 2.5 pinknoise vol -55dB pad 0.5 0
duration="$(soxi -D "$here/espeak_noise.wav")"
printf '    {"file": "espeak_noise.wav", "text": "", "kind": "non_speech", "duration_s": %.3f}\n' \
  "$duration" >> "$json"
{
  echo "  ]"
  echo "}"
} >> "$json"
mv "$json" "$here/clips.json"

# Whispered speech (tests/dictation/test_conditions.py; not in clips.json, which lists the
# voiced clips other tests iterate): the whisper variant of the same voice, same pads.
espeak-ng -v "$voice+whisper" -s "$speed" -w "$tmp/whispered.raw.wav" \
  "Please send the report to the whole team before noon."
sox -R -D "$tmp/whispered.raw.wav" -r "$rate" -c 1 -b 16 -e signed-integer "$here/espeak_whispered.wav" \
  pad "$lead_s" "$lead_s"

# Spoken commands (tests/ui/test_dictation_text.py; not in clips.json either): "period" and
# "new line" said as words, which the post-processor turns into "." and a line break.
espeak-ng -v "$voice" -s "$speed" -w "$tmp/commands.raw.wav" \
  "Please call me on Monday, period. New line. See you then."
sox -R -D "$tmp/commands.raw.wav" -r "$rate" -c 1 -b 16 -e signed-integer "$here/espeak_commands.wav" \
  pad "$lead_s" "$lead_s"

# A pause inside a sentence (tests/dictation/test_sentence_shape.py; not in clips.json): "Please send the report",
# 2 s of silence (longer than the live policy's join gap, so the rest is decoded in a fresh
# window), then the rest of the same sentence.
espeak-ng -v "$voice" -s "$speed" -w "$tmp/pause_a.raw.wav" "Please send the report"
espeak-ng -v "$voice" -s "$speed" -w "$tmp/pause_b.raw.wav" "to the whole team before noon."
sox -R -D "$tmp/pause_a.raw.wav" -r "$rate" -c 1 -b 16 -e signed-integer "$tmp/pause_a.wav" pad "$lead_s" 2.0
sox -R -D "$tmp/pause_b.raw.wav" -r "$rate" -c 1 -b 16 -e signed-integer "$tmp/pause_b.wav" pad 0 "$lead_s"
sox "$tmp/pause_a.wav" "$tmp/pause_b.wav" "$here/espeak_pause_inside.wav"
echo "wrote $(( ${#clips[@]} + 3 )) clips and clips.json to $here"
