"""The speed of light in the editor's views: the canonical best carries the engine's figure (or a stored row's),
and the hover, the code lens, the job's last message, the job status and the results object say it in one way."""

from __future__ import annotations

from contracts.runrecord import RETIMED, RunBest, StoppedEarly
from contracts.speed_of_light import SpeedOfLight
from hiera_ls.best import canonical_best
from hiera_ls.deliver import figure_text
from hiera_ls.job import Job
from hiera_ls.modules import scan_python
from hiera_ls.run_views import lens_summary, module_hover
from tests.test_ls_units import KERNELBENCH

SOL = SpeedOfLight("memory", 1050624, 262144, "memory 40 GB/s", 0.62, 0.026, 0.042)
WORDS = "62% of speed of light, memory-bound"


def _best(sol: SpeedOfLight | None) -> dict:
    b = RunBest("r1c2", 2.0, 0.042, 0.084, True, 0.01, "faster", 1, "pure_cuda", "M", [], None, None,
                speed_of_light=sol)
    return canonical_best(b.to_json(), [])


def test_the_engines_figure_reaches_the_hover_the_lens_the_message_and_the_job_status(tmp_path):
    best = _best(SOL)
    assert best["speed_of_light"]["fraction"] == 0.62 and best["speed_of_light_text"] == WORDS
    obj = {"best": best, "device": "cpu", "run_id": "r1", "status": "finished", "rounds": [{"direction": "M"}],
           "stopped_early": StoppedEarly(1, 0.91, "memory", 12, 40.0).to_json()}
    assert lens_summary(obj) == f"2.0× faster than eager · {WORDS} · chosen direction: M"
    [m] = scan_python(KERNELBENCH).modules
    hover = module_hover(m, obj, None, None)
    assert f"Speed of light: **{WORDS}** · bound 26 us (memory): 1.05 MB and 262 kFLOP, at memory 40 GB/s" in hover
    assert "Stopped early after round 1: the best runs at 91% of its speed of light (memory-bound); 12 candidates " \
           "(about 40 s) not spent" in hover
    assert figure_text(best).endswith(f", {WORDS})")
    job = Job("j", "optimize", "t", [], tmp_path, "cpu", {}, tmp_path / "log")
    job.best = best
    assert job.status_json()["speedOfLight"] == WORDS


def test_without_a_bound_the_views_say_nothing_of_it():
    best = _best(None)
    assert best["speed_of_light"] is None and best["speed_of_light_text"] is None
    obj = {"best": best, "rounds": [{"direction": "M"}]}
    assert lens_summary(obj) == "2.0× faster than eager · chosen direction: M"
    assert "speed of light" not in figure_text(best)


def test_a_run_without_the_engines_summary_takes_the_figure_of_its_best_pairs_row():
    """A stopped or killed run: the best is rebuilt from the store's rows, and its figure is its pair's row's."""
    rows = [{"id": "r1c2", "status": "valid", "speedup": 1.5, "candidate_ms": 0.05, "reference_ms": 0.075,
             "outcome": {"speed_of_light": SpeedOfLight("memory", 1, 0, "memory 40 GB/s", 0.5, 0.025, 0.05).to_json()}},
            {"id": "r1c2" + RETIMED, "status": "valid", "speedup": 2.0, "candidate_ms": 0.042, "reference_ms": 0.084,
             "outcome": {"speed_of_light": SOL.to_json()}}]
    best = canonical_best({"candidate_id": "r1c2", "speedup": 2.0}, rows)
    assert best["retimed"] and best["speed_of_light"]["fraction"] == 0.62  # the re-timing's, not the first pair's
