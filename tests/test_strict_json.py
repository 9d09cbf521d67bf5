"""Strict JSON out of hiera (issue 42, class 4): a NaN or an Infinity becomes null with a flag naming it.

The positive control is Python's own json, which writes bare NaN: a strict parser (here json.loads told to
refuse the constants, as JSON.parse, jq and serde do) rejects the line. `hiera eval --json` is driven with a
stand-in evaluator whose outcome carries a NaN where a burst's reply put one.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from contracts import strict_json
from engine.evaluate.outcome import Outcome, Status, Timing
from tests.conftest import TASKS


def strict_loads(line: str) -> Any:
    def refuse(word: str) -> Any:
        raise ValueError(f"not JSON: {word}")

    return json.loads(line, parse_constant=refuse)


def _outcome(cid: str) -> Outcome:
    t = Timing.from_samples([1.0, 1.1, 0.9, 1.0, 1.05], "perf_counter")
    return Outcome(cid, Status.VALID, "fine", candidate=t, reference=t, build_s=0.1, verify_s=0.1, time_s=0.1,
                   extra={"back_to_back": {"runner_walls_ms": [0.5, float("nan")], "candidate_ms": float("inf")}})


def test_control_pythons_json_writes_a_bare_nan_that_a_strict_parser_rejects() -> None:
    line = json.dumps(_outcome("c").to_json())
    assert "NaN" in line and "Infinity" in line
    with pytest.raises(ValueError, match="not JSON"):
        strict_loads(line)


def test_strict_dumps_writes_null_and_names_each_value_it_replaced() -> None:
    got = strict_loads(strict_json.dumps({"a": [1.0, float("nan")], "b": {"c": float("-inf")}, "d": 2}))
    assert got["a"] == [1.0, None] and got["b"]["c"] is None and got["d"] == 2
    assert got["non_finite"] == ["a[1]: nan", "b.c: -inf"]
    assert "non_finite" not in strict_loads(strict_json.dumps({"a": 1.5}))  # nothing replaced, nothing said
    assert strict_loads(strict_json.dumps([float("nan")])) == [None]  # no object to flag: still strict
    assert "non_finite" not in strict_loads(strict_json.dumps({"a": float("nan")}, flag=False))


class _NaNEvaluator:
    """engine.evaluate.pipeline.Evaluator's stand-in: one outcome per candidate, with a NaN in it."""

    def __init__(self, spec, workdir, settings, cache_dir=None):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def close(self, now=False):
        pass

    def evaluate(self, cands, on_outcome=None, **_):
        outs = []
        for c in cands:
            o = _outcome(c.id)
            if on_outcome:
                on_outcome(c, o)
            outs.append(o)
        return outs


def test_hiera_eval_json_never_prints_a_bare_nan(tmp_path: Path, monkeypatch, capsys) -> None:
    from engine.cli import main
    from engine.evaluate import pipeline

    monkeypatch.setattr(pipeline, "Evaluator", _NaNEvaluator)
    monkeypatch.chdir(tmp_path)
    task = tmp_path / "relu_positive.py"
    shutil.copy(TASKS / "relu_positive.py", task)
    cand = tmp_path / "cand.py"
    cand.write_text("import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n"
                    "        return torch.relu(x)\n")
    main(["eval", str(task), str(cand), "--json", "--device", "cpu", "--no-sandbox"])
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.strip()]
    assert lines, "no JSON line"
    got = strict_loads(lines[-1])
    assert got["extra"]["back_to_back"]["runner_walls_ms"] == [0.5, None]
    assert any("runner_walls_ms[1]" in p for p in got["non_finite"]), got["non_finite"]
