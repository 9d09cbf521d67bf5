"""`hiera profile TASK.py [CANDIDATE]`: Nsight Compute on one candidate (or the reference), read as C/P/M/R/T.

Builds a .cu candidate the way `hiera eval` does (the task's frozen contract, the content-addressed build
cache), profiles it with ncu and prints per kernel the metrics, then the direction scores with their
evidence, then the hot source lines. `--json` prints the Profile as one JSON object on stdout.
Exit 0 with a profile, 2 when profiling is unavailable here (the message says why and what to do).
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table

from contracts import strict_json
from engine.commands.common import (
    EXIT_OK,
    EXIT_STOPPED,
    EXIT_USAGE,
    UsageError,
    add_load_timeout,
    console,
    device_or_exit,
    load_task_or_exit,
    seconds,
    task_workdir,
    workspace_of,
)
from engine.untrusted import escape

if TYPE_CHECKING:
    from contracts.device import Device


def _cuda_arch(device: Device) -> str | None:
    """The device's compute capability ("90") from nvidia-smi: this process never opens a CUDA context."""
    index = str(device.index)
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader", "-i", index],
                             capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.replace(".", "") if out and out.replace(".", "").isdigit() else None


def _fmt(v: Any, unit: str = "", nd: int = 1) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{nd}f}{unit}"
    return f"{v}{unit}"


def render(profile: Any) -> None:
    """The human report on stderr: kernels, directions with evidence, hot lines with their source."""
    from contracts.hotlines import SHOW_SHARE, hot_lines
    from contracts.vocabulary import DIRECTION_LETTERS

    for k in profile.kernels:
        t = Table(title=f"kernel {escape(k.name)}", show_header=False, title_justify="left")
        t.add_row("duration", _fmt(k.duration_us, " us", 2))
        t.add_row("throughput", f"SM {_fmt(k.sm_throughput_pct, '%')}, memory {_fmt(k.memory_throughput_pct, '%')}, "
                                f"DRAM {_fmt(k.dram_throughput_pct, '%')} of peak")
        t.add_row("cache hit rate", f"L1 {_fmt(k.l1_hit_rate, '%')}, L2 {_fmt(k.l2_hit_rate, '%')}")
        t.add_row("occupancy", f"{_fmt(k.achieved_occupancy_pct, '%')} achieved of "
                               f"{_fmt(k.theoretical_occupancy_pct, '%')} theoretical "
                               f"(limiter: {k.occupancy_limiter or '-'})")
        t.add_row("launch", f"grid {_fmt(k.grid_size)} x block {_fmt(k.block_size)}, {_fmt(k.registers_per_thread)} "
                            f"registers/thread, {_fmt(k.shared_mem_per_block)} B shared/block, "
                            f"{_fmt(k.waves_per_sm, '', 2)} waves/SM")
        t.add_row("global access", f"{_fmt(k.sectors_per_request_ld, '', 1)} sectors/request (ld), "
                                   f"{_fmt(k.sectors_per_request_st, '', 1)} (st)"
                  + (f", {k.excessive_sector_fraction:.0%} excess sectors" if k.excessive_sector_fraction is not None
                     else ""))
        if k.bank_conflict_fraction is not None:
            t.add_row("shared memory", f"{_fmt(k.shared_bank_conflicts_ld)} / {_fmt(k.shared_bank_conflicts_st)} bank "
                                       f"conflicts (ld/st), {k.bank_conflict_fraction:.0%} of wavefronts")
        t.add_row("control flow", f"branch efficiency {_fmt(k.branch_efficiency_pct, '%')}, "
                                  f"{_fmt(k.active_threads_per_warp, '', 1)} active threads/warp")
        t.add_row("pipes", f"issue slots {_fmt(k.issue_slots_busy_pct, '%')}, FMA {_fmt(k.fma_pipe_pct, '%')}, "
                           f"tensor {_fmt(k.tensor_pipe_pct, '%')}")
        if k.warp_stalls:
            top = sorted(k.warp_stalls.items(), key=lambda kv: -kv[1])[:4]
            t.add_row("top stalls", ", ".join(f"{r} {v:.1f}" for r, v in top) + " (cycles per instruction)")
        advice = sorted((r for r in k.rules if r.type == "OPT"), key=lambda r: -(r.estimated_speedup_pct or 0))
        for r in advice[:4]:
            sp = f" (est. {r.estimated_speedup_pct:.0f}%)" if r.estimated_speedup_pct is not None else ""
            t.add_row(f"ncu {r.name}", escape(f"{r.message[:200]}{sp}"))
        console.print(t)

    d = Table(title="directions", title_justify="left")
    d.add_column("dir")
    d.add_column("score", justify="right")
    d.add_column("evidence")
    for letter in sorted(DIRECTION_LETTERS, key=lambda x: -profile.scores.get(x, 0.0)):
        ev = profile.evidence.get(letter, [])
        d.add_row(letter, f"{profile.scores.get(letter, 0.0):.2f}", escape("\n".join(ev[:3])) or "-")
    console.print(d)
    if profile.bottleneck is not None:
        b = profile.bottleneck
        console.print(f"ncu's top advice: [bold]{b.rule}[/bold] -> {b.direction or '?'}"
                      + (f" (est. {b.estimated_speedup_pct:.0f}% speedup)" if b.estimated_speedup_pct else ""))
    hot = hot_lines(profile)  # the same lines, and the same words, as the editor's diagnostics
    if hot:
        many = len({x.finding.kernel for x in hot}) > 1
        h = Table(title="hot lines", title_justify="left")
        h.add_column("line", no_wrap=True)
        h.add_column("what ncu found, and the source line")
        for x in hot:
            where = f"{Path(x.finding.file).name}:{x.finding.line}"
            source = f"\n[dim]{escape(x.finding.text[:100])}[/dim]" if x.finding.text else ""
            h.add_row(("[bold yellow]![/bold yellow] " if x.warning else "  ") + escape(where),
                      escape(x.message(with_kernel=many)) + source)
        console.print(h)
    elif profile.lines:
        console.print(f"[dim]hot lines: none of the {len(profile.lines)} sampled lines holds "
                      f"{SHOW_SHARE:.0%} of its kernel's stall samples or a counted inefficiency[/dim]")
    for n in profile.notices:
        console.print(f"[yellow]note:[/yellow] {escape(n)}")
    if profile.seconds is not None:
        console.print(f"[dim]profiled in {profile.seconds:.1f} s[/dim]")


