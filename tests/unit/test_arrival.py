"""Chunk times: kernel arrival stamps (recorder/arrival.py) and which read a line is stamped with (stream.lines)."""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from collections.abc import AsyncIterator

import httpx
import pytest

from recorder import arrival, stream
from tests.stub_openai import stub_server


class _Conn:
    arrival = 0.0


class _Reads(httpx.AsyncByteStream):
    """Hands out byte pieces as separate reads; each read 'arrived' at its own time."""

    def __init__(self, conn: _Conn, reads: list[tuple[bytes, float]]) -> None:
        self.conn, self.reads = conn, reads

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for data, at in self.reads:
            self.conn.arrival = at
            yield data


async def _lines(reads: list[tuple[bytes, float]], kernel: bool = True) -> list[tuple[str, float]]:
    conn = _Conn()
    r = httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=_Reads(conn, reads),
                       extensions={"network_stream": conn if kernel else object()})
    return [item async for item in stream.lines(r)]


def test_a_line_split_across_reads_gets_the_time_of_the_read_that_completed_it() -> None:
    got = asyncio.run(_lines([(b'data: {"a":', 1.0), (b' 1}\n\ndata: [DO', 2.0), (b"NE]\n\n", 3.0)]))
    assert [(line, t) for line, t in got if line] == [('data: {"a": 1}', 2.0), ("data: [DONE]", 3.0)]


def test_every_sse_line_end_counts_and_a_last_line_without_one_gets_the_last_read() -> None:
    got = asyncio.run(_lines([(b"data: a\r\ndata: b\rdata: c\r", 1.0), (b"\ndata: \xc3", 2.0), (b"\xa9", 3.0)]))
    assert [(line, t) for line, t in got if line] == [("data: a", 1.0), ("data: b", 1.0), ("data: c", 2.0),
                                                      ("data: é", 3.0)]


def test_without_kernel_stamps_a_line_gets_the_time_httpx_handed_it_over() -> None:
    before = time.monotonic()
    got = asyncio.run(_lines([(b"data: x\n", 1.0)], kernel=False))
    assert got[0][0] == "data: x" and before <= got[0][1] <= time.monotonic()


@pytest.mark.skipif(sys.platform != "linux", reason="SO_TIMESTAMPNS is Linux's")
def test_bytes_read_late_keep_the_time_they_arrived() -> None:
    async def main() -> tuple[float, float, float, float]:
        with socket.create_server(("127.0.0.1", 0)) as server:
            backend = arrival.Backend()
            conn = await backend.connect_tcp("127.0.0.1", server.getsockname()[1], timeout=5)
            peer, _ = server.accept()
            with peer:
                peer.sendall(b"warm-up")  # Linux switches stamping on a moment after the first socket asks
                await conn.read(100, timeout=5)
                await asyncio.sleep(0.05)
                before = time.monotonic()
                peer.sendall(b"chunk")  # on loopback the bytes arrive inside this call
                after = time.monotonic()
                time.sleep(0.05)  # the event loop is busy: nothing is read for 50 ms
                data = await conn.read(100, timeout=5)
                read_at = time.monotonic()
            await conn.aclose()
            backend.close()
        assert data == b"chunk"
        return before, after, conn.arrival, read_at

    before, after, arrived, read_at = asyncio.run(main())
    # 1 ms: the kernel's wall-clock stamp is moved onto the monotonic clock
    assert before - 0.001 <= arrived <= after + 0.001 and read_at - arrived > 0.04


def test_the_recorder_client_streams_plain_http_through_the_stamping_backend() -> None:
    async def main(url: str) -> tuple[object, list[str]]:
        async with arrival.client(httpx.Limits(max_connections=2)) as client:
            body = {"model": "stub-model", "stream": True, "max_tokens": 3, "messages": []}
            async with client.stream("POST", f"{url}/v1/chat/completions", json=body) as r:
                got = [line async for line, _ in stream.lines(r) if line]
                return r.extensions["network_stream"], got

    with stub_server() as url:
        conn, got = asyncio.run(main(url))
    assert isinstance(conn, arrival.Stream)
    assert len(got) == 4 and got[-1] == "data: [DONE]"
