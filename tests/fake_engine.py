"""A scripted stand-in for `python -m engine.cli` that the language-server tests run instead of the engine.

It speaks the same interface (docs/protocol.md §1-2): `optimize TASK --events jsonl ...` prints the event
stream and the result, `profile TASK [CANDIDATE] --json ...` prints one JSON object. Every event and the result
are the engine's own types (contracts/runrecord.py: RunStarted ... Result, Figure, RunBest, RunResult) written by
their one JSON form (`event_json`), so the server is tested against what the engine writes, not against a
hand-made copy of it; figures and verdicts come from the same rule (Figure.of_pair, contracts/verdict.py). It
writes the same store rows through the real engine.store.RunStore (so the server's reader is tested against the
real writer), candidate sources under `.hiera/runs/<id>/candidates/`, and the result files into `--results-dir`.
It builds and times nothing, so a test job takes a fraction of a second.

Like the engine (engine/loop.py), it times the best once more before it reports it: a re-timing row
`<id>-retimed` (round of the best, index 0) with its own pair, 0.95x the eager and 1.02x the candidate
time of the first, and the reported best is that pair's; a best whose verdict is not `faster` goes to the run's
`not-delivered/` folder (with its REASON.txt), not to --results-dir; a speedup over 10x is flagged
`excessive_speedup`, as the checker flags it.

Behaviour knobs, from `<workspace>/fake_engine.json` ({"delay": .., "mode": .., "notice": ..}; a test writes
it, since one server serves the whole test) or the environment:
  HIERA_FAKE_DELAY   seconds per candidate (default 0.02): long enough to cancel a job or time the server
  HIERA_FAKE_MODE    ok | slower | much_slower | level | level_slower | big | no_valid | crash | fail_build
                     (default ok); slower: valid but 0.8x eager; much_slower: 88x slower; level: 1.002x, its
                     95% interval straddling 1 (level_slower: 0.998x); big: 20x and more (flagged)
  HIERA_FAKE_NOTICE  when set, one `notice` event with this text
  "spread"           each timing's spread (interquartile range over median, default 0.02)
  "flags"            flags the checker set on every valid outcome (an unstable_timing one: no verdict)
  "device"           the device the run reports (default "cpu")
  "kernel"           the kernel's suffix: ".cu" (default) or ".cpp" (C++ candidates, as the engine writes on the CPU)
  "profile"          whether the best's run has a profile (default true; a CPU run has none)
  "retime"           whether the best is timed again (default true; the engine does not, under a deadline, for a
                     best far slower than eager: engine/retiming.py worth_retiming)
Every invocation's argv is appended to `<workspace>/fake_engine_argv.jsonl`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import sys
import time
from pathlib import Path


def _import_store_without_torch() -> None:
    """engine/evaluate/__init__.py imports the evaluation pipeline and so torch (seconds per fake job on a
    2-core machine); the store needs only outcome.py. Register the package without running its __init__."""
    import importlib.util
    import types

    spec = importlib.util.find_spec("engine")
    assert spec is not None and spec.submodule_search_locations
    pkg = types.ModuleType("engine.evaluate")
    pkg.__path__ = [str(Path(next(iter(spec.submodule_search_locations))) / "evaluate")]
    sys.modules.setdefault("engine.evaluate", pkg)


_import_store_without_torch()

from contracts import runrecord as rr  # noqa: E402
from contracts import verdict as rule  # noqa: E402
from contracts.precision import tolerance_json  # noqa: E402
from contracts.shapes import ShapeReport  # noqa: E402
from contracts.speed_of_light import SpeedOfLight  # noqa: E402
from contracts.verdict import EXCESSIVE_SPEEDUP, Verdict  # noqa: E402
from contracts.wording import space_title  # noqa: E402
from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status, Timing  # noqa: E402
from engine.phases import ORDER as PHASE_ORDER  # noqa: E402
from engine.store import RunStore  # noqa: E402
from engine.task.export import first_import_note, free_pair  # noqa: E402

CU_SOURCE = """#include "hiera_contract.h"

// relu(x * scale + bias), one thread per element
__global__ void scale_bias_relu_kernel(const float* __restrict__ x, const float* __restrict__ bias,
                                       float* __restrict__ out, float scale, int rows, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i] * scale + bias[i % cols];
    out[i] = v > 0.f ? v : 0.f;
}

