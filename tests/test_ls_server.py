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
    final_status,
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
client, gpu_client, workspace = ls_fixtures.client, ls_fixtures.gpu_client, ls_fixtures.workspace  # found by name

# The best's code lens on the fake engine's run: its figure, precision, share of its bound, direction, bottleneck.
LENS_BEST = ("1.4× faster than eager at fp32 · 15% of speed of light, memory-bound · chosen direction: M · "
             "ncu: memory-bound (M)")


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
    # and no Nsight Compute action: it profiles CUDA kernels only
    assert titles == ["Optimize with HIERA", "Optimize with HIERA in a fixed space: native C++",
                      "Optimize with HIERA in a fixed space: C++ libraries",
                      "Optimize with HIERA in a fixed space: libraries + PyTorch"]
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
    # the re-timing shows as progress: the best timed again, and the one that then took the lead
    assert reports[-4:] == ["re-timing r2c2 on its own (its first pair: 1.50×)", "re-timed r2c2: 1.40× · best 1.40×",
                            "re-timing r2c1 on its own (its first pair: 1.45×)", "re-timed r2c1: 1.35× · best 1.40×"]
    assert any(s["retiming"] == "r2c2" for s in client.job_status) and final["retiming"] is None
    assert isinstance(prog[-1], types.WorkDoneProgressEnd) and prog[-1].message == "done: 1.4× faster than eager"
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
    # one message at the end: the reported best, why it is the one, what was created (and no other toast)
    assert messages(client) == [
        "HIERA: Model is 1.4× faster than eager (340 µs vs 475 µs eager, re-timed, 1.38–1.41× at 95%, 15% of "
        "speed of light, memory-bound) — the best, "
        "r2c2, timed "
        "again on its own (its first pair read 1.50×); r2c1 read 1.45× first and 1.35× re-timed. Created "
        "scale_bias_relu_hiera.py and scale_bias_relu_hiera.cu beside scale_bias_relu.py."]
    assert (final["headline"], final["uncertainty"], final["warnings"]) == (
        "1.4× faster than eager", "1.38–1.41× at 95%", [])

    # diagnostics: the class line says a faster kernel exists
    diag = await wait_until(lambda: client.diagnostics.get(uri), what="module diagnostic")
    assert diag[0].severity == types.DiagnosticSeverity.Information and diag[0].source == "hiera"
    assert diag[0].range.start.line == line_of(task, "class Model")
    assert diag[0].message == "HIERA found a kernel 1.4× faster than eager: scale_bias_relu_hiera.py"

    # hover on the class: speedup, counts, the round trajectory, tokens
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))
    text = hover.contents.value
    assert "**1.4× faster than eager** · 340 µs vs 475 µs eager, re-timed · at fp32 (" in text
    assert "\n\n1.38–1.41× at 95%\n\n" in text
    assert "Best: r2c2, timed again on its own (its first pair read 1.50×); r2c1 read 1.45× first" in text
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
    # the fake engine's run carries a profile of its best whose bottleneck is M: the lens may say so
    assert [lens.command.title for lens in lenses] == [
        "Optimize with HIERA", LENS_BEST]
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
        "ncu: 60% of the kernel's stall samples, pressing on memory: mostly waiting on global/local memory (L1TEX) "
        "[long_scoreboard]; "
        "20,480 excess global sectors (50% of the kernel's): uncoalesced access → M (memory transactions)")
    assert by_line[7].message == ("ncu: 15% of the kernel's stall samples, pressing on memory: mostly L1 queue "
                                  "full: too many global/local memory instructions [lg_throttle] → M (memory "
                                  "transactions)")
    assert by_line[5].message.startswith("ncu: 6% of the kernel's stall samples, pressing on shared memory / special "
                                         "math (MIO): mostly waiting on shared memory")
    khover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(cu_uri), types.Position(line_of(cu, "__global__"), 20)))
    assert "Nsight Compute · `scale_bias_relu_kernel`" in khover.contents.value
    # the hover lists the same lines as the diagnostics, the warning in bold
    hot = khover.contents.value.split("**hot lines**")[1].split("\n\n")[1].splitlines()
    assert [h.split(":")[0] for h in hot] == ["- **line 7**", "- line 8", "- line 6"]
    assert "**12.5 µs** · bottleneck: UncoalescedGlobalAccess → M (est. 38%)" in khover.contents.value
    assert "| global access | 8.0 sectors/request (ld), 4.0 (st) · 50% excess sectors |" in khover.contents.value
    assert await actions_at(client, cu_uri, 3) == []  # a CPU workspace: Nsight Compute has nothing to profile

    # editing the .cu invalidates its per-line data: diagnostics are cleared
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=cu_uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="// edited\n")]))
    await wait_until(lambda: len(client.diagnostics[cu_uri]) == 0, what="cleared .cu diagnostics")

    # a second run never overwrites the first result: the next free name is taken
    second = await execute(client, "hiera.optimize", uri, "Model")
    await wait_job(client, second["jobId"])
    assert (workspace / "scale_bias_relu_hiera_2.py").exists() and (workspace / "scale_bias_relu_hiera_2.cu").exists()
    assert "class ModelNew" in py.read_text()


