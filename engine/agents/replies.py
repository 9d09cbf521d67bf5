"""Tolerant reading of model replies: a JSON object from chatty text, a source file from a code block.

Models wrap JSON in code fences, put prose before it, leave trailing commas, use single quotes or Python
literals (True/None), and cut replies off at max_tokens. Each of these is repaired where the intent is
unambiguous; anything else is a ReplyError whose message says what was wrong (it becomes the reason of an
Invalid candidate or of a fallback decision, so it must be readable by a person).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any


class ReplyError(ValueError):
    """A reply that does not contain what was asked for."""


def _snippet(text: str, n: int = 80) -> str:
    s = " ".join(text.split())
    return s[:n] + ("..." if len(s) > n else "")


# --- JSON -------------------------------------------------------------------------------------------------

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


def _balanced_object(text: str, start: int) -> str | None:
    """The {...} starting at text[start], matching braces outside strings (either quote style)."""
    depth, quote, escaped = 0, "", False
    for i in range(start, len(text)):
        c = text[i]
        if quote:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def _json_candidates(text: str) -> list[str]:
    """Substrings that may hold the object, most likely first: fenced blocks, then each top-level {...}."""
    out = [m.group(2) for m in _FENCE.finditer(text) if "{" in m.group(2)]
    out += [b for b in (_balanced_object(text, m.start()) for m in re.finditer(r"\{", text)) if b]
    return out


def _pythonize(src: str) -> str:
    """JSON-ish text as a Python literal: true/false/null -> True/False/None, // comments dropped.

    Done with a scanner rather than a regex so that the words inside strings stay untouched.
    """
    out: list[str] = []
    i, n, quote = 0, len(src), ""
    words = {"true": "True", "false": "False", "null": "None"}
    while i < n:
        c = src[i]
        if quote:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(src[i + 1])
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
            out.append(c)
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            word = src[i:j]
            out.append(words.get(word, word))
            i = j
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def _load_one(candidate: str) -> dict[str, Any] | None:
    attempts = (
        lambda s: json.loads(s),
        lambda s: json.loads(_TRAILING_COMMA.sub(r"\1", s)),
        # Python's literal syntax accepts single quotes and trailing commas; literal_eval runs no code.
        lambda s: ast.literal_eval(_pythonize(s)),
    )
    for attempt in attempts:
        try:
            value = attempt(candidate)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return None


def parse_json_object(text: str | None) -> dict[str, Any]:
    """The first JSON object in a reply, repaired if needed. Raises ReplyError."""
    if not text or not text.strip():
        raise ReplyError("the reply was empty")
    for candidate in [text.strip(), *_json_candidates(text)]:
        value = _load_one(candidate.strip())
        if value is not None:
            return value
    if "{" not in text:
        raise ReplyError(f"the reply holds no JSON object: {_snippet(text)!r}")
    raise ReplyError(f"the reply's JSON could not be read even after repairs: {_snippet(text)!r}")


# --- code -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CodeBlock:
    lang: str
    source: str
    closed: bool  # False when the reply ended inside the block (cut off at max_tokens)


def code_blocks(text: str) -> list[CodeBlock]:
    blocks = []
    for m in _FENCE.finditer(text):
        closed = text[m.end() - 3 : m.end()] == "```" and m.end() - 3 >= m.start(2)
        blocks.append(CodeBlock(m.group(1).lower(), m.group(2).rstrip() + "\n", closed))
    return blocks


def extract_code(text: str | None, langs: tuple[str, ...], must_contain: str) -> str:
    """The source file in a reply: the fenced block in one of `langs` (else the largest block) that
    contains `must_contain` (the entry point). A reply that is bare source (no fences) is accepted only
    when it clearly is the file: it contains the entry point and no prose line precedes the code.
    Raises ReplyError.
    """
    if not text or not text.strip():
        raise ReplyError("the reply was empty")
    blocks = code_blocks(text)
    if not blocks:
        stripped = text.strip()
        first = stripped.splitlines()[0]
        if must_contain in stripped and re.match(r"\s*(#|//|/\*|import |from |extern |template|static |"
                                                 r"__global__|int |void |class |\"\"\")", first):
            return stripped + "\n"
        raise ReplyError(f"the reply has no code block: {_snippet(text)!r}")
    with_entry = [b for b in blocks if must_contain in b.source]
    if not with_entry:
        raise ReplyError(f"the reply's code does not define {must_contain} "
                         f"({len(blocks)} code block(s), none with it)")
    preferred = [b for b in with_entry if b.lang in langs] or with_entry
    best = max(preferred, key=lambda b: len(b.source))
    if not best.closed:
        raise ReplyError("the reply was cut off inside the code block (raise max_tokens or shorten the kernel)")
    return best.source
