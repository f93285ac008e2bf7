#!/usr/bin/env bash
# Splits the CPU of one TDQS run at 5,000 tools by process: the host and
# its judge plugin (and the file transport), from `perf record` task-clock
# samples at 2 kHz, alternating builds over ROUNDS rounds and printing the
# medians. /usr/bin/time and perf stat count both processes together; this
# tells which one a change moved.
#
#   bash bench/procsplit.sh 6 /tmp/rubric-base /tmp/rubric-head
#
# FILE is the surface (default bench/out/scale-5000.tools.json, made by
# bench/scale.sh); RUBRIC the rubric (default tdqs).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:?usage: bench/procsplit.sh ROUNDS BINARY...}
shift
file=${FILE:-bench/out/scale-5000.tools.json}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Every other round runs the builds in the reverse order, so that no
# build always runs first: on 2026-12-06 two builds whose host code
# differed by a few allocations per question measured 8% apart in host
# CPU (medians of 8) run in one fixed order and 1% apart the other way
# round.
bins=("$@")
for r in $(seq "$rounds"); do
  order=("${bins[@]}")
  if ((r % 2 == 0)); then
    order=()
    for ((k = ${#bins[@]} - 1; k >= 0; k--)); do order+=("${bins[k]}"); done
  fi
  for bin in "${order[@]}"; do
    perf record -q -F 2000 -e task-clock -o "$out/perf.data" "$bin" score --no-cache --progress=false \
      --max-bytes 4GiB --max-tools 1000000 --rubric "${RUBRIC:-tdqs}" --format json --out "$out/r.json" "$file" >/dev/null 2>&1 || true  # a run that fails (exit 2) is still measured
    # Samples per process, most first: the host, then the judge.
    echo "$bin $(perf script -i "$out/perf.data" -F pid 2>/dev/null | sort | uniq -c | sort -rn | head -2 | awk '{printf "%s ", $1/2000}')" >>"$out/split.txt"
  done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2) }'; }
for bin in "$@"; do
  host=$(awk -v b="$bin" '$1 == b { print $2 }' "$out/split.txt" | median)
  judge=$(awk -v b="$bin" '$1 == b { print $3 }' "$out/split.txt" | median)
  echo "$bin: host $host CPU-s, judge $judge CPU-s (medians of $rounds)"
done
