"""The stencil case on a CUDA device: `hiera optimize` on the radius-3 fp64 box stencil (a small grid), end to end.

Run on the H200: `pytest -m gpu tests/test_stencil_gpu.py -s`. The best candidate must be valid under the fp64
tolerance, and the round-1 candidates must be the generated stencil kernels (pure CUDA) with fp64 arithmetic.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")]

ROOT = Path(__file__).resolve().parents[1]
TASKS = Path(__file__).parent / "data" / "tasks"


def test_optimize_on_the_radius_3_fp64_stencil_gives_a_valid_best(tmp_path: Path) -> None:
    task = tmp_path / "stencil_gpu_box2d_r3.py"
    shutil.copy(TASKS / "stencil_gpu_box2d_r3.py", task)
    cmd = [sys.executable, "-m", "engine.cli", "optimize", str(task), "--device", "cuda:0", "--budget", "6",
           "--candidates", "3", "--trials", "30", "--no-profile", "--json", "--workspace", str(tmp_path)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=900,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr[-3000:]
    result = json.loads(p.stdout.strip().splitlines()[-1])
    print(json.dumps({k: result.get(k) for k in ("best", "rounds", "reference_ms", "seconds")}, indent=1)[:6000])
    best = result["best"]
    assert best is not None, p.stderr[-3000:]
    assert best["speedup"] > 0
    first = result["rounds"][0]
    assert first["space"] == "pure_cuda" and first["strategy"].startswith(("R.", "M.", "P.")), first
    # Every generated stencil kernel of round 1 is valid, not just the best of them.
    outcomes = [o for o in first["outcomes"] if not str(o.get("candidate_id") or "").endswith("-retimed")]
    assert outcomes and all(o["status"] == "valid" for o in outcomes), \
        [(o["status"], o.get("reason")) for o in outcomes]
