"""hiera-ls with the real engine (expert backend, CPU path), and the fake engine checked against it.

The fast tests run tests/fake_engine.py; this one runs one small optimize job through the server with the real
`hiera optimize --events jsonl` and checks it end to end (flags accepted, events understood, the result
delivered beside the module or kept in the run's folder, every view saying the same figure). Then it runs the
same scenario with the fake engine, set to the real run's outcome (its verdict, device, C++ kernel, no profile),
and compares what the client saw of both: the code actions, the kinds of progress, the job status's fields and
their types, the shape of hiera/runResults, and the hover, lens, diagnostic, message and created files with
their numbers and ids taken out. A fake that drifts from the engine fails here.

It needs torch and a C++ compiler (the CPU path builds C++ candidates); where they are, it fails rather than
skips.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from ls_fixtures import REPO, line_of, make_workspace, server_env, set_fake
from lsprotocol import types

from contracts import verdict as rule
from contracts.wording import device_words
from tools import scripted_client as hc

pytestmark = [pytest.mark.asyncio]
SETTINGS = {"device": "cpu", "rounds": 1, "candidates": 2}
JOB_TIMEOUT_S = 300


def real_engine_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("HIERA_ENGINE_CMD", None)
    env.pop("HIERA_WORKSPACE", None)
    return env


def _needs_the_cpu_path() -> None:
    pytest.importorskip("torch", reason="the real engine needs torch")
    if not (shutil.which("c++") or shutil.which("g++")):
        pytest.skip("the CPU path builds C++ candidates: no C++ compiler here")


# --- what a client sees, with numbers, ids and paths taken out ------------------------------------------------

_KINDS = [("starting", r"^starting the engine$"), ("started", r"^started on .+ · \w+ backend$"),
          ("eager", r"^eager timed: "), ("round", r"^round \d+/\d+ · .+ · direction [CPMRT]"),
          ("candidate", r"^round \d+/\d+ · candidate \d+/\d+ · best "), ("retiming", r"^re-timing \S+ on its own"),
          ("retimed", r"^re-timed \S+: "),
          # the engine's heartbeat during a long step (engine/progress.py): whether one comes depends on the
          # machine's speed, so it is left out of the comparison
          ("heartbeat", r" \(\d+ s\)( · best .*)?$")]


def kind_of(message: str) -> str:
    return next((k for k, pattern in _KINDS if re.search(pattern, message)), f"other: {message}")


def template(text: str) -> str:
    """A text with what differs between two runs of the same scenario taken out."""
    # the other re-timed candidates (how many varies): each clause up to " · " or a sentence's end
    text = re.sub(r"(; \S+ (read|failed) ((?! · )([^;.]|\.\d))*)+", "", text)
    text = re.sub(r"\.hiera/runs/[^/\s`]+/", ".hiera/runs/<run>/", text)
    text = re.sub(r"`\d{8}-\d{6}-[0-9a-f]+`", "`<run>`", text)
    text = re.sub(r"\br\d+c\d+(-[0-9a-f]{6})?\b", "<candidate>", text)
    text = re.sub(r"direction:? [CPMRT]\b|\b[CPMRT] \(\d\.\d\d\)", "<direction>", text)
    text = re.sub(r"\((build_failed|incorrect|runtime_error|timeout|space_violation|suspect) \d+(, [^)]*)?\)", "",
                  text)
    text = re.sub(r"\d+(\.\d+)?(e[+-]?\d+)?", "<n>", text)
    text = re.sub(r"<n> (µs|ms|s)\b", "<n> <unit>", text)
    # which memory ceiling bounds the task (DRAM or the cache) is measured: a host whose last-level cache outsizes
    # the timing's flush is bound by the cache
    text = re.sub(r"\bat (memory|cache) <n> GB/s", "at <memory> <n> GB/s", text)
    # the first pair of a re-timed best may read on the other side of eager's speed than the reported figure
    text = text.replace("first pair read <n>× slower", "first pair read <n>×")
    # a figure's interval: its ends may read alike at the figure's digits, and either side of 1
    text = re.sub(r"<n>(–<n>)?×( slower)? (at <n>%|\(quartile range\))", "<interval>", text)
    return re.sub(r"[ \t]+", " ", text)


def key_paths(value: Any, at: str = "") -> set[str]:
    """Every key path of a JSON answer ("best.paths.py", "rounds[].outcomes[].retime.status"), over all the items
    of each list: the answer's shape, whatever its numbers."""
    if isinstance(value, dict):
        return {p for k, v in value.items() for p in {f"{at}{k}"} | key_paths(v, f"{at}{k}.")}
    if isinstance(value, list):
        return {p for item in value for p in key_paths(item, f"{at.rstrip('.')}[].")}
    return set()


def keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: keys(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [keys(value[0])] if value and isinstance(value[0], (dict, list)) else "list"
    return "null" if value is None else type(value).__name__


async def scenario(ws: Path, env: dict[str, str]) -> dict[str, Any]:
    """Open the module, run Optimize with HIERA, wait for the end, read every view: the raw answers."""
    client, rec = await hc.start(ws, SETTINGS, env=env, stderr=None)
    try:
        task = ws / "scale_bias_relu.py"
        uri = hc.open_doc(client, task)
        pos = types.Position(line_of(task, "class Model"), 8)
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), types.Range(pos, pos), types.CodeActionContext(diagnostics=[])))
        answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
            "hiera.optimize", [uri, "Model"]))
        job_id = answer["jobId"]
        assert await rec.wait_for(lambda: any(s["jobId"] == job_id and s["state"] in ("finished", "failed")
                                              for s in rec.job_status), JOB_TIMEOUT_S), "the job did not end"
        final = next(s for s in reversed(rec.job_status) if s["jobId"] == job_id)
        log = ws / ".hiera" / "logs" / f"{job_id}.log"
        assert final["state"] == "finished", f"{final['message']}; log: {log.read_text()[-3000:]}"
        assert await rec.wait_for(lambda: bool(rec.diagnostics.get(uri)), 20), "no class diagnostic"
        results = await client.protocol.send_request_async("hiera/runResults", {"runId": final["runId"]})
        hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), pos))
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
        # $(progress) values arrive as plain JSON: {"kind": "begin"|"report"|"end", "message": ...}
        progress = [v if isinstance(v, dict) else vars(v) for t, vals in rec.progress.items() if job_id in str(t)
                    for _, v in vals]
        return {"actions": [a.title for a in actions or []], "final": final, "statuses": rec.job_status,
                "results": results, "hover": hover.contents.value, "lenses": [x.command.title for x in lenses],
                "diagnostic": rec.diagnostics[uri][0], "messages": [m.message for _, m in rec.messages],
                "progress": progress, "edits": rec.edits}
    finally:
        await hc.stop(client)


def view(seen: dict[str, Any]) -> dict[str, Any]:
    """What the client saw, as comparable between two engines running the same scenario."""
    reports = [p["message"] for p in seen["progress"] if p.get("kind") == "report" and p.get("message")]
    kinds = [k for k in dict.fromkeys(kind_of(m) for m in reports) if k != "heartbeat"]
    d = seen["diagnostic"]
    created = [c.uri.rsplit("/", 1)[1] for params, _ in seen["edits"] for c in params.edit.document_changes
               if isinstance(c, types.CreateFile)]
    return {"actions": seen["actions"], "progress kinds": kinds,
            "progress end": template(seen["progress"][-1]["message"]),
            "job status fields": sorted({k for s in seen["statuses"] for k in s}),
            "final status": keys(seen["final"]) | {"summary": template(seen["final"]["summary"])},
            "runResults": sorted(key_paths(seen["results"])), "best fields": keys(seen["results"]["best"]),
            "hover": template(seen["hover"]), "lenses": [template(x) for x in seen["lenses"]],
            "diagnostic": (d.code, d.severity, template(d.message)),
            "messages": [template(m) for m in seen["messages"]], "created": created}


def fake_outcome(best: dict[str, Any]) -> dict[str, Any]:
    """The fake engine's knobs (tests/fake_engine.py) that give the outcome the real run had: its verdict, and a
    figure on the same side of eager's speed."""
    side = {} if best["speedup"] >= 1 else {"mode": "slower"}
    # The checker's flags as the real run had them (a busy machine's timing_swing or unstable_timing, fixed_shape
    # from the batch-size checks), less the one the fake adds itself on a figure over 10x; and what the sizes found.
    flags = [f for f in best.get("flags") or [] if not f.startswith("excessive_speedup")]
    same = {"flags": flags, "shapes": best.get("shapes"), "retime": bool(best.get("retimed"))}
    level = {"mode": "level" if best["speedup"] >= 1 else "level_slower"}  # level, on the same side of 1x
    return {**{"faster": {}, "slower": {"mode": "slower"}, "level": level, "unstable": side}[best["verdict"]],
            **same}


