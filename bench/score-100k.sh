#!/usr/bin/env bash
# Scores a surface of 100,000 tools built from the real corpus captures and
# sets the whole `rubric score` beside merely decoding the same file with
# encoding/json, alternating the two so that both see the same machine.
#
#   bash bench/score-100k.sh [TOOLS] [ROUNDS]
#
# Prints, for each round, wall seconds and peak RSS of both, then the median
# ratio, tools per second and peak memory.
#
# OLD=/path/to/an/older/rubric adds that build to each round, run right
# after this tree's, and prints its figures and ratios beside them:
#
#   OLD=/tmp/rubric-old bash bench/score-100k.sh 20000 3
#
# RUBRIC=/path/to/rubric measures that build instead of building this tree
# (with its companion, rubric-transport-file, beside it as `make build`
# puts it, so that it starts as an older build with its companion does).
# OUT names the directory for the builds, the surface and the reports
# (default bench/out).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${1:-100000}
rounds=${2:-3}
out=${OUT:-bench/out}
mkdir -p "$out"
corpus=engine/score/testdata/corpus

rubric=${RUBRIC:-$out/rubric}
if [ -z "${RUBRIC:-}" ]; then
  go build -o "$out/rubric" ./cmd/rubric
  go build -o "$out/rubric-transport-file" ./cmd/rubric-transport-file
fi
old=${OLD:-}
go build -o "$out/decode" ./bench/decode
go run ./bench/gen -n "$tools" -o "$out/big.tools.json" "$corpus"/*.tools.json
size=$(stat -c %s "$out/big.tools.json")
echo "surface: $tools tools, $((size / 1024 / 1024)) MiB"

# Each round writes its report to a path that does not exist yet: a report
# written over the one before it waits, in the rename, for the file system
# to free the old file's pages (about 0.17 s for 277 MB here), a cost of
# the file replaced that the decode, which writes nothing, does not have.
measure() { # prints "seconds maxrss_kib cpu_seconds" (CPU: user + system)
  /usr/bin/time -f "%e %M %U %S" -o "$out/time.txt" "$@" >/dev/null
  awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$out/time.txt"
}

: >"$out/rounds.txt"
for i in $(seq "$rounds"); do
  read -r ds dm dc < <(measure "$out/decode" "$out/big.tools.json")
  rm -f "$out/report.json" "$out/report.old.json"
  read -r rs rm rc < <(measure "$rubric" score --max-bytes 4GiB --max-tools 1000000 --format json --out "$out/report.json" "$out/big.tools.json")
  os=0 om=0 oc=0
  if [ -n "$old" ]; then
    read -r os om oc < <(measure "$old" score --max-bytes 4GiB --max-tools 1000000 --format json --out "$out/report.old.json" "$out/big.tools.json")
    echo "round $i: decode ${ds}s ${dm}KiB cpu ${dc}s   rubric score ${rs}s ${rm}KiB cpu ${rc}s   old ${os}s ${om}KiB cpu ${oc}s"
  else
    echo "round $i: decode ${ds}s ${dm}KiB cpu ${dc}s   rubric score ${rs}s ${rm}KiB cpu ${rc}s"
  fi
  echo "$ds $dm $rs $rm $os $om $dc $rc $oc" >>"$out/rounds.txt"
done

python3 - "$tools" "$out/rounds.txt" <<'PY'
import statistics, sys
tools = int(sys.argv[1])
rows = [list(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
ds = statistics.median(r[0] for r in rows)
rs = statistics.median(r[2] for r in rows)
ratios = [r[2] / r[0] for r in rows]
print(f"median decode {ds:.2f}s, median rubric score {rs:.2f}s")
print(f"ratio rubric/decode: median {statistics.median(ratios):.2f}x (rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
print(f"throughput: {tools / rs:,.0f} tools/s")
print(f"peak RSS: rubric {max(r[3] for r in rows) / 1024:.0f} MiB, decode {max(r[1] for r in rows) / 1024:.0f} MiB")
print(f"CPU (user+system) ratio rubric/decode: median {statistics.median(r[7] / r[6] for r in rows):.2f}x")
mr = [r[3] / r[1] for r in rows]
print(f"peak RSS ratio rubric/decode: median {statistics.median(mr):.2f}x (rounds: {', '.join(f'{x:.2f}' for x in mr)})")
if all(r[4] > 0 for r in rows):
    os_ = statistics.median(r[4] for r in rows)
    print(f"old build: median {os_:.2f}s, ratio old/decode median {statistics.median(r[4] / r[0] for r in rows):.2f}x, "
          f"peak RSS {max(r[5] for r in rows) / 1024:.0f} MiB (ratio median {statistics.median(r[5] / r[1] for r in rows):.2f}x)")
    print(f"old build CPU ratio old/decode: median {statistics.median(r[8] / r[6] for r in rows):.2f}x")
    print(f"new/old: wall median {statistics.median(r[2] / r[4] for r in rows):.2f}x, peak RSS median {statistics.median(r[3] / r[5] for r in rows):.2f}x")
PY