extern "C" int hiera_forward(const HieraArgs* a) {
    int n = a->rows * a->cols;
    scale_bias_relu_kernel<<<(n + 255) / 256, 256>>>(a->x, a->bias, a->out, a->scale, a->rows, a->cols);
    return 0;
}
"""

# Profile.to_json() (contracts/profile.py) as the profiler would write it for CU_SOURCE: line 7 wastes a
# large share of the kernel's global sectors (a Warning); lines 8 and 6 hold 15% and 6% of the kernel's 200
# stall samples (Information); line 9 holds 1% (not shown); the rest of the 200 fell on lines the profiler
# did not keep.
KERNEL = "scale_bias_relu_kernel(const float *, const float *, float *, float, int, int)"
PROFILE = {
    "kernels": [{
        "name": KERNEL, "duration_us": 12.5, "sm_throughput_pct": 23.4, "memory_throughput_pct": 81.2,
        "dram_throughput_pct": 75.0, "achieved_occupancy_pct": 92.0, "theoretical_occupancy_pct": 100.0,
        "occupancy_limiter": None, "registers_per_thread": 16, "block_size": 256, "grid_size": 512,
        "sectors_per_request_ld": 8.0, "sectors_per_request_st": 4.0, "global_sectors": 40960,
        "global_sectors_ideal": 20480, "warp_stalls": {"long_scoreboard": 12.1, "lg_throttle": 3.2},
        "line_stall_samples": 200,
        "rules": [{"name": "UncoalescedGlobalAccess", "type": "OPT", "estimated_speedup_pct": 38.0,
                   "message": "This kernel has uncoalesced global accesses resulting in 2.0x the ideal sectors."}],
    }],
    "lines": [
        {"file": "cuda_source.cu", "line": 7, "kernel": KERNEL, "stall_samples": {"long_scoreboard": 120},
         "excessive_global_sectors": 20480, "text": "    float v = x[i] * scale + bias[i % cols];"},
        {"file": "cuda_source.cu", "line": 8, "kernel": KERNEL, "stall_samples": {"lg_throttle": 30},
         "text": "    out[i] = v > 0.f ? v : 0.f;"},
        {"file": "cuda_source.cu", "line": 6, "kernel": KERNEL, "stall_samples": {"short_scoreboard": 12},
         "text": "    int i = blockIdx.x * blockDim.x + threadIdx.x;"},
        {"file": "cuda_source.cu", "line": 9, "kernel": KERNEL, "stall_samples": {"drain": 2}, "text": "}"},
        {"file": "hiera_contract.h", "line": 3, "kernel": KERNEL, "excessive_global_sectors": 9999, "text": "..."},
    ],
    "scores": {"C": 0.05, "P": 0.2, "M": 0.81, "R": 0.3, "T": 0.0},
    "evidence": {"M": ["2.0x the ideal global sectors"]},
    "bottleneck": {"rule": "UncoalescedGlobalAccess", "direction": "M", "estimated_speedup_pct": 38.0,
                   "message": "uncoalesced global accesses", "kernel": KERNEL},
    "roofline": {}, "notices": [], "target": "cuda_source.cu", "seconds": 3.2,
}

SPACES = ("pure_cuda", "cuda_libraries", "libraries_pytorch")


GPU_TITLES = {"pure_cuda": "pure CUDA", "cuda_libraries": "CUDA libraries", "libraries_pytorch": "libraries + PyTorch"}


def rationale_of(space: str, device: str) -> str:
    """A rationale worded as the expert backend words it (engine/agents/expert/space_direction.py), GPU titles and the
    analysis's roofline included, whatever the device: the editor has to make it read right on the CPU."""
    ceilings = "default (CPU)" if device.startswith("cpu") else "measured"
    return (f"Workload: pointwise (memory_bound_fusable): 2 pointwise; 16.78 MB minimum; memory-bound, roofline "
            f"8.594e+04 us on {ceilings} ceilings. {GPU_TITLES[space]}: 1 generated C++ loop nest(s) with OpenMP and "
            f"SIMD cover the whole graph. | pointwise chain of 2 op(s): memory-bound -> {space}, M 0.80")


WORK = {"done": 0, "extra": 0, "total": 0}  # the run's count of its steps (progress events)