async def test_profile_kernel_publishes_line_diagnostics(gpu_client: LanguageClient, workspace: Path):
    client = gpu_client
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
    assert any(m.startswith("HIERA: profiled scale_bias_relu_kernel, bottleneck: UncoalescedGlobalAccess (M); "
                            "3 source line(s)") for m in messages(client))
    # on a GPU workspace both Nsight Compute actions are offered
    assert [a.title for a in await actions_at(client, cu_uri, 3)] == ["Profile kernel"]
    titles = [a.title for a in await actions_at(client, uri, line_of(task, "class Model"))]
    assert titles[-1] == "Profile with Nsight Compute" and "Optimize with HIERA in a fixed space: pure CUDA" in titles
    # Profile with Nsight Compute on the module profiles its reference
    ref = await wait_job(client, (await execute(client, "hiera.profile", uri, "Model"))["jobId"])
    assert ref["state"] == "finished"
    assert any(m.startswith("HIERA: profiled Model: 1 kernel(s), bottleneck UncoalescedGlobalAccess (M)")
               for m in messages(client))


async def test_a_cpu_workspace_refuses_a_profile_job_without_touching_the_last_result(client: LanguageClient,
                                                                                      workspace: Path):
    uri = open_file(client, workspace / "scale_bias_relu.py")
    done = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    before = len(client.job_status)
    answer = await execute(client, "hiera.profile", uri, "Model")  # from a client that offers it anyway
    assert "needs a CUDA device" in answer["error"] and "jobId" not in answer
    assert len(client.job_status) == before  # no job: the status bar still shows the run's result
    assert messages(client)[-1].startswith("HIERA: profiling Model needs a CUDA device")
    assert final_status(client, done["jobId"])["state"] == "finished"


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
    assert [lens.command.title for lens in lenses] == [
        "Optimize with HIERA", LENS_BEST]


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
    kept = workspace / ".hiera" / "runs" / final["runId"] / "not-delivered"
    assert (kept / "scale_bias_relu_hiera.py").exists()
    assert (kept / "REASON.txt").read_text().startswith("not delivered: its figure is 1.3x slower, slower than eager (")
    # the status says so in its own fields: a slowdown by its own size, nothing delivered, with its own pair
    assert (final["verdict"], final["delivered"], final["headline"]) == ("slower", False, "1.3× slower than eager")
    assert final["message"] == "done: 1.3× slower than eager"
    assert final["bestSpeedup"] == pytest.approx(final["referenceMs"] / final["bestMs"])
    [msg] = messages(client)  # the one message of the job
    assert msg == final["summary"] == (
        "HIERA: no candidate beat eager for Model: the best is 1.3× slower than eager (637.5 µs vs 475 µs eager, "
        "re-timed, 1.3–1.4× slower at 95%, 7.8% of speed of light, memory-bound) — "
        "r1c1, timed again on its own (its first pair read 1.25× slower); r1c2 "
        "read 1.25× "
        "slower first and 1.34× slower re-timed; r2c1 read 1.25× slower first and 1.34× slower re-timed. Nothing was "
        f"written beside scale_bias_relu.py; the kept files are in .hiera/runs/{final['runId']}/not-delivered/.")
    # the class line says it too, after the toast is gone, as a warning, and names where the files are
    diag = await wait_until(lambda: client.diagnostics.get(uri), what="slower diagnostic")
    assert (diag[0].code, diag[0].severity) == ("not-delivered", types.DiagnosticSeverity.Warning)
    assert diag[0].message == (
        "HIERA: no kernel beat eager: the best is 1.3× slower than eager (637.5 µs vs 475 µs eager, re-timed); "
        f"nothing was written beside this file, the kept files are in .hiera/runs/{final['runId']}/not-delivered/")
    hover = (await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))).contents.value
    assert "**1.3× slower than eager** · 637.5 µs vs 475 µs eager, re-timed · at fp32 (" in hover
    assert "\n\n1.3–1.4× slower at 95%\n\n" in hover
    # VS Code shows the diagnostic above the hover: the hover does not say the diagnostic's sentence again
    assert "nothing was written" not in hover.lower() and "not-delivered/" not in hover
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert lenses[1].command.title.startswith("1.3× slower than eager at fp32 · 7.8% of speed of light, memory-bound · "
                                              "chosen direction: M")


