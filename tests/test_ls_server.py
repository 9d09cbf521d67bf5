"""hiera-ls end to end through pytest-lsp, with tests/fake_engine.py standing in for the engine (CPU, fast)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import ls_fixtures
import pytest
from ls_fixtures import (
    FAKE_ENGINE,
    actions_at,
    execute,
    line_of,
    messages,
    open_file,
    progress_of,
    set_fake,
    wait_job,
    wait_until,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio
client, workspace = ls_fixtures.client, ls_fixtures.workspace  # the fixtures, found by pytest by name


async def reconfigure(client: LanguageClient, settings: dict) -> None:
    """Change the client's settings the way VS Code does (an empty didChangeConfiguration) and wait for them."""
    client.set_configuration(settings, section="hiera")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))

    async def adopted() -> bool:
        got = (await client.protocol.send_request_async("hiera/modules", {}))["settings"]
        return all(got.get(k) == v for k, v in settings.items())

    deadline = time.monotonic() + 10
    while not await adopted():
        assert time.monotonic() < deadline, "settings not adopted"
        await asyncio.sleep(0.05)


def run_row(ws: Path, run_id: str) -> dict:
    with sqlite3.connect(ws / ".hiera" / "hiera.db") as c:
        c.row_factory = sqlite3.Row
        return dict(c.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone())


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); it is dead for our purposes
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


async def test_server_advertises_the_protocol_commands(client: LanguageClient):
    caps = client.init_result.capabilities
    assert caps.execute_command_provider is not None
    assert {"hiera.optimize", "hiera.profile", "hiera.profileKernel", "hiera.cancel",
            "hiera.showResults"} <= set(caps.execute_command_provider.commands)
    assert caps.hover_provider and caps.code_lens_provider and caps.code_action_provider


async def test_code_actions_anywhere_in_an_optimizable_class_and_not_outside(client: LanguageClient,
                                                                            workspace: Path):
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    inside = await actions_at(client, uri, line_of(task, "return torch.relu"))
    titles = [a.title for a in inside]
    # hiera.device is "cpu" in these tests: the fixed spaces read as what they hold on the CPU
    assert titles == ["Optimize with HIERA", "Optimize with HIERA in a fixed space: native C++",
                      "Optimize with HIERA in a fixed space: C++ libraries",
                      "Optimize with HIERA in a fixed space: libraries + PyTorch", "Profile with Nsight Compute"]
    # Each is a CodeAction carrying a Command (no edit): the work is a job, started on execution.
    assert all(isinstance(a, types.CodeAction) and a.edit is None and a.command for a in inside)
    assert inside[0].command.command == "hiera.optimize" and list(inside[0].command.arguments) == [uri, "Model"]
    assert list(inside[1].command.arguments) == [uri, "Model", {"space": "pure_cuda"}]
    assert await actions_at(client, uri, line_of(task, "def get_inputs")) == []

    blocks = workspace / "blocks.py"
    buri = open_file(client, blocks)
    body = await actions_at(client, buri, line_of(blocks, "self.scale = nn.Parameter"))
    assert list(body[0].command.arguments) == [buri, "FusedBlock"]
    # A module without inputs: offered on its class line only (running it says what to add)
    head_actions = await actions_at(client, buri, line_of(blocks, "class Head"))
    assert head_actions[0].title == "Optimize with HIERA"
    assert await actions_at(client, buri, line_of(blocks, "return x.sum")) == []


