"""A scripted stand-in for `python -m engine.cli` that the language-server tests run instead of the engine.

It speaks the same interface (docs/protocol.md §1-2): `optimize TASK --events jsonl ...` prints the event
stream and the result, `profile TASK [CANDIDATE] --json ...` prints one JSON object. It writes the same
store rows through the real engine.store.RunStore (so the server's reader is tested against the real
writer), candidate sources under `.hiera/runs/<id>/candidates/`, and the result files into `--results-dir`.
It builds and times nothing, so a test job takes a fraction of a second.

Behaviour knobs, from `<workspace>/fake_engine.json` ({"delay": .., "mode": .., "notice": ..}; a test writes
it, since one server serves the whole test) or the environment:
  HIERA_FAKE_DELAY   seconds per candidate (default 0.02): long enough to cancel a job or time the server
  HIERA_FAKE_MODE    ok | slower | no_valid | crash | fail_build (default ok); slower: valid but 0.8x eager
  HIERA_FAKE_NOTICE  when set, one `notice` event with this text
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
         "notice": os.environ.get("HIERA_FAKE_NOTICE", "")}
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
    run_id = store.start_run("optimize", task, task.stem, h, {"rounds": a.rounds, "candidates": a.candidates},
                             backend=a.backend, device="cpu")
    run_dir = store.run_dir(run_id)
    emit({"event": "run_started", "run_id": run_id, "task": str(task), "device": "cpu", "rounds": a.rounds,
          "candidates": a.candidates, "backend": a.backend, "store": str(store.db_path), "run_dir": str(run_dir)})
    if k["notice"]:
        store.record_notice(run_id, k["notice"])
        emit({"event": "notice", "message": k["notice"]})
    ref_ms = 0.5
    store.set_reference(run_id, ref_ms, "cpu")
    emit({"event": "reference_timed", "reference_ms": ref_ms})
    rounds, best, status = [], None, "finished"
    try:
        if mode == "crash":
            sys.stderr.write("fake engine: simulated crash\n")
            os._exit(3)
        for r in range(1, a.rounds + 1):
            space = a.space if a.space != "auto" else SPACES[(r - 1) % 3]
            scores = {"C": 0.1, "P": 0.3, "M": 0.8, "R": 0.4, "T": 0.05}
            strategy = f"fuse the pointwise chain, vectorized loads (round {r})"
            store.record_decision(run_id, r, space, scores, {"M": ["pointwise chain: memory-bound"]}, "M",
                                  strategy, "the chain reads x once and writes once")
            emit({"event": "round_started", "round": r, "space": space, "scores": scores, "direction": "M",
                  "strategy": strategy, "rationale": "memory-bound"})
            outcomes = []
            for i in range(1, a.candidates + 1):
                emit({"event": "candidate_started", "round": r, "index": i, "of": a.candidates})
                time.sleep(delay)
                cid = f"r{r}c{i}"
                valid = mode in ("ok", "slower") and i % 3 != 0
                ms = (ref_ms * 1.25 if mode == "slower" else ref_ms / (1.0 + 0.2 * r + 0.05 * i)) if valid else None
                st = Status.VALID if valid else (Status.BUILD_FAILED if mode == "fail_build" else Status.INCORRECT)
                reason = "ok" if valid else "out[0, 3]: expected 0.5, got 0.25"
                outcome = Outcome(cid, st, reason, candidate=timing(ms) if ms else None,
                                  reference=timing(ref_ms), device="cpu", build_s=0.01, verify_s=0.01, time_s=0.01)
                store.record_candidate(run_id, Candidate(cid, CandidateKind.CUDA, CU_SOURCE,
                                                         origin="expert:fake", note=strategy), outcome, r, i)
                sp = outcome.speedup
                if sp and (best is None or sp > best["speedup"]):
                    best = {"candidate_id": cid, "speedup": sp, "candidate_ms": ms, "round": r, "space": space,
                            "direction": "M"}
                outcomes.append({"candidate_id": cid, "index": i, "status": st.value, "reason": reason,
                                 "speedup": sp, "candidate_ms": ms})
                emit({"event": "candidate_finished", "round": r, "index": i, "of": a.candidates,
                      "candidate_id": cid, "status": st.value, "reason": reason, "speedup": sp, "candidate_ms": ms,
                      "best_speedup": best["speedup"] if best else None})
            rounds.append({"round": r, "space": space, "scores": scores, "direction": "M", "strategy": strategy,
                           "rationale": "memory-bound", "outcomes": outcomes})
            emit({"event": "round_finished", "round": r, "best_speedup": best["speedup"] if best else None})
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM from the language server (as the engine does)
        status = "stopped"
    if best is not None:
        store.record_profile(run_id, best["candidate_id"], PROFILE)
        folder = Path(a.results_dir) if a.results_dir else task.parent
        folder.mkdir(parents=True, exist_ok=True)
        py, cu = free_pair(folder, f"{task.stem}_hiera", ".cu")
        py.write_text(modelnew(task, best["candidate_id"]))
        cu.write_text(CU_SOURCE)
        best["paths"] = {"py": str(py), "cu": str(cu)}
    result = {"run_id": run_id, "status": status, "task": str(task), "device": "cpu", "backend": a.backend,
              "reference_ms": ref_ms, "best": best, "candidates": sum(len(r["outcomes"]) for r in rounds),
              "rounds": rounds, "tokens": {"prompt": 0, "completion": 0},
              "seconds": {"build": 0.0, "verify": 0.0, "time": 0.0, "profile": 0.0, "model": 0.0, "total": 0.1},
              "cost_usd": None}
    store.finish_run(run_id, status, result)
    emit({"event": "result", **result})
    return 0 if best else 1


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
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main())
