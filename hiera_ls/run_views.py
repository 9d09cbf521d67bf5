"""What the editor says about a run: the speed phrase, the module hover, the code lens, the class diagnostic and
the message at the end of a job. No LSP I/O here.

Every figure comes from the run's canonical best (best.py): one speedup with the candidate time and the
eager time of the same pair, and its verdict — faster, level (within the pair's own timing spread) or
slower — so a slowdown never reads like a success. Spaces and rationales read in the words of the run's
device (wording.py).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from lsprotocol import types

from contracts.precision import precision_phrase
from contracts.runrecord import StoppedEarly
from contracts.shapes import SKIPPED, ShapeReport
from contracts.verdict import ratio_text
from hiera_ls.best import kept_back, reported_speedup, words
from hiera_ls.modules import ANNOTATION_HELP, ModuleClass
from hiera_ls.wording import device_words, duration, space_title, times

SOURCE = "hiera"

# What ncu's rules found a kernel limited by, by direction letter: said only from a profile's bottleneck.
BOUND_LABELS = {"C": "control-flow-bound", "P": "parallelism-bound", "M": "memory-bound",
                "R": "reuse-bound", "T": "compute-bound"}


def speed_phrase(best: dict[str, Any] | None) -> str:
    """'1.4× faster than eager', '88× slower than eager', 'level with eager', 'unstable timing: re-run on a
    quiet machine' (contracts/verdict.py headline)."""
    if not best or not isinstance(best.get("speedup"), (int, float)):
        return "no speedup measured"
    return words(best)["headline"]


def pair_text(best: dict[str, Any]) -> str:
    """'340 µs vs 476 µs eager, re-timed': the two times the speedup is the ratio of."""
    again = ", re-timed" if best.get("retimed") else ""
    return f"{duration(best.get('candidate_ms'))} vs {duration(best.get('reference_ms'))} eager{again}"


def sureness(best: dict[str, Any]) -> str:
    """The uncertainty and the flags, as one line: '1.3–1.5× at 95% · flagged: over 10× — check before trusting'."""
    w = words(best)
    return " · ".join(x for x in [w["uncertainty"], *w["warnings"]] if x)


def shapes_text(best: dict[str, Any]) -> str | None:
    """The batch sizes the best was verified on beside get_inputs()'s (the engine's best.shapes, a
    contracts/shapes.py ShapeReport) and what its exported file serves: 'Shapes: valid at batch 1, 128, 255,
    512 beside 256; serves batch 1–512, the reference elsewhere' or '...; fixed-shape only: other shapes run
    the reference'. None when the run did not check other sizes."""
    raw = best.get("shapes")
    if not isinstance(raw, dict):
        return None
    try:
        report = ShapeReport.from_json(raw)
    except (TypeError, ValueError):
        return None
    if not report.checks:
        return None
    said = [f"valid at batch {', '.join(map(str, report.valid))} beside {report.batch}" if report.valid
            else f"valid at batch {report.batch} only"]
    if report.invalid:
        said.append(f"not at {', '.join(map(str, report.invalid))}")
    unchecked = [str(c.batch) for c in report.checks if c.status == SKIPPED]
    if unchecked:
        said.append(f"{', '.join(unchecked)} not checked")
    cover = report.served.batch_range
    serves = (f"serves batch {cover[0]}–{cover[1]}, the reference elsewhere" if cover else
              "fixed-shape only: other shapes run the reference")
    if report.coverage.batch_range and not report.drawn:
        serves += " (its other sizes were not drawn where it could not know them)"
    elif report.slower:
        serves += f" (eager is faster at batch {', '.join(map(str, report.slower))})"
    across = report.across_at(best.get("speedup"))  # the figure the view shows beside this line (re-timed)
    if across is not None and report.checked:
        # what the best was chosen on beside the given figure (contracts/runrecord.py best_by)
        serves += f"; {ratio_text(across, 0.1)} across these sizes as the file serves them (geometric mean)"
    return f"Shapes: {'; '.join(said)}; {serves}"


def stopped_early_text(obj: dict[str, Any]) -> str | None:
    """'Stopped early after round 1: ...' when the run left budget unspent at its speed of light."""
    raw = obj.get("stopped_early")
    if not isinstance(raw, dict):
        return None
    try:
        text = StoppedEarly.from_json(raw).summary()
    except (TypeError, ValueError):
        return None
    return text[0].upper() + text[1:]


