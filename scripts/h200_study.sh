#!/usr/bin/env bash
# The variant study (`hiera study`) on lent H200s, in calls of at most 10 minutes that resume each other. From
# the repo root:
#   bash scripts/h200_study.sh STUDY_DIR STOP_AFTER_S DEVICES       e.g. docs/bench/h200-study 300 cuda:0
#   VARIANTS=adaptive,pure_cuda BUDGET=18 REPEAT=3 bash scripts/h200_study.sh ...
#   TASKS=.gpu-kb/dev LEVELS=level1,level2 PER_LEVEL=4 bash scripts/h200_study.sh ...  another folder of tasks
#   NAMES=level1/01_gemm,level2/03_conv_relu bash scripts/h200_study.sh ...              only those tasks
#   FROM_BENCH=docs/bench/dev-b18 bash scripts/h200_study.sh ...   the adaptive cells of repeat 0 taken from a
#                                  `hiera bench` of the same tasks with the same flags (hiera study --adaptive-from)
# Defaults: TASKS=bench, LEVELS=level1,level2,level3, all seven variants, BUDGET=18, REPEAT=1.
# STUDY_DIR holds what earlier calls finished (cells/*.json, results/, study-settings.json, runs.db); it travels
# with the checkout. No cell starts after STOP_AFTER_S, and the study is stopped at CALL_BUDGET_S (570 s) at the
# latest, so the results are packed within the call: the finished cells, the best kernels, the run store
# (runs.db, for `hiera report`) and study.json/md/png land in $OUT/study.tgz (a call brings back at most 8
# files), to be unpacked into STUDY_DIR before the next call; then
#   hiera study TASKS --variants ... --budget ... --repeat ... --out STUDY_DIR --report-only
# writes the report from all calls' cells. A call on the same (still warm) machine also resumes from
# /tmp/study-run/<STUDY_DIR>, which it keeps (one folder per study). A cell cut short is not finished, and the next call runs it again.
# (carry .whl: see scripts/device_env.sh)
set -u
. scripts/device_env.sh
STUDY=$1; STOP=$2; DEVICES=$3
OUT=${OUT:-/tmp/h200-out}; mkdir -p "$OUT"
WORK=/tmp/study-run/$(printf %s "$STUDY" | tr -c 'A-Za-z0-9._-' '_'); mkdir -p "$WORK/cells" "$WORK/results" "$WORK/workspace/.hiera"
[ -d "$STUDY/cells" ] && cp -rn "$STUDY/cells/." "$WORK/cells/"
[ -d "$STUDY/results" ] && cp -rn "$STUDY/results/." "$WORK/results/"
[ -f "$STUDY/study-settings.json" ] && cp -n "$STUDY/study-settings.json" "$WORK/"
# The earlier calls' run store, so the one packed below holds every call's runs (cells do not need it: each
# carries what the report reads).
[ -f "$STUDY/runs.db" ] && [ ! -f "$WORK/workspace/.hiera/hiera.db" ] && cp "$STUDY/runs.db" "$WORK/workspace/.hiera/hiera.db"
echo "== study ($(date +%T)): $(ls "$WORK/cells" | grep -c '\.json$') cells already finished"
LIMIT=$((STOP + 240)); [ "$LIMIT" -gt "${CALL_BUDGET_S:-570}" ] && LIMIT=${CALL_BUDGET_S:-570}
VARIANTS=${VARIANTS:-adaptive,pure_cuda,cuda_libraries,libraries_pytorch,no_planning,no_contract,no_planning+no_contract}
# In a session of its own, so that what it started (optimize runs, evaluation and profiling workers) can be
# found from its process id and stopped with it, and nothing else.
setsid python3 -m engine.cli study "${TASKS:-bench}" --levels "${LEVELS:-level1,level2,level3}" \
  --variants "$VARIANTS" --budget "${BUDGET:-18}" --repeat "${REPEAT:-1}" ${PER_LEVEL:+--per-level "$PER_LEVEL"} \
  ${NAMES:+--tasks "$NAMES"} ${FROM_BENCH:+--adaptive-from "$FROM_BENCH"} --devices "$DEVICES" --out "$WORK" \
  --stop-after "$STOP" > "$WORK/study.log" 2>&1 &
PID=$!
END=$((SECONDS + LIMIT))
while kill -0 "$PID" 2>/dev/null && [ "$SECONDS" -lt "$END" ]; do sleep 2; done
descendants() { local c; for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$c"; descendants "$c"; done; }
if kill -0 "$PID" 2>/dev/null; then
  echo "study still running at ${LIMIT} s: stopped (the cells in flight are not finished)"
  PIDS="$PID $(descendants "$PID")"
  # The whole session the study started (workers that left the process tree stay in it), then any stragglers.
  kill -TERM -- "-$PID" $PIDS 2>/dev/null; sleep 3
  kill -KILL -- "-$PID" $PIDS 2>/dev/null
fi
wait "$PID" 2>/dev/null; echo "study exit $?"
grep -E "^  \[" "$WORK/study.log" | tail -40
# The report from every finished cell (the run above writes it too, unless it was stopped mid-cell).
python3 -m engine.cli study "${TASKS:-bench}" --levels "${LEVELS:-level1,level2,level3}" --variants "$VARIANTS" \
  --budget "${BUDGET:-18}" --repeat "${REPEAT:-1}" ${PER_LEVEL:+--per-level "$PER_LEVEL"} ${NAMES:+--tasks "$NAMES"} \
  --out "$WORK" --report-only > "$WORK/report.log" 2>&1 || tail -5 "$WORK/report.log"
python3 -c "import sqlite3,sys; s=sqlite3.connect(sys.argv[1]); d=sqlite3.connect(sys.argv[2]); s.backup(d); d.close()" \
  "$WORK/workspace/.hiera/hiera.db" "$WORK/runs.db" 2>/dev/null || rm -f "$WORK/runs.db"
(cd "$WORK" && tar czf "$OUT/study.tgz" cells results study.log \
  $(ls study-settings.json study.json study.md study.png runs.db 2>/dev/null))
echo "== done ($(date +%T))"
