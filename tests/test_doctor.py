"""`hiera doctor`: each check does what a run does, and says what to do when it cannot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from contracts.device import CPU
from engine import doctor

REPO = Path(__file__).resolve().parent.parent


def _doctor(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    p = subprocess.run([sys.executable, "-m", "engine.cli", "doctor", "--json", *args], capture_output=True,
                       text=True, timeout=300, cwd=REPO, env={**os.environ, **(env or {})})
    return p.returncode, json.loads(p.stdout)


def test_a_quick_doctor_on_this_machine_names_every_piece_a_run_uses():
    rc, out = _doctor("--quick", "--device", "cpu")
    names = [c["name"] for c in out["checks"]]
    assert names == ["python, torch", "GPU and driver", "nvcc", "bubblewrap (the sandbox)", "resource limits",
                     "CUDA libraries", "bytecode cache", "speed-of-light ceilings"]
    by = {c["name"]: c for c in out["checks"]}
    assert by["CUDA libraries"]["status"] == "skipped"  # the CPU uses none of them
    for c in out["checks"]:
        assert c["status"] == "ok" or c["fix"] or c["status"] == "skipped", c
    assert rc == (0 if out["ready"] else 1)


def test_each_check_is_said_on_stderr_as_it_ends_and_stdout_stays_json():
    """On a cold H200 the full doctor printed nothing for over a minute; the checks' progress goes to stderr."""
    p = subprocess.run([sys.executable, "-m", "engine.cli", "doctor", "--json", "--quick", "--device", "cpu"],
                       capture_output=True, text=True, timeout=300, cwd=REPO)
    out = json.loads(p.stdout)
    lines = p.stderr.splitlines()
    assert lines[0] == "hiera doctor: checking device cpu", p.stderr
    for c in out["checks"]:
        assert any(c["name"] in line and c["status"] in line for line in lines[1:]), (c, p.stderr)


def test_a_broken_sandbox_is_an_essential_failure_with_what_to_do(tmp_path):
    rc, out = _doctor("--quick", "--device", "cpu", env={"HIERA_BWRAP": str(tmp_path / "no-bwrap")})
    sandbox = next(c for c in out["checks"] if c["name"].startswith("bubblewrap"))
    assert sandbox["status"] in ("missing", "failed") and sandbox["essential"]
    assert "--no-sandbox" in sandbox["fix"]
    assert rc == 1 and not out["ready"]


def test_the_kernel_check_builds_verifies_and_times_through_the_evaluator(tmp_path):
    work = doctor._workspace()
    try:
        c = doctor.evaluate_kernel(work, CPU, sandbox=True)
    finally:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    assert c.status == doctor.OK, c.detail
    assert "verified" in c.detail and "ms a call" in c.detail


def test_a_broken_kernel_is_reported_not_raised(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "KERNEL_CPP", "this is not C++")
    work = doctor._workspace()
    c = doctor.evaluate_kernel(work, CPU, sandbox=True)
    assert c.status == doctor.FAILED and "build_failed" in c.detail and c.fix


def test_ncu_is_not_needed_on_the_cpu(tmp_path):
    c = doctor.ncu_profile(tmp_path, CPU, sandbox=True)
    assert c.status == doctor.SKIPPED


def test_a_failing_torch_compile_says_what_it_costs(monkeypatch):
    monkeypatch.setattr(doctor, "COMPILE_PROBE", "raise SystemExit('inductor is broken here')")
    c = doctor.torch_compile(CPU)
    assert c.status == doctor.FAILED and "inductor is broken here" in c.detail and "torch.compile" in c.fix


@pytest.mark.gpu
def test_on_a_gpu_every_check_passes_and_ncu_profiles_in_the_sandbox():
    rc, out = _doctor("--device", "cuda:0")
    by = {c["name"]: c for c in out["checks"]}
    assert by["Nsight Compute (ncu)"]["status"] == "ok", by["Nsight Compute (ncu)"]
    assert rc == 0 and out["ready"], out


def test_the_doctor_measures_the_devices_ceilings_once_and_shows_them(tmp_path, monkeypatch):
    cache = {"HIERA_CEILINGS": str(tmp_path / "ceilings.json")}
    monkeypatch.setenv("HIERA_CEILINGS", cache["HIERA_CEILINGS"])
    _, quick = _doctor("--quick", "--device", "cpu", env=cache)
    (c,) = [c for c in quick["checks"] if c["name"] == "speed-of-light ceilings"]
    assert c["status"] == "missing" and "without --quick" in c["fix"] and quick["ceilings"] is None
    c = doctor.ceilings(CPU, measure=True)  # what the full doctor does, without building and profiling a kernel
    assert c.status == "ok" and "GB/s" in c.detail and "GFLOP/s" in c.detail
    _, again = _doctor("--quick", "--device", "cpu", env=cache)
    (c,) = [c for c in again["checks"] if c["name"] == "speed-of-light ceilings"]
    assert c["status"] == "ok" and again["ceilings"]["dram_gbps"] > 0
    assert "copy" in again["ceilings"]["how"]["dram_gbps"]
