#!/usr/bin/env bash
# Reads MCP servers live with two rubric binaries, an older build and this
# tree's, alternately, and prints the median time each took to read the
# tools (the report's timings.read_ms: start, handshake, tools/list) and
# the median wall time of the whole command:
#
# - a corpus server over stdio (server-memory, legacy only): what MCP
#   2026-07-28 support costs a legacy server, which should be nothing;
# - the SDK v2 test server (testdata/modern) over stdio serving both eras,
#   and serving only 2026-07-28, which the older build cannot read;
# - the same two over streamable HTTP, started once, so that node's start
#   is not in the figures and the round trips are.
#
#   bash bench/modern.sh /tmp/rubric-old          # 5 rounds
#   bash bench/modern.sh /tmp/rubric-old 9
#
# Build the older binary from a checkout of the commit to compare with, for
# example: git worktree add /tmp/old main && (cd /tmp/old && go build -o
# /tmp/rubric-old ./cmd/rubric). make testdeps installs the servers.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: bench/modern.sh OLD-BINARY [ROUNDS]}
rounds=${2:-5}
out=${OUT:-bench/out/modern}
mkdir -p "$out"
new=$out/rubric
go build -o "$new" ./cmd/rubric
memory=testdata/servers/node_modules/.bin/mcp-server-memory
modern=testdata/modern/server.mjs

# Servers over HTTP, each writing its URL as its first line.
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
serve() { # serve NAME OPTIONS...: starts one, sets url_NAME
  local name=$1
  shift
  rm -f "$out/$name.url"
  node "$modern" http "$@" >"$out/$name.url" &
  pids+=($!)
  until [ -s "$out/$name.url" ]; do sleep 0.1; done
  printf -v "url_$name" '%s' "$(head -1 "$out/$name.url")"
}
serve both
serve modernonly --modern-only

# read SIDE CASE TARGET...: one read, appending "read_ms wall_ms era" to
# $out/CASE.SIDE, or "failed" with the first line of the error.
read1() {
  local side=$1 case=$2
  shift 2
  local bin=$old
  [ "$side" = new ] && bin=$new
  local start end
  start=$(date +%s%N)
  if "$bin" score --no-cache --progress=false --rubric schema-quality --format json --out "$out/r.json" "$@" >/dev/null 2>"$out/err"; then
    end=$(date +%s%N)
    echo "$(jq -r '.timings.read_ms' "$out/r.json") $(((end - start) / 1000000)) $(jq -r '.surface.server.era // "-"' "$out/r.json")" >>"$out/$case.$side"
  else
    echo "failed $(head -1 "$out/err")" >>"$out/$case.$side"
  fi
}

cases=(memory-stdio both-stdio modernonly-stdio both-http modernonly-http)
for c in "${cases[@]}"; do rm -f "$out/$c.old" "$out/$c.new"; done
for ((i = 0; i < rounds; i++)); do
  for side in old new; do
    read1 $side memory-stdio --env MEMORY_FILE_PATH="$out/memory.jsonl" -- "$memory"
    read1 $side both-stdio -- node "$modern" stdio
    read1 $side modernonly-stdio -- node "$modern" stdio --modern-only
    read1 $side both-http "$url_both"
    read1 $side modernonly-http "$url_modernonly"
  done
done

# median FILE COLUMN
median() { awk -v c="$2" '$1 != "failed" {print $c}' "$1" | sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else print a[int((NR+1)/2)]}'; }
printf '%-18s %-4s %10s %10s  %s\n' case side read_ms wall_ms era
for c in "${cases[@]}"; do
  for side in old new; do
    f=$out/$c.$side
    if grep -q '^failed' "$f"; then
      printf '%-18s %-4s %s\n' "$c" "$side" "$(grep -m1 '^failed' "$f")"
    else
      printf '%-18s %-4s %10s %10s  %s\n' "$c" "$side" "$(median "$f" 1)" "$(median "$f" 2)" "$(awk '{print $3}' "$f" | sort -u | tr '\n' ' ')"
    fi
  done
done
