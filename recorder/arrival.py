"""Kernel arrival times for streamed bytes: an httpcore network backend that reads with recvmsg.

With 64 concurrent streams the recorder's event loop gets to a chunk tens of ms after it
arrived (docs/recorder.md, timing bench), so a time taken when Python sees the bytes is late.
Linux stamps every TCP segment as it lands in the socket (SO_TIMESTAMPNS) and recvmsg hands back
the stamp of the newest bytes it returned; `Stream.arrival` keeps that stamp for the bytes the
last `read` gave httpcore. Bytes still unread when the next segment of the same connection lands
are merged by the kernel and take the newer stamp, so sockets are read as soon as they are
readable (`Readers`), not when httpcore next asks for data.

Plain http only: `client()` sends https (and anything an HTTP(S)_PROXY variable routes) through
httpx's own transports, where the recorder stamps a line when httpx hands it over. Bytes without
a kernel stamp get the monotonic time of the recvmsg call: where the option is refused (not
Linux), and just after the first socket asks for it (Linux switches stamping on a moment later).
"""

from __future__ import annotations

import asyncio
import selectors
import socket
import struct
import time
from collections import deque
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; Python's socket module lacks the name
READ_SIZE = 65536


def _to_monotonic(cmsg: list[tuple[int, int, bytes]]) -> float:
    """The kernel's CLOCK_REALTIME stamp as time.monotonic(), else now.

    The offset between the two clocks is taken now, at most ms after the stamp. Slewing (NTP)
    changes both clocks alike; only a step of the wall clock in between would shift the stamp.
    A stamp after now can only be such a step, so it becomes now (stream.record keeps times in order).
    """
    for level, kind, data in cmsg:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) == 16:
            sec, nsec = struct.unpack("qq", data)
            now = time.monotonic_ns()
            return min(sec * 1_000_000_000 + nsec - time.time_ns() + now, now) / 1e9
    return time.monotonic()


class Stream(httpcore.AsyncNetworkStream):
    """One TCP connection; `Readers` receives its bytes with their stamps, `read` hands them out in arrival order."""

    def __init__(self, sock: socket.socket, loop: asyncio.AbstractEventLoop, readers: Readers) -> None:
        self._sock, self._loop, self._readers = sock, loop, readers
        self._received: deque[tuple[bytes, float]] = deque()  # (bytes, arrival) not yet given to httpcore
        self._eof = False
        self._error: OSError | None = None
        self._waiter: asyncio.Future[None] | None = None
        self.arrival = 0.0  # monotonic time the bytes of the last read() landed in the socket
        readers.add(sock, self)

    def on_readable(self) -> None:
        try:
            data, cmsg, _, _ = self._sock.recvmsg(READ_SIZE, 64)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            self._error, data, cmsg = exc, b"", []
        if data:
            self._received.append((data, _to_monotonic(cmsg)))
        else:
            self._stop_reading()
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def _stop_reading(self) -> None:
        if not self._eof:
            self._eof = True
            self._readers.remove(self._sock)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        self._readers.drain()
        if not self._received and not self._eof:
            self._waiter = waiter = self._loop.create_future()
            timer = None if timeout is None else self._loop.call_later(timeout, _expire, waiter)
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()
        if self._received:
            data, self.arrival = self._received.popleft()
            if len(data) > max_bytes:
                self._received.appendleft((data[max_bytes:], self.arrival))
                data = data[:max_bytes]
            return data
        if self._error is not None:
            raise httpcore.ReadError(str(self._error)) from self._error
        return b""

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        try:
            await asyncio.wait_for(self._loop.sock_sendall(self._sock, buffer), timeout)
        except TimeoutError as exc:
            raise httpcore.WriteTimeout("write timed out") from exc
        except OSError as exc:
            raise httpcore.WriteError(str(exc)) from exc

    async def aclose(self) -> None:
        self._stop_reading()
        self._sock.close()

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":  # httpcore drops an idle pooled connection the server has closed
            return bool(self._received) or self._eof
        if info == "socket":
            return self._sock
        if info in ("client_addr", "server_addr"):
            return self._sock.getsockname() if info == "client_addr" else self._sock.getpeername()
        return None


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_exception(httpcore.ReadTimeout("read timed out"))


