"""Plain progress lines on stdout, for a log file or a CI job: when stdout is not a terminal.

The human output goes to stderr (rich: a live bar, colours); stdout carries JSON only when asked (`--json`,
`--events jsonl`). So `hiera bench > log` left the log empty until the end, and a CI log that keeps only
stdout got nothing at all. When stdout is not a terminal, carries no JSON and is not the file stderr writes
to already (`> log 2>&1`: the same lines would be there twice), each command writes a start line, one line
per finished candidate or task, and its end, as plain text, flushed as it happens.
"""

from __future__ import annotations

import io
import os
import sys


def wanted(json_on_stdout: bool) -> bool:
    if json_on_stdout:
        return False
    out = sys.stdout
    try:
        if out.isatty():
            return False
        return not os.path.samestat(os.fstat(out.fileno()), os.fstat(sys.stderr.fileno()))
    except (OSError, ValueError, io.UnsupportedOperation):  # a stream without a file (a test's capture)
        return True


class PlainLines:
    """say(text) writes one line on stdout when plain lines are wanted, else nothing."""

    def __init__(self, json_on_stdout: bool):
        self.on = wanted(json_on_stdout)

    def say(self, text: str) -> None:
        if self.on:
            print(" ".join(text.split()), flush=True)
