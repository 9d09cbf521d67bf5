"""pygls's LanguageServerProtocol with document sync that survives a client's mistakes and large files.

Two of pygls 2.1.1's built-in handlers are replaced:

* `textDocument/didChange` for a document that was never opened raised KeyError inside pygls, which showed
  the user an error toast; here it is logged and ignored (the document is not ours to track).
* An incremental change was applied by re-joining every line of the document in a Python loop (44 ms per
  keystroke in a 5 MB file on the development machine), and then by splitting the whole text into lines per
  keystroke (36 ms); here the offsets of the document's line starts are kept between changes (`LineStarts`), so a
  keystroke costs a lookup, one slice-and-join of the text and a shift of the line starts after it (a few ms in
  a 5 MB file), and the hover that follows it is not queued behind 30 ms of splitting. Lines and characters are
  converted by pygls's own position codec over pygls's own line model (str.splitlines), so positions mean what
  pygls means.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Generator, Sequence
from typing import Any, overload
from urllib.parse import unquote

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.workspace import TextDocument

log = logging.getLogger("hiera_ls")

# What str.splitlines() ends a line at (pygls's line model), "\r\n" as one separator.
_LINE_END = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


class LineStarts(Sequence[str]):
    """A text's lines as str.splitlines(True) gives them, from the offsets where they start (kept up to date
    across incremental changes by `apply_change`), without making a string per line."""

    def __init__(self, text: str, starts: list[int] | None = None) -> None:
        self.text = text
        self.starts = starts if starts is not None else [0, *(m.end() for m in _LINE_END.finditer(text))]

    def __len__(self) -> int:  # a text ending with a line end has no empty last line (splitlines)
        return len(self.starts) - (1 if self.starts[-1] == len(self.text) else 0)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self.text[self.starts[i]: self.starts[i + 1] if i + 1 < len(self.starts) else len(self.text)]

    def offset(self, line: int, character: int) -> int:
        return self.starts[line] + character

    def replaced(self, start: int, end: int, new: str) -> LineStarts:
        """The lines after text[start:end] is replaced by `new`: the starts before the edit kept, those inside it
        made from `new`, those after it shifted. A carriage return at either side of the edit could join or
        split a "\r\n", so those rare edits count the lines again."""
        text = self.text[:start] + new + self.text[end:]
        if "\r" in new or (start > 0 and self.text[start - 1] == "\r"):
            return LineStarts(text)
        first = bisect.bisect_right(self.starts, start)  # starts at or before `start` stay
        after = bisect.bisect_right(self.starts, end)  # starts inside (start, end] go with the replaced text
        delta = len(new) - (end - start)
        inside = [start + m.end() for m in _LINE_END.finditer(new)]
        return LineStarts(text, self.starts[:first] + inside + [x + delta for x in self.starts[after:]])


def apply_change(doc: TextDocument, change: types.TextDocumentContentChangeEvent,
                 lines: LineStarts | None = None) -> LineStarts:
    """Apply one change to the document; returns its lines after it (pass them back in with the next change)."""
    src = doc.source
    if lines is None or lines.text is not src:
        lines = LineStarts(src)
    if not isinstance(change, types.TextDocumentContentChangePartial):
        doc.apply_change(change)
        return LineStarts(doc.source)
    if change.range.start.line >= len(lines):  # an edit at the very end of the file (as pygls treats it)
        after = lines.replaced(len(src), len(src), change.text)
    else:
        rng = doc.position_codec.range_from_client_units(lines, change.range)
        start = lines.offset(rng.start.line, rng.start.character)
        end = lines.offset(rng.end.line, rng.end.character) if rng.end.line < len(lines) else len(src)
        after = lines.replaced(start, max(end, start), change.text)
    doc.apply_change(types.TextDocumentContentChangeWholeDocument(text=after.text))
    return after


class HieraProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lines: dict[str, LineStarts] = {}  # each changed document's line starts, by URI (apply_change)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Generator[Any, Any, None]:
        self._lines.pop(unquote(params.text_document.uri), None)
        yield from super().lsp_text_document__did_close(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams
                                      ) -> Generator[Any, Any, None]:
        uri = params.text_document.uri
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is None:
            log.warning("didChange for %s, which was never opened: ignored", uri)
            self._server.window_log_message(types.LogMessageParams(
                types.MessageType.Warning, f"hiera-ls: protocol: didChange for {uri}, which is not open: ignored"))
            return
        lines = self._lines.get(unquote(uri))
        for change in params.content_changes:
            lines = apply_change(doc, change, lines)
        self._lines[unquote(uri)] = lines
        doc.version = params.text_document.version
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None