async def test_the_real_engine_through_the_server_and_the_fake_engine_against_it(tmp_path: Path):
    _needs_the_cpu_path()
    real_ws = make_workspace(tmp_path / "real")
    real = await scenario(real_ws, real_engine_env())

    # --- the real run, end to end -------------------------------------------------------------------------
    final, res, hover = real["final"], real["results"], real["hover"]
    candidates = [c for c in res["chart"] if not c["candidate_id"].endswith("-retimed")]
    assert res["status"] == "finished" and len(candidates) == 2 and res["device"] == "cpu"
    assert res["device_name"], res  # the device and its name: two fields, joined by the views
    assert "Profile with Nsight Compute" not in real["actions"]  # a CPU workspace: nothing for ncu to profile
    reports = [p["message"] for p in real["progress"] if p.get("kind") == "report"]
    assert any(r.startswith("round 1/1 · candidate 2/2 · best") for r in reports)
    best = res["best"]
    assert best is not None, f"the expert backend found no valid candidate for a pointwise task: {res['rounds']}"
    # The engine re-times its best, shown as progress; under the editor's deadline not a best far slower than eager
    # (retiming.worth_retiming: a loaded CPU's first pair can read so).
    from engine.retiming import NOT_WORTH_RETIMING

    assert any(r.startswith("re-timing ") for r in reports) or best["speedup"] < NOT_WORTH_RETIMING, (reports, best)
    assert best["speedup"] == pytest.approx(best["reference_ms"] / best["candidate_ms"])  # one pair
    # the one rule: the verdict is the engine's, read off its 95% interval, and its words are contracts/verdict.py's,
    # in every view (a pair the evaluator flagged unstable_timing is unstable whatever its interval says)
    expected = ("unstable" if rule.flagged_unstable(best.get("flags"))
                else rule.verdict_of_interval(best["low"], best["high"]).value)
    assert best["confidence"] == 0.95
    assert best["verdict"] == expected == final["verdict"]
    headline = rule.headline(best["speedup"], best["verdict"], best["spread"])
    assert best["headline"] == final["headline"] == headline and f"**{headline}**" in hover
    assert real["messages"] == [final["summary"]]  # one message at the job's end: no notice toasts
    assert "```text\nround  space" in hover and "CUDA" not in hover  # a CPU run: its spaces read as C++
    if best["verdict"] == "faster":
        [(params, applied)] = real["edits"]
        created = [c.uri.rsplit("/", 1)[1] for c in params.edit.document_changes if isinstance(c, types.CreateFile)]
        assert applied and created == ["scale_bias_relu_hiera.py", "scale_bias_relu_hiera.cpp"]  # C++ on the CPU
        assert "class ModelNew" in (real_ws / "scale_bias_relu_hiera.py").read_text()
        assert real["diagnostic"].severity == types.DiagnosticSeverity.Information
    else:  # a loaded 2-core machine may lose: nothing written beside the module, the files kept in the run
        assert real["edits"] == [] and not (real_ws / "scale_bias_relu_hiera.py").exists()
        assert Path(best["paths"]["py"]).parent.name == "not-delivered" and Path(best["paths"]["py"]).exists()
        assert real["diagnostic"].severity == types.DiagnosticSeverity.Warning
        assert "nothing was written beside this file" in real["diagnostic"].message

    # --- the fake engine, set to the same outcome, shows the client the same things ------------------------
    fake_ws = make_workspace(tmp_path / "fake")
    set_fake(fake_ws, device=device_words(res["device"], res["device_name"]), kernel=".cpp", profile=False,
             **fake_outcome(best))
    fake = await scenario(fake_ws, server_env())
    assert fake["final"]["verdict"] == best["verdict"]
    got, want = view(fake), view(real)
    diff = {k: {"fake": got[k], "real": want[k]} for k in want if got[k] != want[k]}
    assert not diff, "the fake engine shows the client something the real one does not:\n" + json.dumps(
        diff, indent=1, default=str)
