"""Subcommands of `hiera` beyond eval/contract/export, one module each.

Each module defines `register(subparsers)`; a module that is not there yet is skipped.
"""

from __future__ import annotations

import importlib
from typing import Any

_MODULES = ("optimize", "bench", "profile", "report", "study")


def register(sub: Any) -> None:
    for name in _MODULES:
        try:
            mod = importlib.import_module(f"engine.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"engine.commands.{name}":
                raise
            continue
        mod.register(sub)
