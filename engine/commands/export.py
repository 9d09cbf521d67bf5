"""`hiera export TASK.py KERNEL`: a checked contract candidate as a self-contained KernelBench ModelNew file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from contracts import strict_json
from contracts.device import CPU
from contracts.shapes import Coverage
from engine.commands.common import (
    EXIT_INVALID,
    EXIT_OK,
    UsageError,
    add_load_timeout,
    candidate_file_or_exit,
    check_sandbox,
    console,
    escape,
    load_task_or_exit,
    reason_text,
    seconds,
    shown_path,
    user_build_log,
    workspace_of,
)


def cmd_export(args: argparse.Namespace) -> int:
    from contracts.shapes import describe_range
    from engine.commands.checks import results_writable
    from engine.commands.export_check import check_kernel
    from engine.commands.export_cover import verified_cover
    from engine.task.export import first_import_note, modelnew_source, result_paths

    src_path = candidate_file_or_exit(args.candidate)
    if src_path.suffix not in (".cu", ".cpp", ".cc"):
        raise UsageError(f"{src_path}: export takes a .cu or .cpp contract candidate (a ModelNew .py is already "
                         "exportable as it is)")
    spec = load_task_or_exit(args.task, timeout_s=args.load_timeout)
    cuda = src_path.suffix == ".cu"
    out_dir = Path(args.out) if args.out else None
    results_writable(out_dir or spec.path.parent, beside_task=out_dir is None)
    check_sandbox(not args.no_sandbox, CPU)
    import torch

    # Checked before anything is written: a kernel that does not build, or builds without the entry point the
    # exported module calls, is refused with the compiler's words against the user's file.
    from engine.task.hidden_text import refusal

    hidden = refusal(src_path.read_text())  # the exported file is what its user reviews: nothing hidden in it
    check = None if hidden else check_kernel(spec, src_path, sandboxed=not args.no_sandbox,
                                             build_timeout_s=args.build_timeout,
                                             on_gpu_machine=torch.cuda.is_available())
    shown = shown_path(src_path)
    if check is None or not check.ok:
        reason = hidden or user_build_log(check.said, shown)  # type: ignore[union-attr]
        if args.json:
            print(strict_json.dumps({"status": "invalid", "reason": reason, "written": []}))
        console.print(f"[red]not exported:[/red] {escape(shown)}: "
                      + escape(reason_text({"status": "build_failed", "reason": reason}, shown, lines=12)))
        console.print("nothing was written")
        return EXIT_INVALID
    source = src_path.read_text()
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    py, kernel = result_paths(spec, src_path.suffix, out_dir)
    # Beyond get_inputs()'s shapes only what a run of this task verified this very kernel on, at sizes drawn for
    # it (export_cover.py): this command builds the kernel, it does not verify it.
    found = verified_cover(workspace_of(args), spec, source, "cuda" if cuda else "cpp")
    cover = found.cover if found else None
    serves = describe_range(cover or Coverage(), spec.batch.size if spec.batch else None)
    if found is not None:
        serves += f", as run {found.run_id} verified it ({found.candidate_id}: {found.report.summary()})"
    elif spec.batch is not None:
        serves += ": no run in this workspace verified this kernel at batch sizes drawn for it"
    speeds = found.report.speeds_text() if found is not None else ""
    py.write_text(modelnew_source(spec, source, cuda=cuda, note=f"Kernel: {kernel.name}. {speeds}".strip(), cover=cover,
                                  library=check.library))  # type: ignore[union-attr]
    kernel.write_text(source)
    note = first_import_note(cuda)
    if args.json:
        print(strict_json.dumps({"py": str(py), "kernel": str(kernel), "first_import": note, "checked": check.checked,
                                 "check": check.said, "serves": serves,
                                 "batch_range": list(cover.batch_range) if cover and cover.batch_range else None}))
    else:
        console.print(f"{'checked' if check.checked else '[yellow]not checked[/yellow]'}: {escape(check.said)}")
        console.print(f"its kernel serves {escape(serves)}; any other call runs the reference's own forward")
        console.print(f"wrote {escape(str(py))} and {escape(str(kernel))}")
        console.print(f"[dim]{escape(py.name)}: {escape(note)}[/dim]")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("export", help="write a contract candidate as a self-contained KernelBench ModelNew")
    p.add_argument("task", help="KernelBench-format task .py (required)")
    p.add_argument("candidate", help="the .cu or .cpp contract candidate to export (required)")
    p.add_argument("-o", "--out", default=None, help="folder for the files (default: beside the task)")
    p.add_argument("--build-timeout", type=seconds, default=120.0, metavar="SECONDS",
                   help="limit on compiling the kernel to check it before it is written (default: 120)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="compile the kernel for its check without the sandbox (default: sandboxed)")
    p.add_argument("--json", action="store_true", help="print the files written as one JSON object (default: off)")
    p.add_argument("--workspace", default=None,
                   help="where .hiera/ lives, whose runs say which batch sizes the kernel was verified on (default: "
                        "$HIERA_WORKSPACE, else the current directory)")
    add_load_timeout(p)
    p.set_defaults(func=cmd_export)
