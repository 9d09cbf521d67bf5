"""A device's ceilings, measured on it: what the speed-of-light bound divides by (engine/evaluate/speed_of_light.py).

Measured once per device and cached (`$HIERA_CEILINGS`, else `$XDG_CACHE_HOME/hiera/ceilings.json`), by the
checker (it never loads candidate code) before its first candidate, or by `hiera doctor` and
scripts/bench_ceilings.py. What is measured, each the best of a few repetitions:

- memory: the fastest of a large device-to-device copy (bytes read + written), a large read (a sum) and a large
  write (a fill), on buffers several times the last-level cache;
- cache: a copy that stays in the last-level cache (the GPU's L2; on the CPU its L2/L3), repeated back to back;
- fp32: FMA throughput on the vector units: on a GPU an FMA-chain kernel compiled by torch's jiterator (NVRTC),
  and SGEMM with TF32 off, whichever is faster; on the CPU SGEMM (MKL/oneDNN run it near the FMA peak);
- fp64: the same in double (DGEMM runs on the tensor cores of sm_80 and later);
- TF32, bf16, fp16: a large tensor-core GEMM through torch (GPU only);
- launch floor (GPU only): the least time between the timing's own events around the smallest operation (a
  one-element fill or copy), after the same cache flush the timing does.

A measurement taken while the machine is busy reads low, and a ceiling too low makes a bound too high (an honest
kernel would look faster than physics). So the cache keeps, per device, the fastest rate ever measured there
(Ceilings.merged), and a re-measurement can only raise a ceiling.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

import torch

from contracts.speed_of_light import Ceilings
from engine.cache_home import gpu_caches, hiera_cache

VERSION = 1  # the method: a cache entry of another version is measured again
ENV = "HIERA_CEILINGS"  # a cache file of its own (tests); "off": measure nothing, no bound anywhere
# An entry with "pinned": true is used as written and never measured again (ceilings set by hand).


def cache_path() -> Path | None:
    explicit = os.environ.get(ENV)
    if explicit == "off":
        return None
    if explicit:
        return Path(explicit)
    return hiera_cache() / "ceilings.json"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _last_level_cache_bytes() -> int | None:
    """The CPU's largest cache (its L3, shared), from sysfs; None where it is not said."""
    best = None
    for d in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            size = (d / "size").read_text().strip()
            kind = (d / "type").read_text().strip()
        except OSError:
            continue
        if kind == "Instruction" or not size:
            continue
        mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(size[-1].upper(), 1)
        n = int(size[:-1] if size[-1].isalpha() else size) * mult
        best = max(best or 0, n)
    return best


def device_key(device: torch.device) -> tuple[str, str]:
    """(the cache's key for this device, the device in words). A CPU's key holds its model and core count; a
    GPU's its name, memory and UUID where torch gives one."""
    if device.type == "cuda":
        p = torch.cuda.get_device_properties(device)
        uuid = str(getattr(p, "uuid", "") or "")
        return f"cuda|{p.name}|{p.total_memory}|{uuid}", f"{device} ({p.name})"
    name = _cpu_model()
    cores = os.cpu_count() or 1
    return f"cpu|{name}|{cores}", f"cpu ({name}, {cores} cores)"


def load(device: torch.device) -> Ceilings | None:
    """This device's cached ceilings (of this method's version), or None."""
    path = cache_path()
    if path is None or not path.is_file():
        return None
    try:
        entries = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    key, _ = device_key(device)
    c = Ceilings.from_json(entries.get(key)) if isinstance(entries, dict) else None
    return c if c is not None and (c.version == VERSION or c.pinned) else None


def save(c: Ceilings) -> Ceilings:
    """Merge `c` into the cache (each rate the fastest seen) and return what the cache now holds for it. A cache
    that cannot be written loses nothing but the next measurement's time."""
    path = cache_path()
    if path is None:
        return c
    entries: dict[str, object] = {}
    try:
        loaded = json.loads(path.read_text()) if path.is_file() else {}
        entries = loaded if isinstance(loaded, dict) else {}
    except (OSError, ValueError):
        entries = {}
    old = Ceilings.from_json(entries.get(c.key))  # type: ignore[arg-type]
    if old is not None and old.pinned:
        return old
    merged = old.merged(c) if old is not None and old.version == c.version else c
    entries[c.key] = merged.to_json()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(entries, indent=1, sort_keys=True))
        os.replace(tmp, path)  # whole, or not at all: several checkers may measure at once
    except OSError:
        pass
    return merged


