"""What one timed pair says, and the words for it: the one rule, whoever shows a figure.

A candidate is timed interleaved with its own eager run: each side's timed calls are its *samples*. The figure
is the ratio of the two medians (eager's over the candidate's), and beside it a **95% confidence interval** of
that ratio (`ratio_interval`), rank-based (distribution-free; no bootstrap, so every consumer computes the same
digits): each side's median gets its order-statistic interval, the sorted samples x_(k) to x_(n+1-k) whose
coverage 1 - 2 P(Binomial(n, 1/2) < k) is at least sqrt(0.95) = 97.47% (`median_ranks`: exact binomial sums up to
EXACT_N samples, the normal approximation beyond); the two sides' samples are independent, so both medians lie
in their intervals together with probability at least 95%, and the ratio lies between eager's lower end over
the candidate's upper end and eager's upper end over the candidate's lower end. A record that kept no samples (an
engine before this rule) gets the wider quartile range instead (`quartile_interval`: eager's p25 over the
candidate's p75 to eager's p75 over the candidate's p25), said as such, never as "95%".

The verdict (`verdict_of_interval`):

* **faster** when the interval's lower end is above 1, **slower** when its upper end is below 1;
* **level** when it straddles 1 (a wide interval too: the engine takes more pairs before giving up, see
  `too_wide` and engine/retiming.py);
* **unstable** only when the evaluator found that the two sides were not timed alike (its `unstable_timing`
  flag: the checker ran the same trusted work far slower than the candidate's runner, or the candidate's call
  is shorter than the checker's clock can resolve). That is a bias no interval shows; the flag's own words say
  which, with its values. Noise, however wide, is the interval's to show, not a verdict of its own.

The best of a run (`rank`): among the faster ones the highest lower end, so a steady 3.0x (2.8-3.2x) beats a
13x whose interval reaches below 1; with none faster, the highest lower end still.

The words (`ratio_text`, `headline`, `interval_text`, `uncertainty`, `flag_words`) are the ones every view
prints: a slowdown as "88× slower" (never "0.01×"), two significant figures where the spread of the timings is
wider than the second decimal (9.0×, not 8.99×), an interval as "2.1–5.6× at 95%". The engine (engine/loop.py),
`hiera report`, the language server (hiera_ls/) and — through the typed wire — the editor extension use this
module; the extension's port (editors/vscode/src/results/verdict.ts: the interval, the verdict and the number
format) is tested against it on the rows of tests/data/verdict_rows.json, which every consumer's test reads.

Imports nothing beyond the standard library.
"""

from __future__ import annotations

import enum
import math
import re
import statistics
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal

# The confidence of a figure's interval, and each side's share of it (independent sides: the product).
CONFIDENCE = 0.95
SIDE_CONFIDENCE = math.sqrt(CONFIDENCE)
# Up to this many samples a side's ranks come from exact binomial sums (0.5**n is still a normal double); beyond
# it from the normal approximation with Z_SIDE, the two-sided normal quantile of SIDE_CONFIDENCE.
EXACT_N = 1000
Z_SIDE = 2.2365
# A straddling interval whose upper end is over this many times its lower end says too little: the engine takes
# more pairs of the candidate (engine/retiming.py MORE_PAIRS) before it gives the verdict up as level.
WIDE = 2.0


class FlagKind(str, enum.Enum):
    """The kinds of flag the engine sets on a figure (Outcome.flags). A flag travels and is stored as text,
    "<kind>: <detail>" (flag_text), so that older records and every view read it as they always did; the engine
    writes it only through flag_text, and the views read the kind back only through flag_kind."""

    EXCESSIVE_SPEEDUP = "excessive_speedup"  # over the plausibility bound (checker.py)
    NOISY_REFERENCE = "noisy_reference"  # the pair's eager ran far from the run's median (retiming.py)
    UNSTABLE_TIMING = "unstable_timing"  # the two sides were not timed alike (clock_check.py): no verdict
    TIMING_SWING = "timing_swing"  # one side's calls scattered: a busy machine (clock_check.py)
    FIXED_SHAPE = "fixed_shape"  # valid only at the given shapes (checker.py)
    SELF_DISAGREEMENT = "self_disagreement"  # the reference disagreed with itself on a trial (checker.py)
    HOST_TIME_CHARGED = "host_time_charged"  # the call's host time charged by the checker's clock (checker.py)
    SINGLE_TIMING_SET = "single_timing_set"  # one input set timed: an address cache not ruled out (checker.py)
    HELPER_THREADS = "helper_threads"  # threads left in the runner after its timed calls (checker.py)
    BACK_TO_BACK_SLOWER = "back_to_back_slower"  # held to its back-to-back time (back_to_back.py)
    HOST_DRIFT = "host_drift"  # a host-bound forward's reference drifted between its timing blocks (checker.py)
    CHECKER_ERROR = "checker_error"  # hiera's checker itself raised: no verdict on the candidate (checker.py)
    TASK_STATEFUL = "task_stateful"  # the task's forward changes its own weights or buffers: no one can be judged


