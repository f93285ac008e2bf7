#!/usr/bin/env bash
# Times cmd/rubric's transcripts (or any other tests of a package) side
# by side at two revisions: builds the package's test binary of each from
# git archive, then runs each named test at the old and the new revision
# in turn, ROUNDS times (default 3), and prints one line per run (wall
# seconds, and CPU seconds of the test binary and every process below it,
# counted by bench/reap) and the sums of each side, so that a change meant
# to make the suite faster is measured on the same machine, under the same
# load, in one run. The test binaries are built as make test builds them
# (-trimpath -ldflags='-s -w').
#
#   bash bench/transcripts.sh HEAD~1 HEAD 'TestScripts/scan$'
#   PKG=./cmd/rubric ENV='RUBRIC_SCRIPTS=rest' bash bench/transcripts.sh main HEAD 'TestMCPHostile$'
#
# PKG is the package (default ./cmd/rubric); RACE=1 builds with -race;
# ENV holds extra variables for the runs (the transcripts that need a
# Postgres read RUBRIC_TEST_POSTGRES from the environment as make test
# sets it). The trees and binaries go to a temporary directory that is
# removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: bench/transcripts.sh OLD-REV NEW-REV TEST-REGEXP...}
new=${2:?usage: bench/transcripts.sh OLD-REV NEW-REV TEST-REGEXP...}
shift 2
[ $# -gt 0 ] || { echo "name at least one test, such as 'TestScripts/scan\$'" >&2; exit 2; }
pkg=${PKG:-./cmd/rubric}
rounds=${ROUNDS:-3}
race=()
[ "${RACE:-}" = 1 ] && race=(-race)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rubric-transcripts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for side in old new; do
  rev=$old
  [ "$side" = new ] && rev=$new
  mkdir -p "$tmp/$side"
  git archive "$rev" | tar -x -C "$tmp/$side"
  # The npm test dependencies are not in git: the trees share this one's.
  for d in testdeps testdata/servers testdata/modern testdeps/inspector testdeps/sarif-multitool; do
    [ -d "$d/node_modules" ] && ln -s "$PWD/$d/node_modules" "$tmp/$side/$d/node_modules"
  done
  (cd "$tmp/$side" && go test "${race[@]}" -trimpath '-ldflags=-s -w' -c -o "$tmp/$side.test" "$pkg")
done
go build -o "$tmp/reap" ./bench/reap
declare -A sum=([old]=0 [new]=0) cpu=([old]=0 [new]=0)
uptime
for round in $(seq "$rounds"); do
  for t in "$@"; do
    for side in old new; do
      rm -f "$tmp/cpu.txt"
      # shellcheck disable=SC2086 # ENV is a list of words
      (cd "$tmp/$side/$pkg" && env ${ENV:-} "$tmp/reap" "$tmp/cpu.txt" "$tmp/$side.test" -test.run "$t" -test.count 1 >"$tmp/$side.out" 2>&1) ||
        { echo "$side $t failed:" >&2; tail -n 40 "$tmp/$side.out" >&2; exit 1; }
      # The last three fields: the command, first, may hold a | (a
      # test regexp such as 'TestScripts/(lock|lock_config)$').
      read -r s u y < <(awk -F'|' '{print $(NF-2), $(NF-1), $NF}' "$tmp/cpu.txt")
      c=$(echo "$u + $y" | bc)
      sum[$side]=$(echo "${sum[$side]} + $s" | bc)
      cpu[$side]=$(echo "${cpu[$side]} + $c" | bc)
      printf 'round %d %-4s %-40s %7.2f s wall %7.2f CPU-s  (%s)\n' "$round" "$side" "$t" "$s" "$c" "load $(cut -d' ' -f1-3 /proc/loadavg)"
    done
  done
done
printf 'wall: old %.2f s, new %.2f s, new/old %.2f\n' "${sum[old]}" "${sum[new]}" "$(echo "${sum[new]} / ${sum[old]}" | bc -l)"
printf 'CPU:  old %.2f s, new %.2f s, new/old %.2f\n' "${cpu[old]}" "${cpu[new]}" "$(echo "${cpu[new]} / ${cpu[old]}" | bc -l)"
uptime
