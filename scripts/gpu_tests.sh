#!/usr/bin/env bash
# Run the GPU tests on the lent machine file by file, most important first, each under its own time limit,
# packing every file's log into $OUT/gpu_tests.tgz as soon as it ends (a call is cut at 10 minutes; what
# finished still comes back). From the repo root, carrying .whl and .tools:
#   bash scripts/gpu_tests.sh [CALL_BUDGET_S] FILE[:TIMEOUT_S[:WORKERS]] ...
# WORKERS > 1 runs that file's tests in parallel (pytest-xdist, on the device's image): only for files whose tests
# judge correctness, not timings (tests/test_runtime_batch_cuda.py: each test is mostly an nvcc build, ~40 s).
# A file whose turn comes with less than its time limit left in the call's budget is skipped and listed as
# not run, so the next call can take it.
set -u
. scripts/device_env.sh
BUDGET=${1:-540}; shift
PACK=${OUT:-/tmp/gpu-tests-out}; mkdir -p "$PACK"
L=/tmp/gpu-tests; rm -rf "$L"; mkdir -p "$L"
T0=$(date +%s)
for spec in "$@"; do
  f=${spec%%:*}; rest=${spec#*:}; [ "$rest" = "$spec" ] && rest=240
  lim=${rest%%:*}; workers=${rest#*:}; [ "$workers" = "$rest" ] && workers=1
  par=(); [ "$workers" -gt 1 ] && python3 -c "import xdist" 2>/dev/null && par=(-n "$workers")
  left=$(( BUDGET - ($(date +%s) - T0) ))
  name=$(basename "$f" .py)
  if [ "$left" -lt 60 ]; then echo "NOT RUN $f (${left} s left)" | tee -a "$L/not_run.txt"; continue; fi
  [ "$lim" -gt "$left" ] && lim=$left
  echo "== $f (limit ${lim} s, $(( $(date +%s) - T0 )) s in)"
  # SIGINT at the limit, not SIGTERM: pytest then stops like a Ctrl-C and still prints its summary, with the
  # failures' details and the durations (2026-12-07: a file killed by TERM lost why a test had failed).
  timeout -s INT -k 20 "$lim" python3 -m pytest -v -m gpu -p no:cacheprovider -rfEs --durations=12 --tb=short \
    "${par[@]}" --junitxml="$L/$name.xml" "$f" > "$L/$name.txt" 2>&1
  echo "exit $? $f" | tee -a "$L/exits.txt"
  grep -E "^(FAILED|ERROR)" "$L/$name.txt" | head -20; tail -1 "$L/$name.txt"
  stop_hiera_processes
  (cd "$L" && tar czf "$PACK/gpu_tests.tgz" .)
done
echo "== end ($(( $(date +%s) - T0 )) s)"
