#!/usr/bin/env bash
# Scores one generated surface with two built-in rubrics, alternately, and
# prints each one's wall and CPU seconds and peak RSS, and the ratios of the
# second to the first (CPU time says more than wall time on a busy machine).
#
#   bash bench/rubrics-side-by-side.sh [TOOLS] [FIRST] [SECOND]
#
# Default: 100,000 tools, schema-quality then tool-safety.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${1:-100000}
first=${2:-schema-quality}
second=${3:-tool-safety}
out=bench/out
mkdir -p "$out"
go build -o "$out/rubric" ./cmd/rubric
go run ./bench/gen -n "$tools" -o "$out/side.tools.json" engine/score/testdata/corpus/*.tools.json
: >"$out/side.txt"
for r in "$first" "$second"; do
  /usr/bin/time -f "$r %e %U %S %M" -a -o "$out/side.txt" \
    "$out/rubric" score --rubric "$r" --max-bytes 4GiB --max-tools 1000000 --format json --out "$out/side.$r.json" "$out/side.tools.json" >/dev/null || true
done
python3 - "$out/side.txt" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
for name, wall, user, sys_, rss in rows:
    print(f"{name}: {float(wall):.1f}s wall, {float(user) + float(sys_):.1f}s CPU, {int(rss) // 1024} MiB")
(a, b) = rows[:2]
print(f"{b[0]} / {a[0]}: wall {float(b[1]) / float(a[1]):.1f}x, CPU {(float(b[2]) + float(b[3])) / (float(a[2]) + float(a[3])):.1f}x")
PY
