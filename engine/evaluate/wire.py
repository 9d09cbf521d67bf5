"""What crosses between the trusted checker and a sandboxed candidate runner: framing, message shapes, buffers.

This file is the only code the two sides share. It imports nothing but the standard library, because the
runner of a contract (.so) candidate runs in a sandbox that holds no torch and no hiera package: the
sandbox binds this file and `runner.py` beside it, nothing else of hiera.

Framing: a 4-byte big-endian length, then that many bytes of UTF-8 JSON (one object). The checker reads
the runner's side with a size cap and a deadline, and treats anything malformed as the candidate's doing:
a runner runs candidate code, so every byte it sends is untrusted. Nothing the runner says decides a
verdict by itself: outputs are read from the shared buffers and compared by the checker, and the times it
reports are checked against the checker's own clock.
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import socket
import struct
import time
from dataclasses import asdict, dataclass, field
from typing import Any

MAX_MESSAGE = 1 << 20  # a reply is a few hundred bytes; a megabyte is room for error text and nothing else
_HEADER = struct.Struct(">I")

# Element sizes of the dtypes a contract can carry (names as torch spells them, without "torch.").
DTYPE_BYTES = {"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4, "int16": 2,
               "int8": 1, "uint8": 1, "bool": 1}

# --- the parity probe (CPU) ---------------------------------------------------------------------------------
# The reference is timed in the checker's process, a ModelNew candidate in its runner: two processes, which a
# math-library setting in the environment, a thread or CPU limit on one of them, or a runner whose processes
# were not all stopped while the reference ran can make run the same code at different speeds, and every
# speedup with them. Before the candidate loads, both time this fixed work with torch (a float32 GEMM and an
# elementwise add, at their own thread counts), in turns (op "probe", then the checker with the runner
# stopped); clock_check.parity compares the fastest of each. Contention only adds time; a systematic
# difference stays.
PROBE_ROUNDS = 5
PROBE_CALLS = 2  # per round
_perf_counter = time.perf_counter


def probe_ms(torch: Any, calls: int = PROBE_CALLS) -> float:
    """The fastest of `calls` runs of the probe, in ms, after one unmeasured run."""
    a, b = torch.full((256, 512), 0.5), torch.full((512, 512), 0.25)
    c = torch.empty(256, 512)
    x = torch.full((1 << 20,), 1.0)
    y = torch.empty_like(x)
    best = float("inf")
    for i in range(calls + 1):
        t0 = _perf_counter()
        torch.mm(a, b, out=c)
        torch.add(x, x, out=y)
        if i:
            best = min(best, (_perf_counter() - t0) * 1e3)
    return best


# What the expert backend's generated candidates return from hiera_forward (the contract itself says only:
# non-zero fails).
SHAPE_DECLINED = 2  # a shape other than the one the code was specialized for (variants.py: `declined`)
GENERATED_CODES = {
    SHAPE_DECLINED: "a tensor's shape differs from the one the code was specialized for",
    3: "a device memory allocation (workspace) failed",
    4: "a kernel launch failed",
    5: "a cuBLAS/cuBLASLt call failed",
    6: "a cuDNN call failed (no kernel for this algorithm at this shape, or an unsupported setting)",
}


# The contract's C ABI as ctypes sees it (hiera_contract.h): a tensor view, and hiera_forward's argument types.
MAX_DIMS = 8
_Dims = ctypes.c_int64 * MAX_DIMS


class HieraTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("ndim", ctypes.c_int64), ("sizes", _Dims), ("strides", _Dims)]


def tensor_view(ptr: int, shape: tuple[int, ...] | list[int], strides: tuple[int, ...] | list[int]) -> HieraTensor:
    if len(shape) > MAX_DIMS:
        raise ValueError(f"tensors of more than {MAX_DIMS} dims are not supported by the contract")
    return HieraTensor(ptr, len(shape), _Dims(*shape), _Dims(*strides))


def forward_argtypes(contract: dict[str, Any]) -> list[Any]:
    """hiera_forward's parameters: tensors by pointer, float64 scalars as double, others as int64, then the
    outputs, then the stream."""
    types: list[Any] = []
    for a in contract["args"]:
        if a["tensor"]:
            types.append(ctypes.POINTER(HieraTensor))
        elif a["dtype"] == "float64":
            types.append(ctypes.c_double)
        else:
            types.append(ctypes.c_int64)
    return [*types, *[ctypes.POINTER(HieraTensor)] * len(contract["outputs"]), ctypes.c_void_p]


class WireError(Exception):
    """The other side broke the protocol (malformed, oversized, out of order) or went away."""


class WireTimeout(WireError):
    pass


@dataclass(frozen=True)
class Buffer:
    """One shared tensor: where it lives and how to read it. Contiguous, row-major."""

    name: str  # "input 0", "parameter weight", "output 0"
    role: str  # input | state | output
    shape: tuple[int, ...]
    dtype: str  # a DTYPE_BYTES key
    nbytes: int
    # CPU: "memfd:I", the I-th file descriptor sent before the setup (a sealed memory file, mapped shared).
    # CUDA: "fd:I:SIZE", the I-th file descriptor (an exported allocation of SIZE bytes, mapped whole), or
    # "ipc:HEX", a legacy IPC handle. Either way one allocation per buffer, so it exposes nothing but that
    # buffer, and no name in any folder that a runner could rename or replace for the next one.
    handle: str
    # Which set of shapes it belongs to: 0, the task's own (every state buffer is in it); k >= 1, the k-th batch
    # size the candidate is also verified on (its inputs and outputs; its calls read the state of set 0); k <= -1,
    # the k-th set of the back-to-back calls (back_to_back.py: the task's own shapes, one set per call).
    group: int = 0
    # Where the tensor starts in its allocation. 0 but for the back-to-back sets, which share one allocation
    # (hundreds of small sets would otherwise take a 2 MB allocation granule and a descriptor each).
    offset: int = 0

    @staticmethod
    def from_json(d: dict[str, Any]) -> Buffer:
        return Buffer(str(d["name"]), str(d["role"]), tuple(int(x) for x in d["shape"]), str(d["dtype"]),
                      int(d["nbytes"]), str(d["handle"]), int(d.get("group", 0)), int(d.get("offset", 0)))


# A ModelNew call's non-tensor forward arguments, in its `scalars`: [[position, value], ...] as get_inputs() had
# them (JSON values); the tensors fill the other positions in order (runner.call_args).
CALL_ARGS = "__args__"


@dataclass(frozen=True)
class Setup:
    """The first message to a runner: everything it needs before the candidate is loaded."""

    kind: str  # cuda | cpp | modelnew
    device: str  # "cpu" or "cuda:N"
    artifact: str  # path inside the sandbox: the .so or the ModelNew .py
    buffers: list[Buffer]
    contract: dict[str, Any] | None  # the contract layout (native candidates)
    init_args: list[Any] = field(default_factory=list)  # get_init_inputs(), JSON values (ModelNew)
    state_names: list[str] = field(default_factory=list)  # parameter/buffer names, in buffer order
    threads: int = 0  # torch/OpenMP threads (CPU); 0 = leave as is
    flush_bytes: int = 0  # size of the cache-flush buffer the runner allocates for timed calls
    precision: str = "fp32"
    space: str = "libraries_pytorch"  # the space the candidate must stay inside (audited at run time)

    @property
    def cuda_index(self) -> int | None:
        """The CUDA device's ordinal, None on the CPU: the device crosses as contracts/device.py writes it (the
        runner cannot import that module; this is its one reading of the text)."""
        kind, _, index = self.device.partition(":")
        return (int(index) if index else 0) if kind == "cuda" else None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["buffers"] = [asdict(b) for b in self.buffers]
        return d

    @staticmethod
    def from_json(d: dict[str, Any]) -> Setup:
        return Setup(str(d["kind"]), str(d["device"]), str(d["artifact"]),
                     [Buffer.from_json(b) for b in d["buffers"]], d.get("contract"), list(d.get("init_args", [])),
                     [str(s) for s in d.get("state_names", [])], int(d.get("threads", 0)),
                     int(d.get("flush_bytes", 0)), str(d.get("precision", "fp32")),
                     str(d.get("space", "libraries_pytorch")))


# Requests (checker -> runner), each a dict with "op" and "id":
#   ping                                  answered before any candidate code is loaded (round-trip calibration)
#   load                                  dlopen / import the candidate
#   construct  seed                       ModelNew: a new instance, the checker's weights loaded into it
#   call  seed, scalars, timed, flush     one call on the current buffer contents; outputs into the output
#         [group]                         buffers; a device-wide synchronize before the reply. group k (default
#                                         0) calls it on set k's inputs and outputs (Buffer.group)
#   flush                                 empty the caches (on the CPU, the request before a timed call)
#   burst  scalars, count                 `count` calls back to back, the i-th on back-to-back set -(i+1)
#                                         (Buffer.group), no flush and no synchronize between them, one
#                                         device-wide synchronize before the reply. count 0 (the checker's
#                                         calibration) is answered before the candidate loads only
#   calibrate  flush                      a timed call's procedure without the candidate (before load only)
#   exit
# Replies (runner -> checker): {"id": same, "ok": bool, ...}; ok=False carries "error" (a kind) and "detail".
ERROR_KINDS = ("load", "call", "output", "space", "setup", "protocol")


def _number(v: Any) -> float | None:
    # bool is an int to Python; a reply whose time is `true` is malformed, not 1 ms.
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise WireError(f"a number was expected, not {type(v).__name__}")
    return float(v)


@dataclass(frozen=True)
class Reply:
    """A runner's reply, every field type-checked on arrival: whatever a candidate writes into its runner's
    replies, the checker only ever sees these types (a malformed reply is a WireError, never a crash)."""

    id: int
    ok: bool
    error: str = ""  # an ERROR_KINDS member when not ok
    detail: str = ""
    suspect: bool = False
    ms: float | None = None  # a timed call's (or a calibration's) time as the runner measured it
    seconds: float | None = None  # load
    notes: tuple[str, ...] = ()

    @staticmethod
    def parse(msg: dict[str, Any]) -> Reply:
        rid, ok = msg.get("id"), msg.get("ok")
        if isinstance(rid, bool) or not isinstance(rid, int) or not isinstance(ok, bool):
            raise WireError("a reply without an integer id and a boolean ok")
        error, detail, suspect = msg.get("error", ""), msg.get("detail", ""), msg.get("suspect", False)
        notes = msg.get("notes", [])
        if not isinstance(error, str) or (not ok and error not in ERROR_KINDS):
            raise WireError(f"a reply whose error is {error!r}, not one of {', '.join(ERROR_KINDS)}")
        if not isinstance(detail, str) or not isinstance(suspect, bool):
            raise WireError("a reply whose detail is not text or whose suspect flag is not a boolean")
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise WireError("a reply whose notes are not a list of text")
        return Reply(rid, ok, error, detail[:4000], suspect, _number(msg.get("ms")), _number(msg.get("seconds")),
                     tuple(n[:300] for n in notes[:8]))


def send(sock: socket.socket, msg: dict[str, Any]) -> None:
    data = json.dumps(msg, allow_nan=True).encode()
    if len(data) > MAX_MESSAGE:
        raise WireError(f"message of {len(data)} bytes is over the {MAX_MESSAGE}-byte limit")
    sock.sendall(_HEADER.pack(len(data)) + data)


def _recv_exact(sock: socket.socket, n: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    got = 0
    while got < n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise WireTimeout("no complete message before the deadline")
            ready, _, _ = select.select([sock], [], [], left)
            if not ready:
                raise WireTimeout("no complete message before the deadline")
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            raise WireError("the other side closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def wait_hot(sock: socket.socket, spin_s: float) -> None:
    """Wait for the next message by polling for up to `spin_s` before the caller's blocking read: a process that
    sleeps between requests wakes on a cold core (caches, frequency, a virtual CPU's halt), and its next call runs
    slower than the same code called back to back. Measured: a 40-layer forward of small ops read 1.6x its
    back-to-back time through the runner on the CPU, and eager ResNet18's per-call GPU events read 1.88 ms in the
    runner against 1.39 ms in the checker's loop on the H100 (its back-to-back calls agreed within 4%). The
    reference is timed in a loop that never sleeps; the candidate's runner waits as hot."""
    end = time.monotonic() + spin_s
    while time.monotonic() < end:
        ready, _, _ = select.select([sock], [], [], 0)
        if ready:
            return


def recv(sock: socket.socket, timeout_s: float | None = None) -> dict[str, Any]:
    """One message, or WireError/WireTimeout. Oversized or non-object messages are protocol errors."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    (n,) = _HEADER.unpack(_recv_exact(sock, _HEADER.size, deadline))
    if n > MAX_MESSAGE:
        raise WireError(f"a message of {n} bytes announced (limit {MAX_MESSAGE})")
    try:
        msg = json.loads(_recv_exact(sock, n, deadline).decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WireError(f"a message that is not JSON ({e})") from e
    if not isinstance(msg, dict):
        raise WireError(f"a message that is not a JSON object ({type(msg).__name__})")
    return msg


MAX_FDS = 4096  # buffers of one task (inputs, every parameter and buffer of the Model, outputs)
_FDS_PER_MESSAGE = 250  # the kernel passes at most 253 descriptors in one message (SCM_MAX_FD)
_COUNT = struct.Struct(">I")


def send_fds(sock: socket.socket, fds: list[int]) -> None:
    """The exchange buffers' file descriptors, before the setup message (SCM_RIGHTS): their number, then
    batches of at most _FDS_PER_MESSAGE."""
    if len(fds) > MAX_FDS:
        raise WireError(f"{len(fds)} buffers to share; at most {MAX_FDS}")
    sock.sendall(b"F" + _COUNT.pack(len(fds)))
    for i in range(0, len(fds), _FDS_PER_MESSAGE):
        socket.send_fds(sock, [b"B"], fds[i:i + _FDS_PER_MESSAGE])


def recv_fds(sock: socket.socket) -> list[int]:
    head = _recv_exact(sock, 1 + _COUNT.size, None)
    if head[:1] != b"F":
        raise WireError("expected the buffers' file descriptors first")
    (n,) = _COUNT.unpack(head[1:])
    if n > MAX_FDS:
        raise WireError(f"{n} descriptors announced (limit {MAX_FDS})")
    fds: list[int] = []
    while len(fds) < n:
        msg, got, _, _ = socket.recv_fds(sock, 1, _FDS_PER_MESSAGE)
        if msg != b"B" or not got:
            raise WireError("a batch of descriptors was expected")
        fds += got
    return fds


def socket_from_fd(fd: int) -> socket.socket:
    s = socket.socket(fileno=fd)
    os.set_inheritable(s.fileno(), False)
    return s