def outcome_counts(obj: dict[str, Any]) -> tuple[int, int, Counter[str]]:
    statuses = [o.get("status") for r in obj.get("rounds") or [] for o in r.get("outcomes") or []]
    invalid = Counter(s for s in statuses if s != "valid")
    return statuses.count("valid"), sum(invalid.values()), invalid


def last_direction(obj: dict[str, Any]) -> str | None:
    rounds = obj.get("rounds") or []
    return rounds[-1].get("direction") if rounds else None


def kept_folder(obj: dict[str, Any], root: Path | None) -> str:
    """Where the run keeps a best that was not written beside the module (relative to the workspace)."""
    py = ((obj.get("best") or {}).get("paths") or {}).get("py")
    where = str(Path(py).parent) + "/" if py else f".hiera/runs/{obj.get('run_id') or '?'}/"
    return short_path(where, root)


def short_path(path: str, root: Path | None) -> str:
    if root is not None:
        try:
            rel = str(Path(path).relative_to(root))
            return rel + ("/" if path.endswith("/") else "")
        except ValueError:
            pass
    return path


def status_text(obj: dict[str, Any]) -> str:
    status = obj.get("status") or "?"
    return "ended without a result: its engine is gone" if status == "ended" else status


# --- module class ------------------------------------------------------------------------------------------


def _rounds_block(obj: dict[str, Any]) -> str:
    """The round table as aligned monospace text: markdown tables in VS Code's hover have no cell padding."""
    device = obj.get("device")
    rows = [("round", "space", "direction", "valid", "best")]
    for r in obj.get("rounds") or []:
        outs = r.get("outcomes") or []
        valid = sum(1 for o in outs if o.get("status") == "valid")
        d = r.get("direction") or "?"
        score = (r.get("scores") or {}).get(d)
        kept = r.get("best") or {}
        if not kept:  # a round object from before with_retimes: its own first pairs
            figures = [s for o in outs for s, _ in [reported_speedup(o)] if s is not None]
            kept = {"speedup": max(figures)} if figures else {}
        best = times(kept.get("speedup")) + (" re-timed" if kept.get("retimed") else "") if kept else "-"
        rows.append((str(r.get("round")), r.get("space_title") or space_title(r.get("space"), device),
                     d + (f" ({score:.2f})" if isinstance(score, (int, float)) else ""), f"{valid}/{len(outs)}", best))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "```text\n" + "\n".join(lines) + "\n```\n\n"


def module_hover(module: ModuleClass, obj: dict[str, Any] | None, job_line: str | None,
                 result_file: str | None, root: Path | None = None) -> str:
    """The class hover: compact (VS Code's hover is short, and the class line's diagnostic sits above it: what it
    says, where a kept-back best's files are, is not said again here), the verdict and its pair first, how sure
    it is and what the engine flagged, then why this candidate, the details and the rounds as aligned text."""
    head = f"**HIERA · `{module.name}`**"
    if not module.optimizable:
        return head + f"\n\nNot optimizable as written: {module.problem}. To fix: {ANNOTATION_HELP}."
    running = f"\n\n**Running:** {job_line}" if job_line else ""
    if obj is None:
        how = "KernelBench format" if module.kind == "kernelbench" else f"inputs from `{module.inputs_fn}()`"
        return (f"{head} · optimizable ({how}){running}\n\nNo run yet: use *Optimize with HIERA* (code action or "
                "code lens).")
    best = obj.get("best")
    device = obj.get("device")
    parts = []
    if best:
        judged = f" · {precision_phrase(obj.get('precision'))}" if obj.get("precision") else ""
        parts.append(f"{head} · **{speed_phrase(best)}** · {pair_text(best)}{judged}{running}")
        if sure := sureness(best):
            parts.append(sure)
        if best.get("speed_of_light_text"):
            parts.append(f"Speed of light: **{best['speed_of_light_text']}** · {best.get('speed_of_light_detail')}")
        if stop := stopped_early_text(obj):
            parts.append(stop)
        if result_file:
            parts.append(f"Result: `{result_file}` beside this file")
        if shapes := shapes_text(best):
            parts.append(shapes)
        why = best.get("why") or f"`{best.get('candidate_id')}`"
        details = (f"Best: {why} · round {best.get('round')}, "
                   f"{best.get('space_title') or space_title(best.get('space'), device)}"
                   f"{', chosen direction ' + best['direction'] if best.get('direction') else ''} · ")
    else:
        parts.append(f"{head} · no valid candidate yet (eager {duration(obj.get('reference_ms'))}){running}")
        details = ""
    valid, invalid, why_not = outcome_counts(obj)
    reasons = ", ".join(f"{k} {v}" for k, v in why_not.most_common())
    tokens = obj.get("tokens") or {}
    prompt, completion = tokens.get("prompt") or 0, tokens.get("completion") or 0
    cost = obj.get("cost_usd")
    model = (f"{prompt:,} + {completion:,} model tokens"
             f"{f' (${cost:.4f})' if isinstance(cost, (int, float)) else ', cost unknown'}"
             if prompt or completion else "no model calls")
    parts.append(f"{details}{valid} valid · {invalid} invalid{f' ({reasons})' if reasons else ''} · {model} · "
                 f"{device_words(device, obj.get('device_name'))}, {obj.get('backend') or '?'} backend, "
                 f"run `{obj.get('run_id')}` "
                 f"({status_text(obj)})")
    text = "\n\n".join(parts) + "\n\n"
    return text + (_rounds_block(obj) if obj.get("rounds") else "")


