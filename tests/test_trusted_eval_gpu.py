"""The second attack corpus (issue 24) on a CUDA device: the classes whose mechanism differs on a GPU (run on
the H200: pytest -m gpu tests/test_trusted_eval_gpu.py). Each keeps its positive control from the CPU file
where the control does not depend on the device (tests/test_trusted_eval_cpu.py)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import torch

from engine.evaluate.outcome import Status
from tests import test_attacks_cpu as kit
from tests import test_trusted_eval_cpu as cpu
from tests.conftest import DATA, TASKS

pytestmark = pytest.mark.gpu

ATTACKS = kit.ATTACKS
HONEST_CU = DATA / "gpu" / "scale_bias_relu.cu"


def cuda_api(tmp: Path, task: Path, entries: list[tuple[str, Any]]) -> dict[str, Any]:
    with kit.arena_at(tmp) as a:
        return kit.evaluate_api(a, task, entries, device="cuda:0")


@pytest.mark.parametrize("attack,task_name", cpu.CACHES)
def test_a_cache_across_timed_calls_on_the_gpu_is_not_valid_and_fast(tmp_path: Path, attack: str,
                                                                      task_name: str) -> None:
    o = cuda_api(tmp_path, ATTACKS / "tasks" / task_name, [(attack, None)])[Path(attack).stem]
    assert not cpu.claimed_fast(o), (kit.describe(o), o.flags)


def test_a_rewritten_reply_on_the_gpu_is_suspect_or_not_fast(tmp_path: Path) -> None:
    """On the H200 this attack read `valid` at 22-77x on this 4.5 us task before the back-to-back calls (the
    per-call clock allows 0.25 ms): now the back-to-back speedup bounds its figure, and the report's distance from
    it is flagged."""
    outs = cuda_api(tmp_path, TASKS / "relu_positive.py", [("reply_divide_ms.py", None), ("honest_relu.py", None),
                                                            ("burst_skip.py", None)])
    o = outs["reply_divide_ms"]
    assert not cpu.claimed_fast(o), (kit.describe(o), o.flags)
    if o.valid:
        b2b = o.extra["back_to_back"]
        assert o.candidate.median_ms >= 0.8 * b2b["equivalent_ms"] - 1e-6, (kit.describe(o), b2b)
        assert any(f.startswith("back_to_back_slower") for f in o.flags), (kit.describe(o), o.flags)
    honest = outs["honest_relu"]
    assert honest.valid and honest.extra["back_to_back"]["calls"] >= 4, kit.describe(honest)
    # The reference's own code, sandboxed: level, not slowed by the runner's host path (it read 0.07-0.18x when
    # the per-call clock and the burst were set against the reference's device time).
    assert honest.speedup > 0.6, (kit.describe(honest), honest.extra["back_to_back"])
    # The work skipped when called within 1 ms of the last return: caught in a burst's sample (or in a timed call's,
    # where a fast host brings those within 1 ms of each other too).
    skip = outs["burst_skip"]
    assert skip.status is Status.SUSPECT and ("back-to-back burst" in skip.reason or "timed call" in skip.reason), \
        kit.describe(skip)


def test_an_honest_kernel_called_back_to_back_keeps_its_device_time(tmp_path: Path) -> None:
    """A device-bound kernel (0.25 GB through a scale, bias and relu): its calls back to back cost little more than
    its device time, so the floor moves its figure little."""
    outs = cuda_api(tmp_path, TASKS / "big_scale_bias_relu.py", [(str(HONEST_CU), None)])
    o = outs[HONEST_CU.stem]
    b2b = o.extra["back_to_back"]
    assert o.valid and not any(f.startswith("back_to_back_slower") for f in o.flags), (kit.describe(o), b2b)
    # Back to back on 8 sets of 256 MiB its calls took 25-30% over its events by the checker's clock, and 27% by
    # its runner's own (the reference's 2.5%, on sets its own process had just written): the floor may cost it
    # that much less the allowance, no more (it read 0.81-1.0x against its 3.2x before the reference's burst).
    assert o.candidate.median_ms <= 1.12 * b2b["reported_ms"], (kit.describe(o), b2b)


def test_a_reply_that_would_crash_the_checker_on_the_gpu_is_suspect_and_the_next_is_valid(tmp_path: Path) -> None:
    outs = cuda_api(tmp_path, TASKS / "relu_positive.py", [("reply_error_list.py", None), ("honest_relu.py", None)])
    assert outs["reply_error_list"].status is Status.SUSPECT, kit.describe(outs["reply_error_list"])
    assert outs["honest_relu"].valid, kit.describe(outs["honest_relu"])


def test_the_construct_seeds_on_the_gpu_are_secret(tmp_path: Path) -> None:
    o = cuda_api(tmp_path, TASKS / "relu_positive.py", [("seed_spy.py", None)])["seed_spy"]
    assert "seeds seen: " in o.reason and "51234" not in o.reason.split(), o.reason


def test_honest_kernels_stay_valid_on_perturbed_timing_inputs(tmp_path: Path) -> None:
    outs = cuda_api(tmp_path, TASKS / "big_scale_bias_relu.py", [(str(HONEST_CU), None)])
    o = outs[HONEST_CU.stem]
    assert o.valid and "scaled per element" in o.extra["inputs_per_call"], kit.describe(o)
    assert not any(f.startswith("unstable_timing") for f in o.flags), o.flags


def test_an_integer_input_task_times_on_fresh_indices_on_the_gpu(tmp_path: Path) -> None:
    o = cuda_api(tmp_path, ATTACKS / "tasks" / "int_gather.py", [("cache_int_bytes.py", None)])["cache_int_bytes"]
    assert "drawn again" in o.extra.get("inputs_per_call", ""), o.extra
    assert not cpu.claimed_fast(o), (kit.describe(o), o.flags)


def test_a_gpu_runner_as_root_cannot_read_the_hosts_acpi_tables(tmp_path: Path) -> None:
    dsdt = Path("/sys/firmware/acpi/tables/DSDT")
    if not dsdt.exists():
        pytest.skip("no ACPI table on this host")
    with kit.arena_at(tmp_path) as a:
        a.subs["@SECRET@"] = str(dsdt)
        run = kit.hiera_eval(a, a.task(TASKS / "relu_positive.py"), [a.render("read_root_only.py")], device="cuda")
    v = run.verdicts[0]
    assert ": read" not in v["reason"], run.summary()


def test_the_exported_cuda_file_runs_its_kernel_and_nothing_else(tmp_path: Path, monkeypatch) -> None:
    from engine.cli import main

    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    mark = tmp_path / "exported-file-ran-this"
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    kernel = tmp_path / "attack.cu"
    kernel.write_text((ATTACKS / "gpu" / "export_break_string.cu").read_text().replace("@MARK@", str(mark)))
    assert main(["export", str(task), str(kernel), "--out", str(tmp_path / "out")]) == 0
    mod = cpu.load_module(tmp_path / "out" / "scale_bias_relu_hiera.py", "exported_cuda_attack")
    torch.manual_seed(0)
    ref = mod.Model(*mod.get_init_inputs()).cuda()
    new = mod.ModelNew(*mod.get_init_inputs()).cuda()
    new.load_state_dict(ref.state_dict())
    x = mod.get_inputs()[0].cuda()
    torch.testing.assert_close(new(x), ref(x), atol=1e-5, rtol=1e-5)
    assert not mark.exists()
