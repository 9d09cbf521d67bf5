"""hiera-ls: LSP wiring. Each handler adapts one LSP message to the modules that do the work.

hiera_server.py (the server object and its services), stdio.py and framing.py (the transport and the
protocol's checks), plain_json.py (hiera/* messages as plain JSON), documents.py and doc_scans.py (open
documents, parsed off the event loop), index.py (what is in the workspace), commands.py (the hiera.* commands),
the engine jobs: jobs.py (subprocesses, the queue per device, cancel), job.py (a job's state), job_events.py
(the engine's events read into it), job_progress.py (what the client is shown), job_outcome.py (how it ended),
engine_command.py (the engine's command lines), cuda_probe.py; deliver.py (what a finished job changes),
run_views.py and views.py (hover, diagnostics, lens text), results.py (hiera/runResults), best.py (the one
best figure), wording.py (device-aware words), settings.py. Every handler is async or trivially short;
nothing here waits on the engine, and nothing that grows with a file runs on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from hiera_ls import commands, run_views, stdio, views
from hiera_ls.commands import BadArguments, CommandError
from hiera_ls.hiera_server import HieraServer
from hiera_ls.index import Watcher
from hiera_ls.modules import Kernel
from hiera_ls.results import run_results
from hiera_ls.scanner import SMALL_BYTES
from hiera_ls.settings import SPACES, settings_json
from hiera_ls.wording import space_title

log = logging.getLogger("hiera_ls")

RUN_RESULTS = "hiera/runResults"
MODULES = "hiera/modules"
ACTION_KIND = types.CodeActionKind.Refactor + ".hiera"


server = HieraServer()


def _p(ls: HieraServer, uri: str) -> Path | None:
    p = ls.path_of(uri)
    return p if p is not None and p.suffix in (".py", ".cu") else None


@server.feature(types.INITIALIZE)
async def initialize(ls: HieraServer, params: types.InitializeParams) -> None:
    roots: list[Path] = []
    for f in params.workspace_folders or []:
        if (p := ls.path_of(f.uri)) is not None:
            roots.append(p)
    if not roots and params.root_uri and (p := ls.path_of(params.root_uri)) is not None:
        roots.append(p)
    if not roots and params.root_path:
        roots.append(Path(params.root_path).resolve())
    if not roots:
        roots.append(Path.cwd().resolve())
    ls.set_roots(roots)
    ls.init_options = params.initialization_options


@server.feature(types.INITIALIZED)
async def initialized(ls: HieraServer, params: types.InitializedParams) -> None:
    await ls.load_settings()
    # Watching first, then the walk: a file written between the two would otherwise be seen by neither (the
    # index was already answering while the watcher started). What the watcher reports meanwhile is applied
    # after the walk is merged (HieraServer.walked).
    if os.environ.get("HIERA_LS_NO_WATCH") != "1":
        ls.watcher = Watcher(ls.index.roots, asyncio.get_running_loop(), ls.on_disk_change)
        try:
            await asyncio.to_thread(ls.watcher.start)
        except Exception as e:  # no inotify here: the editor's own notifications still work
            log.warning("file watching is off: %s", e)
    try:
        # Every file of the workspace parsed: in the scan worker, so hovers and lenses answer meanwhile.
        py, cu = await ls.scanner.run("walk", ls.index.roots, size=SMALL_BYTES)
        ls.index.merge_walk(py, cu)
    finally:
        ls.walked.set()
    ls.log(f"HIERA: indexed {sum(len(s.modules) for s in ls.index.py.values())} module classes in "
           f"{len(ls.index.py)} files and {len(ls.index.cu)} .cu files")
    ls.schedule_lens_refresh()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: HieraServer, params: types.DidChangeConfigurationParams) -> None:
    pushed = params.settings.get("hiera", params.settings) if isinstance(params.settings, dict) else None
    await ls.load_settings(pushed)
    ls.refresh_views()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: HieraServer, params: types.DidOpenTextDocumentParams) -> None:
    if (p := _p(ls, params.text_document.uri)) is None:
        return
    ls.opened(p, params.text_document.uri)
    if p.suffix == ".py":
        ls.scans.opened(p)  # its diagnostics follow the scan
    else:
        ls.index.cu.add(p)
        await ls.publish_for(p)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: HieraServer, params: types.DidChangeTextDocumentParams) -> None:
    if (p := _p(ls, params.text_document.uri)) is None or p not in ls.index.open_docs:
        return
    if p.suffix == ".py":
        # debounced, off the loop; diagnostics follow the scan (which keeps the classes above the first edit)
        first = min((c.range.start.line if isinstance(c, types.TextDocumentContentChangePartial) else 0
                     for c in params.content_changes), default=0)
        ls.scans.changed(p, first)
    else:
        ls.schedule_publish(p)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: HieraServer, params: types.DidSaveTextDocumentParams) -> None:
    if (p := _p(ls, params.text_document.uri)) is not None:
        ls.schedule_publish(p, 0.0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
async def did_close(ls: HieraServer, params: types.DidCloseTextDocumentParams) -> None:
    if (p := _p(ls, params.text_document.uri)) is None:
        return
    ls.closed(p)
    ls.on_disk_change({p})  # back to what the disk says


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[ACTION_KIND], resolve_provider=False))
async def code_action(ls: HieraServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    if (p := _p(ls, params.text_document.uri)) is None:
        return None
    uri = params.text_document.uri
    line = params.range.start.line

    def action(title: str, command: str, *args: Any) -> types.CodeAction:
        return types.CodeAction(title=title, kind=ACTION_KIND,
                                command=types.Command(title=title, command=command, arguments=list(args)))

    if p.suffix == ".cu":
        await ls.settings_ready()
        # Nsight Compute profiles CUDA devices only: on a CPU workspace the action could only fail.
        if ls.index.cu_origin(p) is None or ls.expects_cpu():
            return None
        return [action("Profile kernel", "hiera.profileKernel", uri)]
    scan = await ls.scan_of(p)
    if scan is None or scan.is_result:
        return None
    m = scan.at(line)
    # Modules without inputs get the action on their class line only: on every line of every nn.Module of
    # a large model it would be noise, while on the class line running it says what to add.
    if m is None or not (m.optimizable or m.on_header(line)):
        return None
    await ls.settings_ready()  # hiera.device decides the words: the first pull may still be on its way
    device = "cpu" if ls.expects_cpu() else "cuda"  # the spaces as they read where the job will run
    actions = [action("Optimize with HIERA", "hiera.optimize", uri, m.name)]
    actions += [action(f"Optimize with HIERA in a fixed space: {space_title(s, device)}", "hiera.optimize", uri,
                       m.name, {"space": s}) for s in SPACES]
    if device == "cuda":  # Nsight Compute profiles CUDA devices only: not offered where jobs run on the CPU
        actions.append(action("Profile with Nsight Compute", "hiera.profile", uri, m.name))
    return actions


@server.feature(types.TEXT_DOCUMENT_CODE_LENS)
async def code_lens(ls: HieraServer, params: types.CodeLensParams) -> list[types.CodeLens] | None:
    if (p := _p(ls, params.text_document.uri)) is None or p.suffix != ".py":
        return None
    scan = await ls.scan_of(p)
    if scan is None or scan.is_result:
        return None
    uri = params.text_document.uri
    out = []
    for m in scan.modules:
        if not m.optimizable:
            continue
        rng = types.Range(types.Position(m.class_line, 0), types.Position(m.class_line, 0))
        job = ls.jobs.for_module(p, m.name)
        if job is not None:
            out.append(types.CodeLens(rng, types.Command(title=f"HIERA: {job.message} · cancel", command="hiera.cancel",
                                                         arguments=[job.id])))
        else:
            out.append(types.CodeLens(rng, types.Command(title="Optimize with HIERA", command="hiera.optimize",
                                                         arguments=[uri, m.name])))
        obj = ls.module_run(p, m)
        if obj is not None and obj.get("status") != "running":
            out.append(types.CodeLens(rng, types.Command(title=run_views.lens_summary(obj),
                                                         command="hiera.showResults", arguments=[obj["run_id"]])))
    return out


def _word_at(line: str, col: int) -> str:
    start = col
    while start > 0 and (line[start - 1].isalnum() or line[start - 1] == "_"):
        start -= 1
    end = col
    while end < len(line) and (line[end].isalnum() or line[end] == "_"):
        end += 1
    return line[start:end]


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: HieraServer, params: types.HoverParams) -> types.Hover | None:
    if (p := _p(ls, params.text_document.uri)) is None:
        return None
    pos = params.position
    if p.suffix == ".py":
        scan = await ls.scan_of(p)
        m = scan.at(pos.line) if scan is not None and not scan.is_result else None
        if m is None or not m.on_header(pos.line):
            return None
        job = ls.jobs.for_module(p, m.name)
        obj = ls.module_run(p, m) if m.optimizable else None
        text = run_views.module_hover(m, obj, job.message if job else None,
                                      ls.result_file(p, m, obj.get("run_id") if obj else None),
                                      ls.index.root_of(p))
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                           types.Range(types.Position(m.class_line, m.name_col),
                                       types.Position(m.class_line, m.name_col + len(m.name))))
    source = ls.text_of(p)
    kernels = await ls.kernels_of(p, source)
    kernel: Kernel | None = next((k for k in kernels if k.line <= pos.line <= k.name_line), None)
    if kernel is None:  # the kernel's name anywhere, e.g. at its launch
        lines = source.splitlines()
        word = _word_at(lines[pos.line], pos.character) if pos.line < len(lines) else ""
        kernel = next((k for k in kernels if k.name == word), None) if word else None
    if kernel is None:
        return None
    found = ls.index.profile_for_cu(p)
    origin = found[1] if found else None
    src = f"run {origin.run_id}, candidate {origin.candidate_id}" if origin else None
    hot, away = ls.cu_findings(p, source, found) if found else ((), ())
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, views.kernel_hover(
        kernel.name, found[0] if found else None, src, hot, away)))


# --- commands: async, each returns at once (the work is a Job) -------------------------------------------


async def _run_command(ls: HieraServer, fn: Any, args: tuple[Any, ...]) -> Any:
    await ls.settings_ready()
    try:
        return await fn(ls, *args)
    except BadArguments as e:  # a client's mistake, not the user's: an error response, logged, no toast
        raise JsonRpcInvalidParams(str(e)) from e
    except CommandError as e:  # the user's request cannot run as asked: say what to do
        ls.show(types.MessageType.Error, str(e))
        return {"error": str(e)}


@server.command("hiera.optimize")
async def cmd_optimize(ls: HieraServer, *args: Any) -> Any:
    return await _run_command(ls, commands.optimize, args)


@server.command("hiera.profile")
async def cmd_profile(ls: HieraServer, *args: Any) -> Any:
    return await _run_command(ls, commands.profile, args)


@server.command("hiera.profileKernel")
async def cmd_profile_kernel(ls: HieraServer, *args: Any) -> Any:
    return await _run_command(ls, commands.profile_kernel, args)


@server.command("hiera.cancel")
async def cmd_cancel(ls: HieraServer, *args: Any) -> Any:
    return await _run_command(ls, commands.cancel, args)


@server.command("hiera.showResults")
async def cmd_show_results(ls: HieraServer, *args: Any) -> Any:
    """Protocol §3: the answer is the run's results; clients render them (through hiera/runResults)."""
    first = args[0] if args else None
    run_id = first.get("runId") if isinstance(first, dict) else first
    return await _results_for({"runId": run_id}, ls)


