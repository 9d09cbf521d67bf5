"""What a ModelNew file's torch.compile calls cost it: one reading for the evaluator (which of hiera's candidates
are compiled ahead and priced by their compile: outcome.Candidate.hieras_compile) and for the note an exported or
delivered file's user reads (export.first_call_note)."""

from __future__ import annotations

import ast
import re

_MODULES = ("torch", "_torch", "_hiera_torch")  # the names hiera's files import torch under


def _backends(source: str) -> list[str | None]:
    """The backend of each `torch.compile(...)` call in `source`: the keyword's text (a string's value, else the
    expression's source), None where the call names none (Inductor). A file that does not parse is read by its
    text: any `.compile(` counts as Inductor."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return [None] * len(re.findall(r"\b(?:torch|_hiera_torch)\.compile\(", source))
    found: list[str | None] = []
    for node in ast.walk(tree):
        f = node.func if isinstance(node, ast.Call) else None
        if isinstance(f, ast.Attribute) and f.attr == "compile" and isinstance(f.value, ast.Name) \
                and f.value.id in _MODULES:
            kw = next((k.value for k in node.keywords if k.arg == "backend"), None)  # type: ignore[union-attr]
            found.append(None if kw is None else kw.value if isinstance(kw, ast.Constant) and
                         isinstance(kw.value, str) else ast.unparse(kw))
    return found


def compiles_with_inductor(source: str) -> bool:
    """Whether the file compiles with Inductor: a torch.compile call with no backend or backend="inductor" (a
    backend of its own, such as the expert's attention rewrite, captures the graph in about a second and compiles
    nothing)."""
    return any(_inductor(b) for b in _backends(source))


def captures_only(source: str) -> bool:
    """Whether the file calls torch.compile and every call names a backend of its own (TorchDynamo's capture)."""
    found = _backends(source)
    return bool(found) and not any(_inductor(b) for b in found)


def _inductor(backend: str | None) -> bool:
    return backend is None or backend == "inductor"
