"""Compile candidate sources into shared libraries, cached by content hash, several at a time.

Each candidate compiles alone against the contract header (no torch headers): a few seconds per `.cu`
instead of about a minute for a `torch/extension.h` build (measured: BENCHMARKS.md). The toolchain is
found the way torch.utils.cpp_extension finds it (CUDA_HOME, then nvcc on PATH), and the cache key covers
the source, the header, the flags and the compiler's version, so a stale library is never reused.

Builds run as compiler subprocesses from a thread pool; nothing built here is loaded in this process. A
candidate's source is hostile code too (an `#include "/home/you/.ssh/id_rsa"` puts that file into the
compiler's error message, which an LLM backend reads back): the compiler runs in the sandbox (sandbox.py),
seeing the toolchain, the contract's header, the libraries' headers the space allows and its own folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from engine.evaluate import build_cache, cgroups
from engine.evaluate.outcome import BuildResult, Candidate, CandidateKind
from engine.task import kernel_build
from engine.task.libraries import find_cudnn, libraries_called

_CUDA_SHIM = kernel_build.CUDA_SHIM


class ToolchainMissing(RuntimeError):
    pass


@lru_cache(maxsize=1)
def find_nvcc() -> str:
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home and (Path(home) / "bin" / "nvcc").exists():
            return str(Path(home) / "bin" / "nvcc")
    found = shutil.which("nvcc")
    if found:
        return found
    raise ToolchainMissing("nvcc not found: install the CUDA toolkit or set CUDA_HOME to its folder")


@lru_cache(maxsize=1)
def find_cxx() -> str:
    for cxx in (os.environ.get("CXX"), "g++", "c++", "clang++"):
        if cxx and shutil.which(cxx):
            return shutil.which(cxx)  # type: ignore[return-value]
    raise ToolchainMissing("no C++ compiler found: install g++ or set CXX")


@lru_cache(maxsize=4)
def _compiler_version(compiler: str) -> str:
    try:
        return subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return compiler


COMPILER_PROCESSES = 256  # nvcc runs a dozen programs (cicc, ptxas, fatbinary, the host compiler, ld)
COMPILER_FILE_BYTES = 1 << 30  # the largest file a compile may write: a library of a few MB, its log


@lru_cache(maxsize=1)
def shell_block_bytes() -> int:
    """The unit of /bin/sh's `ulimit -f`: 512 bytes in dash and in bash's POSIX mode, 1024 in bash otherwise
    (the compile's limit was half the GB intended where sh is dash). Read from the kernel: a shell that set
    `ulimit -f 4` and became `cat /proc/self/limits`; where that cannot be read, 1024 (the limit is then at
    most the one intended, never above it)."""
    try:
        out = subprocess.run(["/bin/sh", "-c", "ulimit -f 4 && exec cat /proc/self/limits"], capture_output=True,
                             text=True, timeout=10).stdout
        for line in out.splitlines():
            if line.startswith("Max file size"):
                value = int(line.split()[3])
                if value % 4 == 0 and value // 4 in (512, 1024):
                    return value // 4
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        pass
    return 1024


def compiler_memory_bytes() -> int:
    """One compile's memory cap: 40% of the machine, between 4 and 16 GB (heavy template code, CUTLASS's,
    takes a few GB in cicc)."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(min(max(0.4 * total, 4 << 30), 16 << 30))


@dataclass(frozen=True)
class BuildConfig:
    contract_dir: Path  # holds hiera_contract.h
    cache_dir: Path
    cuda_arch: str | None = None  # e.g. "90" (from the worker's device); None = the nvcc default
    jobs: int = max(os.cpu_count() or 1, 1)
    timeout_s: float = 120.0
    sandboxed: bool = True
    memory_bytes: int = field(default_factory=compiler_memory_bytes)  # one compile's memory cap


@lru_cache(maxsize=1)
def cudnn_flags() -> tuple[str, ...]:
    """nvcc flags for cuDNN, found by engine.task.libraries.find_cudnn (the exported ModelNew runs the same
    search). Empty when no cudnn.h is found: the build then fails with the compiler's "cudnn.h: No such file"."""
    found = find_cudnn()
    if found is None:
        return ()
    include, libdir, lib = found
    if libdir is None:
        return (f"-I{include}", "-lcudnn")
    return (f"-I{include}", f"-L{libdir}", f"-l{lib}", "-Xlinker", f"-rpath={libdir}")


