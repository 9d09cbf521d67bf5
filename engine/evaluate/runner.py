"""The candidate runner: the one process that loads and calls candidate code, inside the sandbox.

Started by the checker (candidate_process.py) as `python -I [-S] /hiera/runner.py FD LIMITS_JSON` under
bubblewrap, one fresh process per candidate. It sets its own resource limits, maps the exchange buffers the
checker shares with it, and answers the checker's requests (wire.py) one at a time: load the candidate,
call it on the current buffer contents, time a call. Everything here runs before the candidate is loaded
or around its calls, and nothing of it is trusted once the candidate is loaded: the checker decides every
verdict from the buffers it shares and its own clock.

Contract (.so) candidates run in a runner with no torch at all (`-S`: no site-packages in the sandbox
either): the candidate gets raw pointers through the contract's C ABI, and there is no ATen or task Model
within reach. A ModelNew (.py) candidate needs torch; in the restricted spaces its forward is audited for
ATen compute operators (a best effort: code in the same process can defeat it, which the README says).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import mmap
import os
import random
import resource
import sys
import threading
import time
import traceback
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cudadrv
import heap_policy
import wire

_perf_counter = time.perf_counter


def _threads() -> set[str]:
    """This process's threads, by id."""
    try:
        return set(os.listdir("/proc/self/task"))
    except OSError:
        return set()


def _contiguous_strides(shape: tuple[int, ...]) -> list[int]:
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return list(reversed(strides))


def _view(ptr: int, shape: tuple[int, ...]) -> wire.HieraTensor:
    return wire.tensor_view(ptr, shape, _contiguous_strides(shape))


def buffer_groups(buffers: list[wire.Buffer]) -> dict[int, dict[str, list[wire.Buffer]]]:
    """The buffers by set of shapes and role: set 0 is the task's own (and holds every state buffer); a call on
    set k reads set 0's state."""
    groups: dict[int, dict[str, list[wire.Buffer]]] = {0: {}}
    for b in buffers:
        groups.setdefault(b.group, {}).setdefault(b.role, []).append(b)
    return groups


def _burst_sets(groups: dict[int, Any], count: Any) -> list[Any]:
    """The first `count` back-to-back sets (groups -1, -2, ...) of `groups`."""
    sets = [groups[g] for g in sorted((g for g in groups if g < 0), reverse=True)]
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= len(sets):
        raise Refused("protocol", f"a burst of {count!r} calls (there are {len(sets)} back-to-back sets)")
    return sets[:count]


def select_group(groups: dict[int, Any], group: Any) -> Any:
    if isinstance(group, bool) or not isinstance(group, int) or group not in groups:
        raise Refused("protocol", f"no set of buffers {group!r}")
    return groups[group]


def call_args(tensors: list[Any], scalars: dict[str, Any]) -> list[Any]:
    """A ModelNew's forward arguments: the call's tensors, with the forward's non-tensor arguments
    (wire.CALL_ARGS, sent by the checker) back at their positions."""
    fixed = scalars.get(wire.CALL_ARGS) if isinstance(scalars, dict) else None
    if not fixed:
        return list(tensors)
    try:
        at = {int(i): v for i, v in fixed}
    except (TypeError, ValueError) as e:
        raise Refused("protocol", f"non-tensor arguments that are not [position, value] pairs: {fixed!r}"[:300]) from e
    it = iter(tensors)
    try:
        return [at[k] if k in at else next(it) for k in range(len(tensors) + len(at))]
    except StopIteration as e:
        raise Refused("protocol", f"non-tensor arguments at positions {sorted(at)} beside {len(tensors)} tensors "
                                  "leave a gap") from e


class Refused(Exception):
    """A request this runner answers with ok=False: kind (wire.ERROR_KINDS) and the detail."""

    def __init__(self, kind: str, detail: str, fatal: bool = False, suspect: bool = False):
        super().__init__(detail)
        self.kind, self.detail, self.fatal, self.suspect = kind, detail, fatal, suspect


def _set_limits(limits: dict[str, int]) -> None:
    # Lowered before any candidate code runs; a process inside the sandbox cannot raise them again.
    for name, key in (("file_bytes", resource.RLIMIT_FSIZE), ("cpu_s", resource.RLIMIT_CPU),
                      ("address_bytes", resource.RLIMIT_AS), ("processes", resource.RLIMIT_NPROC),
                      ("data_bytes", resource.RLIMIT_DATA)):
        value = limits.get(name)
        if value:
            _, hard = resource.getrlimit(key)
            cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(key, (cap, cap))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


# --- shared buffers ---------------------------------------------------------------------------------------

def _cpu_map(b: wire.Buffer, fds: list[int]) -> mmap.mmap:
    """One CPU exchange buffer: the memory file the checker sent (memfd:I), mapped shared, whole: the checker's
    canary bytes after the buffer (exchange.py) are in it, so a write past the buffer's end lands where the
    checker sees it."""
    kind, _, index = b.handle.partition(":")
    if kind != "memfd":
        raise ValueError(f"a CPU buffer handed as {b.handle!r}, not a memory file")
    fd = fds[int(index)]
    return mmap.mmap(fd, max(os.fstat(fd).st_size, b.nbytes, 1), mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)


