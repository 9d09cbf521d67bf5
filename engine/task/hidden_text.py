"""Characters a reader of a source cannot see, refused in candidate sources before anything builds or runs.

Bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C) reorder what an editor shows: code
the compiler sees reads as a comment ("Trojan Source", CVE-2021-42574), so a reviewer of the exported file,
the user, approves what is not there; zero-width and other format characters (U+200B, U+2060, U+FEFF) split
or join identifiers invisibly; control characters but tab, newline and carriage return, and the line and
paragraph separators (U+2028/9, which some tools take for newlines), do the same to lines. The compiler's
warning about them sits in a build log no one reads for a valid candidate (issue 42), so a candidate holding
any is refused with a reason that says where, and an export refuses to embed one. Other non-ASCII text
(an accented name in a comment, a µ in a string) is visible and stays allowed.
"""

from __future__ import annotations

import unicodedata

_ALLOWED_CONTROLS = {"\t", "\n", "\r"}
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def _hidden(ch: str) -> bool:
    if ch in _ALLOWED_CONTROLS:
        return False
    return ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def _name(ch: str) -> str:
    return unicodedata.name(ch, "an unnamed character" if unicodedata.category(ch) != "Cc" else "a control character")


def hidden_characters(source: str, limit: int = 5) -> list[str]:
    """Where `source` holds characters a reader cannot see: "line L, column C: U+XXXX NAME", the first `limit`."""
    found: list[str] = []
    for n, line in enumerate(source.split("\n"), start=1):
        for col, ch in enumerate(line, start=1):
            if _hidden(ch) and not (ch == "\r" and col == len(line)):
                found.append(f"line {n}, column {col}: U+{ord(ch):04X} {_name(ch)}")
                if len(found) >= limit:
                    return found
    return found


def refusal(source: str) -> str | None:
    """Why a candidate source is refused for hidden characters (None: it holds none)."""
    found = hidden_characters(source)
    if not found:
        return None
    bidi = any(f"U+{ord(c):04X}" in f for f in found for c in _BIDI)
    why = ("bidirectional controls reorder what a reader sees, so code can read as a comment (Trojan Source)"
           if bidi else "they hide or reorder code from whoever reads the source")
    return (f"the source holds characters a reader cannot see ({'; '.join(found)}): {why}. Remove them (write "
            "plain text; a non-ASCII character a string needs can be written as an escape such as \\u00b5)")
