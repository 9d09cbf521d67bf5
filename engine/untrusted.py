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


# --- host paths --------------------------------------------------------------------------------------------
# A sandboxed process sees where its folders come from: /proc/self/mountinfo names the host path of every bind
# (the runner's scratch under the workspace, hiera's own files, the Python installation), and a candidate that
# raises it, or #includes it into a compiler error, put the user's workspace paths into a failure reason that
# went back to the LLM (issue 42). Every host folder a sandbox is given is registered here (sandbox.command),
# with the user's home and working folder; `scrub` replaces each, wherever it appears, by HOST_PATH.

HOST_PATH = "<host path>"
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/proc", "/dev", "/sys", "/tmp")
_host_paths: set[str] = set()
_pattern: re.Pattern[str] | None = None


def register_host_path(path: object) -> None:
    """A host folder or file a sandboxed process can learn the location of (system folders are not secret)."""
    global _pattern
    import os

    for p in {str(path), os.path.realpath(str(path))}:
        p = p.rstrip("/")
        if len(p) > 1 and p not in _SYSTEM and p not in _host_paths:
            _host_paths.add(p)
            _pattern = None


def _compiled() -> re.Pattern[str] | None:
    global _pattern
    if _pattern is None:
        import os

        for p in (os.path.expanduser("~"), os.getcwd()):
            if len(p) > 1 and p not in _SYSTEM:
                _host_paths.add(p.rstrip("/"))
        if not _host_paths:
            return None
        # Longest first (a scratch folder before the workspace it is in); a path ends where a name does.
        alts = "|".join(re.escape(p) for p in sorted(_host_paths, key=len, reverse=True))
        _pattern = re.compile(f"(?:{alts})(?![\\w.-])")
    return _pattern


_TRAILING_PATH = re.compile(r"/[^\s'\"]*$")


def scrub(text: str) -> str:
    """`text` with every registered host path replaced by HOST_PATH (what follows it, inside it, is kept); a
    text cut short in the middle of one (a reason capped at a length) loses that beginning too."""
    pattern = _compiled()
    if pattern is None or not text:
        return text
    text = pattern.sub(HOST_PATH, text)
    tail = _TRAILING_PATH.search(text)
    if tail and len(tail.group(0)) > 1 and any(p.startswith(tail.group(0)) for p in _host_paths):
        text = text[:tail.start()] + HOST_PATH
    return text
