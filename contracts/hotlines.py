"""Which source lines of a profile deserve an engineer's attention, and what to say about each.

One selection for every place that shows per-line findings (the editor's diagnostics and kernel hover,
`hiera profile`'s report), so they never disagree about which lines matter. ncu samples a stall reason on
nearly every line a kernel executes; listing them all buries the two lines that matter under twenty that
hold 0-1% of the samples. A line is shown when

- it holds at least SHOW_SHARE of its kernel's stall samples, and is among the MAX_HOT_LINES hottest; or
- ncu counted a concrete inefficiency on it (uncoalesced global access, shared-memory bank conflicts,
  divergent branches) large enough to matter, whatever its stall share: an uncoalesced load is worth
  fixing even while the warps waiting on it are charged to the next line.

Every line says its dominant stall reason in a kernel engineer's words and the direction (C/P/M/R/T) it
points to, from the same mapping the direction scores use (contracts/stalls.py).

Imports nothing beyond the standard library and contracts/: the language server selects the lines of a stored
profile without the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from contracts.profile import KernelProfile, LineFinding, Profile, kernel_base
from contracts.stalls import STALL_CEILINGS, STALL_DIRECTIONS, STALL_WORDS, memory_wait_direction
from contracts.vocabulary import Direction

# A line with under 5% of the kernel's samples could speed the kernel up by at most ~5% if its stalls
# vanished entirely (Amdahl); below that a per-line mark is noise an engineer would turn off.
SHOW_SHARE = 0.05
# Past eight hotspots a list stops being read; the hottest few are where the time goes.
MAX_HOT_LINES = 8
# A line holding a fifth of the kernel's samples is where its time goes: worth a Warning on its own.
WARN_SHARE = 0.20
# Excess global sectors (or shared wavefronts) on one line of 5% or more of the kernel's total: the line
# alone makes the kernel move that much more data than it needs, a concrete, fixable inefficiency.
WASTE_SHARE = 0.05
# The same when the profile does not carry the kernel's total (an older or partial profile): 4096 sectors
# is 128 KiB fetched for nothing.
WASTE_COUNT = 4096
# Divergent branch targets per warp instruction executed on the line. A bounds check diverges in one warp of
# thousands (far below 1%); a branch on the lane index diverges in every warp that reaches it.
DIVERGENT_RATE = 0.01
# Lines with a finding are kept whatever their stall share; this cap only guards against a kernel with an
# inefficiency on every line (the largest findings come first).
MAX_FINDING_LINES = 8

@dataclass(frozen=True)
class Waste:
    """An inefficiency ncu counted on a line: excess global sectors, excess shared wavefronts, divergence."""

    kind: str  # "uncoalesced" | "bank_conflicts" | "divergence"
    count: int
    share: float | None  # of the kernel's global sectors / shared wavefronts; per instruction for divergence
    material: bool  # large enough to show the line and warn, whatever its stall share

    @property
    def direction(self) -> str:
        return "C" if self.kind == "divergence" else "M"

    def text(self) -> str:
        if self.kind == "divergence":
            return f"{self.count:,} divergent branches: the warp's threads take different paths here"
        of = f" ({self.share:.0%} of the kernel's)" if self.share is not None else ""
        if self.kind == "uncoalesced":
            return f"{self.count:,} excess global sectors{of}: uncoalesced access"
        return f"{self.count:,} excess shared-memory wavefronts{of}: bank conflicts"


@dataclass(frozen=True)
class HotLine:
    """A line worth showing: its finding (merged over launches of its kernel) and how to say it."""

    finding: LineFinding
    share: float  # of its kernel's stall samples
    stall: str | None  # the dominant stall reason on the line
    direction: str | None  # C/P/M/R/T, where the mapping gives one
    waste: tuple[Waste, ...]
    warning: bool

    @property
    def material(self) -> bool:
        return any(w.material for w in self.waste)

    def message(self, with_kernel: bool = False) -> str:
        """'29% of the kernel's stall samples, pressing on memory: mostly waiting on global/local memory (L1TEX)
        [long_scoreboard] → R (data reuse / pipelining)' — the line's share of the kernel's time (its stall samples)
        and the ceiling it presses on (contracts/stalls.py STALL_CEILINGS). A line shown only for its waste leaves
        out its (small) stall share."""
        parts = []
        if self.stall is not None and self.share >= SHOW_SHARE:
            ceiling = STALL_CEILINGS.get(self.stall)
            parts.append(f"{self.share:.0%} of the kernel's stall samples, "
                         + (f"pressing on {ceiling}: " if ceiling else "") + "mostly "
                         f"{STALL_WORDS.get(self.stall, self.stall)} [{self.stall}]")
        parts += [w.text() for w in self.waste]
        text = "; ".join(parts) or f"{self.share:.0%} of the kernel's stall samples"
        head = f"{kernel_base(self.finding.kernel)}: " if with_kernel else ""
        return head + text + (f" → {self.direction} ({Direction(self.direction).title})" if self.direction else "")


@dataclass(frozen=True)
class Elsewhere:
    """A kernel's stall samples on lines of files other than the one shown: headers whose device code was
    inlined into it (WMMA's mma.hpp, cuda_fp16.hpp, a library's templates). ncu attributes inlined code to
    the header's lines, so a kernel spending its time there shows no hot line in its own file at all."""

    kernel: str
    share: float  # of the kernel's stall samples, all such files together
    files: tuple[tuple[str, float, str | None], ...]  # (file name, share, dominant stall), hottest first

    @property
    def warning(self) -> bool:
        return self.share >= WARN_SHARE

    def message(self, with_kernel: bool = False) -> str:
        each = ", ".join(f"{name} {share:.0%}" + (f" (mostly {STALL_WORDS.get(stall, stall)} [{stall}])"
                                                    if stall else "") for name, share, stall in self.files)
        head = f"{kernel_base(self.kernel)}: " if with_kernel else ""
        return (f"{head}{self.share:.0%} of the kernel's stall samples are on lines of other files this kernel "
                f"inlines: {each}; `hiera profile` lists those lines")