class Readers:
    """Reads every readable connection of one client, from the event loop and at every `Stream.read`.

    An event-loop iteration runs the processing of every stream that got data before the loop polls
    the sockets again: with 64 streams that is ~8 ms on 2 cores, close to the 10 ms between two
    chunks of one stream, so chunks got merged in the kernel. Draining at every `read` bounds the
    gap between two reads of a socket to one stream's processing step (timing bench, 64 streams:
    without it 2 of 9 runs missed 1 ms at p99, with it none of 7; docs/recorder.md).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._selector = selectors.DefaultSelector()
        loop.add_reader(self._selector.fileno(), self.drain)

    def add(self, sock: socket.socket, stream: Stream) -> None:
        self._selector.register(sock, selectors.EVENT_READ, stream)

    def remove(self, sock: socket.socket) -> None:
        self._selector.unregister(sock)

    def drain(self) -> None:
        for key, _ in self._selector.select(0):
            key.data.on_readable()

    def close(self) -> None:
        self._loop.remove_reader(self._selector.fileno())
        self._selector.close()


class Backend(httpcore.AsyncNetworkBackend):
    """Plain TCP connections as `Stream`s, with kernel receive timestamps switched on."""

    def __init__(self) -> None:
        self._readers: Readers | None = None  # made at the first connection, in the running loop

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None) -> Stream:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                sock = await _connect(loop, host, port, local_address)
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout(f"connecting to {host}:{port} timed out") from exc
        except OSError as exc:
            raise httpcore.ConnectError(str(exc)) from exc
        for option in socket_options or ():
            sock.setsockopt(*option)
        if self._readers is None:
            self._readers = Readers(loop)
        return Stream(sock, loop, self._readers)

    def close(self) -> None:
        if self._readers is not None:
            self._readers.close()
            self._readers = None

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


async def _connect(loop: asyncio.AbstractEventLoop, host: str, port: int, local_address: str | None) -> socket.socket:
    """The first address of host that accepts, as a non-blocking socket (like socket.create_connection)."""
    error: OSError = OSError(f"no address for {host}")
    for family, kind, proto, _, addr in await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        sock = socket.socket(family, kind, proto)
        try:
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as asyncio's own connections
            try:
                sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            except OSError:
                pass  # not Linux: stamps are taken at recvmsg
            if local_address:
                sock.bind((local_address, 0))
            await loop.sock_connect(sock, addr)
            return sock
        except OSError as exc:
            sock.close()
            error = exc
        except BaseException:
            sock.close()
            raise
    raise error


class Transport(httpx.AsyncBaseTransport):
    """http through `Backend` (kernel stamps), https through httpx's default transport."""

    def __init__(self, limits: httpx.Limits) -> None:
        self._plain = httpx.AsyncHTTPTransport(limits=limits)
        self._backend = Backend()
        # httpx 0.27/0.28 keep the httpcore pool in _pool and take no backend; tests/unit/test_arrival.py checks it is used
        self._plain._pool = httpcore.AsyncConnectionPool(
            max_connections=limits.max_connections, max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry, network_backend=self._backend)
        self._tls = httpx.AsyncHTTPTransport(limits=limits)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        transport = self._plain if request.url.scheme == "http" else self._tls
        return await transport.handle_async_request(request)

    async def aclose(self) -> None:
        await self._plain.aclose()
        await self._tls.aclose()
        self._backend.close()


def client(limits: httpx.Limits) -> httpx.AsyncClient:
    """The recorder's client: plain-http responses carry kernel arrival times (`network_stream.arrival`)."""
    return httpx.AsyncClient(limits=limits, transport=Transport(limits))  # limits also for env-proxy transports