async def test_optimize_job_end_to_end(client: LanguageClient, workspace: Path):
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    t0 = time.monotonic()
    answer = await execute(client, "hiera.optimize", uri, "Model")
    assert time.monotonic() - t0 < 2.0, "the command must return at once, not when the job ends"
    job_id = answer["jobId"]
    final = await wait_job(client, job_id)
    assert final["state"] == "finished" and final["runId"]
    # the one figure: the re-timed pair (340 µs vs 475 µs eager), not the first pair's 1.50x
    assert final["bestSpeedup"] == pytest.approx(0.475 / 0.34) and final["verdict"] == "faster"
    assert (final["bestMs"], final["referenceMs"], final["retimed"], final["delivered"]) == (
        pytest.approx(0.34), pytest.approx(0.475), True, True)

    # progress: begin (cancellable) -> reports "round r/R · candidate i/K · best x" -> end
    prog = progress_of(client, job_id)
    assert isinstance(prog[0], types.WorkDoneProgressBegin) and prog[0].cancellable
    reports = [p.message for p in prog if isinstance(p, types.WorkDoneProgressReport)]
    assert "round 2/2 · candidate 3/3 · best 1.50×" in reports  # the best so far, by first pairs
    assert any(r.startswith("round 1/2 · candidate 1/3 · best") for r in reports)
    assert isinstance(prog[-1], types.WorkDoneProgressEnd) and prog[-1].message == "done: 1.40× faster than eager"
    states = [s["state"] for s in client.job_status if s["jobId"] == job_id]
    assert states[0] in ("queued", "running") and states[-1] == "finished"

    # the result arrives as one workspace edit creating both files beside the module
    [(params, applied)] = client.edits
    kinds = [type(c).__name__ for c in params.edit.document_changes]
    assert applied and kinds == ["CreateFile", "TextDocumentEdit", "CreateFile", "TextDocumentEdit"]
    assert all(c.options.overwrite is False and c.options.ignore_if_exists is False
               for c in params.edit.document_changes if isinstance(c, types.CreateFile))
    py, cu = workspace / "scale_bias_relu_hiera.py", workspace / "scale_bias_relu_hiera.cu"
    assert "class ModelNew" in py.read_text() and "__global__" in cu.read_text()
    assert ("hiera: Model is 1.40× faster than eager (340 µs vs 475 µs eager, re-timed): created "
            "scale_bias_relu_hiera.py and scale_bias_relu_hiera.cu beside scale_bias_relu.py") in messages(client)

    # diagnostics: the class line says a faster kernel exists
    diag = await wait_until(lambda: client.diagnostics.get(uri), what="module diagnostic")
    assert diag[0].severity == types.DiagnosticSeverity.Information and diag[0].source == "hiera"
    assert diag[0].range.start.line == line_of(task, "class Model")
    assert diag[0].message == "hiera found a 1.40× faster kernel: scale_bias_relu_hiera.py"

    # hover on the class: speedup, counts, the round trajectory, tokens
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))
    text = hover.contents.value
    assert "**1.40× faster than eager** · 340 µs vs 475 µs eager, re-timed" in text
    assert "first timing 1.50× (333.3 µs vs 500 µs)" in text
    assert "4 valid · 2 invalid (incorrect 2) · no model calls" in text
    assert "Result: `scale_bias_relu_hiera.py` beside this file" in text
    # the round table as aligned text (a CPU run: its spaces are C++, not CUDA)
    table = text.split("```text\n")[1].split("\n```")[0].splitlines()
    assert [row.split() for row in table] == [
        ["round", "space", "direction", "valid", "best"], ["1", "native", "C++", "M", "(0.80)", "2/3", "1.30×"],
        ["2", "C++", "libraries", "M", "(0.80)", "2/3", "1.40×", "re-timed"]]
    assert len({row.index("valid") if "valid" in row else row.index("2/3") for row in table}) == 1  # aligned

    # code lens: the action, and after the run the speedup with the last direction
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert [lens.command.title for lens in lenses] == ["Optimize with HIERA", "1.40× faster · memory-bound (M)"]
    assert list(lenses[1].command.arguments) == [final["runId"]]

    # hiera/runResults, by run and by module file
    res = await client.protocol.send_request_async("hiera/runResults", {"runId": final["runId"]})
    assert res["best"]["speedup"] == pytest.approx(0.475 / 0.34) and len(res["chart"]) == 6  # no extra points
    assert set(res["compile_ms"]) == {"default", "max-autotune"} and res["rounds"][1]["direction"] == "M"
    assert res["delivered"] == {"py": str(py), "cu": str(cu)}  # the user's files, not the engine's copies
    by_uri = await client.protocol.send_request_async("hiera/runResults", {"uri": uri})
    assert by_uri["run_id"] == final["runId"]
    assert await client.protocol.send_request_async("hiera/runResults", {"runId": "nope"}) is None
    shown = await execute(client, "hiera.showResults", final["runId"])
    assert shown["run_id"] == final["runId"] and shown["chart"] == res["chart"]

    # the .cu result: per-line diagnostics from the run's profile, a kernel hover, Profile kernel
    cu_uri = open_file(client, cu)
    # only the lines that matter: the 1% line 9 and the header's line are left out
    cu_diags = await wait_until(lambda: client.diagnostics.get(cu_uri), what=".cu diagnostics")
    by_line = {d.range.start.line: d for d in cu_diags}
    assert sorted((n, d.severity) for n, d in by_line.items()) == [
        (5, types.DiagnosticSeverity.Information), (6, types.DiagnosticSeverity.Warning),
        (7, types.DiagnosticSeverity.Information)]
    assert by_line[6].message == (
        "ncu: 60% of the kernel's stall samples, mostly waiting on global/local memory (L1TEX) [long_scoreboard]; "
        "20,480 excess global sectors (50% of the kernel's): uncoalesced access → M (memory transactions)")
    assert by_line[7].message == ("ncu: 15% of the kernel's stall samples, mostly L1 queue full: too many "
                                  "global/local memory instructions [lg_throttle] → M (memory transactions)")
    assert by_line[5].message.startswith("ncu: 6% of the kernel's stall samples, mostly waiting on shared memory")
    khover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(cu_uri), types.Position(line_of(cu, "__global__"), 20)))
    assert "Nsight Compute · `scale_bias_relu_kernel`" in khover.contents.value
    # the hover lists the same lines as the diagnostics, the warning in bold
    hot = khover.contents.value.split("**hot lines**")[1].split("\n\n")[1].splitlines()
    assert [h.split(":")[0] for h in hot] == ["- **line 7**", "- line 8", "- line 6"]
    assert "**12.5 µs** · bottleneck: UncoalescedGlobalAccess → M (est. 38%)" in khover.contents.value
    assert "| global access | 8.0 sectors/request (ld), 4.0 (st) · 50% excess sectors |" in khover.contents.value
    assert [a.title for a in await actions_at(client, cu_uri, 3)] == ["Profile kernel"]

    # editing the .cu invalidates its per-line data: diagnostics are cleared
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=cu_uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="// edited\n")]))
    await wait_until(lambda: len(client.diagnostics[cu_uri]) == 0, what="cleared .cu diagnostics")

    # a second run never overwrites the first result: the next free name is taken
    second = await execute(client, "hiera.optimize", uri, "Model")
    await wait_job(client, second["jobId"])
    assert (workspace / "scale_bias_relu_hiera-2.py").exists() and (workspace / "scale_bias_relu_hiera-2.cu").exists()
    assert "class ModelNew" in py.read_text()


