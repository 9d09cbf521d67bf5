"""The README's main job on the CPU beside other load (issue 37): `hiera optimize examples/fused_gelu_scale.py`
must end with exit 0 and the result beside the example. On the shared 2-core machine (load 3-5) none of five runs
delivered before the verdict came from a confidence interval: every best ended "unstable timing", exit 3.

A busy loop for every two cores (at least one) runs beside the job (each in its own session, ended by pid), so
the machine is busy whatever else is running. The job is the README's, with --json to read its result (the same
run, its progress not printed). On the shared development machine (load 4-5 from other work besides) it took
357 s with a loop per core; CI's machine runs nothing else.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from contracts import verdict as rule

REPO = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def busy_loops(n: int) -> Iterator[None]:
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(n)]
    try:
        yield
    finally:
        for h in hogs:
            h.kill()
            h.wait(10)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_readmes_main_job_delivers_on_a_busy_cpu(tmp_path: Path) -> None:
    task = tmp_path / "fused_gelu_scale.py"
    shutil.copy(REPO / "examples" / "fused_gelu_scale.py", task)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("HIERA_WORKSPACE", None)
    t0 = time.monotonic()
    with busy_loops(max(1, (os.cpu_count() or 2) // 2)):
        p = subprocess.run([sys.executable, "-m", "engine.cli", "optimize", task.name, "--device", "cpu", "--json"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=840)
    wall = time.monotonic() - t0
    result = json.loads(p.stdout.strip().splitlines()[-1]) if p.stdout.strip() else {}
    best = result.get("best") or {}
    said = (f"exit {p.returncode} after {wall:.0f} s; best {best.get('speedup')} {best.get('verdict')} "
            f"({best.get('low')}-{best.get('high')}); {best.get('not_delivered')}\n{p.stderr[-3000:]}")
    assert p.returncode == 0, said
    assert best["verdict"] == "faster" and best["low"] > 1 and best["confidence"] == rule.CONFIDENCE, said
    beside = tmp_path / "fused_gelu_scale_hiera.py"
    assert beside.is_file() and Path(best["paths"]["py"]) == beside, said
    assert "class ModelNew" in beside.read_text()
