"""The runner's CUDA branch for contract candidates, on a machine without a GPU: `runner.serve` in a thread, its
CUDA driver replaced by a stand-in over host memory (the shared buffers are memory files, "device pointers" are
their mappings, a "kernel" is C++ built for the CPU). What this reaches that the CPU branch does not: the
device-side calls a request makes in the order it makes them (an error peek before the library is loaded broke
every back-to-back calibration once), allocations mapped once and shared at offsets, and the protocol's
refusals. What it cannot reach: real device memory, streams and timing (tests/test_trusted_eval_gpu.py, -m gpu).
"""

from __future__ import annotations

import ctypes
import fcntl
import importlib
import mmap
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest
import torch

from tests.conftest import TASKS

EVALUATE = Path(__file__).resolve().parents[1] / "engine" / "evaluate"
ATTACKS = Path(__file__).parent / "data" / "attacks"


class FakeDriver:
    """cudadrv.Driver's calls the runner makes, over host memory; `calls` records them in order."""

    calls: ClassVar[list[str]] = []

    def __init__(self, ordinal: int):
        self.keep: list[Any] = []

    def _note(self, name: str) -> None:
        FakeDriver.calls.append(name)

    def alloc(self, nbytes: int) -> int:
        buf = ctypes.create_string_buffer(max(nbytes, 1))
        self.keep.append(buf)
        return ctypes.addressof(buf)

    def shareable_open(self, fd: int, size: int) -> int:
        self._note("open")
        m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        self.keep.append(m)
        return ctypes.addressof(ctypes.c_char.from_buffer(m))

    def ipc_open(self, handle_hex: str) -> int:
        raise AssertionError("buffers cross as file descriptors")

    def synchronize(self) -> None:
        self._note("sync")

    def event(self) -> list[float]:
        return [0.0]

    def record(self, event: list[float], stream: int = 0) -> None:
        event[0] = time.perf_counter()

    def elapsed_ms(self, start: list[float], end: list[float]) -> float:
        return (end[0] - start[0]) * 1e3

    def reset_persisting_l2(self) -> None:
        self._note("l2")

    def memset_async(self, ptr: int, value: int, nbytes: int, stream: int = 0) -> None:
        ctypes.memset(ptr, value, nbytes)

    def copy_async(self, dst: int, src: int, nbytes: int, stream: int = 0) -> None:
        ctypes.memmove(dst, src, nbytes)

    def copy_to_host(self, host: Any, src: int, nbytes: int) -> None:
        ctypes.memmove(host, src, nbytes)