def elsewhere(profile: Profile, mine: Callable[[LineFinding], bool]) -> tuple[Elsewhere, ...]:
    """Per kernel, the samples on lines `mine` rejects, when together they reach SHOW_SHARE of its samples
    (the same bar a line of the file itself must clear), hottest kernel first."""
    merged, _, totals = _lines_and_totals(profile)
    out = []
    for kernel in sorted(totals):
        total = totals[kernel]
        per_file: dict[str, Counter[str]] = {}
        for f in merged:
            if f.kernel == kernel and f.samples and not mine(f):
                per_file.setdefault(f.file.rsplit("/", 1)[-1] or "?", Counter()).update(f.stall_samples)
        share = sum(sum(c.values()) for c in per_file.values()) / total if total > 0 else 0.0
        if share < SHOW_SHARE:
            continue
        files = sorted(((name, sum(c.values()) / total, max(sorted(c), key=lambda r: c[r]) if c else None)
                        for name, c in per_file.items()), key=lambda t: -t[1])
        out.append(Elsewhere(kernel, share, tuple(t for t in files if t[1] >= 0.01)[:3] or tuple(files[:1])))
    return tuple(sorted(out, key=lambda e: -e.share))


# --- selection ------------------------------------------------------------------------------------------------


def hot_lines(profile: Profile, where: Callable[[LineFinding], bool] | None = None) -> tuple[HotLine, ...]:
    """The lines worth showing, warnings first, then hottest first.

    where: which lines may be shown (e.g. those of one file, in range of its text); the shares stay of the
    whole kernel, and the caps apply to what `where` keeps.
    """
    merged, kernel_of, totals = _lines_and_totals(profile)
    read = [_read(f, kernel_of(f.kernel), totals[f.kernel]) for f in merged if where is None or where(f)]
    hottest = sorted((h for h in read if h.share >= SHOW_SHARE), key=lambda h: -h.share)[:MAX_HOT_LINES]
    findings = sorted((h for h in read if h.material), key=_waste_rank)[:MAX_FINDING_LINES]
    chosen = {id(h): h for h in (*hottest, *findings)}.values()
    return tuple(sorted(chosen, key=lambda h: (not h.warning, -h.share, h.finding.file, h.finding.line)))


