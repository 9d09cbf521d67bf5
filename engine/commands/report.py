"""`hiera report [RUN_ID]`: what a run decided, what it measured, and how often the direction the SSDA
chose matched the bottleneck Nsight Compute measured on the parent (the taxonomy miss rate).

It only reads: with no run store in the workspace it says so and creates none."""

from __future__ import annotations

import argparse
import re
import sqlite3
from pathlib import Path
from typing import Any

from contracts import strict_json
from contracts.precision import precision_phrase
from contracts.runrecord import (
    KEPT_DIRS,
    RETIMED,
    BestFigure,
    StoppedEarly,
    best_of_rows,
    figure_key,
    latest_figures,
    pick_best,
    row_figure,
    shapes_of,
)
from contracts.runstore import RunReader
from contracts.speed_of_light import SpeedOfLight
from contracts.verdict import median, ratio_text
from contracts.wording import device_words, flag_phrase, is_cpu, space_title
from engine.commands.common import (
    EXIT_OK,
    UsageError,
    console,
    fig_text,
    folding_table,
    light_cell,
    light_line,
    reason_text,
    shown_path,
    workspace_of,
)
from engine.evaluate.outcome import Outcome
from engine.loop import figure
from engine.store import RunStore
from engine.untrusted import escape


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
    aside = any(Path(p).parent.name in KEPT_DIRS for p in written)
    kept = ((best or {}).get("not_delivered") or "not delivered: not faster than eager") + (
        "; kept in the run's folder (--keep-slower writes such a result beside the task)")
    why = kept if aside else "beside the task" if not run["settings"].get("results_dir") else "in --results-dir"
    return {"written": written, "kept_aside": aside, "why": why}


def build_report(store: RunReader, run_id: str) -> dict[str, Any]:
    run = store.run(run_id)
    if run is None:
        raise UsageError(f"no run {run_id} in {store.db_path}")
    decisions = store.decisions(run_id)
    cands = store.candidates(run_id)
    calls = store.model_calls(run_id)
    eager = [c["reference_ms"] for c in cands if c.get("reference_ms") and not c["id"].endswith(RETIMED)]
    pool = latest_figures(cands)
    round_best = {}
    for d in decisions:
        b = pick_best([x for x in pool.values() if x[0]["round"] == d["round"]],
                      lambda x: figure_key(row_figure(x[0], x[1])), lambda x: x[1],
                      lambda x: shapes_of(x[0]))
        round_best[d["round"]] = _row_figure(*b) if b else None
    best = _best(run, cands)
    return {
        "run": {k: run[k] for k in ("id", "kind", "task_path", "status", "backend", "device", "reference_ms")},
        "device_name": run.get("device_name"),
        "settings": run["settings"],
        # The policy every figure of the run was judged at (contracts/precision.py).
        "precision": (run.get("summary") or {}).get("precision") or run["settings"].get("precision"),
        "best": best,
        "eager_median_ms": median(eager),
        "eager_pairs": len(eager),
        "files": _files(run, best),
        "rounds": [{**{k: d[k] for k in ("round", "space", "scores", "direction", "strategy", "rationale",
                                          "profile_bottleneck")}, "best": round_best[d["round"]]} for d in decisions],
        "candidates": [{**{k: c[k] for k in ("id", "round", "idx", "status", "speedup", "candidate_ms", "reason",
                                             "source_path")}, "flags": list(c.get("flags") or [])} for c in cands],
        "direction_vs_bottleneck": direction_match(decisions),
        "model": {"calls": len(calls), "prompt_tokens": sum(c["prompt_tokens"] for c in calls),
                  "completion_tokens": sum(c["completion_tokens"] for c in calls),
                  "seconds": sum(c["seconds"] for c in calls),
                  "cost_usd": sum(c["cost_usd"] or 0 for c in calls) if any(c["cost_usd"] for c in calls) else None},
        "profiled": sorted(store.profiles(run_id)),
        "phases": (run.get("summary") or {}).get("phases") or {},
        "profiling": (run.get("summary") or {}).get("profiling"),
        "stopped_early": (run.get("summary") or {}).get("stopped_early"),
        "notices": store.notices(run_id),
    }


def phases_text(phases: dict[str, float]) -> str:
    """'wall 63 s: start 4.1, worker 2.0, ...' (phases of 0.05 s or less left out)."""
    from engine.phases import ORDER

    shown = [f"{k.replace('_', ' ')} {phases[k]:.1f}" for k in ORDER if phases.get(k, 0) > 0.05]
    return f"wall {sum(phases.values()):.0f} s: " + ", ".join(shown)