class CpuBuffers:
    """Exchange buffers as the checker's memory files, mapped into this process (each file once: the
    back-to-back sets share one, at offsets)."""

    def __init__(self, buffers: list[wire.Buffer], fds: list[int]):
        self.maps: dict[str, mmap.mmap] = {}  # by handle
        self.ptrs: dict[str, int] = {}
        for b in buffers:
            if b.handle not in self.maps:
                self.maps[b.handle] = _cpu_map(b, fds)
            m = self.maps[b.handle]
            if b.offset < 0 or b.offset + b.nbytes > len(m):
                raise ValueError(f"buffer {b.name!r} lies outside its memory file")
            self.ptrs[b.name] = ctypes.addressof(ctypes.c_char.from_buffer(m)) + b.offset


class CudaBuffers:
    """Exchange buffers as the checker's device allocations, mapped into this process's context (each
    allocation once: the back-to-back sets share one, at offsets)."""

    def __init__(self, buffers: list[wire.Buffer], drv: cudadrv.Driver, fds: list[int]):
        self.ptrs: dict[str, int] = {}
        opened: dict[str, int] = {}
        for b in buffers:
            if b.handle not in opened:
                kind, _, rest = b.handle.partition(":")
                if kind == "fd":
                    index, size = (int(x) for x in rest.split(":"))
                    opened[b.handle] = drv.shareable_open(fds[index], size)
                else:
                    opened[b.handle] = drv.ipc_open(rest)
            self.ptrs[b.name] = opened[b.handle] + b.offset


# --- backends ---------------------------------------------------------------------------------------------

