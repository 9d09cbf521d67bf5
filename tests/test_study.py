"""`hiera study`: variants, cells and their resumption, the miss rate on a synthetic store, the spread over
repeats, the reports, and one real 2-variant x 2-task study on the CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import study
from engine.bench_render import study_markdown, study_plot
from engine.bench_stats import miss_rate, study_summary, variant_summary
from engine.study import (
    CellResult,
    parse_variants,
    plan_cells,
    round_verdicts,
    run_study,
    stall_verdict,
    variant_flags,
)
from tests.conftest import TASKS

ROOT = Path(__file__).resolve().parents[1]


# --- variants -------------------------------------------------------------------------------------------

def test_variants_map_onto_the_optimize_flags_and_bad_lists_are_refused() -> None:
    vs = parse_variants("adaptive, pure_cuda,no_planning+no_contract")
    assert vs == ["adaptive", "pure_cuda", "no_planning+no_contract"]
    assert variant_flags("adaptive") == []
    assert variant_flags("pure_cuda") == ["--space", "pure_cuda"]
    assert variant_flags("no_planning+no_contract") == ["--no-planning", "--no-contract"]
    assert variant_flags("cuda_libraries+no_planning") == ["--space", "cuda_libraries", "--no-planning"]
    for bad in ("adaptive,warp_magic", "pure_cuda+cuda_libraries", "adaptive+no_planning", "no_planning,no_planning",
                "no_contract+no_contract", ""):
        with pytest.raises(study.VariantError):
            parse_variants(bad)


def test_every_default_variant_is_accepted_by_hiera_optimize() -> None:
    from engine.cli import build_parser

    for v in study.DEFAULT_VARIANTS:
        args = build_parser().parse_args(["optimize", "t.py", *variant_flags(v)])
        assert args.space == ("auto" if not any(s in v for s in study.SPACE_VARIANTS) else v.split("+")[0])
        assert args.no_planning == ("no_planning" in v) and args.no_contract == ("no_contract" in v)


def test_cells_run_repeat_then_task_then_variant() -> None:
    tasks = [("l1", Path("a.py")), ("l2", Path("b.py"))]
    names = [c.name for c in plan_cells(tasks, ["adaptive", "pure_cuda"], 2)]
    assert names[:4] == ["adaptive__l1__a__r0", "pure_cuda__l1__a__r0", "adaptive__l2__b__r0", "pure_cuda__l2__b__r0"]
    assert len(names) == 8 and len(set(names)) == 8 and names[-1] == "pure_cuda__l2__b__r1"


# --- resumption (run_cell faked) --------------------------------------------------------------------------------

def _suite(tmp_path: Path, n: int) -> Path:
    root = tmp_path / "suite"
    (root / "cpu").mkdir(parents=True)
    for i in range(n):
        (root / "cpu" / f"{i:02d}_task.py").write_text((TASKS / "relu_positive.py").read_text())
    return root


def _fake_run_cell(calls: list[str], sleep_s: float = 0.0, status: str = "finished"):
    def run_cell(cell, device, args, out):
        calls.append(cell.name)
        time.sleep(sleep_s)
        sp = 2.0 if cell.variant == "adaptive" else 0.5
        return CellResult(cell.path.stem, str(cell.path), cell.level, valid=True, speedup=sp, trajectory=[sp],
                          optimize_wall_s=1.0, variant=cell.variant, repeat=cell.repeat, run_status=status)
    return run_cell


def test_a_stopped_study_resumes_without_running_finished_cells_again(tmp_path: Path, monkeypatch) -> None:
    root, out = _suite(tmp_path, 2), tmp_path / "out"
    calls: list[str] = []
    monkeypatch.setattr(study, "run_cell", _fake_run_cell(calls, sleep_s=0.3))
    cells, done = run_study(root, out, ["adaptive", "pure_cuda"], ["cpu"], {"code_version": "x"},
                            deadline=time.monotonic() + 0.1)
    assert calls == ["adaptive__cpu__00_task__r0"] and list(done) == calls and len(cells) == 4
    assert sorted(f.name for f in (out / "cells").iterdir()) == ["adaptive__cpu__00_task__r0.json"]
    first = (out / "cells" / "adaptive__cpu__00_task__r0.json").read_text()
    calls.clear()
    cells, done = run_study(root, out, ["adaptive", "pure_cuda"], ["cpu"], {"code_version": "x"})
    assert calls == ["pure_cuda__cpu__00_task__r0", "adaptive__cpu__01_task__r0", "pure_cuda__cpu__01_task__r0"]
    assert len(done) == 4 and (out / "cells" / "adaptive__cpu__00_task__r0.json").read_text() == first
    calls.clear()
    _, again = run_study(root, out, ["adaptive", "pure_cuda"], ["cpu"], {"code_version": "x"}, repeat=2, run=False)
    assert calls == [] and len(again) == 4  # report only: nothing runs, the repeats not run are simply missing


def test_a_cell_stopped_from_outside_or_half_written_is_not_finished(tmp_path: Path, monkeypatch) -> None:
    root, out = _suite(tmp_path, 1), tmp_path / "out"
    calls: list[str] = []
    monkeypatch.setattr(study, "run_cell", _fake_run_cell(calls, status="stopped"))
    _, done = run_study(root, out, ["adaptive"], ["cpu"], {"code_version": "x"})
    assert calls == ["adaptive__cpu__00_task__r0"] and done == {}
    (out / "cells" / "adaptive__cpu__00_task__r0.json").write_text('{"task": "00_ta')  # killed mid-write
    calls.clear()
    monkeypatch.setattr(study, "run_cell", _fake_run_cell(calls))
    _, done = run_study(root, out, ["adaptive"], ["cpu"], {"code_version": "x"})
    assert calls == ["adaptive__cpu__00_task__r0"] and len(done) == 1


def test_variants_are_compared_only_on_the_cells_every_variant_finished(tmp_path: Path, monkeypatch) -> None:
    root, out = _suite(tmp_path, 2), tmp_path / "out"
    monkeypatch.setattr(study, "run_cell", _fake_run_cell([]))
    cells, done = run_study(root, out, ["adaptive", "pure_cuda"], ["cpu"], {"code_version": "x"})
    del done["pure_cuda__cpu__01_task__r0"]
    s = study_summary(cells, done, ["adaptive", "pure_cuda"])
    assert s["matched_tasks"] == 1 and s["unmatched_cells"] == ["adaptive__cpu__01_task__r0"]
    assert s["variants"]["adaptive"]["cells"] == s["variants"]["pure_cuda"]["cells"] == 1


# --- the miss rate ----------------------------------------------------------------------------------------------

def _profile(stalls: dict[str, float], rule: tuple[str, str, float] | None = None, **kw):
    from contracts.profile import KernelProfile, Profile, RuleResult
    from engine.profile.directions import bottleneck

    rules = (RuleResult(rule[0], "OPT", rule[1], rule[2], "global"),) if rule else ()
    k = KernelProfile(name="k", duration_us=10.0, warp_stalls=stalls, rules=rules, **kw)
    return Profile(kernels=(k,), bottleneck=bottleneck([k]))


def test_the_stall_verdict_weights_kernels_by_time_and_names_stalls_that_fit_no_direction() -> None:
    from contracts.profile import KernelProfile, Profile

    assert stall_verdict(None) is None and stall_verdict({"kernels": []}) is None
    assert stall_verdict(_profile({"math_pipe_throttle": 5.0, "barrier": 1.0, "selected": 9.0}).to_json()) == \
        {"stall": "math_pipe_throttle", "share": pytest.approx(5 / 6, abs=1e-4), "direction": "T"}
    assert stall_verdict(_profile({"misc": 4.0, "wait": 1.0}).to_json())["direction"] is None  # misc: no direction
    # Waiting on global memory with uncoalesced accesses is M; a long kernel outweighs a short one.
    slow = KernelProfile(name="slow", duration_us=90.0, warp_stalls={"long_scoreboard": 8.0, "wait": 1.0},
                         global_sectors=200, global_sectors_ideal=100)  # half the sectors excess
    fast = KernelProfile(name="fast", duration_us=10.0, warp_stalls={"barrier": 9.0, "wait": 0.1})
    v = stall_verdict(Profile(kernels=(slow, fast)).to_json())
    assert v["stall"] == "long_scoreboard" and v["direction"] == "M"


def test_round_verdicts_follow_the_parent_profile_through_a_synthetic_store(tmp_path: Path) -> None:
    from contracts.vocabulary import Space
    from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status
    from engine.loop import _bottleneck_text
    from engine.store import RunStore

    store = RunStore.for_workspace(tmp_path)
    run = store.start_run("optimize", Path("t.py"), "t", "h", {})
    ref = _profile({"long_scoreboard": 6.0, "wait": 1.0},
                   ("UncoalescedGlobalAccess", "uncoalesced global loads", 40.0),
                   global_sectors=250, global_sectors_ideal=100)
    best = _profile({"math_pipe_throttle": 5.0, "misc": 1.0}, ("LaunchConfiguration", "small grid", 30.0))
    odd = _profile({"misc": 5.0}, ("SomeNewRule", "advice no direction owns", 50.0))
    store.record_profile(run, "reference", ref.to_json())
    for r, cid in ((1, "r1c1"), (2, "r2c1")):
        store.record_candidate(run, Candidate(cid, CandidateKind.CPP, "src", Space.PURE_CUDA),
                               Outcome(cid, Status.VALID, "ok"), r, 1)
    store.record_profile(run, "r1c1", best.to_json())  # round 1's best: round 2's parent
    store.record_profile(run, "r2c1", odd.to_json())  # round 2's best: round 3's parent
    for r, d, parent, prof in ((1, "M", None, ref), (2, "T", "r1c1", best), (3, "T", "r2c1", odd)):
        store.record_decision(run, r, "pure_cuda", {}, {}, d, "s", "why", parent, _bottleneck_text(prof))
    rounds = round_verdicts(store, run)
    assert [(x["rule"], x["rule_direction"], x["stall"], x["stall_direction"]) for x in rounds] == [
        ("UncoalescedGlobalAccess", "M", "long_scoreboard", "M"),
        ("LaunchConfiguration", "P", "math_pipe_throttle", "T"),
        ("SomeNewRule", None, "misc", None)]
    m = miss_rate(rounds)
    assert m["rounds"] == m["profiled_rounds"] == 3
    assert m["rules"] == {"verdicts": 3, "judged": 2, "matched": 1, "match_rate": 0.5, "miss_rate": 0.5,
                          "fits_none": {"SomeNewRule": 1}, "no_verdict": 0,
                          "chosen_vs_measured": {"M->M": 1, "T->P": 1}}
    assert m["stalls"]["matched"] == 2 and m["stalls"]["judged"] == 2 and m["stalls"]["miss_rate"] == 0.0
    assert m["stalls"]["fits_none"] == {"misc": 1}
    assert m["either"] == {"judged": 2, "matched": 2, "match_rate": 1.0}
    # The rule half agrees with what `hiera report` prints as the direction match.
    from engine.commands.report import direction_match

    assert direction_match(store.decisions(run))["match_rate"] == m["rules"]["match_rate"]


def test_without_profiles_the_miss_rate_is_not_judged_rather_than_zero() -> None:
    rounds = [{"round": 1, "space": "pure_cuda", "direction": "P", "profiled": False, "rule": None,
               "rule_direction": None, "stall": None, "stall_share": None, "stall_direction": None}]
    m = miss_rate(rounds)
    assert m["profiled_rounds"] == 0 and m["rules"]["miss_rate"] is None and m["stalls"]["match_rate"] is None
    cell = CellResult("t", "t.py", "cpu", valid=True, speedup=1.5, trajectory=[1.5], variant="adaptive", rounds=rounds)
    summ = {"matched_pairs": 1, "matched_tasks": 1, "repeats": [0], "cells_finished": 1, "cells_total": 1,
            "unmatched_cells": [], "variants": {"adaptive": variant_summary([cell], [0])}}
    md = study_markdown(summ, "# t")
    assert "| adaptive | 1 | 0 | not judged |" in md and "This is not a 0% miss rate" in md
    assert "0%" not in md.split("## Taxonomy")[1].split("## Cost")[0].replace("not a 0% miss", "")


# --- variance, fast_p, cost ----------------------------------------------------------------------------------------

def _cell(level: str, task: str, repeat: int, speedup: float | None, traj: list[float | None], **kw) -> CellResult:
    return CellResult(task, f"{task}.py", level, valid=speedup is not None, speedup=speedup, trajectory=traj,
                      optimize_wall_s=10.0 + repeat, variant="adaptive", repeat=repeat, **kw)


def test_the_spread_over_repeats_per_task_and_of_fast_1_per_level() -> None:
    cells = [_cell("l1", "a", 0, 1.2, [0.5, 1.2]), _cell("l1", "a", 1, 0.9, [0.9]), _cell("l1", "a", 2, 1.5, [1.5]),
             _cell("l1", "b", 0, 3.0, [3.0]), _cell("l1", "b", 1, None, [None]), _cell("l1", "b", 2, 2.5, [2.5]),
             _cell("l2", "c", 0, 1.1, [1.1]), _cell("l2", "c", 1, 1.1, [1.1]), _cell("l2", "c", 2, 0.8, [0.8])]
    s = variant_summary(cells, [0, 1, 2])
    a = s["tasks"]["l1/a"]
    assert a["speedups"] == [1.2, 0.9, 1.5] and a["min"] == 0.9 and a["max"] == 1.5
    assert a["stdev"] == pytest.approx(0.3) and a["mean"] == pytest.approx(1.2)
    b = s["tasks"]["l1/b"]
    assert b["speedups"] == [3.0, None, 2.5] and b["invalid"] == 1 and b["n"] == 2
    assert s["fast_1_by_level"]["l1"]["fast_1_by_repeat"] == [1.0, 0.0, 1.0]  # repeat 1: 0.9x and invalid
    assert s["fast_1_by_level"]["l1"]["stdev"] == pytest.approx(0.57735, abs=1e-4)
    assert s["fast_1_by_level"]["l2"]["fast_1_by_repeat"] == [1.0, 1.0, 0.0]
    assert s["speedup"]["n"] == 8 and s["speedup"]["max"] == 3.0 and s["invalid"] == 1
    b1 = s["fast_at_budget"][0]
    assert b1["budget"] == 1 and b1["fast_1_by_repeat"] == pytest.approx([2 / 3, 1 / 3, 2 / 3])
    assert b1["fast_2_by_repeat"] == pytest.approx([1 / 3, 0.0, 1 / 3])
    assert s["fast_at_budget"][1]["fast_1_by_repeat"][0] == pytest.approx(1.0)  # B=6 reaches a's 1.2x
    assert s["cost"]["wall_s_total"] == pytest.approx(99.0) and s["cost"]["cost_usd"] is None


def test_cost_sums_tokens_and_dollars_when_a_model_ran() -> None:
    cells = [_cell("l1", "a", 0, 1.2, [1.2], backend="llm", tokens={"prompt": 100, "completion": 40}, cost_usd=0.01),
             _cell("l1", "b", 0, 1.3, [1.3], backend="llm", tokens={"prompt": 50, "completion": 10}, cost_usd=0.02)]
    c = variant_summary(cells, [0])["cost"]
    assert (c["tokens_prompt"], c["tokens_completion"]) == (150, 50) and c["cost_usd"] == pytest.approx(0.03)


def test_the_figure_is_written(tmp_path: Path) -> None:
    cells = [_cell("l1", t, 0, s, [s]) for t, s in (("a", 1.2), ("b", 3.0), ("c", None))]
    other = [CellResult(**{**c.__dict__, "variant": "pure_cuda", "speedup": 0.7 if c.valid else None}) for c in cells]
    summ = {"matched_tasks": 3, "repeats": [0],
            "variants": {"adaptive": variant_summary(cells, [0]), "pure_cuda": variant_summary(other, [0])}}
    study_plot(summ, cells + other, tmp_path / "s.png")
    assert (tmp_path / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and (tmp_path / "s.png").stat().st_size > 5000


# --- the CLI on the CPU, for real -----------------------------------------------------------------------------------

def _study(root: Path, out: Path, *extra: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", "study", str(root), "--variants", "adaptive,pure_cuda",
                           "--budget", "1", "--candidates", "1", "--device", "cpu", "--out", str(out), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                          env={**os.environ, "COLUMNS": "300"})


@pytest.mark.slow
def test_a_two_variant_two_task_study_on_the_cpu_stops_resumes_and_reports(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    (root / "cpu").mkdir(parents=True)
    for name in ("relu_positive", "scale_bias_relu"):
        (root / "cpu" / f"{name}.py").write_text((TASKS / f"{name}.py").read_text())
    out = tmp_path / "out"
    p = _study(root, out, "--stop-after", "1")  # the first cell starts, no other after a second
    assert p.returncode == 0, p.stderr[-3000:]
    first = sorted((out / "cells").glob("*.json"))
    assert [f.name for f in first] == ["adaptive__cpu__relu_positive__r0.json"]
    kept = first[0].read_text()
    assert "1 of 4 cells finished" in (out / "study.md").read_text()
    p = _study(root, out, "--json")
    assert p.returncode == 0, p.stderr[-3000:]
    doc = json.loads(p.stdout.strip().splitlines()[-1])
    assert first[0].read_text() == kept  # not run again
    assert doc["finished"] == doc["of"] == 4 and doc["variants"] == ["adaptive", "pure_cuda"]
    assert {(c["variant"], c["task"]) for c in doc["cells"]} == {
        (v, t) for v in ("adaptive", "pure_cuda") for t in ("relu_positive", "scale_bias_relu")}
    for c in doc["cells"]:
        assert c["run_status"] == "finished" and c["run_id"] and c["backend"] == "expert"
        assert len(c["trajectory"]) == 1 and c["rounds"] and c["rounds"][0]["profiled"] is False
        assert c["valid"] == (c["speedup"] is not None)
    for c in doc["cells"]:  # each variant and repeat writes its bests to a folder of its own
        if c["valid"]:
            assert list((out / "results" / c["variant"] / "r0" / c["task"]).glob("*_hiera.py"))
    pure = [c for c in doc["cells"] if c["variant"] == "pure_cuda"]
    assert all(r["space"] == "pure_cuda" for c in pure for r in c["rounds"])
    s = doc["summary"]
    assert s["matched_tasks"] == 2 and s["repeats"] == [0]
    for v in ("adaptive", "pure_cuda"):
        vs = s["variants"][v]
        assert vs["cells"] == 2 and [pt["budget"] for pt in vs["fast_at_budget"]] == [1, 6, 12, 18]
        assert set(vs["speedup"]) >= {"mean", "median", "variance", "max"}
        assert vs["taxonomy"]["profiled_rounds"] == 0 and vs["taxonomy"]["rules"]["miss_rate"] is None
        assert vs["cost"]["wall_s_total"] > 0 and vs["cost"]["candidates_mean"] == 1.0
    md = (out / "study.md").read_text()
    assert "4 of 4 cells finished" in md and "not judged" in md and "| pure_cuda | 18 |" in md
    assert (out / "study.png").stat().st_size > 5000
    # Another budget in the same folder would compare variants at different budgets: refused.
    p = _study(root, out, "--budget", "2")
    assert p.returncode == 2 and "other settings" in p.stderr
    # Report only: nothing runs, the same numbers.
    p = _study(root, out, "--report-only", "--json", timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    again = json.loads(p.stdout.strip().splitlines()[-1])
    assert again["summary"]["variants"] == doc["summary"]["variants"]


def test_the_stall_verdict_on_real_h200_recordings() -> None:
    """tests/data/ncu: one kernel per designed bottleneck, recorded by Nsight Compute on an H200."""
    from engine.profile import profile_from_launches
    from engine.profile.csv_pages import launches_from_csv

    rec = ROOT / "tests" / "data" / "ncu"
    if not (rec / "uncoalesced" / "raw.csv").exists():
        pytest.skip("no ncu recordings in tests/data/ncu")

    def verdict(name: str) -> dict:
        pages = [(rec / name / f).read_text() if (rec / name / f).exists() else ""
                 for f in ("raw.csv", "details.csv", "source.csv")]
        return stall_verdict(profile_from_launches(launches_from_csv(*pages)).to_json())

    assert verdict("uncoalesced") == {"stall": "long_scoreboard", "share": pytest.approx(0.89, abs=0.02),
                                      "direction": "M"}
    assert verdict("bank_conflicts")["stall"] == "mio_throttle" and verdict("bank_conflicts")["direction"] == "M"
    assert verdict("low_occupancy")["direction"] == "P"  # waits on memory with too few warps to hide it
    assert verdict("torch_reference")["direction"] == "R"  # PyTorch's own kernels, coalesced, streaming


def test_a_cell_reads_its_backend_tokens_dollars_and_status_from_the_run_store(tmp_path: Path) -> None:
    from engine.store import RunStore

    store = RunStore.for_workspace(tmp_path)
    run = store.start_run("optimize", Path("t.py"), "t", "h", {}, backend="llm")
    store.record_decision(run, 1, "pure_cuda", {}, {}, "M", "s", "why")
    store.finish_run(run, "finished", {"tokens": {"prompt": 1200, "completion": 300}, "cost_usd": 0.0042})
    store.close()
    got = study._cost_and_rounds(tmp_path, run)
    assert got["backend"] == "llm" and got["run_status"] == "finished"
    assert got["tokens"] == {"prompt": 1200, "completion": 300} and got["cost_usd"] == pytest.approx(0.0042)
    assert [r["direction"] for r in got["rounds"]] == ["M"] and got["rounds"][0]["profiled"] is False
    assert study._cost_and_rounds(tmp_path / "nothing", run) == {}  # no store there: none created
    assert not (tmp_path / "nothing").exists()


# --- adaptive cells taken from a bench (engine/study_seed.py) --------------------------------------------------

def _fake_bench(tmp_path: Path, task: Path, flags: list[str], *, status: str = "finished",
                hash_of: Path | None = None, **fields) -> Path:
    """A `hiera bench --out` folder holding one finished task run with FLAGS, its run in the store."""
    import hashlib
    from dataclasses import asdict

    from engine.bench_records import TaskResult
    from engine.store import RunStore

    bench = tmp_path / "bench"
    store = RunStore.for_workspace(bench / "workspace")
    h = hashlib.sha256((hash_of or task).read_bytes()).hexdigest()[:16]
    run = store.start_run("optimize", task, task.stem, h, {}, backend="expert")
    store.record_decision(run, 1, "pure_cuda", {}, {}, "M", "s", "why")
    store.finish_run(run, status, {})
    store.close()
    r = TaskResult(task.stem, str(task), "cpu", valid=True, speedup=1.5, compile={"default": 1.2}, wall_s=50.0,
                   optimize_wall_s=20.0, run_id=run, status="finished", optimize_flags=flags,
                   **{"device": "cpu", **fields})
    (bench / "tasks").mkdir(parents=True)
    (bench / "tasks" / f"cpu__{task.stem}.json").write_text(json.dumps(asdict(r)))
    return bench


def test_a_bench_run_with_the_cells_flags_is_taken_as_the_adaptive_cell_and_nothing_else_is(tmp_path: Path
                                                                                             ) -> None:
    from engine import suite_bench
    from engine.bench_records import Cell
    from engine.study import cell_args
    from engine.study_seed import seed_adaptive

    task = tmp_path / "suite" / "cpu" / "relu_positive.py"
    task.parent.mkdir(parents=True)
    task.write_text((TASKS / "relu_positive.py").read_text())
    args = {"backend": "expert", "rounds": 3, "candidates": 6, "precision": "fp32", "no_profile": False,
            "optimize_flags": ["--shapes", "contract"]}

    def flags(a: dict) -> list[str]:
        out = tmp_path / "s"
        return suite_bench.run_flags(suite_bench.optimize_command(task, "cpu", cell_args(Cell("adaptive", "cpu", task,
                                                                                               0), a, out), out))

    cases = {  # what differs from the study's cell -> the reason it is not taken (None: taken)
        "same": (flags(args), {}, None),
        "device": (flags(args), {"device": "cuda:0", "device_name": "cuda:0 (NVIDIA H100 80GB HBM3)"},
                   "measured on cuda:0"),
        "budget": (flags({**args, "rounds": 1}), {}, "ran with other flags"),
        "deadline": (flags({**args, "optimize_flags": [*args["optimize_flags"], "--deadline", "60.0"]}), {},
                     "ran with other flags"),
        "old": ([], {}, "did not record its optimize flags"),
        "stopped": (flags(args), {"status": "stopped"}, "is stopped, not finished"),
        "edited": (flags(args), {"hash_of": TASKS / "scale_bias_relu.py"}, "task file has changed"),
    }
    for name, (fl, kw, why) in cases.items():
        base = tmp_path / name
        bench = _fake_bench(base, task, fl, **kw)
        out = base / "study"
        got = seed_adaptive(bench, out, [("cpu", task)], args, "cpu")
        cell = out / "cells" / "adaptive__cpu__relu_positive__r0.json"
        if why is None:
            assert got.taken == ["adaptive__cpu__relu_positive__r0"] and not got.passed, name
            c = CellResult.from_json(json.loads(cell.read_text()))
            assert c.source == f"hiera bench {bench}" and c.variant == "adaptive" and c.repeat == 0
            assert c.speedup == 1.5 and c.compile == {} and c.wall_s == 20.0  # the baselines are not the cell's
            assert c.run_status == "finished" and [r["direction"] for r in c.rounds] == ["M"]
            # Taken once: a cell the study holds is left as it is.
            assert seed_adaptive(bench, out, [("cpu", task)], args, "cpu").taken == []
        else:
            assert not cell.exists() and not got.taken, name
            assert why in got.passed["cpu/relu_positive"], (name, got.passed)
    # On a GPU: a bench on another card, or one whose run had no profiles, is not the study's measurement.
    on_gpu = {"another card": ({"device": "cuda:0", "device_name": "cuda:0 (NVIDIA H100 80GB HBM3)"},
                               "another card"),
              "no profiles": ({"device": "cuda:0", "device_name": "cuda:0 (NVIDIA H200)",
                               "profiling": {"asked": True, "off": "no ncu on this machine"}}, "no profiles"),
              "same card": ({"device": "cuda:0", "device_name": "cuda:0 (NVIDIA H200)",
                             "profiling": {"asked": True, "off": None}}, None)}
    for name, (kw, why) in on_gpu.items():
        base = tmp_path / name.replace(" ", "_")
        bench = _fake_bench(base, task, flags(args), **kw)
        got = seed_adaptive(bench, base / "study", [("cpu", task)], args, "cuda:0", "NVIDIA H200")
        if why is None:
            assert got.taken and not got.passed, (name, got.passed)
        else:
            assert not got.taken and why in got.passed["cpu/relu_positive"], (name, got.passed)
    # A result the bench half wrote is run by the study, not a crash of it.
    broken = tmp_path / "same" / "bench" / "tasks" / "cpu__relu_positive.json"
    broken.write_text(broken.read_text()[:40])
    got = seed_adaptive(tmp_path / "same" / "bench", tmp_path / "s3", [("cpu", task)], args, "cpu")
    assert "unreadable" in got.passed["cpu/relu_positive"] and not got.taken
    # A task the bench never ran is run by the study.
    other = task.parent / "scale_bias_relu.py"
    other.write_text((TASKS / "scale_bias_relu.py").read_text())
    got = seed_adaptive(tmp_path / "same" / "bench", tmp_path / "s2", [("cpu", other)], args, "cpu")
    assert got.passed == {"cpu/scale_bias_relu": "not in the bench"}


@pytest.mark.slow
def test_a_study_takes_a_real_benchs_task_as_its_adaptive_cell_and_runs_only_the_rest(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    (root / "cpu").mkdir(parents=True)
    (root / "cpu" / "relu_positive.py").write_text((TASKS / "relu_positive.py").read_text())
    bench = tmp_path / "bench"
    p = subprocess.run([sys.executable, "-m", "engine.cli", "bench", str(root), "--budget", "1", "--candidates", "1",
                        "--device", "cpu", "--no-compile", "--out", str(bench)],
                       capture_output=True, text=True, cwd=ROOT, timeout=600, env={**os.environ, "COLUMNS": "300"})
    assert p.returncode == 0, p.stderr[-3000:]
    out = tmp_path / "out"
    p = _study(root, out, "--adaptive-from", str(bench), "--json")
    assert p.returncode == 0, p.stderr[-3000:]
    assert "took 1 adaptive cell(s)" in p.stdout + p.stderr  # the console's lines go to stderr under --json
    doc = json.loads(p.stdout.strip().splitlines()[-1])
    by = {c["variant"]: c for c in doc["cells"]}
    assert by["adaptive"]["source"] == f"hiera bench {bench}" and by["pure_cuda"]["source"] == ""
    bench_task = json.loads((bench / "tasks" / "cpu__relu_positive.json").read_text())
    assert by["adaptive"]["run_id"] == bench_task["run_id"] and by["adaptive"]["speedup"] == bench_task["speedup"]
    from engine.store import RunStore

    store = RunStore.existing(out / "workspace")  # only the pure_cuda cell ran in the study
    assert store is not None and [r["id"] for r in store.runs()] == [by["pure_cuda"]["run_id"]]
    store.close()
    assert "1 adaptive cell(s) taken from hiera bench" in (out / "study.md").read_text()
    # A bench at another budget gives nothing: the study would compare variants at different budgets.
    p = _study(root, tmp_path / "out2", "--adaptive-from", str(bench), "--budget", "2", "--stop-after", "0.001")
    assert p.returncode == 0, p.stderr[-3000:]
    said = p.stdout + p.stderr
    assert "took 0 adaptive cell(s)" in said and "ran with other flags" in said
