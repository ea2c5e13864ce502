#!/usr/bin/env bash
# Makes tests/data/espeak_words.wav and tests/data/espeak_words.json: a sentence spoken word by
# word, with known silences between the words, so every word's start and end is known to the
# sample (the ground truth of the word-timestamp test).
#
# Each word is synthesised alone by espeak-ng (voice en-us, 150 wpm), converted to 16 kHz mono
# 16-bit by sox, and trimmed of espeak's own leading and trailing silence (sox `silence`, 0.1 %
# threshold) so its file holds speech from the first to the last sample; the words are then joined
# with the gaps below (short ones, as in fluent speech, and longer pauses). The JSON lists every
# word with start/end in seconds. Checked to be transcribed exactly by Whisper tiny.en.
#
# Needs: espeak-ng, sox. Usage: tests/data/make_word_clip.sh (writes next to this script).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rate=16000
lead_s=0.5
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# word|silence after it (s); the last word's silence is the clip's tail
entries=(
  "Please|0.08" "send|0.08" "this|0.08" "report|0.7" "to|0.08" "Maria|0.08" "before|0.1"
  "Friday|0.9" "and|0.08" "call|0.08" "the|0.08" "office|0.08" "tomorrow|0.6"
)
text="Please send this report to Maria before Friday and call the office tomorrow."

sox -n -r "$rate" -c 1 -b 16 -e signed-integer "$tmp/part_000.wav" trim 0 "$lead_s"
parts=("$tmp/part_000.wav")
position="$lead_s"
words_json=""
index=0
for entry in "${entries[@]}"; do
  word="${entry%%|*}"
  gap="${entry#*|}"
  index=$((index + 1))
  espeak-ng -v en-us -s 150 -w "$tmp/raw_$index.wav" "$word"
  sox -R -D "$tmp/raw_$index.wav" -r "$rate" -c 1 -b 16 -e signed-integer "$tmp/word_$index.wav" \
    silence 1 1 0.1% reverse silence 1 1 0.1% reverse
  samples="$(soxi -s "$tmp/word_$index.wav")"
  start="$position"
  end="$(python3 -c "print(f'{$start + $samples / $rate:.4f}')")"
  sox -n -r "$rate" -c 1 -b 16 -e signed-integer "$tmp/gap_$index.wav" trim 0 "$gap"
  parts+=("$tmp/word_$index.wav" "$tmp/gap_$index.wav")
  position="$(python3 -c "print(f'{$end + $gap:.4f}')")"
  words_json+="${words_json:+,
}    {\"word\": \"$word\", \"start\": $start, \"end\": $end}"
done
sox -R -D "${parts[@]}" "$here/espeak_words.wav"
cat > "$here/espeak_words.json" <<JSON
{
  "file": "espeak_words.wav",
  "generator": "tests/data/make_word_clip.sh (espeak-ng voice en-us, 150 wpm, one word at a time; sox)",
  "text": "$text",
  "words": [
$words_json
  ]
}
JSON
echo "wrote $here/espeak_words.wav and espeak_words.json"
