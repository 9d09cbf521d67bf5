"""The buffers the checker shares with a runner: the candidate's inputs, weights and outputs, nothing else.

The checker writes inputs and weights into them before each call and reads outputs after it; it keeps its
own copies of everything it compares against, so whatever a runner does to these buffers can only make its
own candidate fail. Either way each buffer reaches a runner as a file descriptor passed over its socket, never
as a name: nothing a runner does to a folder (renaming, replacing or truncating a file) can reach the buffers
of the next candidate, and nothing is left in /dev/shm when a process dies.
CPU: one anonymous memory file each (memfd), sealed at its size: a runner can write into it but cannot
shrink it (which would make every access of the checker's a SIGBUS).
CUDA: one device allocation each (cuMemCreate), exported as a file descriptor; each is its own allocation, so
what a runner maps is that buffer and no neighbour (see cudadrv.py). The back-to-back sets (back_to_back.py:
one set of inputs and outputs per call of a burst, all the candidate's own) share one allocation between them.

Every buffer is followed by CANARY bytes of a secret pattern, in the same memory file or allocation: a write past
the end of a buffer (a kernel that ignores the sizes it is given writes the verified shape's element count into a
smaller output) lands there first, and `breached` names the buffer. Without them a write of a few rows past the
end went unseen in the rest of the buffer's last page (or the allocation's granularity), and would have corrupted
whatever follows the tensor in a user's process.
"""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch

from engine.evaluate import cudadrv, wire

CANARY = 256  # bytes of a secret pattern after every buffer
_ALIGN = 256  # where a buffer in a shared allocation starts: CUDA's alignment of an allocation's start


@dataclass(frozen=True)
class Spec:
    name: str
    role: str  # input | state | output
    shape: tuple[int, ...]
    dtype: torch.dtype
    # The set of shapes (wire.Buffer.group): 0 the task's own, k >= 1 the k-th batch size checked, k <= -1 the
    # k-th back-to-back set (the task's own shapes).
    group: int = 0


def _nbytes(s: Spec) -> int:
    return int(torch.Size(s.shape).numel()) * torch.empty((), dtype=s.dtype).element_size()


def dtype_name(dtype: torch.dtype) -> str:
    name = str(dtype).removeprefix("torch.")
    if name not in wire.DTYPE_BYTES:
        raise ValueError(f"tensors of dtype {dtype} cannot cross to a candidate runner")
    return name


