"""Text that came from candidate code (failure reasons, build logs, runner output, notes), made inert to show.

A candidate controls what its compiler prints, what its runner's error says and what its notes hold, and
that text reaches a terminal (rich passes control sequences through), the editor and the LLM's next prompt.
An ESC sequence can move the cursor and overwrite the status row with "valid"; a carriage return can
overwrite a line; bidirectional overrides reorder what a reader sees (the "Trojan Source" trick). `clean`
turns each of them into a visible escape (`\\x1b`, `\\r`, `\\u202e`) and keeps newlines and tabs.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls (U+009B is a one-character CSI on some terminals), and the
# bidirectional formatting characters.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _visible(m: re.Match[str]) -> str:
    c = m.group(0)
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def clean(text: str) -> str:
    """`text` with every control character shown as its escape (a CRLF becomes a newline)."""
    return _CONTROL.sub(_visible, text.replace("\r\n", "\n"))


def escape(text: str) -> str:
    """For rich: cleaned, then with its markup escaped (rich would read `[torch.rand(...)]` as a tag)."""
    from rich.markup import escape as markup_escape  # here: the run store's readers import this module too

    return markup_escape(clean(text))
