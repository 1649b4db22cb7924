"""A graceful stop on SIGTERM (or a first Ctrl-C): drain instead of dropping everyone.

1. Stop accepting: the listening sockets close (a proxy sends new connections to another
   process), and a request still arriving on a kept-alive connection for a room, a join or
   a WebSocket answers 503 with ``Retry-After`` (``GET /api/health`` answers 503
   ``draining``, so load balancers stop at once).
2. Finish what is in flight: a room's connections stay open until its commits are stored and
   their ``ok``s sent (at most the grace period, ``mjcore serve --drain-s``, 10 s).
3. Tell the clients and close: ``{"type": "closing", "reason": "the server is shutting
   down: reconnect"}``, then the WebSocket closes with 1001 (going away).
4. Then uvicorn's own shutdown: the lifespan releases every room's lease (another process
   may serve them at once) and the store commits what bots recorded meanwhile.

A second signal stops at once.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from .security import ASGIApp, Receive, Scope, Send

DRAIN_S = 10.0
GOING_AWAY = 1001  # the WebSocket close code of a server that is shutting down
DRAIN_REASON = "the server is shutting down: reconnect"
# Still answered while draining: the health checks, metrics, the pages and their files.
OPEN_WHILE_DRAINING = ("/api/health", "/metrics", "/static/", "/schemas/")


class DrainGate:
    """Around the app: while ``draining``, new work (rooms, joins, WebSockets) gets 503 with
    ``Retry-After: 1``; ``drain`` is the app's coroutine that finishes what is in flight."""

    def __init__(self, app: ASGIApp, drain: Callable[[float], Awaitable[None]]) -> None:
        self.app = app
        self._drain = drain
        self.draining = False

    async def drain(self, grace_s: float = DRAIN_S) -> None:
        self.draining = True
        await self._drain(grace_s)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            not self.draining
            or scope["type"] not in ("http", "websocket")
            or path.startswith(OPEN_WHILE_DRAINING)
        ):
            return await self.app(scope, receive, send)
        body = json.dumps({"error": "the server is shutting down; try again"}).encode()
        headers = [(b"content-type", b"application/json"), (b"retry-after", b"1")]
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.http.response.start", "status": 503,
                        "headers": headers})  # fmt: skip
            await send({"type": "websocket.http.response.body", "body": body})
            return
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def serve_draining(config: Any, gate: DrainGate, grace_s: float) -> None:
    """Run uvicorn with ``config``; the first SIGTERM or SIGINT drains through ``gate``
    for at most ``grace_s`` seconds, then stops; a second one stops at once."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        _loop: asyncio.AbstractEventLoop | None = None
        _draining = False

        async def startup(self, sockets: Any = None) -> None:
            self._loop = asyncio.get_running_loop()
            await super().startup(sockets)

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self._loop is None or self._draining or self.should_exit:
                self.force_exit = self._draining  # a second signal: stop now
                return super().handle_exit(sig, frame)
            self._captured_signals.append(sig)
            self._draining = True
            # (a signal handler: hand the work to the loop through its thread-safe queue)
            self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._drain()))

        async def _drain(self) -> None:
            for server in self.servers:
                server.close()  # stop accepting
            try:
                await gate.drain(grace_s)
            finally:
                self.should_exit = True

    DrainingServer(config).run()