class NativeBackend:
    """A contract candidate: hiera_forward(tensors..., scalars..., outputs..., stream) through ctypes."""

    def __init__(self, setup: wire.Setup, fds: list[int]):
        self.setup = setup
        self.gpu = setup.cuda_index is not None
        self.drv: cudadrv.Driver | None = None
        if self.gpu:
            self.drv = cudadrv.Driver(setup.cuda_index or 0)
            self.buffers: Any = CudaBuffers(setup.buffers, self.drv, fds)
            self.flush_ptr = self.drv.alloc(setup.flush_bytes) if setup.flush_bytes else 0
            self.start, self.end = self.drv.event(), self.drv.event()
            n_out = sum(1 for b in setup.buffers if b.role == "output")
            self.snap_ptr = self.drv.alloc(max(n_out, 1) * self._CHUNKS * self._CHUNK)
            self.host_a = ctypes.create_string_buffer(self._CHUNK)
            self.host_b = ctypes.create_string_buffer(self._CHUNK)
        else:
            self.buffers = CpuBuffers(setup.buffers, fds)
            self.flush_buf = ctypes.create_string_buffer(max(setup.flush_bytes, 1))
        self._rng = random.Random()
        self.groups = buffer_groups(setup.buffers)
        self.by_role = self.groups[0]  # the set of shapes the current call uses (call's `group`)
        self.views = {b.name: _view(self.buffers.ptrs[b.name], b.shape) for b in setup.buffers}
        self.fn: Any = None
        self._burst_key: str | None = None
        self._burst_args: list[list[Any]] = []

    def load(self) -> None:
        self.attempts = Attempts(watch_imports=True)
        try:
            self.lib = ctypes.CDLL(self.setup.artifact, mode=ctypes.RTLD_LOCAL)
            self.fn = self.lib.hiera_forward
        except (OSError, AttributeError) as e:
            raise Refused("load", f"cannot load the candidate library: {e}") from e
        self.fn.restype = ctypes.c_int
        assert self.setup.contract is not None
        self.fn.argtypes = wire.forward_argtypes(self.setup.contract)
        self.peek = getattr(self.lib, "hiera_peek_last_error", None)
        if self.peek is not None:
            self.peek.restype = ctypes.c_int
            self.err_string = self.lib.hiera_error_string
            self.err_string.restype = ctypes.c_char_p
            self.err_string.argtypes = [ctypes.c_int]

    def _args(self, scalars: dict[str, Any], roles: dict[str, list[wire.Buffer]] | None = None) -> list[Any]:
        """hiera_forward's arguments on one set of buffers (`roles`; the current call's set by default)."""
        assert self.setup.contract is not None
        roles = self.by_role if roles is None else roles
        inputs = iter(roles.get("input", []))
        values: list[Any] = []
        for a in self.setup.contract["args"]:
            if a["role"] == "input" and a["tensor"]:
                values.append(ctypes.byref(self.views[next(inputs).name]))
            elif a["role"] in ("parameter", "buffer"):
                values.append(ctypes.byref(self.views[f"{a['role']} {a['name']}"]))
            else:
                v = scalars.get(a["name"], 0)
                values.append(float(v) if a["dtype"] == "float64" else int(v))
        values += [ctypes.byref(self.views[b.name]) for b in roles.get("output", [])]
        values.append(None)  # the legacy default stream, as the contract documents
        return values

    def burst(self, scalars: dict[str, Any], count: int) -> float:
        """`count` calls back to back, the i-th on back-to-back set -(i+1): no flush, synchronize or check
        between them, one device-wide synchronize at the end. The checker times the whole request by its own
        clock and verifies a secret sample of the sets afterwards (back_to_back.py). Returns this process's own
        account of the calls and the final synchronize, in ms: recorded beside the checker's clock to tell where
        a burst's time went, never used for a figure."""
        sets = _burst_sets(self.groups, count)
        key = json.dumps(scalars, sort_keys=True)
        if count and (self._burst_key != key or len(self._burst_args) < count):
            # Built once: the checker's first burst is an untimed warm-up.
            self._burst_args = [self._args(scalars, roles) for roles in sets]
            self._burst_key = key
        fn = self.fn
        if self.gpu:
            assert self.drv is not None
            self.drv.synchronize()
        t0 = time.perf_counter()
        if not count and self.gpu and self.snap_ptr:
            # The calibration's stand-in for a burst's first launch: the device switching to this process's
            # context from the checker's, which had just written the sets (0.3-0.7 ms a burst on the H200).
            self.drv.memset_async(self.snap_ptr, 0, 4)
        for i, args in enumerate(self._burst_args[:count]):
            rc = fn(*args)
            if rc != 0:
                what = wire.GENERATED_CODES.get(rc)
                raise Refused("call", f"back-to-back call {i + 1}: hiera_forward returned {rc}" +
                              (f" ({what})" if what else ""))
        if self.gpu:
            assert self.drv is not None
            if count:  # the library (and its error peek) is there once loaded; an empty burst comes before
                self._launch_error()
            try:
                self.drv.synchronize()
            except cudadrv.CudaError as e:
                raise Refused("call", f"CUDA error while the candidate ran back to back: {e}", fatal=True) from e
        ms = (time.perf_counter() - t0) * 1e3
        if count and self.attempts.seen:
            raise Refused("space", "hiera_forward ran Python in its host process: " + "; ".join(self.attempts.seen))
        return ms

    def call(self, scalars: dict[str, Any], timed: bool, flush: bool, stub: bool = False, group: int = 0
             ) -> float | None:
        """One call on set `group`'s inputs and outputs; `stub` runs the same procedure without the candidate
        (the checker's calibration)."""
        self.by_role = select_group(self.groups, group)
        args = self._args(scalars)
        ms = None
        rc = 0
        if self.gpu:
            assert self.drv is not None
            self.drv.synchronize()
            if flush and self.flush_ptr:
                self.drv.reset_persisting_l2()
                self.drv.memset_async(self.flush_ptr, 1, self.setup.flush_bytes)
                self.drv.memset_async(self.flush_ptr, 0, self.setup.flush_bytes)
            if timed:
                self.drv.record(self.start)
            if not stub:
                rc = self.fn(*args)
            if timed:
                self.drv.record(self.end)
            self._snapshot()
            if not stub:
                self._launch_error()
            try:
                self.drv.synchronize()
            except cudadrv.CudaError as e:
                raise Refused("call", f"CUDA error while the candidate ran: {e}", fatal=True) from e
            self._check_settled()
            if timed:
                ms = self.drv.elapsed_ms(self.start, self.end)
        else:
            if flush:
                self.flush_caches()
            threads = _threads()
            t0 = _perf_counter()
            if not stub:
                rc = self.fn(*args)
            if timed:
                ms = (_perf_counter() - t0) * 1e3
            self._check_settled_cpu(threads)
        if not stub and self.attempts.seen:
            # Native code that drives the Python interpreter it was loaded into (to run torch, say) has left
            # the contract: whatever it then returned, that is the verdict.
            raise Refused("space", "hiera_forward ran Python in its host process: " + "; ".join(self.attempts.seen))
        if rc != 0:
            what = wire.GENERATED_CODES.get(rc)
            raise Refused("call", f"hiera_forward returned {rc} (non-zero means failure" +
                          (f"; from hiera's generated code, {rc} means: {what})" if what else ")"))
        return ms

    # The outputs must be complete when hiera_forward returns: work on a stream of its own that the caller's
    # stream does not wait for would finish outside the timed interval. A copy of each output is taken on the
    # caller's stream right after the call and compared with the output once the device is idle.
    # Sampled chunks (the first, the last and random ones in between) keep the cost independent of the
    # output's size.
    _CHUNKS, _CHUNK = 16, 1 << 16

    def flush_caches(self) -> None:
        """Empty the caches (the checker asks for it as a request of its own before a timed call on the CPU,
        so that the time it measures around the call does not hold a 64 MB memset)."""
        if self.gpu:
            assert self.drv is not None
            if self.flush_ptr:
                self.drv.reset_persisting_l2()
                self.drv.memset_async(self.flush_ptr, 1, self.setup.flush_bytes)
                self.drv.memset_async(self.flush_ptr, 0, self.setup.flush_bytes)
        else:
            ctypes.memset(self.flush_buf, 1, len(self.flush_buf))

    def _chunks(self) -> list[tuple[int, int, int]]:
        """(output index, start, length) of the sampled chunks: the first, the last and random ones."""
        out = []
        for i, b in enumerate(self.by_role.get("output", [])):
            n = min(self._CHUNK, b.nbytes)
            last = max(b.nbytes - n, 0)
            starts = sorted({0, last} | {self._rng.randrange(0, last + 1) for _ in range(self._CHUNKS - 2)})
            out += [(i, start, n) for start in starts[: self._CHUNKS]]
        return out

    def _check_settled_cpu(self, threads_before: set[str]) -> None:
        """The CPU path's version of the GPU's snapshot check: outputs must not change after hiera_forward
        returns (worker threads it started still writing them). Sampled chunks now, again after a moment when
        the call left new threads running."""
        outs = self.by_role.get("output", [])
        taken = [(i, start, n, ctypes.string_at(self.buffers.ptrs[outs[i].name] + start, n))
                 for i, start, n in self._chunks()]
        lingering = _threads() - threads_before
        if lingering:
            time.sleep(0.2)
        for i, start, n, data in taken:
            if ctypes.string_at(self.buffers.ptrs[outs[i].name] + start, n) != data:
                where = f"{len(lingering)} thread(s) it started" if lingering else "a thread of its own"
                raise Refused("output", f"output {i} was still being written after hiera_forward returned "
                                        f"({where})", suspect=True)

    def _snapshot(self) -> None:
        assert self.drv is not None
        self._taken: list[tuple[int, int, int, int]] = []  # (output index, start, length, snapshot offset)
        outs = self.by_role.get("output", [])
        for slot, (i, start, n) in enumerate(self._chunks()):
            self.drv.copy_async(self.snap_ptr + slot * self._CHUNK, self.buffers.ptrs[outs[i].name] + start, n)
            self._taken.append((i, start, n, slot * self._CHUNK))

    def _check_settled(self) -> None:
        assert self.drv is not None
        outs = self.by_role.get("output", [])
        for i, start, n, slot in self._taken:
            self.drv.copy_to_host(self.host_a, self.snap_ptr + slot, n)
            self.drv.copy_to_host(self.host_b, self.buffers.ptrs[outs[i].name] + start, n)
            if ctypes.string_at(self.host_a, n) != ctypes.string_at(self.host_b, n):
                raise Refused("output", f"output {i} was still being written after hiera_forward returned "
                                        "(work on an unsynchronized stream)", suspect=True)

    def _launch_error(self) -> None:
        if self.peek is not None:
            err = self.peek()
            if err != 0:
                raise Refused("call", f"CUDA error after hiera_forward: {self.err_string(err).decode()}",
                              fatal=err in (700, 701, 702, 710, 714, 715, 716, 719))