def _libraries_for(source: str) -> list[str]:
    libs = []
    for name in libraries_called(source):
        libs += (list(cudnn_flags()) or ["-lcudnn"]) if name == "cudnn" else [f"-l{name}"]
    return libs


def compile_command(kind: CandidateKind, src: Path, out: Path, cfg: BuildConfig, source: str,
                    contract_dir: Path | None = None) -> list[str]:
    include = f"-I{contract_dir or cfg.contract_dir}"
    # The recipe the exported file's own build follows too (engine/task/kernel_build.py).
    if kind is CandidateKind.CUDA:
        return [find_nvcc(), *kernel_build.CUDA_FLAGS, *kernel_build.arch_flags(cfg.cuda_arch), include, str(src),
                "-o", str(out), *_libraries_for(source)]
    return [find_cxx(), *kernel_build.CPP_FLAGS, include, str(src), "-o", str(out)]


def _cache_key(cand: Candidate, cfg: BuildConfig) -> str:
    h = hashlib.sha256()
    h.update(cand.kind.value.encode())
    h.update(cand.source.encode())
    header = cfg.contract_dir / "hiera_contract.h"
    h.update(header.read_bytes() if header.exists() else b"")
    h.update((cfg.cuda_arch or "").encode())
    compiler = find_nvcc() if cand.kind is CandidateKind.CUDA else find_cxx()
    h.update(_compiler_version(compiler).encode())
    h.update(_CUDA_SHIM.encode())
    h.update(" ".join(_libraries_for(cand.source)).encode())  # e.g. where cuDNN was found
    return h.hexdigest()[:24]


def _errors_first(log: str) -> str:
    """Compiler output with the error lines first: what a user (or a model) needs to read."""
    lines = log.splitlines()
    errors = [ln for ln in lines if re.search(r"\berror\b", ln, re.IGNORECASE)]
    rest = [ln for ln in lines if ln not in errors]
    return "\n".join(errors[:30] + (["..."] if rest and errors else []) + rest[:60])


@contextlib.contextmanager
def _building(entry: Path) -> Iterator[None]:
    """Held while one build of a cache entry runs: another process or thread building the same source (two
    workers of `hiera bench --devices` on one task, two equal candidates in a batch) waits, then finds the library
    instead of rewriting the source, the log and the sandbox's files under a compiler that is reading them."""
    entry.mkdir(parents=True, exist_ok=True)
    with open(entry / ".build.lock", "a") as f:  # inside the entry: pruned with it
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build_one(cand: Candidate, cfg: BuildConfig) -> BuildResult:
    if cand.kind is CandidateKind.MODELNEW:
        # A ModelNew compiles itself (load_inline) when the worker imports it; nothing to do here.
        return BuildResult(True, None, 0.0, False, "")
    t0 = time.perf_counter()
    key = _cache_key(cand, cfg)
    d = cfg.cache_dir / key
    lib = d / "candidate.so"
    if not lib.exists():
        with _building(d):
            if not lib.exists():  # (built meanwhile by whoever held the lock)
                return _build(cand, cfg, d, lib, t0)
    build_cache.touch(lib)
    return BuildResult(True, str(lib), time.perf_counter() - t0, True, (d / "build.log").read_text()
                       if (d / "build.log").exists() else "")