# The evaluator's flag on a pair whose two sides were not timed alike (engine/evaluate/clock_check.py): such a
# pair is unstable whatever its interval says.
UNSTABLE_FLAG = FlagKind.UNSTABLE_TIMING.value


def flagged_unstable(flags: object) -> bool:
    """Whether an outcome's flags (a list of strings) carry the evaluator's unstable_timing flag."""
    return isinstance(flags, (list, tuple)) and any(str(f).startswith(UNSTABLE_FLAG) for f in flags)


# A speedup the checker flags as implausible (engine/evaluate/requests.py takes its default from here).
EXCESSIVE_SPEEDUP = 10.0
TIMES = "×"  # the editor's multiplication sign; the CLI passes sign="x"


class Verdict(str, enum.Enum):
    FASTER = "faster"  # the whole interval above 1
    LEVEL = "level"  # the interval straddles 1
    SLOWER = "slower"  # the whole interval below 1
    UNSTABLE = "unstable"  # the evaluator found the two sides not timed alike: no verdict from this pair


VERDICTS = tuple(v.value for v in Verdict)


# --- the rule ------------------------------------------------------------------------------------------------

def median(values: Iterable[float]) -> float | None:
    """The usual median: the middle value, or the mean of the two middle values of an even count."""
    xs = [float(v) for v in values]
    return statistics.median(xs) if xs else None


def timing_spread(p25_ms: float, p75_ms: float, median_ms: float) -> float:
    """One timing's spread: its interquartile range over its median (0.04 = the middle half within 4%). It sets a
    figure's digits; the verdict is the interval's."""
    return (p75_ms - p25_ms) / median_ms if median_ms > 0 else 0.0


def pair_spread(candidate_spread: float | None, reference_spread: float | None) -> float:
    """The pair's spread: the larger of its two timings' spreads (a side not measured counts 0)."""
    return max(candidate_spread or 0.0, reference_spread or 0.0)


def median_ranks(n: int, confidence: float = SIDE_CONFIDENCE) -> tuple[int, int]:
    """0-based indexes (lo, hi) into n sorted samples whose values bound their median with at least `confidence`:
    x_(k) and x_(n+1-k) for the largest k with P(Binomial(n, 1/2) <= k - 1) <= (1 - confidence) / 2. Fewer
    samples than any k allows (n < 8 at 97.47%): the least and the greatest."""
    if n <= 0:
        raise ValueError("no samples")
    tail = (1.0 - confidence) / 2.0
    if n > EXACT_N:
        k = math.floor(n / 2 - Z_SIDE * math.sqrt(n) / 2)
    else:
        pmf = 0.5 ** n
        cdf = pmf
        k = 0  # P(B <= k - 1) <= tail holds for k = 0 trivially; find the largest k
        i = 0
        while cdf <= tail and i < n:
            k = i + 1
            pmf = pmf * (n - i) / (i + 1)
            i += 1
            cdf += pmf
    k = max(k, 1)
    return k - 1, n - k