async def test_profile_kernel_publishes_line_diagnostics(client: LanguageClient, workspace: Path):
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    done = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    run_dir = workspace / ".hiera" / "runs" / done["runId"] / "candidates"
    cand = run_dir / "r1c1.cu"  # a candidate artifact of the run (not the best: its run profile is not there)
    cu_uri = cand.as_uri()
    answer = await execute(client, "hiera.profileKernel", cu_uri)
    await wait_job(client, answer["jobId"])
    diags = await wait_until(lambda: client.diagnostics.get(cu_uri), what="profile diagnostics")
    assert sorted(d.range.start.line for d in diags) == [5, 6, 7]
    # the count is of the lines shown in this file (not the header's line 3, not the 1% line 9)
    assert any(m.startswith("hiera: profiled scale_bias_relu_kernel, bottleneck: UncoalescedGlobalAccess (M); "
                            "3 source line(s)") for m in messages(client))
    # Profile with Nsight Compute on the module profiles its reference
    ref = await wait_job(client, (await execute(client, "hiera.profile", uri, "Model"))["jobId"])
    assert ref["state"] == "finished"
    assert any(m.startswith("hiera: profiled Model: 1 kernel(s), bottleneck UncoalescedGlobalAccess (M)")
               for m in messages(client))


async def test_cancel_through_the_progress_token(client: LanguageClient, workspace: Path):
    set_fake(workspace, delay=1.0)
    uri = open_file(client, workspace / "scale_bias_relu.py")
    job_id = (await execute(client, "hiera.optimize", uri, "Model"))["jobId"]
    await wait_until(lambda: any(isinstance(p, types.WorkDoneProgressReport) and "candidate 1/3" in (p.message or "")
                                 for p in progress_of(client, job_id)), what="first candidate")
    token = next(t for t in client.progress_reports if job_id in str(t))
    t0 = time.monotonic()
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    final = await wait_job(client, job_id, timeout=10)
    assert final["state"] == "cancelled" and time.monotonic() - t0 < 5
    end = progress_of(client, job_id)[-1]
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == "cancelled"
    row = run_row(workspace, final["runId"])
    assert row["status"] == "stopped"
    await wait_until(lambda: not pid_alive(row["pid"]), timeout=5, what="the engine process to be gone")
    assert client.edits == [] and not (workspace / "scale_bias_relu_hiera.py").exists()


