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
from dataclasses import asdict
from pathlib import Path

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


def test_ctrl_c_stops_optimize_with_the_resume_line_and_exit_130(tmp_path):
    task = tmp_path / "stop_me.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    cmd = [sys.executable, "-m", "engine.cli", "optimize", str(task), "--device", "cpu", "--budget", "2",
           "--candidates", "1", "--trials", "10", "--no-profile", "--events", "jsonl", "--workspace", str(tmp_path)]
    # A session of its own stands in for the terminal: the signal goes to its whole process group.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}, start_new_session=True)
    try:
        for line in p.stdout:
            if json.loads(line)["event"] == "candidate_finished":
                os.killpg(p.pid, signal.SIGINT)
                break
        rest, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == EXIT_STOPPED, err[-3000:]
    result = json.loads(rest.strip().splitlines()[-1])
    assert result["event"] == "result" and result["status"] == "stopped"
    run_id = result["run_id"]
    assert f"continue with: hiera optimize --resume {run_id} --workspace {tmp_path}" in err
    assert "stopped: 1 of 2 candidates evaluated" in err and "Traceback" not in err
    assert RunStore.for_workspace(tmp_path).run(run_id)["status"] == "stopped"
    time.sleep(0.5)
    assert _processes_mentioning(str(task)) == []  # the evaluation worker (its own session) ended too


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
