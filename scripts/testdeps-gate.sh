#!/usr/bin/env bash
# testdeps-gate.sh lets make test's passes compile and link their test
# binaries while make testdeps installs what the tests read and run (npm
# packages: a fresh clone's installs take about 20 s, most of it on one
# core), and starts the test binaries of the packages whose tests read
# what it installs only once that is done:
#
#   testdeps-gate.sh run MAKE CMD...   runs MAKE testdeps and, beside it,
#                                      CMD (make test's passes), with
#                                      RUBRIC_TESTDEPS_GATE set; fails if
#                                      either does
#   testdeps-gate.sh exec PKGS BIN ARG...
#                                      go test -exec, in the package's
#                                      folder: when PKGS (./dir,./dir...,
#                                      the Makefile's TESTDEPS_PACKAGES)
#                                      holds the package, waits until
#                                      testdeps has ended, then runs BIN,
#                                      or fails if testdeps did; any other
#                                      package's BIN runs at once;
#                                      with RUBRIC_TEST_TIMELINE naming a
#                                      file, a line a binary is added to
#                                      it (bench/suite-runs.sh)
#
# The gate is a lock (flock(1), util-linux) that run holds while testdeps
# runs: exec waits on the lock, not on a clock. go test runs a package's
# test binary in one of its -p slots, so a binary held at the gate holds
# its slot too: held all of them, the passes ran nothing but the npm
# installs, on about one core, until testdeps ended.
set -euo pipefail
mode=${1:?usage: testdeps-gate.sh run MAKE CMD... | exec PKGS BIN ARG...}
shift
case $mode in
run)
	mk=${1:?usage: testdeps-gate.sh run MAKE CMD...}
	shift
	gate=$(mktemp -d "${TMPDIR:-/tmp}/rubric-testdeps.XXXXXX")
	trap 'rm -rf "$gate"' EXIT
	# Locked before CMD starts, so that no test binary can pass first.
	exec 9>"$gate/lock"
	flock 9
	(
		status=0
		"$mk" --no-print-directory -j6 testdeps || status=$?
		echo "$status" >"$gate/status"
		flock -u 9
	) &
	deps=$!
	status=0
	RUBRIC_TESTDEPS_GATE=$gate "$@" || status=$?
	wait "$deps"
	if [ "$(cat "$gate/status")" != 0 ]; then
		echo "testdeps-gate.sh: make testdeps failed" >&2
		exit 1
	fi
	exit "$status"
	;;
exec)
	gate=${RUBRIC_TESTDEPS_GATE:?testdeps-gate.sh exec runs under testdeps-gate.sh run (make test)}
	pkgs=${1:?usage: testdeps-gate.sh exec PKGS BIN ARG...}
	shift
	root=$(cd "$(dirname "$0")/.." && pwd -P)
	here=$(pwd -P)
	case ",$pkgs," in
	*",./${here#"$root"/},"*)
		flock -s "$gate/lock" true
		if [ "$(cat "$gate/status" 2>/dev/null)" != 0 ]; then
			echo "testdeps-gate.sh: make testdeps failed, and the tests need what it installs: see its output above" >&2
			exit 1
		fi
		;;
	esac
	if [ -z "${RUBRIC_TEST_TIMELINE:-}" ]; then
		exec "$@"
	fi
	# bench/suite-runs.sh: when each test binary ran, and in which pass
	# (make test's recipes set RUBRIC_SCRIPTS=race in the race pass and
	# rest in the heavy one), one line a binary: start, end, pass,
	# package. The binary is this shell's child here, not its
	# replacement, so a signal go test sends on a timeout reaches the
	# shell first: a bench's concern, never make test's own.
	start=$(date +%s.%N)
	status=0
	"$@" || status=$?
	case ${RUBRIC_SCRIPTS:-} in
	race) pass=race ;;
	rest) pass=heavy ;;
	*) pass=plain ;;
	esac
	echo "$start $(date +%s.%N) $pass ./${here#"$root"/}" >>"$RUBRIC_TEST_TIMELINE"
	exit "$status"
	;;
*)
	echo "testdeps-gate.sh: no mode $mode: run or exec" >&2
	exit 2
	;;
esac