async def test_one_job_per_device_others_queued_and_hiera_cancel(client: LanguageClient, workspace: Path):
    set_fake(workspace, delay=0.5)
    uri = open_file(client, workspace / "scale_bias_relu.py")
    buri = open_file(client, workspace / "blocks.py")
    first = (await execute(client, "hiera.optimize", uri, "Model"))["jobId"]
    second = (await execute(client, "hiera.optimize", buri, "FusedBlock"))["jobId"]
    again = await execute(client, "hiera.optimize", uri, "Model")  # the same module: no second job
    assert again["jobId"] == first and any("already being optimized" in m for m in messages(client))
    queued = await wait_until(lambda: next((s["jobId"] for s in client.job_status if s["state"] == "queued"
                                            and s["message"].startswith("queued: waiting for cpu")), None),
                              what="a job queued behind the other")
    running = first if queued == second else second
    await wait_until(lambda: any(s["jobId"] == running and s["message"].startswith("round 1/2 · candidate")
                                 for s in client.job_status), what="the other job running")
    assert not any(s["jobId"] == queued and s["state"] == "running" for s in client.job_status)
    # The server answers requests while jobs run.
    t0 = time.monotonic()
    await actions_at(client, uri, 8)
    assert time.monotonic() - t0 < 1.0
    answer = await execute(client, "hiera.cancel")
    assert set(answer["cancelled"]) == {first, second}
    assert (await wait_job(client, first, 10))["state"] == "cancelled"
    assert (await wait_job(client, second, 10))["state"] == "cancelled"


async def test_annotated_module_runs_through_a_kernelbench_wrapper(client: LanguageClient, workspace: Path):
    blocks = workspace / "blocks.py"
    uri = open_file(client, blocks)
    done = await wait_job(client, (await execute(client, "hiera.optimize", uri, "FusedBlock"))["jobId"])
    assert done["state"] == "finished"
    assert (workspace / "blocks_FusedBlock_hiera.py").exists() and (workspace / "blocks_FusedBlock_hiera.cu").exists()
    [wrapper] = (workspace / ".hiera" / "ls" / "tasks").glob("*/blocks_FusedBlock.py")
    text = wrapper.read_text()
    assert "Model = FusedBlock" in text and "get_inputs = make_inputs" in text and "get_init_inputs = make_init" in text
    assert run_row(workspace, done["runId"])["task_path"] == str(wrapper)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert [lens.command.title for lens in lenses] == ["Optimize with HIERA", "1.40× faster · memory-bound (M)"]


async def test_errors_say_what_to_do(client: LanguageClient, workspace: Path):
    buri = open_file(client, workspace / "blocks.py")
    answer = await execute(client, "hiera.optimize", buri, "Head")
    assert "error" in answer
    assert any("cannot optimize Head" in m and "# hiera: inputs=make_inputs init=make_init" in m
               for m in messages(client))

    set_fake(workspace, mode="crash")
    uri = open_file(client, workspace / "scale_bias_relu.py")
    final = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    assert final["state"] == "failed"
    [failed] = [m for m in messages(client) if "failed" in m]
    log = Path(failed.split("Log: ")[1])
    assert log.is_relative_to(workspace / ".hiera" / "logs") and "simulated crash" in log.read_text()

    # the llm backend without an endpoint: the engine's error event, with what to set
    await reconfigure(client, {"device": "cpu", "backend": "llm"})
    final = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    assert final["state"] == "failed"
    assert any("no LLM model configured" in m and "Set hiera.llm.baseUrl and hiera.llm.model" in m and "Log:" in m
               for m in messages(client))

    # an invalid setting: said once, default used
    client.set_configuration({"device": "cpu", "rounds": "many", "space": "warp"}, section="hiera")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(lambda: any("hiera.rounds = 'many'" in m for m in messages(client)), what="settings warning")
    assert any("invalid setting hiera.space = 'warp'" in m and "using 'auto'" in m for m in messages(client))
    index = await client.protocol.send_request_async("hiera/modules", {})
    assert index["settings"]["rounds"] == 3 and index["settings"]["backend"] == "expert"