def _print_header(rep: dict[str, Any]) -> None:
    r = rep["run"]
    console.print(f"[bold]run {r['id']}[/bold] · {escape(r['task_path'])} · {r['status']} · {escape(str(r['backend']))}"
                  f" · {escape(device_words(r['device'], rep.get('device_name')))}")
    b = rep["best"]
    if b is None:
        console.print("best: [red]no valid candidate[/red]")
    else:
        pair = "timed again on its own" if b["retimed"] else "its first pair, not timed again"
        console.print(f"best: [bold]{escape(fig_text(BestFigure.from_json(b)))}[/bold] — {escape(b['candidate_id'])}, "
                      f"{b['candidate_ms']:.4g} ms vs {b['reference_ms']:.4g} ms eager in the same pair ({pair})"
                      f" · round {b['round']} · {escape(space_title(b['space'], r['device']))}"
                      + (f" · {precision_phrase(rep.get('precision'))}" if rep.get("precision") else ""))
        for flag in b.get("flags") or []:
            console.print(f"[yellow]flagged:[/yellow] {escape(flag_phrase(flag))}")
        sol = SpeedOfLight.from_json(b.get("speed_of_light"))
        if sol is not None:
            console.print(f"speed of light: {escape(light_line(sol))}")
            for note in sol.notes:
                console.print(f"  [dim]{escape(note)}[/dim]")
    if rep.get("stopped_early"):
        console.print(escape(StoppedEarly.from_json(rep["stopped_early"]).summary()))
    if rep["eager_median_ms"] is not None:
        console.print(f"eager: {rep['eager_median_ms']:.4g} ms, the median over the run's {rep['eager_pairs']} pairs")
    f = rep["files"]
    if f["written"]:
        for p in f["written"]:
            console.print(f"{'kept' if f['kept_aside'] else 'wrote'} {escape(shown_path(p))}")
        console.print(f"  [dim]{escape(f['why'])}[/dim]")
    else:
        console.print(f"files: none ({escape(f['why'])})")


class ReadOnlyStore(RunReader):
    """The store of a workspace this process cannot write (a read-only mount, another user's folder), read as
    it stands. SQLite opens a WAL database read-only only where its -shm file exists or can be created; where
    neither, it is read as immutable (a writer elsewhere could make that read stale: hiera writes its store
    only where it can write)."""

    def __init__(self, db_path: Path):
        self.db_path = db_path
        error: sqlite3.Error | None = None
        for mode in ("mode=ro", "immutable=1"):
            try:
                conn = sqlite3.connect(f"file:{db_path}?{mode}", uri=True, timeout=5)
                conn.row_factory = sqlite3.Row
                conn.execute("SELECT 1 FROM runs LIMIT 1")
            except sqlite3.Error as e:
                error = e
                continue
            self.conn = conn
            return
        raise UsageError(f"cannot read the run store {db_path} ({error}): check it is a hiera workspace's "
                         ".hiera/hiera.db and that you may read it")

    def _connection(self) -> sqlite3.Connection:
        return self.conn


def open_to_read(workspace: Path) -> RunReader:
    """The workspace's store for a reader: opened as the engine opens it (which also ends runs whose process
    died), else read-only, since a report must not need to write."""
    if not (workspace / ".hiera" / "hiera.db").is_file():
        raise UsageError(f"no runs in {workspace}: it has no .hiera/hiera.db (`hiera optimize TASK.py` makes one; "
                         "--workspace names another folder)")
    try:
        store = RunStore.existing(workspace)
    except (sqlite3.OperationalError, OSError) as e:
        console.print(f"[dim]reading {escape(str(workspace / '.hiera'))} read-only ({escape(str(e))}): a run whose "
                      "process died still reads as running[/dim]")
        return ReadOnlyStore(workspace / ".hiera" / "hiera.db")
    assert store is not None
    return store


# The kinds of run a workspace records, in the order `--list` shows them: each is its own list, so an eval of a
# kernel is never read as an optimize run (the default report, --resume and the editor look at optimize runs).
RUN_KINDS = {"optimize": "optimize runs", "eval": "evaluations of given candidates (hiera eval)",
             "profile": "profiles (hiera profile)"}


