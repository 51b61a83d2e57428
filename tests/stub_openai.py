"""A scripted OpenAI-compatible server for what a real vLLM cannot be made to do on demand.

vLLM always serves /metrics and streamed usage, and does not drop a stream halfway
when asked. The servers that lack those (llama-cpp-python's) take minutes to build,
too long for CI. So this stub plays such a server: no /metrics (404), no /version,
one token per chunk with no usage at all, and optionally a connection cut mid-stream.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WORDS = "the quick brown fox jumps over the lazy dog".split()


class _Handler(BaseHTTPRequestHandler):
    cut_after: int | None = None  # close the connection after this many chunks

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/v1/models":
            self._json({"object": "list", "data": [{"id": "stub-model", "object": "model"}]})
        else:
            self.send_error(404)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        n = body.get("max_tokens", 8)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for i in range(n):
            if self.cut_after is not None and i == self.cut_after:
                self.wfile.flush()
                self.connection.shutdown(2)
                return
            last = i == n - 1
            chunk = {"choices": [{"index": 0, "delta": {"content": WORDS[i % len(WORDS)] + " "},
                                  "finish_reason": "length" if last else None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
            time.sleep(0.005)
        self.wfile.write(b"data: [DONE]\n\n")

    def _json(self, obj: dict) -> None:
        data = json.dumps(obj).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def stub_server(cut_after: int | None = None) -> Iterator[str]:
    handler = type("Handler", (_Handler,), {"cut_after": cut_after})
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
