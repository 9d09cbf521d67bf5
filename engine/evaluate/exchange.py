"""The buffers the checker shares with a runner: the candidate's inputs, weights and outputs, nothing else.

The checker writes inputs and weights into them before each call and reads outputs after it; it keeps its
own copies of everything it compares against, so whatever a runner does to these buffers can only make its
own candidate fail. CPU: one shared-memory file each, in a folder only this runner sees (bound at /xchg).
CUDA: one device allocation each (cuMemCreate), shared as a file descriptor passed over the runner's socket;
each is its own allocation, so what a runner maps is that buffer and no neighbour (see cudadrv.py).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from engine.evaluate import cudadrv, wire


@dataclass(frozen=True)
class Spec:
    name: str
    role: str  # input | state | output
    shape: tuple[int, ...]
    dtype: torch.dtype


def dtype_name(dtype: torch.dtype) -> str:
    name = str(dtype).removeprefix("torch.")
    if name not in wire.DTYPE_BYTES:
        raise ValueError(f"tensors of dtype {dtype} cannot cross to a candidate runner")
    return name


class _DeviceArray:
    """A raw device allocation shown to torch through __cuda_array_interface__ (torch keeps this object,
    and so the pointer, alive as long as the tensor)."""

    def __init__(self, ptr: int, nbytes: int):
        self.__cuda_array_interface__ = {"shape": (max(nbytes, 1),), "typestr": "|u1", "data": (ptr, False),
                                         "version": 3, "strides": None}


class Exchange:
    """A set of shared buffers for one task on one device, reused by every candidate's runner in turn."""

    def __init__(self, specs: Sequence[Spec], device: torch.device):
        self.device = device
        self.specs = list(specs)
        self.tensors: dict[str, torch.Tensor] = {}
        self.descriptors: list[wire.Buffer] = []
        self._allocs: list[tuple[int, int, int]] = []  # (pointer, size, allocation handle)
        self.fds: list[int] = []  # CUDA: one exported file descriptor per buffer, sent to each runner
        self.folder: Path | None = None
        self.drv: cudadrv.Driver | None = None
        if device.type == "cuda":
            torch.empty(1, device=device)  # torch's primary context first; the driver handle joins it
            self.drv = cudadrv.Driver(device.index or 0)
        else:
            self.folder = Path(tempfile.mkdtemp(prefix="hiera-xchg-", dir="/dev/shm" if os.path.isdir("/dev/shm")
                                                else None))
        try:
            for i, s in enumerate(self.specs):
                self._add(i, s)
        except BaseException:
            self.close()
            raise

    def _add(self, i: int, s: Spec) -> None:
        nbytes = int(torch.Size(s.shape).numel()) * torch.empty((), dtype=s.dtype).element_size()
        if self.drv is not None:
            ptr, size, fd, alloc = self.drv.shareable_alloc(nbytes)
            self._allocs.append((ptr, size, alloc))
            handle = f"fd:{len(self.fds)}:{size}"
            self.fds.append(fd)
            raw = torch.as_tensor(_DeviceArray(ptr, nbytes), device=self.device)
        else:
            assert self.folder is not None
            handle = f"b{i}"
            path = self.folder / handle
            with open(path, "wb") as f:
                f.truncate(max(nbytes, 1))
            raw = torch.from_file(str(path), shared=True, size=max(nbytes, 1), dtype=torch.uint8)
        self.tensors[s.name] = raw[:nbytes].view(s.dtype).view(s.shape)
        self.descriptors.append(wire.Buffer(s.name, s.role, tuple(int(x) for x in s.shape), dtype_name(s.dtype),
                                            nbytes, handle))

    def of_role(self, role: str) -> list[torch.Tensor]:
        return [self.tensors[s.name] for s in self.specs if s.role == role]

    def fill(self, name: str, value: Any) -> None:
        self.tensors[name].copy_(value)

    def poison_outputs(self) -> None:
        """Outputs start as NaN (or a pattern for integers) before every call: an element the candidate did
        not write cannot pass for a result left by an earlier call."""
        for t in self.of_role("output"):
            if t.is_floating_point():
                t.fill_(float("nan"))
            elif t.dtype == torch.bool:
                t.fill_(True)
            else:
                t.fill_(0x5A)

    def close(self) -> None:
        if self.drv is not None:
            self.tensors.clear()
            torch.cuda.synchronize(self.device)
            for ptr, size, alloc in self._allocs:
                with contextlib.suppress(cudadrv.CudaError):
                    self.drv.shareable_free(ptr, size, alloc)
            for fd in self.fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._allocs.clear()
            self.fds.clear()
        if self.folder is not None:
            self.tensors.clear()
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