def _with_delivered(ls: HieraServer, reader: Any, out: dict[str, Any] | None) -> dict[str, Any] | None:
    """Add `delivered`: the files the server created beside the module for this run (the engine's copies
    under .hiera/ are what `best.paths` name), so clients open the user's files, not the copies."""
    if out is None:
        return None
    state = ls.index.state(reader.workspace.resolve())
    mine = [Path(p) for p, e in state.results.items() if e.get("run_id") == out.get("run_id") and Path(p).exists()]
    out["delivered"] = {"py": next((str(p) for p in mine if p.suffix == ".py"), None),
                        "cu": next((str(p) for p in mine if p.suffix in (".cu", ".cpp")), None)}
    return out


def _answer(ls: HieraServer, reader: Any, run: dict[str, Any]) -> dict[str, Any] | None:
    return _with_delivered(ls, reader, run_results(reader, run, ls.run_is_live(run)))


async def _results_for(params: Any, ls: HieraServer) -> dict[str, Any] | None:
    params = params if isinstance(params, dict) else {}
    run_id, uri = params.get("runId"), params.get("uri")
    if isinstance(run_id, str):
        for reader in ls.index.readers():
            if (run := reader.run(run_id)) is not None:
                return _answer(ls, reader, run)
        return None
    if not isinstance(uri, str) or (p := ls.path_of(uri)) is None:
        return None
    reader = ls.index.reader(p)
    if p.suffix == ".cu":
        origin = ls.index.cu_origin(p)
        run = reader.run(origin.run_id) if origin else None
        return _answer(ls, reader, run) if run else None
    scan = await ls.scan_of(p) if p.suffix == ".py" else None
    runs = [r for m in (scan.modules if scan else ()) if m.optimizable and (r := ls.index.latest_run(p, m))]
    if not runs:
        return None
    return _answer(ls, reader, max(runs, key=lambda r: r["started"]))