async def test_refused_edit_leaves_the_files_in_the_run_folder(client: LanguageClient, workspace: Path):
    client.refuse_edits = True  # type: ignore[attr-defined]
    uri = open_file(client, workspace / "scale_bias_relu.py")
    job_id = (await execute(client, "hiera.optimize", uri, "Model"))["jobId"]
    await wait_job(client, job_id)
    assert len(client.edits) == 1 and not (workspace / "scale_bias_relu_hiera.py").exists()
    [msg] = [m for m in messages(client) if "did not apply" in m]
    kept = Path(".hiera") / "ls" / "results" / job_id
    assert "(the user said no)" in msg and f"the result is in {kept}/" in msg
    assert (workspace / kept / "scale_bias_relu_hiera.py").exists()


async def test_a_slower_best_creates_no_files_beside_the_module(client: LanguageClient, workspace: Path):
    set_fake(workspace, mode="slower")
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    job_id = (await execute(client, "hiera.optimize", uri, "Model"))["jobId"]
    final = await wait_job(client, job_id)
    assert client.edits == [] and not (workspace / "scale_bias_relu_hiera.py").exists()
    kept = workspace / ".hiera" / "runs" / final["runId"] / "slower-than-eager"
    assert (kept / "scale_bias_relu_hiera.py").exists()
    # the status says so in its own fields: a slowdown, nothing delivered, with its own pair
    assert (final["verdict"], final["delivered"]) == ("slower", False)
    assert final["message"] == "done: 0.75× — slower than eager"
    assert final["bestSpeedup"] == pytest.approx(final["referenceMs"] / final["bestMs"])
    [msg] = [m for m in messages(client) if "no candidate beat eager" in m]
    assert msg == final["summary"] and "Nothing was written beside scale_bias_relu.py" in msg
    assert f".hiera/runs/{final['runId']}/slower-than-eager/" in msg
    # the class line says it too, after the toast is gone, and names where the files are
    diag = await wait_until(lambda: client.diagnostics.get(uri), what="slower diagnostic")
    assert diag[0].code == "slower-than-eager" and "nothing was written beside this file" in diag[0].message
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))
    assert "**0.75× — slower than eager**" in hover.contents.value
    assert "Nothing was written beside this file; the kept files are in" in hover.contents.value
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert lenses[1].command.title == "0.75× slower than eager · memory-bound (M)"


async def test_changes_on_disk_are_picked_up(client: LanguageClient, workspace: Path):
    async def classes() -> set[str]:
        return {m["className"] for m in (await client.protocol.send_request_async("hiera/modules", {}))["modules"]}

    deadline = time.monotonic() + 10
    while not await classes():  # the first walk runs in the background after `initialized`
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    assert await classes() == {"Model", "FusedBlock", "Head"}
    # a new module file written by another program
    sub = workspace / "pkg"
    sub.mkdir()
    (sub / "softmax_task.py").write_text((workspace / "scale_bias_relu.py").read_text())

    async def indexed() -> bool:
        got = await client.protocol.send_request_async("hiera/modules", {})
        return any(m["path"].endswith("pkg/softmax_task.py") for m in got["modules"])

    deadline = time.monotonic() + 10
    while not await indexed():
        assert time.monotonic() < deadline, "watchdog did not report the new file"
        await asyncio.sleep(0.1)

    # a run made outside the editor (the CLI in a terminal) shows up on the open module by itself
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    await asyncio.sleep(0.5)
    assert not client.diagnostics.get(uri)
    subprocess.run([*FAKE_ENGINE, "optimize", str(task), "--events", "jsonl", "--workspace", str(workspace),
                    "--rounds", "1", "--candidates", "2", "--results-dir", str(workspace / "out")],
                   check=False, capture_output=True, timeout=60)
    diag = await wait_until(lambda: client.diagnostics.get(uri), timeout=10, what="diagnostic from the store watch")
    assert "faster kernel" in diag[0].message


