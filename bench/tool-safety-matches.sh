#!/usr/bin/env bash
# Scores one tool whose description repeats a cue N times (each
# repetition one match) under two rubric binaries, one after the other,
# and prints each one's user CPU seconds and whether the two reports
# agree (timings and the rubric's version and digest left out): Tool
# Safety's cost in the number of matches of one hostile text.
#
#   OLD=/tmp/rubric-base bash bench/tool-safety-matches.sh 10000 20000 40000
#
# OLD is required; NEW names the binary to measure instead of one built
# from this tree. TEXT is the text repeated (default "a\u200b", a zero-width
# space after each a; "Do not tell the user. " is another cue).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/out/matches}
old=${OLD:?set OLD to the older rubric binary}
text=${TEXT:-$'a\u200b'}
mkdir -p "$out"
new=${NEW:-}
if [ -z "$new" ]; then
  new=$out/rubric
  go build -o "$new" ./cmd/rubric
fi
printf '%-8s %8s %8s  %s\n' matches old new reports
for n in "${@:-10000 20000 40000}"; do
  f=$out/text-$n.tools.json
  TEXT=$text N=$n python3 -c 'import json, os; print(json.dumps([{"name": "hostile", "description": os.environ["TEXT"] * int(os.environ["N"]), "inputSchema": {"type": "object"}}]))' >"$f"
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    /usr/bin/time -f %U -o "$out/$n.$side.time" "$bin" score --no-cache --progress=false --rubric tool-safety --format json --out "$out/$n.$side.json" "$f" >/dev/null || true
    jq -S 'del(.timings) | del(.. | .timings?) | del(.rubric.version, .rubric.digest)' "$out/$n.$side.json" >"$out/$n.$side.norm.json"
  done
  same=differ
  cmp -s "$out/$n.old.norm.json" "$out/$n.new.norm.json" && same=same
  printf '%-8s %8s %8s  %s\n' "$n" "$(tail -1 "$out/$n.old.time")" "$(tail -1 "$out/$n.new.time")" "$same"
done