@pytest.fixture(scope="module")
def relu_so(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.outcome import Candidate, CandidateKind
    from engine.task.contract import write_contract
    from engine.task.spec import load_task

    tmp = tmp_path_factory.mktemp("relu_so")
    write_contract(load_task(TASKS / "relu_positive.py"), tmp / "contract")
    built = build_one(Candidate("honest_relu", CandidateKind.CPP, (ATTACKS / "honest_relu.cpp").read_text()),
                      BuildConfig(tmp / "contract", tmp / "cache", sandboxed=False))
    assert built.ok, built.log[:2000]
    return Path(built.artifact)


class Runner:
    """runner.serve on one end of a socket pair, in a thread; the test is the checker on the other end."""

    SHAPE = (64, 32)

    def __init__(self, monkeypatch: pytest.MonkeyPatch, artifact: Path, sets: int):
        from engine.task.contract import contract_layout
        from engine.task.spec import load_task

        monkeypatch.syspath_prepend(str(EVALUATE))
        for name in ("runner", "wire", "cudadrv"):
            sys.modules.pop(name, None)
        self.runner = importlib.import_module("runner")
        self.wire = importlib.import_module("wire")
        # A thread here, not a process: its hot wait (wire.wait_hot) would hold the interpreter from this side.
        monkeypatch.setattr(self.runner, "HOT_WAIT_S", 0.0)
        monkeypatch.setattr(importlib.import_module("cudadrv"), "Driver", FakeDriver)
        FakeDriver.calls = []
        nbytes = 4 * self.SHAPE[0] * self.SHAPE[1]
        self.maps: list[mmap.mmap] = []
        fds: list[int] = []

        def memfile(size: int) -> str:
            fd = os.memfd_create("t", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
            os.ftruncate(fd, size)
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW)
            self.maps.append(mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE))
            fds.append(fd)
            return f"fd:{len(fds) - 1}:{size}"

        B = self.wire.Buffer
        buffers = [B("input 0", "input", self.SHAPE, "float32", nbytes, memfile(nbytes)),
                   B("output 0", "output", self.SHAPE, "float32", nbytes, memfile(nbytes))]
        arena = memfile(2 * sets * 4096 + 2 * sets * nbytes)
        self.arena, self.offsets = self.maps[-1], {}
        at = 0
        for j in range(1, sets + 1):
            for role in ("input", "output"):
                self.offsets[(role, -j)] = at
                buffers.append(B(f"{role} 0 [back-to-back {j}]", role, self.SHAPE, "float32", nbytes, arena, -j, at))
                at += nbytes + 4096 - nbytes % 4096
        self.nbytes = nbytes
        self.setup = self.wire.Setup(kind="cuda", device="cuda:0", artifact=str(artifact), buffers=buffers,
                                     contract=contract_layout(load_task(TASKS / "relu_positive.py")),
                                     flush_bytes=1 << 16)
        self.sock, theirs = socket.socketpair()
        self.thread = threading.Thread(target=self.runner.serve, args=(theirs,), daemon=True)
        self.thread.start()
        self.wire.send_fds(self.sock, fds)
        self.wire.send(self.sock, {"id": 0, "setup": self.setup.to_json()})
        assert self.wire.recv(self.sock, 30)["ok"]
        self.next_id = 1

    def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        self.next_id += 1
        self.wire.send(self.sock, {"id": self.next_id, "op": op, **fields})
        reply = self.wire.recv(self.sock, 30)
        assert reply["id"] == self.next_id
        return reply

    def tensor(self, role: str, group: int) -> torch.Tensor:
        if group == 0:
            m = self.maps[0 if role == "input" else 1]
            return torch.frombuffer(m, dtype=torch.float32, count=self.nbytes // 4).view(self.SHAPE)
        return torch.frombuffer(self.arena, dtype=torch.float32, count=self.nbytes // 4,
                                offset=self.offsets[(role, group)]).view(self.SHAPE)

    def close(self) -> None:
        self.wire.send(self.sock, {"id": 999, "op": "exit"})
        self.thread.join(10)
        self.sock.close()


def test_the_cuda_branch_calibrates_loads_calls_and_bursts_on_sets_at_offsets(monkeypatch, relu_so: Path) -> None:
    r = Runner(monkeypatch, relu_so, sets=5)
    try:
        empty = r.ask("burst", count=0, scalars={})  # the calibration: before the library is loaded
        assert empty["ok"], empty
        assert r.ask("calibrate", scalars={}, flush=True)["ok"]
        assert r.ask("load")["ok"]
        r.tensor("input", 0).copy_(torch.randn(r.SHAPE))
        timed = r.ask("call", scalars={}, timed=True, flush=True)
        assert timed["ok"] and timed["ms"] >= 0, timed
        assert torch.equal(r.tensor("output", 0), torch.relu(r.tensor("input", 0)))
        for j in range(1, 6):
            r.tensor("input", -j).copy_(torch.randn(r.SHAPE))
            r.tensor("output", -j).fill_(float("nan"))
        FakeDriver.calls.clear()
        burst = r.ask("burst", count=5, scalars={})
        assert burst["ok"], burst
        # Each set at its own offset of the shared allocation, written from its own inputs.
        for j in range(1, 6):
            assert torch.equal(r.tensor("output", -j), torch.relu(r.tensor("input", -j))), j
        # One synchronize before the calls and one after, nothing between them, no flush.
        assert FakeDriver.calls == ["sync", "sync"], FakeDriver.calls
    finally:
        r.close()


def test_the_shared_allocation_is_mapped_once(monkeypatch, relu_so: Path) -> None:
    r = Runner(monkeypatch, relu_so, sets=8)
    try:
        assert r.ask("ping")["ok"]
        assert FakeDriver.calls.count("open") == 3  # input, output and one allocation for all 16 buffers of the sets
    finally:
        r.close()


def test_bursts_are_refused_out_of_order(monkeypatch, relu_so: Path) -> None:
    r = Runner(monkeypatch, relu_so, sets=4)
    try:
        early = r.ask("burst", count=4, scalars={})  # calls before the candidate is loaded
        assert not early["ok"] and early["error"] == "protocol", early
        assert r.ask("load")["ok"]
        # An empty burst once the candidate is in the process: it could make that slow, and its bursts look fast.
        late = r.ask("burst", count=0, scalars={})
        assert not late["ok"] and late["error"] == "protocol", late
        for bad in (5, -1, True, "4"):
            reply = r.ask("burst", count=bad, scalars={})
            assert not reply["ok"] and reply["error"] == "protocol", (bad, reply)
        assert r.ask("burst", count=4, scalars={})["ok"]
    finally:
        r.close()
