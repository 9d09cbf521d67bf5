"""What `hiera export` checks before it writes anything: the kernel compiles alone against the task's contract
and exports `hiera_forward`, the entry point the exported ModelNew's binding calls.

Without this, a kernel that does not define hiera_forward (or defines it with another signature, a C++ overload
with a mangled name) exported fine and failed at its first forward, after the exported file's 20-35 s torch
build, with "undefined symbol: hiera_forward". The kernel is compiled the way the evaluator compiles it (in
the sandbox unless --no-sandbox; seconds for C++, nvcc for CUDA), into a scratch folder: the export leaves no
build and no `.hiera/` behind. Nothing of the kernel runs here, so nothing is loaded: its symbols are read
with `nm`.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine.evaluate.build import BuildConfig, ToolchainMissing, build_one, find_nvcc
from engine.evaluate.outcome import Candidate, CandidateKind
from engine.task.contract import write_contract
from engine.task.spec import TaskSpec

ENTRY = "hiera_forward"


@dataclass(frozen=True)
class KernelCheck:
    ok: bool  # False: the kernel is refused (nothing is written)
    checked: bool  # False: it could not be checked on this machine (ok, with `said` saying why)
    said: str  # what was checked, or what failed (compiler output against the user's file), or why not
    library: bytes | None = None  # the build checked: the exported file embeds it (engine/task/export.py)


def exported_symbols(library: Path) -> set[str] | None:
    """The dynamic symbols a shared library defines (None when nm is not there to read them)."""
    nm = shutil.which("nm")
    if nm is None:
        return None
    out = subprocess.run([nm, "-D", "--defined-only", str(library)], capture_output=True, text=True, timeout=60)
    return {line.split()[-1] for line in out.stdout.splitlines() if line.split()}


def check_kernel(spec: TaskSpec, source_path: Path, *, sandboxed: bool, build_timeout_s: float,
                 on_gpu_machine: bool) -> KernelCheck:
    cuda = source_path.suffix == ".cu"
    if cuda:
        try:
            find_nvcc()
        except ToolchainMissing as e:
            return KernelCheck(True, False, f"not checked: {e}. The kernel is written as it is; it compiles at "
                                            "the exported file's first import on a GPU machine, and a mistake in "
                                            "it shows only then")
    cand = Candidate("export-check", CandidateKind.CUDA if cuda else CandidateKind.CPP, source_path.read_text())
    with tempfile.TemporaryDirectory(prefix="hiera-export-check-") as tmp:
        contract = Path(tmp) / "contract"
        write_contract(spec, contract)
        built = build_one(cand, BuildConfig(contract, Path(tmp) / "build", timeout_s=build_timeout_s,
                                            sandboxed=sandboxed))
        if not built.ok or built.artifact is None:
            return KernelCheck(False, True, built.log or "the compiler failed with no output")
        symbols = exported_symbols(Path(built.artifact))
        library = Path(built.artifact).read_bytes()
    if symbols is None:
        return KernelCheck(True, False, "compiled against the task's contract; its symbols were not read (no `nm` "
                                        f"here), so whether it defines {ENTRY} shows at the first import", library)
    if ENTRY not in symbols:
        return KernelCheck(False, True, f"it compiles but defines no `{ENTRY}` (the contract's entry point, "
                                        "declared extern \"C\" in hiera_contract.h, which the exported module "
                                        "calls): define it with the signature in hiera_contract.h "
                                        "(`hiera contract TASK.py -o DIR` writes the header)")
    said = f"compiled alone against the task's contract and defines {ENTRY}"
    if cuda and not on_gpu_machine:
        said += ("; not run: this machine has no CUDA device, so the exported file can be imported only on a GPU "
                 "machine (its first import builds it with the CUDA toolkit there)")
    return KernelCheck(True, True, said, library)
