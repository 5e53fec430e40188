"""A real OpenAI-compatible HTTP server on loopback that replies from a script (for the LLM-mode tests).

``POST /v1/chat/completions`` answers each request with the next step of ``script``: a step is a reply
(``reply(...)``) or a function of the request body returning one, so a test can check what the client sent
(tool results, tools offered, tool_choice) before answering. Every response reports ``usage``; the server
keeps the totals so a test can compare them with the client's accounting. An assertion that fails inside a
step is recorded in ``errors`` (and answered with HTTP 500), so the test sees it.
"""

from __future__ import annotations

import json
import threading
import traceback
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Step = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


def tool_call(name: str, arguments: dict[str, Any] | str | None = None, call_id: str = "") -> dict[str, Any]:
    """One tool call; ``arguments`` as a dict (sent as JSON) or a raw string (to send malformed JSON)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def reply(*calls: dict[str, Any], content: str | None = None, sleep_s: float = 0.0, status: int = 200) -> dict[str, Any]:
    return {"tool_calls": list(calls), "content": content, "sleep_s": sleep_s, "status": status}


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool results the client sent back, parsed, in order (with ``_id``: the call they answer)."""
    out = []
    for m in body["messages"]:
        if m.get("role") == "tool":
            out.append({"_id": m.get("tool_call_id"), **json.loads(m["content"])})
    return out


def tool_names(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools") or []]


class ScriptedLlm:
    def __init__(self, script: list[Step] | None = None, prompt_tokens: int = 100, completion_tokens: int = 10):
        self.script: list[Step] = list(script or [])
        self.requests: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.prompt_tokens = prompt_tokens  # per call, plus one per message so totals vary per call
        self.completion_tokens = completion_tokens
        self.tokens_in = 0
        self.tokens_out = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def calls(self) -> int:
        return len(self.requests)

    def close(self) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedLlm:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- serving --------------------------------------------------------------------------------

    def _next(self, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.requests.append(body)
            n = len(self.requests)
            if not self.script:
                raise AssertionError(f"request {n}: the script has no step left")
            step = self.script.pop(0)
        return step(body) if callable(step) else step

    def _completion(self, body: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
        calls = []
        for n, c in enumerate(out["tool_calls"]):
            calls.append({**c, "id": c["id"] or f"call_{len(self.requests)}_{n}"})
        message: dict[str, Any] = {"role": "assistant", "content": out["content"]}
        if calls:
            message["tool_calls"] = calls
        prompt = self.prompt_tokens + len(body.get("messages", []))
        completion = self.completion_tokens + 5 * len(calls)
        with self._lock:
            self.tokens_in += prompt
            self.tokens_out += completion
        return {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0,
                "model": body.get("model", ""), "system_fingerprint": "scripted",
                "choices": [{"index": 0, "message": message, "logprobs": None,
                             "finish_reason": "tool_calls" if calls else "stop"}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                          "total_tokens": prompt + completion}}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                try:
                    out = server._next(body)
                except Exception as err:  # noqa: BLE001 - reported to the test through errors
                    server.errors.append(f"{type(err).__name__}: {err}\n{traceback.format_exc()}")
                    self._send(500, {"error": {"message": f"script step failed: {err}"}})
                    return
                if out.get("sleep_s"):
                    server._stop.wait(out["sleep_s"])
                if out.get("status", 200) != 200:
                    self._send(out["status"], {"error": {"message": "scripted failure", "type": "server_error"}})
                    return
                self._send(200, server._completion(body, out))

        return Handler
