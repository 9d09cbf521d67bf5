"""Nsight Compute profiling: hardware metrics mapped to the C/P/M/R/T directions, with per-line hotspots.

The API the loop and `hiera profile` call:

    profile_candidate(task_path, contract_dir, artifact, kind, device, *, work_dir, ...) -> Profile
    profile_reference(task_path, device, *, work_dir, ...) -> Profile

Both raise ProfilerUnavailable (one type, a message for the user) when profiling cannot run here: no ncu,
no counter permission, no CUDA device, nothing profiled, a timeout. Callers say so once and go on.

Modules: ncu.py (find and run ncu, read reports back), target.py (the program ncu launches), csv_pages.py
and report_api.py (the two report readers), catalog.py (metric names -> KernelProfile, lines), directions.py
(scores, evidence, roofline, ncu's bottleneck), feedback.py (prompt text). What the language server reads too is
in contracts/ (standard library only): the profile model (contracts/profile.py; metrics.py keeps its old import
path), the stall reasons' words and directions (contracts/stalls.py), and which source lines the editor and
`hiera profile` show, in what words (contracts/hotlines.py).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from contracts.device import Device
from contracts.profile import Bottleneck, KernelProfile, LineFinding, Profile, RuleResult
from engine import pycache
from engine.evaluate.sandbox import SCRATCH, Bind, Policy, python_dirs
from engine.evaluate.sandbox import command as sandbox_command
from engine.profile.catalog import kernel_profile, line_findings
from engine.profile.directions import bottleneck, roofline, score
from engine.profile.ncu import (
    CollectOptions,
    ProfilerUnavailable,
    collect,
    collection_summary,
    find_ncu,
    install_root,
    read_report,
)
from engine.profile.readings import Launch
from engine.profile.target import nvtx_filter

__all__ = ["Bottleneck", "KernelProfile", "LineFinding", "Profile", "ProfilerUnavailable", "RuleResult",
           "find_ncu", "profile_candidate", "profile_from_launches", "profile_reference"]

_REPO = Path(__file__).resolve().parents[2]


def profile_from_launches(launches: Sequence[Launch], *, source_map: Mapping[str, str] | None = None,
                          notices: Sequence[str] = (), target: str = "", seconds: float | None = None) -> Profile:
    """Readings from either reader -> the Profile with its direction scores."""
    kernels = tuple(kernel_profile(ln) for ln in launches)
    lines = line_findings(launches, source_map)
    scores, evidence = score(kernels, lines, own=set((source_map or {}).values()))
    notes = list(notices)
    if kernels and not any(ln.lines for ln in launches):
        notes.append("no per-line data: the kernels carry no line information (build with -lineinfo)")
    return Profile(kernels=kernels, lines=lines, scores=scores, evidence=evidence, bottleneck=bottleneck(kernels),
                   roofline=roofline(kernels), notices=tuple(notes), target=target, seconds=seconds)


def _check_device(device: Device) -> None:
    if not device.is_cuda:
        raise ProfilerUnavailable(f"profiling off: Nsight Compute profiles CUDA kernels; the device is {device} "
                                  "(use --device cuda on a machine with an NVIDIA GPU)")


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(_REPO), os.environ.get("PYTHONPATH")) if p))


def _run_profile(ncu: str, program: list[str], opts: CollectOptions, work_dir: Path, timeout_s: float,
                 target: str, source_map: Mapping[str, str],
                 sandboxed: tuple[Callable[[list[str]], list[str]], str] | None = None) -> Profile:
    work_dir.mkdir(parents=True, exist_ok=True)
    report = work_dir / ("sandbox" if sandboxed else ".") / "profile.ncu-rep"
    collected = collect(ncu, program, report, opts, timeout_s=timeout_s, env=_env(), sandboxed=sandboxed)
    t0 = time.perf_counter()
    data = read_report(ncu, collected.report)
    read_s = time.perf_counter() - t0
    if not data.launches:
        raise ProfilerUnavailable(f"profiling found no kernel in the report {collected.report}: nothing ran inside "
                                  f"the NVTX range {(opts.nvtx_include or '').rstrip('/')!r}")
    p = profile_from_launches(data.launches, source_map=source_map,
                              notices=(*collected.notices, *data.notices), target=target,
                              seconds=round(collected.seconds + read_s, 2))
    summary = {**collection_summary(collected.output), "ncu_s": round(collected.seconds, 2),
               "read_s": round(read_s, 2), "reader": data.reader, "launch_count": opts.launch_count}
    return dataclasses.replace(p, collection=summary)


def _install_root(ncu: str) -> str:
    """Nsight Compute's install folder (the one holding its sections/), which the sandbox binds whole."""
    root = install_root(ncu)
    return str(root) if root is not None else str(Path(os.path.realpath(ncu)).parent)


def _layout_for(task_path: Path) -> dict[str, Any]:
    from engine.task.contract import contract_layout
    from engine.task.spec import TaskError, load_task

    try:
        return contract_layout(load_task(task_path))
    except TaskError as e:
        raise ProfilerUnavailable(f"profiling failed: the task could not be loaded: {e}") from e


