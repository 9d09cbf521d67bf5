"""`hiera contract TASK.py -o DIR`: write a task's frozen contract files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from contracts import strict_json
from engine.commands.common import EXIT_OK, add_load_timeout, console, escape, load_task_or_exit


def cmd_contract(args: argparse.Namespace) -> int:
    from engine.commands.checks import output_writable
    from engine.task.contract import write_contract

    spec = load_task_or_exit(args.task, timeout_s=args.load_timeout)
    output_writable(Path(args.out), "-o")
    paths = write_contract(spec, Path(args.out))
    if args.json:
        print(strict_json.dumps({k: str(v) for k, v in paths.items()}))
    else:
        for role, p in paths.items():
            console.print(f"{role:<11} {escape(str(p))}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("contract", help="write a task's frozen contract files")
    p.add_argument("task", help="KernelBench-format task .py (required)")
    p.add_argument("-o", "--out", required=True, help="output folder (required)")
    p.add_argument("--json", action="store_true", help="print the files written as one JSON object (default: off)")
    add_load_timeout(p)
    p.set_defaults(func=cmd_contract)
