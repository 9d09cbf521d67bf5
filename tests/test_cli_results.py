"""One result file per run, and what the run says about it: a stopped run writes nothing beside the task and
names where its best is; the run's finish (after --resume) writes one result, replacing what an earlier
session of the same run wrote; other files are numbered with _2 (an importable module name); a best that is
not faster exits 3; a torch.compile best says its first-call cost; a round of 1 says 1/1. With the stand-in
evaluator of test_cli_loop (seconds, no worker)."""

from __future__ import annotations

import argparse
import json

import pytest

from engine.cli import EXIT_INVALID, EXIT_NOT_WRITTEN, EXIT_OK, main
from engine.commands.optimize import ending, exit_status
from engine.evaluate.outcome import Candidate, CandidateKind
from engine.store import RunStore
from engine.task.export import free_pair, run_mark
from tests.cli_kit import flat
from tests.test_cli_loop import FakeEvaluator, Generated, make, spec_path, stand_in  # noqa: F401  (fixtures)

ARGS = argparse.Namespace(workspace=None)


def _files(folder):
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_stopped_run_writes_its_best_so_far_and_its_resumed_finish_replaces_it(tmp_path, spec_path):  # noqa: F811
    out = tmp_path / "results"
    FakeEvaluator.interrupt_at = {"r1c2"}
    lp, store, _ = make(tmp_path, spec_path, {1: [0.5, 0.8], 2: [0.4, 0.7]}, results_dir=out)
    stopped = lp.run(lp.start("generated"))
    assert stopped.status == "stopped" and stopped.stop_reason == "interrupted"
    # the round the stop cut short is in the result with what it finished, marked partial
    assert [(r.round, r.partial, [o.candidate_id[:4] for o in r.outcomes]) for r in stopped.rounds] == \
        [(1, True, ["r1c1"])]
    assert stopped.best is not None and stopped.best.paths is not None and not stopped.best.retimed
    assert _files(out) == ["scale_bias_relu_hiera.cpp", "scale_bias_relu_hiera.py"]  # the best so far, written
    head = (out / "scale_bias_relu_hiera.py").read_text()
    assert "its first pair; not re-timed" in head  # the file says its figure was not timed again
    # ... and the run's best-so-far copy and the store name it too (what a run killed outright leaves)
    kept = store.run_dir(stopped.run_id) / "best-so-far"
    assert _files(kept) == ["scale_bias_relu_hiera.cpp", "scale_bias_relu_hiera.py"]
    assert store.run(stopped.run_id)["best_so_far"]["candidate_id"] == stopped.best.candidate_id
    said = flat("\n".join(text for _style, text in ending(stopped, ARGS, store)))
    assert f"best so far: {stopped.best.candidate_id}, 2." in said and "its first pair" in said
    assert "stopped (Ctrl-C)" in said and "wrote " in said
    assert f"continue with: hiera optimize --resume {stopped.run_id}" in said

    lp2, _, _ = make(tmp_path, spec_path, {1: [0.5, 0.8], 2: [0.4, 0.7]}, results_dir=out)
    state, first = lp2.resume(stopped.run_id)
    done = lp2.run(state, first)
    assert done.status == "finished" and _files(out) == ["scale_bias_relu_hiera.cpp", "scale_bias_relu_hiera.py"]
    assert run_mark(done.run_id) in (out / "scale_bias_relu_hiera.py").read_text().splitlines()[0]
    assert exit_status(done) == EXIT_OK


def test_a_run_replaces_the_result_an_earlier_session_of_it_wrote_and_numbers_others_with_an_underscore(
        tmp_path, spec_path):  # noqa: F811
    out = tmp_path / "results"
    out.mkdir()
    (out / "scale_bias_relu_hiera.py").write_text('"""a result of another run"""\n')  # not this run's: kept
    lp, _store, _ = make(tmp_path, spec_path, {1: [0.5, 0.8], 2: [0.4, 0.7]}, results_dir=out, rounds=1)
    state = lp.start("generated")
    first = lp.run(state)
    assert first.best.paths.py.endswith("scale_bias_relu_hiera_2.py")
    # The same run finishing again (as a resumed run does) writes over its own files, not a third pair.
    again = lp.write_results(state.best, state.run_id)
    assert again.py == first.best.paths.py and again.cu == first.best.paths.cu
    assert _files(out) == ["scale_bias_relu_hiera.py", "scale_bias_relu_hiera_2.cpp", "scale_bias_relu_hiera_2.py"]
    assert (out / "scale_bias_relu_hiera.py").read_text() == '"""a result of another run"""\n'
    assert "scale_bias_relu_hiera_2".isidentifier()


def test_free_names_are_numbered_with_an_underscore(tmp_path):
    for name in ("k_hiera.py", "k_hiera_2.cu"):
        (tmp_path / name).write_text("")
    py, cu = free_pair(tmp_path, "k_hiera", ".cu")
    assert (py.name, cu.name) == ("k_hiera_3.py", "k_hiera_3.cu")


def test_a_best_not_faster_than_eager_is_kept_aside_and_exits_3(tmp_path, spec_path, capsys):  # noqa: F811
    lp, store, _ = make(tmp_path, spec_path, {1: [2.0]}, rounds=1, candidates=1, results_dir=tmp_path / "results")
    result = lp.run(lp.start("generated"))
    assert result.best.verdict == "slower" and exit_status(result) == EXIT_NOT_WRITTEN
    assert _files(tmp_path / "results") == []
    said = flat("\n".join(text for _style, text in ending(result, ARGS, store)))
    assert ("not delivered: its figure is 2.0x slower, slower than eager (1.9–2.1x slower at 95%, all of it below "
            "1)") in said, said
    assert "best: 2.0x slower, slower than eager" in said, said  # a slowdown by its own size, never 0.50x
    assert f"(exit status {EXIT_NOT_WRITTEN}); kept in the run's folder with the reason" in said
    assert "not-delivered/scale_bias_relu_hiera.py" in said


