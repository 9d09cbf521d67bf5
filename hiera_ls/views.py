"""What the editor shows of Nsight Compute profiles, as hover text and diagnostics (no LSP I/O here).

What it shows of a run (speedups, the module hover, lens and diagnostic) is in run_views.py.

Profiles are `Profile.to_json()` (contracts/profile.py) as the engine stores them in the `profiles`
table: `kernels` (KernelProfile), `lines` (LineFinding: file, 1-based line, kernel, stall samples, excess
sectors and wavefronts, divergent branches, the source text), `bottleneck`, `scores`. Missing fields are
skipped, never an error: the reader must survive a newer or older writer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types

# The profile model and its line selection (contracts/): plain data and functions, shared with `hiera profile` so
# the editor and the terminal show the same lines.
from contracts.hotlines import Elsewhere, HotLine, elsewhere, hot_lines
from contracts.profile import LineFinding, Profile, kernel_base
from hiera_ls.modules import Kernel

SOURCE = "hiera"


# --- profiles (contracts/profile.py: Profile.to_json) ---------------------------------------------------


def kernels_of(profile: dict[str, Any]) -> list[dict[str, Any]]:
    ks = profile.get("kernels")
    return [k for k in ks if isinstance(k, dict)] if isinstance(ks, list) else []


def _matches(kernel_name: str, name: str) -> bool:
    # ncu names kernels demangled with their signature ("k(float const*, int)"), templated, or mangled
    return (kernel_name == name or kernel_name.startswith((name + "(", name + "<"))
            or (len(name) > 3 and name in kernel_name))


def find_kernel(profile: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((k for k in kernels_of(profile) if _matches(str(k.get("name", "")), name)), None)


def _pct(v: Any) -> str:
    return f"{v:.0f}%" if isinstance(v, (int, float)) else "-"


def _num(v: Any, nd: int = 1) -> str:
    if isinstance(v, float):
        return f"{v:.{nd}f}"
    return f"{v:,}" if isinstance(v, int) else "-"


def kernel_rows(k: dict[str, Any]) -> list[tuple[str, str]]:
    rows = [("throughput", f"SM {_pct(k.get('sm_throughput_pct'))} · memory {_pct(k.get('memory_throughput_pct'))}"
                           f" · DRAM {_pct(k.get('dram_throughput_pct'))} of peak"),
            ("occupancy", f"{_pct(k.get('achieved_occupancy_pct'))} achieved of "
                          f"{_pct(k.get('theoretical_occupancy_pct'))}"
                          + (f" (limiter: {k['occupancy_limiter']})" if k.get("occupancy_limiter") else "")),
            ("launch", f"grid {_num(k.get('grid_size'))} × block {_num(k.get('block_size'))} · "
                       f"{_num(k.get('registers_per_thread'))} registers/thread")]
    ld, st = k.get("sectors_per_request_ld"), k.get("sectors_per_request_st")
    if ld is not None or st is not None:
        excess = ""
        gs, ideal = k.get("global_sectors"), k.get("global_sectors_ideal")
        if isinstance(gs, (int, float)) and isinstance(ideal, (int, float)) and gs > 0:
            excess = f" · {max(gs - ideal, 0) / gs:.0%} excess sectors"
        rows.append(("global access", f"{_num(ld)} sectors/request (ld), {_num(st)} (st){excess}"))
    if k.get("branch_efficiency_pct") is not None:
        rows.append(("branch efficiency", _pct(k["branch_efficiency_pct"])))
    stalls = k.get("warp_stalls") or {}
    if isinstance(stalls, dict) and stalls:
        top = sorted(stalls.items(), key=lambda kv: -float(kv[1]))[:3]
        rows.append(("top stalls", ", ".join(f"{r} {float(v):.1f}" for r, v in top) + " cycles/instruction"))
    metrics = k.get("metrics")
    if isinstance(metrics, dict):  # other writers: a flat label -> value map
        rows += [(str(label), _fmt(v)) for label, v in list(metrics.items())[:8]]
    return rows


def _fmt(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def kernel_hover(name: str, profile: dict[str, Any] | None, source: str | None,
                 hot: Sequence[HotLine] = (), away: Sequence[Elsewhere] = ()) -> str:
    """The kernel's profile: metrics, ncu's advice, directions, and its lines in `hot` (what the diagnostics
    of this file show, cu_hot_lines), so the summary and the marks in the margin agree."""
    head = f"### Nsight Compute · `{name}`\n\n"
    if profile is None:
        return head + "No profile of this kernel yet: use the *Profile kernel* code action (needs a CUDA device)."
    k = find_kernel(profile, name)
    if k is None:
        names = ", ".join(f"`{x.get('name')}`" for x in kernels_of(profile)) or "none"
        return head + f"The profile has no kernel named `{name}` (it has {names})."
    out = [head]
    dur = k.get("duration_us")
    facts = [f"**{dur:.4g} µs**" if isinstance(dur, (int, float)) else None]
    b = profile.get("bottleneck") or {}
    if b.get("rule") and _matches(str(b.get("kernel") or k.get("name", "")), name):
        est = b.get("estimated_speedup_pct")
        facts.append(f"bottleneck: {b['rule']}" + (f" → {b['direction']}" if b.get("direction") else "")
                     + (f" (est. {est:.0f}%)" if isinstance(est, (int, float)) else ""))
    out.append(" · ".join(f for f in facts if f) + "\n\n")
    out.append("| | |\n|---|---|\n" + "".join(f"| {a} | {v} |\n" for a, v in kernel_rows(k)) + "\n")
    rules = [r for r in k.get("rules") or [] if isinstance(r, dict) and r.get("type", "OPT") in ("OPT", "WRN")]
    rules.sort(key=lambda r: -(r.get("estimated_speedup_pct") or 0))
    if rules:
        out.append("**ncu advice**\n\n")
        for r in rules[:5]:
            est = r.get("estimated_speedup_pct")
            msg = " ".join(str(r.get("message") or "").split())
            out.append(f"- **{r.get('name', 'rule')}**"
                       f"{f' (est. {est:.0f}%)' if isinstance(est, (int, float)) else ''}: {msg[:300]}\n")
        out.append("\n")
    mine = [h for h in hot if _matches(h.finding.kernel, name) or h.finding.kernel == k.get("name")]
    if mine:  # warnings in bold, as the editor marks them
        out.append("**hot lines**\n\n")
        out += [(f"- **line {h.finding.line}**" if h.warning else f"- line {h.finding.line}") + f": {h.message()}\n"
                for h in mine]
        out.append("\n")
    for e in away:
        if _matches(e.kernel, name) or e.kernel == k.get("name"):
            out.append(f"**in other files**: {e.message()}\n\n")
    scores = profile.get("scores") or {}
    if scores:
        out.append("Directions: " + " · ".join(f"{d} {v:.2f}" for d, v in
                                               sorted(scores.items(), key=lambda kv: -kv[1])) + "\n")
    if source:
        out.append(f"\n_profile of {source}_\n")
    return "".join(out)


def typed_profile(profile: dict[str, Any]) -> Profile | None:
    """The stored JSON's kernels and lines as a Profile, for the per-line selection; None when they
    cannot be read. Entries the model would refuse (a kernel without a name, a line without a number) are
    dropped first: one bad entry must not hide the rest.
    """
    # Only kernels and lines pick lines: ncu's advice, the scores and the bottleneck are left out, so a
    # malformed one of them cannot fail the rest.
    lines = profile.get("lines")
    d = {"kernels": [{**k, "rules": []} for k in kernels_of(profile) if isinstance(k.get("name"), str)],
         "lines": [{**e, "file": str(e.get("file") or ""), "kernel": str(e.get("kernel") or "")}
                   for e in (lines if isinstance(lines, list) else [])
                   if isinstance(e, dict) and isinstance(e.get("line"), int)]}
    try:
        return Profile.from_json(d)
    except (TypeError, ValueError, AttributeError):
        return None


def cu_hot_lines(profile: dict[str, Any], names: set[str], n_lines: int) -> tuple[HotLine, ...]:
    """The lines of one .cu file worth showing (contracts/hotlines.py), as diagnostics and the hover list.

    `names` are the file names the profile may call this file by (the file itself, its candidate copy, the
    contract's `cuda_source.cu`). When the profile names exactly one .cu file, that one is this kernel.
    """
    p = typed_profile(profile)
    if p is None:
        return ()
    mine = _this_file(p, names)
    try:
        return hot_lines(p, lambda f: mine(f) and 1 <= f.line <= n_lines)
    except (TypeError, ValueError):  # a field of the wrong type from another writer: show nothing, not an error
        return ()


def cu_elsewhere(profile: dict[str, Any], names: set[str]) -> tuple[Elsewhere, ...]:
    """Kernels of this .cu that spend their samples on lines of other files (inlined headers), see cu_hot_lines."""
    p = typed_profile(profile)
    if p is None:
        return ()
    try:
        return elsewhere(p, _this_file(p, names))
    except (TypeError, ValueError):
        return ()


def _this_file(p: Profile, names: set[str]) -> Callable[[LineFinding], bool]:
    cu_files = {Path(f.file).name for f in p.lines if f.file.endswith(".cu")}

    def mine(f: LineFinding) -> bool:
        name = Path(f.file).name
        return not name or name in names or (len(cu_files) == 1 and name in cu_files)

    return mine


def elsewhere_diagnostics(found: Sequence[Elsewhere], lines: list[str], kernels: Sequence[Kernel]
                          ) -> list[types.Diagnostic]:
    """One diagnostic per kernel whose time is in other files' lines, on its `__global__` line (the file's
    first line when the kernel is not found in the text), so the file does not look cold when it is not."""
    by_name = {k.name: k for k in kernels}
    return [_ncu_diagnostic(lines, k.line if (k := by_name.get(kernel_base(e.kernel))) else 0, e.warning,
                            e.message(with_kernel=len(found) > 1)) for e in found]


def _many_kernels(hot: Sequence[HotLine]) -> bool:
    return len({h.finding.kernel for h in hot}) > 1


def diagnostics_of(hot: Sequence[HotLine], lines: list[str]) -> list[types.Diagnostic]:
    """One diagnostic per selected line: Warning for a top hotspot or a concrete inefficiency (hotlines.py)."""
    many = _many_kernels(hot)
    return [_ncu_diagnostic(lines, h.finding.line - 1, h.warning, h.message(with_kernel=many)) for h in hot]


def _ncu_diagnostic(lines: list[str], n: int, warning: bool, message: str) -> types.Diagnostic:
    """A profiler finding on 0-based line n, spanning the line's text without its indentation."""
    text = lines[n] if 0 <= n < len(lines) else ""
    indent = len(text) - len(text.lstrip())
    severity = types.DiagnosticSeverity.Warning if warning else types.DiagnosticSeverity.Information
    return types.Diagnostic(
        range=types.Range(types.Position(n, indent), types.Position(n, max(len(text.rstrip()), indent + 1))),
        severity=severity, source=SOURCE, code="ncu", message="ncu: " + message)


def line_diagnostics(profile: dict[str, Any], names: set[str], lines: list[str]) -> list[types.Diagnostic]:
    """Per-line diagnostics for one .cu file from a profile's `lines` (see cu_hot_lines)."""
    return diagnostics_of(cu_hot_lines(profile, names, len(lines)), lines)
