"""Shared pieces of the language-server tests: a workspace, a pytest-lsp client that fills pytest-lsp's gaps,
and small waiting helpers.

pytest-lsp's default client cannot answer `workspace/applyEdit` (the server's result edit) and, through an
lsprotocol bug, reads a CodeAction carrying a command as a Command; `client_factory` fixes both, applies
edits to disk as an editor would, and records `hiera/jobStatus` and code-lens refreshes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import register_lsp_features

from tools.scripted_client import apply_edit_to_disk, converter_factory

REPO = Path(__file__).resolve().parent.parent
FAKE_ENGINE = [sys.executable, str(REPO / "tests" / "fake_engine.py")]
SETTINGS = {"device": "cpu", "rounds": 2, "candidates": 3}

BLOCKS = '''"""Two modules of a model: one with inputs for hiera, one without."""
import torch
from torch import nn


def make_inputs():
    return [torch.randn(64, 128)]


def make_init():
    return [128]


# hiera: inputs=make_inputs init=make_init
class FusedBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return torch.relu(x * self.scale)


class Head(nn.Module):
    def forward(self, x):
        return x.sum(-1)
'''


def big_module() -> str:
    """BLOCKS, then ~1 MB of code (seconds of ast.parse on a loaded 2-core machine), in ~5 MB of text."""
    code = "".join(f"W{i} = [{i}, {i + 1}, 'a constant', {{'k': {i}}}]\n" for i in range(24000))
    filler = "".join(f"# line {i} of a long generated module, kept here to make the file large\n" for i in range(52000))
    text = BLOCKS + code + filler
    assert len(text) > 5_000_000
    return text


def server_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, HIERA_ENGINE_CMD=json.dumps(FAKE_ENGINE), PYTHONPATH=str(REPO), **extra)
    env.pop("HIERA_WORKSPACE", None)
    return env


def make_workspace(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "tests" / "data" / "tasks" / "scale_bias_relu.py", root / "scale_bias_relu.py")
    (root / "blocks.py").write_text(BLOCKS)
    (root / "notes.txt").write_text("not code")
    return root


def set_fake(ws: Path, **knobs: Any) -> None:
    """Steer the fake engine for the next jobs (delay per candidate, mode, notice)."""
    (ws / "fake_engine.json").write_text(json.dumps(knobs))


def client_factory() -> LanguageClient:
    client = LanguageClient(converter_factory=converter_factory)
    register_lsp_features(client)
    client.edits = []  # type: ignore[attr-defined]
    client.job_status = []  # type: ignore[attr-defined]
    client.lens_refreshes = 0  # type: ignore[attr-defined]
    client.refuse_edits = False  # type: ignore[attr-defined]

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        if client.refuse_edits:  # type: ignore[attr-defined]
            client.edits.append((params, False))  # type: ignore[attr-defined]
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason="the user said no")
        ok, why = apply_edit_to_disk(params.edit)
        client.edits.append((params, ok))  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=ok, failure_reason=why)

    @client.feature("hiera/jobStatus")
    def job_status(params: Any) -> None:
        client.job_status.append(params)  # type: ignore[attr-defined]

    client.message_requests = []  # type: ignore[attr-defined]
    client.message_request_answer = None  # type: ignore[attr-defined]  # the title the "user" clicks

    @client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def message_request(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        client.message_requests.append(params)  # type: ignore[attr-defined]
        answer = client.message_request_answer  # type: ignore[attr-defined]
        return types.MessageActionItem(answer) if answer else None

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def lens_refresh(params: Any) -> None:
        client.lens_refreshes += 1  # type: ignore[attr-defined]

    return client


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws")


async def start_session(client: LanguageClient, ws: Path, settings: dict[str, Any] | None = None) -> None:
    client.set_configuration(dict(SETTINGS if settings is None else settings), section="hiera")
    client.init_result = await client.initialize_session(types.InitializeParams(  # type: ignore[attr-defined]
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=ws.as_uri(), name="ws")], root_uri=ws.as_uri()))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "hiera_ls"],
                                              server_env=server_env(), client_factory=client_factory))
async def client(lsp_client: LanguageClient, workspace: Path):
    await start_session(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


# A workspace whose jobs run "on a GPU": the server's CUDA probe answers yes, the fake engine plays the GPU run.
GPU_SETTINGS = {**SETTINGS, "device": "auto"}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "hiera_ls"],
                                              server_env=server_env(HIERA_LS_ASSUME_CUDA="1"),
                                              client_factory=client_factory))
async def gpu_client(lsp_client: LanguageClient, workspace: Path):
    set_fake(workspace, device="cuda:0 (NVIDIA H200)")
    await start_session(lsp_client, workspace, GPU_SETTINGS)
    yield
    await lsp_client.shutdown_session()


# --- helpers ---------------------------------------------------------------------------------------------


async def wait_until(predicate: Any, timeout: float = 20.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.05)


def open_file(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="cuda" if path.suffix == ".cu" else "python", version=1,
        text=path.read_text() if text is None else text)))
    return uri


async def actions_at(client: LanguageClient, uri: str, line: int) -> list[types.CodeAction]:
    pos = types.Position(line, 4)
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=types.Range(pos, pos),
        context=types.CodeActionContext(diagnostics=[])))
    return list(got or [])


async def execute(client: LanguageClient, command: str, *args: Any) -> Any:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command,
                                                                                   arguments=list(args)))


def final_status(client: LanguageClient, job_id: str) -> dict[str, Any] | None:
    for st in reversed(client.job_status):  # type: ignore[attr-defined]
        if st["jobId"] == job_id and st["state"] in ("finished", "failed", "cancelled"):
            return st
    return None


async def wait_job(client: LanguageClient, job_id: str, timeout: float = 30.0) -> dict[str, Any]:
    return await wait_until(lambda: final_status(client, job_id), timeout, f"job {job_id} to end")


def progress_of(client: LanguageClient, job_id: str) -> list[Any]:
    for token, values in client.progress_reports.items():
        if job_id in str(token):
            return values
    return []


def messages(client: LanguageClient) -> list[str]:
    return [m.message for m in client.messages]


def line_of(path: Path, needle: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines()) if needle in text)


# --- a raw-framing client ----------------------------------------------------------------------------------


class RawClient:
    """hiera-ls spoken to byte by byte: frames are written exactly as a test gives them (wrong lengths,
    missing headers, garbage), and the server's output is read by this class's own strict parser, not by
    hiera_ls.framing, so the reader under test is not graded by itself."""

    def __init__(self, ws: Path, init_options: dict[str, Any] | None = None, **env: str) -> None:
        import subprocess
        import threading

        self.ws = ws
        self.init_options = init_options if init_options is not None else {"hiera": SETTINGS}
        self.proc = subprocess.Popen([sys.executable, "-m", "hiera_ls"], cwd=ws, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=server_env(HIERA_LS_NO_WATCH="1", **env))
        self.received: list[dict[str, Any]] = []
        self.stderr: list[str] = []
        self._cond = threading.Condition()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    # --- writing -----------------------------------------------------------------------------------------

    def raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    @staticmethod
    def frame(obj: Any, length: int | None = None, header: bytes | None = None) -> bytes:
        body = json.dumps(obj).encode()
        head = header if header is not None else f"Content-Length: {len(body) if length is None else length}\r\n\r\n"
        return (head.encode() if isinstance(head, str) else head) + body

    def send(self, obj: Any, **kw: Any) -> None:
        self.raw(self.frame(obj, **kw))

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def request(self, method: str, params: Any = None, *, omit_params: bool = False, **kw: Any) -> int:
        msg_id = self.new_id()
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if not omit_params:
            msg["params"] = params
        self.send(msg, **kw)
        return msg_id

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    # --- reading -----------------------------------------------------------------------------------------

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while (line := out.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not line or length is None:
                return
            msg = json.loads(out.read(length))
            with self._cond:
                self.received.append(msg)
                self._cond.notify_all()
            if "method" in msg and "id" in msg:  # a server request: answer as a plain client would
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def wait(self, predicate: Any, timeout: float = 15.0, what: str = "a message") -> Any:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = next((m for m in self.received if predicate(m)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}; stderr:\n{''.join(self.stderr[-30:])}")
                self._cond.wait(left)

    def response(self, msg_id: Any, timeout: float = 15.0) -> dict[str, Any]:
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m and ("result" in m or "error" in m),
                         timeout, f"the response to {msg_id!r}")

    def call(self, method: str, params: Any = None, timeout: float = 15.0, **kw: Any) -> dict[str, Any]:
        return self.response(self.request(method, params, **kw), timeout)

    def notifications(self, method: str) -> list[dict[str, Any]]:
        with self._cond:
            return [m for m in self.received if m.get("method") == method and "id" not in m]

    # --- the session ---------------------------------------------------------------------------------------

    def initialize(self, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = self.call("initialize", {"processId": None, "rootUri": self.ws.as_uri(),
                                          "capabilities": capabilities or {},
                                          "initializationOptions": self.init_options,
                                          "workspaceFolders": [{"uri": self.ws.as_uri(), "name": "ws"}]})
        self.notify("initialized", {})
        return answer

    def exit_code(self, timeout: float = 10.0) -> int:
        return self.proc.wait(timeout)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(Exception):
                f.close()


def rss_mb(pid: int) -> float:
    """The resident memory of a process in MB (Linux /proc)."""
    with open(f"/proc/{pid}/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb / 1024