def test_exit_status_without_a_valid_candidate_is_1(tmp_path, spec_path):  # noqa: F811
    lp, _store, _ = make(tmp_path, spec_path, {1: []}, rounds=1, candidates=2)
    assert exit_status(lp.run(lp.start("generated"))) == EXIT_INVALID


def test_a_round_of_fewer_candidates_than_asked_counts_what_it_holds(tmp_path, spec_path):  # noqa: F811
    lp, _store, events = make(tmp_path, spec_path, {1: [0.5], 2: [0.5, 0.6, 0.7]}, rounds=2, candidates=3,
                              results_dir=tmp_path / "results")
    lp.run(lp.start("generated"))
    finished = [(e["round"], e["index"], e["of"]) for e in events if e["event"] == "candidate_finished"]
    assert finished == [(1, 1, 1), (2, 1, 3), (2, 2, 3), (2, 3, 3)]


class CompiledBest(Generated):
    """One ModelNew candidate that compiles itself with torch.compile (the stand-in reads its `ms=`)."""

    def generate(self, ctx, space, strategy, k):
        source = "class ModelNew:\n    def forward(self, x):\n        return torch.compile(f)(x)\n# ms=0.5"
        return [Candidate("g1", CandidateKind.MODELNEW, source, None, "generated", "n")]


def test_a_torch_compile_best_says_what_its_first_call_costs(tmp_path, spec_path):  # noqa: F811
    from engine.evaluate.pipeline import EvalSettings
    from engine.loop import Loop, LoopSettings
    from tests.test_cli_loop import _spec

    store = RunStore.for_workspace(tmp_path)
    settings = LoopSettings(rounds=1, candidates=1, profile=False, eval=EvalSettings(device="cpu"),
                            results_dir=tmp_path / "results")
    lp = Loop(_spec(spec_path), CompiledBest({}), store, tmp_path / ".hiera" / "task", settings)
    result = lp.run(lp.start("generated"))
    assert result.best.paths.cu is None and "first call compiles the forward with torch.compile" in \
        result.best.first_import
    said = flat("\n".join(text for _style, text in ending(result, ARGS, store)))
    assert "scale_bias_relu_hiera.py: its first call compiles the forward with torch.compile (20-45 s" in said


def test_report_lists_evaluations_apart_from_optimize_runs(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    store = RunStore.for_workspace(tmp_path)
    opt = store.start_run("optimize", tmp_path / "t.py", "t", "h", {"budget": 6}, backend="expert", device="cpu")
    best = {"candidate_id": "r1c1-a", "speedup": 2.5, "candidate_ms": 0.4, "reference_ms": 1.0, "retimed": True,
            "spread": 0.05, "verdict": "faster", "round": 1, "space": "pure_cuda", "direction": "R", "flags": [],
            "paths": None, "first_import": None}
    store.finish_run(opt, "finished", {"best": best})
    ev = store.start_run("eval", tmp_path / "t.py", "t", "h", {"candidate": str(tmp_path / "k.cpp")}, device="cpu")
    store.finish_run(ev, "finished", {"status": "valid", "figure": {"speedup": 1.5, "verdict": "level"}})
    assert main(["report", "--list", "--workspace", str(tmp_path)]) == 0
    err = flat(capsys.readouterr().err)
    runs, evals = err.split("evaluations of given candidates (hiera eval): 1")
    assert "optimize runs: 1" in runs and opt in runs and "2.50x faster" in runs and ev not in runs
    assert ev in evals and "k.cpp" in evals and "1.50x level" in evals
    assert main(["report", "--list", "--workspace", str(tmp_path), "--json"]) == 0
    kinds = {r["id"]: r["kind"] for r in json.loads(capsys.readouterr().out)["runs"]}
    assert kinds == {opt: "optimize", ev: "eval"}
    assert main(["report", "--workspace", str(tmp_path)]) == 0  # the default report: the optimize run
    shown = flat(capsys.readouterr().err)
    assert f"run {opt}" in shown and "round 1 · native C++" in shown  # a CPU run's space in CPU words


@pytest.mark.parametrize("flag, words", [
    ("excessive_speedup: 17.0x (every timed call ran on new inputs and a sample of them was checked)",
     "flagged: over 10x — check before trusting (17.0x (every timed call ran on new inputs"),
])
def test_flags_reach_the_final_lines_and_the_report(tmp_path, spec_path, capsys, flag, words):  # noqa: F811
    from dataclasses import replace

    lp, store, _ = make(tmp_path, spec_path, {1: [0.5]}, rounds=1, candidates=1, results_dir=tmp_path / "results")
    result = lp.run(lp.start("generated"))
    flagged = replace(result, best=replace(result.best, flags=[flag]))
    assert words in flat("\n".join(text for _style, text in ending(flagged, ARGS, store)))
    row = store.candidates(result.run_id)[0]
    with store.tx() as c:
        c.execute("UPDATE candidates SET flags=? WHERE id=?", (json.dumps([flag]), row["id"]))
        c.execute("UPDATE runs SET summary=? WHERE id=?", (json.dumps(flagged.to_json()), result.run_id))
    assert main(["report", result.run_id, "--workspace", str(tmp_path)]) == 0
    err = flat(capsys.readouterr().err)
    assert err.count("flagged: over 10x — check before trusting") == 2  # the best, and its candidate's row
