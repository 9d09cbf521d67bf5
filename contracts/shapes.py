"""Which shapes a task lets vary, and which of them a candidate was verified on (issue 29).

A task's `get_inputs()` fixes one set of shapes; a user calls the module with others. hiera varies one
dimension, the batch: dim 0, when it is shared by every tensor input and every output (the probe checks
on the meta device that the reference accepts other sizes there and that its outputs follow; a module
that fixes the size, e.g. a parameter shaped by it, has no variants). Every candidate is then verified on
a few batch sizes beside the given one, drawn afresh for it inside the range the reference accepts
(`draw_sizes`, issue 38: a kernel correct only at announced sizes is not delivered for the sizes between), and
what it was found valid on decides what its exported file serves itself (`Coverage`); anything else runs the
reference's own forward.

Plain data and the standard library only: the probe, the contract, the checker, the export and the run
record all read these.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from contracts.verdict import ratio_text


def variant_sizes(batch: int) -> tuple[int, ...]:
    """The batch sizes the probe runs the reference at (on the meta device) beside `batch`: 1, half of it, an odd
    size and twice it (those that differ from it), ascending. Those it accepts bound the range candidates are
    checked over (`bounds`); the sizes a candidate is checked at are drawn inside it for each one (`draw_sizes`)."""
    odd = batch - 1 if batch % 2 == 0 and batch > 4 else (batch + 1 if batch % 2 == 0 else batch + 2)
    return tuple(sorted({1, batch // 2, odd, 2 * batch} - {0, batch}))


def bounds(batch: int, accepted: Sequence[int], refused: Iterable[int]) -> tuple[int, int]:
    """The batch range around `batch` whose ends the reference was seen to accept, with no size it refused
    inside: [lo, hi] (lo == hi == batch when it accepted no neighbour)."""
    bad = set(refused)
    lo = hi = batch
    for s in sorted((a for a in accepted if a < batch), reverse=True):
        if any(s < r < lo for r in bad):
            break
        lo = s
    for s in sorted(a for a in accepted if a > batch):
        if any(hi < r < s for r in bad):
            break
        hi = s
    return lo, hi


def draw_sizes(batch: int, lo: int, hi: int, rng: random.Random | None = None) -> tuple[int, ...]:
    """The batch sizes one candidate is checked at beside `batch`, drawn afresh each time (issue 38): both ends
    of [lo, hi] (1, the inference call, and usually twice the batch), an odd size, a prime near half the batch
    and one size uniform in the range, ascending, those that differ from `batch`. Drawn from the system's
    secret source unless `rng` is given (tests): no list a kernel could be written for, and nothing a
    candidate reads (the contract names the range, never the sizes); a size one candidate's feedback showed is
    not the next one's."""
    if lo >= hi:
        return ()
    rng = rng or secrets.SystemRandom()
    picks = {lo, hi, rng.randint(lo, hi)}
    odds = range(lo | 1, hi + 1, 2)
    odd = _other(rng, odds, batch)
    if odd is not None:
        picks.add(odd)
    # a prime near half: the first prime from a point drawn in [3/8, 5/8] of the batch (primes are dense enough
    # that the search is short), inside the range
    start = rng.randint(max(lo, batch * 3 // 8), max(lo, min(hi, batch * 5 // 8)))
    prime = next((p for p in range(start, min(hi, 2 * start + 2) + 1) if _prime(p) and p != batch), None)
    if prime is not None:
        picks.add(prime)
    return tuple(sorted(picks - {batch}))


def _other(rng: random.Random, choices: range, avoid: int) -> int | None:
    """A member of `choices` other than `avoid`, uniformly (None when there is none)."""
    if not choices or (len(choices) == 1 and choices[0] == avoid):
        return None
    while True:
        c = rng.choice(choices)
        if c != avoid:
            return c


def _prime(n: int) -> bool:
    return n > 1 and all(n % q for q in range(2, int(n**0.5) + 1))


def generic_sizes(batch: int) -> tuple[int, int, int]:
    """Three batch sizes at which the expert generators write the code they would write for any size: odd
    (no block or vector divides them) and 2, 4 and 6 apart, so no modulus above 2 takes the same value at
    all three (codegen/general_path.py reads the general code off them)."""
    return (2 * batch + 1, 2 * batch + 3, 2 * batch + 7)


@dataclass(frozen=True)
class Coverage:
    """What an exported kernel serves itself: the batch sizes [lo, hi] its guard accepts (every other dim
    as verified), or only the given shapes (`batch_range` None). Outside it the file runs the reference."""

    batch_range: tuple[int, int] | None = None

    @property
    def general(self) -> bool:
        return self.batch_range is not None


def coverage_of(batch: int, valid: list[int], invalid: list[int]) -> Coverage:
    """The widest run of batch sizes around `batch` with no size found invalid inside it, bounded by sizes
    found valid (nothing is claimed past the last size that was checked): [lo, hi], or the given shapes only
    when neither neighbour of `batch` was valid."""
    lo = hi = batch
    for s in sorted(v for v in valid if v < batch)[::-1]:
        if any(s < bad < lo for bad in invalid):
            break
        lo = s
    for s in sorted(v for v in valid if v > batch):
        if any(hi < bad < s for bad in invalid):
            break
        hi = s
    return Coverage(None if lo == hi == batch else (lo, hi))


def describe_range(cov: Coverage, batch: int | None) -> str:
    """In words, e.g. "batch sizes 1 to 512 (dim 0)" or "only the shapes of get_inputs() (batch 256)"."""
    if cov.batch_range is None:
        return "only the shapes of get_inputs()" + (f" (batch {batch})" if batch is not None else "")
    lo, hi = cov.batch_range
    return f"batch sizes {lo} to {hi} (dim 0)"


# --- what a candidate was found valid on --------------------------------------------------------------------

SKIPPED = "skipped"  # a ShapeCheck's status for a size that was not checked (its reason says why)
# A size where the kernel is valid but eager PyTorch is this many times faster (its brief timing beyond doubt), and
# the kernel this much further behind than at the given shapes: an exported file does not serve it with the kernel
# (nor anything past it), the reference's forward does. A kernel 3x faster at the given batch and 3x slower at the
# one next to it is not what a user of other sizes wants; one as slow everywhere is judged by its given figure.
SLOWER_LIMIT = 1.5
# A ShapeCheck's status for a size the candidate refused by its own return code: a kernel specialized to the
# task's shapes (hiera's generators make them so) declines the others, which is no crash and no wrong answer.
DECLINED = "declined"


@dataclass(frozen=True)
class ShapeCheck:
    """One batch size a candidate was checked on beside the given one: an outcome status (or SKIPPED), why it
    is not valid there (or why it was not checked), and both sides' median times when it was timed."""

    batch: int
    status: str
    reason: str = ""
    candidate_ms: float | None = None
    reference_ms: float | None = None

    @property
    def speedup(self) -> float | None:
        if self.status == "valid" and self.candidate_ms and self.reference_ms:
            return self.reference_ms / self.candidate_ms
        return None

    def to_json(self) -> dict[str, object]:
        return {"batch": self.batch, "status": self.status, "reason": self.reason,
                "candidate_ms": self.candidate_ms, "reference_ms": self.reference_ms}

    @classmethod
    def from_json(cls, d: dict[str, object]) -> ShapeCheck:
        def num(v: object) -> float | None:
            return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None

        return cls(int(d.get("batch") or 0), str(d.get("status") or SKIPPED), str(d.get("reason") or ""),  # type: ignore[call-overload]
                   num(d.get("candidate_ms")), num(d.get("reference_ms")))


@dataclass(frozen=True)
class ShapeReport:
    """What a candidate was found valid on beyond get_inputs(): the given batch size and one check per other
    size (ascending). Its coverage is what an exported file of it serves itself."""

    batch: int
    checks: tuple[ShapeCheck, ...]
    # Whether the sizes checked were drawn for this candidate where it could not know them (draw_sizes): only
    # then does its coverage stand for the sizes between them, and an exported file serve it (`served`).
    drawn: bool = False
    # Its speedup over eager at the given shapes (what `slower` measures the other sizes against); None: not known.
    given_speedup: float | None = None

    @property
    def served(self) -> Coverage:
        """What an exported file of this candidate serves itself: its coverage when the sizes were drawn for it,
        else the given shapes alone (a kernel can be right at sizes it was told and wrong between them); a size
        where it is much slower than eager (ShapeCheck.slower) bounds it as an invalid one does, the reference's
        forward serving it and what lies past it."""
        if not self.drawn:
            return Coverage()
        slow = self.slower
        return coverage_of(self.batch, [v for v in self.valid if v not in slow], self.invalid + slow)

    @property
    def slower(self) -> list[int]:
        """The sizes where it is valid but eager is SLOWER_LIMIT times faster or more, and it SLOWER_LIMIT times
        further behind than at the given shapes (SLOWER_LIMIT's comment)."""
        bar = min(1.0, self.given_speedup) if self.given_speedup else 1.0
        return [c.batch for c in self.checks if c.speedup is not None and c.speedup * SLOWER_LIMIT <= bar]

    @property
    def across_sizes(self) -> float | None:
        """What a user calling the exported file at the sizes checked gets, as one figure: across_at the given
        batch's own brief timing (what the ranking weighs, brief timings on every side)."""
        return self.across_at(None)

    def across_at(self, headline: object) -> float | None:
        """The geometric mean, over the given batch (at `headline`, else its brief timing) and every size checked,
        of the speedup a call of that size sees: the kernel's (its brief timing) where the file serves it itself, 1
        where the file runs the reference's forward (a size outside `served`: invalid, declined, much slower, or
        past one of those). A size served but not timed counts nothing. None without a given figure. A view passes
        the figure it shows as the headline (a re-timed one; anything but a positive number counts as none), so
        that the two cannot disagree: a first pair of 11.6x re-timed at 6.7x read "11x across these sizes" beside
        "6.7x faster"."""
        given = _positive(headline) or _positive(self.given_speedup)
        if not given:
            return None
        ups = [given]
        for c in self.checked:
            if not self.serves(c.batch):
                ups.append(1.0)
            elif c.speedup is not None:
                ups.append(c.speedup)
        return math.exp(sum(math.log(u) for u in ups) / len(ups))

    @property
    def checked(self) -> list[ShapeCheck]:
        """The checks of sizes that were checked (not SKIPPED)."""
        return [c for c in self.checks if c.status != SKIPPED]

    def serves(self, batch: int) -> bool:
        """Whether an exported file of this candidate serves `batch` with the kernel (inside `served`)."""
        served = self.served.batch_range
        return served is not None and served[0] <= batch <= served[1]

    @property
    def serves_all(self) -> bool:
        """Its exported file serves every size it was checked at with the kernel (at least one was checked)."""
        checked = self.checked
        return bool(checked) and all(self.serves(c.batch) for c in checked)

    @property
    def size_factor(self) -> float:
        """across_sizes over the given speedup (1 when either is unknown): what the run's best is weighed by
        beside the given figure (contracts/runrecord.py best_by), so that a kernel 7x at the given batch that
        serves no other is not kept over one 5x at every size (issue 38)."""
        across = self.across_sizes
        return across / self.given_speedup if across and self.given_speedup else 1.0

    @property
    def valid(self) -> list[int]:
        return [c.batch for c in self.checks if c.status == "valid"]

    @property
    def invalid(self) -> list[int]:
        return [c.batch for c in self.checks if c.status not in ("valid", SKIPPED)]

    @property
    def coverage(self) -> Coverage:
        return coverage_of(self.batch, self.valid, self.invalid)

    @property
    def all_valid(self) -> bool:
        """Valid at every size that was checked (and at least one was)."""
        return bool(self.valid) and not self.invalid

    @property
    def fixed_only(self) -> bool:
        """Valid only at the given shapes: other sizes were checked, and it failed next to the given one."""
        return bool(self.valid or self.invalid) and self.coverage.batch_range is None

    def summary(self) -> str:
        """In words, e.g. "valid at batch 1, 128, 255, 512 beside 256 (2.1x, 1.9x, 2.0x, 2.2x)"."""
        parts = []
        if self.valid:
            ups = [c.speedup for c in self.checks if c.status == "valid"]
            # a slowdown by its own size, two significant figures (brief timings): '88x slower', never '0.01x'
            said = f" ({', '.join(ratio_text(u, 0.1, 'x') if u else '-' for u in ups)})" if any(ups) else ""
            parts.append(f"valid at batch {', '.join(map(str, self.valid))} beside {self.batch}{said}")
        failed = _by_outcome([c for c in self.checks if c.status not in ("valid", SKIPPED)], reasons=True)
        for (status, reason), sizes in failed.items():
            parts.append(f"{status} at batch {sizes}" + (f" ({reason[:160]})" if reason else ""))
        skipped = [c for c in self.checks if c.status == SKIPPED]
        if skipped:
            parts.append("not checked at batch " + "; ".join(f"{c.batch} ({c.reason})" for c in skipped))
        if self.slower:
            parts.append(f"slower than eager at batch {', '.join(map(str, self.slower))} (an exported file leaves "
                         "those to the reference's forward)")
        across = self.across_sizes
        if across is not None and self.checked:
            parts.append(f"{ratio_text(across, 0.1, 'x')} across the sizes checked as an exported file serves them "
                         "(geometric mean; the reference's own speed where it runs the reference)")
        return "; ".join(parts) or f"checked at batch {self.batch} only"

    def speeds_text(self, given: float | None = None) -> str:
        """Its speed at each size checked as an exported file serves it, for the file's docstring, e.g. "At the
        other batch sizes checked (brief timings): 4.5x at 1, 4.4x at 127, the reference at 512 (not served);
        4.6x across them and the given batch (geometric mean)." `given`: the figure the file states for the given
        batch (a re-timed one), else its brief timing. Empty when no other size was checked or no given figure
        is known."""
        across = self.across_at(given)
        if across is None:
            return ""
        said = []
        for c in self.checked:
            if not self.serves(c.batch):
                said.append(f"the reference at {c.batch} (not served)")
            elif c.speedup is not None:
                said.append(f"{ratio_text(c.speedup, 0.1, 'x')} at {c.batch}")
        if not said:  # served but none of them timed
            return ""
        return (f"At the other batch sizes checked (brief timings): {', '.join(said)}; "
                f"{ratio_text(across, 0.1, 'x')} across them and the given batch (geometric mean).")

    def not_valid(self) -> str:
        """The sizes it was not valid at, by status, e.g. "declined at batch 1, 512; incorrect at batch 1023"
        (the flag's and the CLI's short form; summary() gives the reasons too)."""
        groups = _by_outcome([c for c in self.checks if c.status != "valid"], reasons=False)
        return "; ".join(f"{status} at batch {sizes}" for (status, _), sizes in groups.items())

    def to_json(self) -> dict[str, object]:
        cov = self.coverage.batch_range
        return {"batch": self.batch, "checks": [c.to_json() for c in self.checks],
                "covers": list(cov) if cov else None, "drawn": self.drawn, "given_speedup": self.given_speedup}

    @classmethod
    def from_json(cls, d: dict[str, object]) -> ShapeReport:
        checks = d.get("checks") or []
        return cls(int(d.get("batch") or 0),  # type: ignore[call-overload]
                   tuple(ShapeCheck.from_json(c) for c in checks if isinstance(c, dict)),  # type: ignore[union-attr]
                   d.get("drawn") is True, _positive(d.get("given_speedup")))


def _by_outcome(checks: list[ShapeCheck], reasons: bool) -> dict[tuple[str, str], str]:
    """Sizes that ended alike, as one comma-separated list per (status, reason): a kernel specialised for the
    given shapes refuses every other size with the same words, which said once per size buried the line."""
    groups: dict[tuple[str, str], list[int]] = {}
    for c in checks:
        groups.setdefault((c.status, _without_size(c.reason, c.batch) if reasons else ""), []).append(c.batch)
    return {k: ", ".join(map(str, sizes)) for k, sizes in groups.items()}


def _without_size(reason: str, batch: int) -> str:
    """A check's reason less the size it names first ("batch 512, trial 1: ..." -> "trial 1: ..."), so that sizes
    that failed alike read as one."""
    prefix = f"batch {batch}, "
    return reason[len(prefix):] if reason.startswith(prefix) else reason


def _positive(v: object) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 else None