def cmd_profile(args: argparse.Namespace) -> int:
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.outcome import CandidateKind
    from engine.evaluate.pipeline import candidate_from_file
    from engine.profile import ProfilerUnavailable, find_ncu, profile_candidate, profile_reference
    from engine.store import RunStore
    from engine.task.contract import contract_layout, write_contract

    device = device_or_exit(args.device)
    try:
        # Before any build: no GPU, or no ncu, means nothing to do. The device first: on a CPU machine the
        # missing ncu is not what to fix.
        if not device.is_cuda:
            where = "this machine has no CUDA device" if args.device == "auto" else f"--device {args.device}"
            raise ProfilerUnavailable(f"hiera profile needs an NVIDIA GPU: Nsight Compute profiles CUDA kernels, and "
                                      f"the device here is {device} ({where}). Run it on a machine with an NVIDIA "
                                      "GPU (--device cuda); on the CPU, `hiera eval TASK.py KERNEL` times a "
                                      "kernel and `hiera report` shows a run's timings")
        ncu = find_ncu(args.ncu)
    except ProfilerUnavailable as e:
        return _unavailable(args, e)
    spec = load_task_or_exit(args.task, timeout_s=args.load_timeout)
    workspace = workspace_of(args)
    workdir = task_workdir(workspace, spec)
    store = RunStore.for_workspace(workspace)
    cand_label = "reference"
    run_id = store.start_run("profile", spec.path, spec.name, spec.source_hash,
                             {"device": str(device), "candidate": args.candidate, "ncu": ncu}, device=str(device))
    try:
        if args.candidate is None:
            console.print(f"[dim]hiera profile: the reference of {spec.name} on {device}[/dim]")
            profile = profile_reference(spec.path, device, ncu_path=ncu, timeout_s=args.timeout,
                                        work_dir=store.run_dir(run_id) / "profile", kernel_regex=args.kernel)
        else:
            cand_path = Path(args.candidate)
            if not cand_path.is_file():
                raise UsageError(f"{cand_path}: no such candidate file")
            try:
                cand = candidate_from_file(cand_path, device)
            except ValueError as e:
                raise UsageError(str(e)) from e
            cand_label = cand.id
            contract_dir = workdir / "contract"
            write_contract(spec, contract_dir)
            if cand.kind is CandidateKind.CUDA:
                console.print(f"[dim]hiera profile: building {cand_path.name}[/dim]")
                cfg = BuildConfig(contract_dir, workspace / ".hiera" / "cache" / "build", cuda_arch=_cuda_arch(device))
                built = build_one(cand, cfg)
                if not built.ok or built.artifact is None:
                    raise UsageError(f"{cand_path.name} does not build:\n{built.log[:3000]}")
                artifact = built.artifact
            elif cand.kind is CandidateKind.MODELNEW:
                artifact = str(cand_path.resolve())
            else:
                raise UsageError(f"{cand_path.name} is a CPU (C++) candidate; Nsight Compute profiles CUDA code")
            console.print(f"[dim]hiera profile: {cand_path.name} against {spec.name} on {device}[/dim]")
            profile = profile_candidate(spec.path, contract_dir, artifact, cand.kind.value, device, ncu_path=ncu,
                                        timeout_s=args.timeout, work_dir=store.run_dir(run_id) / "profile",
                                        layout=contract_layout(spec), source_path=cand_path,
                                        kernel_regex=args.kernel)
    except ProfilerUnavailable as e:
        store.record_notice(run_id, str(e))
        store.finish_run(run_id, "failed", {"reason": str(e)})
        return _unavailable(args, e)
    except KeyboardInterrupt:
        store.finish_run(run_id, "stopped")
        console.print(f"[yellow]stopped[/yellow]: the profile of {escape(cand_label)} did not finish (run {run_id})")
        return EXIT_STOPPED
    except BaseException:
        store.finish_run(run_id, "failed")
        raise
    store.record_profile(run_id, cand_label, profile.to_json())
    store.finish_run(run_id, "finished", {"scores": profile.scores, "best": profile.best_direction(),
                                          "bottleneck": profile.bottleneck.rule if profile.bottleneck else None})
    if args.json:
        print(strict_json.dumps({**profile.to_json(), "run_id": run_id}))
    else:
        render(profile)
    return EXIT_OK