async def test_no_cuda_device_is_said_once_and_the_cpu_path_used(client: LanguageClient, workspace: Path):
    await reconfigure(client, {"device": "auto", "rounds": 1, "candidates": 2})
    uri = open_file(client, workspace / "scale_bias_relu.py")
    first = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"], timeout=60)
    second = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    assert first["state"] == second["state"] == "finished"
    told = [m for m in messages(client) if m.startswith("hiera: no CUDA device")]
    assert len(told) == 1 and "CPU path" in told[0]


@pytest.mark.parametrize("how", ["exit", "eof", "sigkill"])
async def test_jobs_die_with_the_server(tmp_path: Path, how: str):
    from ls_fixtures import SETTINGS, make_workspace, server_env

    from hiera_ls import client as hc

    ws = make_workspace(tmp_path / "ws")
    set_fake(ws, delay=2.0)
    c, rec = await hc.start(ws, SETTINGS, env=server_env(), stderr=None)
    try:
        uri = hc.open_doc(c, ws / "scale_bias_relu.py")
        await c.workspace_execute_command_async(types.ExecuteCommandParams("hiera.optimize", [uri, "Model"]))
        assert await rec.wait_for(lambda: any(s.get("runId") for s in rec.job_status), 20)
        run_id = next(s["runId"] for s in rec.job_status if s.get("runId"))
        pid = run_row(ws, run_id)["pid"]
        assert pid_alive(pid)
        server = c._server
        if how == "exit":
            await c.shutdown_async(None)
            c.exit(None)
        elif how == "eof":  # the editor vanished: stdin closes without shutdown
            server.stdin.close()
        else:  # the server itself killed: the kernel ends the job (hiera_ls.launch sets PR_SET_PDEATHSIG)
            server.send_signal(signal.SIGKILL)
        await asyncio.wait_for(server.wait(), 10)
        deadline = time.monotonic() + 5
        while pid_alive(pid):
            assert time.monotonic() < deadline, f"engine pid {pid} outlived the server ({how})"
            await asyncio.sleep(0.05)
    finally:
        if c._server is not None and c._server.returncode is None:
            c._server.send_signal(signal.SIGKILL)
        await hc.stop(c)


@pytest.mark.parametrize("fields", ["today", "canonical"])
async def test_one_best_figure_with_its_own_eager_time_everywhere(client: LanguageClient, workspace: Path,
                                                                   fields: str):
    """The re-timed pair (340 µs vs 475 µs: 1.40×) in every view, never the first pair's 1.50× nor the run's
    median eager (500 µs) beside it; read from today's engine (paired_reference_ms) or the canonical best."""
    set_fake(workspace, best_fields=fields)
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    final = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    figure, pair = "1.40×", "340 µs vs 475 µs eager, re-timed"
    assert f"{final['bestSpeedup']:.2f}×" == figure
    assert final["bestSpeedup"] == pytest.approx(final["referenceMs"] / final["bestMs"])
    assert f"{figure} faster than eager ({pair})" in final["summary"] and final["summary"] in messages(client)
    diag = await wait_until(lambda: client.diagnostics.get(uri), what="module diagnostic")
    assert f"a {figure} faster kernel" in diag[0].message
    hover = (await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))).contents.value
    assert f"**{figure} faster than eager** · {pair}" in hover
    assert f"{figure} re-timed" in hover  # the round table's best is the same figure
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert lenses[1].command.title.startswith(f"{figure} faster")
    res = await client.protocol.send_request_async("hiera/runResults", {"uri": uri})
    best = res["best"]
    assert (best["candidate_ms"], best["reference_ms"], best["retimed"], best["verdict"]) == (
        pytest.approx(0.34), pytest.approx(0.475), True, "faster")
    assert best["speedup"] == pytest.approx(best["reference_ms"] / best["candidate_ms"])
    assert best["first"] == {"speedup": pytest.approx(1.5), "candidate_ms": pytest.approx(1 / 3),
                             "reference_ms": pytest.approx(0.5)}
    [rnd] = [r for r in res["rounds"] if r["round"] == best["round"]]
    assert rnd["best"] == {"candidate_id": best["candidate_id"], "speedup": pytest.approx(best["speedup"]),
                           "retimed": True}
    # re-timings are drawn on the candidate they re-time: one chart point per candidate
    assert [e["candidate_id"] for e in res["chart"]] == [f"r{r}c{i}" for r in (1, 2) for i in (1, 2, 3)]
    timed_again = {e["candidate_id"]: e["retime"] for e in res["chart"] if e["retime"]}
    assert timed_again[best["candidate_id"]]["speedup"] == pytest.approx(best["speedup"])


