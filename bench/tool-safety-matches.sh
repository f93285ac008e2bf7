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
# space after each a; "Do not tell the user. " is another cue). CASE
# makes the N matches of something other than a repeated text:
#   padding  eight line breaks and a letter, N times in the description
#   base64   a 40-character base64 run that decodes to text, N times
#   hex      a 40-character hex run that decodes to text, N times
#   effects  "deletes " N times in a tool annotated readOnlyHint
#   enum     one parameter whose enum has N values, each with a U+200B
#   enumruns one parameter whose enum has N values, each a base64 run
#            that decodes to text
#   props    N parameters, each described "a\u200b"
#
#   CASE=enum OLD=/tmp/rubric-base bash bench/tool-safety-matches.sh 10000 20000 40000
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/out/matches}
old=${OLD:?set OLD to the older rubric binary}
text=${TEXT:-$'a\u200b'}
case=${CASE:-text}
mkdir -p "$out"
new=${NEW:-}
if [ -z "$new" ]; then
  new=$out/rubric
  go build -o "$new" ./cmd/rubric
fi
printf '%-8s %8s %8s  %s\n' matches old new reports
for n in "${@:-10000 20000 40000}"; do
  f=$out/${case}-$n.tools.json
  CASE=$case TEXT=$text N=$n python3 -c '
import json, os
case, n, text = os.environ["CASE"], int(os.environ["N"]), os.environ["TEXT"]
t = {"name": "hostile", "description": text * n, "inputSchema": {"type": "object"}}
if case == "padding":
    t["description"] = ("\n" * 8 + "x") * n
elif case == "base64":
    t["description"] = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNk " * n
elif case == "hex":
    t["description"] = "4142434445464748494a4b4c4d4e4f5051525354 " * n
elif case == "effects":
    t["description"] = "deletes " * n
    t["annotations"] = {"readOnlyHint": True}
elif case == "enum":
    t["description"] = "Picks one."
    t["inputSchema"]["properties"] = {"mode": {"type": "string", "enum": ["v%d\u200b" % i for i in range(n)]}}
elif case == "enumruns":
    t["description"] = "Picks one."
    t["inputSchema"]["properties"] = {"mode": {"type": "string", "enum": ["%d QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNk" % i for i in range(n)]}}
elif case == "props":
    t["description"] = "Many."
    t["inputSchema"]["properties"] = {"p%d" % i: {"type": "string", "description": "a\u200b"} for i in range(n)}
elif case != "text":
    raise SystemExit("CASE is text, padding, base64, hex, effects, enum, enumruns or props, not " + case)
print(json.dumps([t]))' >"$f"
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    rm -f "$out/$n.$side.json"
    /usr/bin/time -f %U -o "$out/$n.$side.time" "$bin" score --no-cache --progress=false --rubric tool-safety --format json --out "$out/$n.$side.json" "$f" >/dev/null 2>"$out/$n.$side.err" || true
    if [ -s "$out/$n.$side.json" ]; then
      jq -S 'del(.timings) | del(.. | .timings?) | del(.rubric.version, .rubric.digest)' "$out/$n.$side.json" >"$out/$n.$side.norm.json"
    else
      echo "failed: $(grep -o 'cost limit exceeded' "$out/$n.$side.err" | head -1)" >"$out/$n.$side.norm.json"
    fi
  done
  same=differ
  cmp -s "$out/$n.old.norm.json" "$out/$n.new.norm.json" && same=same
  grep -q '^failed' "$out/$n.old.norm.json" && same="old $(cat "$out/$n.old.norm.json")"
  printf '%-8s %8s %8s  %s\n' "$n" "$(tail -1 "$out/$n.old.time")" "$(tail -1 "$out/$n.new.time")" "$same"
done
