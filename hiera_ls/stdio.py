"""The server on stdio: framing.py reads the frames, `Dispatcher` holds each message to JSON-RPC 2.0 and the
LSP lifecycle, and answers every request itself whenever pygls would not answer it.

Why not pygls's `start_io` (2.1.1): its reader trusts Content-Length (framing.py says how that goes wrong);
it deserializes inside `json.loads`, so a request it cannot read (no `params`, a hover without a position,
a negative line) gets no response at all, only an "Invalid Params" error toast, and the client waits
forever; it drops requests after `shutdown` silently (the spec: InvalidRequest), accepts an object as a
request id, and its `exit` handler's `sys.exit(1)` (exit without shutdown) is swallowed by `start_io`'s own
`except SystemExit`, so the process exits 0. Here pygls still handles every message that is well formed
(`protocol.handle_message`); only the checks around it are ours.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

import cattrs
from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from hiera_ls.framing import Frame, FrameReader

log = logging.getLogger("hiera_ls")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002
IDLE_S = 0.5  # a frame whose header promised more than came is settled after this long without bytes
READ_CHUNK = 1 << 16
CHUNKS_IN_FLIGHT = 8  # the stdin thread waits for the loop beyond this: a flood cannot fill memory
EXIT_GRACE_S = 2.0


def _params_problem(exc: BaseException) -> str:
    """What is wrong with a message's params, with where: "required field missing @ $.params.position",
    "Position.line should be in range [0:2147483647], but was -1. @ $.params.position"."""
    cause = exc.__cause__ or exc
    if isinstance(cause, cattrs.ClassValidationError):
        def why(e: BaseException, _type: Any) -> str:
            return "required field missing" if isinstance(e, KeyError) else str(e) or type(e).__name__

        return "; ".join(cattrs.transform_error(cause, path="$", format_exception=why))[:500]
    return f"{type(cause).__name__}: {cause}"[:500]


class Dispatcher:
    """Checks messages before pygls handles them; answers what pygls would leave unanswered."""

    def __init__(self, server: LanguageServer, on_exit: Callable[[int], None]) -> None:
        self.server = server
        self.protocol = server.protocol
        self.on_exit = on_exit
        self.initialized = False
        self.shut_down = False
        self.closed = False

    # --- reporting ------------------------------------------------------------------------------------

    def problem(self, text: str) -> None:
        """A protocol problem: logged (stderr and window/logMessage), never shown as a toast."""
        log.warning("protocol: %s", text)
        with contextlib.suppress(Exception):
            self.server.window_log_message(types.LogMessageParams(types.MessageType.Warning,
                                                                  f"hiera-ls: protocol: {text}"))

    def error(self, msg_id: Any, code: int, message: str) -> None:
        self.problem(message)
        # A raw dict: the error answer to an unreadable id must carry `"id": null`, which cattrs would drop.
        self.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    # --- messages -------------------------------------------------------------------------------------

    def handle(self, frame: Frame) -> None:
        if self.closed:
            return
        if frame.problem:
            self.problem(frame.problem)
        if frame.message is None:
            return
        raw = frame.message
        if frame.rejected:  # over the size limit by its own header: answered, never handled
            if isinstance(raw, dict) and "method" in raw and _valid_id(raw.get("id")):
                self.error(raw["id"], INVALID_REQUEST, f"message over the size limit ({frame.problem})")
            return
        try:
            self.message(raw)
        except Exception:  # a bug in a check must not end the connection
            log.exception("dispatching a message failed")

    def message(self, raw: Any) -> None:
        if not isinstance(raw, dict):
            kind = "a batch (JSON array)" if isinstance(raw, list) else type(raw).__name__
            self.error(None, INVALID_REQUEST, f"{kind} is not a JSON-RPC message LSP accepts; send one object")
            return
        has_id, msg_id, method = "id" in raw, raw.get("id"), raw.get("method")
        if method is None:
            self.response(raw)
            return
        if has_id and not _valid_id(msg_id):
            self.error(None, INVALID_REQUEST, f"request id {msg_id!r} is not a number or a string")
            return
        if raw.get("jsonrpc") != "2.0" or not isinstance(method, str):
            why = "no \"jsonrpc\": \"2.0\"" if raw.get("jsonrpc") != "2.0" else "the method is not a string"
            if has_id:
                self.error(msg_id, INVALID_REQUEST, f"invalid request: {why}")
            else:
                self.problem(f"notification dropped: {why}")
            return
        if method == types.EXIT:
            self.closed = True
            self.on_exit(0 if self.shut_down else 1)
            return
        if self.shut_down:
            if has_id:
                self.error(msg_id, INVALID_REQUEST, f"{method}: the server is shut down; only exit is accepted")
            return
        if not self.initialized and method != types.INITIALIZE:
            if has_id:
                self.error(msg_id, SERVER_NOT_INITIALIZED, f"{method}: the server is not initialized yet")
            return
        raw = raw if "params" in raw else {**raw, "params": None}  # JSON-RPC: params may be omitted
        try:
            msg = self.protocol.structure_message(raw)
        except Exception as e:
            text = f"{method}: invalid params: {_params_problem(e)}"
            if has_id:
                self.error(msg_id, INVALID_PARAMS, text)
            else:
                self.problem(text)
            return
        if method == types.INITIALIZE:
            self.initialized = True
        elif method == types.SHUTDOWN and has_id:
            self.shut_down = True
        self.protocol.handle_message(msg)

    def response(self, raw: dict[str, Any]) -> None:
        """A message without a method: the client's answer to one of the server's requests."""
        msg_id = raw.get("id")
        if not ("result" in raw or "error" in raw) or not _valid_id(msg_id):
            if _valid_id(msg_id):
                self.error(msg_id, INVALID_REQUEST, "a message with an id but no method, result or error")
            else:
                self.problem(f"message without a method dropped: {str(raw)[:200]}")
            return
        try:
            msg = self.protocol.structure_message(raw)
        except Exception as e:
            # Fail the request it answers, so that whoever waits for it hears now rather than at a timeout.
            self.problem(f"unreadable response to request {msg_id}: {_params_problem(e)}")
            future = self.protocol._request_futures.pop(msg_id, None)
            if future is not None and not future.done():
                future.set_exception(ValueError(f"unreadable response: {_params_problem(e)}"))
            return
        self.protocol.handle_message(msg)


def _valid_id(v: Any) -> bool:
    return isinstance(v, (int, str)) and not isinstance(v, bool)


def serve(server: LanguageServer, stdin: BinaryIO, stdout: BinaryIO, on_exit: Callable[[], None]) -> int:
    """Serve LSP on stdio until `exit` or the end of stdin; returns the process exit code.

    LSP: 0 for `exit` after `shutdown`, 1 otherwise (also when stdin ends without them). `on_exit` runs on
    the event loop before the loop ends (it stops the jobs).
    """
    server.protocol.set_writer(StdoutWriter(stdout))
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        return loop.run_until_complete(_serve(server, stdin.fileno(), on_exit))
    finally:
        # Handlers still running are cancelled and given a moment to unwind, not waited on: asyncio.run
        # would wait forever for one cancelled inside create_subprocess_exec (seen with Python 3.11).
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.wait(pending, timeout=EXIT_GRACE_S))
        asyncio.set_event_loop(None)
        loop.close()


async def _serve(server: LanguageServer, fd: int, on_exit: Callable[[], None]) -> int:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[int] = loop.create_future()
    reader = FrameReader()

    def finish(code: int) -> None:
        if not done.done():
            try:
                on_exit()
            finally:
                done.set_result(code)

    dispatcher = Dispatcher(server, finish)
    slots = threading.Semaphore(CHUNKS_IN_FLIGHT)
    idle: asyncio.TimerHandle | None = None

    def settle() -> None:
        nonlocal idle
        idle = None
        for frame in reader.idle():
            dispatcher.handle(frame)

    def on_chunk(chunk: bytes) -> None:
        nonlocal idle
        slots.release()
        if idle is not None:
            idle.cancel()
            idle = None
        if not chunk:  # stdin ended: settle what is left, then stop
            settle()
            finish(0 if dispatcher.shut_down else 1)
            return
        for frame in reader.feed(chunk):
            dispatcher.handle(frame)
        if reader.pending and not done.done():
            idle = loop.call_later(IDLE_S, settle)

    def pump() -> None:
        while True:
            slots.acquire()
            try:
                chunk = os.read(fd, READ_CHUNK)
            except OSError as e:
                log.warning("reading stdin failed: %s", e)
                chunk = b""
            try:
                loop.call_soon_threadsafe(on_chunk, chunk)
            except RuntimeError:  # the loop is closed: the server is exiting
                return
            if not chunk:
                return

    threading.Thread(target=pump, name="hiera-ls stdin", daemon=True).start()
    return await done
