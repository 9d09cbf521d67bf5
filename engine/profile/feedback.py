"""A profile as a short, stable text for LLM prompts: ranked findings with their numbers, no raw dumps.

The same profile always gives the same text (prompt caches and tests rely on it), and the text stays under
a character limit by dropping the least important parts first: extra hot lines, then weaker evidence.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from contracts.hotlines import HotLine, hot_lines

if TYPE_CHECKING:
    from contracts.profile import KernelProfile, Profile


def _pct(v: float | None) -> str:
    return "?" if v is None else f"{v:.0f}%"


def _kernel_line(k: KernelProfile, share: float | None) -> str:
    parts = [f"{k.duration_us:.1f} us" if k.duration_us is not None else "time ?"]
    if share is not None:
        parts[0] += f" ({share:.0%})"
    parts.append(f"SM {_pct(k.sm_throughput_pct)}, memory {_pct(k.memory_throughput_pct)}, "
                 f"DRAM {_pct(k.dram_throughput_pct)} of peak")
    if k.achieved_occupancy_pct is not None:
        occ = f"occupancy {_pct(k.achieved_occupancy_pct)}"
        if k.theoretical_occupancy_pct is not None:
            occ += f" of {_pct(k.theoretical_occupancy_pct)}"
        parts.append(occ)
    if k.grid_size is not None and k.block_size is not None:
        parts.append(f"{k.grid_size} blocks x {k.block_size} threads")
    return f"- {k.name}: " + ", ".join(parts)


def _line_text(h: HotLine) -> str:
    f = h.finding
    code = f": {f.text.strip()[:70]}" if f.text else ""
    return f"- {Path(f.file).name}:{f.line} [{f.kernel}] {h.message()}{code}"


def feedback_text(p: Profile, limit: int = 1500) -> str:
    """Compact, stable text for LLM prompts: ranked findings with numbers, never raw dumps."""
    total = p.total_us
    head = f"Nsight Compute profile: {len(p.kernels)} kernel(s)"
    if total is not None:
        head += f", {total:.1f} us"
    if p.roofline.get("bound"):
        head += f", {p.roofline['bound']}-bound"
    lines = [head]
    if p.bottleneck is not None:
        b = p.bottleneck
        sp = f", est. {b.estimated_speedup_pct:.0f}% speedup" if b.estimated_speedup_pct is not None else ""
        lines.append(f"ncu's top advice: {b.rule} -> {b.direction or '?'}{sp}: {b.message[:160]}")
    ranked = sorted(p.kernels, key=lambda k: -(k.duration_us or 0))
    for k in ranked[:3]:
        lines.append(_kernel_line(k, (k.duration_us / total) if total and k.duration_us is not None
                                  and len(p.kernels) > 1 else None))
    if len(ranked) > 3:
        lines.append(f"- ... {len(ranked) - 3} more kernel(s)")
    order = sorted(p.scores, key=lambda d: (-p.scores[d], d))
    if order:
        lines.append("directions: " + ", ".join(f"{d} {p.scores[d]:.2f}" for d in order))

    evidence = [e for d in order if p.scores.get(d, 0) > 0 for e in p.evidence.get(d, [])[:2]]
    # The same lines the editor and `hiera profile` show (hotlines.py), the four that matter most.
    hot = [_line_text(h) for h in hot_lines(p)[:4]]
    roof = p.roofline
    roof_line = ""
    if roof.get("arithmetic_intensity") is not None and roof.get("ridge_point") is not None:
        roof_line = (f"roofline: {roof['arithmetic_intensity']:.2f} FLOP/byte against a ridge of "
                     f"{roof['ridge_point']:.1f}")
        if roof.get("achieved_dram_gbps") is not None and roof.get("peak_dram_gbps"):
            roof_line += f"; DRAM {roof['achieved_dram_gbps']:.0f} of {roof['peak_dram_gbps']:.0f} GB/s"

    def render(n_evidence: int, n_hot: int, with_roof: bool) -> str:
        out = list(lines)
        if n_evidence:
            out.append("evidence:")
            out += [f"- {e[:220]}" for e in evidence[:n_evidence]]
        if n_hot:
            out.append("hot lines:")
            out += hot[:n_hot]
        if with_roof and roof_line:
            out.append(roof_line)
        return "\n".join(out)

    # Shed detail until it fits: roofline, hot lines, then evidence, least important first.
    for n_ev, n_hot, roof_on in ((6, 4, True), (6, 3, False), (5, 2, False), (4, 2, False), (3, 1, False),
                                 (2, 1, False), (1, 0, False), (0, 0, False)):
        text = render(min(n_ev, len(evidence)), min(n_hot, len(hot)), roof_on)
        if len(text) <= limit:
            return text
    return text[: limit - 3] + "..."
