"""What happens when a job ends: the result edit, the message the user reads, fresh diagnostics and lenses.

It works through the server's services named in `Host` (hiera_ls/hiera_server.py HieraServer provides them), so this
module does not import the server that imports it.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types

from contracts.hotlines import Elsewhere, HotLine
from hiera_ls.best import kept_back
from hiera_ls.edits import client_can_create_files, create_files_edit, free_targets, result_stem
from hiera_ls.files import read_text_or_none
from hiera_ls.index import WorkspaceIndex, text_hash
from hiera_ls.job import Job
from hiera_ls.modules import Kernel, PythonScan
from hiera_ls.run_views import kept_folder, pair_text, speed_phrase
from hiera_ls.settings import Settings
from hiera_ls.views import kernels_of
from hiera_ls.wording import times

log = logging.getLogger(__name__)

APPLY_TIMEOUT_S = 120.0
_ENDPOINT = re.compile(r"endpoint|base.?url|api.?key|model", re.I)


class Host(Protocol):
    """What delivering a job's end needs of the language server (hiera_ls/hiera_server.py HieraServer)."""

    index: WorkspaceIndex
    settings: Settings

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...
    def log(self, message: str, kind: types.MessageType = ...) -> None: ...
    def tell_job_end(self, job: Job, kind: types.MessageType, message: str) -> None: ...
    def document_text(self, path: Path) -> str | None: ...
    def open_paths(self) -> set[Path]: ...
    def save_state(self, root: Path) -> None: ...
    def refresh_views(self, changed: Path | None = None) -> None: ...
    async def parse(self, text: str) -> PythonScan: ...
    async def kernels_of(self, path: Path, text: str) -> list[Kernel]: ...
    def cu_findings(self, path: Path, text: str, found: tuple[dict[str, Any], Any] | None = None
                    ) -> tuple[tuple[HotLine, ...], tuple[Elsewhere, ...]]: ...
    async def publish_for(self, path: Path) -> None: ...
    def workspace_apply_edit_async(self, params: types.ApplyWorkspaceEditParams
                                   ) -> Awaitable[types.ApplyWorkspaceEditResult]: ...


async def on_job_done(ls: Host, job: Job) -> None:
    if job.state == "cancelled" and job.kind == "optimize" and job.best:
        await _deliver_optimize(ls, job)  # the best so far, which the engine said before it stopped
    elif job.state == "cancelled":
        ls.log(f"HIERA: {job.title} cancelled; finished candidates stay in the run store")
    elif job.state == "failed":
        ls.tell_job_end(job, types.MessageType.Error, failure_message(ls, job))
    elif job.kind == "optimize":
        await _deliver_optimize(ls, job)
    else:
        await _deliver_profile(ls, job)
    ls.refresh_views(job.path)


def failure_message(ls: Host, job: Job) -> str:
    err = job.error or "unknown error"
    text = err if err.startswith("HIERA:") else f"HIERA: {job.title.removeprefix('HIERA: ')} failed: {err}"
    if job.kind == "optimize" and ls.settings.backend == "llm" and _ENDPOINT.search(err):
        s = ls.settings.llm
        text += (f". Set hiera.llm.baseUrl and hiera.llm.model (the key goes in ${s.api_key_env}), or set "
                 "hiera.backend to \"expert\" to run offline")
    if job.proc is not None or job.error_log:  # the engine ran: its log says more
        text += f". Log: {job.error_log or job.log_path}"
    return text


async def _read(path: str | None) -> str | None:
    return await asyncio.to_thread(read_text_or_none, path) if path else None


