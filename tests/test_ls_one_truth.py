"""One truth across the views (issue 37): a cancelled run's counts are its real counts (the hover said "0 valid · 0
invalid" after a cancel where 3 were valid), and a CPU run's results name their space as what it was."""

from __future__ import annotations

from pathlib import Path

from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status, Timing
from engine.store import RunStore


def _stopped_mid_round(tmp_path: Path) -> tuple[RunStore, str]:
    """A CPU run cancelled in its first round after 4 candidates (3 valid): the engine's summary lists no complete
    round, the store holds the 4 rows."""
    from contracts.runrecord import RunResult, Tokens

    store = RunStore.for_workspace(tmp_path)
    run_id = store.start_run("optimize", tmp_path / "t.py", "t", "h", {}, backend="expert", device="cpu (x86_64)")
    store.record_decision(run_id, 1, "pure_cuda", {"P": 0.7}, {}, "P", "P.cpu_threads", "why")
    for i, status in enumerate([Status.VALID, Status.VALID, Status.INCORRECT, Status.VALID], start=1):
        valid = status is Status.VALID
        o = Outcome(f"r1c{i}", status, "ok" if valid else "out[0]: expected 1, got 2",
                    candidate=Timing.from_samples([1.0 + 0.01 * k for k in range(20)], "perf_counter") if valid
                    else None,
                    reference=Timing.from_samples([2.0 + 0.01 * k for k in range(20)], "perf_counter"),
                    device="cpu (x86_64)")
        store.record_candidate(run_id, Candidate(f"r1c{i}", CandidateKind.CPP, "// k", None), o, 1, i)
    result = RunResult(run_id, "stopped", str(tmp_path / "t.py"), "cpu (x86_64)", "expert", 2.0, None, 18, 4, 0, [],
                       Tokens(0, 0), {"total": 30.0}, None, [])
    store.finish_run(run_id, "stopped", result.to_json())
    return store, run_id


def test_a_cancelled_runs_counts_are_its_real_counts(tmp_path: Path) -> None:
    from contracts.runstore import StoreReader
    from hiera_ls.modules import ModuleClass
    from hiera_ls.results import assemble
    from hiera_ls.run_views import module_hover, outcome_counts

    _store, run_id = _stopped_mid_round(tmp_path)
    reader = StoreReader(tmp_path)
    obj = assemble(reader, reader.run(run_id), live=False)
    valid, invalid, why = outcome_counts(obj)
    assert (valid, invalid, dict(why)) == (3, 1, {"incorrect": 1})
    hover = module_hover(ModuleClass("Model", "kernelbench", 0, 0, 6, 10), obj, None, None)
    assert "3 valid · 1 invalid (incorrect 1)" in hover, hover
    # and the round reads in the CPU's words
    assert obj["rounds"][0]["space_title"] == "native C++"


def test_the_editors_progress_is_the_engines_count_with_a_heartbeat(tmp_path: Path) -> None:
    """The bar's percentage is the engine's done of total (it jumped 38 -> 66% counting candidates of K x rounds
    where a round generated fewer); a heartbeat during a long step is a new message with its seconds."""
    from contracts.runrecord import CandidateStarted, Progress, RunStarted, event_json
    from hiera_ls.job import Job
    from hiera_ls.job_events import apply_event
    from hiera_ls.job_progress import percentage

    job = Job("j", "optimize", "t", [], tmp_path, "cpu", {}, tmp_path / "log")
    apply_event(job, event_json(RunStarted("run", "t.py", "cpu", 3, 6, 18, "expert", "s.db", str(tmp_path))))
    apply_event(job, event_json(Progress(7, 10, "round 2 candidate 1/1: valid")))
    assert percentage(job, True) == 70
    apply_event(job, event_json(CandidateStarted(3, 1, 3)))
    step = apply_event(job, event_json(Progress(7, 10, "round 3 candidate 1/3: verifying and timing", 45.0)))
    # the round and candidate kept in front, as the code lens shows the message and the status bar the fields
    assert step is not None and step.message == "round 3/3 · candidate 1/3 · best - · verifying and timing (45 s)"
