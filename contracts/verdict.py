"""What one timed pair says, and the words for it: the one rule, whoever shows a figure.

A candidate is timed interleaved with its own eager run. Each side's timing has a *spread* (its interquartile
range over its median, `timing_spread`); the *pair's spread* is the larger of the two (`pair_spread`). The
verdict (`verdict_of`):

* **unstable** when either spread is over UNSTABLE_SPREAD: the middle half of that timing's runs then spans more
  than its median itself, and the ratio of such a median is not a measurement ("re-run on a quiet machine");
  a spread short of that is shown with the figure and widens the band of "level" (below);
* **faster** / **slower** when the speedup is beyond the pair's spread in that direction, log-symmetrically
  (1.2x and 1/1.2x alike: faster when speedup > 1 + spread, slower when speedup < 1 / (1 + spread));
* **level** otherwise.

The same band gives the range shown beside a figure (`band`: speedup / (1 + spread) to speedup x (1 + spread)),
so a verdict can be read off its range: faster when the whole range is above 1, slower when below.

The words (`ratio_text`, `headline`, `uncertainty`, `flag_words`) are the ones every view prints: a slowdown as
"88× slower" (never "0.01×"), two significant figures where the spread is wider than the second decimal (9.0×,
not 8.99×, from a pair that moves by ±40%). The engine (engine/loop.py), `hiera report`, the language server
(hiera_ls/) and — through the typed wire — the editor extension use this module; the extension's one port of
`ratio_text` (editors/vscode/src/results/format.ts) is tested against it on the rows of
tests/data/verdict_rows.json, which every consumer's test reads.

Imports nothing beyond the standard library.
"""

from __future__ import annotations

import enum
import math
import re
import statistics
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

# A timing whose interquartile range is wider than its median: its median is not a figure to divide by. (The
# 2-core development machine under other work gives spreads of 8-60%, and 137-163% at its worst; the H200 1-3%.)
UNSTABLE_SPREAD = 1.0
# The evaluator's flag on a pair one of whose sides swung too far for its median to mean anything (a fastest call
# far under the median: engine/evaluate/checker.py _stability); such a pair is unstable whatever its spreads say.
UNSTABLE_FLAG = "unstable_timing"


def flagged_unstable(flags: object) -> bool:
    """Whether an outcome's flags (a list of strings) carry the evaluator's unstable_timing flag."""
    return isinstance(flags, (list, tuple)) and any(str(f).startswith(UNSTABLE_FLAG) for f in flags)
# A speedup the checker flags as implausible (engine/evaluate/requests.py takes its default from here).
EXCESSIVE_SPEEDUP = 10.0
TIMES = "×"  # the editor's multiplication sign; the CLI passes sign="x"


class Verdict(str, enum.Enum):
    FASTER = "faster"
    LEVEL = "level"  # the speedup is inside the spread of the two timings it comes from
    SLOWER = "slower"
    UNSTABLE = "unstable"  # a timing's own spread is over UNSTABLE_SPREAD: no verdict from this pair


VERDICTS = tuple(v.value for v in Verdict)


# --- the rule ------------------------------------------------------------------------------------------------

def median(values: Iterable[float]) -> float | None:
    """The usual median: the middle value, or the mean of the two middle values of an even count."""
    xs = [float(v) for v in values]
    return statistics.median(xs) if xs else None


def timing_spread(p25_ms: float, p75_ms: float, median_ms: float) -> float:
    """One timing's spread: its interquartile range over its median (0.04 = the middle half within 4%)."""
    return (p75_ms - p25_ms) / median_ms if median_ms > 0 else 0.0


def pair_spread(candidate_spread: float | None, reference_spread: float | None) -> float:
    """The pair's spread: the larger of its two timings' spreads (a side not measured counts 0)."""
    return max(candidate_spread or 0.0, reference_spread or 0.0)


def verdict_of(speedup: float, spread: float, limit: float = UNSTABLE_SPREAD) -> Verdict:
    """Unstable over the limit; else faster or slower only beyond the pair's own spread, in either direction."""
    if spread > limit:
        return Verdict.UNSTABLE
    if math.log(speedup) > math.log1p(spread):
        return Verdict.FASTER
    if -math.log(speedup) > math.log1p(spread):
        return Verdict.SLOWER
    return Verdict.LEVEL


def band(speedup: float, spread: float) -> tuple[float, float]:
    """The range a speedup moves in within its pair's spread: speedup / (1 + spread) to speedup x (1 + spread)."""
    return speedup / (1 + spread), speedup * (1 + spread)


# --- the words -----------------------------------------------------------------------------------------------

