"""A small scripted LSP client for hiera-ls (scripts/ls_drive.py, scripts/bench_ls.py, the tests); the server
never imports it.

It behaves like a plain editor: answers `workspace/configuration` from a dict, accepts progress, records
messages, diagnostics and `hiera/jobStatus`, and applies `workspace/applyEdit` to files on disk (creating
files, refusing to overwrite one unless asked). It also fixes an lsprotocol 2025.0.0 bug that turns a
CodeAction carrying a command into a Command on the Python side.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from pathlib import Path
from typing import Any, Union

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.protocol import default_converter
from pygls.uris import to_fs_path

from hiera_ls.plain_json import keep_plain_json


def converter_factory() -> Any:
    conv = keep_plain_json(default_converter())

    # lsprotocol's hook decides "Command" whenever the object has a "command" key, but a CodeAction's
    # "command" is an object while a Command's is a string.
    def hook(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return conv.structure(obj, types.Command)
        return conv.structure(obj, types.CodeAction)

    conv.register_structure_hook(Union[types.Command, types.CodeAction], hook)  # noqa: UP007 - the exact key
    return conv


def _lines_apply(text: str, edits: list[types.TextEdit]) -> str:
    lines = text.splitlines(keepends=True)

    def offset(p: types.Position) -> int:
        return sum(len(x) for x in lines[:p.line]) + p.character

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        s, t = offset(e.range.start), offset(e.range.end)
        text = text[:s] + e.new_text + text[t:]
        lines = text.splitlines(keepends=True)
    return text


def apply_edit_to_disk(edit: types.WorkspaceEdit) -> tuple[bool, str | None]:
    """Apply a WorkspaceEdit to files as a simple editor would; (applied, failure reason)."""
    for change in edit.document_changes or []:
        if isinstance(change, types.CreateFile):
            path = Path(to_fs_path(change.uri) or "")
            opts = change.options or types.CreateFileOptions()
            if path.exists() and not opts.overwrite:
                if opts.ignore_if_exists:
                    continue
                return False, f"{path} exists"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("")
        elif isinstance(change, types.TextDocumentEdit):
            path = Path(to_fs_path(change.text_document.uri) or "")
            text = path.read_text() if path.exists() else ""
            path.write_text(_lines_apply(text, [e for e in change.edits if isinstance(e, types.TextEdit)]))
        else:
            return False, f"unsupported change {type(change).__name__}"
    for uri, edits in (edit.changes or {}).items():
        path = Path(to_fs_path(uri) or "")
        path.write_text(_lines_apply(path.read_text(), list(edits)))
    return True, None


class Recorder:
    """Everything the server sent, with arrival times (seconds since the recorder was made)."""

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.messages: list[tuple[float, types.ShowMessageParams]] = []
        self.logs: list[types.LogMessageParams] = []
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.progress: dict[Any, list[Any]] = {}
        self.job_status: list[dict[str, Any]] = []
        self.edits: list[tuple[types.ApplyWorkspaceEditParams, bool]] = []
        self.lens_refreshes = 0
        self.changed = asyncio.Event()

    def now(self) -> float:
        return time.monotonic() - self.t0

    def poke(self) -> None:
        self.changed.set()

    async def wait_for(self, predicate: Any, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
        return True


def make_client(settings: dict[str, Any] | None = None, apply_edits: bool = True) -> tuple[LanguageClient, Recorder]:
    client = LanguageClient("hiera-script-client", "0.1", converter_factory=converter_factory)
    rec = Recorder()
    config = {"hiera": settings or {}}

    @client.feature(types.WORKSPACE_CONFIGURATION)
    def configuration(params: types.ConfigurationParams) -> list[Any]:
        return [config.get(item.section or "") if item.section else config for item in params.items]

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def progress_create(params: types.WorkDoneProgressCreateParams) -> None:
        rec.progress.setdefault(params.token, [])

    @client.feature(types.PROGRESS)
    def progress(params: types.ProgressParams) -> None:
        rec.progress.setdefault(params.token, []).append((rec.now(), params.value))
        rec.poke()

    @client.feature(types.WINDOW_SHOW_MESSAGE)
    def show_message(params: types.ShowMessageParams) -> None:
        rec.messages.append((rec.now(), params))
        rec.poke()

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def log_message(params: types.LogMessageParams) -> None:
        rec.logs.append(params)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        rec.diagnostics[params.uri] = list(params.diagnostics)
        rec.poke()

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(params: Any) -> None:
        rec.lens_refreshes += 1

    @client.feature("hiera/jobStatus")
    def job_status(params: Any) -> None:
        rec.job_status.append(params if isinstance(params, dict) else vars(params))
        rec.poke()

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        if not apply_edits:
            rec.edits.append((params, False))
            rec.poke()
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason="refused by the test client")
        ok, why = apply_edit_to_disk(params.edit)
        rec.edits.append((params, ok))
        rec.poke()
        return types.ApplyWorkspaceEditResult(applied=ok, failure_reason=why)

    return client, rec


def capabilities() -> types.ClientCapabilities:
    """What a current editor advertises for the features hiera-ls uses."""
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            apply_edit=True, configuration=True, workspace_folders=True,
            workspace_edit=types.WorkspaceEditClientCapabilities(
                document_changes=True,
                resource_operations=[types.ResourceOperationKind.Create, types.ResourceOperationKind.Rename,
                                     types.ResourceOperationKind.Delete]),
            code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True),
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(dynamic_registration=False)),
        window=types.WindowClientCapabilities(work_done_progress=True),
        text_document=types.TextDocumentClientCapabilities(
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True)))


async def _drain(stream: asyncio.StreamReader, sink: Any) -> None:
    # The server logs to stderr; an unread pipe would fill up and stall it.
    while line := await stream.readline():
        if sink is not None:
            sink.write(line.decode(errors="replace"))
            sink.flush()


async def start(workspace: Path, settings: dict[str, Any] | None = None, env: dict[str, str] | None = None,
                apply_edits: bool = True, stderr: Any = sys.stderr) -> tuple[LanguageClient, Recorder]:
    """Start hiera-ls on `workspace` and initialize it; server stderr goes to `stderr` (None: dropped)."""
    client, rec = make_client(settings, apply_edits)
    await client.start_io(sys.executable, "-m", "hiera_ls", env=env, cwd=str(workspace))
    server = getattr(client, "_server", None)
    if server is not None and server.stderr is not None:
        rec.stderr_task = asyncio.create_task(_drain(server.stderr, stderr))  # type: ignore[attr-defined]
    await client.initialize_async(types.InitializeParams(
        capabilities=capabilities(), process_id=None,
        workspace_folders=[types.WorkspaceFolder(uri=workspace.resolve().as_uri(), name=workspace.name)],
        root_uri=workspace.resolve().as_uri()))
    client.initialized(types.InitializedParams())
    return client, rec


async def stop(client: LanguageClient) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.shutdown_async(None), 10)
        client.exit(None)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.stop(), 10)


def open_doc(client: LanguageClient, path: Path, version: int = 1) -> str:
    uri = path.resolve().as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="cuda" if path.suffix == ".cu" else "python", version=version,
        text=path.read_text())))
    return uri
