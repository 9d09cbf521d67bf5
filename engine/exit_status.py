"""A process's exit status in words, for every message that says how a child process ended (the task's probe,
the evaluation worker, a candidate's runner, a bench task's optimize process): one wording everywhere."""

from __future__ import annotations

import signal


def exit_text(code: int | None, sandboxed: bool = False, oom_hint: bool = False) -> str:
    """'exit status 3', 'killed by signal SIGKILL'. bwrap reports its child's signal as 128 + N (`sandboxed`).
    `oom_hint` adds the usual cause of a SIGKILL nobody here sent: a process that only loads the user's module
    (the task's probe) is killed so by the system running out of memory, not by a timeout of ours."""
    if code is None:
        return "no exit status"
    if sandboxed and 128 < code < 160:
        code = 128 - code
    if code >= 0:
        return f"exit status {code}"
    try:
        text = f"killed by signal {signal.Signals(-code).name}"
    except ValueError:
        text = f"killed by signal {-code}"
    return text + (", often the system running out of memory" if oom_hint and -code == signal.SIGKILL else "")
