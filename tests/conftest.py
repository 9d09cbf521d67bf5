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
