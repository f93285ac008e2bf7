#!/usr/bin/env bash
# suite-cpu.sh OUTDIR [race|heavy|plain]...: runs make test's passes one
# after another (every one by default) as the Makefile's test-race,
# test-heavy and test-plain run them, each test binary under bench/reap,
# and writes to OUTDIR, for each pass, PASS.txt (one line a test binary:
# command|wall|user|system, with every process below it, Chromium's
# orphans and the SARIF validator included), PASS-total.txt (the whole go
# test: the same plus compiling and linking) and PASS.log. The job
# queue's tests need RUBRIC_TEST_POSTGRES (scripts/pg-test.sh prints one).
# Then, per package, the CPU seconds of a pass, most first:
#
#   awk -F'|' '{split($1, c, " "); n = split(c[1], p, "/"); printf "%-24s %6.1f\n", p[n], $(NF-1) + $NF}' OUTDIR/race.txt | sort -k2 -rn
#
# and the go command's own share (compiling, linking, its bookkeeping)
# is PASS-total's CPU less the sum of PASS.txt's.
set -euo pipefail
out=${1:?usage: bench/suite-cpu.sh OUTDIR [race|heavy|plain]...}
shift
passes=("${@:-race heavy plain}")
read -r -a passes <<< "${passes[*]}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
reap=$out/reap
go build -o "$reap" ./bench/reap
var() { make -s --no-print-directory --eval "print-var: ; @echo '\$($1)'" print-var; }
flags=(-count=1 -vet=off -trimpath '-ldflags=-s -w' -timeout 25m)
for p in "${passes[@]}"; do
	rm -f "$out/$p.txt" "$out/$p-total.txt"
	case $p in
	race) env=(RUBRIC_REQUIRE_SERVERS=1 RUBRIC_HEAVY_TESTS=later RUBRIC_SCRIPTS=race); args=(-race -p "$(var RACE_P)"); pkgs=$(var RACE_PACKAGES) ;;
	heavy) env=($(var NOCGO) RUBRIC_REQUIRE_SERVERS=1 RUBRIC_SCRIPTS=rest); args=(-p "$(var HEAVY_P)" -run "$(var HEAVY_RUN)"); pkgs=$(make -s --no-print-directory --eval 'print-var: ; @echo $(filter-out $(NORACE_PACKAGES),$(HEAVY_PACKAGES))' print-var) ;;
	plain) env=($(var NOCGO) RUBRIC_REQUIRE_SERVERS=1); args=(); pkgs=$(var NORACE_PACKAGES) ;;
	*) echo "suite-cpu.sh: no pass $p: race, heavy or plain" >&2; exit 2 ;;
	esac
	echo "$p: $(uptime)" >&2
	# shellcheck disable=SC2086 # pkgs is a list of words
	"$reap" "$out/$p-total.txt" env "${env[@]}" go test "${args[@]}" "${flags[@]}" -exec "$reap $out/$p.txt" $pkgs > "$out/$p.log" 2>&1 || echo "suite-cpu.sh: the $p pass failed: see $out/$p.log" >&2
done
echo "done: $(uptime)" >&2
