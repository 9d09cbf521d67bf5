#!/usr/bin/env bash
# One call on the lent H200 that checks what changed on the CPU since the last GPU run, most important
# first (a call is cut at 10 minutes): the doctor, the GPU tests of the trusted evaluator, the attacks and
# the shape variants, the README's main job on the GPU, then as much of the development set as time allows
# (resumable, like scripts/h200_bench.sh). From the repo root, carrying .whl, .tools and .gpu-kb:
#   bash scripts/h200_validate.sh SUITE_DIR [RERUN]
# Every step's log lands in $OUT/validate.tgz as soon as the step ends, so a call cut short still returns
# what finished; the bench's own results land in $OUT/suite.tgz (unpack into SUITE_DIR).
set -u
. scripts/device_env.sh
SUITE=$1; RERUN_TASKS=${2:-}
PACK=${OUT:-/tmp/h200-out}; mkdir -p "$PACK"
L=/tmp/h200-validate; rm -rf "$L"; mkdir -p "$L"
T0=$(date +%s)
step() { (cd "$L" && tar czf "$PACK/validate.tgz" .); echo "== $1 ($(date +%T), $(( $(date +%s) - T0 )) s in)"; }

step "doctor"
timeout 90 python3 -c "from engine.cli import main; raise SystemExit(main(['doctor']))" > "$L/doctor.txt" 2>&1
echo "doctor exit $?"; tail -25 "$L/doctor.txt"

step "gpu tests"
GPU_TESTS=$(ls tests/test_trusted_eval_gpu.py tests/test_attacks_gpu.py tests/test_evaluate_gpu.py tests/test_doctor.py \
  tests/test_profile_gpu.py tests/test_shape*gpu*.py 2>/dev/null)
timeout "${TEST_TIMEOUT:-260}" python3 -m pytest -q -m gpu -p no:cacheprovider -rfEs --durations=12 $GPU_TESTS \
  > "$L/gpu_tests.txt" 2>&1; echo "pytest exit $?"
grep -E "passed|failed|error" "$L/gpu_tests.txt" | tail -3; grep -E "^(FAILED|ERROR)" "$L/gpu_tests.txt" | head -20
stop_hiera_processes

step "the README's main job on the GPU"
W=/tmp/h200-main; rm -rf "$W"; mkdir -p "$W"; cp examples/fused_gelu_scale.py "$W"/
timeout 120 python3 -m engine.cli optimize "$W/fused_gelu_scale.py" --workspace "$W" > "$L/main_job.txt" 2>&1
echo "optimize exit $?"; tail -12 "$L/main_job.txt"
python3 -m engine.cli report --workspace "$W" > "$L/main_report.txt" 2>&1; tail -20 "$L/main_report.txt"
ls "$W" >> "$L/main_job.txt"
stop_hiera_processes

step "development set"
LEFT=$(( ${CALL_BUDGET_S:-560} - ($(date +%s) - T0) ))
if [ "$LEFT" -gt 120 ]; then
  CALL_BUDGET_S=$LEFT RERUN=$RERUN_TASKS TASKS=.gpu-kb/dev BENCH_FLAGS="--no-compile" \
    bash scripts/h200_bench.sh "$SUITE" $(( LEFT - 100 )) cuda:0 2>&1 | tail -30
fi
step "end"
