"""The reference (timed in the checker) and a ModelNew candidate (timed in its runner) run in two processes;
whatever makes one of them slower at the same code inflates or hides every speedup. Two defences: the checker
goes without the math-library settings a runner never gets (worker.checker_env), and both time a fixed piece
of trusted work, whose figures must agree (wire.probe_ms, clock_check.parity). The control: MKL_CBWR=COMPATIBLE
(MKL's reproducible path, about 4x slower at a GEMM) left in the checker alone makes the reference's own code
read several times faster than the reference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.evaluate import worker
from engine.evaluate.clock_check import PARITY_LIMIT, parity
from engine.evaluate.outcome import Status
from engine.evaluate.requests import EvalReply
from tests import test_attacks_cpu as kit

ATTACKS = Path(__file__).parent / "data" / "attacks"


def _twin(tmp_path: Path) -> Any:
    with kit.arena_at(tmp_path) as a:
        o = kit.evaluate_api(a, ATTACKS / "tasks" / "wide_linear.py", [("honest_linear.py", None)])["honest_linear"]
    print(kit.describe(o), o.extra.get("parity_probe"), o.flags)  # what -s shows, and a failure's captured output
    return o


def _parity_flags(o: Any) -> list[str]:
    return [f for f in o.flags if "not timed alike" in f]


def test_control_a_math_library_setting_in_the_checker_alone_inflates_the_speedup_and_the_probe_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MKL_CBWR", "COMPATIBLE")
    monkeypatch.setattr(worker, "MATH_ENV_PREFIXES", ())  # the checker keeps it; the runner never had it
    o = _twin(tmp_path)
    assert o.status is Status.VALID, kit.describe(o)
    # the hazard: the same code, "faster" (about 4x at rest; a busy 2-core machine that made the candidate's calls
    # swing was seen to give 1.41x with the probe still at 3.0x, so a swing lowers the floor, never to level)
    swung = any(f.startswith("timing_swing") for f in o.flags)
    assert o.speedup > (1.2 if swung else 1.5), (kit.describe(o), o.extra.get("parity_probe"), o.flags)
    assert o.extra["parity_probe"]["ratio"] > PARITY_LIMIT, o.extra["parity_probe"]
    assert _parity_flags(o) and _parity_flags(o)[0].startswith("unstable_timing"), o.flags


def test_the_checker_goes_without_the_setting_and_the_twin_reads_level(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MKL_CBWR", "COMPATIBLE")
    o = _twin(tmp_path)
    assert o.status is Status.VALID, kit.describe(o)
    assert not _parity_flags(o), (o.flags, o.extra.get("parity_probe"))
    assert o.extra["parity_probe"]["ratio"] <= PARITY_LIMIT
    # a busy machine may say its figure is noise (a side that swung, or a call the clock cannot resolve)
    if not any(f.startswith(("unstable_timing", "timing_swing")) for f in o.flags):
        assert 0.4 < o.speedup < 2.5, (kit.describe(o), o.extra.get("timing_spread"))


def test_checker_env_drops_math_library_settings_and_keeps_thread_counts() -> None:
    env = worker.checker_env({"MKL_CBWR": "COMPATIBLE", "KMP_AFFINITY": "compact", "OMP_WAIT_POLICY": "PASSIVE",
                              "ATEN_CPU_CAPABILITY": "default", "OMP_NUM_THREADS": "2", "MKL_NUM_THREADS": "2",
                              "PATH": "/usr/bin", "HOME": "/root"})
    assert env == {"OMP_NUM_THREADS": "2", "MKL_NUM_THREADS": "2", "PATH": "/usr/bin", "HOME": "/root"}


@pytest.mark.parametrize("checker_ms,runner_ms,flagged", [(2.0, 2.1, False), (2.0, 1.4, False), (8.6, 2.0, True),
                                                         (2.0, 8.6, False), (None, 2.0, False)])
def test_rule_the_probe_flags_only_a_difference_past_its_limit(checker_ms: float | None, runner_ms: float,
                                                                flagged: bool) -> None:
    reply = EvalReply("c", Status.VALID, "")
    parity(reply, checker_ms, runner_ms)
    assert bool(reply.flags) is flagged, reply.flags
    if flagged:
        assert "4.3x slower where the reference runs" in reply.flags[0], reply.flags
    if checker_ms is not None:
        assert reply.extra["parity_probe"]["ratio"] == round(checker_ms / runner_ms, 3)
