#!/usr/bin/env bash
# Where a run's wall time goes, on the lent H200: `hiera optimize` on each task under py-spy (every process of
# the run, the sandboxed runners and ncu's target included, sampled with idle time), with time-stamped events.
#   bash scripts/h200_trace.sh LIMIT_S TASK.py [TASK.py ...]     (carry .whl and .tools: .tools/py-spy, .tools/bwrap)
#   OPT_FLAGS="--budget 18" (the default)   more flags for hiera optimize
# Writes $OUT/trace.tgz: per task the speedscope profile, the events (each line prefixed by seconds since the
# start), the run's --json result and the run store; read them here with tools/trace/spy_summary.py.
set -u
. scripts/device_env.sh
LIMIT=$1; shift
OUT=${OUT:-/tmp/trace-out}; mkdir -p "$OUT"
W=/tmp/trace-run; rm -rf "$W"; mkdir -p "$W"
echo "== machine"; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== ncu: PATH has $(command -v ncu); hiera resolves $(python3 -m engine.profile.ncu find 2>&1)"
T0=$(date +%s)
for task in "$@"; do
  name=$(basename "$task" .py)
  left=$((LIMIT - ($(date +%s) - T0)))
  [ "$left" -lt 30 ] && { echo "== $name: not started (time)"; continue; }
  echo "== $name ($(date +%T), at most ${left}s)"
  mkdir -p "$W/$name"; cp "$task" "$W/$name/"
  ( cd "$W/$name" && timeout -k 5 "$left" "$OLDPWD/.tools/py-spy" record --nonblocking --subprocesses --idle -r 40 -f speedscope \
      -o "$W/$name/spy.json" -- python3 -m engine.cli optimize "$name.py" ${OPT_FLAGS:---budget 18} --events jsonl \
      2> "$W/$name/stderr.txt" | python3 -c "
import sys, time
t0 = time.time()
for line in sys.stdin:
    print(f'{time.time() - t0:.2f} {line}', end='', flush=True)" > "$W/$name/events.txt" )
  echo "   exit $? after $(( $(date +%s) - T0 ))s total; $(wc -l < "$W/$name/events.txt") events"
  tail -2 "$W/$name/stderr.txt" | cut -c1-300
  cp "$W/$name/.hiera/hiera.db" "$W/$name/runs.db" 2>/dev/null
  rm -rf "$W/$name/.hiera"
done
stop_hiera_processes
(cd "$W" && tar czf "$OUT/trace.tgz" .)
ls -la "$OUT"