class Exchange:
    """A set of shared buffers for one task on one device, reused by every candidate's runner in turn."""

    def __init__(self, specs: Sequence[Spec], device: torch.device):
        self.device = device
        self.specs = list(specs)
        self.tensors: dict[str, torch.Tensor] = {}
        self.descriptors: list[wire.Buffer] = []
        self._allocs: list[tuple[int, int, int]] = []  # (pointer, size, allocation handle)
        self.fds: list[int] = []  # one file descriptor per buffer, sent to each runner
        self._maps: list[mmap.mmap] = []  # CPU: the checker's own mapping of each memfd
        self.canaries: dict[str, torch.Tensor] = {}  # the CANARY bytes after each buffer
        self._index: dict[tuple[str, int], list[str]] = {}  # (role, group) -> buffer names, in spec order
        self._pattern = torch.frombuffer(bytearray(os.urandom(CANARY)), dtype=torch.uint8).to(device)
        self.drv: cudadrv.Driver | None = None
        if device.type == "cuda":
            torch.empty(1, device=device)  # torch's primary context first; the driver handle joins it
            self.drv = cudadrv.Driver(device.index or 0)
        try:
            for s in self.specs:
                if s.group >= 0:
                    raw, handle = self._allocate(len(self.fds), _nbytes(s) + CANARY)
                    self._place(s, raw, 0, handle)
            self._add_arena([s for s in self.specs if s.group < 0])
        except BaseException:
            self.close()
            raise

    def _allocate(self, i: int, total: int) -> tuple[torch.Tensor, str]:
        """One shared allocation of `total` bytes: its bytes as a tensor, and its handle for wire.Buffer."""
        if self.drv is not None:
            ptr, size, fd, alloc = self.drv.shareable_alloc(total)
            self._allocs.append((ptr, size, alloc))
            handle = f"fd:{len(self.fds)}:{size}"
            self.fds.append(fd)
            return torch.as_tensor(cudadrv.DeviceArray(ptr, total), device=self.device), handle
        fd = os.memfd_create(f"hiera-buffer-{i}", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        self.fds.append(fd)
        os.ftruncate(fd, total)
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
        m = mmap.mmap(fd, total, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        self._maps.append(m)
        return torch.frombuffer(m, dtype=torch.uint8), f"memfd:{len(self.fds) - 1}"

    def _place(self, s: Spec, raw: torch.Tensor, offset: int, handle: str) -> None:
        """Spec `s` at `offset` of an allocation, its CANARY bytes right after it."""
        nbytes = _nbytes(s)
        self.tensors[s.name] = raw[offset:offset + nbytes].view(s.dtype).view(s.shape)
        self.canaries[s.name] = raw[offset + nbytes:offset + nbytes + CANARY]
        self.canaries[s.name].copy_(self._pattern)
        self.descriptors.append(wire.Buffer(s.name, s.role, tuple(int(x) for x in s.shape), dtype_name(s.dtype),
                                            nbytes, handle, s.group, offset))

    def _add_arena(self, specs: list[Spec]) -> None:
        """The back-to-back sets (group < 0) in one allocation, each buffer at an aligned offset with its canary
        after it: every set is the candidate's own, so sharing an allocation exposes nothing of another's."""
        if not specs:
            return
        offsets, end = [], 0
        for s in specs:
            offsets.append(end)
            end += -(-(_nbytes(s) + CANARY) // _ALIGN) * _ALIGN
        raw, handle = self._allocate(len(self.fds), end)
        for s, at in zip(specs, offsets):
            self._place(s, raw, at, handle)

    def back_to_back_groups(self) -> list[int]:
        """The back-to-back sets' groups, -1 first."""
        return sorted({s.group for s in self.specs if s.group < 0}, reverse=True)

    def of_role(self, role: str, group: int = 0) -> list[torch.Tensor]:
        """The buffers of one role in one set of shapes (state buffers are all in set 0)."""
        if not self._index:  # hundreds of back-to-back sets: looked up by key, not by a scan of every spec
            for s in self.specs:
                self._index.setdefault((s.role, s.group), []).append(s.name)
        return [self.tensors[n] for n in self._index.get((role, group), [])]

    def fill(self, name: str, value: Any) -> None:
        self.tensors[name].copy_(value)

    def poison_outputs(self, group: int = 0) -> None:
        """Outputs start as NaN (or a pattern for integers) before every call: an element the candidate did
        not write cannot pass for a result left by an earlier call."""
        for t in self.of_role("output", group):
            if t.is_floating_point():
                t.fill_(float("nan"))
            elif t.dtype == torch.bool:
                t.fill_(True)
            else:
                t.fill_(0x5A)

    def arm(self, group: int | None = None) -> None:
        """The canaries after the buffers of `group` and every state buffer (None: all buffers) set again."""
        for s in self.specs:
            if group is None or s.group == group or s.role == "state":
                self.canaries[s.name].copy_(self._pattern)

    def breached(self, group: int = 0) -> str | None:
        """The first buffer of `group` (or a state buffer) whose canary was written, or None (one comparison)."""
        names = [s.name for s in self.specs if s.group == group or s.role == "state"]
        if not names or torch.equal(torch.cat([self.canaries[n] for n in names]), self._pattern.repeat(len(names))):
            return None
        return next(n for n in names if not torch.equal(self.canaries[n], self._pattern))

    def snapshot_outputs(self, rng: random.Random, group: int = 0) -> OutputSnapshot:
        return OutputSnapshot(self.of_role("output", group), rng)

    def close(self) -> None:
        self.tensors.clear()
        self.canaries.clear()
        if self.drv is not None:
            torch.cuda.synchronize(self.device)
            for ptr, size, alloc in self._allocs:
                with contextlib.suppress(cudadrv.CudaError):
                    self.drv.shareable_free(ptr, size, alloc)
            self._allocs.clear()
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds.clear()
        # A mapping still exported to a tensor someone holds cannot be closed; it is freed with that tensor.
        for m in self._maps:
            with contextlib.suppress(BufferError):
                m.close()
        self._maps.clear()


class OutputSnapshot:
    """Sampled chunks of the output buffers, copied by the checker the moment a runner's reply arrives: when the
    buffers are compared with it later, any difference was written after the runner said the call was done
    (work left running past the timed span: a thread, another stream, an early reply). The checker's own view,
    on the CPU and the GPU alike; what the runner checks on its side is only a first, clearer message."""

    CHUNKS, CHUNK = 16, 1 << 14  # elements per chunk

    def __init__(self, outputs: Sequence[torch.Tensor], rng: random.Random):
        self.taken: list[tuple[int, torch.Tensor, torch.Tensor]] = []  # (output index, the chunk, its copy)
        for i, o in enumerate(outputs):
            flat = o.reshape(-1).view(torch.uint8)  # bytes: NaN poison compares equal to itself
            n = min(self.CHUNK * o.element_size(), flat.numel())
            last = max(flat.numel() - n, 0)
            for a in sorted({0, last} | {rng.randrange(0, last + 1) for _ in range(self.CHUNKS - 2)}):
                chunk = flat[a:a + n]
                self.taken.append((i, chunk, chunk.clone()))

    def changed(self) -> int | None:
        """The index of the first output whose sampled bytes moved since the snapshot, or None (one comparison,
        one device sync, when nothing moved)."""
        if not self.taken or torch.equal(torch.cat([c for _, c, _ in self.taken]),
                                         torch.cat([k for _, _, k in self.taken])):
            return None
        return next(i for i, chunk, copy in self.taken if not torch.equal(chunk, copy))
