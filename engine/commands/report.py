"""`hiera report [RUN_ID]`: what a run decided, what it measured, and how often the direction the SSDA
chose matched the bottleneck Nsight Compute measured on the parent (the taxonomy miss rate).

It only reads: with no run store in the workspace it says so and creates none."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from rich.markup import escape

from contracts.runrecord import RETIMED, SLOWER_DIR, BestFigure, best_of_rows, latest_figures, pick_best
from engine.cli import (
    EXIT_OK,
    UsageError,
    console,
    fig_text,
    folding_table,
    reason_text,
    shown_path,
    workspace_of,
)
from engine.evaluate.outcome import Outcome
from engine.loop import figure
from engine.store import RunStore


def direction_match(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """Rounds whose parent was profiled, and in how many the chosen direction was ncu's bottleneck's."""
    judged, matched = 0, 0
    for d in decisions:
        m = re.search(r"\((\w|\?)\)$", d.get("profile_bottleneck") or "")
        if not m or m.group(1) == "?":
            continue
        judged += 1
        matched += int(m.group(1) == d["direction"])
    return {"judged_rounds": judged, "matched": matched, "match_rate": matched / judged if judged else None}


def _row_figure(row: dict[str, Any], retimed: bool) -> dict[str, Any] | None:
    fig = figure(Outcome.from_json(row["outcome"]), retimed)
    return BestFigure.of(row["id"].removesuffix(RETIMED), fig).to_json() if fig else None


def _best(run: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The run's best: the one its summary reported, else (a run stopped or killed before it wrote one) the
    same rule applied to its stored candidates."""
    summary = run.get("summary") or {}
    if summary.get("best") and "verdict" in summary["best"]:
        return summary["best"]
    found = best_of_rows(rows)
    if found is None:
        return None
    row, retimed = found
    fig = _row_figure(row, retimed)
    return fig and {**fig, "round": row["round"], "space": row["space"], "paths": None}


def _files(run: dict[str, Any], best: dict[str, Any] | None) -> dict[str, Any]:
    """Where the run's result files went, and why there."""
    paths = (best or {}).get("paths") or {}
    written = [p for p in (paths.get("py"), paths.get("cu")) if p]
    if not written:
        why = ("no valid candidate" if best is None else
               "the run did not write them (it ended before finishing: --resume continues it)")
        return {"written": [], "kept_aside": False, "why": why}
    aside = any(Path(p).parent.name == SLOWER_DIR for p in written)
    why = ("not faster than eager: kept in the run's folder (--keep-slower writes such a result beside the task)"
           if aside else "beside the task" if not run["settings"].get("results_dir") else "in --results-dir")
    return {"written": written, "kept_aside": aside, "why": why}


