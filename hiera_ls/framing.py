"""The LSP base protocol on stdin (`Content-Length: N` headers, a blank line, N bytes of JSON), read defensively.

pygls 2.1.1's reader (pygls/io_.py `run_async`) trusts the stream: it allocates whatever Content-Length
says (10**12 bytes: MemoryError, the server dies), and after a header without Content-Length, or a length
that does not match the body, it reads the following bodies as header lines and never finds its footing
again: deaf for the rest of the connection. This reader caps the length and, when a frame is wrong, reads
the JSON value that is actually there or skips to the next header, so one bad frame costs that frame only.

Pure: bytes in, `Frame`s out (stdio.py feeds it from stdin). A frame whose header cannot be trusted is
settled when the stream goes idle (`idle()`) or the next header arrives: until then its body may still be
on its way.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

MAX_BODY_BYTES = 64 << 20  # a 5 MB file opened in the editor is ~6 MB of JSON; nothing real comes near this
MAX_HEADER_BYTES = 8192

# A header's start anywhere (after a too-short body the next header follows the JSON directly, no newline).
_HEADER_START = re.compile(rb"content-(?:length|type)[ \t]*:", re.I)
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Frame:
    """One unit read from the stream: a message, or what went wrong in place of one."""

    message: Any = None  # the parsed JSON body; None when nothing could be read
    problem: str | None = None  # what was wrong with the frame (logged); with a message: recovered from
    rejected: bool = False  # read, but over the size limit by its own header: answer with an error, never handle


def _content_length(header: bytes, limit: int) -> tuple[int | None, str | None]:
    """The declared length (None when missing or unreadable, with the reason)."""
    for line in re.split(rb"\r?\n", header):
        name, sep, value = line.partition(b":")
        if sep and name.strip().lower() == b"content-length":
            v = value.strip()
            if not v.isdigit():
                return None, f"Content-Length {v[:24].decode(errors='replace')!r} is not a number"
            return (int(v) if len(v) <= 18 else limit + 1), None  # never parse a thousand-digit number
    return None, "a header without Content-Length"


class FrameReader:
    def __init__(self, max_body: int = MAX_BODY_BYTES) -> None:
        self.max_body = max_body
        self._buf = bytearray()
        self._probed_at = -1  # the buffer offset of the header last tried as the end of a too-long body
        self._searched_to = 0  # how far the current frame's body was searched for a following header

    @property
    def pending(self) -> bool:
        """Bytes are waiting: the caller should call idle() if nothing more arrives for a while."""
        return bool(self._buf)

    def feed(self, data: bytes) -> list[Frame]:
        self._buf += data
        return self._drain(idle=False)

    def idle(self) -> list[Frame]:
        """Nothing arrived for a while: settle a frame whose header promised more than came."""
        return self._drain(idle=True)

    # --- internals ----------------------------------------------------------------------------------------

    def _drain(self, idle: bool) -> list[Frame]:
        out: list[Frame] = []
        while self._buf and self._step(idle, out):
            pass
        return out

    def _step(self, idle: bool, out: list[Frame]) -> bool:
        """Read one frame from the buffer's start into `out`; False when it must wait for more bytes."""
        buf = self._buf
        start = _HEADER_START.search(buf)
        if start is None:
            keep = len(b"content-length:") - 1  # the tail may be the start of a header still arriving
            if len(buf) > keep:
                self._skip(len(buf) - keep, out)
            return False
        if start.start() > 0:
            self._skip(start.start(), out)
        end = _HEADER_END.search(buf, 0, MAX_HEADER_BYTES + 4)
        if end is None:
            if len(buf) <= MAX_HEADER_BYTES:
                return False
            out.append(Frame(problem=f"a header longer than {MAX_HEADER_BYTES} bytes; skipped"))
            self._consume(1)  # past this header's start: the search finds the next one
            return True
        at = end.end()
        length, why = _content_length(bytes(buf[: end.start()]), self.max_body)
        if length is not None and length <= self.max_body:
            return self._sized(at, length, idle, out)
        problem = why or f"Content-Length {length} is over the {self.max_body >> 20} MiB limit"
        # The body's end is unknown: settle once the stream pauses or the next header shows where it stops.
        if not (idle or _HEADER_START.search(buf, at) or len(buf) - at > self.max_body):
            return False
        found = self._json_at(at)
        if found is None:
            out.append(Frame(problem=problem + "; the frame was skipped"))
            self._consume(at)
            return True
        value, stop = found
        out.append(Frame(value, problem, rejected=length is not None))
        self._consume(stop)
        return True

    def _sized(self, at: int, length: int, idle: bool, out: list[Frame]) -> bool:
        buf = self._buf
        if len(buf) - at < length:
            # Normally the rest of the body is on its way; but a too-long length would wait forever, so try
            # the JSON that is there when the stream pauses or a new header appears (once per such header).
            # (searched from where the last look stopped: a large body arrives in many chunks)
            nxt = _HEADER_START.search(buf, max(at, self._searched_to - len(b"content-length:")))
            self._searched_to = len(buf)
            if not idle and (nxt is None or nxt.start() == self._probed_at):
                return False
            self._probed_at = nxt.start() if nxt else -1
            found = self._json_at(at)
            if found is None:
                return False
            value, stop = found
            out.append(Frame(value, f"Content-Length {length} but the body was {stop - at} bytes"))
            self._consume(stop)
            return True
        try:
            value = json.loads(bytes(buf[at : at + length]))
        except ValueError:
            value = None
        else:
            out.append(Frame(value))
            self._consume(at + length)
            return True
        # Not JSON at its declared length: the length is wrong (too short) or the body is garbage.
        found = self._json_at(at)
        if found is not None:
            value, stop = found
            out.append(Frame(value, f"Content-Length {length} but the body was {stop - at} bytes"))
            self._consume(stop)
            return True
        if not (idle or _HEADER_START.search(buf, at + length)):
            return False  # a too-short length whose JSON is still arriving
        out.append(Frame(problem=f"the {length}-byte body is not JSON; skipped"))
        self._consume(at + length)
        return True

    def _json_at(self, at: int) -> tuple[Any, int] | None:
        """The JSON object (or array) starting at `at` and its end offset, when it is followed by nothing but
        whitespace or the next header; None otherwise."""
        text = self._buf[at:].decode("utf-8", "surrogateescape")  # byte offsets survive the round trip
        start = len(text) - len(text.lstrip())
        try:
            value, end = _DECODER.raw_decode(text, start)
        except ValueError:
            return None
        rest = text[end:].lstrip().encode("utf-8", "surrogateescape")
        if not isinstance(value, (dict, list)) or (rest and not _HEADER_START.match(rest)):
            return None
        return value, at + len(text[:end].encode("utf-8", "surrogateescape"))

    def _consume(self, n: int) -> None:
        del self._buf[:n]
        self._probed_at, self._searched_to = -1, 0  # offsets into the frame just consumed

    def _skip(self, n: int, out: list[Frame]) -> None:
        dropped = bytes(self._buf[:n])
        self._consume(n)
        if dropped.strip():
            out.append(Frame(problem=f"skipped {n} bytes that were not a message"))