def _read(f: LineFinding, ks: Sequence[KernelProfile], total: int) -> HotLine:
    share = f.samples / total if total > 0 else 0.0
    stall = f.top_stall()
    waste = _waste(f, ks)
    material = [w for w in waste if w.material]
    if material:  # the concrete finding names the fix; the stall is often its symptom
        direction: str | None = material[0].direction
    elif stall == "long_scoreboard" and ks:
        direction = memory_wait_direction(ks[0])
    else:
        direction = STALL_DIRECTIONS.get(stall or "")
    return HotLine(f, share, stall, direction, waste, warning=bool(material) or share >= WARN_SHARE)


def _waste(f: LineFinding, ks: Sequence[KernelProfile]) -> tuple[Waste, ...]:
    out = []
    sectors = _sum([k.global_sectors for k in ks])
    wavefronts = _sum([(k.shared_wavefronts_ld or 0) + (k.shared_wavefronts_st or 0)
                       if k.shared_wavefronts_ld is not None or k.shared_wavefronts_st is not None else None
                       for k in ks])
    for kind, count, total in (("uncoalesced", f.excessive_global_sectors, sectors),
                               ("bank_conflicts", f.excessive_shared_wavefronts, wavefronts)):
        if count:
            share = count / total if total else None
            out.append(Waste(kind, count, share, share >= WASTE_SHARE if share is not None else count >= WASTE_COUNT))
    if f.divergent_branches:
        rate = f.divergent_branches / f.instructions_executed if f.instructions_executed else None
        # Without the line's instruction count there is nothing to weigh it by: ncu saw warps split here.
        out.append(Waste("divergence", f.divergent_branches, rate, rate is None or rate >= DIVERGENT_RATE))
    return tuple(out)


def _waste_rank(h: HotLine) -> tuple[float, float]:
    # Largest waste first (a share of the kernel's traffic, or divergent branches per instruction: both say
    # how much of the line's work is wasted), then the hotter line.
    return (-max((w.share or 0.0) for w in h.waste if w.material), -h.share)


def _sum(values: Iterable[int | None]) -> int | None:
    vals = list(values)
    return None if not vals or any(v is None for v in vals) else sum(v for v in vals if v is not None)


def _by_name(kernels: Iterable[KernelProfile]) -> dict[str, list[KernelProfile]]:
    out: dict[str, list[KernelProfile]] = {}
    for k in kernels:
        out.setdefault(k.name, []).append(k)
    return out


def _lines_and_totals(profile: Profile) -> tuple[list[LineFinding], Callable[[str], Sequence[KernelProfile]],
                                                 dict[str, int]]:
    """The profile's lines merged over launches, each line's kernel profiles by kernel name, and each kernel's
    stall-sample total (what a line's share is of)."""
    kernels = _by_name(profile.kernels)
    merged = _merge(profile.lines)
    kept: Counter[str] = Counter()
    for f in merged:
        kept[f.kernel] += f.samples
    # A line whose kernel the profile does not list by that name: the profile's only kernel, if it has one.
    only = next(iter(kernels.values())) if len(kernels) == 1 else []

    def kernel_of(name: str) -> Sequence[KernelProfile]:
        return kernels.get(name, only)

    return merged, kernel_of, {k: _samples_total(kernel_of(k), n) for k, n in kept.items()}


def _samples_total(ks: Sequence[KernelProfile], kept: int) -> int:
    """All of the kernel's samples where the profile counted them before keeping only the top lines, else
    the sum over the lines kept (an older profile: a line's share is then slightly overstated)."""
    counted = _sum([k.line_stall_samples for k in ks])
    return counted if counted else kept


def _merge(lines: Iterable[LineFinding]) -> list[LineFinding]:
    """One finding per (kernel, file, line): a kernel launched several times yields one finding per launch."""
    merged: dict[tuple[str, str, int], LineFinding] = {}
    for f in lines:
        key = (f.kernel, f.file, f.line)
        g = merged.get(key)
        if g is None:
            merged[key] = f
            continue
        stalls = dict(g.stall_samples)
        for r, n in f.stall_samples.items():
            stalls[r] = stalls.get(r, 0) + n
        merged[key] = replace(g, stall_samples=stalls, **{
            name: _add(getattr(g, name), getattr(f, name))
            for name in ("divergent_branches", "excessive_global_sectors", "excessive_shared_wavefronts",
                         "instructions_executed")})
    return list(merged.values())


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None and b is None else (a or 0) + (b or 0)
