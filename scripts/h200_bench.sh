#!/usr/bin/env bash
# The suite on lent H200s, in calls of at most 10 minutes that resume each other. From the repo root:
#   bash scripts/h200_bench.sh SUITE_DIR STOP_AFTER_S DEVICES      e.g. docs/bench/h200-suite 380 cuda:0,cuda:1
# SUITE_DIR holds what earlier calls finished (tasks/*.json, results/); it travels with the checkout. No task
# starts after STOP_AFTER_S; the finished tasks, the best kernels and bench.json/md/png land in $OUT/suite,
# to be copied back into SUITE_DIR before the next call.  (carry .whl: see scripts/device_env.sh)
set -u
. scripts/device_env.sh
SUITE=$1; STOP=$2; DEVICES=$3
OUT=${OUT:-/tmp/h200-out}; mkdir -p "$OUT/suite"
WORK=/tmp/suite-run; rm -rf "$WORK"; mkdir -p "$WORK"
[ -d "$SUITE/tasks" ] && cp -r "$SUITE/tasks" "$WORK/"
[ -d "$SUITE/results" ] && cp -r "$SUITE/results" "$WORK/"
echo "== bench ($(date +%T)): $(ls "$WORK/tasks" 2>/dev/null | wc -l) tasks already finished"
timeout -k 10 $((STOP + 200)) python3 -m engine.cli bench bench --levels level1,level2,level3 --budget 18 \
  --devices "$DEVICES" --out "$WORK" --stop-after "$STOP" > "$OUT/suite/bench.log" 2>&1
echo "bench exit $?"
grep -E "^  level" "$OUT/suite/bench.log" | tail -40
cp -r "$WORK/tasks" "$OUT/suite/" 2>/dev/null
cp -r "$WORK/results" "$OUT/suite/" 2>/dev/null
cp "$WORK"/bench.json "$WORK"/bench.md "$WORK"/bench.png "$OUT/suite/" 2>/dev/null
echo "== done ($(date +%T))"
