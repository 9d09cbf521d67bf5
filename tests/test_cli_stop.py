"""Ctrl-C as a terminal sends it (to the whole foreground process group): the run is recorded `stopped`, the
CLI says what finished and the exact resume command, exits 130, and leaves no evaluation process behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import pytest

from engine.cli import EXIT_STOPPED, main
from engine.store import RunStore
from tests.conftest import TASKS

ROOT = Path(__file__).resolve().parents[1]


def _processes_mentioning(text: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit() and int(proc.name) != os.getpid():
            try:
                if text in (proc / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


def _ctrl_c_when(cmd: list[str], ready: Callable[[str], bool], ignore_sigint: bool = False) -> tuple[int, str, str]:
    """Run cmd in a session of its own (it stands in for the terminal) and, at the first stdout line for which
    ready() holds, send SIGINT to its whole process group as a terminal's Ctrl-C does: (exit status, stdout,
    stderr). ignore_sigint starts it with SIGINT ignored, as a shell starts a background job."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}, start_new_session=True,
                         preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None)
    seen = []
    try:
        for line in p.stdout:
            seen.append(line)
            if ready(line):
                os.killpg(p.pid, signal.SIGINT)
                break
        rest, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    return p.returncode, "".join(seen) + rest, err


def test_ctrl_c_stops_optimize_with_the_resume_line_and_exit_130(tmp_path):
    task = tmp_path / "stop_me.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    cmd = [sys.executable, "-m", "engine.cli", "optimize", str(task), "--device", "cpu", "--budget", "2",
           "--candidates", "1", "--trials", "10", "--no-profile", "--events", "jsonl", "--workspace", str(tmp_path)]
    returncode, out, err = _ctrl_c_when(cmd, lambda line: json.loads(line)["event"] == "candidate_finished")
    assert returncode == EXIT_STOPPED, err[-3000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result["event"] == "result" and result["status"] == "stopped"
    run_id = result["run_id"]
    assert f"continue with: hiera optimize --resume {run_id} --workspace {tmp_path}" in err
    assert "stopped (Ctrl-C): 1 of 2 candidates evaluated" in " ".join(err.split()) and "Traceback" not in err
    assert result["stop_reason"] == "interrupted"
    assert RunStore.for_workspace(tmp_path).run(run_id)["status"] == "stopped"
    time.sleep(0.5)
    assert _processes_mentioning(str(task)) == []  # the evaluation worker (its own session) ended too


@pytest.mark.parametrize("started", ["from a terminal", "as a background job"])
def test_ctrl_c_to_the_process_group_stops_the_run_with_its_best_so_far(tmp_path, started):
    """The terminal's Ctrl-C reaches every process of the foreground group. A job a shell started in the
    background (`hiera ... &`, `setsid hiera ...` in a script) starts with SIGINT ignored, and a run started that
    way once went on to finish and exit 0 when its group was sent SIGINT."""
    task = tmp_path / "stop_me.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    cmd = [sys.executable, "-m", "engine.cli", "optimize", str(task), "--device", "cpu", "--budget", "3",
           "--candidates", "1", "--trials", "10", "--workspace", str(tmp_path)]
    # Human output: stderr for a person, and stdout, a pipe here, gets the plain progress lines to wait on.
    returncode, out, err = _ctrl_c_when(cmd, lambda line: "round 1 candidate 1/1:" in line,
                                        ignore_sigint=started == "as a background job")
    assert returncode == EXIT_STOPPED, err[-3000:]
    said = " ".join(err.split())
    run_id = RunStore.for_workspace(tmp_path).runs(kind="optimize")[0]["id"]
    assert "stopped (Ctrl-C): 1 of 3 candidates evaluated" in said and "best so far: r1c1-" in said
    assert f"continue with: hiera optimize --resume {run_id} --workspace {tmp_path}" in said
    assert "· stopped" in said and "· finished" not in said and "finished ·" not in said  # the title, the bar
    assert "Traceback" not in err
    assert f"continue with: hiera optimize --resume {run_id}" in out  # the log says it too
    assert RunStore.for_workspace(tmp_path).run(run_id)["status"] == "stopped"
    # The best so far is written by the rule of a finished run: beside the task when faster, else kept aside.
    best = RunStore.for_workspace(tmp_path).run(run_id)["summary"]["best"]
    assert best is not None and best["paths"] is not None and Path(best["paths"]["py"]).exists()
    beside = Path(best["paths"]["py"]).parent == tmp_path
    assert ("wrote " in said) == beside
    time.sleep(0.5)
    assert _processes_mentioning(str(task)) == []


def test_ctrl_c_during_a_bench_keeps_and_reports_the_finished_tasks(tmp_path, monkeypatch, capsys):
    import engine.commands.bench as cmd
    from engine.suite_bench import TaskResult

    suite = tmp_path / "suite" / "level1"
    suite.mkdir(parents=True)
    for name in ("00_done", "01_cut"):
        (suite / f"{name}.py").write_text((TASKS / "scale_bias_relu.py").read_text())
    out = tmp_path / "out"

    def interrupted(root, out_dir, devices, opts, on_done=None, **kw):
        (out_dir / "tasks").mkdir(parents=True, exist_ok=True)
        r = TaskResult("00_done", str(suite / "00_done.py"), "level1", valid=True, speedup=1.5, optimize_wall_s=1.0)
        (out_dir / "tasks" / "level1__00_done.json").write_text(json.dumps(asdict(r)))
        raise KeyboardInterrupt

    monkeypatch.setattr(cmd, "run_bench", interrupted)
    assert main(["bench", str(tmp_path / "suite"), "--device", "cpu", "--out", str(out), "--no-compile"]) \
        == EXIT_STOPPED
    err = " ".join(capsys.readouterr().err.split())
    assert "stopped: 1 of 2 tasks finished" in err and "Run the same command again" in err
    md = (out / "bench.md").read_text()
    assert "stopped by Ctrl-C; 1 of 2 tasks finished" in md and "| level1 | 00_done |" in md
    assert [f.name for f in (out / "tasks").glob("*.json")] == ["level1__00_done.json"]


def test_a_bench_task_whose_run_was_stopped_is_not_saved_and_nothing_more_starts(tmp_path, monkeypatch):
    """The terminal's Ctrl-C reaches the task's `hiera optimize` too: it ends `stopped`, and the bench's worker
    must neither save that as a finished task nor start the task's baselines or the next task."""
    from engine import suite_bench

    suite = tmp_path / "suite" / "level1"
    suite.mkdir(parents=True)
    for name in ("00_cut", "01_next"):
        (suite / f"{name}.py").write_text((TASKS / "scale_bias_relu.py").read_text())
    calls: list[str] = []

    def stopped_optimize(cmd, timeout_s):
        calls.append(cmd[3])  # python -m engine.cli <command>
        return {"status": "stopped", "run_id": "r", "rounds": []}, "", False

    def baselines(cmd, timeout_s):
        calls.append(cmd[3])
        return [], "", False

    monkeypatch.setattr(suite_bench, "_run_json", stopped_optimize)
    monkeypatch.setattr(suite_bench, "_run_json_lines", baselines)
    results, _ = suite_bench.run_bench(tmp_path / "suite", tmp_path / "out", ["cpu"],
                                       {"backend": "expert", "rounds": 1, "candidates": 1, "precision": "fp32",
                                        "task_timeout_s": 60})
    assert calls == ["optimize"]  # no baselines, no second task
    assert results == [] and list((tmp_path / "out" / "tasks").glob("*.json")) == []