def fixed(x: float, digits: int) -> str:
    """x with `digits` decimals, rounded half up from its exact binary value: what JavaScript's toFixed does,
    so that the extension's port (format.ts) writes the same digits (Python's own formatting rounds half to
    even: 1.125 would read 1.12 here and 1.13 there)."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def figure_text(x: float, spread: float | None = None) -> str:
    """A ratio's digits: two decimals, or two significant figures where its spread is wider than the second
    decimal (x * spread > 0.01): 8.99 with a ±40% spread reads 9.0, 17.04 reads 17, 0.674 reads 0.67."""
    if spread is None or x * spread <= 0.01 or x <= 0:
        return fixed(x, 2)
    digits = max(0, 1 - math.floor(math.log10(x)))
    text = fixed(x, digits)
    if math.floor(math.log10(float(text))) != math.floor(math.log10(x)):  # 9.96 -> 10.0 -> 10
        text = fixed(x, max(0, 1 - math.floor(math.log10(float(text)))))
    return text


def ratio_text(speedup: float | None, spread: float | None = None, sign: str = TIMES) -> str:
    """'1.40×' at or above eager's speed, '88× slower' below it (the slowdown's own size); '-' for none."""
    if not _positive(speedup):
        return "-"
    assert speedup is not None
    if speedup >= 1.0:
        return f"{figure_text(speedup, spread)}{sign}"
    return f"{figure_text(1.0 / speedup, spread)}{sign} slower"


def headline(speedup: float | None, verdict: str | None, spread: float | None = None, sign: str = TIMES) -> str:
    """What a figure says, first: '1.4× faster than eager', '88× slower than eager', 'level with eager',
    'unstable timing: re-run on a quiet machine' (the numbers behind the last two are in `uncertainty`)."""
    if not _positive(speedup):
        return "no speedup measured"
    assert speedup is not None
    if verdict == Verdict.UNSTABLE.value:
        return "unstable timing: re-run on a quiet machine"
    if verdict == Verdict.LEVEL.value:
        return "level with eager"
    if verdict == Verdict.SLOWER.value or (verdict is None and speedup < 1.0):
        return f"{ratio_text(speedup, spread, sign)} than eager"
    return f"{ratio_text(speedup, spread, sign)} faster than eager"


def percent(spread: float) -> str:
    """A spread as a person reads it: '±2%', '±137%', '±0.4%'."""
    pct = spread * 100
    return f"±{pct:.1f}%" if 0 < pct < 1 else f"±{pct:.0f}%"


def uncertainty(speedup: float | None, verdict: str | None, spread: float | None,
                candidate_spread: float | None = None, reference_spread: float | None = None,
                sign: str = TIMES) -> str:
    """How sure the figure is, for the hover and the results view: '±40%: 6.4–13×' (the band of its pair's
    spread), a level figure with its ratio ('1.0× ±4%: 0.97–1.1×'), an unstable one with both spreads
    ('9.0× from timings spread ±120% (candidate) and ±137% (eager), over the ±100% limit'); just the spread where
    the band is too narrow to show at the figure's digits ('±2%'); '' when unknown."""
    if not _positive(speedup) or spread is None:
        return ""
    assert speedup is not None
    if verdict == Verdict.UNSTABLE.value:
        sides = [f"{percent(s)} ({who})" for s, who in ((candidate_spread, "candidate"), (reference_spread, "eager"))
                 if s is not None]
        spreads = " and ".join(sides) if sides else percent(spread)
        return (f"{ratio_text(speedup, spread, sign)} from timings spread {spreads}, over the "
                f"{percent(UNSTABLE_SPREAD)} limit")
    lo, hi = band(speedup, spread)
    slowdown = speedup < 1.0 and verdict != Verdict.LEVEL.value  # its range in its own terms: 85–91× slower
    a, b = (figure_text(1 / hi, spread), figure_text(1 / lo, spread)) if slowdown else (
        figure_text(lo, spread), figure_text(hi, spread))
    lead = f"{figure_text(speedup, spread)}{sign} " if verdict == Verdict.LEVEL.value else ""
    if a == b:  # a narrow band: at these digits the range is the figure itself
        return f"{lead}{percent(spread)}"
    return f"{lead}{percent(spread)}: {a}–{b}{sign}{' slower' if slowdown else ''}"


def verdict_phrase(verdict: str, spread: float, candidate_spread: float | None = None,
                   reference_spread: float | None = None) -> str:
    """The verdict as a clause after a figure (the engine's result note, the CLI): 'faster than eager (beyond the
    3% spread of these timings)'."""
    if verdict == Verdict.UNSTABLE.value:
        sides = ", ".join(f"{who} {s:.0%}" for who, s in (("candidate", candidate_spread), ("eager", reference_spread))
                          if s is not None)
        return (f"unstable timing: re-run on a quiet machine (spreads: {sides or f'{spread:.0%}'}; the limit is "
                f"{UNSTABLE_SPREAD:.0%})")
    where = "within" if verdict == Verdict.LEVEL.value else "beyond"
    what = {"faster": "faster than eager", "level": "level with eager", "slower": "slower than eager"}[verdict]
    return f"{what} ({where} the {spread:.0%} spread of these timings)"


# The engine's flags (engine/evaluate/checker.py, engine/loop.py) are "<kind>: <detail>" or a sentence.
_FLAG_KIND = re.compile(r"^(?P<kind>[a-z_]+): (?P<detail>.*)$", re.S)
_NOISY = re.compile(r"ran at (?P<pair>[0-9.e+-]+) ms against the run's median (?P<median>[0-9.e+-]+) ms")


def flag_words(flag: str, sign: str = TIMES, detail: bool = False) -> str:
    """A flag the engine set on a figure, in words: 'flagged: over 10× — check before trusting'. Every view words a
    flag here: the editor's (hover, results view, message) and the terminal's, which adds the engine's own detail
    (`detail`: 'flagged: over 10x — check before trusting (17.0x; every timed call ...)')."""
    m = _FLAG_KIND.match(flag.strip())
    kind, said = (m.group("kind"), m.group("detail")) if m else ("", flag.strip())
    more = f" ({said.strip()})" if detail and said.strip() else ""
    if kind == "excessive_speedup":
        return f"flagged: over {EXCESSIVE_SPEEDUP:g}{sign} — check before trusting{more}"
    if kind == "noisy_reference":
        n = _NOISY.search(said)
        ran = f" (eager ran at {n.group('pair')} ms in this pair, the run's median is {n.group('median')} ms)" if n \
            else ""
        return f"flagged: eager was unusually slow or fast in this pair{ran} — the machine may be loaded"
    return f"flagged: {said}"


def _positive(x: float | None) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0
