#!/usr/bin/env bash
# Scores the 16 corpus captures under the three built-in rubrics with two
# rubric binaries (an older build and this tree's), without the answer
# cache, and compares the JSON reports with their timings taken out:
# prints one line per report, "same" or the paths of the members that
# differ, so that a change meant to move no score shows that none moved.
#
#   bash bench/identity.sh /tmp/rubric-old            # against this tree
#   bash bench/identity.sh /tmp/rubric-old /tmp/rubric-new
#
# OUT names the directory the reports go to (default bench/out/identity);
# RUBRICS the built-in rubrics to score (default "schema-quality tdqs
# gradable"; RUBRICS=tool-safety for the text functions).
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: bench/identity.sh OLD-BINARY [NEW-BINARY]}
out=${OUT:-bench/out/identity}
mkdir -p "$out"
new=${2:-}
if [ -z "$new" ]; then
  new=$out/rubric
  go build -o "$new" ./cmd/rubric
fi
for f in engine/score/testdata/corpus/*.tools.json; do
  name=$(basename "$f" .tools.json)
  for r in ${RUBRICS:-schema-quality tdqs gradable}; do
    for side in old new; do
      bin=$old
      [ "$side" = new ] && bin=$new
      "$bin" score --no-cache --progress=false --rubric "$r" --format json --out "$out/$name.$r.$side.json" "$f" >/dev/null || true
      jq -S 'del(.timings) | del(.. | .timings?)' "$out/$name.$r.$side.json" >"$out/$name.$r.$side.norm.json"
    done
    if cmp -s "$out/$name.$r.old.norm.json" "$out/$name.$r.new.norm.json"; then
      echo "$name $r: same"
    else
      # The paths of the leaves that differ, numbers of list items as *.
      paths=$(jq -n --slurpfile a "$out/$name.$r.old.norm.json" --slurpfile b "$out/$name.$r.new.norm.json" -r '
        def leaves: [paths(if type == "object" or type == "array" then length == 0 else true end)];
        ($a[0] | leaves) as $pa | ($b[0] | leaves) as $pb
        | [($pa + $pb | unique)[] | . as $p
           | select(($a[0] | getpath($p)) != ($b[0] | getpath($p)))
           | map(if type == "number" then "*" else tostring end) | join(".")]
        | unique | join(" ")')
      echo "$name $r: differs: $paths"
    fi
  done
done
