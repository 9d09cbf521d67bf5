#!/usr/bin/env bash
# The trusted evaluator on the lent H200, in one call (about 6 minutes): is the sandbox usable there, do the
# checker and a sandboxed runner share buffers over CUDA IPC, are the GPU cheats still caught, what do the
# sandbox and the split cost, do timings still agree with do_bench. From the repo root, carrying .tools
# (scripts/fetch_bwrap.sh) and .whl (scripts/fetch_wheels.sh):
#   bash scripts/h200_trusted_check.sh
# Logs and JSON land in $OUT/trusted.tgz after every step.
set -u
. scripts/device_env.sh
PACK=${OUT:-/tmp/h200-out}; mkdir -p "$PACK"
L=/tmp/h200-trusted; rm -rf "$L"; mkdir -p "$L"
step() { (cd "$L" && tar czf "$PACK/trusted.tgz" .); echo "== $1 ($(date +%T))"; }

step "machine"
{ id; uname -r; command -v bwrap; echo "HIERA_BWRAP=${HIERA_BWRAP:-}"; ${HIERA_BWRAP:-bwrap} --version;
  ldd .tools/bwrap.bin 2>&1 | grep -i "not found"; ls -la /dev/nvidia* /dev/dri 2>&1 | head; nvidia-smi -L;
  cat /proc/sys/user/max_user_namespaces /proc/sys/kernel/unprivileged_userns_clone 2>&1;
  python3 -c 'import torch,sys; print(sys.version.split()[0], torch.__version__, torch.cuda.get_device_name(0))';
  ls -d /usr/local/cuda* 2>&1; python3 -c 'import sys,site; print(sys.prefix, sys.base_prefix, site.getsitepackages())'
} > "$L/machine.txt" 2>&1; cat "$L/machine.txt"

step "sandbox probe"
timeout 60 python3 -c "from engine.evaluate.sandbox import probe; probe(True, '/tmp/hiera-probe'); print('probe ok')" 2>&1 | tail -5

step "gpu candidates through hiera eval"
timeout 240 python3 -m engine.cli eval tests/data/tasks/big_scale_bias_relu.py tests/data/gpu/scale_bias_relu.cu \
  tests/data/gpu/side_stream.cu tests/data/gpu/zero_inputs.cu tests/data/gpu/empty_output.cu \
  tests/data/gpu/illegal_address.cu tests/data/gpu/scale_bias_relu.cu --device cuda --json --workspace /tmp/ws-eval \
  > "$L/eval.jsonl" 2> "$L/eval.err"; echo "exit $?"
python3 -c "
import json
for l in open('$L/eval.jsonl'):
    d = json.loads(l); print(d['candidate_file'].split('/')[-1], d['status'], d.get('speedup'), d['reason'][:160])
"; tail -3 "$L/eval.err"

step "modelnew on the gpu"
timeout 150 python3 -m engine.cli eval tests/data/tasks/relu_positive.py tests/data/candidates/relu_modelnew.py \
  tests/data/cheats/cache_by_buffer.py tests/data/cheats/background_thread.py tests/data/cheats/patch_timer.py \
  --device cuda --json --workspace /tmp/ws-mn > "$L/modelnew.jsonl" 2> "$L/modelnew.err"; echo "exit $?"
python3 -c "
import json
for l in open('$L/modelnew.jsonl'):
    d = json.loads(l); print(d['candidate_file'].split('/')[-1], d['status'], d.get('speedup'), d['reason'][:160])
"; tail -3 "$L/modelnew.err"

step "sandbox and split overhead"
[ -n "${SKIP_BENCH:-}" ] || timeout 120 python3 scripts/bench_sandbox.py tests/data/tasks/big_scale_bias_relu.py tests/data/gpu/scale_bias_relu.cu \
  --device cuda:0 --repeat 3 --out "$L/bench_sandbox.json" 2>&1 | tail -4

step "evaluator timing against do_bench"
[ -n "${SKIP_BENCH:-}" ] || timeout 90 python3 scripts/bench_evaluator.py --builds 2 --torch-header-builds 0 --out "$L/bench_evaluator.json" \
  2>&1 | tail -8

step "gpu tests"
[ -n "${SKIP_TESTS:-}" ] || timeout "${TEST_TIMEOUT:-150}" python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_evaluate_gpu.py ${EXTRA_TESTS:-} \
  > "$L/gpu_tests.txt" 2>&1; tail -15 "$L/gpu_tests.txt" 2>/dev/null
step "end"
