"""What can be said of a task file from its text alone, in milliseconds, before any process imports it (and torch):
not text, not UTF-8, not Python, or no `Model`, `get_inputs` or `get_init_inputs` defined at its top level.

Loading a task (engine/task/spec.py) runs it in a process of its own, which imports torch first: seconds on a busy
machine before a binary file, a syntax error or a file with no `Model` is said (a binary file was an internal
UnicodeDecodeError traceback). These checks say the same things at once. A name the file may bring in some way
this cannot see (`from x import *`, `globals()[...] = `) is left to the probe, never refused here.

Imports nothing beyond the standard library.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

REQUIRED = ("Model", "get_inputs", "get_init_inputs")
FORMAT_HINTS = {
    "Model": "add `class Model(nn.Module)` with __init__ and forward",
    "get_inputs": "add `def get_inputs(): return [torch.rand(...), ...]` (the forward's inputs)",
    "get_init_inputs": "add `def get_init_inputs(): return [...]` (Model's constructor arguments)",
}


class SourceProblem(NamedTuple):
    kind: str  # encoding | syntax | format
    line: int | None
    message: str
    fix: str


def missing_message(missing: list[str]) -> tuple[str, str]:
    return (f"not a KernelBench task: missing {', '.join(missing)}", "; ".join(FORMAT_HINTS[m] for m in missing))


def _defined(tree: ast.Module) -> set[str] | None:
    """The names a module binds at its top level (None: it may bind names this cannot see)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if a.name == "*":
                    return None
                names.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "globals", "exec", "setattr", "__import__"):
            return None
    return names


def check_source(path: Path) -> SourceProblem | None:
    """The first thing wrong with a task file's text, or None."""
    data = path.read_bytes()
    nul = data.find(b"\x00")
    if nul >= 0:
        return SourceProblem("encoding", None, f"is a binary file (a NUL byte at offset {nul}), not Python source",
                             "pass a KernelBench-format task: a Python source file with class Model, get_inputs and "
                             "get_init_inputs")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        return SourceProblem("encoding", line, f"is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start} "
                                               "cannot be decoded)",
                             "save the task as UTF-8 Python source")
    try:
        tree = ast.parse(text, str(path))
    except SyntaxError as e:
        return SourceProblem("syntax", e.lineno, f"syntax error: {e.msg}", "fix the syntax at that line")
    defined = _defined(tree)
    if defined is None:
        return None
    missing = [n for n in REQUIRED if n not in defined]
    if missing:
        message, fix = missing_message(missing)
        return SourceProblem("format", None, message, fix)
    return None