def ratio_interval(candidate_samples: Sequence[float], reference_samples: Sequence[float],
                   confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The interval of eager's median over the candidate's, at `confidence`, from each side's samples (see the
    module docstring); None when a side has no positive samples."""
    c = sorted(float(x) for x in candidate_samples)
    r = sorted(float(x) for x in reference_samples)
    if not c or not r or c[0] <= 0 or r[0] <= 0:
        return None
    side = math.sqrt(confidence)
    c_lo, c_hi = median_ranks(len(c), side)
    r_lo, r_hi = median_ranks(len(r), side)
    return r[r_lo] / c[c_hi], r[r_hi] / c[c_lo]


def quartile_interval(candidate_p25: float, candidate_p75: float, reference_p25: float,
                      reference_p75: float) -> tuple[float, float] | None:
    """For a record without samples: eager's p25 over the candidate's p75 to eager's p75 over the candidate's
    p25 (wider than the 95% interval once a side has 20 or more samples; not a confidence interval)."""
    if not (candidate_p25 > 0 and candidate_p75 > 0 and reference_p25 > 0 and reference_p75 > 0):
        return None
    return reference_p25 / candidate_p75, reference_p75 / candidate_p25


def timings_interval(candidate: object, reference: object) -> tuple[float, float, float | None] | None:
    """(low, high, confidence) of a pair from its two timings as stored (mappings or objects with `samples`,
    `p25_ms`, `p75_ms`): the 95% interval from their samples, else the quartile range (confidence None); None
    when neither can be had."""
    def get(t: object, k: str) -> object:
        return t.get(k) if isinstance(t, dict) else getattr(t, k, None)

    cs, rs = get(candidate, "samples"), get(reference, "samples")
    if isinstance(cs, (list, tuple)) and isinstance(rs, (list, tuple)) and cs and rs:
        iv = ratio_interval(cs, rs)  # type: ignore[arg-type]
        if iv is not None:
            return iv[0], iv[1], CONFIDENCE
    q = [get(candidate, "p25_ms"), get(candidate, "p75_ms"), get(reference, "p25_ms"), get(reference, "p75_ms")]
    if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in q):
        iv = quartile_interval(*q)  # type: ignore[arg-type]
        if iv is not None:
            return iv[0], iv[1], None
    return None


def verdict_of_interval(low: float, high: float) -> Verdict:
    """Faster when the whole interval is above 1, slower when it is below 1, level when it straddles 1."""
    if low > 1.0:
        return Verdict.FASTER
    if high < 1.0:
        return Verdict.SLOWER
    return Verdict.LEVEL


def too_wide(low: float | None, high: float | None) -> bool:
    """An interval that straddles 1 and spans more than WIDE: worth more pairs before the verdict is given up."""
    return low is not None and high is not None and low <= 1.0 <= high and high > WIDE * low


def rank(verdict: str | None, low: float | None) -> tuple[int, float]:
    """The key a run's best is the largest of: faster ones first, then the highest lower end of the interval
    (a figure without an interval counts its lower end 0)."""
    return (1 if verdict == Verdict.FASTER.value else 0, low if isinstance(low, (int, float)) and low > 0 else 0.0)


def verdict_of(speedup: float, spread: float) -> Verdict:
    """Two figures compared where no samples are at hand (the bench's summary against torch.compile's figure):
    beyond the larger spread in either direction, log-symmetrically. A figure's own verdict is
    verdict_of_interval's."""
    if math.log(speedup) > math.log1p(spread):
        return Verdict.FASTER
    if -math.log(speedup) > math.log1p(spread):
        return Verdict.SLOWER
    return Verdict.LEVEL


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
    'unstable timing: ...' (the interval behind them is `uncertainty`; an unstable pair's trigger is its flag)."""
    if not _positive(speedup):
        return "no speedup measured"
    assert speedup is not None
    if verdict == Verdict.UNSTABLE.value:
        return UNSTABLE_HEADLINE
    if verdict == Verdict.LEVEL.value:
        return "level with eager"
    if verdict == Verdict.SLOWER.value or (verdict is None and speedup < 1.0):
        return f"{ratio_text(speedup, spread, sign)} than eager"
    return f"{ratio_text(speedup, spread, sign)} faster than eager"


UNSTABLE_HEADLINE = "unstable timing: the two sides were not timed alike, time it again"


def percent(spread: float) -> str:
    """A spread as a person reads it: '±2%', '±137%', '±0.4%'."""
    pct = spread * 100
    return f"±{pct:.1f}%" if 0 < pct < 1 else f"±{pct:.0f}%"


def interval_text(low: float | None, high: float | None, confidence: float | None, spread: float | None = None,
                  sign: str = TIMES) -> str:
    """An interval as every view writes it: '2.1–5.6× at 95%', '5.3–6.4× slower at 95%' (wholly below 1: in the
    slowdown's own terms), '0.80–1.3× at 95%' (straddling 1); '(quartile range)' instead of the confidence for a
    record that kept no samples; '' for none. The ends have the figure's digits, two decimals where those would
    write both ends alike."""
    if not (_positive(low) and _positive(high)):
        return ""
    assert low is not None and high is not None
    slowdown = high < 1.0
    lo, hi = (1.0 / high, 1.0 / low) if slowdown else (low, high)
    a, b = figure_text(lo, spread), figure_text(hi, spread)
    if a == b:
        a, b = fixed(lo, 2), fixed(hi, 2)
    ends = f"{a}{sign}" if a == b else f"{a}–{b}{sign}"
    at = f"at {confidence * 100:.0f}%" if isinstance(confidence, (int, float)) else "(quartile range)"
    return f"{ends}{' slower' if slowdown else ''} {at}"


def uncertainty(speedup: float | None, verdict: str | None, spread: float | None, low: float | None = None,
                high: float | None = None, confidence: float | None = None, sign: str = TIMES) -> str:
    """How sure the figure is, for the hover and the results view: its interval ('2.1–5.6× at 95%'), a level
    figure with its ratio first ('1.0×, 0.80–1.3× at 95%'); '' when unknown."""
    text = interval_text(low, high, confidence, spread, sign)
    if not text or not _positive(speedup):
        return ""
    assert speedup is not None
    if verdict in (Verdict.LEVEL.value, Verdict.UNSTABLE.value):
        return f"{figure_text(speedup, spread)}{sign}, {text}"
    return text


def verdict_phrase(verdict: str, low: float | None = None, high: float | None = None,
                   confidence: float | None = None, spread: float | None = None, sign: str = "x") -> str:
    """The verdict as a clause after a figure (the engine's result note, the CLI): 'faster than eager (2.1–5.6x at
    95%, all of it above 1)', 'level with eager (0.80–1.3x at 95%, which includes 1)'."""
    if verdict == Verdict.UNSTABLE.value:
        return "no verdict: the two sides were not timed alike (the flag says how); time it again"
    what = {"faster": "faster than eager", "level": "level with eager", "slower": "slower than eager"}.get(
        verdict, str(verdict))
    text = interval_text(low, high, confidence, spread, sign)
    if not text:
        return what
    where = {"faster": "all of it above 1", "level": "which includes 1", "slower": "all of it below 1"}.get(verdict)
    return f"{what} ({text}{f', {where}' if where else ''})"


# The engine's flags are "<kind>: <detail>" (flag_text) or, from older records and the timing's own notes, a
# sentence.
_FLAG_KIND = re.compile(r"^(?P<kind>[a-z_]+): (?P<detail>.*)$", re.S)
_NOISY = re.compile(r"ran at (?P<pair>[0-9.e+-]+) ms against the run's median (?P<median>[0-9.e+-]+) ms")


def flag_text(kind: FlagKind, detail: str) -> str:
    """A flag as it travels and is stored: "<kind>: <detail>"."""
    return f"{kind.value}: {detail}"


def flag_kind(flag: str) -> tuple[FlagKind | None, str]:
    """A flag's kind (None for a sentence, or a kind this version does not know) and its detail."""
    m = _FLAG_KIND.match(flag.strip())
    if m is None:
        return None, flag.strip()
    try:
        return FlagKind(m.group("kind")), m.group("detail")
    except ValueError:
        return None, m.group("detail")


def flag_detail(flags: Iterable[str], kind: FlagKind) -> str | None:
    """The detail of the first flag of `kind` among an outcome's flags; None when it carries none."""
    return next((d for k, d in map(flag_kind, flags) if k is kind), None)


def task_refused(outcome_flags: Iterable[Sequence[str]]) -> str | None:
    """Why no candidate can be judged on this task (the task_stateful flag's words) when every outcome given
    (their flags, one sequence each) carries it; else None."""
    found = None
    for flags in outcome_flags:
        found = flag_detail(flags, FlagKind.TASK_STATEFUL)
        if found is None:
            return None
    return found


def noisy_reference_flag(pair_ms: float, median_ms: float) -> str:
    """The engine's noisy_reference flag (engine/retiming.py sets it), worded here beside flag_words, which reads
    its numbers back for the views: one wording, so the two cannot drift apart."""
    return flag_text(FlagKind.NOISY_REFERENCE, f"its paired reference ran at {pair_ms:.4g} ms against the run's "
                     f"median {median_ms:.4g} ms (machine load?)")


def flag_words(flag: str, sign: str = TIMES, detail: bool = False) -> str:
    """A flag the engine set on a figure, in words: 'flagged: over 10× — check before trusting'. Every view words a
    flag here: the editor's (hover, results view, message) and the terminal's, which adds the engine's own detail
    (`detail`: 'flagged: over 10x — check before trusting (17.0x; every timed call ...)')."""
    kind, said = flag_kind(flag)
    more = f" ({said.strip()})" if detail and said.strip() else ""
    if kind is FlagKind.EXCESSIVE_SPEEDUP:
        return f"flagged: over {EXCESSIVE_SPEEDUP:g}{sign} — check before trusting{more}"
    if kind is FlagKind.NOISY_REFERENCE:
        n = _NOISY.search(said)
        ran = f" (eager ran at {n.group('pair')} ms in this pair, the run's median is {n.group('median')} ms)" if n \
            else ""
        return f"flagged: eager was unusually slow or fast in this pair{ran} — the machine may be loaded"
    return f"flagged: {said}"


def _positive(x: float | None) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0
