"""`hiera doctor`: what a run will use on this machine and whether each piece works here, in the sandbox.

Exit 0 when every essential check passes (a run can go on: the others cost a feature and say so), 1 when
one does not, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from rich.table import Table

from engine.commands.common import EXIT_INVALID, EXIT_OK, console, device_or_exit
from engine.untrusted import escape

_STYLE = {"ok": "green", "skipped": "dim", "missing": "yellow", "failed": "red"}


def cmd_doctor(args: argparse.Namespace) -> int:
    from engine.cache_home import gpu_caches
    from engine.doctor import OK, SKIPPED, as_json, run_checks

    # The driver reads its JIT cache's folder when CUDA starts in this process (finding the device may start
    # it): hiera's folder, not the user's ~/.nv, from the first CUDA call on (the ceilings' measure sets it
    # again, too late for the driver's).
    os.environ.update(gpu_caches(dict(os.environ)))
    device = device_or_exit(args.device)
    # Each check as it ends, on stderr (stdout keeps the table or the JSON): the full doctor builds, evaluates,
    # profiles and compiles a kernel, a minute or more on a cold GPU, and printed nothing until the end.
    print(f"hiera doctor: checking device {device}" + ("" if args.quick else
          " (it builds, evaluates, profiles and compiles one small kernel)"), file=sys.stderr, flush=True)

    def progress(c: Any) -> None:
        print(f"  {c.status:8} {c.name} ({c.seconds:.1f} s)", file=sys.stderr, flush=True)

    checks = run_checks(device, sandbox=not args.no_sandbox, quick=args.quick, progress=progress,
                        remeasure=args.measure_ceilings)
    if args.json:
        print(as_json(checks, device), flush=True)
    else:
        t = Table(title=f"hiera doctor · device {device}", title_justify="left", show_lines=False)
        for col in ("check", "status", "what was found", "seconds"):
            t.add_column(col, overflow="fold")
        for c in checks:
            found = c.detail + (f"\n[bold]what to do:[/bold] {escape(c.fix)}" if c.fix and c.status != OK else "")
            t.add_row(escape(c.name) + (" *" if c.essential else ""), f"[{_STYLE[c.status]}]{c.status}[/]",
                      found if c.fix and c.status != OK else escape(c.detail), f"{c.seconds:.1f}")
        console.print(t)
        console.print("[dim]* essential: without it no run can go on on this device[/dim]")
    ready = all(c.status in (OK, SKIPPED) for c in checks if c.essential)
    if not args.json:
        console.print("[green]ready[/green]: a run will work here" if ready else
                      "[red]not ready[/red]: fix the essential checks above")
    return EXIT_OK if ready else EXIT_INVALID


def register(sub: Any) -> None:
    p = sub.add_parser("doctor", help="check what a run uses on this machine (GPU, nvcc, sandbox, ncu, libraries, "
                                      "torch.compile) and whether it works here")
    p.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N (default: auto)")
    p.add_argument("--no-sandbox", action="store_true", help="check without the sandbox (default: with it)")
    p.add_argument("--quick", action="store_true",
                   help="only look for the pieces: no build, evaluation, profile or compile (default: off)")
    p.add_argument("--json", action="store_true", help="print the checks as one JSON object (default: off)")
    p.add_argument("--measure-ceilings", action="store_true",
                   help="measure the device's speed-of-light ceilings anew, merged with the cache: each can only "
                        "rise (default: measured once per device)")
    p.set_defaults(func=cmd_doctor)
