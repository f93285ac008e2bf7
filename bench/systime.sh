#!/usr/bin/env bash
# Where a run's system time goes, by process: one TDQS and one Schema
# Quality run of the same surface (default bench/out/scale-5000.tools.json,
# made by bench/tdqs-vs-sq.sh or bench/scale.sh), each under
# `perf record -g` at 2 kHz. Every sample is given to its process (the
# host, the judge plugin, the file transport: the first, second and
# third process to appear) and, when it was taken in the kernel, to what
# the kernel was doing, read from its call chain:
#
#   faults    a page fault: mostly zeroing a fresh page of the heap
#             (clear_page_erms; a 2 MiB page at a time where the heap is
#             advised huge, internal/hugepages)
#   switches  a thread put to sleep or woken: __schedule and what follows
#             it (the runtime's sysmon sleeping, idle threads parking on
#             futexes, the netpoller waiting on epoll)
#   madvise   memory handed back to the kernel (the scavenger)
#   other     the rest: reads and writes of the plugin's socket, ...
#
# It also prints the huge pages the kernel zeroed for the run
# (thp_fault_alloc of /proc/vmstat, machine-wide: other programs' faults
# during the run count too) and, from `perf stat`, the context switches and
# page faults. Figures are seconds of CPU at the sampling rate (samples /
# 2000), so perf's own cost is in them; use them as shares.
#
# With STRACE=1 it runs each rubric a third time under `strace -f` and
# prints each process's syscalls, most frequent first (strace slows the
# run, and a slower run idles and wakes more: the counts are an upper
# bound).
#
#   bash bench/systime.sh                       # this tree's build
#   bash bench/systime.sh /tmp/rubric-old       # another build
#
# RUBRICS names the rubrics (default "tdqs schema-quality").
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ -z "$bin" ]; then
  bin=$out/rubric
  go build -o "$bin" ./cmd/rubric
fi
file=${FILE:-bench/out/scale-5000.tools.json}
[ -f "$file" ] || { echo "no $file: run bench/tdqs-vs-sq.sh (or set FILE)" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
thp() { awk '$1 == "thp_fault_alloc" { print $2 }' /proc/vmstat; }
args=(score --no-cache --progress=false --max-bytes 4GiB --max-tools 1000000 --format json --out "$out/r.json")
for r in ${RUBRICS:-tdqs schema-quality}; do
  echo "== $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  before=$(thp)
  # A run that fails (exit 2) is measured all the same.
  perf stat -x, -e task-clock,context-switches,page-faults -o "$out/stat.txt" \
    "$bin" "${args[@]}" --rubric "$r" "$file" >/dev/null 2>&1 || true
  after=$(thp)
  awk -F, '$3 != "" && $1 ~ /^[0-9.]+$/ { printf "  %s %s", $3, $1 } END { print "" }' "$out/stat.txt"
  echo "  huge pages zeroed: $((after - before)) ($(((after - before) * 2)) MiB, machine-wide)"
  perf record -q -g -F 2000 -e task-clock -o "$out/perf.data" \
    "$bin" "${args[@]}" --rubric "$r" "$file" >/dev/null 2>&1 || true
  # A sample is a line with its pid, then its call chain, innermost
  # first, one "ip symbol (dso)" a line, then an empty line.
  perf script -i "$out/perf.data" -F pid,ip,sym,dso 2>/dev/null | awk '
    function flush() {
      if (pid == "") return
      if (!(pid in seen)) { seen[pid] = 1; order[++n] = pid }
      total[pid]++
      if (!kernel) user[pid]++
      else if (chain ~ / exc_page_fault /) faults[pid]++
      else if (chain ~ / do_madvise /) madv[pid]++
      else if (chain ~ / __schedule /) sw[pid]++
      else other[pid]++
      pid = ""
    }
    NF == 0 { flush(); next }
    NF == 1 && $1 ~ /^[0-9]+$/ { flush(); pid = $1; first = 1; chain = " "; next }
    { if (first) { kernel = ($0 ~ /kernel/); first = 0 } chain = chain $2 " " }
    END {
      flush()
      # The host is the first process; of its plugins, the judge (when
      # the rubric has one) is the one that worked more: the file
      # transport reads the file and is done.
      pids[1] = order[1]; name[1] = "host"
      if (n == 2) { pids[2] = order[2]; name[2] = "transport" }
      if (n >= 3) {
        j = order[2]; t = order[3]
        if (total[t] > total[j]) { j = order[3]; t = order[2] }
        pids[2] = j; name[2] = "judge"; pids[3] = t; name[3] = "transport"
      }
      for (i = 1; i <= 3; i++) {
        p = pids[i]
        if (p == "") continue
        printf "  %-9s user %5.2f s  kernel %5.2f s: faults %4.2f, switches %4.2f, madvise %4.2f, other %4.2f\n",
          name[i], user[p] / 2000, (faults[p] + sw[p] + madv[p] + other[p]) / 2000,
          faults[p] / 2000, sw[p] / 2000, madv[p] / 2000, other[p] / 2000
      }
    }'
  [ "${STRACE:-0}" = 1 ] || continue
  command -v strace >/dev/null || { echo "  (strace is not installed)"; continue; }
  strace -f -o "$out/strace.txt" "$bin" "${args[@]}" --rubric "$r" "$file" >/dev/null 2>&1 || true
  python3 - "$out/strace.txt" <<'PY'
import collections, re, sys
# strace -f names each line by thread; a thread belongs to the process
# whose thread cloned it (CLONE_THREAD), a process is named by the
# plugin it serves (rubric __serve-plugin KIND NAME), the first is the host.
lines = open(sys.argv[1], errors="replace").read().splitlines()
owner, name, cloning = {}, {}, {}
for l in lines:
    tid = l.split(maxsplit=1)[0]
    if not name:
        name[tid] = "host"
    if re.match(r"\d+ +clone3?\(", l):
        cloning[tid] = "CLONE_THREAD" in l
    m = re.search(r"\) = (\d+)$", l)
    if m and "clone" in l and cloning.get(tid) is not None:
        if cloning.pop(tid):
            owner[m.group(1)] = owner.get(tid, tid)
    m = re.search(r'execve\("[^"]*", \["[^"]*", "__serve-plugin", "(\w+)"', l)
    if m:
        name[tid] = m.group(1)
count = collections.Counter()
for l in lines:
    m = re.match(r"(\d+) +(\w+)\(", l)
    if m:
        tid = m.group(1)
        count[name.get(owner.get(tid, tid), "other"), m.group(2)] += 1
for who in ("host", "judge", "transport"):
    calls = sorted(((n, c) for (w, c), n in count.items() if w == who), reverse=True)
    if calls:
        print(f"  {who:9} {sum(n for n, _ in calls)} syscalls: " + ", ".join(f"{c} {n}" for n, c in calls[:8]))
PY
done
