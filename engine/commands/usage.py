"""The one error every command says as a usage error (exit 2): its own module, so that the checks a command
makes before anything runs (checks.py) and the helpers every command shares (common.py) can both raise it
without importing each other."""

from __future__ import annotations


class UsageError(Exception):
    """What the user asked for cannot be done as asked; the message says what is wrong and what to do."""
