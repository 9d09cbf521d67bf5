"""`hiera optimize --backend llm` end to end on the CPU, against the scripted server in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import TASKS

# Round 1: a rate limit, a wrong candidate and a reply with no code; then the right candidate (source files
# relative to the script; tools/behaviour_diff.py runs the same script).
LLM_SCRIPT = Path(__file__).parent / "data" / "llm" / "scale_bias_relu_cpu_script.json"


def start_server(tmp_path, path):
    proc = subprocess.Popen([sys.executable, "tests/fake_llm_server.py", "--port", "0", "--script", str(path),
                             "--record", str(tmp_path / "requests.jsonl")], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().split()
    assert line[0] == "PORT", line
    return proc, f"http://127.0.0.1:{line[1]}/v1"


def test_llm_optimize_runs_r_times_k_candidates_and_records_everything(tmp_path):
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    proc, url = start_server(tmp_path, LLM_SCRIPT)
    try:
        out = subprocess.run(
            [sys.executable, "-m", "engine.cli", "optimize", str(task), "--backend", "llm", "--llm-base-url", url,
             "--llm-model", "fake-model", "--rounds", "2", "--candidates", "3", "--device", "cpu",
             "--workspace", str(tmp_path), "--json"],
            capture_output=True, text=True, timeout=600)
    finally:
        proc.kill()
    result = json.loads(out.stdout)
    # 0 when the best was written beside the task (faster than eager), 3 when it was kept aside: a loaded CPU
    # decides which.
    assert out.returncode == (0 if result["best"]["verdict"] == "faster" else 3), out.stderr[-3000:]
    assert result["candidates"] == 6
    statuses = [o["status"] for r in result["rounds"] for o in r["outcomes"]]
    assert statuses.count("valid") >= 3 and "incorrect" in statuses and "build_failed" in statuses
    assert result["best"]["speedup"] > 0
    # Beside the task when faster than eager beyond its timings' spread, else in the run's folder (a loaded CPU
    # decides which): the files are where the result says, either way.
    paths = result["best"]["paths"]
    assert (Path(paths["py"]).name, Path(paths["cu"]).name) == ("scale_bias_relu_hiera.py", "scale_bias_relu_hiera.cpp")
    assert Path(paths["py"]).exists() and Path(paths["cu"]).exists()
    assert (Path(paths["py"]).parent == tmp_path) is (result["best"]["verdict"] == "faster")
    assert result["tokens"]["prompt"] > 0 and result["tokens"]["completion"] > 0
    assert [r["strategy"] for r in result["rounds"]] == ["R.fuse_pointwise"] * 2

    from engine.store import RunStore

    store = RunStore.for_workspace(tmp_path)
    # (plus a re-timing or more of the best, when the loaded CPU slowed its eager pair)
    rows = store.candidates(result["run_id"])
    firsts = {c["id"] for c in rows if not c["id"].endswith("-retimed")}
    assert len(firsts) == 6
    # One pooled row per candidate timed again; result["retimed"] counts evaluations, and a too-wide re-timing
    # is timed again with its samples pooled into the same row (engine/retiming.py), so rows <= evaluations.
    again = [c["id"].removesuffix("-retimed") for c in rows if c["id"].endswith("-retimed")]
    assert set(again) <= firsts and len(again) == len(set(again))
    assert (len(again) > 0) is (result["retimed"] > 0) and len(again) <= result["retimed"]
    assert len(store.decisions(result["run_id"])) == 2
    assert len(store.model_calls(result["run_id"])) >= 2 * (3 + 3)  # space, directions, plan + K code per round


def test_endpoint_that_is_down_fails_within_seconds_naming_the_url(tmp_path):
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    t0 = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "engine.cli", "optimize", str(task), "--backend", "llm",
         "--llm-base-url", "http://127.0.0.1:9/v1", "--llm-model", "m", "--device", "cpu",
         "--workspace", str(tmp_path)], capture_output=True, text=True, timeout=120)
    elapsed = time.monotonic() - t0
    assert out.returncode == 2
    assert "127.0.0.1:9" in out.stderr and "HIERA_LLM_BASE_URL" in out.stderr
    assert elapsed < 30  # includes loading the task in a subprocess and importing torch twice