def _run_line(run: dict[str, Any]) -> dict[str, Any]:
    summary = run.get("summary") or {}
    best = summary.get("best") if run["kind"] == "optimize" else summary.get("figure")
    what = (Path(run["settings"].get("candidate") or "").name if run["kind"] != "optimize" else
            f"{run['settings'].get('budget', '?')} candidates")
    if run["kind"] == "eval" and summary.get("status") and summary["status"] != "valid":
        result = summary["status"]
    elif best and best.get("speedup"):
        result = f"{ratio_text(best['speedup'], None, 'x')} {best.get('verdict') or ''}".strip()
        if run["settings"].get("precision") not in (None, "fp32"):
            result += f" at {run['settings']['precision']}"
    else:
        result = "no valid candidate" if run["status"] == "finished" else "-"
    return {"id": run["id"], "kind": run["kind"], "status": run["status"], "task": run["task_name"],
            "what": what, "result": result,
            "device": device_words(run.get("device"), run.get("device_name")) if run.get("device") else None}


def list_runs(store: RunReader, as_json: bool) -> int:
    lines = [_run_line(r) for r in store.runs(limit=200)]
    if as_json:
        print(strict_json.dumps({"runs": lines}))
        return EXIT_OK
    for kind, title in RUN_KINDS.items():
        mine = [x for x in lines if x["kind"] == kind]
        if not mine:
            continue
        t = folding_table("run", "status", "task", "candidate" if kind != "optimize" else "budget", "result",
                          "device", title=f"{title}: {len(mine)}", title_justify="left")
        for x in mine:
            t.add_row(x["id"], x["status"], escape(x["task"]), escape(x["what"]),
                      escape(x["result"] if x["result"] != "-" else f"none ({x['status']})"),
                      escape(str(x["device"] or "?")))
        console.print(t)
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    workspace = workspace_of(args)
    store = open_to_read(workspace)
    if args.list:
        return list_runs(store, args.json)
    run_id = args.run
    if run_id is None:
        runs = store.runs(kind="optimize", limit=1)
        if not runs:
            raise UsageError(f"no optimize runs in {store.db_path}")
        run_id = runs[0]["id"]
    rep = build_report(store, run_id)
    if args.json:
        print(strict_json.dumps(rep, default=str))
        return EXIT_OK
    _print_header(rep)
    device = rep["run"]["device"]
    # Why a round's parent has no bottleneck: nothing profiled it (the CPU, --no-profile, no ncu, or the first
    # round's parent, the reference, was not profiled).
    unprofiled = ("not profiled: Nsight Compute profiles CUDA kernels and this run is on the CPU" if is_cpu(device)
                  else "not profiled (--no-profile, ncu unavailable, or the profile failed: see the notices)")
    t = folding_table("round", "space", "C P M R T", "chosen", "strategy", "ncu bottleneck of the parent", "best x",
                      "speed of light", caption="* a first pair, not timed again on its own", caption_justify="left")
    for d in rep["rounds"]:
        s = d["scores"]
        b = d["best"]
        best = f"{b['speedup']:.2f}{'' if b['retimed'] else '*'} ({b['verdict']})" if b else "none valid"
        t.add_row(str(d["round"]), escape(space_title(d["space"], device)),
                  " ".join(f"{s.get(k, 0):.1f}" for k in "CPMRT"), d["direction"], escape(d["strategy"]),
                  escape(d["profile_bottleneck"] or unprofiled), best,
                  light_cell(SpeedOfLight.from_json((b or {}).get("speed_of_light"))))
    console.print(t)
    c = folding_table("candidate", "round", "status", "speedup", "reason")
    for x in rep["candidates"]:
        name = Path(x["source_path"]).name if x.get("source_path") else None
        flags = "".join(f"\nflagged: {flag_phrase(f)}" for f in x["flags"])
        c.add_row(escape(x["id"]), str(x["round"]), x["status"],
                  ratio_text(x["speedup"], None, "x") if x["speedup"] else "-",  # the status and reason say why
                  escape(reason_text(x, name, lines=3) + flags))
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
    if rep["phases"]:
        console.print(f"time: {escape(phases_text(rep['phases']))}")
    if rep["profiling"]:
        from contracts.runrecord import Profiling

        console.print(escape(Profiling.from_json(rep["profiling"]).summary()))
    for n in rep["notices"]:
        console.print(f"[yellow]notice:[/yellow] {escape(n)}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("report", help="show a run: decisions, candidates, direction vs measured bottleneck")
    p.add_argument("run", nargs="?", help="run id (default: the latest optimize run)")
    p.add_argument("--list", action="store_true",
                   help="list the workspace's runs, optimize runs apart from evaluations and profiles (default: off)")
    p.add_argument("--workspace", default=None,
                   help="where .hiera/ lives (default: $HIERA_WORKSPACE, else the current directory)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object (default: off)")
    p.set_defaults(func=cmd_report)
