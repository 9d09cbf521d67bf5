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

# What the expert backend's generated candidates return from hiera_forward (the contract itself says only:
# non-zero fails).
GENERATED_CODES = {
    2: "a tensor's shape differs from the one the code was specialized for",
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
    # CPU: a file name inside the exchange folder (mapped shared). CUDA: "fd:I:SIZE", the I-th file
    # descriptor sent before the setup (an exported allocation of SIZE bytes, mapped whole), or "ipc:HEX",
    # a legacy IPC handle. Either way one allocation per buffer, so it exposes nothing but that buffer.
    handle: str

    @staticmethod
    def from_json(d: dict[str, Any]) -> Buffer:
        return Buffer(str(d["name"]), str(d["role"]), tuple(int(x) for x in d["shape"]), str(d["dtype"]),
                      int(d["nbytes"]), str(d["handle"]))


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
#                                         buffers; a device-wide synchronize before the reply
#   calibrate                             a timed call's procedure without the candidate (before load only)
#   exit
# Replies (runner -> checker): {"id": same, "ok": bool, ...}; ok=False carries "error" (a kind) and "detail".
ERROR_KINDS = ("load", "call", "output", "space", "setup", "protocol")


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


MAX_FDS = 512


def send_fds(sock: socket.socket, fds: list[int]) -> None:
    """The CUDA exchange buffers' file descriptors, before the setup message (SCM_RIGHTS)."""
    if len(fds) > MAX_FDS:
        raise WireError(f"{len(fds)} buffers to share; at most {MAX_FDS}")
    socket.send_fds(sock, [b"F"], fds)


def recv_fds(sock: socket.socket) -> list[int]:
    msg, fds, _, _ = socket.recv_fds(sock, 1, MAX_FDS)
    if msg != b"F":
        raise WireError("expected the buffers' file descriptors first")
    return list(fds)


def socket_from_fd(fd: int) -> socket.socket:
    s = socket.socket(fileno=fd)
    os.set_inheritable(s.fileno(), False)
    return s
