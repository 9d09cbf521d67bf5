"""hiera-ls with the real engine (expert backend, CPU path): one small optimize job end to end.

The fast tests use tests/fake_engine.py; this one checks that the server and `hiera optimize --events jsonl`
agree on the protocol for real: flags accepted, events understood, result files re-created beside the module.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import ls_fixtures
import pytest
import pytest_lsp
from ls_fixtures import REPO, client_factory, execute, line_of, messages, open_file, start_session, wait_job
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

HAS_OPTIMIZE = (REPO / "engine" / "commands" / "optimize.py").exists()
pytestmark = [pytest.mark.asyncio, pytest.mark.skipif(not HAS_OPTIMIZE, reason="engine optimize not there yet")]
workspace = ls_fixtures.workspace


def real_engine_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("HIERA_ENGINE_CMD", None)
    return env


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "hiera_ls"],
                                              server_env=real_engine_env(), client_factory=client_factory))
async def real(lsp_client: LanguageClient, workspace: Path):
    await start_session(lsp_client, workspace, {"device": "cpu", "rounds": 1, "candidates": 2})
    yield
    await lsp_client.shutdown_session()


async def test_real_engine_optimize_on_the_cpu(real: LanguageClient, workspace: Path):
    task = workspace / "scale_bias_relu.py"
    uri = open_file(real, task)
    answer = await execute(real, "hiera.optimize", uri, "Model")
    final = await wait_job(real, answer["jobId"], timeout=240)
    log = workspace / ".hiera" / "logs" / f"{answer['jobId']}.log"
    assert final["state"] == "finished", f"{final['message']}; {messages(real)}; log: {log.read_text()[-3000:]}"
    res = await real.protocol.send_request_async("hiera/runResults", {"runId": final["runId"]})
    rounds_candidates = [c for c in res["chart"] if not c["candidate_id"].endswith("-retimed")]
    assert res["status"] == "finished" and len(rounds_candidates) == 2 and res["device"].startswith("cpu")
    reports = [p.message for p in real.progress_reports[next(t for t in real.progress_reports
                                                             if answer["jobId"] in str(t))]
               if isinstance(p, types.WorkDoneProgressReport)]
    assert any(r.startswith("round 1/1 · candidate 2/2 · best") for r in reports)
    if res["best"] is None:
        pytest.skip("no valid candidate on this machine (allowed; the protocol path was exercised)")
    best = res["best"]
    assert best["speedup"] == pytest.approx(best["reference_ms"] / best["candidate_ms"])  # one pair
    hover = (await real.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))).contents.value
    assert "```text\nround  space" in hover and "CUDA" not in hover  # a CPU run: its spaces read as C++
    if best["verdict"] == "slower" or best["speedup"] <= 1.0:  # a loaded 2-core machine may lose: nothing written
        assert real.edits == [] and "Nothing was written beside this file" in hover
        return
    # the CPU path's kernel is C++: the server re-creates the engine's files with their own suffix
    [(params, applied)] = real.edits
    created = [c.uri.rsplit("/", 1)[1] for c in params.edit.document_changes if isinstance(c, types.CreateFile)]
    assert applied and created == ["scale_bias_relu_hiera.py", "scale_bias_relu_hiera.cpp"]
    assert "class ModelNew" in (workspace / "scale_bias_relu_hiera.py").read_text()
    assert f"**{best['speedup']:.2f}× " in hover