def lens_summary(obj: dict[str, Any]) -> str:
    """'1.4× faster than eager · 62% of speed of light, memory-bound · chosen direction: M': the best, its share
    of the task's bound where there is one, and the direction of the round that made it (the hover's, from the same
    record: the lens said the last round's R beside a hover's round 1, P), the last round's before there is a best;
    a bottleneck only where Nsight Compute measured the best ('· ncu: memory-bound (M)')."""
    best = obj.get("best")
    d = (best or {}).get("direction") or last_direction(obj)
    if best and isinstance(best.get("speedup"), (int, float)):
        head = speed_phrase(best) + (f" at {obj['precision']}" if obj.get("precision") else "")
    elif obj.get("status") == "running":
        head = "running"
    else:
        head = "no valid candidate"
    light = (best or {}).get("speed_of_light_text")
    parts = [head] + ([light] if light else []) + ([f"chosen direction: {d}"] if d else [])
    measured = ((best or {}).get("bottleneck") or {}).get("direction")
    if measured in BOUND_LABELS:
        parts.append(f"ncu: {BOUND_LABELS[measured]} ({measured})")
    return " · ".join(parts)


def _class_range(module: ModuleClass, line_text: str) -> types.Range:
    start = types.Position(module.class_line, module.name_col)
    end = types.Position(module.class_line, max(module.name_col + len(module.name), len(line_text.rstrip())))
    return types.Range(start, end)


def module_diagnostic(module: ModuleClass, obj: dict[str, Any] | None, result_file: str | None,
                      line_text: str, root: Path | None = None) -> types.Diagnostic | None:
    """On the class line, what the run found: 'HIERA found a 1.4× faster kernel: <where>' (the result beside the
    module once there is one, else the best so far in the run folder; Information), or, for a best that was
    not written beside it (slower, level or unstable timing; a Warning, so the Problems panel tells it from a
    win), its verdict, that nothing was written and where the kept files are; nothing before the first valid
    candidate."""
    best = (obj or {}).get("best")
    if not obj or not best or not isinstance(best.get("speedup"), (int, float)):
        return None
    w = words(best)
    flagged = "".join(f"; {x}" for x in w["warnings"])
    if kept_back(best):
        if obj.get("status") == "running":
            return None  # the run may still find a faster one
        verdict = best.get("verdict")
        if verdict == "unstable":
            what, code = f"{w['headline']} ({w['uncertainty']})", "unstable-timing"
        else:
            detail = w["uncertainty"] if verdict == "level" else pair_text(best)
            what, code = f"no kernel beat eager: the best is {w['headline']} ({detail})", "not-delivered"
        message = (f"HIERA: {what}{flagged}; nothing was written beside this file, the kept files are in "
                   f"{kept_folder(obj, root)}")
        severity = types.DiagnosticSeverity.Warning
    else:
        paths = best.get("paths") or {}
        where = result_file or short_path(paths.get("py") or paths.get("cu") or
                                          f".hiera/runs/{obj.get('run_id') or '?'}/", root)
        message = f"HIERA found a kernel {w['headline']}: {where}{flagged}"
        code, severity = "faster-kernel", types.DiagnosticSeverity.Information
    return types.Diagnostic(range=_class_range(module, line_text), severity=severity, source=SOURCE, code=code,
                            message=message)


def module_diagnostic_at(d: types.Diagnostic, module: ModuleClass, lines: list[str]) -> types.Diagnostic:
    line_text = lines[module.class_line] if module.class_line < len(lines) else ""
    return types.Diagnostic(range=_class_range(module, line_text), severity=d.severity, source=d.source, code=d.code,
                            message=d.message)
