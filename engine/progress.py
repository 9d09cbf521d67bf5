"""The run's work, counted once, by the engine: how many steps it has done of how many it will do, and a heartbeat
during a long one. Every view (the CLI's bar and plain lines, the editor's progress) shows these numbers rather
than counting for itself: the CLI's bar counted the 18 candidates a run asked for where the expert backend wrote
10 on the CPU, read 3/3 after a Ctrl-C, and nothing was said for 75 s while a torch.compile candidate ran.

A step is a candidate's evaluation (a round's count is what its backend generated, once it has; later rounds count
what they asked for), a re-timing's evaluation, or a profile; a re-timing or a profile is added to the total when
it begins (nobody knows before how many the run will need). While one step lasts, a `progress` event says so every
HEARTBEAT_S, with how long it has run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from contracts.runrecord import Progress

HEARTBEAT_S = 15.0


class WorkCount:
    """The counts behind the `progress` events of one run (contracts/runrecord.py Progress)."""

    def __init__(self, emit: Callable[[Progress], None], sizes: list[int], heartbeat_s: float = HEARTBEAT_S):
        self._emit = emit
        self.sizes = list(sizes)  # each round's candidates as asked
        self.generated: dict[int, int] = {}  # each round's candidates as generated
        self.extra = 0  # re-timings and profiles begun
        self.done = 0
        self.what = "starting"
        self.since = time.monotonic()
        self.heartbeat_s = heartbeat_s
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._last = time.monotonic()
        self._thread: threading.Thread | None = None

    @property
    def total(self) -> int:
        rounds = sum(self.generated.get(r, n) for r, n in enumerate(self.sizes, start=1))
        return max(rounds + self.extra, self.done)

    def _say(self, seconds: float | None = None) -> None:
        self._last = time.monotonic()
        self._emit(Progress(self.done, self.total, self.what, None if seconds is None else round(seconds, 1)))

    # --- what the loop tells it ---------------------------------------------------------------------------------

    def resumed(self, rounds_done: dict[int, int]) -> None:
        """A resumed run: its finished rounds' candidates are done already."""
        with self._lock:
            self.generated.update(rounds_done)
            self.done = sum(rounds_done.values())

    def round_generated(self, r: int, n: int) -> None:
        with self._lock:
            self.generated[r] = n
            self.what = f"round {r}: building its {n} candidate{'s' if n != 1 else ''}"
            self.since = time.monotonic()
            self._say()

    def begin(self, what: str, extra: bool = False) -> None:
        """A step begins (extra: a re-timing or a profile, added to the total now)."""
        with self._lock:
            self.extra += int(extra)
            self.what = what
            self.since = time.monotonic()
            if extra:
                self._say()

    def finish(self, what: str | None = None) -> None:
        with self._lock:
            self.done += 1
            self.what = what or f"done: {self.what}"
            self.since = time.monotonic()
            self._say()

    # --- the heartbeat ------------------------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._beat, name="hiera-heartbeat", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _beat(self) -> None:
        while not self._stop.wait(1.0):
            with self._lock:
                now = time.monotonic()
                if now - self._last >= self.heartbeat_s:
                    self._say(now - self.since)