def emit(ev: rr.Event) -> None:
    sys.stdout.write(json.dumps(rr.event_json(ev)) + "\n")
    sys.stdout.flush()


def timing(ms: float, spread: float = 0.02) -> Timing:
    """A timing of 100 calls spaced evenly from ms x (1 - spread) to ms x (1 + spread): median `ms`, interquartile
    range `spread` of it, and the samples the interval of a figure is read from (contracts/verdict.py)."""
    return Timing.from_samples([ms * (1 + spread * (2 * i / 99 - 1)) for i in range(100)], "perf_counter")


def modelnew(task: Path, cid: str) -> str:
    return (f'"""ModelNew for task {task.stem!r}, exported by the fake engine (candidate {cid})."""\n'
            "import torch\nfrom torch import nn\n\n\nclass ModelNew(nn.Module):\n"
            "    def forward(self, x):\n        return torch.relu(x)\n")


def knobs(workspace: str) -> dict:
    k = {"delay": float(os.environ.get("HIERA_FAKE_DELAY", "0.02")), "mode": os.environ.get("HIERA_FAKE_MODE", "ok"),
         "notice": os.environ.get("HIERA_FAKE_NOTICE", ""), "device": "cpu", "spread": 0.02, "kernel": ".cu",
         "profile": True}
    f = Path(workspace) / "fake_engine.json"
    if f.exists():
        k.update(json.loads(f.read_text()))
    return k


REF_MS = 0.5


def candidate_ms(mode: str, r: int, i: int) -> float:
    return {"slower": REF_MS * 1.25, "much_slower": REF_MS * 88, "level": REF_MS / 1.002,
            "level_slower": REF_MS * 1.002,
            "big": REF_MS / (19.0 + r + i)}.get(mode, REF_MS / (1.0 + 0.2 * r + 0.05 * i))


# The stand-in task's bound, as the real engine computes one for scale_bias_relu on the CPU: memory-bound.
BOUND_MS = 0.05


def figure_of(o: Outcome, retimed: bool) -> rr.Figure:
    assert o.candidate is not None and o.reference is not None
    ms = o.candidate.median_ms
    sol = SpeedOfLight("memory", 1_050_624, 262_144, "memory 40 GB/s", BOUND_MS / ms, BOUND_MS, ms)
    return rr.Figure.of_pair(ms, o.reference.median_ms, retimed, o.candidate.spread,
                             o.reference.spread, unstable=rule.flagged_unstable(list(o.flags)), speed_of_light=sol,
                             interval=rule.timings_interval(o.candidate, o.reference))


def flagged(o: Outcome, extra: list[str] | None = None) -> Outcome:
    """The checker's flag on an implausible speedup (engine/evaluate/checker.py), and the knob `flags`: what the
    checker flagged on a real run the fake is set to copy (unstable_timing on a busy machine, say)."""
    from dataclasses import replace

    flags = list(o.flags) + (list(extra or []) if o.status is Status.VALID else [])
    if o.speedup and o.speedup > EXCESSIVE_SPEEDUP:
        flags.append(f"excessive_speedup: {o.speedup:.1f}x (every timed call ran on new inputs and a sample of "
                     "them was checked)")
    return replace(o, flags=tuple(flags)) if flags != list(o.flags) else o


class Best:
    """A valid candidate's latest figure, as engine/loop.py keeps it."""

    def __init__(self, cid: str, outcome: Outcome, r: int, space: str, retimed: bool = False):
        self.cid, self.outcome, self.round, self.space, self.retimed = cid, outcome, r, space, retimed

    @property
    def speedup(self) -> float:
        return self.outcome.speedup or 0.0

    def figure(self) -> rr.BestFigure:
        return rr.BestFigure.of(self.cid, figure_of(self.outcome, self.retimed))


