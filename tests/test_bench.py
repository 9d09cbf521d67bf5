"""`hiera bench`: the fast_p summary, resuming, level selection, the deadline, and one real CPU run."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import suite_bench
from engine.bench_render import bench_markdown
from engine.bench_stats import bench_summary, budget_curve, group_summary
from engine.suite_bench import TaskResult, find_tasks, run_bench

ROOT = Path(__file__).resolve().parents[1]
TASK = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x * 2.0 + 1.0)


def get_inputs():
    return [torch.randn(64, 256)]


def get_init_inputs():
    return []
'''


def _suite(tmp_path: Path, levels: dict[str, int]) -> Path:
    root = tmp_path / "suite"
    for lv, n in levels.items():
        (root / lv).mkdir(parents=True)
        for i in range(n):
            (root / lv / f"{i:02d}_task.py").write_text(TASK)
    (root / "check_tasks.py").write_text("# not a task\n")
    return root


def _result(level: str, speedup: float | None, compile_x: float | None = None) -> TaskResult:
    return TaskResult(task="t", path="t.py", level=level, valid=speedup is not None, speedup=speedup,
                      compile={"default": compile_x, "max-autotune": compile_x}, optimize_wall_s=10.0)


def test_summary_counts_invalid_tasks_in_fast_p_and_as_eager_in_the_all_tasks_geomean() -> None:
    rs = [_result("l1", 4.0, 1.0), _result("l1", 0.5, 2.0), _result("l1", None, 1.5), _result("l1", 1.5, None)]
    s = group_summary(rs)["hiera"]
    assert s["fast_0"] == pytest.approx(0.75)
    assert s["fast_1"] == pytest.approx(0.5)   # 4.0 and 1.5
    assert s["fast_2"] == pytest.approx(0.25)  # 4.0
    assert s["geomean_speedup"] == pytest.approx((4.0 * 0.5 * 1.5) ** (1 / 3))
    assert s["geomean_speedup_all_tasks"] == pytest.approx((4.0 * 0.5 * 1.0 * 1.5) ** 0.25)
    # At or above max-autotune: 4.0 >= 1.0 yes; 0.5 < 2.0 no; invalid no; no baseline result counts as yes.
    assert s["at_or_above_max_autotune"] == pytest.approx(0.5)
    assert s["at_or_above_best_compile"] == pytest.approx(0.5)
    c = group_summary(rs)["torch.compile:max-autotune"]
    assert c["fast_0"] == pytest.approx(0.75) and c["fast_1"] == pytest.approx(0.5)
    assert not math.isnan(c["geomean_speedup"])


def test_speedups_inside_the_timing_spread_are_counted_apart_and_a_roofline_above_100_is_flagged() -> None:
    rs = [_result("l1", 1.02, 1.0), _result("l1", 1.5, 1.0), _result("l1", None), _result("l1", 2.0, 1.0)]
    rs[3].task, rs[3].roofline_fraction = "conv", 1.2
    s = group_summary(rs)["hiera"]
    assert s["fast_1"] == pytest.approx(0.75)  # 1.02x counts as faster ...
    assert s["faster_beyond_spread"] == pytest.approx(0.5)  # ... but not clear of the 3% spread
    rs[3].speed_of_light = {"bound": "compute", "fraction": 1.2}
    md = bench_markdown(rs, bench_summary(rs), "# t")
    assert "| 120% compute* |" in md and "above 100% (l1/conv)" in md
    rs[3].roofline_fraction = 0.9
    assert "above 100%" not in bench_markdown(rs, bench_summary(rs), "# t")


def test_the_speed_of_light_column_and_its_geomean_over_the_tasks_with_a_bound() -> None:
    rs = [_result("l1", 2.0, 1.0), _result("l1", 1.5, 1.0), _result("l1", 1.1, 1.0)]
    rs[0].roofline_fraction, rs[0].speed_of_light = 0.9, {"bound": "memory", "fraction": 0.9}
    rs[0].stopped_early = {"round": 1, "fraction": 0.9, "bound": "memory", "candidates_saved": 12,
                           "seconds_saved": 40.0}
    rs[1].roofline_fraction, rs[1].speed_of_light = 0.1, {"bound": "compute", "fraction": 0.1}
    s = bench_summary(rs)
    h = s["overall"]["hiera"]
    assert h["geomean_speed_of_light"] == pytest.approx(0.3) and h["tasks_with_bound"] == 2  # sqrt(0.9 * 0.1)
    assert (h["stopped_early"], h["candidates_saved"], h["seconds_saved"]) == (1, 12, 40.0)
    md = bench_markdown(rs, s, "# t")
    assert "| 90% memory (stopped) |" in md and "| 10% compute |" in md
    assert "| overall | 30% (2) | 1 (12, 40 s) |" in md


def test_the_share_of_bests_whose_file_serves_every_size_checked_and_their_figure_across_sizes() -> None:
    """Issue 38's measure: a best served at every size it was checked at, one that serves only the given shapes,
    one with no other size checked (not counted); the geomean at the given shapes beside the one across sizes."""
    from contracts.shapes import ShapeCheck, ShapeReport

    rs = [_result("l1", 4.0, 1.0), _result("l1", 3.0, 1.0), _result("l1", 2.0, 1.0)]
    rs[0].shapes = ShapeReport(64, (ShapeCheck(1, "valid", "", 1.0, 4.0), ShapeCheck(128, "valid", "", 1.0, 4.0)),
                               drawn=True, given_speedup=4.0).to_json()
    rs[1].shapes = ShapeReport(64, (ShapeCheck(1, "declined"), ShapeCheck(128, "declined")), drawn=True,
                               given_speedup=3.0).to_json()
    s = bench_summary(rs)
    o = s["overall"]["hiera"]["other_sizes"]
    assert (o["checked"], o["serve_all"]) == (2, 1)
    assert o["geomean_given"] == pytest.approx(12 ** 0.5)
    assert o["geomean_across_sizes"] == pytest.approx((4.0 * 3.0 ** (1 / 3)) ** 0.5)  # 4x everywhere; 3x, 1x, 1x
    assert "| overall | 2 of 3 | 1 | 3.46 | 2.40 |" in bench_markdown(rs, s, "# t")
    rs[0].shapes = rs[1].shapes = None
    assert "| overall | 0 of 3 | -" in bench_markdown(rs, bench_summary(rs), "# t")


def test_median_wall_of_an_even_count_is_the_mean_of_the_middle_two() -> None:
    rs = [_result("l1", 1.0) for _ in range(4)]
    for r, wall in zip(rs, (10.0, 20.0, 40.0, 100.0)):
        r.optimize_wall_s = wall
    assert group_summary(rs)["hiera"]["median_wall_s"] == pytest.approx(30.0)


def test_find_tasks_levels_and_non_tasks(tmp_path: Path) -> None:
    root = _suite(tmp_path, {"cpu": 1, "level1": 2, "level2": 1})
    assert [lv for lv, _ in find_tasks(root)] == ["cpu", "level1", "level1", "level2"]
    assert [lv for lv, _ in find_tasks(root, ["level1", "level2"])] == ["level1", "level1", "level2"]


def _fake_run_task(calls: list[str], sleep_s: float = 0.0):
    def run_task(level: str, task: Path, device: str, args: dict, out: Path) -> TaskResult:
        calls.append(f"{level}/{task.stem}")
        time.sleep(sleep_s)
        return TaskResult(task.stem, str(task), level, valid=True, speedup=2.0, device=device, optimize_wall_s=1.0)
    return run_task


def test_resume_skips_finished_tasks_and_report_only_runs_nothing(tmp_path: Path, monkeypatch) -> None:
    root = _suite(tmp_path, {"level1": 3})
    out = tmp_path / "out"
    calls: list[str] = []
    monkeypatch.setattr(suite_bench, "run_task", _fake_run_task(calls))
    (out / "tasks").mkdir(parents=True)
    (out / "tasks" / "level1__01_task.json").write_text(json.dumps(
        {"task": "01_task", "path": "x", "level": "level1", "valid": True, "speedup": 3.0}))
    results, summ = run_bench(root, out, ["cpu"], {})
    assert sorted(calls) == ["level1/00_task", "level1/02_task"]
    assert len(results) == 3 and summ["overall"]["fast_2"] == pytest.approx(1 / 3)  # only the 3.0x one is > 2
    calls.clear()
    results, _ = run_bench(root, out, ["cpu"], {}, run=False)
    assert calls == [] and len(results) == 3


def test_deadline_starts_no_task_after_it(tmp_path: Path, monkeypatch) -> None:
    root = _suite(tmp_path, {"level1": 4})
    calls: list[str] = []
    monkeypatch.setattr(suite_bench, "run_task", _fake_run_task(calls, sleep_s=0.3))
    results, _ = run_bench(root, tmp_path / "out", ["cpu"], {}, deadline=time.monotonic() + 0.1)
    assert calls == ["level1/00_task"] and len(results) == 1
    assert len(list((tmp_path / "out" / "tasks").glob("*.json"))) == 1


def test_unknown_level_is_a_usage_error(tmp_path: Path) -> None:
    root = _suite(tmp_path, {"level1": 1})
    p = subprocess.run([sys.executable, "-m", "engine.cli", "bench", str(root), "--levels", "level9",
                        "--out", str(tmp_path / "o")], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 2
    assert "level9" in p.stderr + p.stdout and "level1" in p.stderr + p.stdout


def test_bench_end_to_end_on_the_cpu(tmp_path: Path) -> None:
    """A real optimize run and a real torch.compile baseline through the CLI, then the reports."""
    root = _suite(tmp_path, {"cpu": 1})
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, "-m", "engine.cli", "bench", str(root), "--rounds", "1", "--candidates", "2",
                        "--device", "cpu", "--out", str(out), "--json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads(p.stdout.strip().splitlines()[-1])
    assert doc["finished"] == doc["of"] == 1
    t = doc["tasks"][0]
    assert t["valid"] and t["speedup"] > 0 and t["reference_ms"] > 0
    assert t["optimize_wall_s"] > 0 and t["wall_s"] >= t["optimize_wall_s"]
    assert set(t["compile_status"]) == {"default", "max-autotune"}
    # the best's shape report travels into the result (the task's batch dimension lets other sizes be checked)
    assert isinstance(t["shapes"], dict) and t["shapes"]["checks"], t.get("shapes")
    for key in ("fast_0", "fast_1", "fast_2", "geomean_speedup"):
        assert key in doc["summary"]["overall"] and key in doc["summary"]["cpu"]
    assert (out / "bench.md").read_text().count("| cpu | 00_task |") == 1
    assert (out / "bench.png").stat().st_size > 1000
    # Resumed: nothing runs again, the same numbers come back.
    p2 = subprocess.run([sys.executable, "-m", "engine.cli", "bench", str(root), "--device", "cpu", "--out", str(out),
                         "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p2.returncode == 0
    assert json.loads(p2.stdout.strip().splitlines()[-1])["tasks"][0]["speedup"] == t["speedup"]


def test_rerun_measures_a_finished_task_again_and_keeps_the_old_result(tmp_path: Path, monkeypatch) -> None:
    root = _suite(tmp_path, {"level1": 2})
    out = tmp_path / "out"
    calls: list[str] = []
    monkeypatch.setattr(suite_bench, "run_task", _fake_run_task(calls))
    run_bench(root, out, ["cpu"], {})
    assert sorted(calls) == ["level1/00_task", "level1/01_task"]
    calls.clear()
    run_bench(root, out, ["cpu"], {}, rerun=["level1/01_task"])
    assert calls == ["level1/01_task"]
    kept = list((out / "tasks" / "superseded").glob("level1__01_task.*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text())["task"] == "01_task"


def test_code_version_tracks_the_engine_source(tmp_path: Path) -> None:
    v = suite_bench.code_version()
    assert len(v) == 12 and v == suite_bench.code_version()
    # A copy of the same sources has the same version: it hangs on their contents, not on where they are.
    copy = tmp_path / "tree"
    for sub in ("contracts", "engine"):
        shutil.copytree(ROOT / sub, copy / sub, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "README.md").write_text("not code\n")
    assert suite_bench.code_version(copy) == v
    # One byte more in one source file of engine/ or contracts/ is other code: another version.
    for f in (copy / "engine" / "phases.py", copy / "contracts" / "wording.py"):
        original = f.read_bytes()
        f.write_bytes(original + b" ")
        changed = suite_bench.code_version(copy)
        assert len(changed) == 12 and changed != v, f
        f.write_bytes(original)
        assert suite_bench.code_version(copy) == v
    # A file moved is other code too; a file outside the two folders is not.
    (copy / "engine" / "phases.py").rename(copy / "engine" / "phases2.py")
    assert suite_bench.code_version(copy) != v
    (copy / "engine" / "phases2.py").rename(copy / "engine" / "phases.py")
    (copy / "README.md").write_text("changed\n")
    (copy / "tests").mkdir()
    (copy / "tests" / "test_x.py").write_text("x = 1\n")
    assert suite_bench.code_version(copy) == v


def test_a_resumed_bench_says_when_it_holds_results_of_other_code(tmp_path: Path) -> None:
    root = _suite(tmp_path, {"level1": 1})
    out = tmp_path / "out"
    (out / "tasks").mkdir(parents=True)
    (out / "tasks" / "level1__00_task.json").write_text(json.dumps(
        {"task": "00_task", "path": "x", "level": "level1", "valid": True, "speedup": 3.0,
         "code_version": "000000000000"}))
    p = subprocess.run([sys.executable, "-m", "engine.cli", "bench", str(root), "--device", "cpu", "--out", str(out)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert p.returncode == 0, p.stderr[-2000:]
    said = p.stdout + p.stderr
    assert "measured by other code (000000000000: 1" in said
    assert "measured by different code versions" not in said  # one task only: nothing mixed in the report


def test_budget_curve_is_cut_from_each_tasks_trajectory_and_the_time_split_sums_the_phases() -> None:
    rounds = [{"outcomes": [{"candidate_id": "a", "status": "incorrect", "speedup": None},
                            {"candidate_id": "b", "status": "valid", "speedup": 0.9}]},
              {"outcomes": [{"candidate_id": "c", "status": "valid", "speedup": 1.8},
                            {"candidate_id": "c-retimed", "status": "valid", "speedup": 1.7}]}]
    assert suite_bench.trajectory(rounds) == [None, 0.9, 1.8]  # the re-timing is not a candidate
    late = TaskResult(task="late", path="l.py", level="l1", valid=True, speedup=1.7, trajectory=[None, 0.9, 1.8],
                      spaces=["pure_cuda", "libraries_pytorch"], best_space="libraries_pytorch",
                      seconds={"build": 4.0, "verify": 2.0, "time": 1.0, "profile": 3.0, "model": 0.0},
                      optimize_wall_s=12.0)
    early = TaskResult(task="early", path="e.py", level="l1", valid=True, speedup=3.0, trajectory=[3.0] * 18,
                       spaces=["pure_cuda"], best_space="pure_cuda", seconds={"build": 1.0}, optimize_wall_s=2.0)
    never = TaskResult(task="never", path="n.py", level="l1", trajectory=[None] * 18)
    curve = {pt["budget"]: pt for pt in budget_curve([late, early, never], (1, 2, 3, 18))}
    assert curve[1]["fast_0"] == pytest.approx(1 / 3) and curve[1]["fast_1"] == pytest.approx(1 / 3)
    assert curve[2]["fast_0"] == pytest.approx(2 / 3) and curve[2]["fast_1"] == pytest.approx(1 / 3)
    assert curve[3]["fast_1"] == pytest.approx(2 / 3)
    assert curve[18]["geomean_all_tasks"] == pytest.approx((1.8 * 3.0 * 1.0) ** (1 / 3))
    s = group_summary([late, early, never])["hiera"]
    assert s["first_round_in_best_space"] == pytest.approx(0.5)
    assert s["time_split_s"]["build"] == pytest.approx(5.0) and s["time_split_s"]["other"] == pytest.approx(3.0)
    md = bench_markdown([late, early, never], bench_summary([late, early, never]), "# t")
    assert "| overall | 18 | 67% | 67% |" in md and "first round in the best's space" in md


def test_a_baseline_timed_on_another_card_than_hieras_figure_is_not_compared(tmp_path: Path, monkeypatch) -> None:
    """A task's torch.compile figure timed on another card than hiera's (a worker moved between GPUs, a baseline
    from another host) is not set beside it: no figure, status error, the reason naming both cards. Control: the
    same card's figure is kept."""
    task = tmp_path / "t.py"
    task.write_text(TASK)
    result = {"run_id": "r1", "status": "finished", "device": "cuda:0", "device_name": "NVIDIA H200", "rounds": [],
              "best": {"speedup": 2.0, "candidate_ms": 1.0}}

    def fake(card: str) -> None:
        def lines(cmd: list[str], timeout_s: float) -> tuple[list[dict], str, bool]:
            files = cmd[cmd.index("eval") + 2:cmd.index("--json")]
            return [{"candidate_file": f, "speedup": 1.1, "status": "valid", "device": "cuda:0",
                     "device_name": card} for f in files], "", False
        monkeypatch.setattr(suite_bench, "_run_json", lambda cmd, timeout_s: (result, "", False))
        monkeypatch.setattr(suite_bench, "_run_json_lines", lines)

    args = {"backend": "expert", "rounds": 1, "candidates": 1, "precision": "fp32", "task_timeout_s": 60}
    fake("NVIDIA H100 80GB HBM3")
    r = suite_bench.run_task("l1", task, "cuda:0", args, tmp_path / "out")
    assert r is not None and r.compile == {"default": None, "max-autotune": None}, r.compile
    assert r.compile_status["default"] == "error"
    assert "NVIDIA H100 80GB HBM3" in r.compile_reason["default"] and "NVIDIA H200" in r.compile_reason["default"]
    fake("NVIDIA H200")  # control
    r = suite_bench.run_task("l1", task, "cuda:0", args, tmp_path / "out2")
    assert r is not None and r.compile == {"default": 1.1, "max-autotune": 1.1}, r.compile
    assert suite_bench.other_card("cuda:0 (NVIDIA H200)", "NVIDIA H100") and not suite_bench.other_card("", "x")


