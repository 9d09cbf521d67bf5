"""The server object: its state (index, settings, jobs) and the services the feature modules use
(messages, publishing diagnostics, refreshing lenses, loading settings, adopting changes made on disk).

server.py registers the LSP handlers on one instance of it; commands.py and deliver.py receive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import default_converter
from pygls.uris import to_fs_path

from engine.profile.hotlines import Elsewhere, HotLine
from hiera_ls import deliver, views
from hiera_ls.client import keep_plain_json
from hiera_ls.index import Watcher, WorkspaceIndex, read_disk_state, text_hash
from hiera_ls.jobs import CudaProbe, JobManager
from hiera_ls.modules import ModuleClass, scan_python
from hiera_ls.results import assemble
from hiera_ls.settings import Settings, parse_settings, settings_json

log = logging.getLogger("hiera_ls")

VERSION = "0.1.0"
DIAG_DEBOUNCE_S = 0.3
LENS_REFRESH_MIN_S = 1.0


class HieraServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("hiera-ls", VERSION, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         converter_factory=lambda: keep_plain_json(default_converter()))
        self.index = WorkspaceIndex([])
        self.settings = Settings()
        self.init_options: Any = None
        self.cuda = CudaProbe()
        self.jobs = JobManager(self, on_done=lambda job: deliver.on_job_done(self, job),
                               on_update=lambda job: self.schedule_lens_refresh())
        self.watcher: Watcher | None = None
        self._told_no_cuda = False
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

    def log(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=message))

    def tell_no_cuda_once(self, detail: str) -> None:
        if self._told_no_cuda:
            return
        self._told_no_cuda = True
        self.show(types.MessageType.Warning,
                  f"hiera: no CUDA device ({detail}). Jobs use the CPU path: C++ candidates timed on the CPU, no "
                  "Nsight Compute. For GPU kernels, run where torch.cuda.is_available() is True, or point "
                  "hiera.interpreter at a CUDA build of PyTorch")

    def path_of(self, uri: str) -> Path | None:
        fs = to_fs_path(uri)
        return Path(fs).resolve() if fs else None

    def document_text(self, path: Path) -> str | None:
        """The editor's text of an open document, None when it is not open."""
        if path not in self.index.open_docs:
            return None
        return self.workspace.get_text_document(path.as_uri()).source

    def text_of(self, path: Path) -> str:
        text = self.document_text(path)
        if text is not None:
            return text
        try:
            return path.read_text(errors="replace")
        except OSError:
            return ""

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
        return assemble(self.index.reader(path), run) if run else None

    def result_file(self, path: Path, module: ModuleClass, run_id: str | None) -> str | None:
        """The result file this server created beside the module for that run (the newest one)."""
        state = self.index.state(self.index.root_of(path))
        mine = [(v.get("created", 0), k) for k, v in state.results.items()
                if v.get("module") == str(path) and v.get("class") == module.name and k.endswith(".py")
                and v.get("run_id") == run_id and Path(k).exists()]
        return Path(max(mine)[1]).name if mine else None

    # --- diagnostics ---------------------------------------------------------------------------------------

    def diagnostics_for(self, path: Path) -> list[types.Diagnostic]:
        text = self.text_of(path)
        if path.suffix == ".py":
            scan = self.index.scan(path) if path in self.index.open_docs else scan_python(text)
            if scan is None or scan.is_result:
                return []
            lines = text.splitlines()
            out = []
            for m in scan.modules:
                if not m.optimizable:
                    continue
                key = (path, m.name)
                if self.jobs.for_module(path, m.name) is not None and key in self._module_diags:
                    d = self._module_diags[key]
                    if d is not None:  # the class may have moved since: keep the message, move the range
                        d = views.module_diagnostic_at(d, m, lines)
                else:
                    obj = self.module_run(path, m)
                    d = views.module_diagnostic(m, obj, self.result_file(path, m, obj and obj.get("run_id")),
                                                lines[m.class_line] if m.class_line < len(lines) else "",
                                                self.index.root_of(path))
                    self._module_diags[key] = d
                if d:
                    out.append(d)
            return out
        if path.suffix == ".cu":
            hot, away = self.cu_findings(path, text)
            return views.diagnostics_of(hot, text.splitlines()) + views.elsewhere_diagnostics(away, text)
        return []

    def cu_findings(self, path: Path, text: str, found: tuple[dict[str, Any], Any] | None = None
                    ) -> tuple[tuple[HotLine, ...], tuple[Elsewhere, ...]]:
        """What a .cu's profile says about its lines (engine/profile/hotlines.py): the lines worth showing, and
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
        doc_version = None
        if path in self.index.open_docs:
            doc_version = self.workspace.get_text_document(path.as_uri()).version
        diags = self.diagnostics_for(path)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=path.as_uri(), diagnostics=diags, version=doc_version))

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
        self.log(f"hiera: settings {settings_json(self.settings)}")
        if self.settings.device != "cpu":
            self.spawn(self.cuda.check())  # warm the cached answer so the first job does not wait for it

    # --- outside changes --------------------------------------------------------------------------------------

    def on_disk_change(self, paths: set[Path]) -> None:
        self.spawn(self._apply_disk_changes(paths))

    async def _apply_disk_changes(self, paths: set[Path]) -> None:
        store = {p for p in paths if p.name.startswith("hiera.db") or p.name == ".hiera"}
        # a git checkout can touch thousands of files: read them off the event loop
        state = await asyncio.to_thread(read_disk_state, paths - store)
        if self.index.apply_disk_state(state) or store:
            self.refresh_views()
