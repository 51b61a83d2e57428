"""A scripted OpenAI-compatible server for what a real vLLM cannot be made to do on demand.

vLLM always serves /metrics and streamed usage, and does not drop a stream halfway
when asked; llama.cpp's llama-server (tests/engine/test_recorder_llamacpp.py) serves /metrics too. So this stub
plays a server that lacks them: no /metrics (404), no /version,
one token per chunk with no usage at all, and optionally one fault:
  cut_after=N      the connection is cut after N chunks
  keepalive=True   the stream sends SSE comments (": ping") forever and never a data line
  models_html=True /v1/models answers an HTML page (a proxy's login page, a wrong base URL)
  raw_line=TEXT    the stream's first data line is TEXT (malformed JSON, or JSON of the wrong shape)
  echo_auth=True   a POST answers HTTP 401 with a body echoing the request's Authorization header
  in_probe=True    keepalive, raw_line and echo_auth also hit the probe (the first POST); by default they
                   start with the second POST, so the recorder gets past its probe to the recorded requests
  short=N          N tokens, then finish_reason "stop", whatever max_tokens, ignore_eos or min_tokens say
  restart_metrics  /metrics with speculative counters that drop after every POST (a restarted server)
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

WORDS = "the quick brown fox jumps over the lazy dog".split()


class _Handler(BaseHTTPRequestHandler):
    cut_after: int | None = None
    keepalive: bool = False
    models_html: bool = False
    raw_line: str | None = None
    in_probe: bool = False
    echo_auth: bool = False
    short: int | None = None
    restart_metrics: bool = False
    posts: list[int]  # one shared counter per server

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/v1/models" and self.models_html:
            self._send(200, "text/html", b"<!doctype html><html><body><h1>Please sign in</h1></body></html>")
        elif self.path == "/v1/models":
            self._json({"object": "list", "data": [{"id": "stub-model", "object": "model"}]})
        elif self.path == "/metrics" and self.restart_metrics:
            total = 1000 - 100 * self.posts[0]  # the counters start over lower after every request
            text = "".join(f'{name}{{engine="0"}} {total}\n' for name in (
                "vllm:spec_decode_num_drafts_total", "vllm:spec_decode_num_draft_tokens_total",
                "vllm:spec_decode_num_accepted_tokens_total")) + "vllm:num_requests_running 0\n"
            self._send(200, "text/plain", text.encode())
        else:
            self.send_error(404)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.posts[0] += 1
        faulty = self.in_probe or self.posts[0] > 1
        if self.echo_auth and faulty:
            echo = {"error": {"message": f"invalid key; you sent Authorization: {self.headers.get('Authorization')}"}}
            self._send(401, "application/json", json.dumps(echo).encode())
            return
        n = body.get("max_tokens", 8) if self.short is None else self.short
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        if self.keepalive and faulty:
            while True:  # until the client gives up and closes the connection
                try:
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.1)
        if self.raw_line is not None and faulty:
            self.wfile.write(f"data: {self.raw_line}\n\n".encode())
        for i in range(n):
            if self.cut_after is not None and i == self.cut_after:
                self.wfile.flush()
                self.connection.shutdown(2)
                return
            last = i == n - 1
            chunk = {"choices": [{"index": 0, "delta": {"content": WORDS[i % len(WORDS)] + " "},
                                  "finish_reason": ("length" if self.short is None else "stop") if last else None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
            time.sleep(0.005)
        self.wfile.write(b"data: [DONE]\n\n")

    def _json(self, obj: dict) -> None:
        self._send(200, "application/json", json.dumps(obj).encode())

    def _send(self, code: int, ctype: str, data: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def stub_server(**fault: Any) -> Iterator[str]:
    """The stub's base URL while it runs; `fault`: one of the module docstring's options."""
    handler = type("Handler", (_Handler,), {**fault, "posts": [0]})
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


def stub_config(tmp_path: Path, endpoint: str, text: str = "hello", extra_arm: str = "", name: str = "stub.toml") -> Path:
    """A one-arm recorder config pointing at a stub server."""
    cfg = tmp_path / name
    cfg.write_text(f"""
title = "stub"
[record]
max_tokens = 12
[[arms]]
id = "stub"
label = "stub server"
endpoint = "{endpoint}"
model = "stub-model"
engine = "stub"
{extra_arm}
[[prompts]]
id = "p"
kind = "chat"
text = "{text}"
""")
    return cfg