def for_device(device: torch.device, flush_bytes: int | None = None) -> Ceilings | None:
    """The cached ceilings, else measured now (quick) and cached; None where measuring is off."""
    if cache_path() is None:
        return None
    c = load(device)
    if c is None:
        c = save(measure(device, flush_bytes))
    return c


# --- measuring -------------------------------------------------------------------------------------------------

def _best_s(fn: Callable[[], object], device: torch.device, reps: int, inner: int = 1) -> float:
    """The least seconds one of `inner` back-to-back calls of fn took, over `reps` repetitions (after one
    untimed call): CUDA events on a GPU; on the CPU the wall clock or, where less, the process's CPU time over
    its threads, so that time spent descheduled by other work on a shared machine is not charged (a ceiling
    measured low would make every bound too high)."""
    fn()
    best = float("inf")
    threads = max(torch.get_num_threads(), 1)
    for _ in range(reps):
        if device.type == "cuda":
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda.synchronize(device)
            start.record()
            for _ in range(inner):
                fn()
            end.record()
            end.synchronize()
            s = start.elapsed_time(end) / 1e3
        else:
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(inner):
                fn()
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            s = min(wall, cpu / threads) if cpu > 0 else wall
        best = min(best, s / inner)
    return best


def _matmul_gflops(device: torch.device, dtype: torch.dtype, n: int, reps: int, tf32: bool = False) -> float:
    a = torch.randn(n, n, device=device, dtype=dtype)
    b = torch.randn(n, n, device=device, dtype=dtype)
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        s = _best_s(lambda: torch.mm(a, b), device, reps)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    return 2 * n**3 / s / 1e9


# An FMA chain per element, four independent accumulators so the pipe stays full; x and y come from memory, so
# nothing folds. ITER * 4 FMAs per element: at 2^20 elements memory traffic is under a thousandth of the time.
_FMA_ITER = 1024
_FMA_CODE = """
template <typename T> T hiera_fma_chain(T x, T y) {
  T a = x, b = y, c = x + y, d = x - y;
  for (int i = 0; i < ITER; ++i) {
    a = a * y + x; b = b * x + y; c = c * y + x; d = d * x + y;
  }
  return a + b + c + d;
}
""".replace("ITER", str(_FMA_ITER))


def _fma_gflops(device: torch.device, dtype: torch.dtype, reps: int) -> float | None:
    """FMA throughput from a jiterator kernel (CUDA builds of torch only); None where jiterator is missing."""
    try:
        from torch.cuda import jiterator

        fn = jiterator._create_jit_fn(_FMA_CODE)
        n = 1 << 22
        x = torch.rand(n, device=device, dtype=dtype) * 0.5
        y = torch.rand(n, device=device, dtype=dtype) * 0.5
        s = _best_s(lambda: fn(x, y), device, reps)
    except Exception:  # any failure of an optional probe leaves the GEMM figure
        return None
    return n * _FMA_ITER * 4 * 2 / s / 1e9


def _launch_us(device: torch.device, flush: torch.Tensor, reps: int) -> float:
    """The least event-timed duration of a one-element fill or copy after the timing's flush."""
    dst = torch.empty(1, device=device)
    src = torch.ones(1, device=device)
    best = float("inf")
    for op in (lambda: dst.zero_(), lambda: dst.copy_(src), lambda: dst.add_(1.0)):
        op()
        for _ in range(reps):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda.synchronize(device)
            flush.fill_(1)
            start.record()
            op()
            end.record()
            end.synchronize()
            best = min(best, start.elapsed_time(end) * 1e3)
    return best


def _memory(device: torch.device, big: int, small: int, reps: int, how: dict[str, str]) -> tuple[float, float]:
    """(DRAM GB/s: the fastest of copy, read and write; cache GB/s: a cache-resident copy)."""
    n = big // 4
    src = torch.rand(n, device=device)
    dst = torch.empty(n, device=device)
    copy = 2 * big / _best_s(lambda: dst.copy_(src), device, reps) / 1e9
    read = big / _best_s(lambda: src.sum(), device, reps) / 1e9
    write = big / _best_s(lambda: dst.fill_(1.0), device, reps) / 1e9
    dram = max(copy, read, write)
    how["dram_gbps"] = (f"fastest of copy {copy:.4g}, read {read:.4g}, write {write:.4g} GB/s on "
                        f"{big >> 20} MiB, best of {reps}")
    m = small // 4
    s_src, s_dst = torch.rand(m, device=device), torch.empty(m, device=device)
    # On a GPU many copies back to back (one is shorter than a launch); on the CPU single copies, many times,
    # so that one of them finds the core to itself.
    inner, many = (50, reps) if device.type == "cuda" else (1, 40 * reps)
    cache = 2 * small / _best_s(lambda: s_dst.copy_(s_src), device, many, inner) / 1e9
    how["cache_gbps"] = f"copy of {small >> 10} KiB, {inner} back to back, best of {many}"
    if cache < dram:  # a cache is never slower than the memory behind it: a busy moment, not the cache
        cache = dram
        how["cache_gbps"] += "; measured under the memory's rate, taken as that"
    return dram, cache