def optimize(a: argparse.Namespace) -> int:
    k = knobs(a.workspace)
    delay, mode, spread = float(k["delay"]), k["mode"], float(k["spread"])
    kind = CandidateKind.CPP if k["kernel"] == ".cpp" else CandidateKind.CUDA
    # what the checker found at other batch sizes (contracts/shapes.py), carried by every valid candidate
    shapes = ShapeReport.from_json(k["shapes"]) if isinstance(k.get("shapes"), dict) else None
    if a.backend == "llm" and not a.llm_model:
        # as the engine does today: a usage error goes to stderr only, with no error event
        sys.stderr.write("error: no LLM model configured for https://api.openai.com/v1: set --llm-model, "
                         "HIERA_LLM_MODEL, `model = \"...\"` under [llm] in hiera.toml, or hiera.llm.model in "
                         "the editor\n")
        return 2
    task = Path(a.task).resolve()
    if not task.is_file():
        emit(rr.Failed(f"{task}: no such task file", None))
        return 2
    ws = Path(a.workspace).resolve()
    store = RunStore.for_workspace(ws)
    h = hashlib.sha256(task.read_bytes()).hexdigest()[:16]
    # "cuda:0 (NVIDIA H200)": the device and its name, two fields on the wire as the engine writes them
    device, _, named = k["device"].partition(" (")
    device_name = named.rstrip(")") or None
    # --budget N: rounds of K, the last one taking what is left (engine/loop_state.py round_sizes)
    full, rest = divmod(a.budget, a.candidates) if a.budget else (a.rounds, 0)
    sizes = [a.candidates] * full + ([rest] if rest else [])
    shape = {"rounds": len(sizes), "candidates": a.candidates, **({"budget": a.budget} if a.budget else {})}
    run_id = store.start_run("optimize", task, task.stem, h, shape,
                             backend=a.backend, device=device)
    run_dir = store.run_dir(run_id)
    emit(rr.RunStarted(run_id, str(task), device, len(sizes), a.candidates, sum(sizes), a.backend,
                       str(store.db_path), str(run_dir), device_name=device_name))
    if k["notice"]:
        store.record_notice(run_id, k["notice"])
        emit(rr.Notice(k["notice"]))
    rounds: list[rr.RoundSummary] = []
    best: Best | None = None
    status, retimed = "finished", 0
    WORK["total"] = sum(sizes)
    pool: dict[str, Best] = {}
    try:
        if mode == "crash":
            sys.stderr.write("fake engine: simulated crash\n")
            os._exit(3)
        for r, size in enumerate(sizes, 1):
            space = a.space if a.space != "auto" else SPACES[(r - 1) % 3]
            scores = {"C": 0.1, "P": 0.3, "M": 0.8, "R": 0.4, "T": 0.05}
            strategy = f"fuse the pointwise chain, vectorized loads (round {r})"
            rationale = rationale_of(space, device)
            store.record_decision(run_id, r, space, scores, {"M": ["pointwise chain: memory-bound"]}, "M",
                                  strategy, rationale)
            emit(rr.RoundStarted(r, space, scores, "M", strategy, rationale, size))
            rows = []
            for i in range(1, size + 1):
                emit(rr.CandidateStarted(r, i, size))
                time.sleep(delay)
                cid = f"r{r}c{i}"
                valid = mode in ("ok", "slower", "much_slower", "level", "level_slower", "big") and i % 3 != 0
                ms = candidate_ms(mode, r, i) if valid else None
                st = Status.VALID if valid else (Status.BUILD_FAILED if mode == "fail_build" else Status.INCORRECT)
                reason = "ok" if valid else "out[0, 3]: expected 0.5, got 0.25"
                outcome = flagged(Outcome(cid, st, reason, candidate=timing(ms, spread) if ms else None,
                                          reference=timing(REF_MS, spread), device=device,
                                          device_name=device_name or "", build_s=0.01,
                                          verify_s=0.01, time_s=0.01, shapes=shapes if valid else None),
                                  k.get("flags"))
                store.record_candidate(run_id, Candidate(cid, kind, CU_SOURCE, origin="expert:fake", note=strategy),
                                       outcome, r, i)
                if r == i == 1:  # the first pair's eager time, as the engine says it (engine/loop.py _round)
                    emit(rr.ReferenceTimed(REF_MS))
                    store.set_reference(run_id, REF_MS, device, device_name)
                if outcome.speedup:
                    pool[cid] = Best(cid, outcome, r, space)
                    if best is None or rr.figure_key(figure_of(outcome, False)) > rr.figure_key(best.figure()):
                        best = pool[cid]
                rows.append(rr.CandidateRow(cid, i, st.value, reason, outcome.speedup, ms, shapes=outcome.shapes))
                source = str(run_dir / "candidates" / f"{cid}{kind.suffix}")
                WORK["done"] += 1  # the engine's count of its work (engine/progress.py), said before the event
                emit(rr.Progress(WORK["done"], sum(sizes) + WORK["extra"], f"round {r} candidate {i}/{size}: "
                                                                           f"{st.value}"))
                emit(rr.CandidateFinished(r, i, size, cid, source, st.value, reason, outcome.speedup, ms,
                                          best.speedup if best else None, best.figure() if best else None,
                                          figure_of(outcome, False) if outcome.speedup else None))
            rounds.append(rr.RoundSummary(r, space, scores, "M", strategy, rationale, rows,
                                          space_title=space_title(space, device)))
            emit(rr.RoundFinished(r, best.speedup if best else None, best.figure() if best else None))
        if best is not None and k.get("retime", True):
            best, retimed = retime(store, run_id, pool, mode, device, spread, kind, k.get("flags"))
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM from the language server (as the engine does)
        status = "stopped"
    run_best = None
    if best is not None:
        if k["profile"]:
            store.record_profile(run_id, best.cid, PROFILE)
        f = best.figure()
        folder = Path(a.results_dir) if a.results_dir else task.parent
        if f.verdict != Verdict.FASTER.value:  # not faster than eager: kept in the run's folder, as the engine does
            folder = run_dir / rr.NOT_DELIVERED_DIR
            folder.mkdir(parents=True, exist_ok=True)
            (folder / rr.NOT_DELIVERED_REASON).write_text(rr.not_delivered_reason(f, best.outcome.flags) + "\n")
        folder.mkdir(parents=True, exist_ok=True)
        py, cu = free_pair(folder, f"{task.stem}_hiera", kind.suffix)
        py.write_text(modelnew(task, best.cid))
        cu.write_text(CU_SOURCE)
        run_best = rr.RunBest(f.candidate_id, f.speedup, f.candidate_ms, f.reference_ms, f.retimed, f.spread,
                              f.verdict, best.round, best.space, "M", list(best.outcome.flags),
                              rr.ResultPaths(str(py), str(cu)), first_import_note(kind is CandidateKind.CUDA),
                              f.candidate_spread, f.reference_spread, best.outcome.shapes, f.speed_of_light, f.low,
                              f.high, f.confidence,
                              rr.not_delivered_reason(f, best.outcome.flags) if f.verdict != Verdict.FASTER.value
                              else None, space_title(best.space, device))
    for rs in rounds:  # each round's best by the run's rule
        top = rr.pick_best([b for b in pool.values() if b.round == rs.round], lambda b: rr.figure_key(b.figure()),
                           lambda b: b.retimed)
        rs.best = top.figure() if top else None
    result = rr.RunResult(run_id, status, str(task), device, a.backend, REF_MS, run_best, sum(sizes),
                          sum(len(r.outcomes) for r in rounds), retimed, rounds, rr.Tokens(0, 0),
                          {"build": 0.0, "verify": 0.0, "time": 0.0, "profile": 0.0, "model": 0.0, "total": 0.1},
                          None, store.notices(run_id),
                          # As the engine accounts them (engine/phases.py, loop_profiling.py), in fake seconds.
                          phases={p: 0.01 for p in PHASE_ORDER},
                          profiling=rr.Profiling(asked=bool(k.get("profile")), reference=False, rounds=len(rounds),
                                                 rounds_profiled=0, skipped={}, failed=0,
                                                 off=None if device.startswith("cuda") else
                                                 "profiling off: Nsight Compute profiles CUDA devices and this run "
                                                 "is on the CPU"),
                          precision=a.precision if a.precision != "auto" else "fp32",
                          tolerance=tolerance_json(a.precision if a.precision != "auto" else "fp32"),
                          device_name=device_name)
    store.finish_run(run_id, status, result.to_json())
    emit(rr.Result(result))
    return 0 if best else 1