def _unavailable(args: argparse.Namespace, e: Exception) -> int:
    if args.json:
        print(strict_json.dumps({"status": "unavailable", "reason": str(e)}))
    console.print(f"[red]{escape(str(e))}[/red]")
    return EXIT_USAGE


def register(sub: Any) -> None:
    p = sub.add_parser("profile", help="profile a candidate (or the reference) with Nsight Compute")
    p.add_argument("task", help="KernelBench-format task .py (required)")
    p.add_argument("candidate", nargs="?", default=None,
                   help="a .cu contract candidate or a ModelNew .py (default: profile the reference)")
    p.add_argument("--device", default="auto", help="cuda or cuda:N (default: auto)")
    p.add_argument("--ncu", default=None, help="the ncu binary (default: $HIERA_NCU, PATH, /opt/nvidia/nsight-compute)")
    p.add_argument("--kernel", default=None, help="profile only kernels whose name matches this regex (default: all)")
    p.add_argument("--timeout", type=seconds, default=120.0, metavar="SECONDS",
                   help="seconds allowed for the whole ncu run (default: 120)")
    p.add_argument("--workspace", default=None, help="where .hiera/ lives (default: current directory)")
    p.add_argument("--json", action="store_true", help="print the Profile as one JSON object on stdout (default: off)")
    add_load_timeout(p)
    p.set_defaults(func=cmd_profile)
