"""hiera-ls against a client that breaks the rules: raw frames (wrong or missing Content-Length, absurd sizes,
garbage), malformed requests, the lifecycle out of order, and hostile files (a device, a FIFO, 20000
kernels, a 5 MB module being typed in). Every request must get its answer, no input may crash, freeze or
deafen the server, and protocol errors go to the log, not to the user's screen."""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from pathlib import Path

import ls_fixtures
import pytest
from ls_fixtures import RawClient, big_module, make_workspace, open_file, rss_mb
from lsprotocol import types
from pytest_lsp import LanguageClient

client, workspace = ls_fixtures.client, ls_fixtures.workspace  # the pytest-lsp fixtures, found by name


@pytest.fixture
def raw(tmp_path: Path):
    c = RawClient(make_workspace(tmp_path / "ws"))
    yield c
    c.close()


def _error(answer: dict) -> dict:
    assert "error" in answer, f"expected an error response, got {answer}"
    return answer["error"]


def _logs(r: RawClient) -> list[str]:
    return [m["params"]["message"] for m in r.notifications("window/logMessage")]


def test_every_request_gets_an_answer_and_protocol_errors_are_logged_not_shown(raw: RawClient):
    r = raw
    r.initialize()
    uri = (r.ws / "scale_bias_relu.py").as_uri()
    # A request without "params" (the README documents hiera/modules as taking none).
    assert "modules" in r.call("hiera/modules", omit_params=True)["result"]
    # Invalid params: -32602, saying what is wrong.
    err = _error(r.call("textDocument/hover", {"textDocument": {"uri": uri}}))
    assert err["code"] == -32602 and "position" in err["message"]
    err = _error(r.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}}))
    assert err["code"] == -32602 and "line" in err["message"]
    err = _error(r.call("workspace/executeCommand", {"command": "hiera.optimize", "arguments": [42, "Model"]}))
    assert err["code"] == -32602 and "file URI" in err["message"]
    assert _error(r.call("workspace/executeCommand", {"command": "hiera.nope", "arguments": []}))["code"] == -32602
    # Malformed requests: -32600 (an id that is an object cannot be echoed: the answer's id is null).
    r.send({"jsonrpc": "2.0", "id": {"an": "object"}, "method": "hiera/modules", "params": {}})
    err = _error(r.wait(lambda m: m.get("id", 0) is None and "not a number or a string" in str(m), what="-32600"))
    assert err["code"] == -32600
    r.send({"id": 501, "method": "hiera/modules", "params": {}})  # no "jsonrpc": "2.0"
    assert _error(r.response(501))["code"] == -32600
    r.send([{"jsonrpc": "2.0", "id": 502, "method": "hiera/modules"}])  # a batch, which LSP does not have
    assert _error(r.wait(lambda m: m.get("id", 0) is None and "batch" in str(m), what="batch error"))["code"] == -32600
    assert _error(r.call("no/suchMethod", {}))["code"] == -32601
    # A change to a document that was never opened: ignored and logged, no KeyError, no toast.
    r.notify("textDocument/didChange", {"textDocument": {"uri": (r.ws / "never.py").as_uri(), "version": 2},
                                        "contentChanges": [{"text": "x = 1\n"}]})
    assert "result" in r.call("hiera/modules", {})  # still answering
    assert r.notifications("window/showMessage") == []
    logs = _logs(r)
    assert any("never.py" in m and "not open" in m for m in logs)
    assert any("invalid params" in m for m in logs) and any("batch" in m for m in logs)


