"""Work beside the main thread, how a run is stopped, and signals held off while a stop is recorded: what the loop
and the commands that drive it share (a run waits on subprocesses on several threads; a second Ctrl-C must not leave
half a record)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any


def in_background(fn: Callable[[], Any]) -> Future[Any]:
    """fn on a thread of its own (it waits on a subprocess; the loop's thread goes on meanwhile)."""
    future: Future[Any] = Future()

    def run() -> None:
        try:
            future.set_result(fn())
        except BaseException as e:
            future.set_exception(e)

    threading.Thread(target=run, name="hiera-background", daemon=True).start()
    return future


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold off Ctrl-C and SIGTERM while a stop is being recorded: a second Ctrl-C must not leave the
    evaluation's processes running (they have their own session) or the run half recorded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


class Terminated(KeyboardInterrupt):
    """SIGTERM (the editor's cancel, a scheduler's stop), raised where the run is, as Ctrl-C raises
    KeyboardInterrupt: every place that stops cleanly on Ctrl-C stops cleanly on it."""


def stop_reason(stop: BaseException) -> str:
    """Why a run stopped, for RunResult.stop_reason (contracts/runrecord.py STOP_REASONS)."""
    from engine.deadline import DeadlineReached

    if isinstance(stop, DeadlineReached):
        return "deadline"
    if isinstance(stop, Terminated):
        return "terminated"
    return "interrupted"
