"""Issue 42's defences on a CUDA device (run on the H100/H200: pytest -m gpu tests/test_third_pass_gpu.py).

- No untimed window: the runner is frozen while the checker writes a timed call's inputs and a burst's sets
  (tests/test_untimed_window_cpu.py on the GPU, with the attack's CUDA version, tests/data/attacks/gpu/
  watch_poison.cu): with the window held open, nothing computes in it; with the old write, the helper does.
- The exported .cu file loads the library that was verified, by hash, and matches the reference.
- A GPU runner with no memory cgroup runs under RLIMIT_DATA (the fallback), and an honest kernel is valid there
  (the checker in this process, its cgroups turned off).
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.evaluate.checker import Checker
from tests import test_untimed_window_cpu as cpu
from tests.conftest import DATA, TASKS

pytestmark = pytest.mark.gpu
ATTACK = DATA / "attacks" / "gpu" / "watch_poison.cu"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    import torch

    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.outcome import Candidate, CandidateKind
    from engine.task.contract import contract_layout, write_contract
    from engine.task.spec import load_task

    root = tmp_path_factory.mktemp("window-gpu")
    task = root / "scale_bias_relu_big.py"
    task.write_text((TASKS / "scale_bias_relu.py").read_text().replace("rows, cols = 256, 512",
                                                                      "rows, cols = 4096, 4096"))
    spec = load_task(task)
    write_contract(spec, root / "contract")
    major, minor = torch.cuda.get_device_capability()
    b = build_one(Candidate("attack", CandidateKind.CUDA, ATTACK.read_text()),
                  BuildConfig(root / "contract", root / "cache", cuda_arch=f"{major}{minor}"))
    assert b.ok, b.log[:2000]
    return {"task": task, "layout": contract_layout(spec), "root": root, "attack": b.artifact}


def _evaluate(built: dict[str, Any], must_be_valid: bool = True) -> Any:
    from engine.evaluate.requests import EvalRequest

    checker = Checker(str(built["task"]), "cuda:0", "fp32", str(built["root"] / "work"), sandboxed=True)
    try:
        reply = checker.evaluate(EvalRequest("attack", "cuda", built["attack"], built["layout"],
                                             correctness_trials=2, timing_trials=30, back_to_back=True,
                                             back_to_back_sets=8))
    finally:
        checker.close()
    if must_be_valid:
        assert reply.status.value == "valid", (reply.status, reply.reason)
    return reply


def test_control_on_a_gpu_without_the_freeze_the_helper_computes_in_the_untimed_window(built, monkeypatch) -> None:
    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(Checker, "write_unseen", cpu._watching(cpu._old_write, seen))
    # The verdict is not this control's point: on the H100 (2026-12-07) the checker's own clock caught the
    # helper's work anyway (suspect: each call 1.33 ms longer than the runner reported), a second defence.
    # What it shows is that the helper does compute in the window when the runner is not frozen, so the
    # test below, which finds nothing computed there, is one that could fail.
    reply = _evaluate(built, must_be_valid=False)
    assert reply.status.value in ("valid", "suspect"), (reply.status, reply.reason)
    assert any(poisoned == 1 and done == 1 for poisoned, done in seen), seen


def test_on_a_gpu_nothing_computes_before_the_clock(built, monkeypatch) -> None:
    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(Checker, "write_unseen", cpu._watching(Checker.write_unseen, seen))
    reply = _evaluate(built)
    assert len(seen) > 30 and all(done == 0 for _, done in seen), seen
    assert reply.extra["runner_frozen_by"] in ("cgroup", "signals")


def test_the_exported_cu_file_loads_the_verified_library(tmp_path: Path, monkeypatch) -> None:
    import torch

    from engine.cli import main

    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    assert main(["export", str(task), str(DATA / "gpu" / "scale_bias_relu.cu"), "--out", str(tmp_path / "o")]) == 0
    s = importlib.util.spec_from_file_location("exported_gpu", tmp_path / "o" / "scale_bias_relu_hiera.py")
    assert s is not None and s.loader is not None
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)
    assert mod._LIBRARY and hashlib.sha256(mod._LIBRARY).hexdigest() == mod._LIBRARY_SHA
    ref = mod.Model(*mod.get_init_inputs()).cuda()
    new = mod.ModelNew(*mod.get_init_inputs()).cuda()
    new.load_state_dict(ref.state_dict())
    x = mod.get_inputs()[0].cuda()
    torch.testing.assert_close(new(x), ref(x), atol=1e-5, rtol=1e-5)
    assert not (Path(mod._FOLDER) / mod._SOURCE_NAME).exists()


def test_a_gpu_runner_without_a_memory_cgroup_runs_under_rlimit_data(tmp_path: Path, monkeypatch) -> None:
    import torch

    from engine.evaluate import candidate_process, cgroups
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.outcome import Candidate, CandidateKind
    from engine.evaluate.requests import EvalRequest
    from engine.task.contract import contract_layout, write_contract
    from engine.task.spec import load_task

    task = TASKS / "big_scale_bias_relu.py"
    spec = load_task(task)
    write_contract(spec, tmp_path / "contract")
    major, minor = torch.cuda.get_device_capability()
    b = build_one(Candidate("honest", CandidateKind.CUDA, (DATA / "gpu" / "scale_bias_relu.cu").read_text()),
                  BuildConfig(tmp_path / "contract", tmp_path / "cache", cuda_arch=f"{major}{minor}"))
    assert b.ok, b.log[:2000]
    used: list[dict[str, int]] = []
    rlimits = candidate_process.runner_rlimits
    monkeypatch.setattr(cgroups, "make", lambda *a, **k: None)  # this checker's runners get no control group
    monkeypatch.setattr(candidate_process, "runner_rlimits", lambda spec, group: used.append(rlimits(spec, group))
                        or used[-1])
    checker = Checker(str(task), "cuda:0", "fp32", str(tmp_path / "work"), sandboxed=True)
    try:
        reply = checker.evaluate(EvalRequest("honest", "cuda", b.artifact, contract_layout(spec),
                                             correctness_trials=2, timing_trials=20))
    finally:
        checker.close()
    assert used and all("data_bytes" in u for u in used), used
    assert reply.status.value == "valid", reply.reason
