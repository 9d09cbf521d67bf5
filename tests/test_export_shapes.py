"""Exported files on shapes beyond get_inputs() (issue 29): the binding guards every call, and a call outside
what the kernel was verified on runs the reference's own forward, said once on stderr. Each exported module
runs in a subprocess of its own: a kernel that corrupts memory must fail the test, not kill pytest."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from contracts.shapes import Coverage
from engine.cli import main
from engine.task.export import modelnew_source
from engine.task.spec import load_task
from tests.conftest import CANDIDATES, TASKS

# Calls the exported ModelNew (and the reference, with the same weights) on each case, in a process of its own,
# and prints one JSON line per case: whether it matched the reference, and whether Model.forward ran (the
# fallback) for it.
CALLER = r"""
import importlib.util, json, sys, torch
spec = importlib.util.spec_from_file_location("exported", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
torch.manual_seed(0)
ref = m.Model(*m.get_init_inputs())
new = m.ModelNew(*m.get_init_inputs())
new.load_state_dict(ref.state_dict())
fallbacks = []
plain = m.Model.forward
def counted(self, *a):
    if self is new:
        fallbacks.append(1)
    return plain(self, *a)
m.Model.forward = counted
for case in json.loads(sys.argv[2]):
    x = torch.randn(*case["shape"], dtype=getattr(torch, case.get("dtype", "float32")))
    if case.get("transposed"):
        x = x.t().contiguous().t()
    new.scale = ref.scale = case.get("scale", 0.5)
    before = len(fallbacks)
    got, want = new(x), ref(x)
    ok = got.shape == want.shape and torch.allclose(got, want, atol=1e-5, rtol=1e-5)
    print(json.dumps({"case": case, "ok": bool(ok), "fallback": len(fallbacks) > before}), flush=True)
"""


def call_exported(py: Path, cases: list[dict], ext: Path) -> tuple[list[dict], str, int]:
    proc = subprocess.run([sys.executable, "-c", CALLER, str(py), json.dumps(cases)], capture_output=True, text=True,
                          timeout=500, env={**os.environ, "TORCH_EXTENSIONS_DIR": str(ext)})
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return rows, proc.stderr, proc.returncode


def _task(tmp_path: Path) -> Path:
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    return task


def test_the_issues_repro_a_doubled_batch_runs_the_reference_instead_of_corrupting_the_heap(tmp_path):
    """`hiera export` of the scale_bias_relu kernel, then the exported ModelNew on the task's own 256x512 (the
    kernel) and on 512x512, which killed the process with `malloc(): invalid size` before the binding guarded
    the call (issue 29): now the reference's forward, correct, said once."""
    task = _task(tmp_path)
    shutil.copy(CANDIDATES / "scale_bias_relu.cpp", tmp_path / "kernel.cpp")
    assert main(["export", str(task), str(tmp_path / "kernel.cpp")]) == 0
    py = tmp_path / "scale_bias_relu_hiera.py"
    assert "Any other call (another shape, dtype, device or value) never reaches the kernel" in \
        " ".join(py.read_text().split('"""')[1].split())
    cases = [{"shape": [256, 512]}, {"shape": [512, 512]}, {"shape": [512, 512]}, {"shape": [3, 512]},
             {"shape": [256, 512], "dtype": "float64"}, {"shape": [2, 256, 512]},
             {"shape": [256, 512], "transposed": True}, {"shape": [256, 512], "scale": 2.0}]
    rows, err, rc = call_exported(py, cases, tmp_path / "ext")
    assert rc == 0, err[-3000:]
    assert [r["ok"] for r in rows] == [True] * len(cases), rows
    # The kernel serves its own shapes (a non-contiguous tensor is made contiguous first); nothing else.
    assert [r["fallback"] for r in rows] == [False, True, True, True, True, True, False, True]
    said = [ln for ln in err.splitlines() if "running the reference's own forward" in ln]
    assert len(said) == 1 and "x is 512x512, the kernel takes 256x512" in said[0]
    assert "x float32[256 x 512], bias float32[512], scale = 0.5" in said[0]


def test_a_kernel_that_ignores_its_sizes_cannot_reach_memory_past_what_it_was_verified_on(tmp_path):
    """The kernel writes 256x512 elements whatever it is given: on 128 rows (past the output's end) and on
    1024 (most of it unwritten) the guard keeps it from running at all."""
    py = tmp_path / "scale_bias_relu_hiera.py"
    py.write_text(modelnew_source(load_task(_task(tmp_path)), (CANDIDATES / "ignores_sizes.cpp").read_text(),
                                  cuda=False))
    cases = [{"shape": [128, 512]}, {"shape": [1024, 512]}, {"shape": [256, 512]}, {"shape": [1, 512]},
             {"shape": [2, 512]}]
    rows, err, rc = call_exported(py, cases, tmp_path / "ext")
    assert rc == 0, err[-3000:]
    assert [r["ok"] for r in rows] == [True] * len(cases), rows
    assert [r["fallback"] for r in rows] == [True, True, False, True, True]


def test_a_kernel_verified_on_a_batch_range_serves_it_and_only_it(tmp_path):
    py = tmp_path / "scale_bias_relu_hiera.py"
    spec = load_task(_task(tmp_path))
    py.write_text(modelnew_source(spec, (CANDIDATES / "scale_bias_relu.cpp").read_text(), cuda=False,
                                  cover=Coverage((1, 512))))
    assert "x float32[B x 512] with B from 1 to 512" in " ".join(py.read_text().split('"""')[1].split())
    cases = [{"shape": [1, 512]}, {"shape": [300, 512]}, {"shape": [512, 512]}, {"shape": [513, 512]},
             {"shape": [300, 512], "dtype": "float64"}]
    rows, err, rc = call_exported(py, cases, tmp_path / "ext")
    assert rc == 0, err[-3000:]
    assert [r["ok"] for r in rows] == [True] * len(cases), rows
    assert [r["fallback"] for r in rows] == [False, False, False, True, True]
    assert "x has batch size 513 (dim 0), the kernel covers 1 to 512" in err