def test_a_task_whose_run_is_killed_says_so() -> None:
    """An optimize (or eval) process killed before it printed its result (the OOM killer, a lost worker) leaves the
    task's row saying it was killed and by what, not an empty error."""
    lines, log, cut = suite_bench._run_json_lines(
        [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)", "optimize", "t.py"], 60)
    assert lines == [] and cut and "was killed by signal SIGKILL before it printed all its results" in log, log
    lines, log, cut = suite_bench._run_json_lines([sys.executable, "-c", "print('{\"a\": 1}')"], 60)  # control
    assert lines == [{"a": 1}] and not cut and "killed" not in log


def test_a_killed_runs_best_so_far_is_the_tasks_figure_said_to_be_one(tmp_path: Path, monkeypatch) -> None:
    """An optimize run killed before its result leaves its best so far in the store (from its first valid
    candidate on): the bench takes it as the task's figure, stopped, 'killed', and says what was left out. A run
    of the task from before this one is never taken for it (control)."""
    from engine.store import RunStore

    task = tmp_path / "t.py"
    task.write_text(TASK)
    out = tmp_path / "out"
    store = RunStore(out / "workspace" / ".hiera")
    old = store.start_run("optimize", task, "t", "h", {})
    store.set_best_so_far(old, {"speedup": 9.0, "candidate_ms": 1.0, "reference_ms": 9.0, "round": 1})
    killed, cut = "optimize t.py was killed by signal SIGKILL before it printed all its results", True
    args = {"backend": "expert", "rounds": 1, "candidates": 1, "precision": "fp32", "task_timeout_s": 60,
            "compile": False}

    def run(cmd: list[str], timeout_s: float) -> tuple[None, str, bool]:
        if with_best:
            rid = store.start_run("optimize", task, "t", "h", {})
            store.set_best_so_far(rid, {"speedup": 2.5, "candidate_ms": 2.0, "reference_ms": 5.0, "round": 2,
                                        "candidate_id": "r2c1-abc"})
        return None, killed, cut

    monkeypatch.setattr(suite_bench, "_run_json", run)
    with_best = False  # control: only the earlier run's best is there
    r = suite_bench.run_task("l1", task, "cpu", args, out)
    assert r is not None and not r.valid and killed in (r.error or ""), r
    with_best = True
    r = suite_bench.run_task("l1", task, "cpu", args, out)
    assert r is not None and r.valid and r.speedup == 2.5 and (r.status, r.stop_reason) == ("stopped", "killed"), r
    assert killed in r.left_out[0] and "best so far (round 2" in r.left_out[0], r.left_out
    # A run that failed by itself (a traceback, no signal) is that run's error, whatever it had recorded.
    killed, cut = "Traceback (most recent call last): ... RuntimeError: boom", False
    r = suite_bench.run_task("l1", task, "cpu", args, out)
    assert r is not None and not r.valid and "boom" in (r.error or ""), r
    assert suite_bench.other_card("NVIDIA H200", "NVIDIA H100") and not suite_bench.other_card("cuda:0", "NVIDIA H200")