async def test_a_cpu_run_reads_as_cpu_and_a_gpu_run_as_cuda(client: LanguageClient, workspace: Path):
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    titles = [a.title for a in await actions_at(client, uri, line_of(task, "class Model"))]
    assert "Optimize with HIERA in a fixed space: native C++" in titles  # hiera.device is cpu here
    assert not any("CUDA" in t for t in titles)
    for device, spaces, roofline in (("cpu (x86_64)", ["native C++", "C++ libraries"], None),
                                     ("cuda:0 (NVIDIA H200)", ["pure CUDA", "CUDA libraries"], "85.94 ms")):
        set_fake(workspace, device=device)
        final = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
        res = await client.protocol.send_request_async("hiera/runResults", {"runId": final["runId"]})
        assert [r["space_title"] for r in res["rounds"]] == spaces
        rationale = res["rounds"][0]["rationale"]
        assert rationale.startswith("Workload:") and " us " not in rationale and "e+04" not in rationale
        if roofline is None:  # default CPU ceilings are not a bound: no roofline at all
            assert "roofline" not in rationale and "CUDA" not in rationale and "native C++: 1 generated" in rationale
        else:
            assert f"roofline {roofline} on measured ceilings" in rationale and "pure CUDA: 1 generated" in rationale
        progress = [p.message for p in progress_of(client, final["jobId"])
                    if isinstance(p, types.WorkDoneProgressReport)]
        assert any(m.startswith(f"round 1/2 · {spaces[0]} · direction M") for m in progress)
        hover = (await client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))).contents.value
        assert all(s in hover for s in spaces) and (device.startswith("cuda") or "CUDA" not in hover)


async def test_a_run_whose_engine_died_shows_as_ended(client: LanguageClient, workspace: Path):
    """kill -9 of an engine run from a terminal leaves its store row at "running": the views must not."""
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    set_fake(workspace, delay=30.0)
    proc = subprocess.Popen([*FAKE_ENGINE, "optimize", str(task), "--events", "jsonl", "--workspace", str(workspace),
                             "--rounds", "1", "--candidates", "2"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        run_id = json.loads(proc.stdout.readline())["run_id"]  # run_started: the store row exists
        hover_at = types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8))
        assert f"run `{run_id}` (running)" in (await client.text_document_hover_async(hover_at)).contents.value
        proc.kill()  # SIGKILL: the engine writes nothing more
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert run_row(workspace, run_id)["status"] == "running"  # what the store still says
    text = (await client.text_document_hover_async(hover_at)).contents.value
    assert "(running)" not in text and f"run `{run_id}` (ended without a result: its engine is gone)" in text
    res = await client.protocol.send_request_async("hiera/runResults", {"runId": run_id})
    assert res["status"] == "ended"
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert [lens.command.title for lens in lenses] == ["Optimize with HIERA", "no valid candidate · memory-bound (M)"]


async def test_run_limits_reach_the_engine_only_when_set(client: LanguageClient, workspace: Path):
    uri = open_file(client, workspace / "scale_bias_relu.py")
    argv_log = workspace / "fake_engine_argv.jsonl"

    async def last_argv() -> list[str]:
        await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
        return json.loads(argv_log.read_text().splitlines()[-1])

    assert not {"--timeout", "--build-timeout", "--no-sandbox"} & set(await last_argv())  # today's engine works
    await reconfigure(client, {"device": "cpu", "rounds": 1, "candidates": 2, "timeout": 30, "buildTimeout": 120.5,
                               "sandbox": False})
    argv = await last_argv()
    assert argv[argv.index("--timeout") + 1] == "30" and argv[argv.index("--build-timeout") + 1] == "120.5"
    assert "--no-sandbox" in argv