async def _deliver_optimize(ls: Host, job: Job) -> None:
    res = job.result
    best = job.best  # canonical: one pair's figures (job_outcome.py settle)
    assert job.path is not None and job.class_name is not None
    name, module_file = job.class_name, job.path.name
    job.delivered = False
    if not best or res is None:
        rounds = res.rounds if res is not None else []
        valid = sum(1 for r in rounds for o in r.outcomes if o.status == "valid")
        evaluated = res.candidates if res is not None and res.candidates is not None else "?"
        ls.tell_job_end(job, types.MessageType.Info,
                        f"HIERA: no valid candidate for {name} ({valid} valid of {evaluated}); "
                        "hover the class for the rounds, or try more rounds or another space")
        return
    speed = figure_text(best)
    why = f" — the best, {best['why']}" if best.get("why") else ""
    flagged = "".join(f" {w[0].upper()}{w[1:]}." for w in best.get("warnings") or [])
    paths = best.get("paths") or {}
    in_run = kept_folder({"run_id": res.run_id, "best": best}, job.root)  # the engine's folder for the run's files
    if kept_back(best):
        # Not what the user asked for: nothing beside their module; the run keeps the best for a look.
        if best.get("verdict") == "unstable":
            lead = f"{name}: {speed}{why}"
        else:
            lead = f"no candidate beat eager for {name}: the best is {speed}" + (f" — {best['why']}" if why else "")
        ls.tell_job_end(job, types.MessageType.Warning,
                        f"HIERA: {lead}. Nothing was written beside {module_file}; the kept files are in "
                        f"{in_run}.{flagged}")
        return
    module = (await ls.parse(ls.document_text(job.path) or await _read(str(job.path)) or "")).by_name(name)
    py_src, cu_src = await _read(paths.get("py")), await _read(paths.get("cu"))
    if py_src is None:
        ls.tell_job_end(job, types.MessageType.Warning,
                        f"HIERA: {name} is {speed}, but the result file {paths.get('py')} is missing; see run "
                        f"{res.run_id} in .hiera/runs/")
        return
    folder = job.path.parent
    engine_py = Path(paths["py"]).resolve()
    if engine_py.parent == folder:
        # An engine without --results-dir support already wrote the files beside the module.
        written = [engine_py] + ([Path(paths["cu"]).resolve()] if paths.get("cu") else [])
        _record(ls, job, best, written, cu_src)
        job.delivered = True
        ls.tell_job_end(job, types.MessageType.Info,
                        f"HIERA: {name} is {speed}{why}. Wrote {' and '.join(p.name for p in written)}.{flagged}")
        return
    # the kernel file is .cu on a GPU, .cpp on the CPU path
    kernel_suffix = Path(paths["cu"]).suffix if paths.get("cu") else ".cu"
    files = [(".py", py_src)] + ([(kernel_suffix, cu_src)] if cu_src is not None else [])
    # Named as the engine named them (its files are alone in their job's folder, so unnumbered), numbered
    # beside the module only when that name is taken there.
    stem = engine_py.stem if engine_py.stem.endswith("_hiera") else result_stem(job.path, module)
    targets = free_targets(folder, stem, [s for s, _ in files], ls.open_paths())
    if not client_can_create_files(ls.client_capabilities):
        ls.tell_job_end(job, types.MessageType.Info,
                        f"HIERA: {name} is {speed}. This editor cannot create files through an edit; the result is "
                        f"in {in_run}")
        return
    edit = create_files_edit([(t, text) for t, (_, text) in zip(targets, files)])
    try:
        answer = await asyncio.wait_for(ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
            edit=edit, label=f"HIERA: {name} {times(best['speedup'])}")), timeout=APPLY_TIMEOUT_S)
    except Exception as e:  # the client errored or never answered
        answer = types.ApplyWorkspaceEditResult(applied=False, failure_reason=f"{type(e).__name__}: {e}")
    if not answer.applied:
        why = f" ({answer.failure_reason})" if answer.failure_reason else ""
        ls.tell_job_end(job, types.MessageType.Warning,
                        f"HIERA: {name} is {speed}, but the editor did not apply the edit{why}; the result is in "
                        f"{in_run}")
        return
    _record(ls, job, best, targets, cu_src)
    job.delivered = True
    ls.tell_job_end(job, types.MessageType.Info,
                    f"HIERA: {name} is {speed}{why}. Created {' and '.join(t.name for t in targets)} beside "
                    f"{module_file}.{flagged}")


def figure_text(best: dict[str, Any]) -> str:
    """The best's figure in one clause of the job's last message: '1.4× faster than eager (340 µs vs 475 µs
    eager, re-timed, 1.3–1.5× at 95%)'; a level or unstable one with the numbers behind it first ('level with
    eager (1.0×, 0.80–1.3× at 95%; 495 µs vs 500 µs eager)')."""
    sure = best.get("uncertainty")
    if best.get("verdict") in ("level", "unstable") and sure:
        return f"{speed_phrase(best)} ({sure}; {pair_text(best)})"
    light = f", {best['speed_of_light_text']}" if best.get("speed_of_light_text") else ""
    return f"{speed_phrase(best)} ({pair_text(best)}{f', {sure}' if sure else ''}{light})"


def _record(ls: Host, job: Job, best: dict[str, Any], written: list[Path], cu_src: str | None) -> None:
    """Remember which run the new files came from (hover, diagnostics and Profile kernel read it)."""
    state = ls.index.state(job.root)
    for p in written:
        entry: dict[str, Any] = {"run_id": job.result.run_id if job.result else job.run_id,
                                 "candidate_id": best.get("candidate_id"), "module": str(job.path),
                                 "class": job.class_name, "created": time.time()}
        if p.suffix != ".py" and cu_src is not None:
            entry["sha"] = text_hash(cu_src)
        state.results[str(p)] = entry
        if p.suffix == ".cu":
            ls.index.cu.add(p)
    ls.save_state(job.root)


async def _deliver_profile(ls: Host, job: Job) -> None:
    res = job.profile_output or {}
    data = res.get("profile") if isinstance(res.get("profile"), dict) else None
    run_id = res.get("run_id")
    cand = res.get("candidate_id")
    if data is None and run_id:
        reader = ls.index.reader(job.root)
        data = reader.profile(run_id, cand) if cand else None
        if data is None:
            data = next(iter(reader.profiles(run_id).values()), None)
    if data is None and ("kernels" in res or "lines" in res):
        data = res  # the profile object itself on stdout
    if job.kind == "profileKernel" and job.path is not None:
        text = ls.document_text(job.path) or await _read(str(job.path)) or ""
        state = ls.index.state(job.root)
        state.profiles[str(job.path)] = {"run_id": run_id, "candidate_id": cand, "sha": text_hash(text),
                                         "created": time.time(),
                                         **({"data": data} if data is not None and not run_id else {})}
        ls.save_state(job.root)
        names = [k.name for k in await ls.kernels_of(job.path, text)]
        flagged = len(ls.cu_findings(job.path, text)[0])  # what the diagnostics will show, not every sampled line
        b = (data or {}).get("bottleneck") or {}
        bottleneck = f", bottleneck: {b['rule']}" + (f" ({b['direction']})" if b.get("direction") else "") \
            if b.get("rule") else ""
        ls.tell_job_end(job, types.MessageType.Info,
                        f"HIERA: profiled {names[0] if names else job.path.name}{bottleneck}; {flagged} source "
                        "line(s) flagged; hover the kernel for the summary")
        await ls.publish_for(job.path)
        return
    kernels = kernels_of(data) if data else []
    b = (data or {}).get("bottleneck") or {}
    summary = f"{len(kernels)} kernel(s)" + (f", bottleneck {b['rule']} ({b.get('direction') or '?'})"
                                             if b.get("rule") else "")
    ls.tell_job_end(job, types.MessageType.Info, f"HIERA: profiled {job.class_name}: {summary} (run {run_id or '?'})")
