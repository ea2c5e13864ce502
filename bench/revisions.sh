#!/usr/bin/env bash
# Whole-process speed of this checkout against another revision, side by side: each revision's
# `python -m app transcribe` of four long English recordings of ../shared/data/speech2 (304 s:
# sonnets, Lucier's room, three speakers, a speaker with a cold), greedy, precision auto, rounds
# alternating, first on the machine as it is, then beside one busy-loop process. Each revision
# converts the bundled model into its own cache first (not timed). Prints main/REV per round.
#
#   bench/revisions.sh REV [ROUNDS]        e.g. bench/revisions.sh caa08be 3
set -euo pipefail
rev=${1:?usage: bench/revisions.sh REV [ROUNDS]}
rounds=${2:-3}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="$here/.venv/bin/python"
data="$here/../shared/data/speech2"
files=("$data/en_librivox_sonnets_1to3_long.wav" "$data/en_lucier_sitting_in_a_room.wav"
       "$data/en_pv_diarization_3spk.wav" "$data/en_mfa_cold_corpus.wav")
tmp="$(mktemp -d)"
git -C "$here" worktree add --detach -q "$tmp/other" "$rev"
busy=""
trap '[ -n "$busy" ] && kill "$busy" 2>/dev/null; git -C "$here" worktree remove --force "$tmp/other"; rm -rf "$tmp"' EXIT

run() {  # checkout dir, tag -> wall seconds of one transcription of the files
  local dir=$1 tag=$2 start end
  rm -rf "$tmp/out-$tag"
  start=$(date +%s.%N)
  (cd "$dir" && XDG_CACHE_HOME="$tmp/cache-$tag" XDG_DATA_HOME="$tmp/data-$tag" XDG_CONFIG_HOME="$tmp/config-$tag" \
    "$py" -m app transcribe "${files[@]}" --precision auto --beam-size 1 --format txt \
    --output-dir "$tmp/out-$tag" >/dev/null 2>&1)
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

run "$tmp/other" other >/dev/null
run "$here" this >/dev/null
for load in idle busy1; do
  if [ "$load" = busy1 ]; then "$py" -c "while True: pass" & busy=$!; fi
  for r in $(seq "$rounds"); do
    a=$(run "$tmp/other" other)
    b=$(run "$here" this)
    echo "$load round $r: $rev ${a} s, this checkout ${b} s, ratio $(echo "scale=3; $b / $a" | bc)"
  done
done