def profile_candidate(task_path: str | Path, contract_dir: str | Path, artifact: str | Path, kind: str,
                      device: Device | str,
                      *, ncu_path: str | None = None, timeout_s: float = 120.0, work_dir: str | Path,
                      layout: Mapping[str, Any] | None = None, source_path: str | Path | None = None,
                      kernel_regex: str | None = None, precision: str = "fp32", full_set: bool = False,
                      max_kernels: int = 20, sandboxed: bool = True) -> Profile:
    """Profile one built candidate of a task with ncu (in the candidates' sandbox unless sandboxed=False).

    kind: "cuda" (a contract .cu built into `artifact`, a .so) or "modelnew" (`artifact` is the ModelNew .py).
    layout: the contract layout (engine.task.contract.contract_layout); loaded from the task when omitted.
    source_path: the candidate's .cu as the user knows it; line findings name it (default: the built copy,
    `cuda_source.cu` beside the .so, whose line numbers are the same: the build only appends at the end).
    kernel_regex: profile only kernels whose function name matches, first launch only.
    """
    ncu = find_ncu(ncu_path)
    device = Device.parse(device)
    _check_device(device)
    kind = str(getattr(kind, "value", kind))
    if kind not in ("cuda", "modelnew"):
        raise ProfilerUnavailable(f"profiling off: a {kind} candidate runs on the CPU; Nsight Compute profiles CUDA "
                                  "candidates (.cu) and ModelNew modules")
    work = Path(work_dir)
    work.mkdir(parents=True, exist_ok=True)
    built = Path(artifact).resolve().parent / "cuda_source.cu"
    source_map: dict[str, str] = {}
    layout_file = work / "layout.json"
    if kind == "cuda":
        layout_file.write_text(json.dumps(dict(layout) if layout is not None else _layout_for(Path(task_path))))
        user = str(Path(source_path).resolve()) if source_path else str(built)
        # Line info names the file as its compiler saw it: the build folder, or /sandbox/ when it was built in
        # the sandbox (engine/evaluate/build.py).
        source_map[str(built)] = source_map[f"{SCRATCH}/cuda_source.cu"] = user
    opts = CollectOptions(nvtx_include=nvtx_filter(kind), kernel_regex=kernel_regex,
                          launch_count=1 if kernel_regex else max_kernels, full_set=full_set)
    if not sandboxed:
        program = [sys.executable, "-m", "engine.profile.target", "--task", str(Path(task_path).resolve()),
                   "--kind", kind, "--device", str(device), "--artifact", str(Path(artifact).resolve()),
                   "--contract-dir", str(Path(contract_dir).resolve()), "--precision", precision]
        if kind == "cuda":
            program += ["--layout", str(layout_file)]
        return _run_profile(ncu, program, opts, work, timeout_s, str(source_path or artifact), source_map)
    # The candidate runs under ncu in the sandbox every candidate runs in (engine/evaluate/sandbox.py): its
    # copy of the artifact and the build's source in the scratch, the task file and hiera's packages read-only.
    scratch = work / "sandbox"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    suffix = ".so" if kind == "cuda" else ".py"
    shutil.copyfile(artifact, scratch / f"candidate{suffix}")
    if kind == "cuda":
        shutil.copyfile(layout_file, scratch / "layout.json")
        if built.exists():
            shutil.copyfile(built, scratch / "cuda_source.cu")
    task = Path(task_path).resolve()
    program = [sys.executable, "-m", "engine.profile.target", "--task", f"/task/{task.name}", "--kind", kind,
               "--device", str(device), "--artifact", f"{SCRATCH}/candidate{suffix}", "--contract-dir", "/contract",
               "--precision", precision]
    if kind == "cuda":
        program += ["--layout", f"{SCRATCH}/layout.json"]
    ncu_home = _install_root(ncu)
    binds = [Bind(str(task), f"/task/{task.name}"), Bind(str(Path(contract_dir).resolve()), "/contract"),
             Bind(str(_REPO / "engine"), "/hiera-src/engine"), Bind(str(_REPO / "contracts"), "/hiera-src/contracts"),
             Bind(ncu_home, ncu_home)]
    binds += [Bind(d, d) for d in python_dirs(with_site=True) if not d.startswith("/usr/")]
    env = {"PYTHONPATH": "/hiera-src", "TORCH_EXTENSIONS_DIR": f"{SCRATCH}/torch_extensions",
           "TRITON_CACHE_DIR": f"{SCRATCH}/triton", "TORCHINDUCTOR_CACHE_DIR": f"{SCRATCH}/inductor"}
    # The installation's bytecode, read-only (engine/pycache.py): importing torch without it costs seconds.
    cached = pycache.readable_parts(python_dirs(with_site=True))
    if cached:
        binds += [Bind(d, d) for d in cached]
        env[pycache.ENV] = str(pycache.active())
    policy = Policy(scratch=scratch, binds=tuple(binds), gpu=True, env=env)

    def wrap(cmd: list[str]) -> list[str]:
        return sandbox_command(policy, cmd)

    return _run_profile(ncu, program, opts, work, timeout_s, str(source_path or artifact), source_map,
                        sandboxed=(wrap, f"{SCRATCH}/profile"))


def profile_reference(task_path: str | Path, device: Device | str, *, ncu_path: str | None = None,
                      timeout_s: float = 120.0, work_dir: str | Path, kernel_regex: str | None = None,
                      precision: str = "fp32", full_set: bool = False, max_kernels: int = 20) -> Profile:
    """Profile the task's reference Model (the PyTorch kernels it launches), the same way as a candidate."""
    ncu = find_ncu(ncu_path)
    device = Device.parse(device)
    _check_device(device)
    program = [sys.executable, "-m", "engine.profile.target", "--task", str(Path(task_path).resolve()),
               "--kind", "reference", "--device", str(device), "--precision", precision]
    opts = CollectOptions(nvtx_include=nvtx_filter("reference"), kernel_regex=kernel_regex,
                          launch_count=1 if kernel_regex else max_kernels, full_set=full_set)
    return _run_profile(ncu, program, opts, Path(work_dir), timeout_s, "reference", {})
