#!/usr/bin/env bash
# Scores a surface of 100,000 tools built from the real corpus captures and
# sets the whole `rubric score` beside merely decoding the same file with
# encoding/json, alternating the two so that both see the same machine.
#
#   bash bench/score-100k.sh [TOOLS] [ROUNDS]
#
# Prints, for each round, wall seconds and peak RSS of both, then the median
# ratio, tools per second and peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${1:-100000}
rounds=${2:-3}
out=bench/out
mkdir -p "$out"
corpus=engine/score/testdata/corpus

go build -o "$out/rubric" ./cmd/rubric
go build -o "$out/decode" ./bench/decode
go run ./bench/gen -n "$tools" -o "$out/big.tools.json" "$corpus"/*.tools.json
size=$(stat -c %s "$out/big.tools.json")
echo "surface: $tools tools, $((size / 1024 / 1024)) MiB"

measure() { # prints "seconds maxrss_kib"
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$@" >/dev/null
  cat "$out/time.txt"
}

: >"$out/rounds.txt"
for i in $(seq "$rounds"); do
  read -r ds dm < <(measure "$out/decode" "$out/big.tools.json")
  read -r rs rm < <(measure "$out/rubric" score --max-bytes 4GiB --max-tools 1000000 --format json --out "$out/report.json" "$out/big.tools.json")
  echo "round $i: decode ${ds}s ${dm}KiB   rubric score ${rs}s ${rm}KiB"
  echo "$ds $dm $rs $rm" >>"$out/rounds.txt"
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
PY
