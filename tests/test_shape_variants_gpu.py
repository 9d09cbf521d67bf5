"""Shape variants on a CUDA device (issue 29): every contract candidate is also verified and briefly timed at
other batch sizes by the trusted checker (drawn for each candidate inside the range the reference accepts: issue
38), its buffers each a device allocation with canary bytes after it. Run
on a GPU machine: pytest -m gpu tests/test_shape_variants_gpu.py (the CPU side: test_shape_variants_cpu.py)."""

from __future__ import annotations

import pytest

from contracts.shapes import Coverage
from engine.task.spec import load_task
from tests.conftest import DATA, TASKS
from tests.evalkit import evaluate_one, evaluator

pytestmark = pytest.mark.gpu

TASK = TASKS / "scale_bias_relu.py"
HONEST_CU = DATA / "gpu" / "scale_bias_relu.cu"
IGNORES_SIZES_CU = DATA / "gpu" / "ignores_sizes.cu"  # always 256 x 512 elements, whatever it is given


@pytest.fixture(scope="module")
def batch():
    spec = load_task(TASK)
    assert spec.batch is not None and spec.batch.variants, spec.batch_note
    return spec.batch


@pytest.fixture(scope="module")
def ev(tmp_path_factory):
    e = evaluator(TASK, tmp_path_factory.mktemp("variants-gpu"), device="cuda:0", trials=30)
    yield e
    e.close()


def test_a_cuda_kernel_that_reads_its_sizes_is_valid_and_timed_at_every_batch_size(ev, batch):
    o = evaluate_one(ev, HONEST_CU)
    assert o.valid, o.reason
    assert o.shapes is not None and o.shapes.batch == batch.size
    lo, hi = batch.bounds
    sizes = [c.batch for c in o.shapes.checks]
    assert sizes[0] == lo and sizes[-1] == hi and batch.size not in sizes and o.shapes.drawn, o.shapes
    assert o.shapes.all_valid, o.shapes.summary()
    assert o.shapes.coverage == o.shapes.served == Coverage((lo, hi))
    # Both sides timed at every size (on a GPU the reference once the runner is gone).
    assert all(c.candidate_ms and c.reference_ms for c in o.shapes.checks), o.shapes
    assert not any(f.startswith("fixed_shape") for f in o.flags), o.flags


def test_a_cuda_kernel_that_ignores_its_sizes_is_valid_only_at_the_given_shapes(ev, batch):
    o = evaluate_one(ev, IGNORES_SIZES_CU)
    assert o.valid, o.reason  # right at get_inputs()'s own shapes
    assert o.shapes is not None
    by = {c.batch: c for c in o.shapes.checks}
    assert (min(by), max(by)) == batch.bounds, o.shapes
    smaller = [s for s in by if s < batch.size]
    larger = [s for s in by if s > batch.size]
    assert smaller and larger, batch
    # A smaller output: written past its end, into the canary after it in the same allocation (or, were the
    # allocation too small for the overrun, a fault that ends the runner): never valid.
    assert all(by[s].status in ("incorrect", "runtime_error") for s in smaller), o.shapes.summary()
    assert any(f"wrote past the end of output 0 [batch {s}]" in by[s].reason for s in smaller), o.shapes.summary()
    # A larger one: most of it left unwritten (NaN).
    assert all(by[s].status == "incorrect" for s in larger), o.shapes.summary()
    assert o.shapes.fixed_only and o.shapes.coverage == Coverage(), o.shapes.summary()
    assert any(f.startswith(f"fixed_shape: valid only at the shapes of get_inputs() (batch {batch.size})")
               for f in o.flags), o.flags
