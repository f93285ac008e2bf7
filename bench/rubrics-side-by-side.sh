#!/usr/bin/env bash
# Scores one generated surface with two built-in rubrics, alternately, and
# prints each one's wall and CPU seconds and peak RSS, and the ratios of the
# second to the first (CPU time says more than wall time on a busy machine).
#
#   bash bench/rubrics-side-by-side.sh [TOOLS] [FIRST] [SECOND]
#   OLD=/tmp/rubric-old ROUNDS=3 bash bench/rubrics-side-by-side.sh 100000
#
# Default: 100,000 tools, schema-quality then tool-safety, one round.
# OLD names an older build whose SECOND runs too, in each round just
# before this tree's, so that the two meet the same machine. ROUNDS
# repeats the runs; the medians and their ratios close the output. NEW
# names the binary to measure instead of one built from this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${1:-100000}
first=${2:-schema-quality}
second=${3:-tool-safety}
rounds=${ROUNDS:-1}
out=${OUT:-bench/out}
mkdir -p "$out"
new=${NEW:-}
if [ -z "$new" ]; then
  new=$out/rubric
  go build -o "$new" ./cmd/rubric
fi
old=${OLD:-}
[ -f "$out/side-$tools.tools.json" ] || go run ./bench/gen -n "$tools" -o "$out/side-$tools.tools.json" engine/score/testdata/corpus/*.tools.json
: >"$out/side.txt"
run() { # label binary rubric: appends "label wall user sys rss"
  /usr/bin/time -f "$1 %e %U %S %M" -a -o "$out/side.txt" \
    "$2" score --rubric "$3" --max-bytes 4GiB --max-tools 1000000 --format json --out "$out/side.$1.json" "$out/side-$tools.tools.json" >/dev/null || true
}
for i in $(seq "$rounds"); do
  echo "round $i, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  [ -n "$old" ] && run "old-$second" "$old" "$second"
  run "$first" "$new" "$first"
  run "$second" "$new" "$second"
done
python3 - "$out/side.txt" "$first" "$second" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("Command")]
first, second = sys.argv[2], sys.argv[3]
by = {}
for name, wall, user, sys_, rss in rows:
    print(f"  {name}: {float(wall):.1f}s wall, {float(user) + float(sys_):.1f}s CPU, {int(rss) // 1024} MiB")
    by.setdefault(name, []).append((float(wall), float(user) + float(sys_), int(rss) // 1024))
med = {n: tuple(statistics.median(r[k] for r in v) for k in range(3)) for n, v in by.items()}
for n, (w, c, m) in med.items():
    print(f"median {n}: {w:.1f}s wall, {c:.1f}s CPU, {m:.0f} MiB")
def ratio(b, a):
    (bw, bc, bm), (aw, ac, am) = med[b], med[a]
    print(f"{b} / {a}: wall {bw / aw:.2f}x, CPU {bc / ac:.2f}x, memory {bm / am:.2f}x")
ratio(second, first)
if "old-" + second in med:
    ratio("old-" + second, first)
PY