def _forward_failed(e: BaseException, gpu: bool, what: str) -> Refused:
    """A ModelNew's forward that raised; fatal where it was a CUDA error (the context is then unusable)."""
    return Refused("call", f"{what} raised {type(e).__name__}: {str(e)[:1500]}", fatal=gpu and "CUDA" in str(e))


class ModelNewBackend:
    """A KernelBench ModelNew file: imported, constructed per trial with the checker's weights, called."""

    # ATen operators a candidate confined to pure CUDA or CUDA libraries may still dispatch from Python:
    # allocation, views, copies and metadata, never compute.
    ALLOWED_OPS: frozenset[str] = frozenset({
        "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros", "zeros_like",
        "new_zeros", "zero_", "fill_", "full", "full_like", "view", "_unsafe_view", "reshape", "as_strided",
        "t", "transpose", "permute", "expand", "squeeze", "unsqueeze", "contiguous", "clone", "copy_",
        "_to_copy", "to", "detach", "alias", "lift_fresh", "slice", "select", "narrow", "unbind", "split",
        "resize_", "set_", "_local_scalar_dense", "view_as", "flatten", "unflatten", "sym_size", "sym_stride",
        "is_same_size", "_reshape_alias", "split_with_sizes", "lift_fresh_copy",
    })

    def __init__(self, setup: wire.Setup, fds: list[int]):
        import torch

        self.torch = torch
        self.setup = setup
        self.device = torch.device(setup.device)
        tf32 = setup.precision == "tf32"
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32
        torch.set_float32_matmul_precision("high" if tf32 else "highest")
        self.flags_before = self._precision_flags()
        self.watched = self._watched()
        self.originals = [getattr(obj, attr) for _, obj, attr in self.watched]
        if setup.threads:
            torch.set_num_threads(setup.threads)
        dtypes = {name: getattr(torch, name) for name in wire.DTYPE_BYTES}
        if self.device.type == "cuda":
            torch.cuda.set_device(self.device)
            torch.cuda.init()
            torch.empty(1, device=self.device)  # the primary context, made by torch first
            self.drv = cudadrv.Driver(self.device.index or 0)
            ptrs = CudaBuffers(setup.buffers, self.drv, fds).ptrs
            self.tensors = {b.name: self._from_pointer(ptrs[b.name], b, dtypes[b.dtype]) for b in setup.buffers}
            self.flush = torch.empty(max(setup.flush_bytes, 1), dtype=torch.uint8, device=self.device)
        else:
            self.tensors = {}
            self.maps = {}  # by handle: the back-to-back sets share one memory file
            for b in setup.buffers:
                if b.handle not in self.maps:
                    self.maps[b.handle] = torch.frombuffer(_cpu_map(b, fds), dtype=torch.uint8)
                raw = self.maps[b.handle]
                self.tensors[b.name] = raw[b.offset:b.offset + b.nbytes].view(dtypes[b.dtype]).view(b.shape)
            self.flush = torch.empty(max(setup.flush_bytes, 1), dtype=torch.uint8)
        self.groups = {k: ([self.tensors[b.name] for b in roles.get("input", [])],
                           [self.tensors[b.name] for b in roles.get("output", [])])
                       for k, roles in buffer_groups(setup.buffers).items()}
        self.inputs, self.outputs = self.groups[0]  # the current call's set (call's `group`)
        self.state = {n: self.tensors[b.name] for n, b in
                      zip(setup.state_names, [b for b in setup.buffers if b.role == "state"])}
        self.model: Any = None
        self.previous: list[Any] = []
        self.previous_ptrs: list[int] = []
        # Each call is a new step for torch.compile's CUDA-graph trees (mode="max-autotune" or
        # "reduce-overhead"): the last call's outputs, copied out already, may be overwritten. Without it they
        # refuse the second call ("accessing tensor output of CUDAGraphs that has been overwritten").
        self.new_step = getattr(getattr(self.torch, "compiler", None), "cudagraph_mark_step_begin", None)
        self.notes: list[str] = []

    def _watched(self) -> list[tuple[str, Any, str]]:
        """What a cheat patches to look fast or correct. The checker does not rely on any of it (it times
        and compares on its own side); a patch is reported because it is an attempt."""
        t = self.torch
        return [("time", time, "perf_counter"), ("time", time, "perf_counter_ns"), ("time", time, "time"),
                ("time", time, "monotonic"), ("torch", t, "allclose"), ("torch", t, "equal"),
                ("torch.Tensor", t.Tensor, "clone"), ("torch.Tensor", t.Tensor, "copy_"),
                ("torch.cuda", t.cuda, "synchronize"), ("torch.cuda", t.cuda, "Event"),
                ("torch.cuda.Event", t.cuda.Event, "elapsed_time"), ("torch.cuda.Event", t.cuda.Event, "record")]

    def _tampered(self) -> list[str]:
        return [f"{label}.{attr} was replaced" for (label, obj, attr), orig in zip(self.watched, self.originals)
                if getattr(obj, attr) is not orig]

    def _precision_flags(self) -> tuple[Any, ...]:
        t = self.torch
        return (t.backends.cuda.matmul.allow_tf32, t.backends.cudnn.allow_tf32, t.get_float32_matmul_precision(),
                t.backends.cuda.matmul.allow_fp16_reduced_precision_reduction)

    def _from_pointer(self, ptr: int, b: wire.Buffer, dtype: Any) -> Any:
        raw = self.torch.as_tensor(cudadrv.DeviceArray(ptr, b.nbytes), device=self.device)
        return raw[: b.nbytes].view(dtype).view(b.shape)

    def load(self) -> None:
        import importlib.util

        self.attempts = Attempts()
        try:
            spec = importlib.util.spec_from_file_location("hiera_candidate", self.setup.artifact)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules["hiera_candidate"] = module
            spec.loader.exec_module(module)
        except BaseException as e:
            raise Refused("load", f"importing the candidate raised {type(e).__name__}: {str(e)[:1500]}") from e
        if not hasattr(module, "ModelNew"):
            raise Refused("load", "the candidate file defines no class ModelNew")
        self._check_tamper("loading the candidate")
        self.module = module

    def construct(self, seed: int) -> None:
        torch = self.torch
        try:
            torch.manual_seed(seed)
            model = self.module.ModelNew(*self.setup.init_args)
            if set(model.state_dict()) == set(self.state):
                model.load_state_dict({k: v for k, v in self.state.items()})
            self.model = model.to(self.device).eval()
        except BaseException as e:
            raise Refused("call", f"ModelNew(*get_init_inputs()) raised {type(e).__name__}: {str(e)[:1500]}") from e

    def call(self, scalars: dict[str, Any], timed: bool, flush: bool, stub: bool = False, group: int = 0
             ) -> float | None:
        """One call on set `group`'s inputs and outputs; `stub` runs the same procedure with a stand-in for the
        forward that returns copies of the output buffers (the checker's calibration, before the candidate
        loads)."""
        torch = self.torch
        self.inputs, self.outputs = select_group(self.groups, group)
        gpu = self.device.type == "cuda"
        audit = self._audit() if self.setup.space != "libraries_pytorch" else None
        ms = None
        try:
            if gpu:
                torch.cuda.synchronize()
            if flush:
                self.flush_caches()
            threads_before = set(threading.enumerate())
            # Only once CUDA-graph trees are in use: the call imports Inductor (seconds) otherwise.
            if (self.new_step is not None and not stub and audit is None
                    and "torch._inductor.cudagraph_trees" in sys.modules):
                self.new_step()  # outside the timed span
            with torch.no_grad():
                if gpu and timed:
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                t0 = _perf_counter()
                if stub:
                    out = [o.clone() for o in self.outputs]
                elif audit is not None:
                    with audit:
                        out = self.model(*call_args(self.inputs, scalars))
                else:
                    out = self.model(*call_args(self.inputs, scalars))
                if timed:
                    if gpu:
                        end.record()
                    else:
                        ms = (_perf_counter() - t0) * 1e3
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            self._check_outputs(outs)
            self._check_settled(outs, threads_before)
            if gpu and timed:
                ms = start.elapsed_time(end)
            for dst, src in zip(self.outputs, outs):
                dst.copy_(src)
            if gpu:
                torch.cuda.synchronize()
        except Refused:
            raise
        except BaseException as e:
            raise _forward_failed(e, gpu, "forward") from e
        if audit is not None and audit.violations:
            names = ", ".join(sorted(audit.violations)[:8])
            raise Refused("space", f"the forward dispatched ATen compute operators ({names}), which the "
                                   f"{self.setup.space} space does not allow")
        if not stub:
            self._check_tamper("the candidate")
        return ms

    def burst(self, scalars: dict[str, Any], count: int) -> float:
        """`count` forwards back to back, the i-th on back-to-back set -(i+1), its outputs copied into that
        set's buffers (as a call's are, outside its timed span: here inside the checker's clock, and the
        checker takes the same copies off); one device-wide synchronize at the end. Returns this process's own
        account in ms, as NativeBackend.burst."""
        torch = self.torch
        sets = _burst_sets(self.groups, count)
        gpu = self.device.type == "cuda"
        graphs = self.new_step is not None and "torch._inductor.cudagraph_trees" in sys.modules
        try:
            if gpu:
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            if gpu and not count:
                self.flush[:1].fill_(0)  # the calibration's first launch, as NativeBackend.burst's
            with torch.no_grad():
                for i, (inputs, outputs) in enumerate(sets):
                    if graphs:
                        self.new_step()
                    out = self.model(*call_args(inputs, scalars))
                    outs = list(out) if isinstance(out, (tuple, list)) else [out]
                    if len(outs) != len(outputs):
                        raise Refused("output", f"back-to-back call {i + 1} returned {len(outs)} outputs, not "
                                                f"{len(outputs)}")
                    for dst, src in zip(outputs, outs):
                        dst.copy_(src)
            if gpu:
                torch.cuda.synchronize()
            ms = (time.perf_counter() - t0) * 1e3
        except Refused:
            raise
        except BaseException as e:
            raise _forward_failed(e, gpu, "back-to-back forward") from e
        if count:
            self._check_tamper("the candidate")
        return ms

    def flush_caches(self) -> None:
        if self.device.type == "cuda":
            self.drv.reset_persisting_l2()
        self.flush.fill_(1)
        self.flush.fill_(0)

    def _check_tamper(self, who: str) -> None:
        if self.attempts.seen:
            raise Refused("output", f"{who} tried what the sandbox forbids: " + "; ".join(self.attempts.seen),
                          suspect=True)
        changed = self._tampered()
        names = ("torch.backends.cuda.matmul.allow_tf32", "torch.backends.cudnn.allow_tf32",
                 "torch.get_float32_matmul_precision()",
                 "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction")
        changed += [f"{n} changed from {a!r} to {b!r}" for n, a, b in
                    zip(names, self.flags_before, self._precision_flags()) if a != b]
        if changed:
            raise Refused("output", f"{who} tampered with the evaluator: " + "; ".join(changed), suspect=True)

    def _check_settled(self, outs: list[Any], threads_before: set[Any]) -> None:
        """The outputs must be complete when forward returns: work left on another stream or a thread the
        candidate started would finish outside the timed interval. Snapshot on the caller's stream, then wait
        (device-wide; and a moment for new threads), then compare."""
        torch = self.torch
        gpu = self.device.type == "cuda"
        snapshot = [o.clone() for o in outs]
        if gpu:
            torch.cuda.current_stream(self.device).synchronize()
        lingering = [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]
        time.sleep(0.2 if lingering else 0.0)
        if gpu:
            torch.cuda.synchronize()
        for i, (a, b) in enumerate(zip(snapshot, outs)):
            settled = b.detach().contiguous().reshape(-1).view(torch.uint8)
            if not torch.equal(a.reshape(-1).view(torch.uint8), settled):
                where = f"{len(lingering)} background thread(s) it started" if lingering else \
                    "work on an unsynchronized stream"
                raise Refused("output", f"output {i} was still being written after forward returned ({where})",
                              suspect=True)

    def _check_outputs(self, outs: list[Any]) -> None:
        torch = self.torch
        if len(outs) != len(self.outputs):
            raise Refused("output", f"returned {len(outs)} outputs, the reference returns {len(self.outputs)}")
        for i, (o, e) in enumerate(zip(outs, self.outputs)):
            label = f"output {i}" if len(outs) > 1 else "the output"
            if not isinstance(o, torch.Tensor):
                raise Refused("output", f"{label} is a {type(o).__name__}, not a tensor")
            if type(o) is not torch.Tensor:
                raise Refused("output", f"{label} is a tensor subclass ({type(o).__name__}); lazy or deferred "
                                        "outputs are not allowed: return a plain torch.Tensor holding the result",
                              suspect=True)
            if tuple(o.shape) != tuple(e.shape):
                raise Refused("output", f"{label} has shape {tuple(o.shape)}, expected {tuple(e.shape)}")
            if o.dtype != e.dtype:
                raise Refused("output", f"{label} has dtype {o.dtype}, expected {e.dtype}")
            if o.device != e.device:
                raise Refused("output", f"{label} is on {o.device}, expected {e.device}")
        owned = [("input", i, t) for i, t in enumerate(self.inputs)]
        owned += [("parameter", k, t) for k, t in self.state.items()]
        for i, o in enumerate(outs):
            if o.numel() == 0:
                continue
            a0 = o.untyped_storage().data_ptr()
            a1 = a0 + o.untyped_storage().nbytes()
            for role, key, t in owned:
                b0 = t.untyped_storage().data_ptr()
                if t.numel() and a0 < b0 + t.untyped_storage().nbytes() and b0 < a1:
                    raise Refused("output", f"output {i} shares memory with {role} {key} (returns an input or a view "
                                            "of it instead of computing a new result)", suspect=True)
        for i, o in enumerate(outs):
            if o.device.type == "cpu" and o.numel() and not o.untyped_storage().resizable():
                # Memory torch did not allocate can be filled lazily: pages mapped PROT_NONE and written by a
                # fault handler when the output is first read, after the call has returned.
                raise Refused("output", f"output {i} is held in memory torch's allocator does not own (from_numpy, "
                                        "frombuffer, from_blob, a mapping): return a tensor torch allocated "
                                        "(.clone() one), so that its contents exist when forward returns")
        # Outputs that the next call overwrites (CUDA-graph static outputs): the candidate is still judged on
        # each call's result, but a user keeping them must clone them.
        # The previous call's outputs are held until now, so their memory cannot have been handed out again: the
        # same address means the same buffer.
        # The addresses are read now: a CUDA-graph output of the last call may not be touched once the next
        # call has run (its data_ptr() raises), though the tensor object is still held.
        ptrs = [o.data_ptr() for o in outs]
        note = ("its outputs are overwritten by its next call (static output buffers, as CUDA-graph replay has): "
                "clone them to keep a result")
        if any(p in self.previous_ptrs for p in ptrs if p) and note not in self.notes:
            self.notes.append(note)
        self.previous, self.previous_ptrs = list(outs), ptrs

    def _audit(self) -> Any:
        from torch.utils._python_dispatch import TorchDispatchMode

        allowed = self.ALLOWED_OPS

        class Audit(TorchDispatchMode):
            def __init__(self) -> None:
                super().__init__()
                self.violations: set[str] = set()

            def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
                name = func.overloadpacket.__name__
                if name not in allowed:
                    self.violations.add(f"aten.{name}")
                return func(*args, **(kwargs or {}))

        return Audit()


