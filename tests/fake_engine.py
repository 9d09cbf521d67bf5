"""A scripted stand-in for `python -m engine.cli` that the language-server tests run instead of the engine.

It speaks the same interface (docs/protocol.md §1-2): `optimize TASK --events jsonl ...` prints the event
stream and the result, `profile TASK [CANDIDATE] --json ...` prints one JSON object. It writes the same
store rows through the real engine.store.RunStore (so the server's reader is tested against the real
writer), candidate sources under `.hiera/runs/<id>/candidates/`, and the result files into `--results-dir`.
It builds and times nothing, so a test job takes a fraction of a second.

Like the engine (engine/loop.py), it times the best once more before it reports it: a re-timing row
`<id>-retimed` (round of the best, index 0) with its own pair, 0.95x the eager and 1.02x the candidate
time of the first, and the reported best is that pair's (`paired_reference_ms`); a best not faster than
eager goes to the run's `slower-than-eager/` folder, not to --results-dir.

Behaviour knobs, from `<workspace>/fake_engine.json` ({"delay": .., "mode": .., "notice": ..}; a test writes
it, since one server serves the whole test) or the environment:
  HIERA_FAKE_DELAY   seconds per candidate (default 0.02): long enough to cancel a job or time the server
  HIERA_FAKE_MODE    ok | slower | level | no_valid | crash | fail_build (default ok); slower: valid but 0.8x
                     eager; level: 1.01x, inside the 2% spread of its timings
  HIERA_FAKE_NOTICE  when set, one `notice` event with this text
  "best_fields": "canonical" writes the best as the engine's canonical best will (reference_ms, retimed,
                     spread, verdict) instead of today's paired_reference_ms
  "device"           the device the run reports (default "cpu")
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

from contracts.export import free_pair  # noqa: E402
from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status, Timing  # noqa: E402
from engine.store import RunStore  # noqa: E402

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

# Profile.to_json() (engine/profile/metrics.py) as the profiler would write it for CU_SOURCE: line 7 wastes a
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
    """A rationale worded as the expert backend words it (engine/agents/expert/rules.py), GPU titles and the
    analysis's roofline included, whatever the device: the editor has to make it read right on the CPU."""
    ceilings = "default (CPU)" if device.startswith("cpu") else "measured"
    return (f"Workload: pointwise (memory_bound_fusable): 2 pointwise; 16.78 MB minimum; memory-bound, roofline "
            f"8.594e+04 us on {ceilings} ceilings. {GPU_TITLES[space]}: 1 generated C++ loop nest(s) with OpenMP and "
            f"SIMD cover the whole graph. | pointwise chain of 2 op(s): memory-bound -> {space}, M 0.80")


