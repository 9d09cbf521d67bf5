"""The server object: its state (index, settings, jobs, document scans) and the services the feature modules
use (messages, publishing diagnostics, refreshing lenses, loading settings, adopting changes made on disk,
whether a run is still alive).

server.py registers the LSP handlers on one instance of it; commands.py and deliver.py receive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import default_converter
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from contracts.hotlines import Elsewhere, HotLine
from contracts.runstore import engine_alive
from hiera_ls import deliver, run_views, views
from hiera_ls.cuda_probe import CudaProbe
from hiera_ls.doc_scans import DocumentScans
from hiera_ls.documents import HieraProtocol
from hiera_ls.files import read_text_or_none
from hiera_ls.index import Watcher, WorkspaceIndex, text_hash
from hiera_ls.job import Job
from hiera_ls.jobs import JobManager
from hiera_ls.modules import Kernel, ModuleClass, PythonScan
from hiera_ls.plain_json import keep_plain_json
from hiera_ls.results import assemble
from hiera_ls.scanner import SMALL_BYTES, ScanWorker
from hiera_ls.settings import Settings, parse_settings, settings_json
from hiera_ls.wording import is_cpu

log = logging.getLogger("hiera_ls")

VERSION = "0.1.0"
DIAG_DEBOUNCE_S = 0.3
LENS_REFRESH_MIN_S = 1.0


class HieraServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("hiera-ls", VERSION, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         converter_factory=lambda: keep_plain_json(default_converter()), protocol_cls=HieraProtocol)
        self.index = WorkspaceIndex([])
        self.scanner = ScanWorker()
        self.scans = DocumentScans(self.scanner, self.index, self.document_text, self._scanned)
        self.settings = Settings()
        self.init_options: Any = None
        self.cuda = CudaProbe()
        self.jobs = JobManager(self, on_done=lambda job: deliver.on_job_done(self, job),
                               on_update=lambda job: self.schedule_lens_refresh(), on_notice=self.tell_notice)
        self.watcher: Watcher | None = None
        # Set once the first walk of the workspace is merged: the watcher starts before that walk (a file
        # written meanwhile would otherwise be seen by neither), and what it reports waits for the merge, so
        # its fresher read lands after the walk's.
        self.walked = asyncio.Event()
        self._uris: dict[Path, str] = {}  # open documents: path -> the client's URI
        self._told_no_cuda = False
        self._told_notices: set[str] = set()
        self._diag_timers: dict[Path, asyncio.TimerHandle] = {}
        self._lens_timer: asyncio.TimerHandle | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._settings_loaded: asyncio.Event | None = None
        # What the class line last said, kept while the module's own job runs: its run is half-written
        # (results not yet beside the module), and the old message stays true until the new one is.
        self._module_diags: dict[tuple[Path, str], types.Diagnostic | None] = {}

    # --- small services for the feature modules ----------------------------------------------------------

    def show(self, kind: types.MessageType, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))
        self.log(message)

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def tell_job_end(self, job: Job, kind: types.MessageType, message: str) -> None:
        """How a job ended, in one sentence: shown as a message, or only logged for a client that shows it
        itself from `hiera/jobStatus` (initializationOptions `clientShowsJobEnd`: the VS Code extension, whose
        toast carries a Show Results button; two toasts for one event would be one too many)."""
        job.summary = message
        if isinstance(self.init_options, dict) and self.init_options.get("clientShowsJobEnd") is True:
            self.log(message, kind)
        else:
            self.show(kind, message)

    def tell_notice(self, job: Job, message: str) -> None:
        """An engine notice: always in the log; a message only when it tells the user something the job's end
        will not, and once per server, not once per job. So: never a CPU job's "profiling off" (a CPU job has
        no Nsight Compute to run, and the user chose the CPU), never what the re-timing said (the message at the
        job's end names the reported best and why), and any other notice the first time only."""
        self.log(f"HIERA: {job.title.removeprefix('HIERA: ')}: {message}")
        if message.startswith("profiling off") and is_cpu(job.run_device or job.device):
            return
        if job.retimes:  # said while the best was timed again (engine/loop.py _confirm_best)
            return
        key = message.split(":")[0] if message.startswith("profiling") else message
        if key in self._told_notices:
            return
        self._told_notices.add(key)
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=f"HIERA: {message}"))

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls shows every error it catches as an error toast; protocol and handler errors go to the log."""
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)
        with contextlib.suppress(Exception):
            self.log(f"hiera-ls: {type(error).__name__}: {error}", types.MessageType.Error)

    def tell_no_cuda_once(self, detail: str) -> None:
        if self._told_no_cuda:
            return
        self._told_no_cuda = True
        self.show(types.MessageType.Warning,
                  f"HIERA: no CUDA device ({detail}). Jobs use the CPU path: C++ candidates timed on the CPU, no "
                  "Nsight Compute. For GPU kernels, run where torch.cuda.is_available() is True, or point "
                  "hiera.interpreter at a CUDA build of PyTorch")

    def expects_cpu(self) -> bool:
        """Whether a job started now runs on the CPU: hiera.device is cpu, or auto where no CUDA device was seen."""
        return self.settings.device == "cpu" or (self.settings.device == "auto" and self.cuda.known is False)

    def path_of(self, uri: str) -> Path | None:
        """The local path of a file: URI; None for another scheme or one that names no path (a NUL byte)."""
        try:
            fs = to_fs_path(uri)
            return Path(fs).resolve() if fs else None
        except (ValueError, OSError, TypeError):
            return None

    def set_roots(self, roots: list[Path]) -> None:
        self.index = self.scans.index = WorkspaceIndex(roots)

    def opened(self, path: Path, uri: str) -> None:
        self.index.open_docs.add(path)
        self._uris[path] = uri

    def closed(self, path: Path) -> None:
        self.index.open_docs.discard(path)
        self._uris.pop(path, None)
        self.scans.closed(path)

    def uri_of(self, path: Path) -> str:
        """The URI the client uses for a file (its own spelling for an open one; ours resolves symlinks)."""
        return self._uris.get(path) or path.as_uri()

    def _doc(self, path: Path) -> TextDocument | None:
        if path not in self.index.open_docs:
            return None
        return self.workspace.text_documents.get(unquote(self.uri_of(path)))

    def document_text(self, path: Path) -> str | None:
        """The editor's text of an open document, None when it is not open."""
        doc = self._doc(path)
        return doc.source if doc is not None else None

    def text_of(self, path: Path) -> str:
        """An open document's text, else the file's (a regular file of bounded size; "" otherwise)."""
        text = self.document_text(path)
        return text if text is not None else (read_text_or_none(path) or "")

    async def scan_of(self, path: Path) -> PythonScan | None:
        """The module classes of a .py: an open document's from its scans, another file's from the index
        (the disk walk and the watcher keep it), else read and parsed now."""
        if path in self.index.open_docs:
            return await self.scans.scan_of(path)
        scan = self.index.scan(path)
        if scan is None:
            text = await asyncio.to_thread(read_text_or_none, path)
            scan = await self.parse(text) if text else None
        return scan

    async def parse(self, text: str) -> PythonScan:
        return await self.scans.parse(text)

    async def kernels_of(self, path: Path, text: str) -> list[Kernel]:
        return await self.scans.kernels(path, text)

    def _scanned(self, path: Path) -> None:
        self.schedule_publish(path, 0.0)
        self.schedule_lens_refresh()

    def open_paths(self) -> set[Path]:
        return set(self.index.open_docs)

    def save_state(self, root: Path) -> None:
        try:
            self.index.state(root).save()
        except OSError as e:
            log.warning("could not save %s: %s", self.index.state(root).path, e)

    def spawn(self, coro: Any) -> None:
        """Run a coroutine in the background, keeping a reference and logging its failure."""
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._background.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background task failed", exc_info=t.exception())

        task.add_done_callback(done)

    # --- what the store says about a module ------------------------------------------------------------------

    def module_run(self, path: Path, module: ModuleClass) -> dict[str, Any] | None:
        run = self.index.latest_run(path, module)
        return assemble(self.index.reader(path), run, self.run_is_live(run)) if run else None

    def run_is_live(self, run: dict[str, Any]) -> bool:
        """Whether a run the store calls running has an engine: one of this server's jobs runs it, or (a run
        no job of ours knows: started from a terminal or by an earlier server) its recorded pid is a live
        hiera process. A job of ours that ended — with a result or without — ends its run."""
        if run.get("status") != "running":
            return False
        ours = self.jobs.owns_live_run(run["id"])
        return ours if ours is not None else engine_alive(run.get("pid"))

    def result_file(self, path: Path, module: ModuleClass, run_id: str | None) -> str | None:
        """The result file this server created beside the module for that run (the newest one)."""
        state = self.index.state(self.index.root_of(path))
        mine = [(v.get("created", 0), k) for k, v in state.results.items()
                if v.get("module") == str(path) and v.get("class") == module.name and k.endswith(".py")
                and v.get("run_id") == run_id and Path(k).exists()]
        return Path(max(mine)[1]).name if mine else None

    # --- diagnostics ---------------------------------------------------------------------------------------

    async def diagnostics_for(self, path: Path) -> list[types.Diagnostic]:
        if path.suffix == ".py":
            return self._module_diagnostics(path, self.index.scan(path))
        if path.suffix == ".cu":
            text = self.text_of(path)
            hot, away = self.cu_findings(path, text)
            lines = text.splitlines()
            kernels = await self.kernels_of(path, text) if away else []
            return views.diagnostics_of(hot, lines) + views.elsewhere_diagnostics(away, lines, kernels)
        return []

    def _module_diagnostics(self, path: Path, scan: PythonScan | None) -> list[types.Diagnostic]:
        if scan is None or scan.is_result:
            return []
        lines = self.text_of(path).splitlines()
        root = self.index.root_of(path)
        out = []
        for m in scan.modules:
            if not m.optimizable:
                continue
            key = (path, m.name)
            if self.jobs.for_module(path, m.name) is not None and key in self._module_diags:
                d = self._module_diags[key]
                if d is not None:  # the class may have moved since: keep the message, move the range
                    d = run_views.module_diagnostic_at(d, m, lines)
            else:
                obj = self.module_run(path, m)
                d = run_views.module_diagnostic(m, obj, self.result_file(path, m, obj and obj.get("run_id")),
                                                lines[m.class_line] if m.class_line < len(lines) else "", root)
                self._module_diags[key] = d
            if d:
                out.append(d)
        return out

    def cu_findings(self, path: Path, text: str, found: tuple[dict[str, Any], Any] | None = None
                    ) -> tuple[tuple[HotLine, ...], tuple[Elsewhere, ...]]:
        """What a .cu's profile says about its lines (contracts/hotlines.py): the lines worth showing, and
        the kernels whose samples sit on other files' lines (inlined headers such as mma.hpp). The diagnostics,
        the kernel hover and the Profile kernel message all use this one selection. `found`: the file's
        profile when the caller has looked it up already (index.profile_for_cu reads the run store)."""
        line_profile = self._line_profile(path, text, found)
        if line_profile is None:
            return (), ()
        profile, names = line_profile
        return views.cu_hot_lines(profile, names, len(text.splitlines())), views.cu_elsewhere(profile, names)

    def _line_profile(self, path: Path, text: str, found: tuple[dict[str, Any], Any] | None = None
                      ) -> tuple[dict[str, Any], set[str]] | None:
        """The profile whose per-line data belongs to this text, and the names it may call the file by."""
        found = found or self.index.profile_for_cu(path)
        if found is None:
            return None
        profile, origin = found
        # Per-line data is only true of the text it was measured on: an edited file gets none.
        if text_hash(text) not in self.index.known_text(path, origin):
            return None
        names = {path.name, "cuda_source.cu"}
        if origin and origin.source_path:
            names.add(Path(origin.source_path).name)
        return profile, names

    async def publish_for(self, path: Path) -> None:
        doc = self._doc(path)
        doc_version = doc.version if doc is not None else None
        diags = await self.diagnostics_for(path)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=self.uri_of(path), diagnostics=diags, version=doc_version))

    def schedule_publish(self, path: Path, delay: float = DIAG_DEBOUNCE_S) -> None:
        old = self._diag_timers.pop(path, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._diag_timers[path] = loop.call_later(delay, lambda: self.spawn(self._publish_timer(path)))

    async def _publish_timer(self, path: Path) -> None:
        self._diag_timers.pop(path, None)
        await self.publish_for(path)

    def schedule_lens_refresh(self) -> None:
        """Ask the client to re-request code lenses, at most once a second (progress events come faster)."""
        caps = self.client_capabilities.workspace
        if not (caps and caps.code_lens and caps.code_lens.refresh_support) or self._lens_timer is not None:
            return

        def fire() -> None:
            self._lens_timer = None
            self.workspace_code_lens_refresh(None)

        self._lens_timer = asyncio.get_running_loop().call_later(LENS_REFRESH_MIN_S, fire)

    def refresh_views(self, changed: Path | None = None) -> None:
        """After a job or a store change: republish diagnostics of open documents and refresh lenses."""
        paths = set(self.index.open_docs)
        if changed is not None:
            paths.add(changed)
        for p in paths:
            self.schedule_publish(p, 0.0)
        self.schedule_lens_refresh()

    # --- settings ------------------------------------------------------------------------------------------

    def _loaded(self) -> asyncio.Event:
        if self._settings_loaded is None:
            self._settings_loaded = asyncio.Event()
        return self._settings_loaded

    async def settings_ready(self) -> Settings:
        """The settings, once the first pull after `initialized` is done (a command may arrive before)."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._loaded().wait(), timeout=15)
        return self.settings

    async def load_settings(self, pushed: Any = None) -> None:
        raw: Any = None
        caps = self.client_capabilities.workspace
        if caps and caps.configuration:
            try:
                items = await asyncio.wait_for(self.workspace_configuration_async(types.ConfigurationParams(
                    items=[types.ConfigurationItem(section="hiera")])), timeout=10)
                raw = items[0] if items else None
            except Exception as e:
                log.warning("workspace/configuration failed: %s", e)
        if raw is None:
            raw = pushed if pushed is not None else self.init_options
        self.settings, errors = parse_settings(raw)
        self._loaded().set()
        for e in errors:
            self.show(types.MessageType.Warning, e)
        self.log(f"HIERA: settings {settings_json(self.settings)}")
        if self.settings.device != "cpu":
            self.spawn(self.cuda.check())  # warm the cached answer so the first job does not wait for it

    # --- outside changes --------------------------------------------------------------------------------------

    def on_disk_change(self, paths: set[Path]) -> None:
        self.spawn(self._apply_disk_changes(paths))

    async def _apply_disk_changes(self, paths: set[Path]) -> None:
        await self.walked.wait()
        store = {p for p in paths if p.name.startswith("hiera.db") or p.name == ".hiera"}
        rest = sorted(paths - store)
        # a git checkout can touch thousands of files: parsed by the scan worker, off the loop and the GIL
        state = await self.scanner.run("read_disk_state", rest, size=SMALL_BYTES)
        if self.index.apply_disk_state(state) or store:
            self.refresh_views()