def retime(store: RunStore, run_id: str, pool: dict[str, Best], mode: str, device: str, spread: float,
           kind: CandidateKind, flags: list[str] | None = None) -> tuple[Best, int]:
    """Time the best once more and report that pair, as engine/loop.py _confirm_best does: a best that falls
    behind another valid candidate gives way to it, which is timed again the same way (at most 3 times)."""
    tried: set[str] = set()
    best = max(pool.values(), key=lambda b: rr.figure_key(b.figure()))
    while best.cid not in tried and len(tried) < 3:
        tried.add(best.cid)
        emit(rr.RetimeStarted(best.cid, best.figure()))
        assert best.outcome.candidate is not None
        first_ms = best.outcome.candidate.median_ms
        level = mode in ("level", "level_slower")
        cand_ms, ref_ms = (first_ms, REF_MS) if level else (first_ms * 1.02, REF_MS * 0.95)
        cid = best.cid + rr.RETIMED
        outcome = flagged(Outcome(cid, Status.VALID, "ok (re-timed)", candidate=timing(cand_ms, spread),
                                  reference=timing(ref_ms, spread), device=device, build_s=0.0, verify_s=0.01,
                                  time_s=0.01, shapes=best.outcome.shapes), flags)
        store.record_candidate(run_id, Candidate(cid, kind, CU_SOURCE, origin="expert:fake", note="re-timed"),
                               outcome, best.round, 0)
        pool[best.cid] = Best(best.cid, outcome, best.round, best.space, retimed=True)
        done = best.cid
        best = max(pool.values(), key=lambda b: rr.figure_key(b.figure()))
        top = rr.pick_best(pool.values(), lambda b: rr.figure_key(b.figure()), lambda b: b.retimed)
        WORK["done"] += 1
        WORK["extra"] += 1
        emit(rr.Progress(WORK["done"], WORK["total"] + WORK["extra"], f"re-timed {done}: valid"))
        emit(rr.RetimeFinished(done, Status.VALID.value, figure_of(outcome, True), top.figure() if top else None))
    top = rr.pick_best(pool.values(), lambda b: rr.figure_key(b.figure()), lambda b: b.retimed)
    assert top is not None
    return top, len(tried)