def emit(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def timing(ms: float) -> Timing:
    return Timing(ms, ms * 0.98, ms * 1.05, ms, ms * 0.01, ms * 0.99, ms * 1.01, 100, "perf_counter")


def modelnew(task: Path, cid: str) -> str:
    return (f'"""ModelNew for task {task.stem!r}, exported by the fake engine (candidate {cid})."""\n'
            "import torch\nfrom torch import nn\n\n\nclass ModelNew(nn.Module):\n"
            "    def forward(self, x):\n        return torch.relu(x)\n")




def knobs(workspace: str) -> dict:
    k = {"delay": float(os.environ.get("HIERA_FAKE_DELAY", "0.02")), "mode": os.environ.get("HIERA_FAKE_MODE", "ok"),
         "notice": os.environ.get("HIERA_FAKE_NOTICE", ""), "best_fields": "today", "device": "cpu"}
    f = Path(workspace) / "fake_engine.json"
    if f.exists():
        k.update(json.loads(f.read_text()))
    return k


def optimize(a: argparse.Namespace) -> int:
    k = knobs(a.workspace)
    delay, mode = float(k["delay"]), k["mode"]
    if a.backend == "llm" and not a.llm_model:
        # as the engine does today: a usage error goes to stderr only, with no error event
        sys.stderr.write("error: no LLM model configured for https://api.openai.com/v1: set --llm-model, "
                         "HIERA_LLM_MODEL, `model = \"...\"` under [llm] in hiera.toml, or hiera.llm.model in "
                         "the editor\n")
        return 2
    task = Path(a.task).resolve()
    if not task.is_file():
        emit({"event": "error", "message": f"{task}: no such task file", "log": None})
        return 2
    ws = Path(a.workspace).resolve()
    store = RunStore.for_workspace(ws)
    h = hashlib.sha256(task.read_bytes()).hexdigest()[:16]
    device = k["device"]
    run_id = store.start_run("optimize", task, task.stem, h, {"rounds": a.rounds, "candidates": a.candidates},
                             backend=a.backend, device=device)
    run_dir = store.run_dir(run_id)
    emit({"event": "run_started", "run_id": run_id, "task": str(task), "device": device, "rounds": a.rounds,
          "candidates": a.candidates, "backend": a.backend, "store": str(store.db_path), "run_dir": str(run_dir)})
    if k["notice"]:
        store.record_notice(run_id, k["notice"])
        emit({"event": "notice", "message": k["notice"]})
    ref_ms = 0.5
    store.set_reference(run_id, ref_ms, device)
    emit({"event": "reference_timed", "reference_ms": ref_ms})
    rounds, best, status = [], None, "finished"
    valid_ones: dict[str, dict] = {}
    try:
        if mode == "crash":
            sys.stderr.write("fake engine: simulated crash\n")
            os._exit(3)
        for r in range(1, a.rounds + 1):
            space = a.space if a.space != "auto" else SPACES[(r - 1) % 3]
            scores = {"C": 0.1, "P": 0.3, "M": 0.8, "R": 0.4, "T": 0.05}
            strategy = f"fuse the pointwise chain, vectorized loads (round {r})"
            rationale = rationale_of(space, device)
            store.record_decision(run_id, r, space, scores, {"M": ["pointwise chain: memory-bound"]}, "M",
                                  strategy, rationale)
            emit({"event": "round_started", "round": r, "space": space, "scores": scores, "direction": "M",
                  "strategy": strategy, "rationale": rationale})
            outcomes = []
            for i in range(1, a.candidates + 1):
                emit({"event": "candidate_started", "round": r, "index": i, "of": a.candidates})
                time.sleep(delay)
                cid = f"r{r}c{i}"
                valid = mode in ("ok", "slower", "level") and i % 3 != 0
                ms = ({"slower": ref_ms * 1.25, "level": ref_ms / 1.01}.get(mode, ref_ms / (1.0 + 0.2 * r + 0.05 * i))
                      if valid else None)
                st = Status.VALID if valid else (Status.BUILD_FAILED if mode == "fail_build" else Status.INCORRECT)
                reason = "ok" if valid else "out[0, 3]: expected 0.5, got 0.25"
                outcome = Outcome(cid, st, reason, candidate=timing(ms) if ms else None,
                                  reference=timing(ref_ms), device=device, build_s=0.01, verify_s=0.01, time_s=0.01)
                store.record_candidate(run_id, Candidate(cid, CandidateKind.CUDA, CU_SOURCE,
                                                         origin="expert:fake", note=strategy), outcome, r, i)
                sp = outcome.speedup
                if sp:
                    valid_ones[cid] = {"candidate_id": cid, "speedup": sp, "candidate_ms": ms, "round": r,
                                       "space": space, "direction": "M"}
                if sp and (best is None or sp > best["speedup"]):
                    best = valid_ones[cid]
                outcomes.append({"candidate_id": cid, "index": i, "status": st.value, "reason": reason,
                                 "speedup": sp, "candidate_ms": ms})
                emit({"event": "candidate_finished", "round": r, "index": i, "of": a.candidates,
                      "candidate_id": cid, "status": st.value, "reason": reason, "speedup": sp, "candidate_ms": ms,
                      "best_speedup": best["speedup"] if best else None})
            rounds.append({"round": r, "space": space, "scores": scores, "direction": "M", "strategy": strategy,
                           "rationale": rationale, "outcomes": outcomes})
            emit({"event": "round_finished", "round": r, "best_speedup": best["speedup"] if best else None})
        if best is not None:
            best = retime(store, run_id, valid_ones, mode, device, k["best_fields"])
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM from the language server (as the engine does)
        status = "stopped"
    if best is not None:
        store.record_profile(run_id, best["candidate_id"], PROFILE)
        folder = Path(a.results_dir) if a.results_dir else task.parent
        if best["speedup"] <= 1.0:  # not faster than eager: kept in the run's folder, as the engine does
            folder = run_dir / "slower-than-eager"
        folder.mkdir(parents=True, exist_ok=True)
        py, cu = free_pair(folder, f"{task.stem}_hiera", ".cu")
        py.write_text(modelnew(task, best["candidate_id"]))
        cu.write_text(CU_SOURCE)
        best["paths"] = {"py": str(py), "cu": str(cu)}
    result = {"run_id": run_id, "status": status, "task": str(task), "device": device, "backend": a.backend,
              "reference_ms": ref_ms, "best": best, "candidates": sum(len(r["outcomes"]) for r in rounds),
              "retimed": 1 if best else 0,
              "rounds": rounds, "tokens": {"prompt": 0, "completion": 0},
              "seconds": {"build": 0.0, "verify": 0.0, "time": 0.0, "profile": 0.0, "model": 0.0, "total": 0.1},
              "cost_usd": None}
    store.finish_run(run_id, status, result)
    emit({"event": "result", **result})
    return 0 if best else 1


def retime(store: RunStore, run_id: str, valid: dict[str, dict], mode: str, device: str, fields: str) -> dict:
    """Time the best once more and report that pair, as engine/loop.py _confirm_best does: a best that falls
    behind another valid candidate gives way to it, which is timed again the same way (at most 3 times)."""
    pool, tried = dict(valid), set()
    best = max(pool.values(), key=lambda b: b["speedup"])
    while best["candidate_id"] not in tried and len(tried) < 3:
        tried.add(best["candidate_id"])
        first_ms = best["candidate_ms"]
        cand_ms, ref_ms = (first_ms, 0.5) if mode == "level" else (first_ms * 1.02, 0.5 * 0.95)
        cid = best["candidate_id"] + "-retimed"
        outcome = Outcome(cid, Status.VALID, "ok (re-timed)", candidate=timing(cand_ms), reference=timing(ref_ms),
                          device=device, build_s=0.0, verify_s=0.01, time_s=0.01)
        store.record_candidate(run_id, Candidate(cid, CandidateKind.CUDA, CU_SOURCE, origin="expert:fake",
                                                 note="re-timed"), outcome, best["round"], 0)
        pool[best["candidate_id"]] = {**best, "speedup": outcome.speedup, "candidate_ms": cand_ms,
                                      "paired_reference_ms": ref_ms}
        best = max(pool.values(), key=lambda b: b["speedup"])
    if best["candidate_id"] not in tried:  # re-timings spent: the fastest re-timed one is reported
        best = max((pool[c] for c in tried), key=lambda b: b["speedup"])
    out = {**best, "flags": []}
    if fields == "canonical":
        spread = 0.02  # timing(): p25/p75 at 0.99/1.01 of the median, on both sides
        verdict = "faster" if out["speedup"] > 1 + spread else "slower" if out["speedup"] < 1 - spread else "level"
        return {**out, "reference_ms": out.pop("paired_reference_ms"), "retimed": True, "spread": spread,
                "verdict": verdict}
    return out


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
