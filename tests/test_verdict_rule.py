"""One verdict rule, whoever shows a figure: the same timed pairs (tests/data/verdict_rows.json) through every
consumer — the rule itself (contracts/verdict.py), the engine's figure and median (engine/loop.py), `hiera report`,
the language server (its stored-run path, where no engine result carries a verdict, and its job status) — give the
same spread, verdict and words. The extension's test (editors/vscode/tests/verdict.test.ts) reads the same file.

The file's `expected` values are what contracts/verdict.py says of each row; when the rule changes on purpose,
write them again with `python tests/test_verdict_rule.py --write` (and the TypeScript test follows the file).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from contracts import verdict as rule  # noqa: E402
from contracts.runrecord import Figure  # noqa: E402

ROWS_FILE = REPO / "tests" / "data" / "verdict_rows.json"
EXCESSIVE = "excessive_speedup: 17.0x (every timed call ran on new inputs and a sample of them was checked)"
NOISY = "noisy_reference: its paired reference ran at 84.1 ms against the run's median 16.25 ms (machine load?)"


def side(median_ms: float, spread: float) -> dict[str, float]:
    """A timing of that median whose interquartile range is `spread` of it."""
    return {"median_ms": median_ms, "p25_ms": median_ms * (1 - spread / 2), "p75_ms": median_ms * (1 + spread / 2)}


# (name, candidate ms, its spread, eager ms, its spread, the engine's flags)
PAIRS: list[tuple[str, float, float, float, float, list[str]]] = [
    # the issue's rows: the two rules disagreed on these
    ("1.08x, spreads 0.10 and 0.02: level by the larger spread", 1.0, 0.10, 1.08, 0.02, []),
    ("0.82x, spreads 0.20 and 0.20: slower", 1.0, 0.20, 0.82, 0.20, []),
    ("17x over 10x: flagged", 1.0, 0.05, 17.04, 0.05, [EXCESSIVE]),
    ("13.46 ms against 153 us: 88x slower", 13.46, 0.03, 0.153, 0.03, []),
    ("8.99x from pairs spread 137% and 163%: unstable timing", 2.6, 1.37, 23.37, 1.63, []),
    ("1.40x, 2% spreads: faster", 0.34, 0.02, 0.475, 0.02, []),
    ("1.01x inside a 4% spread: level", 1.0, 0.04, 1.01, 0.04, []),
    ("9.96x at 10%: two significant figures cross a power of ten", 1.0, 0.10, 9.96, 0.10, []),
    ("2.25x at 5%: an exact tie rounds half up on both sides", 1.0, 0.05, 2.25, 0.05, []),
    ("1.30x with a noisy eager pair: flagged", 1.0, 0.03, 1.3, 0.03, [NOISY]),
    ("0.5x at a 99% spread, just under the limit: slower", 2.0, 0.99, 1.0, 0.10, []),
    ("1.125x with no spread over the second decimal: two decimals", 1.0, 0.005, 1.125, 0.005, []),
]


def expected_of(c: dict[str, float], r: dict[str, float], flags: list[str]) -> dict[str, Any]:
    """What contracts/verdict.py says of one pair: the fixture's expected values."""
    cs = rule.timing_spread(c["p25_ms"], c["p75_ms"], c["median_ms"])
    rs = rule.timing_spread(r["p25_ms"], r["p75_ms"], r["median_ms"])
    fig = Figure.of_pair(c["median_ms"], r["median_ms"], True, cs, rs)
    return {"speedup": fig.speedup, "spread": fig.spread, "candidate_spread": cs, "reference_spread": rs,
            "verdict": fig.verdict, "ratio": rule.ratio_text(fig.speedup, fig.spread),
            "headline": rule.headline(fig.speedup, fig.verdict, fig.spread),
            "uncertainty": rule.uncertainty(fig.speedup, fig.verdict, fig.spread, cs, rs),
            "warnings": [rule.flag_words(f) for f in flags]}


def rows_now() -> dict[str, Any]:
    rows = []
    for name, cms, csp, rms, rsp, flags in PAIRS:
        c, r = side(cms, csp), side(rms, rsp)
        rows.append({"name": name, "candidate": c, "reference": r, "flags": flags,
                     "expected": expected_of(c, r, flags)})
    return {"about": "Timed pairs every consumer of the verdict rule is tested on (tests/test_verdict_rule.py, "
                     "editors/vscode/tests/verdict.test.ts); `expected` is contracts/verdict.py's, written by "
                     "`python tests/test_verdict_rule.py --write`.", "rows": rows}


