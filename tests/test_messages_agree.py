"""Messages that agree with their numbers (issue 37): every reason names its actual trigger with its actual value,
the kept folder says what is known, a slowdown never reads 0.01x, and docs/protocol.md states the rule the code
applies (it said "unstable when spread is over 1.0" where the code's trigger was another)."""

from __future__ import annotations

import re
from pathlib import Path

from contracts import verdict as rule
from contracts.runrecord import NOT_DELIVERED_DIR, Figure, not_delivered_reason
from contracts.shapes import ShapeCheck, ShapeReport

REPO = Path(__file__).resolve().parent.parent


def test_the_shape_line_says_a_slowdown_by_its_size() -> None:
    report = ShapeReport(1024, (ShapeCheck(1, "valid", "", 13.46, 0.153), ShapeCheck(2048, "valid", "", 1.0, 2.1)))
    said = report.summary()
    assert "(88x slower, 2.1x)" in said and "0.01" not in said, said


def test_a_not_delivered_reason_names_the_interval_that_decided() -> None:
    level = Figure.of_pair(1.0, 4.01, True, 0.3, 0.9, interval=(0.8, 19.7, 0.95))
    said = not_delivered_reason(level)
    assert said.startswith("not delivered: its figure is 4.0x, level with eager (0.80–20x at 95%, which includes 1)")
    assert "not faster than eager" not in said  # a 4.01x is not called "not faster"; its interval includes 1
    slower = Figure.of_pair(2.0, 1.0, True, 0.02, 0.02, interval=(0.47, 0.53, 0.95))
    assert "2.0x slower, slower than eager (1.9–2.1x slower at 95%, all of it below 1)" in not_delivered_reason(slower)


def test_an_unstable_reason_names_its_trigger_and_value() -> None:
    flag = ("unstable_timing: the candidate's call (0.012 ms) is shorter than the scatter of the checker's clock "
            "around it (0.3 ms), so its time cannot be read; time it again on a quieter machine")
    fig = Figure.of_pair(0.012, 0.036, True, 0.05, 0.05, unstable=True, interval=(2.5, 3.5, 0.95))
    said = not_delivered_reason(fig, [flag, "timing_swing: eager's calls ran 5 to 84 ms"])
    assert "the candidate's call (0.012 ms) is shorter than the scatter of the checker's clock around it (0.3 ms)" \
        in said
    assert "limit is 100%" not in said and "timing_swing" not in said
    assert NOT_DELIVERED_DIR == "not-delivered"


def test_the_protocol_page_states_the_rule_the_code_applies() -> None:
    page = " ".join((REPO / "docs" / "protocol.md").read_text().split())
    assert "sqrt(0.95)" in page and f"z = {rule.Z_SIDE}" in page and f"up to {rule.EXACT_N} samples" in page
    assert "spans more than 2x" in page and rule.WIDE == 2.0
    from engine.retiming import MORE_PAIRS

    assert MORE_PAIRS == 2 and "at most twice more" in page
    assert "`.hiera/runs/RUN/not-delivered/`" in page and "`REASON.txt`" in page
    assert not re.search(r"unstable. when .spread. is over 1\.0", page)
    from engine.evaluate import timing

    assert f"fastest to median over {timing.SWING:g}x or spread over {timing.WIDE_SPREAD:.0%}" in page
