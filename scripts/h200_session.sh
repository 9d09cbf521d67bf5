#!/usr/bin/env bash
# The GPU checks a session makes on the lent H200, in one call (at most about 9 minutes; the most
# important first, since a call is cut at 10 minutes). From the repo root:
#   bash scripts/h200_session.sh        (carry .whl: see scripts/device_env.sh)
# Prints a summary; the logs and JSON of every step are packed into $OUT/session.tgz after each step (a call
# brings back at most 8 files, and one cut at 10 minutes still returns the steps that finished).
# Each step runs even if an earlier one failed.
set -u
. scripts/device_env.sh
PACK=${OUT:-/tmp/h200-out}; mkdir -p "$PACK"
OUT=/tmp/h200-session; rm -rf "$OUT"; mkdir -p "$OUT"
W=/tmp/h200-ws; rm -rf "$W"; mkdir -p "$W"
cp examples/fused_gelu_scale.py examples/softmax_rows.py tests/data/tasks/big_scale_bias_relu.py "$W"/
step() { (cd "$OUT" && tar czf "$PACK/session.tgz" .); echo "== $1 ($(date +%T))"; }

step "optimize with profiling (expert)"
timeout 150 python3 -m engine.cli optimize "$W/fused_gelu_scale.py" --rounds 2 --candidates 3 --json \
  --workspace "$W" > "$OUT/opt_profile.json" 2> "$OUT/opt_profile.err"; tail -2 "$OUT/opt_profile.err"
python3 -m engine.cli report --workspace "$W" --json > "$OUT/report.json" 2>/dev/null
python3 -c "import json;r=json.load(open('$OUT/report.json'));print(r['rounds'], r['direction_vs_bottleneck'], r['profiled'])"

step "llm backend, scripted server, CUDA"
python3 tests/fake_llm_server.py --port 0 --script tests/data/llm/h200_cuda_script.json > "$OUT/llm_server.txt" 2>&1 &
SRV=$!; sleep 2; PORT=$(awk '/^PORT/{print $2}' "$OUT/llm_server.txt")
timeout 120 python3 -m engine.cli optimize "$W/big_scale_bias_relu.py" --backend llm --llm-base-url \
  "http://127.0.0.1:$PORT/v1" --llm-model fake-model --rounds 2 --candidates 3 --no-profile --json \
  --workspace "$W" > "$OUT/llm_cuda.json" 2> "$OUT/llm_cuda.err"; kill $SRV
python3 -c "import json;r=json.load(open('$OUT/llm_cuda.json'));print(r['best'] and r['best']['speedup'], r['tokens'], [[o['status'] for o in x['outcomes']] for x in r['rounds']])"

step "language server driven end to end"
timeout 150 python3 scripts/ls_drive.py "$W" --file "$W/softmax_rows.py" --class Model \
  --settings '{"rounds": 1, "candidates": 3}' --require-profile --profile-kernel --out "$OUT/ls_transcript.json" \
  > "$OUT/ls_drive.txt" 2>&1; echo "ls_drive exit $?"; tail -15 "$OUT/ls_drive.txt"

step "evaluator timing against do_bench"
timeout 90 python3 scripts/bench_evaluator.py --builds 3 --torch-header-builds 0 --out "$OUT/bench_evaluator.json" \
  2>&1 | tail -12

step "gpu tests"
timeout 130 python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_evaluate_gpu.py tests/test_expert_gpu.py \
  tests/test_profile_gpu.py > "$OUT/gpu_tests.txt" 2>&1; tail -3 "$OUT/gpu_tests.txt"
step "end"
