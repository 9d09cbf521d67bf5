"""hiera's trusted processes keep their caches in hiera's own folder of the user's cache (engine/cache_home.py):
PyTorch's jiterator, which the checker's ceilings use on a GPU, would otherwise write ~/.cache/torch/kernels, and the
CUDA driver's JIT cache ~/.nv/ComputeCache: folders of the user's (both found by the escape test's home check on the
H100, 2026-12-07)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from engine import cache_home, pycache
from engine.evaluate import ceilings, worker


def test_hieras_caches_share_one_folder_under_xdg_cache_home(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("HIERA_PYCACHE", raising=False)
    monkeypatch.delenv("HIERA_CEILINGS", raising=False)
    assert cache_home.hiera_cache() == tmp_path / "hiera"
    assert pycache.cache_dir() == tmp_path / "hiera" / "pycache"
    assert ceilings.cache_path() == tmp_path / "hiera" / "ceilings.json"


def test_the_jiterator_and_cuda_jit_caches_go_into_hieras_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    env = cache_home.gpu_caches({"PATH": "/bin"})
    assert env == {"PATH": "/bin", "PYTORCH_KERNEL_CACHE_PATH": str(tmp_path / "hiera" / "torch-kernels"),
                   "CUDA_CACHE_PATH": str(tmp_path / "hiera" / "cuda-jit")}
    assert (tmp_path / "hiera" / "torch-kernels").is_dir() and (tmp_path / "hiera" / "cuda-jit").is_dir()


@pytest.mark.parametrize("users", [{"PYTORCH_KERNEL_CACHE_PATH": "/somewhere/mine", "CUDA_CACHE_PATH": "/mine/too"},
                                   {"USE_PYTORCH_KERNEL_CACHE": "0", "CUDA_CACHE_DISABLE": "1"}])
def test_a_users_own_cache_settings_are_kept(tmp_path: Path, monkeypatch, users: dict[str, str]) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_home.gpu_caches(dict(users)) == users
    assert not (tmp_path / "hiera").exists()
    # Each on its own: the user's kernel cache kept, the CUDA one still moved out of ~/.nv.
    env = cache_home.gpu_caches({"PYTORCH_KERNEL_CACHE_PATH": "/somewhere/mine"})
    assert env == {"PYTORCH_KERNEL_CACHE_PATH": "/somewhere/mine",
                   "CUDA_CACHE_PATH": str(tmp_path / "hiera" / "cuda-jit")}


def test_a_read_only_cache_turns_the_kernel_cache_off_rather_than_using_the_users(tmp_path: Path,
                                                                                   monkeypatch) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as a user who can write a read-only folder (root)")
        monkeypatch.setenv("XDG_CACHE_HOME", str(ro))
        assert cache_home.gpu_caches({}) == {"USE_PYTORCH_KERNEL_CACHE": "0", "CUDA_CACHE_DISABLE": "1"}
    finally:
        ro.chmod(0o700)


def test_the_checker_worker_starts_with_the_kernel_cache_in_hieras_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("PYTORCH_KERNEL_CACHE_PATH", raising=False)
    monkeypatch.delenv("USE_PYTORCH_KERNEL_CACHE", raising=False)
    monkeypatch.delenv("CUDA_CACHE_PATH", raising=False)
    monkeypatch.delenv("CUDA_CACHE_DISABLE", raising=False)
    seen: dict[str, str] = {}

    class Started(Exception):
        pass

    def popen(*args, env: dict[str, str], **kwargs):
        seen.update(env)
        raise Started

    monkeypatch.setattr(subprocess, "Popen", popen)
    w = worker.Worker(str(tmp_path / "task.py"), "cpu", "fp32", workdir=str(tmp_path / "work"))
    with pytest.raises(Started):
        w.start()
    assert seen["PYTORCH_KERNEL_CACHE_PATH"] == str(tmp_path / "hiera" / "torch-kernels")
    assert seen["CUDA_CACHE_PATH"] == str(tmp_path / "hiera" / "cuda-jit")


def test_hiera_doctor_points_the_driver_jit_cache_before_it_looks_for_the_device(tmp_path: Path, monkeypatch) -> None:
    """The driver reads CUDA_CACHE_PATH when CUDA starts in the process, and finding the device may start it: the
    doctor's command sets it first (the ceilings' measure set it only after its memory probes had run CUDA)."""
    import argparse

    from engine.commands import doctor

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for var in ("PYTORCH_KERNEL_CACHE_PATH", "USE_PYTORCH_KERNEL_CACHE", "CUDA_CACHE_PATH", "CUDA_CACHE_DISABLE"):
        monkeypatch.delenv(var, raising=False)
    seen: dict[str, str | None] = {}

    class Looked(Exception):
        pass

    def device_or_exit(_: str):
        seen["CUDA_CACHE_PATH"] = os.environ.get("CUDA_CACHE_PATH")
        raise Looked

    monkeypatch.setattr(doctor, "device_or_exit", device_or_exit)
    with pytest.raises(Looked):
        doctor.cmd_doctor(argparse.Namespace(device="auto", quick=True, no_sandbox=False, json=False,
                                             measure_ceilings=False))
    assert seen["CUDA_CACHE_PATH"] == str(tmp_path / "hiera" / "cuda-jit")
