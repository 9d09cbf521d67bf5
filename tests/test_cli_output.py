"""What the CLI prints says what happened: plain lines on stdout when it is a log (a start line, one line per
candidate or task, as they finish), CPU runs in CPU words, and the bench report judged by each task's own
measured spread, with budget rows only for budgets that ran, no roofline from default CPU ceilings, and a
reason for every "-"."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time

import pytest

from contracts.runrecord import RunResult
from engine.bench_render import bench_markdown
from engine.bench_stats import bench_summary, group_summary
from engine.commands.optimize import HumanProgress, summary_table
from engine.commands.plain import PlainLines
from engine.suite_bench import NO_BOUND, TaskResult, explain_limit
from tests.cli_kit import ROOT, env, flat
from tests.conftest import TASKS


def _task(level: str, speedup: float | None, spread: float | None, **kw) -> TaskResult:
    return TaskResult(task=kw.pop("task", "t"), path="t.py", level=level, valid=speedup is not None, speedup=speedup,
                      spread=spread, optimize_wall_s=10.0, **kw)


def test_faster_beyond_spread_uses_each_tasks_measured_spread():
    # 1.2x is faster on a quiet machine (5% spread) and level on a loaded one (30%); an older result without a
    # recorded spread keeps the H200's 3%.
    rs = [_task("cpu", 1.2, 0.05), _task("cpu", 1.2, 0.30), _task("cpu", 1.05, None), _task("cpu", None, None)]
    assert group_summary(rs)["hiera"]["faster_beyond_spread"] == pytest.approx(0.5)
    md = bench_markdown(rs, bench_summary(rs), "# t")
    assert "faster than eager by more than its own timings' spread" in md and "3% timing spread" not in md


def test_level_with_torch_compile_is_judged_by_the_spread_of_both_timings():
    r = _task("cpu", 1.0, 0.2, compile={"default": 1.1, "max-autotune": None}, compile_spread={"default": 0.1})
    assert explain_limit(r) == "level with torch.compile (1.00x vs 1.10x: within the 20% spread of these timings)"
    r = _task("cpu", 1.0, 0.02, compile={"default": 1.5, "max-autotune": None}, compile_spread={"default": 0.02},
              strategies=["R.fuse"])
    assert explain_limit(r).startswith("strategies tried (R.fuse) stayed behind torch.compile (1.50x)")


def test_budget_rows_only_for_budgets_that_ran():
    rs = [_task("cpu", 1.5, 0.05, trajectory=[1.2, 1.5]), _task("cpu", 1.1, 0.05, trajectory=[None, 1.1])]
    md = bench_markdown(rs, bench_summary(rs), "# t")
    rows = re.findall(r"^\| overall \| (\d+) \|", md, re.M)
    assert rows == ["1", "2"]  # not 6, 12 and 18 repeating B = 2


def test_a_best_without_a_speed_of_light_and_every_dash_has_its_reason():
    rs = [_task("cpu", 2.0, 0.05, task="won", device="cpu", spaces=["pure_cuda"], directions=["R"],
                compile={"default": 1.5, "max-autotune": None}, compile_status={"default": "valid",
                                                                              "max-autotune": "suspect"},
                compile_reason={"max-autotune": "20 ms longer by the checker's clock; allowed 15.9 ms"}),
          _task("cpu", None, None, task="lost", device="cpu", error="the worker died")]
    md = bench_markdown(rs, bench_summary(rs), "# t")
    assert "%*" not in md
    cells = [c.strip() for line in md.splitlines() if line.startswith("| cpu |") for c in line.split("|")]
    assert "-" not in cells  # a bare dash: no reason
    notes = dict(re.findall(r"^- \[(\d+)\] (.*)$", md, re.M))
    marks = set(re.findall(r"- \[(\d+)\]", "\n".join(ln for ln in md.splitlines() if ln.startswith("|"))))
    assert marks and marks <= set(notes)
    assert NO_BOUND in notes.values()
    assert "cpu/won torch.compile max-autotune: suspect (20 ms longer by the checker's clock; allowed 15.9 ms)" \
        in notes.values()
    assert "cpu/lost: the optimize run failed: the worker died" in notes.values()


EVENTS = [
    {"event": "run_started", "run_id": "r1", "task": "/w/pointwise.py", "device": "cpu (x86_64)", "backend": "expert",
     "rounds": 1, "candidates": 6, "budget": 1, "store": "/w/.hiera/hiera.db", "run_dir": "/w/.hiera/runs/r1"},
    {"event": "round_started", "round": 1, "space": "pure_cuda", "scores": {"R": 0.6}, "direction": "R",
     "strategy": "R.fuse_pointwise", "of": 1,
     "rationale": "memory-bound, roofline 52.53 us on default (CPU) ceilings. pure CUDA: 1 generated C++ loop nest"},
    {"event": "candidate_finished", "round": 1, "index": 1, "of": 1, "candidate_id": "r1c1-a", "status": "valid",
     "reason": "correct", "speedup": 2.0, "source": "/w/r1c1-a.cpp",
     "best": {"candidate_id": "r1c1-a", "speedup": 2.0, "candidate_ms": 1.0, "reference_ms": 2.0, "retimed": False,
              "spread": 0.05, "verdict": "faster"}},
]


def test_progress_in_plain_lines_when_stdout_is_a_log_and_cpu_spaces_in_cpu_words(capsys):
    plain = PlainLines(json_on_stdout=False)
    assert plain.on  # stdout here is a capture, not a terminal
    progress = HumanProgress(1, plain)
    for e in EVENTS:
        progress(e)
    progress.progress.stop()
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith("hiera optimize pointwise.py: run r1 on cpu (x86_64), 1 candidate(s)")
    assert lines[1] == "round 1: native C++ · R · R.fuse_pointwise"
    # (an event without the candidate's own figure, from an older engine: its speedup alone)
    assert lines[2].startswith("round 1 candidate 1/1: valid 2.00x (correct) · best 2.0x (faster, first pair)")
    said = flat(err)
    assert "native C++" in said and "pure_cuda" not in said and "pure CUDA" not in said
    assert "roofline" not in said  # from default CPU ceilings: no bound
    assert not PlainLines(json_on_stdout=True).on


def test_the_summary_table_names_spaces_for_the_runs_device(capsys):
    from engine.cli import console

    def table(device: str) -> str:
        r = RunResult.from_json({"run_id": "r", "status": "finished", "device": device, "rounds": [
            {"round": 1, "space": "pure_cuda", "scores": {}, "direction": "R", "strategy": "s", "rationale": "",
             "outcomes": [], "best": None}]})
        console.print(summary_table(r))
        return flat(capsys.readouterr().err)

    assert "native C++" in table("cpu (x86_64)") and "none valid" in table("cpu")
    assert "pure CUDA" in table("cuda:0 (NVIDIA H200)")


def test_bench_into_a_log_says_it_started_and_each_task_as_it_ends(tmp_path):
    suite = tmp_path / "suite" / "cpu"
    suite.mkdir(parents=True)
    shutil.copy(TASKS / "scale_bias_relu.py", suite / "00_scale_bias_relu.py")
    log = tmp_path / "bench.log"
    cmd = [sys.executable, "-m", "engine.cli", "bench", str(tmp_path / "suite"), "--device", "cpu", "--budget", "1",
           "--no-compile", "--out", str(tmp_path / "out")]
    with log.open("w") as stdout:
        p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env())
        try:
            deadline = time.monotonic() + 120
            while "hiera bench" not in log.read_text():
                assert p.poll() is None and time.monotonic() < deadline, "no start line while the bench ran"
                time.sleep(0.2)
            assert p.poll() is None  # said while the task was still running, not at the end
            _out, err = p.communicate(timeout=600)
        finally:
            if p.poll() is None:
                p.kill()
    assert p.returncode == 0, err[-3000:]
    text = log.read_text()
    lines = text.splitlines()
    assert lines[0].startswith(f"hiera bench {tmp_path / 'suite'}: 1 tasks (0 finished in ")
    assert "1 to run) on cpu, budget 1 per task" in lines[0]
    assert re.search(r"^\[1/1\] cpu/00_scale_bias_relu: hiera (\d+\.\d+x|no valid candidate), max-autotune not run",
                     text, re.M)
    assert "| cpu | 00_scale_bias_relu |" in text and f"wrote {tmp_path / 'out' / 'bench.json'}" in text


def test_an_evaluations_flags_are_said_in_words(capsys):
    from engine.cli import console, outcome_table
    from engine.evaluate.outcome import Outcome, Status

    flag = "excessive_speedup: 17.0x (every timed call ran on new inputs and a sample of them was checked)"
    console.print(outcome_table(Outcome("c", Status.VALID, "correct", flags=(flag,)), "k.cpp against t"))
    assert "flagged over 10x — check before trusting (17.0x (every timed call" in flat(capsys.readouterr().err)
