#!/usr/bin/env bash
# Scores one generated surface with one built-in rubric under two rubric
# binaries, alternately (old, then new, in each round, so that both meet
# the same machine), and prints each run's wall and CPU seconds and peak
# RSS, then the medians and the ratio of new to old. CPU time says more
# than wall time on a busy machine.
#
#   OLD=/tmp/rubric-base ROUNDS=5 bash bench/one-rubric-side-by-side.sh 10000 tool-safety
#
# OLD is required; NEW names the binary to measure instead of one built
# from this tree. The surface is made by bench/gen from the corpus
# captures (out/side-TOOLS.tools.json, reused when present).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${1:-10000}
rubric=${2:-tool-safety}
rounds=${ROUNDS:-3}
out=${OUT:-bench/out}
old=${OLD:?set OLD to the older rubric binary}
mkdir -p "$out"
new=${NEW:-}
if [ -z "$new" ]; then
  new=$out/rubric
  go build -o "$new" ./cmd/rubric
fi
[ -f "$out/side-$tools.tools.json" ] || go run ./bench/gen -n "$tools" -o "$out/side-$tools.tools.json" engine/score/testdata/corpus/*.tools.json
: >"$out/one-side.txt"
run() { # label binary: appends "label wall user sys rss"
  /usr/bin/time -f "$1 %e %U %S %M" -a -o "$out/one-side.txt" \
    "$2" score --no-cache --progress=false --rubric "$rubric" --max-bytes 4GiB --max-tools 1000000 --format json --out "$out/one-side.$1.json" "$out/side-$tools.tools.json" >/dev/null || true
}
for i in $(seq "$rounds"); do
  echo "round $i, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  run old "$old"
  run new "$new"
done
python3 - "$out/one-side.txt" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("Command")]
by = {}
for name, wall, user, sys_, rss in rows:
    print(f"  {name}: {float(wall):.1f}s wall, {float(user) + float(sys_):.2f}s CPU, {int(rss) // 1024} MiB")
    by.setdefault(name, []).append((float(wall), float(user) + float(sys_), int(rss) // 1024))
med = {n: tuple(statistics.median(r[k] for r in v) for k in range(3)) for n, v in by.items()}
for n, (w, c, m) in med.items():
    print(f"median {n}: {w:.1f}s wall, {c:.2f}s CPU, {m:.0f} MiB")
(nw, nc, nm), (ow, oc, om) = med["new"], med["old"]
print(f"new / old: wall {nw / ow:.2f}x, CPU {nc / oc:.2f}x, memory {nm / om:.2f}x")
PY
