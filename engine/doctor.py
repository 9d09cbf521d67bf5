"""What a run will use on this machine, and whether each piece works here, inside the sandbox.

`hiera doctor` (engine/commands/doctor.py) prints these checks. Each one *does* the thing a run does, on a
tiny task of its own — compiles a kernel in the sandbox, verifies and times it through the evaluator,
profiles it with Nsight Compute, compiles a function with torch.compile — instead of only looking for
files: the H200 machine had an `ncu` on PATH whose every sandboxed profile failed.

Each Check says what it found and, when something is missing or broken, what to do. `essential` checks are
the ones without which a run cannot go on at all on this device; the others cost a feature (profiles, the
libraries space) and the run says so when it gets there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from contracts import strict_json
from contracts.device import Device

OK, MISSING, FAILED, SKIPPED = "ok", "missing", "failed", "skipped"


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # ok | missing | failed | skipped
    detail: str  # what was found (a version, a path, a time), or what went wrong
    fix: str = ""  # what to do, when not ok
    essential: bool = False
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return asdict(self)


# The doctor's own task and kernels: relu(x * scale + bias) over 256 x 512 floats, as a KernelBench task, a
# contract .cu and a contract .cpp (the same ABI every candidate implements; README "Tasks, contracts").
TASK = '''"""hiera doctor's task: relu(x * scale + bias)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, cols, scale):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols))
        self.scale = scale

    def forward(self, x):
        return torch.relu(x * self.scale + self.bias)


def get_inputs():
    return [torch.randn(256, 512)]


def get_init_inputs():
    return [512, 0.5]
'''

KERNEL_CU = '''#include <cuda_runtime.h>
#include "hiera_contract.h"

__global__ void doctor_kernel(const float* x, const float* bias, float scale, float* out, int64_t n, int64_t cols) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(x[i] * scale + bias[i % cols], 0.f);
}

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    int64_t cols = x->sizes[1], n = x->sizes[0] * cols;
    doctor_kernel<<<(unsigned)((n + 255) / 256), 256, 0, (cudaStream_t)stream>>>(
        (const float*)x->data, (const float*)bias->data, (float)scale, (float*)out->data, n, cols);
    return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
