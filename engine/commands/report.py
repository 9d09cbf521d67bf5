"""`hiera report [RUN_ID]`: what a run decided, what it measured, and how often the direction the SSDA
chose matched the bottleneck Nsight Compute measured on the parent (the taxonomy miss rate)."""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from rich.table import Table

from engine.cli import EXIT_OK, UsageError, console, workspace_of
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


def build_report(store: RunStore, run_id: str) -> dict[str, Any]:
    run = store.run(run_id)
    if run is None:
        raise UsageError(f"no run {run_id} in {store.db_path}")
    decisions = store.decisions(run_id)
    cands = store.candidates(run_id)
    calls = store.model_calls(run_id)
    return {
        "run": {k: run[k] for k in ("id", "kind", "task_path", "status", "backend", "device", "reference_ms")},
        "settings": run["settings"],
        "rounds": [{k: d[k] for k in ("round", "space", "scores", "direction", "strategy", "rationale",
                                       "profile_bottleneck")} for d in decisions],
        "candidates": [{k: c[k] for k in ("id", "round", "idx", "status", "speedup", "candidate_ms", "reason")}
                       for c in cands],
        "direction_vs_bottleneck": direction_match(decisions),
        "model": {"calls": len(calls), "prompt_tokens": sum(c["prompt_tokens"] for c in calls),
                  "completion_tokens": sum(c["completion_tokens"] for c in calls),
                  "seconds": sum(c["seconds"] for c in calls),
                  "cost_usd": sum(c["cost_usd"] or 0 for c in calls) if any(c["cost_usd"] for c in calls) else None},
        "profiled": sorted(store.profiles(run_id)),
        "notices": store.notices(run_id),
    }


def cmd_report(args: argparse.Namespace) -> int:
    store = RunStore.for_workspace(workspace_of(args))
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
    r = rep["run"]
    console.print(f"[bold]run {r['id']}[/bold] · {r['task_path']} · {r['status']} · {r['backend']} · {r['device']}"
                  f" · eager {r['reference_ms'] or 0:.4g} ms")
    t = Table("round", "space", "C P M R T", "chosen", "strategy", "ncu bottleneck of the parent")
    for d in rep["rounds"]:
        s = d["scores"]
        t.add_row(str(d["round"]), d["space"], " ".join(f"{s.get(k, 0):.1f}" for k in "CPMRT"), d["direction"],
                  d["strategy"], d["profile_bottleneck"] or "-")
    console.print(t)
    c = Table("candidate", "round", "status", "speedup", "reason")
    for x in rep["candidates"]:
        c.add_row(x["id"], str(x["round"]), x["status"], f"{x['speedup']:.2f}x" if x["speedup"] else "-",
                  x["reason"][:90])
    console.print(c)
    m = rep["direction_vs_bottleneck"]
    if m["judged_rounds"]:
        console.print(f"chosen direction = ncu's bottleneck in {m['matched']}/{m['judged_rounds']} profiled rounds "
                      f"({m['match_rate']:.0%}); miss rate {1 - m['match_rate']:.0%}")
    else:
        console.print("no profiled rounds: the direction/bottleneck match cannot be judged")
    mod = rep["model"]
    console.print(f"model: {mod['calls']} calls, {mod['prompt_tokens']}+{mod['completion_tokens']} tokens, "
                  f"{mod['seconds']:.1f} s" + (f", ${mod['cost_usd']:.4f}" if mod["cost_usd"] else ""))
    for n in rep["notices"]:
        console.print(f"[yellow]notice:[/yellow] {n}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("report", help="show a run: decisions, candidates, direction vs measured bottleneck")
    p.add_argument("run", nargs="?", help="run id (default: the latest optimize run)")
    p.add_argument("--workspace", default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_report)