def stored_rows() -> list[dict[str, Any]]:
    """The rows as the file holds them (none when it is missing: then the file test fails, saying how to write it)."""
    return json.loads(ROWS_FILE.read_text())["rows"] if ROWS_FILE.exists() else []


def _same(got: dict[str, Any], want: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    for k in keys:
        g, w = got.get(k), want[k]
        if isinstance(w, float):
            assert g == pytest.approx(w, rel=1e-9), f"{where}: {k} {g!r} != {w!r}"
        else:
            assert g == w, f"{where}: {k} {g!r} != {w!r}"


FIGURE_KEYS = ("speedup", "spread", "candidate_spread", "reference_spread", "verdict")
WORD_KEYS = ("headline", "uncertainty", "warnings")


def test_the_rows_file_is_what_the_rule_says():
    assert ROWS_FILE.exists() and json.loads(ROWS_FILE.read_text()) == rows_now(), (
        "tests/data/verdict_rows.json is not what contracts/verdict.py says of its rows: if the rule changed on "
        "purpose, run `python tests/test_verdict_rule.py --write`")
    verdicts = {r["expected"]["verdict"] for r in stored_rows()}
    assert verdicts == set(rule.VERDICTS)  # every verdict is exercised


def test_the_rows_are_the_cases_the_issue_names():
    by_name = {r["name"]: r["expected"] for r in stored_rows()}
    assert by_name["1.08x, spreads 0.10 and 0.02: level by the larger spread"]["verdict"] == "level"
    assert by_name["0.82x, spreads 0.20 and 0.20: slower"]["verdict"] == "slower"
    slow = by_name["13.46 ms against 153 us: 88x slower"]
    assert (slow["verdict"], slow["headline"], slow["ratio"]) == ("slower", "88× slower than eager", "88× slower")
    assert by_name["17x over 10x: flagged"]["warnings"] == ["flagged: over 10× — check before trusting"]
    unstable = by_name["8.99x from pairs spread 137% and 163%: unstable timing"]
    assert unstable["verdict"] == "unstable" and "±137% (candidate) and ±163% (eager)" in unstable["uncertainty"]
    assert by_name["9.96x at 10%: two significant figures cross a power of ten"]["ratio"] == "10×"
    assert by_name["2.25x at 5%: an exact tie rounds half up on both sides"]["ratio"] == "2.3×"


def _timing(t: dict[str, float]) -> Any:
    from engine.evaluate.outcome import Timing

    return Timing(t["median_ms"], t["p25_ms"] * 0.9, t["p75_ms"] * 1.1, t["median_ms"], 0.0, t["p25_ms"], t["p75_ms"],
                  100, "perf_counter")


def _outcome(cid: str, row: dict[str, Any]) -> Any:
    from engine.evaluate.outcome import Outcome, Status

    return Outcome(cid, Status.VALID, "correct", flags=tuple(row["flags"]), candidate=_timing(row["candidate"]),
                   reference=_timing(row["reference"]), device="cpu")


@pytest.mark.parametrize("row", stored_rows(), ids=lambda r: r["name"])
def test_the_engine_figures_a_pair_by_the_rule(row):
    from engine.loop import figure

    fig = figure(_outcome("r1c1", row), retimed=True)
    _same(fig.to_json(), row["expected"], FIGURE_KEYS, "engine.loop.figure")


def test_one_median_everywhere_the_usual_one():
    from engine import loop_state

    for values in ([202.0, 117.8], [1.0, 3.0, 2.0], [4.0, 1.0, 3.0, 2.0], [5.0]):
        assert loop_state.median(values) == rule.median(values) == statistics.median(values)
    assert rule.median([202.0, 117.8]) == pytest.approx(159.9)  # not the upper middle value, 202
    assert rule.median([]) is None


def _stopped_store(tmp_path: Path, row: dict[str, Any]) -> tuple[Any, str]:
    """A run stopped before its result, holding one candidate and its re-timing (the row's pair): no engine
    summary carries a verdict, so each reader applies the rule itself."""
    from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status
    from engine.store import RunStore

    store = RunStore.for_workspace(tmp_path)
    run_id = store.start_run("optimize", tmp_path / "t.py", "t", "h", {}, backend="expert", device="cpu")
    store.record_decision(run_id, 1, "pure_cuda", {"M": 0.8}, {}, "M", "M.fuse", "why")
    first = Outcome("r1c1", Status.VALID, "correct", candidate=_timing(row["candidate"]),
                    reference=_timing(row["candidate"] | {"median_ms": row["candidate"]["median_ms"] * 1.5}),
                    device="cpu")
    store.record_candidate(run_id, Candidate("r1c1", CandidateKind.CPP, "// 1"), first, 1, 1)
    store.record_candidate(run_id, Candidate("r1c1-retimed", CandidateKind.CPP, "// 1"),
                           _outcome("r1c1-retimed", row), 1, 0)
    store.set_reference(run_id, row["reference"]["median_ms"])
    store.finish_run(run_id, "stopped")
    return store, run_id


@pytest.mark.parametrize("row", stored_rows(), ids=lambda r: r["name"])
def test_hiera_report_and_the_language_server_say_the_same_of_the_same_rows(tmp_path, row):
    from contracts.runstore import StoreReader
    from engine.commands.report import build_report
    from hiera_ls.job import Job
    from hiera_ls.results import assemble

    store, run_id = _stopped_store(tmp_path, row)
    report = build_report(store, run_id)["best"]
    _same(report, row["expected"], FIGURE_KEYS, "hiera report")
    reader = StoreReader(tmp_path)
    served = assemble(reader, reader.run(run_id), live=False)["best"]
    _same(served, row["expected"], FIGURE_KEYS + WORD_KEYS, "hiera-ls hiera/runResults")
    job = Job("j", "optimize", "t", [], tmp_path, "cpu", {}, tmp_path / "log", best=served,
              best_speedup=served["speedup"])  # as the job's end sets them (hiera_ls/job_outcome.py settle)
    sent = job.status_json()
    _same({"speedup": sent["bestSpeedup"], "spread": sent["spread"], "verdict": sent["verdict"],
           "headline": sent["headline"], "uncertainty": sent["uncertainty"], "warnings": sent["warnings"]},
          row["expected"], ("speedup", "spread", "verdict", *WORD_KEYS), "hiera-ls hiera/jobStatus")


def test_a_broken_server_rule_would_be_caught():
    """The old server rule (the mean of the two spreads, a linear band) on the issue's first row: the test above
    fails for it, so it can tell the rules apart."""
    row = stored_rows()[0]
    c, r = row["candidate"], row["reference"]
    mean = (rule.timing_spread(c["p25_ms"], c["p75_ms"], c["median_ms"])
            + rule.timing_spread(r["p25_ms"], r["p75_ms"], r["median_ms"])) / 2
    speedup = r["median_ms"] / c["median_ms"]
    old = "faster" if speedup > 1 + mean else "slower" if speedup < 1 - mean else "level"
    assert old != row["expected"]["verdict"]


if __name__ == "__main__":
    if "--write" in sys.argv:
        ROWS_FILE.write_text(json.dumps(rows_now(), indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {ROWS_FILE}")


def test_a_pair_the_evaluator_flagged_unstable_gets_no_speedup_verdict():
    """A side whose fastest call is far under its median (an honest 0.2 ms reference read 24 ms on a loaded
    2-core machine) can keep its middle half tight: the evaluator's `unstable_timing` flag decides then."""
    from engine.evaluate.outcome import Outcome, Status, Timing
    from engine.loop import figure

    steady = Timing.from_samples([1.0] * 20, "cpu")
    swinging = Timing.from_samples([0.2] * 3 + [24.0] * 17, "cpu")
    calm = Outcome("c", Status.VALID, "", (), steady, swinging)
    assert figure(calm, retimed=False).verdict == "faster"  # by the spreads alone: 24x, faster
    flagged = Outcome("c", Status.VALID, "", ("unstable_timing: the reference's calls ran 0.2 to 24 ms",),
                      steady, swinging)
    assert figure(flagged, retimed=False).verdict == "unstable"


@pytest.mark.parametrize("flag", [
    "excessive_speedup: 17.0x (every timed call ran on new inputs and a sample of them was checked)",
    "noisy_reference: its eager ran at 5.0 ms against the run's median 2.0 ms",
    "unstable_timing: the candidate's calls ran 0.72 to 7.7 ms (fastest to median), spread 144%",
    "back_to_back_slower: called back to back its calls took 0.08 ms each by the checker's clock: 400.0x the "
    "0.0002 ms its runner reported; the figure is held to the back-to-back time",
])
def test_the_terminal_and_the_editor_word_a_flag_alike(flag: str) -> None:
    """The terminal's words for a flag (contracts.wording.flag_phrase: `hiera optimize`, `eval`, `report`) are the
    editor's (contracts.verdict.flag_words: hover, results view, message), with the engine's detail after them."""
    from contracts.wording import flag_phrase

    editor = rule.flag_words(flag, "x").removeprefix("flagged: ")
    assert flag_phrase(flag).startswith(editor) and ":" not in flag_phrase(flag).split(" ", 1)[0], flag_phrase(flag)
