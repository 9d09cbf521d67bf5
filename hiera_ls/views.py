"""What the editor shows, as text and diagnostics, from a run's §2 object and its profiles (no LSP I/O here).

Profile data (the engine's `profiles` table, JSON) is read tolerantly, since the profiler owns its shape:

* `kernels`: [{`name`, `duration_us`|`duration_ms`|`duration_ns`, `bottleneck`, `metrics`: {label: value},
  `rules`: [{`name`, `message`, `speedup` (estimated %, optional)}]}] — or the kernel's keys at top level;
* `lines`: [{`file`, `line` (1-based), `text`, optional `severity` ("warning"|"info") or `excess` (extra work
  over ideal, as a fraction: 1.0 = twice the ideal), optional `kernel`}].
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from lsprotocol import types

from hiera_ls.modules import ModuleClass
from hiera_ls.settings import SPACE_TITLES

SOURCE = "hiera"
WARNING_EXCESS = 0.5  # a line doing 50% more memory work than ideal (or worse) is a Warning

# The label a code lens gives the last round's direction: what the kernel was found limited by.
DIRECTION_LABELS = {"C": "control-flow-bound", "P": "parallelism-bound", "M": "memory-bound",
                    "R": "reuse-bound", "T": "compute-bound"}
DIRECTION_NAMES = {"C": "control flow", "P": "parallelism", "M": "memory transactions", "R": "data reuse",
                   "T": "tensor cores / instruction pipeline"}


def _ms(v: Any) -> str:
    return f"{v:.4g} ms" if isinstance(v, (int, float)) else "-"


def _x(v: Any) -> str:
    return f"{v:.2f}x" if isinstance(v, (int, float)) else "-"


def outcome_counts(obj: dict[str, Any]) -> tuple[int, int, Counter[str]]:
    statuses = [o.get("status") for r in obj.get("rounds") or [] for o in r.get("outcomes") or []]
    invalid = Counter(s for s in statuses if s != "valid")
    return statuses.count("valid"), sum(invalid.values()), invalid


def last_direction(obj: dict[str, Any]) -> str | None:
    rounds = obj.get("rounds") or []
    return rounds[-1].get("direction") if rounds else None


# --- module class ------------------------------------------------------------------------------------------


def module_hover(module: ModuleClass, obj: dict[str, Any] | None, job_line: str | None,
                 result_file: str | None) -> str:
    head = f"### HIERA · `{module.name}`\n\n"
    if not module.optimizable:
        from hiera_ls.modules import ANNOTATION_HELP

        return head + f"Not optimizable as written: {module.problem}. To fix: {ANNOTATION_HELP}."
    parts = [head]
    if job_line:
        parts.append(f"**Running:** {job_line}\n\n")
    if obj is None:
        how = "KernelBench format" if module.kind == "kernelbench" else f"inputs from `{module.inputs_fn}()`"
        parts.append(f"Optimizable ({how}). No run yet: use *Optimize with HIERA* (code action or code lens).")
        return "".join(parts)
    best = obj.get("best")
    ref = obj.get("reference_ms")
    status = obj.get("status", "?")
    where = f"{obj.get('device') or '?'} · {obj.get('backend') or '?'} backend · run `{obj.get('run_id')}` ({status})"
    if best:
        parts.append(f"**{_x(best.get('speedup'))} faster** · {_ms(best.get('candidate_ms'))} vs {_ms(ref)} "
                     f"reference · {where}\n\n")
        parts.append(f"Best: candidate `{best.get('candidate_id')}`, round {best.get('round')}, "
                     f"{SPACE_TITLES.get(best.get('space') or '', best.get('space') or '?')}"
                     f"{', direction ' + best['direction'] if best.get('direction') else ''}\n\n")
    else:
        parts.append(f"No valid candidate faster than the reference yet ({_ms(ref)}) · {where}\n\n")
    valid, invalid, why = outcome_counts(obj)
    reasons = ", ".join(f"{k} {v}" for k, v in why.most_common())
    parts.append(f"**{valid} valid · {invalid} invalid**{f' ({reasons})' if reasons else ''}\n\n")
    rounds = obj.get("rounds") or []
    if rounds:
        parts.append("| round | space | direction | strategy | valid | best |\n|---|---|---|---|---|---|\n")
        for r in rounds:
            outs = r.get("outcomes") or []
            speeds = [o["speedup"] for o in outs if o.get("status") == "valid" and o.get("speedup")]
            d = r.get("direction") or "?"
            score = (r.get("scores") or {}).get(d)
            strategy = str(r.get("strategy") or "").replace("|", "/")[:60]
            parts.append(f"| {r.get('round')} | {SPACE_TITLES.get(r.get('space') or '', r.get('space') or '?')} "
                         f"| {d} {DIRECTION_NAMES.get(d, '')}{f' ({score:.2f})' if isinstance(score, float) else ''}"
                         f" | {strategy} | {len(speeds)}/{len(outs)} | {_x(max(speeds)) if speeds else '-'} |\n")
        parts.append("\n")
    tokens = obj.get("tokens") or {}
    prompt, completion = tokens.get("prompt") or 0, tokens.get("completion") or 0
    cost = obj.get("cost_usd")
    if prompt or completion:
        parts.append(f"Model tokens: {prompt:,} prompt + {completion:,} completion"
                     f"{f' · cost ${cost:.4f}' if isinstance(cost, (int, float)) else ' · cost unknown'}\n\n")
    else:
        parts.append("Model tokens: none (expert backend, no model calls) · cost $0\n\n")
    if result_file:
        parts.append(f"Result: `{result_file}`\n")
    return "".join(parts)


def lens_summary(obj: dict[str, Any]) -> str:
    """'1.42x · memory-bound (M)': the best speedup and what the last round found the kernel limited by."""
    best = obj.get("best")
    d = last_direction(obj)
    head = f"{_x(best.get('speedup'))}" if best else (
        "running" if obj.get("status") == "running" else "no faster kernel yet")
    return f"{head} · {DIRECTION_LABELS.get(d, d)} ({d})" if d else head


def module_diagnostic(module: ModuleClass, obj: dict[str, Any] | None, result_file: str | None,
                      line_text: str) -> types.Diagnostic | None:
    best = (obj or {}).get("best")
    if not best or not isinstance(best.get("speedup"), (int, float)) or best["speedup"] <= 1.0:
        return None
    where = result_file or (best.get("paths") or {}).get("py") or (best.get("paths") or {}).get("cu") \
        or f".hiera/runs/{obj.get('run_id') if obj else '?'}/"
    start = types.Position(module.class_line, module.name_col)
    end = types.Position(module.class_line, max(module.name_col + len(module.name), len(line_text.rstrip())))
    return types.Diagnostic(range=types.Range(start, end), severity=types.DiagnosticSeverity.Information,
                            source=SOURCE, code="faster-kernel",
                            message=f"hiera found a {best['speedup']:.2f}x faster kernel: {where}")


# --- profiles --------------------------------------------------------------------------------------------


def kernels_of(profile: dict[str, Any]) -> list[dict[str, Any]]:
    ks = profile.get("kernels")
    if isinstance(ks, list):
        return [k for k in ks if isinstance(k, dict)]
    return [profile]


def _kernel_name(k: dict[str, Any]) -> str:
    for key in ("name", "kernel", "function", "demangled"):
        if isinstance(k.get(key), str):
            return k[key]
    return ""


def find_kernel(profile: dict[str, Any], name: str) -> dict[str, Any] | None:
    ks = kernels_of(profile)
    for k in ks:  # ncu names kernels demangled with their signature, or mangled
        kn = _kernel_name(k)
        if kn == name or kn.startswith(name + "(") or kn.startswith(name + "<") or (name in kn and len(name) > 3):
            return k
    return ks[0] if len(ks) == 1 and not _kernel_name(ks[0]) else None


def _duration(k: dict[str, Any]) -> str | None:
    for key, scale in (("duration_us", 1.0), ("duration_ms", 1000.0), ("duration_ns", 0.001), ("time_us", 1.0)):
        if isinstance(k.get(key), (int, float)):
            return f"{k[key] * scale:.4g} µs"
    return None


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, dict) and "value" in v:
        return f"{_fmt(v['value'])} {v.get('unit', '')}".strip()
    return str(v)


def kernel_hover(name: str, profile: dict[str, Any] | None, source: str | None) -> str:
    head = f"### Nsight Compute · `{name}`\n\n"
    if profile is None:
        return head + "No profile of this kernel yet: use the *Profile kernel* code action (needs a CUDA device)."
    k = find_kernel(profile, name)
    if k is None:
        names = ", ".join(f"`{_kernel_name(x)}`" for x in kernels_of(profile)) or "none"
        return head + f"The profile has no kernel named `{name}` (it has {names})."
    out = [head]
    facts = [f for f in (_duration(k), f"bottleneck: {k['bottleneck']}" if k.get("bottleneck") else None) if f]
    if facts:
        out.append(" · ".join(facts) + "\n\n")
    metrics = k.get("metrics")
    if isinstance(metrics, dict) and metrics:
        out.append("| metric | value |\n|---|---|\n")
        for label, v in list(metrics.items())[:12]:
            out.append(f"| {label} | {_fmt(v)} |\n")
        out.append("\n")
    rules = k.get("rules") or profile.get("rules") or []
    if isinstance(rules, list) and rules:
        out.append("**ncu advice**\n\n")
        for r in rules[:6]:
            if not isinstance(r, dict):
                continue
            est = r.get("speedup") or r.get("estimated_speedup")
            msg = str(r.get("message") or r.get("text") or r.get("description") or "").strip().replace("\n", " ")
            out.append(f"- **{r.get('name') or r.get('rule') or 'rule'}**"
                       f"{f' (est. {est:.0f}% faster)' if isinstance(est, (int, float)) else ''}: {msg[:300]}\n")
        out.append("\n")
    hot = [ln for ln in profile.get("lines") or [] if isinstance(ln, dict)
           and (not ln.get("kernel") or str(ln.get("kernel")).startswith(name))]
    if hot:
        out.append("**Lines**: " + "; ".join(f"line {ln.get('line')}: {ln.get('text')}" for ln in hot[:3]) + "\n")
    if source:
        out.append(f"\n_profile of {source}_\n")
    return "".join(out)


def line_severity(entry: dict[str, Any]) -> types.DiagnosticSeverity:
    sev = str(entry.get("severity") or "").lower()
    if sev in ("warning", "warn", "error"):
        return types.DiagnosticSeverity.Warning
    if sev in ("info", "information", "hint"):
        return types.DiagnosticSeverity.Information
    excess = entry.get("excess")
    if not isinstance(excess, (int, float)) and isinstance(entry.get("excess_pct"), (int, float)):
        excess = entry["excess_pct"] / 100.0
    if isinstance(excess, (int, float)) and excess >= WARNING_EXCESS:
        return types.DiagnosticSeverity.Warning
    return types.DiagnosticSeverity.Information


def line_diagnostics(profile: dict[str, Any], names: set[str], lines: list[str]) -> list[types.Diagnostic]:
    """Per-line diagnostics for one .cu file from a profile's `lines`.

    `names` are the file names the profile may call this file by (the file itself, its candidate copy, the
    contract's `cuda_source.cu`). When the profile names exactly one .cu file, that one is this kernel.
    """
    entries = [e for e in profile.get("lines") or [] if isinstance(e, dict) and isinstance(e.get("line"), int)]
    cu_files = {Path(str(e.get("file") or "")).name for e in entries if str(e.get("file") or "").endswith(".cu")}
    out = []
    for e in entries:
        fname = Path(str(e.get("file") or "")).name
        if fname and fname not in names and not (len(cu_files) == 1 and fname in cu_files):
            continue
        n = e["line"] - 1
        if not 0 <= n < len(lines):
            continue
        text = lines[n]
        indent = len(text) - len(text.lstrip())
        out.append(types.Diagnostic(
            range=types.Range(types.Position(n, indent), types.Position(n, max(len(text.rstrip()), indent + 1))),
            severity=line_severity(e), source=SOURCE, code=e.get("metric") or e.get("rule") or "ncu",
            message=str(e.get("text") or e.get("message") or "ncu flagged this line")))
    return out
