#!/usr/bin/env bash
# The suite on lent H200s, in calls of at most 10 minutes that resume each other. From the repo root:
#   bash scripts/h200_bench.sh SUITE_DIR STOP_AFTER_S DEVICES      e.g. docs/bench/h200-suite 300 cuda:0,cuda:1
#   RERUN=level1/11_transpose_copy bash scripts/h200_bench.sh ...   measures those finished tasks again
#   TASKS=.gpu-kb/dev LEVELS=level1 bash scripts/h200_bench.sh ...    another folder of tasks (a carried copy of
#                                                                     ../shared/kernelbench-dev, say), some levels
#   LEVELS=stencil BUDGET=12 bash scripts/h200_bench.sh docs/bench/h200-stencil 300 cuda:0
#   BENCH_FLAGS="--no-compile --no-profile" bash scripts/h200_bench.sh ...    more flags for `hiera bench`
#                                                                     the stencil case (bench/stencil), B = 12
# The bench is stopped at CALL_BUDGET_S (570 s) at the latest so the results are packed within the call.
# SUITE_DIR holds what earlier calls finished (tasks/*.json, results/); it travels with the checkout. No task
# starts after STOP_AFTER_S; the finished tasks, the best kernels, the run store (runs.db, for `hiera report`)
# and bench.json/md/png land in $OUT/suite,
# packed as $OUT/suite.tgz (a call brings back at most 8 files), to be unpacked into SUITE_DIR before the
# next call. A call on the same (still warm) machine also resumes from /tmp/suite-run/<SUITE_DIR>, which it
# keeps: one folder per suite (one shared folder mixed a norms suite's tasks into the bf16 suite's table when
# the two ran one after the other on one machine, H100 2026-12-07).
# (carry .whl: see scripts/device_env.sh)
set -u
. scripts/device_env.sh
SUITE=$1; STOP=$2; DEVICES=$3
OUT=${OUT:-/tmp/h200-out}; mkdir -p "$OUT"
WORK=/tmp/suite-run/$(printf %s "$SUITE" | tr -c 'A-Za-z0-9._-' '_'); mkdir -p "$WORK/tasks" "$WORK/results"
[ -d "$SUITE/tasks" ] && cp -rn "$SUITE/tasks/." "$WORK/tasks/"
[ -d "$SUITE/results" ] && cp -rn "$SUITE/results/." "$WORK/results/"
echo "== bench ($(date +%T)): $(ls "$WORK/tasks" 2>/dev/null | wc -l) tasks already finished"
# The bench stops in time for the packing below to run inside a call's 10 minutes (a call killed by the
# limit brings nothing back); a task cut short is simply not finished, and the next call runs it again.
LIMIT=$((STOP + 240)); [ "$LIMIT" -gt "${CALL_BUDGET_S:-570}" ] && LIMIT=${CALL_BUDGET_S:-570}
timeout -k 10 "$LIMIT" python3 -m engine.cli bench "${TASKS:-bench}" --levels "${LEVELS:-level1,level2,level3}" --budget "${BUDGET:-18}" \
  --devices "$DEVICES" --out "$WORK" --stop-after "$STOP" ${RERUN:+--rerun "$RERUN"} ${BENCH_FLAGS:-} > "$WORK/bench.log" 2>&1
echo "bench exit $?"
# timeout stops the bench, not the optimize/eval processes and evaluation workers under it: left running,
# they would share the GPU with the next call's timings on a still-warm machine.
stop_hiera_processes
grep -E "^  level" "$WORK/bench.log" | tail -40
# The run store (every decision, candidate, outcome and profile; `hiera report` reads it) as one SQLite file.
python3 -c "import sqlite3,sys; s=sqlite3.connect(sys.argv[1]); d=sqlite3.connect(sys.argv[2]); s.backup(d); d.close()" \
  "$WORK/workspace/.hiera/hiera.db" "$WORK/runs.db" 2>/dev/null || rm -f "$WORK/runs.db"
(cd "$WORK" && tar czf "$OUT/suite.tgz" tasks results bench.log $(ls bench.json bench.md bench.png runs.db 2>/dev/null))
echo "== done ($(date +%T))"
