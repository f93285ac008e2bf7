#!/usr/bin/env bash
# Measures how the judged rubrics grow with the number of tools, with the
# offline heuristic judge: wall time and peak RSS of `rubric score` for
# Gradable and TDQS on surfaces built from the corpus captures (notion's
# first, so that even the smallest surface holds its $ref tools), and
# Schema Quality beside TDQS on the same file, run one after the other so
# that both meet the same machine; and Toolset, whose surface formulas go
# through every tool's words.
#
#   bash bench/scale.sh
#   GRADABLE="100 200" TDQS="1000 2000" bash bench/scale.sh
#   GRADABLE= TDQS= TOOLSET="5000 10000 20000" bash bench/scale.sh
#
# GRADABLE, TDQS and TOOLSET list the tool counts (default 100 200 400,
# 1000 5000 20000 and 5000 10000 20000; empty for none). RUBRIC names a binary to measure instead of one built
# from this tree (an older build, to compare), and OUT the directory the
# figures go to (default bench/out). Prints one row per run, then for each rubric the
# exponent of time and memory between consecutive sizes (1 is linear).
# Every run scores without the answer cache, so each one asks the judge.
set -euo pipefail
cd "$(dirname "$0")/.."
gradable=${GRADABLE-100 200 400}
tdqs=${TDQS-1000 5000 20000}
toolset=${TOOLSET-5000 10000 20000}
out=${OUT:-bench/out}
surfaces=bench/out
mkdir -p "$out" "$surfaces"
corpus=engine/score/testdata/corpus
captures=("$corpus/notion.tools.json")
for f in "$corpus"/*.tools.json; do
  [ "$f" = "$corpus/notion.tools.json" ] || captures+=("$f")
done

bin=${RUBRIC:-}
if [ -z "$bin" ]; then
  bin=$out/rubric
  go build -o "$bin" ./cmd/rubric
fi

surface() { # n: writes bench/out/scale-n.tools.json once
  [ -f "$surfaces/scale-$1.tools.json" ] || go run ./bench/gen -n "$1" -o "$surfaces/scale-$1.tools.json" "${captures[@]}"
  echo "$surfaces/scale-$1.tools.json"
}

: >"$out/scale.txt"
measure() { # rubric n: prints a row, appends "rubric n wall user maxrss_kib" to scale.txt
  local file
  file=$(surface "$2")
  /usr/bin/time -f "%e %U %M" -o "$out/time.txt" "$bin" score --no-cache --progress=false \
    --max-bytes 4GiB --max-tools 1000000 --rubric "$1" --format json --out "$out/scale-report.json" "$file" >/dev/null
  read -r wall user rss <"$out/time.txt"
  printf '%-15s %6d tools  %8.2f s wall  %8.2f s user  %6d MiB peak  %7d KiB report\n' \
    "$1" "$2" "$wall" "$user" "$((rss / 1024))" "$(($(stat -c %s "$out/scale-report.json") / 1024))"
  echo "$1 $2 $wall $user $rss" >>"$out/scale.txt"
}

for n in $gradable; do measure gradable "$n"; done
for n in $tdqs; do
  measure tdqs "$n"
  [ "$n" = 5000 ] && measure schema-quality 5000
done
for n in $toolset; do measure toolset "$n"; done

python3 - "$out/scale.txt" <<'PY'
import math, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
by = {}
for r, n, wall, user, rss in rows:
    by.setdefault(r, []).append((int(n), float(wall), float(user), int(rss)))
for r, runs in by.items():
    for (n0, w0, u0, m0), (n1, w1, u1, m1) in zip(runs, runs[1:]):
        k = math.log(n1 / n0)
        print(f"{r}: {n0} -> {n1} tools: exponent of wall {math.log(w1 / w0) / k:.2f}, "
              f"of user time {math.log(max(u1, 0.01) / max(u0, 0.01)) / k:.2f}, of peak memory {math.log(m1 / m0) / k:.2f}")
t = {n: w for n, w, _, _ in by.get("tdqs", [])}
s = {n: w for n, w, _, _ in by.get("schema-quality", [])}
if 5000 in t and 5000 in s:
    print(f"tdqs / schema-quality at 5000 tools: {t[5000] / s[5000]:.1f}x wall")
PY
