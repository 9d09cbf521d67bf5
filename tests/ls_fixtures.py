"""Shared pieces of the language-server tests: a workspace, a pytest-lsp client that fills pytest-lsp's gaps,
and small waiting helpers.

pytest-lsp's default client cannot answer `workspace/applyEdit` (the server's result edit) and, through an
lsprotocol bug, reads a CodeAction carrying a command as a Command; `client_factory` fixes both, applies
edits to disk as an editor would, and records `hiera/jobStatus` and code-lens refreshes.
"""

from __future__ import annotations

import asyncio
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

from hiera_ls.client import apply_edit_to_disk, converter_factory

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