@server.feature(RUN_RESULTS)
async def run_results_request(ls: HieraServer, params: Any) -> dict[str, Any] | None:
    return await _results_for(params, ls)


@server.feature(MODULES)
async def modules_request(ls: HieraServer, params: Any = None) -> dict[str, Any]:
    """The index, for clients' tree views and tests: optimizable modules and known kernels (no params)."""
    kernels = []
    for cu in sorted(ls.index.cu):
        origin = ls.index.cu_origin(cu)
        kernels.append({"uri": cu.as_uri(), "path": str(cu), "runId": origin.run_id if origin else None,
                        "candidateId": origin.candidate_id if origin else None,
                        "kernels": [k.name for k in await ls.kernels_of(cu, ls.text_of(cu))]})
    return {"modules": ls.index.modules_json(), "kernels": kernels, "settings": settings_json(ls.settings),
            "jobs": [j.status_json() for j in ls.jobs.jobs.values()]}


@server.feature(types.WINDOW_WORK_DONE_PROGRESS_CANCEL)
async def progress_cancel(ls: HieraServer, params: types.WorkDoneProgressCancelParams) -> None:
    ls.jobs.cancel_token(params.token)


# Synchronous on purpose: pygls runs it inline, before it answers. (`exit` is stdio.py's: it ends the loop.)
@server.feature(types.SHUTDOWN)
def shutdown(ls: HieraServer, params: Any = None) -> None:
    _stop_everything(ls)