def _build(cand: Candidate, cfg: BuildConfig, d: Path, lib: Path, t0: float) -> BuildResult:
    """Compile into cache entry `d` (its lock held: _building)."""
    cuda = cand.kind is CandidateKind.CUDA
    src = d / kernel_build.SOURCE_NAME[cuda]
    src.write_text(kernel_build.source_text(cand.source, cuda))
    tmp = d / f"candidate.{os.getpid()}.{id(cand)}.so"
    group = None
    try:
        if cfg.sandboxed:
            # Memory and processes capped like a runner's: a macro or template bomb is stopped in seconds
            # instead of taking the machine's memory until the time limit.
            group = cgroups.make(COMPILER_PROCESSES, cfg.memory_bytes)
            cmd = cgroups.wrap(group, _sandboxed_command(cand, src, tmp, cfg, capped=group is not None
                                                         and group.memory))
        else:
            cmd = compile_command(cand.kind, src, tmp, cfg, cand.source)
    except ToolchainMissing as e:
        return BuildResult(False, None, time.perf_counter() - t0, False, str(e))
    log_path = d / "build.log"
    try:
        # The compiler's output to a file (under its file-size limit), read back in part: a source can make a
        # compiler print gigabytes.
        with open(log_path, "wb") as out:
            proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=cfg.timeout_s,
                                  stdin=subprocess.DEVNULL,
                                  env=None if not cfg.sandboxed else {"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    except subprocess.TimeoutExpired:
        return BuildResult(False, None, time.perf_counter() - t0, False,
                           f"the compiler ran over the build time limit of {cfg.timeout_s:.0f} s (--build-timeout): "
                           "simplify the source (less unrolling or template depth)", " ".join(cmd))
    finally:
        oom = group.oom_kills() if group is not None else 0
        if group is not None:
            group.close()
        shutil.rmtree(d.parent / (d.name + ".sys"), ignore_errors=True)  # the sandbox's made-up /etc files
    log = _read_log(log_path)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0 or not tmp.exists():
        tmp.unlink(missing_ok=True)
        why = _errors_first(log) or f"exit {proc.returncode}"
        if oom:
            why = (f"the compiler was stopped at its memory limit ({cfg.memory_bytes / 2**30:.1f} GB): a source "
                   "that expands without bound (macros, templates) does not build\n" + why)
        return BuildResult(False, None, seconds, False, why, " ".join(cmd))
    try:
        os.replace(tmp, lib)  # atomic: a reader never sees half a file
    except OSError as e:  # the entry removed under it (a cache pruned by hand, say)
        tmp.unlink(missing_ok=True)
        return BuildResult(False, None, seconds, False, f"the build's library could not be kept in the cache: {e}",
                           " ".join(cmd))
    return BuildResult(True, str(lib), seconds, False, log, " ".join(cmd))


def _read_log(path: Path, limit: int = 1 << 20) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(limit)
    except OSError:
        return ""
    return data.decode(errors="replace").strip()


def _sandboxed_command(cand: Candidate, src: Path, out: Path, cfg: BuildConfig, capped: bool = False) -> list[str]:
    """The compiler inside the sandbox: its folder is the scratch (/sandbox), the contract header is
    bound at /contract, and each library folder a flag names is bound read-only where it is."""
    from engine.evaluate import sandbox

    inside_src, inside_out = f"{sandbox.SCRATCH}/{src.name}", f"{sandbox.SCRATCH}/{out.name}"
    cmd = compile_command(cand.kind, Path(inside_src), Path(inside_out), cfg, cand.source, Path("/contract"))
    binds = [sandbox.Bind(str(cfg.contract_dir), "/contract")]
    for arg in cmd:
        for prefix in ("-I", "-L", "-rpath="):
            if arg.startswith(prefix) and arg[len(prefix):].startswith("/") and arg != "-I/contract":
                path = arg[len(prefix):]
                if os.path.isdir(path) and not path.startswith("/usr/"):
                    binds.append(sandbox.Bind(path, path))
    compiler = os.path.realpath(cmd[0])
    home = str(Path(compiler).parent.parent)
    if not home.startswith("/usr/"):
        binds.append(sandbox.Bind(home, home))
    env = {"PATH": f"{Path(cmd[0]).parent}:{Path(compiler).parent}:/usr/local/bin:/usr/bin:/bin"}
    # No /sys at all: neither g++ nor nvcc reads it, and it holds the host's network addresses and firmware.
    policy = sandbox.Policy(scratch=src.parent, binds=tuple(binds), env=env, tmp_bytes=4 << 30, sys_dirs=())
    # Limits from the shell before the compiler starts: no core files, no file over COMPILER_FILE_BYTES (its
    # output library, its log), bounded CPU time; address space where no cgroup caps its memory.
    memory = "" if capped else f"ulimit -v {cfg.memory_bytes >> 10}; "
    limited = ["/bin/sh", "-c", f"ulimit -c 0; ulimit -f {COMPILER_FILE_BYTES // shell_block_bytes()}; "
               f'ulimit -t {int(cfg.timeout_s) + 30}; {memory}exec "$@"', "sh", *cmd]
    return sandbox.command(policy, limited)


def build_many(cands: Sequence[Candidate], cfg: BuildConfig) -> dict[str, BuildResult]:
    """Build a batch in parallel (one compiler process per core); results by candidate id."""
    if not cands:
        return {}
    with ThreadPoolExecutor(max_workers=min(cfg.jobs, len(cands))) as pool:
        results = list(pool.map(lambda c: build_one(c, cfg), cands))
    # The cache under its cap, this batch's libraries kept (they are loaded next).
    build_cache.prune(cfg.cache_dir, keep={Path(r.artifact).parent.name for r in results if r.artifact})
    return {c.id: r for c, r in zip(cands, results)}