# --- attempts the sandbox stops, reported -----------------------------------------------------------------

class Attempts:
    """A Python audit hook, installed before the candidate loads (and, by Python's design, impossible to remove):
    it notes what the sandbox is there to stop — a network connection, a write outside the candidate's own
    folders, a signal to a process group — so the outcome says the candidate tried, instead of only failing
    with a confusing error. Containment does not depend on it: native code bypasses it, the sandbox does not."""

    WRITABLE = ("/sandbox", "/tmp", "/dev/shm", "/dev/null", "/proc/self", "/compile-cache")

    def __init__(self, watch_imports: bool = False) -> None:
        self.seen: list[str] = []
        # A contract candidate's runner imports nothing once it is running: an import then is the candidate
        # using the interpreter around it.
        self.watch_imports = watch_imports
        # Unsandboxed (--no-sandbox) the scratch folder is the working directory.
        self.writable = (*self.WRITABLE, os.getcwd(),
                         os.path.dirname(os.environ.get("TORCHINDUCTOR_CACHE_DIR") or "/compile-cache/x"))
        sys.addaudithook(self._hook)

    def _note(self, what: str) -> None:
        if len(self.seen) < 8 and what not in self.seen:
            self.seen.append(what)

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        try:
            if self.watch_imports and event in ("import", "exec", "compile"):
                what = args[0] if args and isinstance(args[0], str) else event
                self._note(f"{event} {what!r}" if event == "import" else f"{event} of Python code")
            elif event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
                address = args[1] if len(args) > 1 else None
                if not isinstance(address, (str, bytes)):  # a Unix socket path is local; anything else is not
                    self._note(f"opened a network connection to {address!r}")
            elif event == "open" and len(args) >= 2:
                path, mode = args[0], args[1]
                flags = args[2] if len(args) > 2 else 0
                writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or \
                    (isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
                if writing and isinstance(path, (str, bytes)):
                    p = os.path.abspath(os.fsdecode(path))
                    if not p.startswith(self.writable):
                        self._note(f"wrote to {p} (a candidate may write only in its scratch folder)")
            elif event == "os.kill" and len(args) >= 1 and isinstance(args[0], int) and args[0] <= 0:
                self._note(f"sent signal {args[1] if len(args) > 1 else '?'} to process group {args[0]}")
            elif event == "os.killpg":
                self._note("sent a signal to a process group")
        except Exception:  # an audit hook must never raise into the code it watches
            pass


# --- the request loop -------------------------------------------------------------------------------------

# How long a GPU runner polls for its next request before it blocks (wire.wait_hot): longer than the checker's
# work between two timed calls (writing and checking a call's buffers), short enough that a runner left waiting
# (the checker building or timing something else) gives its core back. Not on the CPU: there the call's caches
# are flushed for both sides, the figure is the checker's clock, and a polling runner on a 2-core machine took
# a core from the checker (the reference's own forward read 0.16-0.31x instead of 0.56-0.64x).
HOT_WAIT_S = 0.05


def serve(sock: Any) -> None:
    fds = wire.recv_fds(sock)
    setup_msg = wire.recv(sock)
    try:
        setup = wire.Setup.from_json(setup_msg["setup"])
        backend: Any = ModelNewBackend(setup, fds) if setup.kind == "modelnew" else NativeBackend(setup, fds)
    except BaseException as e:
        wire.send(sock, {"id": setup_msg.get("id"), "ok": False, "error": "setup",
                         "detail": f"{type(e).__name__}: {e}"[:2000] + "\n" + traceback.format_exc(limit=4)[-1500:]})
        return
    wire.send(sock, {"id": setup_msg.get("id"), "ok": True})
    calibrated_once_loaded = False
    hot_wait_s = HOT_WAIT_S if setup.cuda_index is not None else 0.0
    while True:
        if hot_wait_s:
            wire.wait_hot(sock, hot_wait_s)
        req = wire.recv(sock)
        rid, op = req.get("id"), req.get("op")
        reply: dict[str, Any] = {"id": rid, "ok": True}
        fatal = False
        try:
            if op == "exit":
                return
            if op == "ping":
                pass
            elif op == "load":
                t0 = _perf_counter()
                calibrated_once_loaded = True
                backend.load()
                reply["seconds"] = _perf_counter() - t0
            elif op == "construct":
                backend.construct(int(req["seed"]))
            elif op == "call":
                reply["ms"] = backend.call(req.get("scalars", {}), bool(req.get("timed")), bool(req.get("flush")),
                                           group=req.get("group", 0))
            elif op == "flush":
                backend.flush_caches()
            elif op == "burst":
                count = req.get("count")
                # An empty burst is the checker's calibration of the request around one; once the candidate is
                # in this process it could make that slow, and so its own bursts look faster.
                if (count == 0) == calibrated_once_loaded:
                    raise Refused("protocol", "an empty burst is answered only before the candidate loads, a "
                                              "burst of calls only after")
                reply["ms"] = backend.burst(req.get("scalars", {}), count)
            elif op == "probe":
                if calibrated_once_loaded or not isinstance(backend, ModelNewBackend) or backend.device.type != "cpu":
                    raise Refused("protocol", "the probe is answered by a CPU ModelNew runner before the candidate "
                                              "loads")
                reply["ms"] = wire.probe_ms(backend.torch)
            elif op == "calibrate":
                if calibrated_once_loaded:
                    raise Refused("protocol", "calibration is only answered before the candidate loads")
                reply["ms"] = backend.call(req.get("scalars", {}), True, bool(req.get("flush", True)), stub=True)
            else:
                reply = {"id": rid, "ok": False, "error": "protocol", "detail": f"unknown request {op!r}"}
        except Refused as r:
            reply = {"id": rid, "ok": False, "error": r.kind, "detail": r.detail[:4000], "suspect": r.suspect}
            fatal = r.fatal
        except BaseException as e:
            reply = {"id": rid, "ok": False, "error": "call",
                     "detail": f"{type(e).__name__}: {e}"[:2000] + "\n" + traceback.format_exc(limit=3)[-1500:]}
        notes = getattr(backend, "notes", None)
        if notes:
            reply["notes"] = list(notes)
        wire.send(sock, reply)
        if fatal:
            return  # a CUDA fault poisons this context: the checker ends this runner


def main() -> None:
    fd = int(sys.argv[1])
    _set_limits(json.loads(sys.argv[2]) if len(sys.argv) > 2 else {})
    heap_policy.keep_heap_warm()  # the checker's own policy (child.py): the two are timed alike
    sock = wire.socket_from_fd(fd)
    try:
        serve(sock)
    except wire.WireError:
        pass  # the checker went away or broke off: nothing to answer
    finally:
        sock.close()
    os._exit(0)


if __name__ == "__main__":
    main()
