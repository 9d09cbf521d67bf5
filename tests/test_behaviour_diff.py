"""tools/behaviour_diff.py's normaliser on hand-made records (no engine runs): two runs that differ only in
what legitimately differs (ids, paths, seconds, measured numbers) come out the same; a different status, a
different count or a different strategy does not."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("behaviour_diff", ROOT / "tools" / "behaviour_diff.py")
assert _spec is not None and _spec.loader is not None
bd = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bd)


def record(run: str, cand: str, ws: str, ms: float, status: str = "valid", strategy: str = "R.fuse_pointwise",
           trials: int = 5) -> dict:
    src = f"{ws}/.hiera/runs/{run}/candidates/r1c1-{cand}.cpp"
    reason = (f"correct on {trials} trials and 4 off-distribution variants; {2.0 / ms:.2f}x over the reference "
              f"(2.0 ms -> {ms:.4g} ms, median of {int(1000 * ms) % 97 + 20})")
    return {
        "rc": 0,
        "events": [
            {"event": "run_started", "run_id": run, "task": f"{ws}/scale_bias_relu.py", "budget": 4,
             "store": f"{ws}/.hiera/hiera.db"},
            {"event": "round_started", "round": 1, "space": "pure_cuda", "direction": "R", "strategy": strategy,
             "scores": {"R": 0.8}},
            {"event": "candidate_finished", "round": 1, "index": 1, "candidate_id": f"r1c1-{cand}", "source": src,
             "status": status, "reason": reason, "speedup": 2.0 / ms, "candidate_ms": ms,
             "best": {"candidate_id": f"r1c1-{cand}", "speedup": 2.0 / ms, "verdict": "faster"}},
        ],
        "result": {"run_id": run, "status": "finished", "candidates": 1, "best": {"candidate_id": f"r1c1-{cand}"}},
        "store": {
            "runs": [{"id": run, "status": "finished", "started": 1764636341.25 + ms, "pid": int(ms * 1000),
                      "host": "somewhere", "settings": {"rounds": 2}}],
            "candidates": [{"run_id": run, "id": f"r1c1-{cand}", "status": status, "reason": reason,
                            "source_path": src, "build_s": ms / 7, "created": 1764636342.5 + ms, "flags": []}],
        },
        "paths": {"<ws>": Path(ws), "<src>": Path("/tmp/src")},
    }


def normalised(rec: dict) -> list[str]:
    return bd.normalised(rec, keep_measured=False)


def test_ids_paths_seconds_and_measured_numbers_are_normalised_away():
    a = record("20261202-004541-9a27", "81777b", "/tmp/behaviour_diff-abc/run-old/ws-expert", 7.917)
    b = record("20261202-010203-0f1e", "c55342", "/tmp/behaviour_diff-xyz/run-new/ws-expert", 0.4073)
    assert a != b
    assert normalised(a) == normalised(b)
    text = "\n".join(normalised(a))
    assert "9a27" not in text and "81777b" not in text and "/tmp/behaviour_diff" not in text
    assert "r1c1-<h>" in text and "<ws>/.hiera/runs/<run>/candidates/r1c1-<h>.cpp" in text
    # counts, correctness trials and statuses are kept; measured figures (the timed calls' count among them) are
    # not
    assert "median of <measured>" in text and "correct on 5 trials and 4 off-distribution variants" in text
    assert "7.917" not in text and "<n>x over the reference" in text


def test_a_different_status_count_or_strategy_is_a_difference():
    a = record("20261202-004541-9a27", "81777b", "/tmp/ws-a", 7.917)
    for change in (dict(status="incorrect"), dict(strategy="P.cpu_threads"), dict(trials=3)):
        b = record("20261202-010203-0f1e", "c55342", "/tmp/ws-b", 0.4073, **change)
        assert normalised(a) != normalised(b), change


def test_the_measured_decisions_are_masked_unless_kept():
    a = record("20261202-004541-9a27", "81777b", "/tmp/ws-a", 7.917)
    b = copy.deepcopy(a)
    b["events"][2]["best"]["verdict"] = "unstable"
    b["rc"] = 3
    assert normalised(a) == normalised(b)
    assert bd.normalised(a, keep_measured=True) != bd.normalised(b, keep_measured=True)


def test_drawn_batch_sizes_are_seeded_and_retiming_progress_is_measured():
    """Issue 38's shape variants are drawn per run, like the inputs; re-timing progress lines and a round's profile
    step follow from measured figures. A different outcome at those sizes is still a difference."""
    a = record("20261202-004541-9a27", "81777b", "/tmp/ws-a", 7.917)
    b = copy.deepcopy(a)
    a["events"][2]["reason"] += "; valid at batch 1, 9, 149, 349, 512 beside 256 (1.2x, 0.9x slower)"
    b["events"][2]["reason"] += "; valid at batch 1, 75, 97, 225, 512 beside 256 (1.3x, 1.1x faster)"
    a["events"][2]["shapes"] = {"batch": 256, "checks": [{"batch": 9, "status": "valid"}]}
    b["events"][2]["shapes"] = {"batch": 256, "checks": [{"batch": 75, "status": "valid"}]}
    b["events"].append({"event": "progress", "done": 7, "total": 8, "what": "re-timing r2c2-c55342 on its own"})
    b["events"].append({"event": "progress", "done": 3, "total": 6,
                        "what": "profiling r1c1-c55342 with Nsight Compute"})
    assert normalised(a) == normalised(b)
    c = copy.deepcopy(a)
    c["events"][2]["reason"] = c["events"][2]["reason"].replace("valid at batch", "declined at batch")
    c["events"][2]["shapes"]["checks"][0]["status"] = "incorrect"
    assert normalised(a) != normalised(c)
    assert bd.normalised(a, keep_measured=True) != bd.normalised(b, keep_measured=True)


def test_a_burst_length_and_a_range_of_figures_are_measured():
    """How many calls a back-to-back burst makes follows from the time per call, and a range of figures ("12–0.8x")
    is measured at both ends; a different status beside them is still a difference."""
    a = record("20261202-004541-9a27", "81777b", "/tmp/ws-a", 7.917)
    b = copy.deepcopy(a)
    a["events"][2]["extra"] = {"back_to_back": {"calls": 128}}
    b["events"][2]["extra"] = {"back_to_back": {"calls": 7}}
    a["events"][2]["reason"] += "; slower than eager (12–0.8x at 95%, all of it below 1)"
    b["events"][2]["reason"] += "; slower than eager (0.52–0.9x at 95%, all of it below 1)"
    assert normalised(a) == normalised(b)
    b["events"][2]["status"] = "incorrect"
    assert normalised(a) != normalised(b)