def measure(device: torch.device, flush_bytes: int | None = None, thorough: bool = False) -> Ceilings:
    """Measure this device's ceilings now: about a second on the CPU, a few seconds on a GPU (`thorough`: more
    repetitions, for scripts/bench_ceilings.py)."""
    t0 = time.perf_counter()
    key, words = device_key(device)
    how: dict[str, str] = {}
    reps = 10 if thorough else 5
    kw: dict[str, object] = {}
    if device.type == "cuda":
        p = torch.cuda.get_device_properties(device)
        l2 = int(getattr(p, "L2_cache_size", 0) or 0) or (50 << 20)
        big = min(max(16 * l2, 1 << 30), p.total_memory // 8)
        kw["dram_gbps"], kw["cache_gbps"] = _memory(device, big, max(l2 // 8, 1 << 20), reps, how)
        kw["cache_bytes"] = l2
        kw["flush_bytes"] = flush_bytes or max(4 * l2, 256 << 20)
        # The FMA probes' jiterator kernels are cached in hiera's folder, not the user's ~/.cache/torch (where
        # PyTorch would put them): in the checker the worker set this already, in `hiera doctor` its command
        # did (before CUDA started: the driver's JIT cache is read then); here for any other caller, before the
        # first jiterator compile.
        os.environ.update(gpu_caches(dict(os.environ)))
        fma = _fma_gflops(device, torch.float32, reps)
        sgemm = _matmul_gflops(device, torch.float32, 8192 if thorough else 4096, reps)
        kw["fp32_gflops"] = max(fma or 0.0, sgemm)
        how["fp32_gflops"] = (f"FMA chain {fma:.4g} GFLOP/s (jiterator), " if fma else "no jiterator; ") + \
            f"SGEMM {sgemm:.4g} GFLOP/s, TF32 off"
        fma64 = _fma_gflops(device, torch.float64, reps)
        dgemm = _matmul_gflops(device, torch.float64, 4096, reps)
        kw["fp64_gflops"] = max(fma64 or 0.0, dgemm)
        how["fp64_gflops"] = (f"FMA chain {fma64:.4g}, " if fma64 else "") + f"DGEMM {dgemm:.4g} GFLOP/s"
        n = 8192
        kw["tf32_gflops"] = _matmul_gflops(device, torch.float32, n, reps, tf32=True)
        how["tf32_gflops"] = f"GEMM {n}^3, TF32 on, best of {reps}"
        for name, dtype in (("bf16_gflops", torch.bfloat16), ("fp16_gflops", torch.float16)):
            kw[name] = _matmul_gflops(device, dtype, n, reps)
            how[name] = f"GEMM {n}^3, best of {reps}"
        flush = torch.empty(int(kw["flush_bytes"]), dtype=torch.uint8, device=device)  # type: ignore[call-overload]
        kw["launch_us"] = _launch_us(device, flush, 20 if thorough else 10)
        how["launch_us"] = "least event-timed one-element fill, copy or add after the timing's flush"
        del flush
        torch.cuda.empty_cache()
    else:
        threads = torch.get_num_threads()
        torch.set_num_threads(max(os.cpu_count() or 1, threads))  # a native candidate may use every core
        try:
            llc = _last_level_cache_bytes()
            big = min(max(4 * (llc or (32 << 20)), 64 << 20), 512 << 20)
            kw["dram_gbps"], kw["cache_gbps"] = _memory(device, big, 256 << 10, reps, how)
            kw["cache_bytes"] = llc
            kw["flush_bytes"] = flush_bytes
            sgemm = max(_matmul_gflops(device, torch.float32, n, reps) for n in (256, 512))
            kw["fp32_gflops"] = sgemm
            how["fp32_gflops"] = f"SGEMM 256^3 and 512^3, best of {reps}, {torch.get_num_threads()} threads"
            kw["fp64_gflops"] = max(_matmul_gflops(device, torch.float64, n, reps) for n in (128, 256))
            how["fp64_gflops"] = f"DGEMM 128^3 and 256^3, best of {reps}"
        finally:
            torch.set_num_threads(threads)
    return Ceilings(key=key, device=words, how=how, measured_at=datetime.date.today().isoformat(),
                    seconds=round(time.perf_counter() - t0, 2), version=VERSION, **kw)  # type: ignore[arg-type]
