"""The parsed view of open documents (module classes of a .py, kernels of a .cu), kept current off the event loop.

A document's first scan starts when it opens, and a request that needs it waits for it briefly
(FIRST_WAIT_S) when the file is small (a thread parses it in milliseconds; a large one takes the scan worker
seconds, and a hover must not wait half a second for a parse that will not end by then). Later scans start
once typing pauses (DEBOUNCE_S), at most one per document at a time, and a request in the meantime is answered
from the last scan: while typing in a 5 MB file, a hover costs what a hover costs, not a parse. A scan of a text
that was edited while it was parsed is still used for the classes that end before the first edited line (their
lines have not moved), so a user who types from the moment a large file opens still gets its classes. Large
texts are parsed by the scan worker (scanner.py), so neither the event loop nor the GIL waits on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

from hiera_ls.files import MAX_SOURCE_BYTES
from hiera_ls.index import WorkspaceIndex
from hiera_ls.modules import EMPTY, Kernel, PythonScan
from hiera_ls.scanner import SMALL_BYTES, ScanWorker

log = logging.getLogger(__name__)

DEBOUNCE_S = 0.3
FIRST_WAIT_S = 0.5


class DocumentScans:
    def __init__(self, scanner: ScanWorker, index: WorkspaceIndex, text_of: Callable[[Path], str | None],
                 on_scanned: Callable[[Path], None]) -> None:
        self.scanner = scanner
        self.index = index
        self.text_of = text_of  # an open document's current text, None when it is not open
        self.on_scanned = on_scanned  # a scan changed what the index knows: republish, refresh lenses
        self._timers: dict[Path, asyncio.TimerHandle] = {}
        self._running: dict[Path, asyncio.Task[None]] = {}
        self._again: set[Path] = set()  # changed while its scan ran: scan once more when it ends
        self._first: dict[Path, asyncio.Task[None]] = {}
        self._kernels: dict[Path, tuple[int, int, list[Kernel]]] = {}
        self._told_too_large: set[Path] = set()
        # The first line edited since the running scan took its text (None: not edited since), by document.
        self._edited_from: dict[Path, int | None] = {}

    # --- document events ----------------------------------------------------------------------------------

    def opened(self, path: Path) -> None:
        self._cancel_timer(path)
        self._first[path] = self._start(path)

    def changed(self, path: Path, first_line: int = 0) -> None:
        """The document was edited from `first_line` on (0: anywhere, e.g. a whole-text change)."""
        if path in self._edited_from:
            was = self._edited_from[path]
            self._edited_from[path] = first_line if was is None else min(was, first_line)
        self._cancel_timer(path)
        self._timers[path] = asyncio.get_running_loop().call_later(DEBOUNCE_S, self._fire, path)

    def closed(self, path: Path) -> None:
        self._cancel_timer(path)
        self._first.pop(path, None)
        self._edited_from.pop(path, None)
        self._kernels.pop(path, None)

    # --- what requests read -------------------------------------------------------------------------------

    async def scan_of(self, path: Path) -> PythonScan | None:
        """The document's scan: waits up to FIRST_WAIT_S for its first one, never for later ones."""
        first = self._first.get(path)
        text = self.text_of(path)
        if first is not None and not first.done() and text is not None and len(text) < SMALL_BYTES:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(first), FIRST_WAIT_S)
        return self.index.scan(path)

    async def parse(self, text: str) -> PythonScan:
        return await self.scanner.run("scan_python", text, size=len(text))

    async def kernels(self, path: Path, text: str) -> list[Kernel]:
        """The kernels of a .cu text, computed once per text (str hashes are cached: the lookup is O(1))."""
        key = (hash(text), len(text))
        hit = self._kernels.get(path)
        if hit is not None and hit[:2] == key:
            return hit[2]
        found = await self.scanner.run("find_kernels", text, size=len(text))
        self._kernels[path] = (*key, found)
        return found

    # --- internals ----------------------------------------------------------------------------------------

    def _cancel_timer(self, path: Path) -> None:
        timer = self._timers.pop(path, None)
        if timer is not None:
            timer.cancel()

    def _fire(self, path: Path) -> None:
        self._timers.pop(path, None)
        if path in self._running:
            self._again.add(path)
        else:
            self._start(path)

    def _start(self, path: Path) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(self._scan(path), name=f"scan {path.name}")
        self._running[path] = task
        task.add_done_callback(lambda t: self._ended(path, t))
        return task

    def _ended(self, path: Path, task: asyncio.Task[None]) -> None:
        if self._running.get(path) is task:
            del self._running[path]
        if not task.cancelled() and task.exception() is not None:
            log.error("scanning %s failed", path, exc_info=task.exception())
        if path in self._again:
            self._again.discard(path)
            self._start(path)

    async def _scan(self, path: Path) -> None:
        text = self.text_of(path)
        if text is None:
            return  # closed meanwhile
        self._edited_from[path] = None
        if len(text) > MAX_SOURCE_BYTES:
            if path not in self._told_too_large:
                self._told_too_large.add(path)
                log.warning("%s is over %d MB: not indexed", path, MAX_SOURCE_BYTES >> 20)
            scan = EMPTY
        else:
            scan = await self.parse(text)
        if self.text_of(path) is not text:  # edited while it was parsed: the debounced scan follows
            edited = self._edited_from.get(path)
            if edited is None:
                return
            # Until then, the classes that end before the first edited line are where the scan found them.
            kept = tuple(m for m in scan.modules if m.end_line < edited)
            if not kept or (path in self.index.py and self.index.py[path].modules):
                return  # nothing to keep, or an earlier scan of this document still stands
            scan = PythonScan(kept, scan.is_result, scan.syntax_error)
        self.index.py[path] = scan
        self.on_scanned(path)