def _stop_everything(ls: HieraServer) -> None:
    ls.jobs.kill_all()
    for job in ls.jobs.jobs.values():
        if job.run_id and job.proc is not None and job.proc.returncode is None:
            ls.index.reader(job.root).mark_ended(job.run_id, "stopped")
    if ls.watcher is not None:
        ls.watcher.stop()
        ls.watcher = None
    with contextlib.suppress(Exception):  # after the loop has closed, its transports are gone already
        ls.scanner.stop()


def main() -> None:
    level = os.environ.get("HIERA_LS_LOG", "INFO").upper()
    logging.basicConfig(stream=sys.stderr, level=level, format="hiera-ls %(levelname)s %(name)s: %(message)s")
    if level != "DEBUG":  # pygls logs every message at INFO
        logging.getLogger("pygls").setLevel(logging.WARNING)
    # stdout is the LSP channel: anything printed by accident (a library's print) must not corrupt it.
    real_stdout = sys.stdout.buffer
    sys.stdout = sys.stderr

    def on_signal(signum: int, frame: Any) -> None:
        server.jobs.kill_all()
        server.scanner.stop()
        os._exit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):
            signal.signal(sig, on_signal)
    code = 1
    try:
        code = stdio.serve(server, sys.stdin.buffer, real_stdout, lambda: _stop_everything(server))
    finally:
        # stdin EOF, exit, or a crash: no job outlives the server.
        _stop_everything(server)
    sys.exit(code)
