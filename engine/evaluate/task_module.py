"""The task's own module, imported by path, and the precision policy's switches for a whole process: what the
trusted checker (checker.py) and the profiled program (session.py) both need, kept apart from session.py, which
loads candidate code and which the checker must never import.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import torch

from engine.evaluate.outcome import Precision


def import_file(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def set_precision(precision: Precision) -> None:
    """The policy's switches for the whole process. The fp32 policy is strict for the reference too: cuDNN
    convolutions default to TF32 otherwise."""
    tf32 = precision is Precision.TF32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    torch.set_float32_matmul_precision("high" if tf32 else "highest")