def profile(a: argparse.Namespace) -> int:
    task = Path(a.task).resolve()
    store = RunStore.for_workspace(Path(a.workspace).resolve())
    h = hashlib.sha256(task.read_bytes()).hexdigest()[:16]
    run_id = store.start_run("profile", task, task.stem, h, {}, device="cpu")
    cand = Path(a.candidate).stem if a.candidate else "reference"
    data = json.loads(json.dumps(PROFILE))
    if a.candidate:
        for line in data["lines"]:
            if line["file"] == "cuda_source.cu":
                line["file"] = str(Path(a.candidate).resolve())
    time.sleep(float(knobs(a.workspace)["delay"]))
    store.record_profile(run_id, cand, data)
    store.finish_run(run_id, "finished", {"candidate_id": cand})
    print(json.dumps({**data, "run_id": run_id}))  # as engine/commands/profile.py prints it
    return 0


def _sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    signal.signal(signal.SIGTERM, _sigterm)
    p = argparse.ArgumentParser(prog="fake-hiera")
    sub = p.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("optimize")
    o.add_argument("task")
    o.add_argument("--events", default=None)
    o.add_argument("--json", action="store_true")
    o.add_argument("--workspace", required=True)
    o.add_argument("--backend", default="expert")
    o.add_argument("--rounds", type=int, default=3)
    o.add_argument("--candidates", type=int, default=6)
    o.add_argument("--budget", type=int, default=None)
    o.add_argument("--space", default="auto")
    o.add_argument("--precision", default="fp32")
    o.add_argument("--device", default="auto")
    o.add_argument("--llm-base-url", default="")
    o.add_argument("--llm-model", default="")
    o.add_argument("--results-dir", default=None)
    o.add_argument("--ncu", default=None)
    o.add_argument("--llm-api-key-env", default=None)
    o.add_argument("--timeout", type=float, default=None)
    o.add_argument("--build-timeout", type=float, default=None)
    o.add_argument("--no-sandbox", action="store_true")
    o.add_argument("--deadline", type=float, default=None)
    o.set_defaults(func=optimize)
    f = sub.add_parser("profile")
    f.add_argument("task")
    f.add_argument("candidate", nargs="?")
    f.add_argument("--json", action="store_true")
    f.add_argument("--workspace", required=True)
    f.add_argument("--device", default="auto")
    f.add_argument("--ncu", default=None)
    f.set_defaults(func=profile)
    a = p.parse_args()
    with open(Path(a.workspace) / "fake_engine_argv.jsonl", "a") as f:
        f.write(json.dumps(sys.argv[1:]) + "\n")
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main())
