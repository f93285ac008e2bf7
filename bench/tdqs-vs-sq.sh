#!/usr/bin/env bash
# TDQS against Schema Quality on one generated surface (issue 22: TDQS at
# 5,000 tools within 3x of Schema Quality's wall time), with the offline
# heuristic judge and no answer cache. Each round runs, one right after
# the other so that they meet the same machine: the old build's TDQS
# (when OLD names one), this tree's TDQS, and this tree's Schema Quality,
# every other round in the reverse order.
# Prints each run's wall, user and system seconds, peak RSS, the judge
# plugin's own CPU seconds and peak RSS (read from /proc as it runs; they
# are part of the run's), and exit status, the load average before each
# round, then the medians and the ratios of the medians.
#
#   bash bench/tdqs-vs-sq.sh                       # 5,000 tools, 3 rounds
#   OLD=/tmp/rubric-old bash bench/tdqs-vs-sq.sh 5000 3
#
# NEW names the binary to measure instead of one built from this tree.
# CACHED=1 adds to each round this tree's TDQS with every answer taken
# from an answer cache that one run fills first: the run without the
# judge's path (requests, gRPC, the plugin, the answers read back),
# which is as fast as TDQS can be while the judge costs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
rounds=${2:-3}
out=${OUT:-bench/out}
mkdir -p "$out"
corpus=engine/score/testdata/corpus
captures=("$corpus/notion.tools.json")
for f in "$corpus"/*.tools.json; do
  [ "$f" = "$corpus/notion.tools.json" ] || captures+=("$f")
done
file=$out/scale-$n.tools.json
[ -f "$file" ] || go run ./bench/gen -n "$n" -o "$file" "${captures[@]}"
new=${NEW:-}
if [ -z "$new" ]; then
  new=$out/rubric
  go build -o "$new" ./cmd/rubric
fi
old=${OLD:-}
cached=${CACHED:-}
answers=$out/tdqs-vs-sq-answers
if [ -n "$cached" ]; then
  rm -rf "$answers"
  "$new" score --cache-dir "$answers" --progress=false --max-bytes 4GiB --max-tools 1000000 \
    --rubric tdqs --format json --out "$out/tdqs-vs-sq-fill.json" "$file" >/dev/null
fi

: >"$out/tdqs-vs-sq.txt"
run() { # label binary rubric [cache flags]: appends "label wall user sys rss status judge-cpu judge-rss"
  local status=0 judge=0 jrss=0 p s h
  local cache=(--no-cache)
  [ $# -gt 3 ] && cache=("${@:4}")
  /usr/bin/time -f "%e %U %S %M" -o "$out/time.txt" "$2" score "${cache[@]}" --progress=false \
    --max-bytes 4GiB --max-tools 1000000 --rubric "$3" --format json --out "$out/tdqs-vs-sq-$1.json" "$file" \
    >/dev/null 2>"$out/tdqs-vs-sq-$1.err" &
  local timer=$!
  # The judge plugin's own CPU (user+sys) and peak RSS, as last read from
  # /proc while it runs: rubric is the child of time, the judge rubric's.
  while kill -0 "$timer" 2>/dev/null; do
    for p in $(pgrep -P "$(pgrep -P "$timer" | head -n 1)" 2>/dev/null); do
      if { tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null | grep -q ' judge '; then
        read -r -a s <"/proc/$p/stat" 2>/dev/null && judge=$((s[13] + s[14]))
        h=$(awk '/^VmHWM/ {print $2}' "/proc/$p/status" 2>/dev/null) && [ -n "$h" ] && jrss=$h
      fi
    done
    sleep 0.05
  done
  wait "$timer" || status=$?
  read -r wall user sys rss < <(tail -n 1 "$out/time.txt")
  local tick
  tick=$(getconf CLK_TCK)
  printf '  %-10s %8.2f s wall %8.2f s user %6.2f s sys %6d MiB  judge %5.2f s %4d MiB  exit %d\n' \
    "$1" "$wall" "$user" "$sys" "$((rss / 1024))" "$(echo "$judge / $tick" | bc -l)" "$((jrss / 1024))" "$status"
  echo "$1 $wall $user $sys $rss $status $(echo "$judge / $tick" | bc -l) $jrss" >>"$out/tdqs-vs-sq.txt"
}
# Every other round runs in the reverse order, so that no run always
# follows the same one (bench/procsplit.sh measured up to 8% between the
# first and the second of two builds run in a fixed order).
for i in $(seq "$rounds"); do
  echo "round $i, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  if ((i % 2 == 1)); then
    [ -n "$old" ] && run old-tdqs "$old" tdqs
    run tdqs "$new" tdqs
    [ -n "$cached" ] && run tdqs-cached "$new" tdqs --cache-dir "$answers"
    run sq "$new" schema-quality
  else
    run sq "$new" schema-quality
    if [ -n "$cached" ]; then run tdqs-cached "$new" tdqs --cache-dir "$answers"; fi
    run tdqs "$new" tdqs
    if [ -n "$old" ]; then run old-tdqs "$old" tdqs; fi
  fi
done

python3 - "$out/tdqs-vs-sq.txt" <<'PY'
import statistics, sys
by = {}
for line in open(sys.argv[1]):
    label, wall, user, sys_, rss, status, judge, jrss = line.split()
    by.setdefault(label, []).append((float(wall), float(user), float(sys_), int(rss), int(status), float(judge), int(jrss)))
med = {}
for label, runs in by.items():
    w = statistics.median(r[0] for r in runs)
    c = statistics.median(r[1] + r[2] for r in runs)
    m = statistics.median(r[3] for r in runs) / 1024
    failed = sum(1 for r in runs if r[4] != 0)
    med[label] = (w, c)
    judge = ""
    if any(r[5] > 0 for r in runs):
        judge = f"; judge {statistics.median(r[5] for r in runs):.2f} s CPU, {statistics.median(r[6] for r in runs) / 1024:.0f} MiB peak"
    print(f"{label}: median {w:.2f} s wall, {c:.2f} s CPU (user+sys), {m:.0f} MiB peak" + judge + (f"; {failed} of {len(runs)} runs failed" if failed else ""))
for label in ("tdqs", "tdqs-cached"):
    if label in med and "sq" in med:
        print(f"{label} / schema-quality: {med[label][0] / med['sq'][0]:.1f}x wall, {med[label][1] / med['sq'][1]:.1f}x CPU")
PY
