#!/usr/bin/env bash
# Timing parity on a device: the task's own forward, unchanged, timed (1) in one plain process with the checker's
# own procedure (timing.time_call with the L2 flush), (2) as a candidate through `hiera eval` in the sandboxed
# runner and (3) the same without the sandbox. An honest copy of the reference should read 1.0x in (2) and (3);
# on the H100 (2026-12-06) it read 0.74x on 9_ResNet18 and 0.79x on 28_VisionTransformer (launch-bound forwards)
# and 0.99-1.02x on GPU-bound ones. From the repo root, on the device machine (carry .whl .tools .gpu-kb):
#   bash scripts/parity_gpu.sh cuda:0 .gpu-kb/dev/level3/9_ResNet18.py .gpu-kb/dev/level3/28_VisionTransformer.py
# Writes $OUT/parity-<task>-{sandbox,nosandbox}.json and $OUT/parity-plain.txt.
set -u
. scripts/device_env.sh
DEV=$1; shift
OUT=${OUT:-/tmp/parity-out}; mkdir -p "$OUT"
for t in "$@"; do
  name=$(basename "$t" .py)
  cand=/tmp/parity-$name-eager.py
  { cat "$t"; printf '\n\nclass ModelNew(Model):\n    """The reference forward unchanged."""\n'; } > "$cand"
  for mode in sandbox nosandbox; do
    flag=""; [ "$mode" = nosandbox ] && flag="--no-sandbox"
    timeout 300 python3 -m engine.cli eval "$t" "$cand" --space libraries_pytorch --device "$DEV" --shapes off \
      --json $flag > "$OUT/parity-$name-$mode.json" 2> "$OUT/parity-$name-$mode.err"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=(d.get('results') or [d])[0]; \
print(sys.argv[2], sys.argv[3], r.get('status'), r.get('speedup'), r.get('reference_ms'), \
r.get('candidate_ms'), r.get('flags'))" "$OUT/parity-$name-$mode.json" "$name" "$mode" \
      || tail -5 "$OUT/parity-$name-$mode.err"
  done
done
python3 - "$DEV" "$@" <<'PY' | tee "$OUT/parity-plain.txt"
import importlib.util, statistics, sys
import torch
from engine.evaluate import timing
dev = torch.device(sys.argv[1])
flusher = timing.CacheFlusher(dev)
for path in sys.argv[2:]:
    spec = importlib.util.spec_from_file_location("task", path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    torch.manual_seed(0)
    model = m.Model(*m.get_init_inputs()).to(dev).eval()
    xs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in m.get_inputs()]
    with torch.no_grad():
        for _ in range(5):
            model(*xs)
        flushed = [timing.time_call(lambda: model(*xs), dev, flusher.flush)[0] for _ in range(50)]
        plain = [timing.time_call(lambda: model(*xs), dev)[0] for _ in range(50)]
    print(f"{path}: in one process, median {statistics.median(flushed):.4f} ms with the flush, "
          f"{statistics.median(plain):.4f} ms without")
PY
