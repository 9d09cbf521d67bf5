"""Compile generated CUDA sources with nvcc, compile-only, as the tests that need no GPU do."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def nvcc() -> str | None:
    for p in ("/usr/local/cuda/bin/nvcc", shutil.which("nvcc")):
        if p and Path(p).exists():
            return p
    return None


def cublas_include() -> str | None:
    """cublas_v2.h from the CUDA toolkit or an installed nvidia-cublas wheel (None: library variants skip)."""
    nv = nvcc()
    roots = [Path(nv).parent.parent / "include"] if nv else []
    roots += [Path(p) / "nvidia" / sub / "include" for p in sys.path if p for sub in ("cu13", "cublas", "cu12")]
    return next((str(r) for r in roots if (r / "cublas_v2.h").exists()), None)


def compile_command(src: Path, include_dir: Path, source: str) -> list[str]:
    """nvcc -c for sm_90 with the flags the evaluator builds with; cuBLAS headers when the source calls it."""
    cmd = [str(nvcc()), "-arch=sm_90", "-O3", "-std=c++17", "-lineinfo", "-Xcompiler", "-fPIC", "-c",
           f"-I{include_dir}", str(src), "-o", str(src.with_suffix(".o"))]
    if re.search(r"cublas\w*\(", source):
        cmd.insert(1, f"-I{cublas_include()}")
    return cmd


def assert_all_compile(jobs: list[tuple[Path, list[str]]]) -> None:
    """Run the compile commands two at a time; each must succeed without a warning."""
    def run(job: tuple[Path, list[str]]) -> tuple[Path, subprocess.CompletedProcess[str]]:
        return job[0], subprocess.run(job[1], capture_output=True, text=True, timeout=300)

    with ThreadPoolExecutor(2) as pool:
        for f, proc in pool.map(run, jobs):
            assert proc.returncode == 0, f"{f}:\n{proc.stderr[-3000:]}"
            assert "warning" not in proc.stderr, f"{f}:\n{proc.stderr[-3000:]}"
