#!/usr/bin/env bash
# One tool of many parameters, under each built-in rubric: a server may
# send a single tool whose inputSchema has hundreds of thousands of
# properties, well within --max-bytes (64 MiB), and no rubric may then
# cost the square of them. SHAPE=long sends instead one tool whose
# description is N sentences, each naming a sibling tool, for the
# rubrics that read every word of a text. For each size and rubric,
# runs the old build (when OLD names one) and this tree's, one right
# after the other, with the offline heuristic judge and no cache, and
# prints wall and user seconds, peak RSS, the exit status and the
# overall score.
#
#   bash bench/wide-tool.sh                          # 25,000 and 50,000 parameters
#   OLD=/tmp/rubric-old RUBRICS="gradable tool-safety" bash bench/wide-tool.sh 25000 50000 200000
#   SHAPE=long RUBRICS=toolset bash bench/wide-tool.sh 8000 16000
#
# NEW names the binary to measure instead of one built from this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/out}
mkdir -p "$out"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(25000 50000)
rubrics=${RUBRICS:-schema-quality tdqs gradable tool-safety toolset}
shape=${SHAPE:-wide}
new=${NEW:-}
if [ -z "$new" ]; then
  new=$out/rubric
  go build -o "$new" ./cmd/rubric
fi
builds=()
[ -n "${OLD:-}" ] && builds+=("old=$OLD")
builds+=("new=$new")
for n in "${sizes[@]}"; do
  file=$out/$shape-$n.tools.json
  [ -f "$file" ] || python3 - "$n" "$file" "$shape" <<'PY'
import json, sys
n, path, shape = int(sys.argv[1]), sys.argv[2], sys.argv[3]
if shape == "long":
    text = " ".join(f"Sentence {i} says to call list_items first." for i in range(n))
    tools = [{"name": "long", "description": text, "inputSchema": {"type": "object"}},
             {"name": "list_items", "description": "List the items.", "inputSchema": {"type": "object"}}]
else:
    props = {f"p{i}": {"type": "string", "description": f"value {i}"} for i in range(n)}
    tools = [{"name": "wide", "description": "A tool with many parameters.", "inputSchema": {"type": "object", "properties": props}}]
json.dump({"tools": tools}, open(path, "w"))
PY
  for r in $rubrics; do
    for b in "${builds[@]}"; do
      label=${b%%=*} bin=${b#*=} status=0
      /usr/bin/time -f "%e %U %M" -o "$out/time.txt" "$bin" score --no-cache --progress=false --rubric "$r" \
        --format json --out "$out/$shape-$label.json" "$file" >/dev/null 2>"$out/$shape-$label.err" || status=$?
      # time writes "Command exited with non-zero status" first when
      # the run fails.
      read -r wall user rss < <(tail -n 1 "$out/time.txt")
      score=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("score"))' "$out/$shape-$label.json" 2>/dev/null || echo -)
      printf '%8d %-15s %-4s %8.2f s wall %8.2f s user %6d MiB  exit %d  score %s\n' "$n" "$r" "$label" "$wall" "$user" "$((rss / 1024))" "$status" "$score"
    done
  done
done
