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


# The virtual memory management API's structures (cuda.h: CUmemLocation, CUmemAllocationProp, CUmemAccessDesc).
class _Location(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]


class _AllocFlags(ctypes.Structure):
    _fields_ = [("compressionType", ctypes.c_ubyte), ("gpuDirectRDMACapable", ctypes.c_ubyte),
                ("usage", ctypes.c_ushort), ("reserved", ctypes.c_ubyte * 4)]


class _AllocProp(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("requestedHandleTypes", ctypes.c_int), ("location", _Location),
                ("win32HandleMetaData", ctypes.c_void_p), ("allocFlags", _AllocFlags)]


class _AccessDesc(ctypes.Structure):
    _fields_ = [("location", _Location), ("flags", ctypes.c_int)]


_PINNED, _POSIX_FD, _ON_DEVICE, _READ_WRITE = 1, 1, 1, 3


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

    # Shared by file descriptor (cuMemCreate + cuMemExportToShareableHandle), the way to share device memory
    # with a process in another PID namespace: a legacy IPC handle names the exporting process by its PID,
    # which a sandboxed runner cannot see.

    def _prop(self) -> _AllocProp:
        return _AllocProp(_PINNED, _POSIX_FD, _Location(_ON_DEVICE, self.dev), None, _AllocFlags())

    def granularity(self) -> int:
        g = ctypes.c_size_t()
        prop = self._prop()
        self._check("cuMemGetAllocationGranularity",
                    self.lib.cuMemGetAllocationGranularity(ctypes.byref(g), ctypes.byref(prop), 0))
        return g.value

    def _map(self, handle: ctypes.c_ulonglong, size: int) -> int:
        ptr = ctypes.c_uint64()
        self._check("cuMemAddressReserve", self.lib.cuMemAddressReserve(
            ctypes.byref(ptr), ctypes.c_size_t(size), ctypes.c_size_t(0), ctypes.c_uint64(0), ctypes.c_ulonglong(0)))
        self._check("cuMemMap", self.lib.cuMemMap(ctypes.c_uint64(ptr.value), ctypes.c_size_t(size), ctypes.c_size_t(0),
                                                  handle, ctypes.c_ulonglong(0)))
        access = _AccessDesc(_Location(_ON_DEVICE, self.dev), _READ_WRITE)
        self._check("cuMemSetAccess", self.lib.cuMemSetAccess(ctypes.c_uint64(ptr.value), ctypes.c_size_t(size),
                                                              ctypes.byref(access), ctypes.c_size_t(1)))
        return ptr.value

    def shareable_alloc(self, nbytes: int) -> tuple[int, int, int, int]:
        """(pointer, mapped size, file descriptor, allocation handle) of a new exportable allocation."""
        g = self.granularity()
        size = (max(nbytes, 1) + g - 1) // g * g
        handle = ctypes.c_ulonglong()
        prop = self._prop()
        self._check("cuMemCreate", self.lib.cuMemCreate(ctypes.byref(handle), ctypes.c_size_t(size),
                                                        ctypes.byref(prop), ctypes.c_ulonglong(0)))
        ptr = self._map(handle, size)
        fd = ctypes.c_int()
        self._check("cuMemExportToShareableHandle", self.lib.cuMemExportToShareableHandle(
            ctypes.byref(fd), handle, _POSIX_FD, ctypes.c_ulonglong(0)))
        return ptr, size, fd.value, handle.value

    def shareable_open(self, fd: int, size: int) -> int:
        handle = ctypes.c_ulonglong()
        self._check("cuMemImportFromShareableHandle", self.lib.cuMemImportFromShareableHandle(
            ctypes.byref(handle), ctypes.c_void_p(fd), _POSIX_FD))
        return self._map(handle, size)

    def shareable_free(self, ptr: int, size: int, handle: int) -> None:
        self._check("cuMemUnmap", self.lib.cuMemUnmap(ctypes.c_uint64(ptr), ctypes.c_size_t(size)))
        self._check("cuMemAddressFree", self.lib.cuMemAddressFree(ctypes.c_uint64(ptr), ctypes.c_size_t(size)))
        self._check("cuMemRelease", self.lib.cuMemRelease(ctypes.c_ulonglong(handle)))

    def memset_async(self, ptr: int, value: int, nbytes: int, stream: int = 0) -> None:
        self._check("cuMemsetD8Async", self.lib.cuMemsetD8Async(ctypes.c_uint64(ptr), ctypes.c_ubyte(value),
                                                                 ctypes.c_size_t(nbytes), ctypes.c_void_p(stream)))

    def copy_async(self, dst: int, src: int, nbytes: int, stream: int = 0) -> None:
        self._check("cuMemcpyDtoDAsync", self._fn("cuMemcpyDtoDAsync")(
            ctypes.c_uint64(dst), ctypes.c_uint64(src), ctypes.c_size_t(nbytes), ctypes.c_void_p(stream)))

    def copy_to_host(self, host: Any, src: int, nbytes: int) -> None:
        self._check("cuMemcpyDtoH", self._fn("cuMemcpyDtoH")(host, ctypes.c_uint64(src), ctypes.c_size_t(nbytes)))

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
        # A persisting access window survives a plain flush (llm.c PR #851): limit 0, then demote.
        self._check("cuCtxSetLimit", self.lib.cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, ctypes.c_size_t(0)))
        self._check("cuCtxResetPersistingL2Cache", self.lib.cuCtxResetPersistingL2Cache())


class DeviceArray:
    """A raw device allocation shown to torch through __cuda_array_interface__ (torch keeps this object, and so the
    pointer, alive as long as the tensor): how the checker and a runner see the shared buffers as tensors."""

    def __init__(self, ptr: int, nbytes: int):
        self.__cuda_array_interface__ = {"shape": (max(nbytes, 1),), "typestr": "|u1", "data": (ptr, False),
                                         "version": 3, "strides": None}