def test_the_framing_recovers_from_wrong_lengths_missing_headers_absurd_sizes_and_garbage(raw: RawClient):
    r = raw
    r.initialize()

    def req(msg_id: int) -> dict:
        return {"jsonrpc": "2.0", "id": msg_id, "method": "hiera/modules", "params": {}}

    body = len(json.dumps(req(10)).encode())
    r.send(req(10), length=body - 7)  # too short: the JSON runs past its declared end
    r.send(req(11))
    r.send(req(12), length=body + 40)  # too long, followed by another message
    r.send(req(13))
    for msg_id in (10, 11, 12, 13):
        assert "result" in r.response(msg_id)
    r.send(req(14), length=body + 40)  # too long, and nothing follows: settled when the stream goes quiet
    assert "result" in r.response(14, timeout=5)
    r.send(req(15), header=b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n")  # no length
    assert "result" in r.response(15, timeout=5)
    r.raw(b"Content-Length: 1000000000000\r\n\r\n" + json.dumps(req(16)).encode())  # absurd: refused, answered
    err = _error(r.response(16, timeout=5))
    assert err["code"] == -32600 and "limit" in err["message"]
    r.raw(b"this is not a header at all\r\n\r\n")
    r.raw(b"Content-Length: 5\r\n\r\n{{{{{")  # not JSON
    r.send(req(17))
    assert "result" in r.response(17)
    assert r.proc.poll() is None and rss_mb(r.proc.pid) < 400  # alive, and it allocated nothing absurd
    logs = " | ".join(_logs(r))
    for problem in ("but the body was", "without Content-Length", "over the 64 MiB limit", "not a message",
                    "not JSON"):
        assert problem in logs
    assert r.notifications("window/showMessage") == []


def test_the_lifecycle_as_the_spec_says(tmp_path: Path):
    ws = make_workspace(tmp_path / "ws")
    r = RawClient(ws)
    try:
        assert _error(r.call("hiera/modules", {}))["code"] == -32002  # before initialize
        r.initialize()
        assert r.call("shutdown")["result"] is None
        err = _error(r.call("hiera/modules", {}))
        assert err["code"] == -32600 and "shut down" in err["message"]  # after shutdown: InvalidRequest
        r.notify("exit")
        assert r.exit_code() == 0
    finally:
        r.close()
    for how in ("exit", "eof"):  # without shutdown: exit code 1
        r = RawClient(ws)
        try:
            r.initialize()
            if how == "exit":
                r.notify("exit")
            else:
                assert r.proc.stdin is not None
                r.proc.stdin.close()
            assert r.exit_code() == 1, how
        finally:
            r.close()


def test_hostile_files_are_refused_at_once_and_do_not_stall_the_server(tmp_path: Path):
    ws = make_workspace(tmp_path / "ws")
    os.mkfifo(ws / "pipe_model.py")  # open() on it would block until a writer came
    many = ws / "many.cu"
    many.write_text("".join(f"__global__ void k{i}(float* x) {{ x[threadIdx.x] = {i}.0f; }}\n" for i in range(20000)))
    outside = tmp_path / "elsewhere" / "model.py"
    outside.parent.mkdir()
    outside.write_text((ws / "scale_bias_relu.py").read_text())
    r = RawClient(ws)
    try:
        r.initialize()
        # the disk walk got past the FIFO: the real modules are indexed
        deadline = time.monotonic() + 15
        while not r.call("hiera/modules", {})["result"]["modules"]:
            assert time.monotonic() < deadline, "the workspace walk never finished"
            time.sleep(0.1)

        def optimize(uri: str) -> str:
            t0 = time.monotonic()
            answer = r.call("workspace/executeCommand", {"command": "hiera.optimize", "arguments": [uri, "Model"]})
            assert time.monotonic() - t0 < 5, f"{uri} took {time.monotonic() - t0:.1f} s to refuse"
            return answer["result"]["error"]

        assert "not a regular file" in optimize("file:///dev/zero")
        assert "not a regular file" in optimize((ws / "pipe_model.py").as_uri())
        # outside the workspace folders, with a client that cannot ask the user: refused, saying why
        assert "outside the workspace folders" in optimize(outside.as_uri())
        assert r.call("textDocument/hover", {"textDocument": {"uri": (ws / "pipe_model.py").as_uri()},
                                             "position": {"line": 0, "character": 0}})["result"] is None
        # a .cu with 20000 kernels: its scan is linear, the hover on the last one answers at once
        r.notify("textDocument/didOpen", {"textDocument": {"uri": many.as_uri(), "languageId": "cuda", "version": 1,
                                                           "text": many.read_text()}})
        t0 = time.monotonic()
        hover = r.call("textDocument/hover", {"textDocument": {"uri": many.as_uri()},
                                              "position": {"line": 19999, "character": 20}})["result"]
        assert time.monotonic() - t0 < 5 and "`k19999`" in hover["contents"]["value"]
        assert rss_mb(r.proc.pid) < 400
    finally:
        r.close()


@pytest.mark.asyncio
async def test_a_file_outside_the_workspace_runs_only_when_the_user_confirms(client: LanguageClient,
                                                                            workspace: Path, tmp_path: Path):
    outside = tmp_path / "elsewhere" / "model.py"
    outside.parent.mkdir()
    outside.write_text((workspace / "scale_bias_relu.py").read_text())
    client.message_request_answer = None  # type: ignore[attr-defined]  # the user dismissed the question
    args = [outside.as_uri(), "Model"]
    refused = await client.workspace_execute_command_async(types.ExecuteCommandParams("hiera.optimize", args))
    assert "outside the workspace folders" in refused["error"]
    [asked] = client.message_requests  # type: ignore[attr-defined]
    assert str(outside) in asked.message and [a.title for a in asked.actions] == ["Optimize anyway", "Cancel"]
    client.message_request_answer = "Optimize anyway"  # type: ignore[attr-defined]
    started = await client.workspace_execute_command_async(types.ExecuteCommandParams("hiera.optimize", args))
    assert started.get("jobId") and "error" not in started


@pytest.mark.asyncio
async def test_typing_in_a_5_mb_module_keeps_hovers_fast(client: LanguageClient, workspace: Path):
    text = big_module()
    big = workspace / "big_model.py"
    big.write_text(text)
    uri = open_file(client, big, text)
    class_line = text.splitlines().index("class FusedBlock(nn.Module):")
    end = len(text.splitlines())
    hover_at = types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(class_line, 8))
    latencies = []
    for i in range(20):  # typing at the end of the file, a hover now and then
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2 + i),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(end + i, 0), types.Position(end + i, 0)), text=f"# typed {i}\n")]))
        t0 = time.monotonic()
        await client.text_document_hover_async(hover_at)
        latencies.append(time.monotonic() - t0)
        await asyncio.sleep(0.05)
    assert statistics.median(latencies) < 0.25 and max(latencies) < 1.5, latencies
    # the typing goes on below the class: the first scan (in the scan worker) was of a text edited since, and
    # still finds the class above the first edit, without waiting for the typing to pause
    hover = None
    deadline = time.monotonic() + 60
    i = 20
    while hover is None:
        assert time.monotonic() < deadline, "the class of the 5 MB module never showed while typing went on"
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2 + i),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(end + i, 0), types.Position(end + i, 0)), text=f"# typed {i}\n")]))
        i += 1
        hover = await client.text_document_hover_async(hover_at)
        await asyncio.sleep(0.1)  # under DEBOUNCE_S: no pause in the typing for a scan to start on
    assert "HIERA · `FusedBlock`" in hover.contents.value
