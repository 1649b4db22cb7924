"""Per-client limits: no one client address may take more than its share of a server process.

A *client* is an IP address: the peer of the TCP connection, or — when that peer is one of
the configured trusted proxies (``mjcore serve --trusted-proxy``, e.g. the repository's nginx)
— the address the proxies forwarded in ``X-Forwarded-For`` (read from the right: the first
address no trusted proxy added). Forwarded addresses from anyone else are ignored, so a
client cannot pick its own address.

Per client: room creations (a token bucket), rooms it created that are still open in this
process, WebSocket connections, and ``POST /api/replay`` (the expensive endpoint: a token
bucket, and one replay is built at a time per process). Beyond a limit the answer is 429 with
``Retry-After``; a process that is full (rooms or connections) answers 503 so a proxy tries
another. Per connection: a WebSocket must authenticate (``hello``) within ``login_s``, and a
TCP connection must send a request's headers within ``header_s`` (uvicorn has no such
timeout: a silent connection held a descriptor forever). Every refusal is counted in
``/metrics`` as ``mjcore_limited_total{limit=…}``.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

MAX_TRACKED = 100_000  # client addresses remembered per limit before full buckets are pruned


def networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """``"10.0.0.0/8"``, ``"127.0.0.1"``, ``"::1"`` … as networks; ValueError names a bad one."""
    out = []
    for spec in specs:
        for part in str(spec).split(","):
            if part.strip():
                try:
                    out.append(ipaddress.ip_network(part.strip(), strict=False))
                except ValueError:
                    raise ValueError(f"not an IP address or network: {part.strip()!r}") from None
    return tuple(out)


def _within(address: str, nets: tuple[Network, ...]) -> bool:
    if not nets:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in nets)


@dataclass(frozen=True)
class ClientLimits:
    """The limits of one server process (``mjcore serve --help`` lists their options).

    A rate of 0 (or a count of 0) turns that limit off. ``exempt``: client networks no
    per-client limit applies to (a load generator on the same machine, say)."""

    trusted_proxies: tuple[Network, ...] = ()
    exempt: tuple[Network, ...] = ()
    rooms_per_minute: float = 30.0  # room creations per client (token bucket) …
    rooms_burst: int = 30  # … with this burst
    open_rooms: int = 100  # rooms a client created that are open in this process
    connections: int = 64  # WebSockets per client
    replays_per_minute: float = 60.0  # POST /api/replay per client …
    replays_burst: int = 10  # … with this burst
    login_s: float = 10.0  # a WebSocket must send hello within this
    header_s: float = 10.0  # a TCP connection must send a request's headers within this
    max_connections: int = 0  # TCP connections per process (0: from the descriptor limit)

    def client(self, peer: str | None, forwarded: str | None) -> str:
        """The client address of a request from ``peer`` with this X-Forwarded-For header."""
        address = peer or "unknown"
        if not forwarded or not _within(address, self.trusted_proxies):
            return address
        for hop in reversed([h.strip() for h in forwarded.split(",")]):
            if not hop:
                continue
            address = hop
            if not _within(hop, self.trusted_proxies):
                break
        return address

    def exempts(self, client: str) -> bool:
        return _within(client, self.exempt)


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimit:
    """A token bucket per client: ``per_minute`` refill up to ``burst``."""

    per_minute: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, _Bucket] = field(default_factory=dict)

    def take(self, client: str) -> float:
        """0.0 if the client may go on (one token taken), else seconds until it may."""
        if self.per_minute <= 0:
            return 0.0
        now, rate = self.clock(), self.per_minute / 60.0
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= MAX_TRACKED:
                self._prune(now, rate)
            bucket = self.buckets[client] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        if bucket.tokens < 1.0:
            return (1.0 - bucket.tokens) / rate
        bucket.tokens -= 1.0
        return 0.0

    def _prune(self, now: float, rate: float) -> None:
        """Forget clients whose bucket has refilled (they are as if never seen)."""
        full = [
            c for c, b in self.buckets.items() if b.tokens + (now - b.stamp) * rate >= self.burst
        ]
        for client in full or list(self.buckets)[: len(self.buckets) // 2]:
            del self.buckets[client]


class Tally:
    """How many of something (connections) each client holds now."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held: dict[str, int] = {}

    def acquire(self, client: str) -> bool:
        """Count one more for the client, or False (nothing counted) at the limit."""
        n = self.held.get(client, 0)
        if self.limit and n >= self.limit:
            return False
        self.held[client] = n + 1
        return True

    def release(self, client: str) -> None:
        n = self.held.get(client, 0) - 1
        if n > 0:
            self.held[client] = n
        else:
            self.held.pop(client, None)


