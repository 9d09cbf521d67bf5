"""The run's settings are written by LoopSettings.record() and read back by LoopSettings.resumed() (issue 40: one
record instead of a hand-made dict in the loop and renamed keys in the resume): a run resumed from its record
goes on with its own settings, and the command's own where the record is silent or the setting is the command's."""

from __future__ import annotations

from pathlib import Path

from contracts.device import CPU, Device
from contracts.vocabulary import Space
from engine.evaluate.outcome import Precision
from engine.evaluate.pipeline import EvalSettings
from engine.loop_state import LoopSettings

# The keys runs in existing stores were written with (hiera report and --resume read them): never renamed.
STORE_KEYS = {"rounds", "candidates", "budget", "space", "planning", "contract", "profile", "precision", "device",
              "trials", "timeout_s", "build_timeout_s", "sandbox", "keep_slower", "shapes", "results_dir",
              "deadline_s", "opener"}


def _unusual() -> LoopSettings:
    return LoopSettings(rounds=4, candidates=3, budget=11, space=Space.PURE_CUDA, planning=False, use_contract=False,
                        profile=False, results_dir=Path("/somewhere/results"), keep_slower=True, opener=False,
                        deadline_s=90.0,
                        eval=EvalSettings(device=CPU, precision=Precision.TF32, space=Space.PURE_CUDA,
                                          timing_trials=30, request_timeout_s=12.5, build_timeout_s=40.0,
                                          sandbox=False, shape_variants="off"))


def test_the_record_keeps_the_stores_keys() -> None:
    rec = _unusual().record()
    assert set(rec) == STORE_KEYS
    assert rec["contract"] is False and rec["shapes"] == "off" and rec["trials"] == 30 and rec["space"] == "pure_cuda"
    assert rec["rounds"] == 4 and rec["budget"] == 11  # three full rounds of 3, a last of 2


def test_a_resumed_run_goes_on_with_its_own_settings() -> None:
    original = _unusual()
    command = LoopSettings(eval=EvalSettings(device=Device("cuda", 1), sandbox=False), ncu_path="/opt/ncu",
                           deadline_s=None)
    back = command.resumed(original.record())
    assert back.round_sizes() == original.round_sizes()
    mine = {"device", "deadline_s"}  # the command's own
    assert {k: v for k, v in back.record().items() if k not in mine} == \
        {k: v for k, v in original.record().items() if k not in mine}
    assert back.eval.device == Device("cuda", 1) and back.deadline_s is None and back.ncu_path == "/opt/ncu"


def test_what_an_older_record_lacks_comes_from_the_command() -> None:
    command = LoopSettings(planning=False, eval=EvalSettings(timing_trials=77, shape_variants="all"))
    back = command.resumed({"rounds": 2, "candidates": 5, "space": "auto"})
    assert back.rounds == 2 and back.candidates == 5 and back.budget is None and back.space is None
    assert back.planning is False and back.eval.timing_trials == 77 and back.eval.shape_variants == "all"
    assert back.eval.space is Space.LIBRARIES_PYTORCH and back.results_dir is None


def test_the_sandbox_is_on_only_where_both_say_so() -> None:
    on, off = LoopSettings(eval=EvalSettings(sandbox=True)), LoopSettings(eval=EvalSettings(sandbox=False))
    assert on.resumed({"sandbox": False}).eval.sandbox is False
    assert off.resumed({"sandbox": True}).eval.sandbox is False  # --no-sandbox now: the command's word
    assert on.resumed({"sandbox": True}).eval.sandbox is True