def build_report(store: RunStore, run_id: str) -> dict[str, Any]:
    run = store.run(run_id)
    if run is None:
        raise UsageError(f"no run {run_id} in {store.db_path}")
    decisions = store.decisions(run_id)
    cands = store.candidates(run_id)
    calls = store.model_calls(run_id)
    eager = sorted(c["reference_ms"] for c in cands if c.get("reference_ms") and not c["id"].endswith(RETIMED))
    pool = latest_figures(cands)
    round_best = {}
    for d in decisions:
        b = pick_best([x for x in pool.values() if x[0]["round"] == d["round"]], lambda x: x[0]["speedup"],
                      lambda x: x[1])
        round_best[d["round"]] = _row_figure(*b) if b else None
    best = _best(run, cands)
    return {
        "run": {k: run[k] for k in ("id", "kind", "task_path", "status", "backend", "device", "reference_ms")},
        "settings": run["settings"],
        "best": best,
        "eager_median_ms": eager[len(eager) // 2] if eager else None,
        "eager_pairs": len(eager),
        "files": _files(run, best),
        "rounds": [{**{k: d[k] for k in ("round", "space", "scores", "direction", "strategy", "rationale",
                                          "profile_bottleneck")}, "best": round_best[d["round"]]} for d in decisions],
        "candidates": [{k: c[k] for k in ("id", "round", "idx", "status", "speedup", "candidate_ms", "reason",
                                          "source_path")} for c in cands],
        "direction_vs_bottleneck": direction_match(decisions),
        "model": {"calls": len(calls), "prompt_tokens": sum(c["prompt_tokens"] for c in calls),
                  "completion_tokens": sum(c["completion_tokens"] for c in calls),
                  "seconds": sum(c["seconds"] for c in calls),
                  "cost_usd": sum(c["cost_usd"] or 0 for c in calls) if any(c["cost_usd"] for c in calls) else None},
        "profiled": sorted(store.profiles(run_id)),
        "notices": store.notices(run_id),
    }


def _print_header(rep: dict[str, Any]) -> None:
    r = rep["run"]
    console.print(f"[bold]run {r['id']}[/bold] · {escape(r['task_path'])} · {r['status']} · {escape(str(r['backend']))}"
                  f" · {escape(str(r['device']))}")
    b = rep["best"]
    if b is None:
        console.print("best: [red]no valid candidate[/red]")
    else:
        pair = "timed again on its own" if b["retimed"] else "its first pair, not timed again"
        console.print(f"best: [bold]{escape(fig_text(BestFigure.from_json(b)))}[/bold] — {escape(b['candidate_id'])}, "
                      f"{b['candidate_ms']:.4g} ms vs {b['reference_ms']:.4g} ms eager in the same pair ({pair})"
                      f" · round {b['round']} · {escape(str(b['space']))}")
    if rep["eager_median_ms"] is not None:
        console.print(f"eager: {rep['eager_median_ms']:.4g} ms, the median over the run's {rep['eager_pairs']} pairs")
    f = rep["files"]
    if f["written"]:
        for p in f["written"]:
            console.print(f"{'kept' if f['kept_aside'] else 'wrote'} {escape(shown_path(p))}")
        console.print(f"  [dim]{escape(f['why'])}[/dim]")
    else:
        console.print(f"files: none ({escape(f['why'])})")


def cmd_report(args: argparse.Namespace) -> int:
    workspace = workspace_of(args)
    store = RunStore.existing(workspace)
    if store is None:
        raise UsageError(f"no runs in {workspace}: it has no .hiera/hiera.db (`hiera optimize TASK.py` makes one; "
                         "--workspace names another folder)")
    run_id = args.run
    if run_id is None:
        runs = store.runs(kind="optimize", limit=1)
        if not runs:
            raise UsageError(f"no optimize runs in {store.db_path}")
        run_id = runs[0]["id"]
    rep = build_report(store, run_id)
    if args.json:
        print(json.dumps(rep, default=str))
        return EXIT_OK
    _print_header(rep)
    t = folding_table("round", "space", "C P M R T", "chosen", "strategy", "ncu bottleneck of the parent", "best x",
                      caption="* a first pair, not timed again on its own", caption_justify="left")
    for d in rep["rounds"]:
        s = d["scores"]
        b = d["best"]
        best = f"{b['speedup']:.2f}{'' if b['retimed'] else '*'} ({b['verdict']})" if b else "-"
        t.add_row(str(d["round"]), escape(d["space"]), " ".join(f"{s.get(k, 0):.1f}" for k in "CPMRT"),
                  d["direction"], escape(d["strategy"]), escape(d["profile_bottleneck"] or "-"), best)
    console.print(t)
    c = folding_table("candidate", "round", "status", "speedup", "reason")
    for x in rep["candidates"]:
        name = Path(x["source_path"]).name if x.get("source_path") else None
        c.add_row(escape(x["id"]), str(x["round"]), x["status"], f"{x['speedup']:.2f}x" if x["speedup"] else "-",
                  escape(reason_text(x, name, lines=3)))
    console.print(c)
    m = rep["direction_vs_bottleneck"]
    if m["judged_rounds"]:
        console.print(f"chosen direction = ncu's bottleneck in {m['matched']}/{m['judged_rounds']} profiled rounds "
                      f"({m['match_rate']:.0%}); miss rate {1 - m['match_rate']:.0%}")
    else:
        console.print("no profiled rounds: the direction/bottleneck match cannot be judged")
    mod = rep["model"]
    if rep["run"]["backend"] not in (None, "expert"):  # the expert backend calls no model
        console.print(f"model: {mod['calls']} calls, {mod['prompt_tokens']}+{mod['completion_tokens']} tokens, "
                      f"{mod['seconds']:.1f} s" + (f", ${mod['cost_usd']:.4f}" if mod["cost_usd"] else ""))
    for n in rep["notices"]:
        console.print(f"[yellow]notice:[/yellow] {escape(n)}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("report", help="show a run: decisions, candidates, direction vs measured bottleneck")
    p.add_argument("run", nargs="?", help="run id (default: the latest optimize run)")
    p.add_argument("--workspace", default=None,
                   help="where .hiera/ lives (default: $HIERA_WORKSPACE, else the current directory)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object (default: off)")
    p.set_defaults(func=cmd_report)
