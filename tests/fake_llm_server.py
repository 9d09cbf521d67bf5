"""A scripted OpenAI-compatible server on 127.0.0.1, for testing the LLM backend over real HTTP.

It serves POST /v1/chat/completions and GET /v1/models from a background thread. Replies come from a queue
per role; the role is read from the `ROLE: <marker>` line hiera puts in every system prompt
(engine/agents/prompts.py): "SSDA.space", "SSDA.directions", "SPA", "OA". A queue named "ssda" also serves
both SSDA markers (the most specific queue with a reply left wins). Every request is recorded.

In a test:

    with FakeLLMServer() as srv:
        srv.script("OA", Reply.rate_limited(1), Reply.code(cpp_source))
        backend = LLMBackend(LLMConfig(base_url=srv.base_url, model="fake"))
        ...
        assert len(srv.requests_for("OA")) == 2

From a subprocess (the end-to-end loop test):

    python tests/fake_llm_server.py --port 0 --script SCRIPT.json [--record requests.jsonl]

prints `PORT <n>` as its first stdout line and serves until killed. SCRIPT.json:

    {"model": "fake-model",                  # what GET /v1/models lists
     "reject_formats": ["json_schema"],      # 400 for these response_format types (without using a reply)
     "require_key_env": "NAME",              # optional: 401 unless the bearer token equals $NAME
     "replies":  {"OA": [REPLY, ...], "SSDA.space": [...], "models": [...]},
     "defaults": {"OA": REPLY}}              # served, repeatedly, once a queue is empty

where REPLY is one of
    {"kind": "ok", "content": "text" or {json object}, "prompt_tokens": 120, "completion_tokens": 40}
    {"kind": "code", "source": "...", "lang": "cpp"}      (or "source_file": path relative to the script)
    {"kind": "status", "status": 429, "retry_after": 1, "message": "slow down"}
    {"kind": "hang", "seconds": 30}                        (answers nothing until then: a client timeout)
A role with no reply left and no default gets a 503 that says so, marked not to be retried.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_ROLE = re.compile(r"ROLE:\s*([A-Za-z][\w.]*)")

# A C++ file that does not compile (a missing semicolon and an undeclared name), for build-failure tests.
BROKEN_CPP = """#include "hiera_contract.h"
extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    float* op = (float*)out->data
    return undeclared_name;
}
"""


@dataclass(frozen=True)
class Reply:
    kind: str  # ok | status | hang
    content: str = ""
    prompt_tokens: int = 100
    completion_tokens: int = 50
    status: int = 200
    retry_after: float | None = None
    message: str = ""
    seconds: float = 0.0
    finish_reason: str = "stop"

    @staticmethod
    def ok(content: str | dict[str, Any], prompt_tokens: int = 100, completion_tokens: int = 50,
           finish_reason: str = "stop") -> Reply:
        text = content if isinstance(content, str) else json.dumps(content)
        return Reply("ok", text, prompt_tokens, completion_tokens, finish_reason=finish_reason)

    @staticmethod
    def code(source: str, lang: str = "cpp", prompt_tokens: int = 1000, completion_tokens: int = 400) -> Reply:
        text = f"Here is the implementation.\n\n```{lang}\n{source.rstrip()}\n```\n"
        return Reply.ok(text, prompt_tokens, completion_tokens)

    @staticmethod
    def malformed(text: str = "{'space': pure_cuda, rationale: 'oops'") -> Reply:
        return Reply.ok(text)

    @staticmethod
    def error(status: int, message: str = "scripted error", retry_after: float | None = None) -> Reply:
        return Reply("status", status=status, message=message, retry_after=retry_after)

    @staticmethod
    def rate_limited(retry_after: float = 1) -> Reply:
        return Reply.error(429, "rate limited (scripted)", retry_after)

    @staticmethod
    def server_error() -> Reply:
        return Reply.error(500, "internal error (scripted)")

    @staticmethod
    def hang(seconds: float = 30.0) -> Reply:
        return Reply("hang", seconds=seconds)

    @staticmethod
    def from_json(d: dict[str, Any], base: Path | None = None) -> Reply:
        kind = d.get("kind", "ok")
        if kind == "ok":
            return Reply.ok(d.get("content", ""), d.get("prompt_tokens", 100), d.get("completion_tokens", 50),
                            d.get("finish_reason", "stop"))
        if kind == "code":
            src = d.get("source")
            if src is None:
                src = ((base or Path.cwd()) / d["source_file"]).read_text()
            return Reply.code(src, d.get("lang", "cpp"), d.get("prompt_tokens", 1000),
                              d.get("completion_tokens", 400))
        if kind == "status":
            return Reply.error(int(d["status"]), d.get("message", "scripted error"), d.get("retry_after"))
        if kind == "hang":
            return Reply.hang(float(d.get("seconds", 30.0)))
        raise ValueError(f"unknown reply kind {kind!r}")


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    role: str  # from the ROLE: marker; "models" for GET /models; "unknown" without a marker
    body: dict[str, Any]
    headers: dict[str, str]  # lower-cased names, without Authorization
    authorization: str = field(repr=False, default="")  # kept in memory only, never written out
    at: float = 0.0

    @property
    def response_format(self) -> str | None:
        rf = self.body.get("response_format")
        return rf.get("type") if isinstance(rf, dict) else None

    def text(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.body.get("messages", []))

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "path": self.path, "role": self.role, "body": self.body,
                "headers": self.headers, "authorized": bool(self.authorization), "at": self.at}


class FakeLLMServer:
    def __init__(self, replies: dict[str, list[Reply]] | None = None, *, defaults: dict[str, Reply] | None = None,
                 model: str = "fake-model", reject_formats: tuple[str, ...] = (), require_key: str | None = None,
                 port: int = 0, record_path: Path | None = None):
        self.model = model
        self.reject_formats = tuple(reject_formats)
        self._require_key = require_key
        self._queues: dict[str, deque[Reply]] = {k: deque(v) for k, v in (replies or {}).items()}
        self._defaults = dict(defaults or {})
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._port = port
        self._record_path = record_path
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle --------------------------------------------------------------------------------------

    def start(self) -> FakeLLMServer:
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", self._port), handler)
        self._httpd.daemon_threads = True  # a hanging reply must not keep the test process alive
        self._port = self._httpd.server_address[1]
        # A short poll interval: shutdown() waits up to one interval, and tests start many servers.
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="fake-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes hanging replies
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}/v1"

    # --- scripting and inspection -----------------------------------------------------------------------

    def script(self, role: str, *replies: Reply) -> None:
        with self._lock:
            self._queues.setdefault(role, deque()).extend(replies)

    def set_default(self, role: str, reply: Reply) -> None:
        with self._lock:
            self._defaults[role] = reply

    def remaining(self, role: str) -> int:
        with self._lock:
            return len(self._queues.get(role, ()))

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def requests_for(self, role: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.role == role or r.role.split(".")[0] == role]

    # --- used by the handler ----------------------------------------------------------------------------

    def _record(self, req: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(req)
            if self._record_path is not None:
                with self._record_path.open("a") as f:
                    f.write(json.dumps(req.to_json()) + "\n")

    def _next_reply(self, role: str) -> Reply | None:
        keys = [role, role.split(".")[0]] if "." in role else [role]
        with self._lock:
            for k in keys:
                q = self._queues.get(k)
                if q:
                    return q.popleft()
            for k in keys:
                if k in self._defaults:
                    return self._defaults[k]
        return None

    def _authorized(self, authorization: str) -> bool:
        return self._require_key is None or authorization == f"Bearer {self._require_key}"


class _Handler(BaseHTTPRequestHandler):
    fake: FakeLLMServer
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers do (the client reuses connections)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: test output stays readable, and nothing about requests lands on stderr

    def do_GET(self) -> None:
        if not self.path.rstrip("/").endswith("/models"):
            return self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
        req = self._recorded("models", {})
        if not self.fake._authorized(req.authorization):
            return self._unauthorized(req)
        reply = self.fake._next_reply("models")
        if reply is not None and reply.kind != "ok":
            return self._serve_failure(reply)
        self._json(200, {"object": "list", "data": [
            {"id": self.fake.model, "object": "model", "created": 0, "owned_by": "fake"}]})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return self._json(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
        if not self.path.rstrip("/").endswith("/chat/completions"):
            return self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
        system = " ".join(str(m.get("content", "")) for m in body.get("messages", []) if m.get("role") == "system")
        m = _ROLE.search(system)
        req = self._recorded(m.group(1) if m else "unknown", body)
        if not self.fake._authorized(req.authorization):
            return self._unauthorized(req)
        rf = req.response_format
        if rf is not None and rf in self.fake.reject_formats:
            return self._json(400, {"error": {
                "message": f"response_format type {rf} is not supported by this server",
                "type": "invalid_request_error", "param": "response_format"}})
        reply = self.fake._next_reply(req.role)
        if reply is None:
            return self._json(503, {"error": {"message": f"fake server: no scripted reply left for role "
                                                         f"{req.role}", "type": "script_exhausted"}},
                              {"x-should-retry": "false"})
        if reply.kind != "ok":
            return self._serve_failure(reply)
        n = int(body.get("n") or 1)
        self._json(200, {
            "id": f"chatcmpl-fake-{len(self.fake.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", self.fake.model),
            "choices": [{"index": i, "message": {"role": "assistant", "content": reply.content},
                         "finish_reason": reply.finish_reason} for i in range(n)],
            "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                      "total_tokens": reply.prompt_tokens + reply.completion_tokens},
        })

    # --- helpers ----------------------------------------------------------------------------------------

    def _recorded(self, role: str, body: dict[str, Any]) -> RecordedRequest:
        headers = {k.lower(): v for k, v in self.headers.items() if k.lower() != "authorization"}
        req = RecordedRequest(self.command, self.path, role, body, headers,
                              self.headers.get("Authorization", ""), time.time())
        self.fake._record(req)
        return req

    def _unauthorized(self, req: RecordedRequest) -> None:
        # Echo what was sent, as careless servers do, so tests prove the client side scrubs it.
        token = req.authorization.removeprefix("Bearer ")
        self._json(401, {"error": {"message": f"Incorrect API key provided: {token}", "type": "invalid_api_key"}})

    def _serve_failure(self, reply: Reply) -> None:
        if reply.kind == "hang":
            self.fake._stopping.wait(reply.seconds)
            self.close_connection = True
            return  # answer nothing: the client has given up by now
        headers = {"retry-after": f"{reply.retry_after:g}"} if reply.retry_after is not None else {}
        self._json(reply.status, {"error": {"message": reply.message, "type": "scripted"}}, headers)

    def _json(self, status: int, obj: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(obj).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client timed out and went away


# --- pytest fixture and command line ------------------------------------------------------------------------

def fake_llm_server_fixture() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


try:  # a fixture when pytest is there (`pytest_plugins = ["fake_llm_server"]` or import it into a test)
    import pytest

    fake_llm_server = pytest.fixture(fake_llm_server_fixture, name="fake_llm_server")
except ImportError:  # pragma: no cover - the command line works without pytest
    pass


def load_script(path: Path) -> FakeLLMServer:
    spec = json.loads(path.read_text())
    base = path.parent
    replies = {role: [Reply.from_json(r, base) for r in rs] for role, rs in spec.get("replies", {}).items()}
    defaults = {role: Reply.from_json(r, base) for role, r in spec.get("defaults", {}).items()}
    key_env = spec.get("require_key_env")
    return FakeLLMServer(replies, defaults=defaults, model=spec.get("model", "fake-model"),
                         reject_formats=tuple(spec.get("reject_formats", ())),
                         require_key=os.environ.get(key_env) if key_env else None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="scripted OpenAI-compatible server for hiera tests")
    ap.add_argument("--port", type=int, default=0, help="0 picks a free port")
    ap.add_argument("--script", type=Path, help="JSON script of replies per role (see the module docstring)")
    ap.add_argument("--record", type=Path, help="append every request as a JSON line (no Authorization)")
    args = ap.parse_args(argv)
    srv = load_script(args.script) if args.script else FakeLLMServer()
    srv._port = args.port
    srv._record_path = args.record
    srv.start()
    print(f"PORT {srv.port}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