'''

KERNEL_CPP = '''#include "hiera_contract.h"

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    (void)stream;
    const float* xp = (const float*)x->data;
    const float* bp = (const float*)bias->data;
    float* op = (float*)out->data;
    int64_t rows = x->sizes[0], cols = x->sizes[1];
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            float v = xp[r * cols + c] * (float)scale + bp[c];
            op[r * cols + c] = v > 0.f ? v : 0.f;
        }
    return 0;
}
'''

COMPILE_PROBE = '''
import sys, time, torch
device = sys.argv[1]
t0 = time.perf_counter()
f = torch.compile(lambda x: torch.relu(x * 0.5 + 1.0), dynamic=False)
x = torch.randn(1024, device=device)
y = f(x)
assert torch.allclose(y, torch.relu(x * 0.5 + 1.0))
print(f"{time.perf_counter() - t0:.1f}")
'''


def _timed(fn: Callable[[], Check]) -> Check:
    t0 = time.perf_counter()
    try:
        c = fn()
    except Exception as e:  # a check that breaks is itself a finding, never the doctor's crash
        c = Check(getattr(fn, "__name__", "check").lstrip("_"), FAILED, f"{type(e).__name__}: {e}"[:500])
    return Check(**{**asdict(c), "seconds": round(time.perf_counter() - t0, 2)})


def _run(cmd: list[str], timeout: float = 60.0) -> tuple[int, str]:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, str(e)
    return p.returncode, (p.stdout + p.stderr).strip()


# --- the machine ---------------------------------------------------------------------------------------------

def python_and_torch() -> Check:
    try:
        import torch
    except ImportError:
        return Check("python, torch", MISSING, f"Python {sys.version.split()[0]}; torch is not installed",
                     "run ./scripts/setup.sh (it installs torch into .venv)", essential=True)
    build = f"CUDA {torch.version.cuda}" if torch.version.cuda else "CPU build"
    return Check("python, torch", OK, f"Python {sys.version.split()[0]}, torch {torch.__version__} ({build})",
                 essential=True)


def gpu_and_driver() -> Check:
    smi = shutil.which("nvidia-smi")
    rc, out = _run([smi, "--query-gpu=name,driver_version,compute_cap,memory.total", "--format=csv,noheader"]) \
        if smi else (-1, "")
    import torch

    if torch.cuda.is_available():
        names = ", ".join(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count()))
        driver = out.splitlines()[0].split(",")[1].strip() if rc == 0 and out else "?"
        return Check("GPU and driver", OK, f"{torch.cuda.device_count()} device(s): {names}; driver {driver}")
    if rc == 0 and out:
        return Check("GPU and driver", FAILED, f"nvidia-smi sees {out.splitlines()[0]}, but torch cannot use it "
                     f"(torch {torch.__version__}, CUDA {torch.version.cuda})",
                     "install a CUDA build of torch that this driver supports (HIERA_TORCH_SPEC, scripts/setup.sh)")
    return Check("GPU and driver", MISSING, "no NVIDIA GPU here: runs use the CPU (native C++ candidates)",
                 "to optimize for a GPU, run on a machine with an NVIDIA GPU and its driver")


def nvcc() -> Check:
    from engine.evaluate.build import ToolchainMissing, find_nvcc

    try:
        path = find_nvcc()
    except ToolchainMissing as e:
        return Check("nvcc", MISSING, str(e), "install the CUDA toolkit (or set CUDA_HOME)", essential=True)
    rc, out = _run([path, "--version"])
    version = next((ln for ln in out.splitlines() if "release" in ln), out[-120:])
    return Check("nvcc", OK if rc == 0 else FAILED, f"{path}: {version.strip()}",
                 "" if rc == 0 else "nvcc does not run: reinstall the CUDA toolkit", essential=True)


def bubblewrap(gpu: bool) -> Check:
    from engine.evaluate.sandbox import SandboxUnavailable, find_bwrap, probe

    try:
        path = find_bwrap()
        probe(gpu)
    except SandboxUnavailable as e:
        return Check("bubblewrap (the sandbox)", MISSING if "not found" in str(e) else FAILED, str(e)[:400],
                     "install bubblewrap (apt install bubblewrap; scripts/setup.sh does it as root), or pass "
                     "--no-sandbox to run candidates with your own rights", essential=True)
    _, out = _run([path, "--version"])
    return Check("bubblewrap (the sandbox)", OK, f"{path} ({out.strip()}); a sandboxed process started"
                 + (" with the GPU's device nodes" if gpu else ""), essential=True)


def resource_limits(gpu: bool, sandbox: bool) -> Check:
    """Each limit a candidate meets and what enforces it here (engine/evaluate/limit_check.py): a fallback is
    said, a limit that does not hold is a failure."""
    from engine.evaluate import limit_check

    limits = limit_check.check(gpu, sandbox)
    detail = "; ".join(f"{lim.name}: {lim.how}" for lim in limits)
    broken = [lim.name for lim in limits if not lim.holds]
    if broken:
        return Check("resource limits", FAILED, detail[:1500],
                     f"not enforced here: {', '.join(broken)}; run hiera as a user whose processes the kernel limits "
                     "(not root), or where it can make control groups (cgroup v2 with the pids and memory "
                     "controllers delegated)")
    fallbacks = sum(1 for lim in limits if lim.fallback)
    return Check("resource limits", OK, (f"{fallbacks} by fallback; " if fallbacks else "") + detail[:1500])


def libraries(gpu: bool) -> Check:
    """cuBLAS/cuDNN/CUTLASS headers: what the CUDA libraries space can build against."""
    from engine.task.libraries import find_cudnn

    if not gpu:
        return Check("CUDA libraries", SKIPPED, "not used on the CPU (its spaces are native C++ and C++ libraries)")
    from engine.evaluate.build import ToolchainMissing, find_nvcc

    found, missing = [], []
    try:
        home = Path(os.path.realpath(find_nvcc())).parent.parent
    except ToolchainMissing:
        home = None
    roots = [home / "include"] if home else []
    roots += [Path(p) / "nvidia" / "cublas" / "include" for p in sys.path if p]
    cublas = next((r for r in roots if (r / "cublas_v2.h").exists()), None)
    (found if cublas else missing).append(f"cuBLAS ({cublas})" if cublas else "cuBLAS headers (cublas_v2.h)")
    cudnn = find_cudnn()
    (found if cudnn else missing).append(f"cuDNN ({cudnn[0]})" if cudnn else "cuDNN (cudnn.h)")
    cutlass_roots = [Path(os.environ[v]) / "include" for v in ("CUTLASS_HOME", "CUTLASS_PATH") if os.environ.get(v)]
    cutlass = next((r for r in [*cutlass_roots, *roots] if (r / "cutlass" / "cutlass.h").exists()), None)
    # hiera's own generators never include CUTLASS: its absence costs only LLM candidates that do.
    found.append(f"CUTLASS ({cutlass})" if cutlass else "no CUTLASS (only candidates that include it need it: "
                 "set CUTLASS_HOME)")
    if not missing:
        return Check("CUDA libraries", OK, "; ".join(found))
    return Check("CUDA libraries", MISSING, "found: " + ("; ".join(found) or "none") + "; missing: " +
                 "; ".join(missing),
                 "candidates calling a missing library fail to build (the run says which); cuBLAS comes with "
                 "the toolkit, cuDNN with torch's nvidia-cudnn wheel or CUDNN_HOME")


def pycache() -> Check:
    from engine import pycache as pc

    prefix = pc.active() or (str(pc.enable()) if pc.enable() else None)
    if prefix is None:
        return Check("bytecode cache", MISSING, f"cannot write {pc.cache_dir()}",
                     "make it writable or set HIERA_PYCACHE: without it every process of a run compiles torch's "
                     "sources again where the installation has no .pyc files (seconds each)")
    return Check("bytecode cache", OK, f"{prefix} (shared by the run's processes, read-only in the sandbox)")


# --- doing what a run does ------------------------------------------------------------------------------------

def ceilings(device: Device, measure: bool, again: bool = False) -> Check:
    """The device's measured ceilings, the speed of light's divisors (engine/evaluate/ceilings.py): the cached
    ones, measured now where there are none and `measure` allows (`again`: measure anew, merged with the cache)."""
    import torch

    from engine.evaluate import ceilings as ceil

    name = "speed-of-light ceilings"
    path = ceil.cache_path()
    if path is None:
        return Check(name, SKIPPED, f"not measured: {ceil.ENV}=off (no figure is judged against a bound)")
    dev = torch.device(str(device))
    c = ceil.load(dev)
    if (c is None or again) and measure:
        c = ceil.save(ceil.measure(dev))
    if c is None:
        return Check(name, MISSING, f"not measured on this device yet ({path})",
                     "run `hiera doctor` without --quick, or any evaluation: the first one measures them")
    how = "pinned by hand" if c.pinned else f"measured {c.measured_at} in {c.seconds:.1f} s"
    return Check(name, OK, f"{c.device}: {c.summary()} ({how}; cached in {path})")


def _workspace() -> Path:
    d = Path(tempfile.mkdtemp(prefix="hiera-doctor-"))
    (d / "doctor_task.py").write_text(TASK)
    (d / "doctor_kernel.cu").write_text(KERNEL_CU)
    (d / "doctor_kernel.cpp").write_text(KERNEL_CPP)
    return d


def evaluate_kernel(work: Path, device: Device, sandbox: bool) -> Check:
    """Build a contract kernel in the sandbox, verify and time it against eager, as `hiera eval` does."""
    from engine.evaluate.pipeline import EvalSettings, Evaluator, candidate_from_file
    from engine.task.spec import load_task

    gpu = device.is_cuda
    name = "build, verify, time a kernel" + (" (CUDA)" if gpu else " (C++ on the CPU)")
    spec = load_task(work / "doctor_task.py")
    cand = candidate_from_file(work / ("doctor_kernel.cu" if gpu else "doctor_kernel.cpp"), device)
    with Evaluator(spec, work / "eval", EvalSettings(device=device, sandbox=sandbox)) as ev:
        (o,) = ev.evaluate([cand])
    if o.valid and o.candidate:
        return Check(name, OK, f"valid: verified on the correctness trials and timed ({o.candidate.median_ms:.4g} ms "
                     f"a call; build {o.build_s or 0:.1f} s)", essential=True)
    return Check(name, FAILED, f"{o.status.value}: {o.reason[:600]}",
                 "see the reason: a build failure is the toolchain, a runtime error the device or the sandbox",
                 essential=True)


def ncu_profile(work: Path, device: Device, sandbox: bool) -> Check:
    """Nsight Compute on the doctor's kernel, in the sandbox, exactly as the loop profiles a candidate."""
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.pipeline import candidate_from_file
    from engine.profile import ProfilerUnavailable, find_ncu, profile_candidate
    from engine.task.contract import contract_layout, write_contract
    from engine.task.spec import load_task

    if not device.is_cuda:
        return Check("Nsight Compute (ncu)", SKIPPED, f"not used on {device}: Nsight Compute profiles CUDA kernels")
    try:
        ncu = find_ncu()
    except ProfilerUnavailable as e:
        return Check("Nsight Compute (ncu)", MISSING, str(e),
                     "install Nsight Compute, or set HIERA_NCU to its ncu binary; runs go on without profiles "
                     "and say so")
    spec = load_task(work / "doctor_task.py")
    contract = work / "contract"
    write_contract(spec, contract)
    import torch

    cap = "".join(str(v) for v in torch.cuda.get_device_capability(device.index))
    built = build_one(candidate_from_file(work / "doctor_kernel.cu", device),
                      BuildConfig(contract, work / "build", cuda_arch=cap, sandboxed=sandbox))
    if not built.ok:
        return Check("Nsight Compute (ncu)", FAILED, f"the kernel to profile did not build: {built.log[:300]}")
    try:
        p = profile_candidate(spec.path, contract, built.artifact, "cuda", device, ncu_path=ncu,
                              work_dir=work / "profile", layout=contract_layout(spec), sandboxed=sandbox,
                              max_kernels=1)
    except ProfilerUnavailable as e:
        return Check("Nsight Compute (ncu)", FAILED, f"{ncu}: {str(e)[:600]}",
                     "runs go on without profiles and say so; set HIERA_NCU to Nsight Compute's own ncu binary "
                     "(e.g. /opt/nvidia/nsight-compute/<version>/ncu) if this is a launcher")
    k = p.kernels[0] if p.kernels else None
    got = f"{k.name}: {k.duration_us:.1f} us" if k and k.duration_us else "a profile"
    return Check("Nsight Compute (ncu)", OK, f"{ncu}: {got}, {p.collection.get('passes', '?')} passes in "
                 f"{p.seconds or 0:.1f} s{' (sandboxed)' if sandbox else ''}")


def torch_compile(device: Device) -> Check:
    """torch.compile of a small function on the device, in a process of its own (Inductor's first compile)."""
    rc, out = _run([sys.executable, "-c", COMPILE_PROBE, str(device)], timeout=300)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    if rc == 0 and re.fullmatch(r"[\d.]+", last):
        return Check("torch.compile", OK, f"compiled and ran on {device} in {last} s (Inductor's first compile)")
    return Check("torch.compile", FAILED, f"on {device}: {out[-500:]}",
                 "the libraries + PyTorch space's torch.compile candidates will fail here; on the CPU Inductor "
                 "needs a C++ compiler, on a GPU Triton")


def run_checks(device: Device, sandbox: bool = True, quick: bool = False,
               progress: Callable[[Check], None] | None = None, remeasure: bool = False) -> list[Check]:
    """Every check, in the order a run meets them. quick: only look (no builds, no profile, no compile, no
    measurement of the ceilings); remeasure: measure the device's ceilings anew (each can only rise).
    progress: called with each check as it ends (a full doctor takes a minute or more on a cold GPU)."""
    checks: list[Check] = []

    def add(c: Check) -> Check:
        checks.append(c)
        if progress is not None:
            progress(c)
        return c

    if add(_timed(python_and_torch)).status != OK:
        return checks
    add(_timed(gpu_and_driver))
    gpu = device.is_cuda
    add(_timed(nvcc))
    add(_timed(lambda: bubblewrap(gpu)) if sandbox else
        Check("bubblewrap (the sandbox)", SKIPPED, "--no-sandbox: candidates run with your own rights"))
    add(_timed(lambda: resource_limits(gpu, sandbox)))
    add(_timed(lambda: libraries(gpu)))
    add(_timed(pycache))
    add(_timed(lambda: ceilings(device, measure=not quick, again=remeasure)))
    if quick:
        return checks
    work = _workspace()
    try:
        add(_timed(lambda: evaluate_kernel(work, device, sandbox)))
        add(_timed(lambda: ncu_profile(work, device, sandbox)))
        add(_timed(lambda: torch_compile(device)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return checks


def as_json(checks: list[Check], device: Device) -> str:
    return strict_json.dumps({"device": str(device), "checks": [c.to_json() for c in checks],
                       "ready": all(c.status in (OK, SKIPPED) for c in checks if c.essential),
                       "ceilings": cached_ceilings(device)}, indent=1)


def cached_ceilings(device: Device) -> dict[str, object] | None:
    """The cached ceilings of the device, whole (what was measured and how), or None."""
    try:
        import torch

        from engine.evaluate import ceilings as ceil

        c = ceil.load(torch.device(str(device)))
    except (ImportError, RuntimeError):
        return None
    return c.to_json() if c is not None else None
