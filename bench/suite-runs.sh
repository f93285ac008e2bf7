#!/usr/bin/env bash
# suite-runs.sh runs make test from fresh clones of this repository, one
# after another, and prints one row a run: what issue 13 asks to see
# (make test unloaded, and five runs in a row beside two CPU-bound
# processes), measured the same way each time.
#
#   bash bench/suite-runs.sh [-n RUNS] [-y YES] [-t TARGET] [COMMIT...]
#
#   -n RUNS    runs of each commit (default 1); with several commits the
#              runs alternate (A B A B ...), so that both meet the same
#              machine
#   -y YES     how many `yes > /dev/null` run beside each run (default 0;
#              issue 13's loaded runs take 2)
#   -t TARGET  the make target (default test; `-t vet` tries the script
#              in seconds)
#   COMMIT     commits to clone (default HEAD)
#
# Each run clones the repository into a new directory under OUT (default
# bench/out/suite-runs), checks the commit out, starts the yes
# processes, runs `make TARGET` under /usr/bin/time, and stops them; the
# clone's output is OUT/NAME.log. While it runs, the share of both cores
# busy is read from /proc/stat once a second (OUT/NAME.cpu: second,
# percent), and each test binary's start, end, pass and package goes to
# OUT/NAME.tests (scripts/testdeps-gate.sh, RUBRIC_TEST_TIMELINE; epoch
# seconds). The row gives the load average at the start and the end,
# the wall time, user and system CPU seconds of make and all it started,
# the mean busy share, the second at which the last test binary of each
# pass ended (plain, heavy, race) and the exit status; the script fails
# if any run did.
set -euo pipefail
runs=1 yes=0 target=test
while getopts "n:y:t:" o; do
	case $o in
	n) runs=$OPTARG ;;
	y) yes=$OPTARG ;;
	t) target=$OPTARG ;;
	*) echo "usage: bash bench/suite-runs.sh [-n RUNS] [-y YES] [-t TARGET] [COMMIT...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
cd "$(dirname "$0")/.."
repo=$(pwd)
# Each commit is resolved once, here: a name such as HEAD would
# otherwise name whatever was committed while the runs went on.
revs=()
for c in "${@:-HEAD}"; do
	rev=$(git rev-parse --verify -q --short "$c^{commit}") || { echo "suite-runs.sh: no commit $c" >&2; exit 2; }
	revs+=("$rev")
done
out=${OUT:-bench/out/suite-runs}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# sample writes "second percent" lines to $1 until killed.
sample() {
	local prev cur t=0 busy total i
	read -r -a prev < <(head -1 /proc/stat)
	while sleep 1; do
		t=$((t + 1))
		read -r -a cur < <(head -1 /proc/stat)
		total=0
		for i in 1 2 3 4 5 6 7 8; do total=$((total + cur[i] - prev[i])); done
		busy=$((total - (cur[4] + cur[5]) + (prev[4] + prev[5])))
		echo "$t $((100 * busy / (total > 0 ? total : 1)))" >>"$1"
		prev=("${cur[@]}")
	done
}

echo "| run | commit | start (UTC) | yes | load | wall | user + sys CPU-s | busy | passes end | exit |"
echo "|---|---|---|--:|---|--:|--:|--:|---|--:|"
failed=0
for i in $(seq "$runs"); do
	for rev in "${revs[@]}"; do
		name=$rev-$i
		dir=$out/$name
		rm -rf "$dir" "$out/$name.cpu" "$out/$name.tests"
		git clone -q "$repo" "$dir"
		git -C "$dir" checkout -q "$rev"
		pids=()
		for _ in $(seq "$yes"); do
			yes >/dev/null &
			pids+=($!)
		done
		: >"$out/$name.cpu"
		sample "$out/$name.cpu" &
		pids+=($!)
		start=$(date -u +%H:%M:%S)
		epoch=$(date +%s.%N)
		load0=$(cut -d' ' -f1 /proc/loadavg)
		status=0
		(cd "$dir" && RUBRIC_TEST_TIMELINE=$out/$name.tests /usr/bin/time -f "%e %U %S" -o "$out/$name.time" make "$target" >"$out/$name.log" 2>&1) || status=$?
		load1=$(cut -d' ' -f1 /proc/loadavg)
		kill "${pids[@]}" 2>/dev/null || true
		wait "${pids[@]}" 2>/dev/null || true
		read -r wall user sys < <(tail -1 "$out/$name.time")
		busy=$(awk '{s += $2; n++} END {if (n) printf "%d%%", s / n; else print "-"}' "$out/$name.cpu")
		cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}')
		ends=$(awk -v t0="$epoch" '{e[$3] = $2 - t0 > e[$3] ? $2 - t0 : e[$3]}
			END {for (p in e) n++; if (n) printf "%.0f / %.0f / %.0f s", e["plain"], e["heavy"], e["race"]; else print "-"}' "$out/$name.tests" 2>/dev/null || echo -)
		echo "| $i | $rev | $start | $yes | $load0 -> $load1 | $wall s | $cpu | $busy | $ends | $status |"
		[ "$status" = 0 ] || failed=1
		rm -rf "$dir"
	done
done
exit "$failed"
