"""The few CUDA driver-API calls the checker and the runner need, through ctypes (standard library only).

Why the driver API: the runner of a contract candidate has no torch and no CUDA toolkit in its sandbox (in
the pure CUDA space not even the toolkit's libraries are visible), only the driver's libcuda, which every
CUDA program needs anyway. The candidate's own code links the CUDA runtime statically and works on the
device's primary context, the same one this module makes current, so pointers opened here are valid there.

The checker uses it to give each exchange buffer an allocation of its own (`cuMemAlloc`) and an IPC handle
for it: a handle to memory from PyTorch's caching allocator would expose the whole cached segment, other
tensors (the expected outputs among them) included.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 1
CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 0x06
CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38
CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
CUDA_ERROR_NOT_INITIALIZED = 3
IPC_HANDLE_BYTES = 64


class CudaError(RuntimeError):
    def __init__(self, call: str, code: int, text: str):
        super().__init__(f"{call} failed: {text} (CUDA driver error {code})")
        self.code = code


class _IpcHandle(ctypes.Structure):
    _fields_ = [("reserved", ctypes.c_char * IPC_HANDLE_BYTES)]


def _load() -> Any:
    for name in ("libcuda.so.1", ctypes.util.find_library("cuda") or "libcuda.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise OSError("libcuda (the NVIDIA driver's CUDA library) was not found")


class Driver:
    """A handle on one device's primary context. Every call checks its return code."""

    def __init__(self, ordinal: int):
        self.lib = _load()
        self._check("cuInit", self.lib.cuInit(0))
        dev = ctypes.c_int()
        self._check("cuDeviceGet", self.lib.cuDeviceGet(ctypes.byref(dev), ordinal))
        self.dev = dev.value
        ctx = ctypes.c_void_p()
        self._check("cuDevicePrimaryCtxRetain", self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), self.dev))
        self.ctx = ctx
        self.make_current()

    def _fn(self, name: str) -> Any:
        # Versioned entry points (cuMemAlloc_v2, ...) are what cuda.h's macros call today.
        for n in (name + "_v2", name):
            f = getattr(self.lib, n, None)
            if f is not None:
                return f
        raise AttributeError(name)

    def _check(self, call: str, rc: int) -> None:
        if rc != 0:
            text = ctypes.c_char_p()
            self.lib.cuGetErrorString(rc, ctypes.byref(text))
            raise CudaError(call, rc, (text.value or b"unknown error").decode())

    def make_current(self) -> None:
        self._check("cuCtxSetCurrent", self.lib.cuCtxSetCurrent(self.ctx))

    def attribute(self, attr: int) -> int:
        v = ctypes.c_int()
        self._check("cuDeviceGetAttribute", self.lib.cuDeviceGetAttribute(ctypes.byref(v), attr, self.dev))
        return v.value

    # --- memory -----------------------------------------------------------------------------------------

    def alloc(self, nbytes: int) -> int:
        ptr = ctypes.c_uint64()
        self._check("cuMemAlloc", self._fn("cuMemAlloc")(ctypes.byref(ptr), ctypes.c_size_t(max(nbytes, 1))))
        return ptr.value

    def free(self, ptr: int) -> None:
        self._check("cuMemFree", self._fn("cuMemFree")(ctypes.c_uint64(ptr)))

    def ipc_handle(self, ptr: int) -> str:
        h = _IpcHandle()
        self._check("cuIpcGetMemHandle", self.lib.cuIpcGetMemHandle(ctypes.byref(h), ctypes.c_uint64(ptr)))
        return bytes(h.reserved).hex()

    def ipc_open(self, handle_hex: str) -> int:
        raw = bytes.fromhex(handle_hex)
        if len(raw) != IPC_HANDLE_BYTES:
            raise ValueError("an IPC handle must be 64 bytes")
        h = _IpcHandle(raw)
        ptr = ctypes.c_uint64()
        self._check("cuIpcOpenMemHandle", self._fn("cuIpcOpenMemHandle")(
            ctypes.byref(ptr), h, ctypes.c_uint(CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)))
        return ptr.value

    def memset_async(self, ptr: int, value: int, nbytes: int, stream: int = 0) -> None:
        self._check("cuMemsetD8Async", self.lib.cuMemsetD8Async(ctypes.c_uint64(ptr), ctypes.c_ubyte(value),
                                                                 ctypes.c_size_t(nbytes), ctypes.c_void_p(stream)))

    # --- sync, events, L2 -------------------------------------------------------------------------------

    def synchronize(self) -> None:
        self._check("cuCtxSynchronize", self.lib.cuCtxSynchronize())

    def event(self) -> ctypes.c_void_p:
        e = ctypes.c_void_p()
        self._check("cuEventCreate", self.lib.cuEventCreate(ctypes.byref(e), 0))
        return e

    def record(self, event: ctypes.c_void_p, stream: int = 0) -> None:
        self._check("cuEventRecord", self.lib.cuEventRecord(event, ctypes.c_void_p(stream)))

    def elapsed_ms(self, start: ctypes.c_void_p, end: ctypes.c_void_p) -> float:
        ms = ctypes.c_float()
        self._check("cuEventElapsedTime", self.lib.cuEventElapsedTime(ctypes.byref(ms), start, end))
        return float(ms.value)

    def reset_persisting_l2(self) -> None:
        # A persisting access window survives a plain flush (research/peers.md §5.4): limit 0, then demote.
        self._check("cuCtxSetLimit", self.lib.cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, ctypes.c_size_t(0)))
        self._check("cuCtxResetPersistingL2Cache", self.lib.cuCtxResetPersistingL2Cache())
