"""Work that grows with a file, off the event loop and off the GIL: parsing Python (ast), the disk walk, the
kernel scan of a large .cu.

`ast.parse` holds the GIL for its whole run (9 s for a 5 MB file on the development machine's loaded 2
cores), so in a thread it would still stall every handler; in a child process it stalls nothing. Small
inputs (nearly every module file) run in a thread, which costs no round trip and needs no child.

The child is `python -m hiera_ls.launch python -m hiera_ls.scanworker` (it dies with the server), started on
first use and again if it dies; one request at a time. Should it fail to start, everything runs in threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import sys
from typing import Any

from hiera_ls import scanworker

log = logging.getLogger(__name__)

SMALL_BYTES = 64 << 10  # below this a parse takes milliseconds: a thread is cheaper than the child
CALL_TIMEOUT_S = 120.0


class ScanWorker:
    def __init__(self) -> None:
        self._proc: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._failures = 0  # after a few, the child is given up and threads do the work

    async def run(self, name: str, *args: Any, size: int = SMALL_BYTES) -> Any:
        """FUNCTIONS[name](*args): in the child when `size` (the input's bytes) is large, else in a thread."""
        fn = scanworker.FUNCTIONS[name]
        if size < SMALL_BYTES or self._failures >= 3:
            return await asyncio.to_thread(fn, *args)
        try:
            return await self._call(name, args)
        except (OSError, EOFError, asyncio.IncompleteReadError, asyncio.TimeoutError, pickle.PickleError) as e:
            log.warning("scan worker failed (%s: %s); scanning in a thread", type(e).__name__, e)
            self._failures += 1
            self.stop()
            return await asyncio.to_thread(fn, *args)

    async def _call(self, name: str, args: tuple[Any, ...]) -> Any:
        async with self._lock:
            proc = await self._ensure()
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(scanworker.frame(pickle.dumps((name, args), protocol=pickle.HIGHEST_PROTOCOL)))
            await proc.stdin.drain()

            async def reply() -> bytes:
                assert proc.stdout is not None
                (n,) = scanworker.HEAD.unpack(await proc.stdout.readexactly(scanworker.HEAD.size))
                return await proc.stdout.readexactly(n)

            try:
                ok, value = pickle.loads(await asyncio.wait_for(reply(), CALL_TIMEOUT_S))
            except asyncio.CancelledError:
                self.stop()  # its reply is half read: the next caller must not read the rest as its own
                raise
        if not ok:
            raise OSError(f"{name} failed in the scan worker: {value}")
        return value

    async def _ensure(self) -> asyncio.subprocess.Process:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "hiera_ls.launch", sys.executable, "-m", "hiera_ls.scanworker",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 20)
        return self._proc

    def stop(self) -> None:
        """Kill the child (the server is going away, or the child misbehaved); the next call starts another."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