CLOCK_FLAG = ("unstable_timing: the candidate's call (0.004 ms) is shorter than the scatter of the checker's clock "
              "around it (0.3 ms), so its time cannot be read; time it again on a quieter machine")


@pytest.mark.parametrize("mode", ["much_slower", "big", "unstable"])
async def test_a_slowdown_a_flag_and_unstable_timings_read_as_what_they_are(client: LanguageClient, workspace: Path,
                                                                            mode: str):
    """88× slower (with the ms), not "0.01×"; a best over 10× flagged in every view; a best whose two sides the
    evaluator found not timed alike says so, with the flag's own trigger and value, and is not written beside the
    module."""
    set_fake(workspace, mode="ok" if mode == "unstable" else mode,
             flags=[CLOCK_FLAG] if mode == "unstable" else [])
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    final = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    res = await client.protocol.send_request_async("hiera/runResults", {"runId": final["runId"]})
    hover = (await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))).contents.value
    diag = (await wait_until(lambda: client.diagnostics.get(uri), what="class diagnostic"))[0]
    [msg] = messages(client)
    best = res["best"]
    assert (best["headline"], best["warnings"]) == (final["headline"], final["warnings"])
    assert best["uncertainty"] == final["uncertainty"]
    if mode == "much_slower":
        assert final["headline"] == "94× slower than eager" and "0.01" not in msg + hover + diag.message
        assert "**94× slower than eager** · 44.88 ms vs 475 µs eager, re-timed" in hover
        assert diag.severity == types.DiagnosticSeverity.Warning and "94× slower than eager (44.88 ms" in diag.message
    elif mode == "big":
        flag = "flagged: over 10× — check before trusting"
        assert final["verdict"] == "faster" and final["warnings"] == [flag] and best["flags"][0].startswith(
            "excessive_speedup: ")
        assert flag in hover and flag in diag.message and "Flagged: over 10× — check before trusting." in msg
    else:
        assert (final["verdict"], final["delivered"]) == ("unstable", False) and client.edits == []
        assert final["headline"] == "unstable timing: the two sides were not timed alike, time it again"
        assert final["uncertainty"] == "1.4×, 1.38–1.41× at 95%"
        trigger = "flagged: the candidate's call (0.004 ms) is shorter than the scatter of the checker's clock"
        assert final["warnings"][0].startswith(trigger)
        assert msg.startswith("HIERA: Model: unstable timing: the two sides were not timed alike, time it again "
                              "(1.4×, 1.38–1.41× at 95%") and trigger in msg.replace("Flagged", "flagged")
        assert (diag.code, diag.severity) == ("unstable-timing", types.DiagnosticSeverity.Warning)
        assert "**unstable timing: the two sides were not timed alike, time it again**" in hover and trigger in hover


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
    assert "faster than eager" in diag[0].message


