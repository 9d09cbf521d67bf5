"""One candidate in one line, as `hiera optimize` says it on a terminal as it finishes: its status, and for a valid
one its figure with the verdict and the interval it is read from; for another, the first clause of its reason, cut
at a word to fit the terminal. `-v` prints the whole reason under it (each candidate took 4-5 wrapped lines that
ended mid-sentence).
"""

from __future__ import annotations

import re

from contracts.runrecord import Figure
from contracts.verdict import Verdict, interval_text, ratio_text

ELLIPSIS = "…"


def figure_words(fig: Figure) -> str:
    """'3.5x faster (1.8–5.5x at 95%)', 'level (0.94x, 0.33–2.0x at 95%)', '3.1x slower (2.9–3.4x slower at 95%)',
    'unstable (1.4x; not timed alike, see the flag)'."""
    ratio = ratio_text(fig.speedup, fig.spread, "x")
    sure = interval_text(fig.low, fig.high, fig.confidence, fig.spread, "x")
    if fig.verdict == Verdict.UNSTABLE.value:
        return f"unstable ({ratio}; the two sides were not timed alike)"
    if fig.verdict == Verdict.LEVEL.value:
        return f"level ({ratio}{f', {sure}' if sure else ''})"
    word = "faster " if fig.verdict == Verdict.FASTER.value else ""
    return f"{ratio} {word}({sure})" if sure else f"{ratio} {word}".strip()


def first_clause(reason: str) -> str:
    """The reason's first clause: up to its first '; ' or line end (a compiler's first error line stays whole)."""
    line = next((ln.strip() for ln in reason.splitlines() if ln.strip()), "")
    return re.split(r";\s", line, maxsplit=1)[0]


def fit(text: str, width: int) -> str:
    """text cut at a word to at most `width` characters, with an ellipsis where it was cut."""
    if len(text) <= width:
        return text
    cut = text[: max(width - 1, 0)]
    space = cut.rfind(" ")
    return (cut[:space] if space > width // 2 else cut).rstrip(" ,;:(") + ELLIPSIS


def candidate_line(index: int, of: int, status: str, fig: Figure | None, reason: str, width: int) -> str:
    """'  3/6 valid 3.5x faster (1.8–5.5x at 95%)', '  2/6 incorrect: out[0, 3]: expected 0.5, got…' in `width`."""
    head = f"  {index}/{of} {status}"
    what = figure_words(fig) if fig is not None else first_clause(reason)
    sep = " " if fig is not None else ": "
    return head + (sep + fit(what, width - len(head) - len(sep)) if what else "")
