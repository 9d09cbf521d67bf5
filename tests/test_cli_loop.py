"""The loop's run as the CLI reports it, with a stand-in evaluator (seconds, no worker): one best figure in
every place, --budget of any size, Ctrl-C and kill -9 followed by --resume that measures nothing twice."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import ClassVar

import pytest

from contracts.device import DeviceFacts
from contracts.runrecord import best_of_rows
from engine import loop as loop_module
from engine.commands.report import build_report
from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status, Timing
from engine.evaluate.pipeline import EvalSettings
from engine.loop import Loop, LoopSettings
from engine.store import RunStore
from engine.task.spec import load_task
from tests.conftest import TASKS
from tests.scripted_backend import Scripted

ROOT = Path(__file__).resolve().parents[1]
REF_MS = 1.0


class Generated(Scripted):
    """Writes candidates whose source says how fast the stand-in evaluator will find them: `ms=...` per round."""

    def __init__(self, ms_by_round: dict[int, list[float]]):
        super().__init__([])
        self.ms_by_round = ms_by_round

    def generate(self, ctx, space, strategy, k):
        return [Candidate(f"g{i}", CandidateKind.CPP, f"// round {ctx.round} candidate {i} ms={ms}\n", None,
                          "generated", "n") for i, ms in enumerate(self.ms_by_round[ctx.round][:k], start=1)]


def _timing(ms: float) -> Timing:
    return Timing.from_samples([ms * f for f in (0.98, 0.99, 1.0, 1.01, 1.02)], "perf_counter")


class FakeEvaluator:
    """Stands in for engine.evaluate.Evaluator: an outcome from the `ms=` in each source (a re-timing reads
    `retime_ms`); `interrupt_at` raises KeyboardInterrupt instead of evaluating that candidate, once."""

    evaluated: ClassVar[list[str]] = []
    retime_ms: ClassVar[dict[str, float]] = {}
    interrupt_at: ClassVar[set[str]] = set()
    hang_at: ClassVar[tuple[str, Path] | None] = None  # (candidate id prefix, a file to create first): kill -9
    instances: ClassVar[list[FakeEvaluator]] = []

    def __init__(self, spec, workdir, settings, cache_dir=None):
        self.contract_dir = workdir / "contract"
        self.closed = False
        FakeEvaluator.instances.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self, now=False):
        self.closed = True

    device_facts = DeviceFacts()

    def ensure_worker(self):
        return self.device_facts

    def device_name(self):
        return "stand-in"

    def region_times(self, timeout_s=60.0):
        return "the stand-in times no submodules"

    warm_s = 0.0

    def evaluate(self, cands, on_outcome=None, on_start=None, admit=None, cap=None):
        outs = []
        for c in cands:
            if admit is not None and not admit(c, "evaluate"):
                continue
            if on_start:
                on_start(c)
            prefix = c.id.split("-")[0]
            if prefix in FakeEvaluator.interrupt_at:
                FakeEvaluator.interrupt_at.discard(prefix)
                raise KeyboardInterrupt
            if FakeEvaluator.hang_at and FakeEvaluator.hang_at[0] == prefix:
                FakeEvaluator.hang_at[1].write_text("ready")
                time.sleep(600)
            FakeEvaluator.evaluated.append(c.id)
            base = c.id.removesuffix("-retimed")
            ms = float(c.source.split("ms=")[1])
            if c.id.endswith("-retimed"):  # the same time again unless the test says otherwise
                ms = FakeEvaluator.retime_ms.get(base.split("-")[0], ms)
            o = Outcome(c.id, Status.VALID, "correct", candidate=_timing(ms), reference=_timing(REF_MS), device="cpu",
                        build_s=0.0, verify_s=0.0, time_s=0.0)
            if on_outcome:
                on_outcome(c, o)
            outs.append(o)
        return outs


@pytest.fixture(scope="module")
def spec_path(tmp_path_factory):
    d = tmp_path_factory.mktemp("task")
    shutil.copy(TASKS / "scale_bias_relu.py", d / "scale_bias_relu.py")
    return d / "scale_bias_relu.py"


_SPECS: dict[Path, object] = {}  # loading a task takes a subprocess; the tests share one


def _spec(path: Path):
    if path not in _SPECS:
        _SPECS[path] = load_task(path)
    return _SPECS[path]


@pytest.fixture(autouse=True)
def stand_in(monkeypatch):
    monkeypatch.setattr(loop_module, "Evaluator", FakeEvaluator)
    FakeEvaluator.evaluated, FakeEvaluator.retime_ms, FakeEvaluator.interrupt_at = [], {}, set()
    FakeEvaluator.hang_at, FakeEvaluator.instances = None, []


def make(tmp_path, spec_path, ms_by_round, **settings):
    store = RunStore.for_workspace(tmp_path)
    events: list[dict] = []
    s = LoopSettings(**{"rounds": 2, "candidates": 2, "profile": False, "eval": EvalSettings(device="cpu"),
                        **settings})
    lp = Loop(_spec(spec_path), Generated(ms_by_round), store, tmp_path / ".hiera" / "task", s, events.append)
    return lp, store, events


def test_one_best_figure_in_events_result_store_rounds_and_report(tmp_path, spec_path):
    # r2c1 reads 4.0x from its first pair, 1.67x timed again; then r1c1 (2.0x first) is timed again: 1.82x.
    FakeEvaluator.retime_ms = {"r2c1": 0.6, "r1c1": 0.55}
    lp, store, events = make(tmp_path, spec_path, {1: [0.5, 0.8], 2: [0.25, 0.7]})
    result = lp.run(lp.start("generated")).to_json()
    best = result["best"]
    assert best["candidate_id"].startswith("r1c1") and best["retimed"] is True
    assert best["speedup"] == best["reference_ms"] / best["candidate_ms"]  # one pair, exactly
    assert best["speedup"] == pytest.approx(1 / 0.55) and best["verdict"] == "faster"
    assert 0 < best["spread"] < 0.05
    # While the rounds ran, the best was a first pair and said so.
    last_round_event = [e for e in events if e["event"] == "candidate_finished"][-1]["best"]
    assert last_round_event["retimed"] is False and last_round_event["speedup"] == pytest.approx(4.0)
    assert [e for e in events if e["event"] == "retime_finished"][-1]["best"] == {
        k: best[k] for k in ("candidate_id", "speedup", "candidate_ms", "reference_ms", "retimed", "spread", "verdict",
                             "candidate_spread", "reference_spread", "speed_of_light", "low", "high",
                             "confidence")}
    # The table's per-round best follows the same rule: each round's re-timed figure.
    assert [(r["best"]["candidate_id"][:4], r["best"]["retimed"]) for r in result["rounds"]] == [
        ("r1c1", True), ("r2c1", True)]
    assert result["rounds"][1]["best"]["speedup"] == pytest.approx(1 / 0.6)
    # The store's summary, the rule applied to the stored rows (what the language server reads), the report.
    assert store.run(result["run_id"])["summary"]["best"] == best
    row, retimed = best_of_rows(store.candidates(result["run_id"]))
    assert row["id"] == best["candidate_id"] + "-retimed" and retimed and row["speedup"] == best["speedup"]
    assert build_report(store, result["run_id"])["best"]["speedup"] == best["speedup"]


@pytest.mark.parametrize("budget, sizes", [(1, [1]), (2, [2]), (5, [2, 2, 1])])
def test_any_budget_is_spent_exactly_with_the_last_round_taking_what_is_left(tmp_path, spec_path, budget, sizes):
    lp, _store, events = make(tmp_path, spec_path, {r: [0.5, 0.6] for r in (1, 2, 3)}, budget=budget)
    result = lp.run(lp.start("generated")).to_json()
    assert [len(r["outcomes"]) for r in result["rounds"]] == sizes
    assert result["candidates"] == result["budget"] == budget
    assert [e["of"] for e in events if e["event"] == "round_started"] == sizes
    assert len([i for i in FakeEvaluator.evaluated if not i.endswith("-retimed")]) == budget


def test_ctrl_c_mid_round_stops_the_run_and_resume_measures_only_what_is_missing(tmp_path, spec_path):
    FakeEvaluator.interrupt_at = {"r1c2"}
    lp, store, _ = make(tmp_path, spec_path, {1: [0.5, 0.8], 2: [0.4, 0.7]})
    stopped = lp.run(lp.start("generated")).to_json()
    run_id = stopped["run_id"]
    assert stopped["status"] == "stopped" and store.run(run_id)["status"] == "stopped"
    assert FakeEvaluator.instances[-1].closed  # the evaluator (and so its processes) ended
    assert stopped["candidates"] == 1 and stopped["best"]["retimed"] is False  # a first pair, labelled
    assert FakeEvaluator.evaluated == [i for i in FakeEvaluator.evaluated if i.startswith("r1c1")]

    FakeEvaluator.evaluated = []
    lp2, store2, _ = make(tmp_path, spec_path, {1: [0.5, 0.8], 2: [0.4, 0.7]})
    state, first = lp2.resume(run_id)
    assert first == 1
    done = lp2.run(state, first).to_json()
    assert done["status"] == "finished" and done["candidates"] == 4
    assert not any(i.startswith("r1c1") and not i.endswith("-retimed") for i in FakeEvaluator.evaluated)
    rows = [c for c in store2.candidates(run_id) if not c["id"].endswith("-retimed")]
    assert sorted(c["id"][:4] for c in rows) == ["r1c1", "r1c2", "r2c1", "r2c2"]


CHILD = """
import sys
from pathlib import Path
import pytest
from engine import loop as loop_module
from tests import test_cli_loop as t
loop_module.Evaluator = t.FakeEvaluator
t.FakeEvaluator.hang_at = ("r1c2", Path(sys.argv[2]))
lp, store, _ = t.make(Path(sys.argv[1]), Path(sys.argv[3]), {1: [0.5, 0.8], 2: [0.4, 0.7]})
lp.run(lp.start("generated"))
"""


def test_a_run_killed_with_sigkill_is_shown_ended_and_resumes_without_measuring_again(tmp_path, spec_path):
    ready = tmp_path / "ready"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), str(ready), str(spec_path)], env=env,
                             cwd=ROOT, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not ready.exists():
        assert child.poll() is None, child.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "the child never reached its second candidate"
        time.sleep(0.1)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(30)
    store = RunStore.for_workspace(tmp_path)  # the engine opening the store ends the dead run
    (run,) = store.runs(kind="optimize")
    assert run["status"] == "stopped"
    assert any("ended without finishing" in n and f"--resume {run['id']}" in n for n in store.notices(run["id"]))
    assert [c["id"][:4] for c in store.candidates(run["id"])] == ["r1c1"]  # recorded as it finished

    lp, store, _ = make(tmp_path, spec_path, {1: [0.5, 0.8], 2: [0.4, 0.7]})
    state, first = lp.resume(run["id"])
    done = lp.run(state, first).to_json()
    assert done["candidates"] == 4
    assert not any(i.startswith("r1c1") and not i.endswith("-retimed") for i in FakeEvaluator.evaluated)