async def test_no_cuda_device_is_said_once_and_the_cpu_path_used(client: LanguageClient, workspace: Path):
    await reconfigure(client, {"device": "auto", "rounds": 1, "candidates": 2})
    uri = open_file(client, workspace / "scale_bias_relu.py")
    first = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"], timeout=60)
    second = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    assert first["state"] == second["state"] == "finished"
    told = [m for m in messages(client) if m.startswith("HIERA: no CUDA device")]
    assert len(told) == 1 and "CPU path" in told[0]


@pytest.mark.parametrize("how", ["exit", "eof", "sigkill"])
async def test_jobs_die_with_the_server(tmp_path: Path, how: str):
    from ls_fixtures import SETTINGS, make_workspace, server_env

    from tools import scripted_client as hc

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


async def test_one_best_figure_with_its_own_eager_time_everywhere(client: LanguageClient, workspace: Path):
    """The re-timed pair (340 µs vs 475 µs: 1.40×) in every view, never the first pair's 1.50× nor the run's
    median eager (500 µs) beside it."""
    task = workspace / "scale_bias_relu.py"
    uri = open_file(client, task)
    final = await wait_job(client, (await execute(client, "hiera.optimize", uri, "Model"))["jobId"])
    # 1.397 from a pair spread ±2%: two significant figures (the spread is wider than the second decimal); its 95%
    # interval has the two decimals that tell its ends apart
    figure, pair = "1.4×", "340 µs vs 475 µs eager, re-timed"
    assert final["bestSpeedup"] == pytest.approx(final["referenceMs"] / final["bestMs"]) == pytest.approx(1.397, 1e-3)
    assert f"{figure} faster than eager ({pair}, 1.38–1.41× at 95%, 15% of speed of light" in final["summary"]
    assert final["summary"] in messages(client)
    diag = await wait_until(lambda: client.diagnostics.get(uri), what="module diagnostic")
    assert f"a kernel {figure} faster than eager" in diag[0].message
    hover = (await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(line_of(task, "class Model"), 8)))).contents.value
    assert f"**{figure} faster than eager** · {pair}" in hover
    assert "1.40× re-timed" in hover  # the round table's best is the same figure (a table of figures: 2 decimals)
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
    assert [lens.command.title for lens in lenses] == ["Optimize with HIERA",
                                                       "no valid candidate · chosen direction: M"]


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


async def test_a_budget_reaches_the_engine_and_the_progress_bar_counts_it(client: LanguageClient, workspace: Path):
    """hiera.budget 5 with 2 per round: --budget 5 --candidates 2 (no --rounds), rounds of 2, 2 and 1, and the bar
    is finished candidates of run_started's budget of 5, up to 100, never backwards."""
    uri = open_file(client, workspace / "scale_bias_relu.py")
    await reconfigure(client, {"device": "cpu", "budget": 5, "candidates": 2, "rounds": 9})
    job_id = (await execute(client, "hiera.optimize", uri, "Model"))["jobId"]
    status = await wait_job(client, job_id)
    argv = json.loads((workspace / "fake_engine_argv.jsonl").read_text().splitlines()[-1])
    assert argv[argv.index("--budget") + 1] == "5" and argv[argv.index("--candidates") + 1] == "2"
    assert "--rounds" not in argv and status["state"] == "finished" and status["rounds"] == 3
    bar = [p.percentage for p in progress_of(client, job_id) if getattr(p, "percentage", None) is not None]
    assert {20, 40, 60, 80, 100} <= set(bar) and bar == sorted(bar), bar
