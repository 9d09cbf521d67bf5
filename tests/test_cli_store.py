"""The run store as the CLI's readers see it: a run whose process is gone is shown ended, an older store gains
the new columns, and `hiera report` of a run shows its best, eager median, files and whole reasons."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from contracts.runrecord import Verdict, best_of_rows, verdict_of
from engine.cli import main
from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status, Timing
from engine.loop import figure
from engine.store import RunStore, process_start


def _dead_pid() -> int:
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def test_a_running_run_whose_process_is_gone_is_stopped_when_the_store_is_opened(tmp_path):
    store = RunStore.for_workspace(tmp_path)
    gone = store.start_run("optimize", tmp_path / "t.py", "t", "h", {})
    reused = store.start_run("optimize", tmp_path / "t.py", "t", "h", {})
    alive = store.start_run("optimize", tmp_path / "t.py", "t", "h", {})
    elsewhere = store.start_run("optimize", tmp_path / "t.py", "t", "h", {})
    with store.tx() as c:
        c.execute("UPDATE runs SET pid=? WHERE id=?", (_dead_pid(), gone))
        # our own pid, but a process that started at another time: the pid was reused, the run's process is gone
        c.execute("UPDATE runs SET proc_start=proc_start-3600 WHERE id=?", (reused,))
        c.execute("UPDATE runs SET host='another-machine', pid=? WHERE id=?", (_dead_pid(), elsewhere))
    store.close()
    again = RunStore.for_workspace(tmp_path)
    assert {r: again.run(r)["status"] for r in (gone, reused, alive, elsewhere)} == {
        gone: "stopped", reused: "stopped", alive: "running", elsewhere: "running"}
    assert "ended without finishing" in again.notices(gone)[0] and f"--resume {gone}" in again.notices(gone)[0]


def test_a_store_written_before_the_host_columns_gains_them(tmp_path):
    store = RunStore.for_workspace(tmp_path)
    store.close()
    with sqlite3.connect(tmp_path / ".hiera" / "hiera.db") as c:
        c.execute("ALTER TABLE runs DROP COLUMN host")
        c.execute("ALTER TABLE runs DROP COLUMN proc_start")
    again = RunStore.for_workspace(tmp_path)
    run_id = again.start_run("eval", tmp_path / "t.py", "t", "h", {})
    run = again.run(run_id)
    assert run["host"] and run["proc_start"] == pytest.approx(process_start(run["pid"]))


def _t(ms: float, spread: float = 0.02) -> Timing:
    return Timing.from_samples([ms * (1 + spread * f) for f in (-1.0, -0.5, 0.0, 0.5, 1.0)], "perf_counter")


def test_a_speedup_inside_its_own_timings_spread_is_level_in_either_direction():
    assert verdict_of(1.15, 0.2) is Verdict.LEVEL and verdict_of(1 / 1.15, 0.2) is Verdict.LEVEL
    assert verdict_of(1.25, 0.2) is Verdict.FASTER and verdict_of(1 / 1.25, 0.2) is Verdict.SLOWER
    fig = figure(Outcome("c", Status.VALID, "", candidate=_t(1.0, 0.3), reference=_t(1.2, 0.1)), retimed=True).to_json()
    assert fig["spread"] == pytest.approx(0.3) and fig["verdict"] == "level"
    assert fig["speedup"] == fig["reference_ms"] / fig["candidate_ms"]


LONG = ("the candidate's output differs from the reference at out[3, 1021] where every one of the seventeen "
        "trials agreed, so this reason is long enough to be wrapped over several lines in a narrow terminal: END")


def _stopped_run(tmp_path) -> tuple[RunStore, str]:
    """A run stopped before it wrote a summary: its best, eager median and reasons come from its rows."""
    store = RunStore.for_workspace(tmp_path)
    run_id = store.start_run("optimize", tmp_path / "t.py", "t", "h", {}, backend="expert", device="cpu")
    store.record_decision(run_id, 1, "pure_cuda", {"R": 0.8}, {}, "R", "R.fuse_pointwise", "why")
    rows = [("r1c1-a", _t(0.5), _t(9.07)), ("r1c2-b", _t(0.9), _t(1.0)), ("r1c3-c", _t(0.8), _t(1.1))]
    for i, (cid, cand, ref) in enumerate(rows, 1):
        o = Outcome(cid, Status.VALID, "correct", candidate=cand, reference=ref, device="cpu")
        store.record_candidate(run_id, Candidate(cid, CandidateKind.CPP, f"// {i}"), o, 1, i)
    # r1c1's 18x came from an eager pair slowed 9x; timed again on its own it reads 2.0x
    again = Outcome("r1c1-a-retimed", Status.VALID, "correct", candidate=_t(0.5), reference=_t(1.0))
    store.record_candidate(run_id, Candidate("r1c1-a-retimed", CandidateKind.CPP, "// 1"), again, 1, 0)
    store.record_candidate(run_id, Candidate("r1c4-d", CandidateKind.CPP, "// 4"),
                           Outcome("r1c4-d", Status.INCORRECT, LONG), 1, 4)
    store.set_reference(run_id, 9.07)
    store.finish_run(run_id, "stopped")
    return store, run_id


def test_report_of_a_stopped_run_shows_the_rule_best_the_eager_median_and_whole_reasons(tmp_path, monkeypatch, capsys):
    store, run_id = _stopped_run(tmp_path)
    row, retimed = best_of_rows(store.candidates(run_id))
    assert row["id"] == "r1c1-a-retimed" and retimed
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["report", run_id, "--workspace", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    flat = " ".join(err.replace("│", " ").split())
    assert "best: 2.0x, faster than eager (" in flat and "(timed again on its own)" in flat
    assert "eager: 1.1 ms, the median over the run's 3 pairs" in flat  # not the first pair's 9.07 ms
    assert "files: none (the run did not write them" in flat
    assert "model:" not in err  # the expert backend calls no model
    assert "…" not in err
    for word in LONG.split():
        assert word in flat, word


def test_report_json_holds_the_same_best_fields(tmp_path, capsys):
    import json

    _store, run_id = _stopped_run(tmp_path)
    assert main(["report", run_id, "--workspace", str(tmp_path), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    b = rep["best"]
    assert {"candidate_id", "speedup", "candidate_ms", "reference_ms", "retimed", "spread", "verdict"} <= set(b)
    assert b["candidate_id"] == "r1c1-a" and b["speedup"] == b["reference_ms"] / b["candidate_ms"]
    assert rep["rounds"][0]["best"]["speedup"] == b["speedup"] and rep["eager_median_ms"] == pytest.approx(1.1)
    assert Path(rep["candidates"][0]["source_path"]).exists()
