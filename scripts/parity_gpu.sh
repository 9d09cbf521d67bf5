#!/usr/bin/env bash
# Timing parity on a device: the task's own forward, unchanged, timed (1) in one plain process with the checker's
# own procedure (timing.time_call with the L2 flush), (2) as a candidate through `hiera eval` in the sandboxed
# runner and (3) the same without the sandbox. An honest copy of the reference should read 1.0x in (2) and (3);
# on the H100 (2026-12-06) it read 0.74x on 9_ResNet18 and 0.79x on 28_VisionTransformer (launch-bound forwards)
# and 0.99-1.02x on GPU-bound ones; on 2026-12-07 0.84x-1.36x, the host's speed drifting between the checker's
# timing blocks (BENCHMARKS.md). Since then a host-bound reference is also timed beside the candidate's calls and
# the faster median is its figure (extra.reference_blocks in the JSON: both medians). From the repo root, on the
# device machine (carry .whl .tools .gpu-kb):
#   bash scripts/parity_gpu.sh cuda:0 .gpu-kb/dev/level3/9_ResNet18.py .gpu-kb/dev/level3/28_VisionTransformer.py
# Writes $OUT/parity-<task>-{sandbox,nosandbox}.json and $OUT/parity-wake.json.
# MODES="sandbox" times only the sandboxed eval; WAKE=0 leaves out the plain-process rows (parity_wake.py).
set -u
. scripts/device_env.sh
DEV=$1; shift
OUT=${OUT:-/tmp/parity-out}; mkdir -p "$OUT"
for t in "$@"; do
  name=$(basename "$t" .py)
  cand=/tmp/parity-$name-eager.py
  { cat "$t"; printf '\n\nclass ModelNew(Model):\n    """The reference forward unchanged."""\n'; } > "$cand"
  for mode in ${MODES:-sandbox nosandbox}; do
    flag=""; [ "$mode" = nosandbox ] && flag="--no-sandbox"
    timeout 300 python3 -m engine.cli eval "$t" "$cand" --space libraries_pytorch --device "$DEV" --shapes off \
      --json $flag > "$OUT/parity-$name-$mode.json" 2> "$OUT/parity-$name-$mode.err"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=(d.get('results') or [d])[0]; \
print(sys.argv[2], sys.argv[3], r.get('status'), r.get('speedup'), r.get('reference_ms'), \
r.get('candidate_ms'), r.get('flags'))" "$OUT/parity-$name-$mode.json" "$name" "$mode" \
      || tail -5 "$OUT/parity-$name-$mode.err"
  done
done
# The same forward in one plain process, strict fp32 as the checker sets it, waiting before each call in the ways the
# checker's loop and the runner do (scripts/parity_wake.py; the figure here before 2026-12-07 left cuDNN's TF32 on).
if [ "${WAKE:-1}" = 1 ]; then python3 scripts/parity_wake.py "$DEV" "$@" > "$OUT/parity-wake.json"; fi
