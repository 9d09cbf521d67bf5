"""`hiera eval TASK.py CANDIDATE...`: verify and time candidates against a task, each against eager on its own."""

from __future__ import annotations

import argparse
from typing import Any

from contracts import strict_json
from contracts.vocabulary import Space
from engine.commands.common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_STOPPED,
    MIN_TRIALS,
    UsageError,
    add_common,
    add_eval_limits,
    candidate_file_or_exit,
    check_sandbox,
    console,
    device_or_exit,
    device_text_or_exit,
    escape,
    eval_limits,
    load_task_or_exit,
    outcome_table,
    precision_or_exit,
    shown_path,
    task_text_or_exit,
    task_workdir,
    user_build_log,
    whole_number,
    workspace_of,
)
from engine.evaluate.outcome import Outcome


def cmd_eval(args: argparse.Namespace) -> int:
    import hashlib

    from engine.evaluate.pipeline import EvalSettings, Evaluator, candidate_from_file
    from engine.loop import figure, uninterrupted
    from engine.store import RunStore

    device_text_or_exit(args.device)
    task_text_or_exit(args.task)  # the usage errors that need no torch, first
    device = device_or_exit(args.device)
    paths = [candidate_file_or_exit(name, device) for name in args.candidate]
    spec = load_task_or_exit(args.task, device, args.load_timeout)
    space = Space(args.space)
    cands = []
    for n, cand_path in enumerate(paths, start=1):
        try:
            text = cand_path.read_text()
            cid = f"{cand_path.stem}-{hashlib.sha256(text.encode()).hexdigest()[:8]}-{n}"
            cands.append((cand_path, candidate_from_file(cand_path, device, space, cid=cid)))
        except (ValueError, UnicodeDecodeError) as e:
            raise UsageError(f"{cand_path}: {e}") from e
    workspace = workspace_of(args)
    precision, precision_why = precision_or_exit(args.precision, spec)
    settings = EvalSettings(device=device, precision=precision, space=space,
                            timing_trials=args.trials, **eval_limits(args))
    from engine.commands.checks import workspace_writable

    workspace_writable(workspace)
    check_sandbox(settings.sandbox, device)
    store = RunStore.for_workspace(workspace)
    # Several candidates share one worker (one start, one set of reference models and inputs); each is
    # still verified and timed against the reference on its own, and recorded as its own run.
    run_of = {c.id: store.start_run(
        "eval", spec.path, spec.name, spec.source_hash,
        {"device": str(device), "precision": precision.value, "space": space.value, "candidate": str(p.resolve()),
         "trials": args.trials, **eval_limits(args)}, backend=None, device=str(device)) for p, c in cands}
    file_of = {c.id: p for p, c in cands}
    console.print(f"[dim]hiera eval: {escape(spec.name)} on {device}, run {', '.join(run_of.values())}; "
                  f"{escape(precision_why)}[/dim]")
    if settings.sandbox:
        from engine.evaluate import limit_check

        for said in limit_check.notices(device.is_cuda, True):  # never a limit silently absent
            console.print(f"[dim]{escape(said)}[/dim]")
    done: list[Outcome] = []

    def finished(cand: Any, outcome: Outcome) -> None:
        # Recorded as it finishes: a later candidate that hangs or a Ctrl-C loses none of the earlier ones.
        run_id, path = run_of[cand.id], file_of[cand.id]
        store.record_candidate(run_id, cand, outcome)
        store.set_reference(run_id, outcome.reference.median_ms if outcome.reference else None, outcome.device,
                            outcome.device_name)
        fig = figure(outcome, retimed=False)
        store.finish_run(run_id, "finished", {**outcome.to_json(), "figure": fig.to_json() if fig else None})
        done.append(outcome)
        shown = shown_path(path)
        if args.json:
            # The whole compiler output, against the user's file name and lines.
            shown_reason = user_build_log(outcome.reason, shown)
            print(strict_json.dumps({**outcome.to_json(), "reason": shown_reason, "verdict": fig and fig.verdict,
                              "spread": fig and fig.spread, "low": fig and fig.low, "high": fig and fig.high,
                              "confidence": fig and fig.confidence, "run_id": run_id, "candidate_file": str(path)}),
                  flush=True)
        else:
            console.print(outcome_table(outcome, f"{path.name} against {spec.name}", shown))

    try:
        with Evaluator(spec, task_workdir(workspace, spec), settings,
                       cache_dir=workspace / ".hiera" / "cache" / "build") as ev:
            try:
                ev.evaluate([c for _, c in cands], on_outcome=finished)
            except KeyboardInterrupt:
                with uninterrupted():
                    ev.close()
                raise
    except KeyboardInterrupt:
        with uninterrupted():
            left = [run_of[c.id] for _, c in cands if store.run(run_of[c.id])["status"] == "running"]
            for run_id in left:
                store.finish_run(run_id, "stopped")
        console.print(f"[yellow]stopped:[/yellow] {len(done)} of {len(cands)} candidates finished (shown above, "
                      f"and recorded); {len(left)} not evaluated")
        return EXIT_STOPPED
    except BaseException:
        for run_id in run_of.values():
            if store.run(run_id)["status"] == "running":
                store.finish_run(run_id, "failed")
        raise
    return EXIT_OK if all(o.valid for o in done) and len(done) == len(cands) else EXIT_INVALID


def register(sub: Any) -> None:
    p = sub.add_parser("eval", help="verify and time candidates against a task (with --json: one line each)")
    p.add_argument("task", metavar="TASK.py", help="KernelBench-format task .py (required)")
    p.add_argument("candidate", nargs="+", metavar="CANDIDATE",
                   help="one or more (required): a .cu/.cpp source against the task's contract, or a ModelNew .py; "
                        "several share one worker")
    p.add_argument("--space", default="libraries_pytorch", choices=[s.value for s in Space],
                   help="the implementation space the candidate must stay in (default: libraries_pytorch, any)")
    p.add_argument("--trials", type=whole_number(MIN_TRIALS), default=100,
                   help=f"timing trials per candidate, at least {MIN_TRIALS} (default: 100, the standard)")
    add_eval_limits(p)
    add_common(p)
    p.set_defaults(func=cmd_eval)
