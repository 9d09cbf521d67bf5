"""What a ModelNew file's torch.compile calls cost it: one reading for the evaluator (which of hiera's candidates
are compiled ahead and priced by their compile: outcome.Candidate.hieras_compile) and for the note an exported or
delivered file's user reads (export.first_call_note)."""

from __future__ import annotations

import re

_COMPILE_CALL = re.compile(r"\b(?:torch|_hiera_torch)\.compile\(([^)]*)\)")


def compile_calls(source: str) -> list[str]:
    """The argument text of each torch.compile call in `source`."""
    return [m.group(1) for m in _COMPILE_CALL.finditer(source)]


def compiles_with_inductor(source: str) -> bool:
    """Whether the file compiles with Inductor: a torch.compile call that names no backend of its own (a custom
    backend, such as the expert's attention rewrite, captures the graph in about a second and compiles nothing)."""
    return any(not re.search(r"\bbackend\s*=", args) for args in compile_calls(source))


def captures_only(source: str) -> bool:
    """Whether every torch.compile call of the file names a backend of its own (TorchDynamo's capture only)."""
    calls = compile_calls(source)
    return bool(calls) and not compiles_with_inductor(source)
