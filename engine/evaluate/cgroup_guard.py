"""The guard of one process's runner groups (cgroups.py): reads a group per line (JSON) on stdin until the
process that made them is gone (the pipe closes: an exit, a crash or a SIGKILL alike), then thaws, kills and
removes every group that is still there. A group closed in the normal way is gone by then and is skipped.

Run by cgroups._Guard as `python -m engine.evaluate.cgroup_guard`, in a session of its own (a Ctrl-C at the
terminal, or a kill of the checker's process group, does not reach it) and outside every runner group (a
runner cannot freeze or kill it). Imports only the standard library and cgroups.py.
"""

from __future__ import annotations

import signal
import sys

from engine.evaluate.cgroups import Group


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    groups: list[Group] = []
    for line in sys.stdin.buffer:
        try:
            groups.append(Group.from_json(line.decode()))
        except (ValueError, KeyError, TypeError):
            continue  # only hiera's own process writes here; a torn last line is not a group
    for g in groups:
        if g.exists():
            g.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