def retry_after(seconds: float) -> str:
    """A Retry-After header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


class Limiter:
    """The per-client state of one app: buckets, tallies, and the refusal counter."""

    def __init__(self, limits: ClientLimits, registry: Any = None) -> None:
        self.limits = limits
        self.rooms = RateLimit(limits.rooms_per_minute, limits.rooms_burst)
        self.replays = RateLimit(limits.replays_per_minute, limits.replays_burst)
        self.connections = Tally(limits.connections)
        self.created: dict[str, set[str]] = {}  # client -> ids of rooms it created (this process)
        self.refused: Any = None
        if registry is not None:
            from prometheus_client import Counter

            self.refused = Counter(
                "mjcore_limited", "Requests and connections refused by a limit", ["limit"],
                registry=registry,
            )  # fmt: skip

    def count(self, limit: str) -> None:
        if self.refused is not None:
            self.refused.labels(limit=limit).inc()

    def client(self, peer: tuple[str, int] | None, headers: Any) -> str:
        return self.limits.client(peer[0] if peer else None, headers.get("x-forwarded-for"))

    def open_rooms(self, client: str, is_open: Callable[[str], bool]) -> int:
        """Rooms the client created that are still open (``is_open(room_id)``)."""
        mine = self.created.get(client)
        if not mine:
            return 0
        mine.intersection_update([r for r in mine if is_open(r)])
        if not mine:
            del self.created[client]
        return len(mine)

    def created_room(self, client: str, room_id: str) -> None:
        if not self.limits.exempts(client):
            self.created.setdefault(client, set()).add(room_id)


def http_protocol(header_s: float, max_connections: int, on_refused: Callable[[str], None]) -> Any:
    """A uvicorn HTTP protocol class that closes connections silent for ``header_s`` (no
    complete request headers) and answers 503 at once to connections beyond
    ``max_connections`` open in this process (so a proxy tries another process)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # pragma: no cover - without httptools
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]

    full = (
        b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
        b"retry-after: 5\r\nconnection: close\r\ncontent-length: 57\r\n\r\n"
        b'{"error":"this server is full; try again or another one"}'
    )

    class LimitedProtocol(Base):  # type: ignore[misc, valid-type]
        """uvicorn's HTTP protocol with a header deadline and a process-wide cap."""

        _deadline: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            # (uvicorn's set holds every open HTTP and WebSocket connection, this one too)
            if max_connections and len(self.connections) > max_connections:
                on_refused("full")
                transport.write(full)
                transport.close()
                return
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
                self._arm()  # the next request's headers have header_s to arrive
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._disarm()  # uvicorn's keep-alive timeout takes over between requests

        def _arm(self) -> None:
            if header_s > 0:
                self._disarm()
                self._deadline = self.loop.call_later(header_s, self._expire, self.cycle)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self, cycle: Any) -> None:
            """No new request's headers since the deadline was set: close (unless the
            connection became a WebSocket meanwhile, which has its own protocol)."""
            self._deadline = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
            if self.cycle is cycle:
                on_refused("silent")
                self.transport.close()

    return LimitedProtocol
