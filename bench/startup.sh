#!/usr/bin/env bash
# Start-up: sets a one-tool `rubric score` (Schema Quality, a static
# rubric, no answer cache), the same with Gradable (a judged rubric,
# the built-in heuristic judge, and tokens counted) and `rubric rubrics
# list` beside `rubric --version`, the cost of merely starting the binary. Each round
# runs every command once, in turn, so that all of them meet the same
# machine; the script prints the median wall and CPU (user + system, the
# plugin processes included) milliseconds of each and the ratios of the
# medians to --version's.
#
#   bash bench/startup.sh [ROUNDS] [OLD-BINARY]
#
# With OLD-BINARY (a build of another commit), its three commands run in
# the same rounds, alternating with this tree's, and are set beside its
# own --version. OLD-BINARY is measured with whatever lies beside it: a
# build of this commit alone in a directory is this commit without the
# file transport's companion binary. The surface is bench/startup/one-tool.json, the first
# tool of examples/captures/filesystem.tools.json.
#
# Each binary (and the companion beside it) is dropped from the page
# cache and read back whole before the rounds, so that two builds start
# from the same state of their pages (see bench/README.md).
#
# RT=1 runs the rounds under `chrt -f 10` (SCHED_FIFO, root only), so that
# on a machine loaded by others the commands get the CPUs as on a quiet one
# and wall times mean something; keep ROUNDS small, since nothing else runs
# meanwhile (an old build alone in its directory once stalled there, its
# plugin starved past the 10 s start timeout).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}
old=${2:-}
out=bench/out
mkdir -p "$out"
# rubric and, beside it, the file transport's own small binary, which
# rubric starts to read the surface (plugins/host: a built-in's companion).
go build -o "$out/rubric" ./cmd/rubric
go build -o "$out/rubric-transport-file" ./cmd/rubric-transport-file
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs, $rounds rounds"
${RT:+chrt -f 10} python3 - "$rounds" "$out/rubric" ${old:+"$old"} <<'PY'
import os, statistics, subprocess, sys, time

rounds, binaries = int(sys.argv[1]), sys.argv[2:]
names = ["new", "old"][: len(binaries)]
commands = [
    ("--version", ["--version"]),
    ("score 1 tool", ["score", "--no-cache", "--progress=false", "bench/startup/one-tool.json"]),
    ("gradable 1", ["score", "--rubric", "gradable", "--no-cache", "--progress=false", "bench/startup/one-tool.json"]),
    ("rubrics list", ["rubrics", "list"]),
]
env = dict(os.environ, NO_COLOR="1")

def run(argv):
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr.read().decode()}")
    return wall * 1000, (ru.ru_utime + ru.ru_stime) * 1000

# Every binary measured, and the companion beside it, is put in the same
# state in the page cache first: written back, dropped and read again
# whole. How a binary's pages came into the cache (written by the
# linker, copied, read back) changed its start by as much as 6%, so two
# builds of one commit differed by that much, --version included.
for b in binaries:
    for path in (b, os.path.join(os.path.dirname(b), "rubric-transport-file")):
        if os.path.isfile(path):
            fd = os.open(path, os.O_RDONLY)
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            while os.read(fd, 1 << 20):
                pass
            os.close(fd)

samples = {(n, c): [] for n in names for c, _ in commands}
for _ in range(3):  # warm-up: page cache, the Go build cache of nothing
    for b in binaries:
        for _, args in commands:
            run([b] + args)
for _ in range(rounds):
    for c, args in commands:
        for n, b in zip(names, binaries):
            samples[(n, c)].append(run([b] + args))

print(f"{'binary':6} {'command':14} {'wall ms':>8} {'cpu ms':>8} {'wall/--version':>15} {'cpu/--version':>14}")
for n in names:
    base_wall = statistics.median(w for w, _ in samples[(n, "--version")])
    base_cpu = statistics.median(c for _, c in samples[(n, "--version")])
    for c, _ in commands:
        wall = statistics.median(w for w, _ in samples[(n, c)])
        cpu = statistics.median(c2 for _, c2 in samples[(n, c)])
        print(f"{n:6} {c:14} {wall:8.1f} {cpu:8.1f} {wall / base_wall:14.2f}x {cpu / base_cpu:13.2f}x")
if len(names) == 2:
    for c, _ in commands:
        ratios = [nw / ow for (nw, _), (ow, _) in zip(samples[("new", c)], samples[("old", c)])]
        print(f"new/old {c}: wall {statistics.median(ratios):.2f}x (median of per-round ratios)")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
