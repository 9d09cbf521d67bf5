"""Shared test setup: the `gpu` marker skips (with the reason) where no CUDA device exists."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
TASKS = DATA / "tasks"
CANDIDATES = DATA / "candidates"
CHEATS = DATA / "cheats"


def fake_cudnn(root: Path, *libraries: str) -> Path:
    """A cuDNN folder laid out like the nvidia-cudnn wheel (include/cudnn.h, lib/<libraries>), files empty."""
    (root / "include").mkdir(parents=True)
    (root / "include" / "cudnn.h").write_text("")
    (root / "lib").mkdir()
    for name in libraries or ("libcudnn.so.9",):
        (root / "lib" / name).write_text("")
    return root


def _cuda_reason() -> str | None:
    try:
        import torch
    except ImportError:
        return "torch is not installed"
    if not torch.cuda.is_available():
        return "needs a CUDA device (none here); run on a GPU machine: pytest -m gpu"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _cuda_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With HIERA_TEST_REPORT=FILE, each test's outcome (and a failure's traceback) is appended to FILE as soon as
    the test ends: a GPU call stopped at its time limit still brings back what had finished (pytest prints the
    failures only at the end, and the first GPU run of these suites lost which assertion failed that way)."""
    import os

    path = os.environ.get("HIERA_TEST_REPORT")
    if not path or not (report.when == "call" or report.outcome != "passed"):
        return
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"{report.outcome.upper()} {report.nodeid} ({report.when}, {report.duration:.1f} s)\n")
        if report.failed:
            f.write(str(report.longrepr)[-6000:] + "\n\n")
