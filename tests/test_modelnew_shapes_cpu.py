"""A whole ModelNew at other batch sizes: one a model or a user wrote is checked at sizes drawn for it under the
default `--shapes contract`, like a contract kernel (it may hard-code its batch: `x.view(256, -1)`, a buffer made
for 256 rows), while hiera's own (generated from the reference, keyed on the input shapes; a torch.compile one
would compile again at each size) is not. The delivered file of a checked one refuses a call at a batch size it
was not found valid at, naming it; that of an unchecked one says so and guards nothing."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from contracts.shapes import ShapeCheck, ShapeReport
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate.pipeline import candidate_from_file
from engine.task.export import BatchesVerified, ExportError, check_wrapper, modelnew_wrapper
from engine.task.spec import load_task
from tests.conftest import DATA, TASKS

# scale_bias_relu's Model, its parameter made the same way (the checker seeds both alike; a ModelNew takes it from
# the shared state when it is made, at every size too); then the same with the batch of get_inputs() (256)
# written into its forward: right at 256, wrong at every other size.
HONEST = (DATA / "attacks" / "honest_scale_bias_relu.py").read_text()
HARD_CODED = HONEST.replace("torch.relu(x * self.scale", "torch.relu(x.view(256, -1) * self.scale")
assert HARD_CODED != HONEST


@pytest.fixture(scope="module")
def ev(tmp_path_factory):
    spec = load_task(TASKS / "scale_bias_relu.py")
    tmp = tmp_path_factory.mktemp("modelnew-shapes")
    e = Evaluator(spec, tmp / spec.name, EvalSettings(device="cpu", timing_trials=30, request_timeout_s=120.0),
                  cache_dir=tmp / "cache")
    assert e.settings.shape_variants == "contract"  # the default, as `--shapes` has it
    yield e
    e.close()


def _modelnew(source: str, origin: str, cid: str) -> Candidate:
    return Candidate(cid, CandidateKind.MODELNEW, source, None, origin=origin)


def test_a_models_modelnew_that_hard_codes_its_batch_is_not_valid_at_the_drawn_sizes(ev):
    [o] = ev.evaluate([_modelnew(HARD_CODED, "llm:fake-model", "hard-coded")])
    assert o.valid, o.reason  # at the task's own shapes it is right
    assert o.shapes is not None and o.shapes.drawn, o
    sizes = [c.batch for c in o.shapes.checks]
    assert sizes[0] == 1 and sizes[-1] == 512 and not o.shapes.valid, o.shapes
    assert o.shapes.fixed_only and o.shapes.served.batch_range is None
    assert any(f.startswith("fixed_shape: valid only at the shapes of get_inputs() (batch 256)") for f in o.flags)
    assert BatchesVerified.of(256, o.shapes).served == (256, 256)  # what its delivered file lets through


def test_control_under_shapes_off_the_same_modelnew_is_not_checked(ev):
    ev.settings = replace(ev.settings, shape_variants="off")
    try:
        [o] = ev.evaluate([_modelnew(HARD_CODED, "llm:fake-model", "hard-coded-off")])
    finally:
        ev.settings = replace(ev.settings, shape_variants="contract")
    assert o.valid and o.shapes is None, o


def test_a_users_modelnew_file_is_checked_too(ev, tmp_path):
    path = tmp_path / "mine.py"  # what `hiera eval TASK.py mine.py` reads
    path.write_text(HARD_CODED)
    cand = candidate_from_file(path, "cpu")
    assert cand.origin == "user"
    [o] = ev.evaluate([cand])
    assert o.valid and o.shapes is not None and o.shapes.fixed_only, o


def test_an_honest_modelnew_is_valid_at_every_drawn_size(ev):
    [o] = ev.evaluate([_modelnew(HONEST, "llm:fake-model", "honest")])
    assert o.valid, o.reason
    assert o.shapes is not None and o.shapes.drawn and o.shapes.all_valid, o.shapes
    assert o.shapes.coverage.batch_range == (1, 512)
    assert not any(f.startswith("fixed_shape") for f in o.flags)
    assert BatchesVerified.of(256, o.shapes).served == (1, 512)


def test_hieras_own_modelnew_is_not_checked_at_other_sizes_by_default(ev):
    """The cost rule: hiera's own torch.compile candidates would compile again at each size, which a deadline run
    cannot afford; they are made from the reference and keyed on the input shapes. Its origin alone decides: the
    same hard-coded source from the expert is not checked."""
    for origin in ("expert:torch", "hiera:opener"):
        [o] = ev.evaluate([_modelnew(HARD_CODED, origin, f"own-{origin.replace(':', '-')}")])
        assert o.valid and o.shapes is None, (origin, o)


# --- the delivered file ----------------------------------------------------------------------------------------

TINY = '''import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y=None):
        return x * self.scale
'''


def _checked(valid: list[int], invalid: list[int], given: int = 8) -> ShapeReport:
    checks = [ShapeCheck(s, "valid") for s in valid] + [ShapeCheck(s, "incorrect", "wrong") for s in invalid]
    return ShapeReport(given, tuple(sorted(checks, key=lambda c: c.batch)), drawn=True)


def _load(tmp_path: Path, text: str, name: str) -> Any:
    py = tmp_path / f"{name}.py"
    py.write_text(text)
    spec = importlib.util.spec_from_file_location(name, py)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_file_of_a_checked_modelnew_refuses_a_batch_outside_the_range_verified(tmp_path):
    import torch

    batches = BatchesVerified.of(8, _checked([1, 5, 16], [31]))
    assert batches.served == (1, 16)
    text = modelnew_wrapper(TINY, "The best of an optimize run.", "tiny.source.py.txt", batches)
    doc = " ".join(text.split('"""')[1].split())
    assert "verified at batch 8 (get_inputs()) and at batch sizes drawn for it: valid at batch 1, 5, 16; " \
           "incorrect at batch 31. It serves batch sizes 1 to 16" in doc, doc
    model = _load(tmp_path, text, "checked_result").ModelNew(2.0)
    for n in (1, 8, 16):  # inside: unchanged
        x = torch.randn(n, 3)
        assert torch.equal(model(x), x * 2.0)
    assert torch.equal(model(x=torch.ones(4, 3)), torch.full((4, 3), 2.0))  # the batch read from a keyword too
    with pytest.raises(ValueError) as e:
        model(torch.randn(31, 3))
    said = str(e.value)
    assert "batch size 31" in said and "1 to 16" in said, said
    assert "call the original module (Model)" in said and "get_inputs()" in said, said
    with pytest.raises(ValueError, match="batch size 17"):
        model(torch.randn(17, 3))  # past the last size checked: nothing is claimed there
    # the range is part of what the file is checked for
    check_wrapper(text, TINY, (1, 16))
    with pytest.raises(ExportError):
        check_wrapper(text.replace("_BATCHES = (1, 16)", "_BATCHES = (1, 1024)"), TINY, (1, 16))
    with pytest.raises(ExportError):
        check_wrapper(text, TINY)  # a guarded file is not the unguarded one


def test_the_file_of_a_modelnew_valid_only_at_its_batch_serves_that_batch_alone(tmp_path):
    import torch

    batches = BatchesVerified.of(8, _checked([], [1, 5, 16]))
    assert batches.served == (8, 8)
    model = _load(tmp_path, modelnew_wrapper(TINY, "first", "t.txt", batches), "fixed_result").ModelNew(1.0)
    assert model(torch.ones(8, 2)).shape == (8, 2)
    with pytest.raises(ValueError, match=r"batch size 7 .* 8 to 8"):
        model(torch.ones(7, 2))


def test_the_file_of_an_unchecked_modelnew_says_so_and_guards_nothing(tmp_path):
    import torch

    text = modelnew_wrapper(TINY, "first", "t.txt", BatchesVerified.of(8, None))
    doc = " ".join(text.split('"""')[1].split())
    assert "verified at batch 8 only; other sizes were not checked" in doc, doc
    assert "_guard" not in text and "_BATCHES" not in text
    check_wrapper(text, TINY)
    model = _load(tmp_path, text, "unchecked_result").ModelNew(3.0)
    for n in (1, 8, 1000):  # behaviour unchanged: every size runs it
        assert model(torch.ones(n, 2)).shape == (n, 2)
