"""The ASGI app (Starlette): HTTP API for rooms, one WebSocket per seat, the browser table.

Routes (see docs/protocol.md for every message):

- ``GET /`` the browser table, ``/static/…`` its files
- ``GET /api/variants`` variants with their options; ``GET /api/bots`` the agents bot seats
  may name; ``GET /favicon.svg`` the icon; ``POST /api/rooms`` create a room;
  ``GET /api/rooms/{id}`` its public summary; ``POST /api/rooms/{id}/join`` take a seat
- ``WS /ws/{id}`` play: the first message is ``{"type": "hello", "token": …}``
- ``GET /replay`` the replay viewer; ``POST /api/replay`` a saved game -> its replay bundle;
  ``GET /api/rooms/{id}/hands/{n}`` a finished hand's saved game (a seat token of the room)
- ``GET /api/health`` what is wrong (mjcore.server.health), ``GET /api/health/live`` liveness
- ``GET /schemas/NAME.json`` a JSON Schema with every ``$ref`` inside it (any validator)

Around it: security headers, Origin and JSON checks (mjcore.server.security) and the drain on
SIGTERM (mjcore.server.drain). The handlers are module-level functions reading their app's
:class:`ServerState` (``app.state.server``); :func:`create_app` builds that state and the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import gc
import json
import math
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import BOTS
from ..engine.variant import Variant
from ..errors import IllegalActionError, MjcoreError
from ..replay import build_replay, pattern_list
from ..schemas import bundled_names, bundled_text
from ..variants import get_variant, names
from . import DEFAULT_BOT, snapshots
from .botpool import BotPool
from .drain import DRAIN_REASON, GOING_AWAY, DrainGate
from .favicon import favicon_svg
from .health import Health
from .limits import ClientLimits, Limiter, retry_after
from .lobby import Lobby
from .metrics import CONTENT_TYPE, Metrics
from .rooms import (
    LEASE_S,
    ROOM_ID,
    TOKEN_TTL_S,
    NotYourTurnError,
    Room,
    RoomBusy,
    RoomError,
    RoomsFull,
)
from .security import InvalidNameError, SecurityMiddleware, check_display_name, parse_origins
from .store import Store, StoreError


def _plain(value: Any) -> Any:
    """JSON form of what a variant might put in a view: numpy numbers and arrays, sets."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, set | frozenset | tuple):
        return sorted(value, key=str)
    raise TypeError(f"cannot send {type(value).__name__} to a client")


def _json_dumps(message: dict[str, Any]) -> str:
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=_plain)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate echoed from a client: escape it
        text = json.dumps(message, separators=(",", ":"), default=_plain)
    return text


try:  # orjson (the server extra) encodes views several times faster than the json module
    import orjson

    _ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY

    def _dumps(message: dict[str, Any]) -> str:
        try:
            return orjson.dumps(message, option=_ORJSON_OPTIONS).decode()
        except TypeError:
            return _json_dumps(message)

except ImportError:  # pragma: no cover - without the extra
    _dumps = _json_dumps


STATIC = Path(__file__).with_name("static")
MAX_BODY = 16_384  # bytes of an HTTP request body
MAX_REPLAY_BODY = 262_144  # bytes of a saved game posted to /api/replay
MAX_MESSAGE = 2_048  # characters of one WebSocket message
MAX_QUEUE = 256  # unsent messages before a connection counts as stuck and is closed
MESSAGE_RATE = 20.0  # messages per second per connection (token bucket) …
MESSAGE_BURST = 40.0  # … with this burst
MAX_VIOLATIONS = 100  # rate-limit or auth violations before the connection is closed
MAX_DEPTH = 8  # nesting of lists and objects in one message or request body
MAX_REF = 32  # characters of a message's ``id``
IDLE_ROOM_S = 600.0  # a room nobody has been connected to this long leaves memory
OUTAGE_RETRY_S = 5  # Retry-After of a 503 while the database is unavailable
FULL_RETRY_S = 30  # Retry-After of a 503 from a process holding its maximum of rooms


class BadJSON(ValueError):
    """A message or request body that is not JSON, or is nested deeper than MAX_DEPTH."""


def parse_json(text: str | bytes) -> Any:
    """``json.loads`` for untrusted input: BadJSON for anything but shallow JSON."""
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except RecursionError:  # nesting past the parser's own stack
        raise BadJSON(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        raise BadJSON("not JSON") from None
    if _depth(value) > MAX_DEPTH:
        raise BadJSON(f"nested deeper than {MAX_DEPTH} levels")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity, -Infinity (Python's extension)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise ValueError("a number out of range")
    return value


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (iterative: no recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def valid_ref(ref: Any) -> bool:
    """A message ``id``: an integer (not a bool) or a short printable, encodable string."""
    if type(ref) is int:
        return -(2**53) <= ref <= 2**53
    if type(ref) is not str or len(ref) > MAX_REF or not ref.isprintable():
        return False
    try:
        ref.encode("utf-8")  # lone surrogates cannot be sent back
    except UnicodeEncodeError:
        return False
    return True


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; ``take`` is False when empty."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = burst, clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One seat's WebSocket: a bounded send queue drained by its own writer task."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closing = ""
        self.close_code = 1000
        self.writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close("too many unread messages")
            return
        self.queue.put_nowait(_dumps(message))

    def close(self, reason: str, code: int = 1000) -> None:
        if not self.closing:
            self.send({"type": "closing", "reason": reason})
            self.closing, self.close_code = reason, code
            self.queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
        except Exception as exc:  # a connection that cannot be written to is closed, not kept
            self.closing = self.closing or f"write failed: {type(exc).__name__}"
            self.close_code = 1011
        with contextlib.suppress(Exception):
            await self.ws.close(code=self.close_code)

    async def finish(self) -> None:
        self.closing = self.closing or "finished"
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer


def variant_info(v: Variant) -> dict[str, Any]:
    """A variant's name, players and options (defaults and allowed values) for clients."""
    options = {
        f.name: {
            "default": f.default,
            "choices": list(f.metadata["choices"]) if f.metadata.get("choices") else None,
            "doc": f.metadata.get("doc", ""),
        }
        for f in dataclasses.fields(v.Options)
    }
    return {
        "name": v.name,
        "title": v.title,
        "min_players": v.min_players,
        "max_players": v.max_players,
        "options": options,
        "patterns": pattern_list(v.name),
    }


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _busy(exc: RoomBusy) -> JSONResponse:
    """503 + Retry-After for a room another process serves (its lease runs out soon)."""
    response = _error(503, str(exc))
    response.headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
    return response


def _unavailable(exc: StoreError) -> JSONResponse:
    """503 + Retry-After for a request the database did not take (the details go to the log
    only)."""
    print(f"mjcore server: {exc}", file=sys.stderr)
    response = _error(503, "the database is unavailable; nothing was changed, try again later")
    response.headers["Retry-After"] = str(OUTAGE_RETRY_S)
    return response


def _limited(message: str, seconds: float) -> JSONResponse:
    """429 + Retry-After: this client went past one of its limits (limits.py)."""
    response = _error(429, message)
    response.headers["Retry-After"] = retry_after(seconds)
    return response


def _is_number(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes '²', which ``int`` refuses), at most 18."""
    return text.isascii() and text.isdigit() and len(text) <= 18


async def _json_body(request: Request, limit: int = MAX_BODY) -> Any:
    length = request.headers.get("content-length")
    if length is not None and (not _is_number(length) or int(length) > limit):
        raise RoomError(f"request body larger than {limit} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RoomError(f"request body larger than {limit} bytes")
    if not body:
        return {}
    try:
        return parse_json(body)
    except BadJSON as exc:
        raise RoomError(f"request body is {exc}") from None


async def _keep_rooms(lobby: Lobby, idle_s: float) -> None:
    """Every third of a lease: a renewal round (Lobby.keep_leases), then forget rooms nobody
    has been connected to for ``idle_s``."""
    while True:
        await asyncio.sleep(lobby.lease_s / 3)
        try:
            await lobby.keep_leases()
        except StoreError as exc:  # leases run out by themselves; writes stay fenced
            print(f"mjcore server: lease renewal failed: {exc}", file=sys.stderr)
            continue
        lobby.drop_idle(idle_s)


async def _room_of(request: Request) -> Room | Response:
    """The room the path names, or the error answer: 404 unknown, busy, store unavailable."""
    try:
        return await server_of(request).lobby.fetch(request.path_params["room_id"])
    except RoomBusy as exc:
        return _busy(exc)
    except RoomError as exc:
        return _error(404, str(exc))
    except StoreError as exc:
        return _unavailable(exc)


def _join_request(body: Any) -> tuple[int | None, str]:
    """The seat (None: the first free one) and name of a join request, or RoomError."""
    if not isinstance(body, dict):
        raise RoomError("a join request is a JSON object")
    unknown = sorted(set(body) - {"seat", "name"}, key=str)
    if unknown:
        raise RoomError(f"unknown join field(s) {unknown}; known: name, seat")
    seat, name = body.get("seat"), body.get("name", "")
    if seat is not None and type(seat) is not int:
        raise RoomError(f"seat must be an integer, got {type(seat).__name__}")
    try:
        return seat, check_display_name(name)
    except InvalidNameError as exc:
        raise RoomError(str(exc)) from None


# ------------------------------------------------------------ one app's state and lifetime
@dataclasses.dataclass(eq=False)
class ServerState:
    """What one app's handlers share, on the Starlette app's ``state.server`` (handlers fetch
    it with :func:`server_of`): the settings ``create_app`` was given, the metrics, the client
    limits, the open sessions, and (made by :func:`lifespan` at start) the lobby and health.
    One per app, nothing at module level: two apps in one process share no state."""

    db: str
    max_rooms: int
    restore: str
    idle_room_s: float
    lease_s: float
    server_id: str
    token_ttl_s: float
    bot_workers: int
    bot_budget_ms: float
    defaults: dict[str, Any]
    metrics: Metrics
    limiter: Limiter
    replaying: asyncio.Semaphore = dataclasses.field(
        default_factory=lambda: asyncio.Semaphore(1)
    )  # one replay bundle built at a time (CPU-heavy)
    sessions: set[Session] = dataclasses.field(default_factory=set)
    # made by the lifespan (see the properties)
    _health: Health | None = dataclasses.field(default=None, init=False)
    _lobby: Lobby | None = dataclasses.field(default=None, init=False)

    @property
    def health(self) -> Health:
        if self._health is None:
            raise RuntimeError("the app has not started: its lifespan makes the health checks")
        return self._health

    @property
    def lobby(self) -> Lobby:
        if self._lobby is None:
            raise RuntimeError("the app has not started: its lifespan makes the lobby")
        return self._lobby

    def observe_commit(self, seconds: float, stored: bool) -> None:
        """Store.on_commit: one commit's latency and outcome, to the metrics and to health."""
        self.metrics.observe_commit(seconds, stored)
        self.health.observe_commit(seconds, stored)


def server_of(conn: HTTPConnection) -> ServerState:
    """The state of the app serving ``conn`` (a request or a WebSocket)."""
    state: ServerState = conn.app.state.server
    return state


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Open the store and the lobby (restoring rooms if ``restore="all"``), supervise the
    lease keeper and the lag meter; at the end release every lease and close it all."""
    server: ServerState = app.state.server
    loop = asyncio.get_running_loop()
    store = Store(server.db)
    pool = (
        BotPool(server.bot_workers, server.bot_budget_ms, server.metrics.registry)
        if server.bot_workers
        else None
    )
    health = server._health = Health(store)
    store.on_commit = server.observe_commit
    lobby = Lobby(
        store, schedule=loop.call_later, max_rooms=server.max_rooms, defaults=server.defaults,
        metrics=server.metrics, post=loop.call_soon_threadsafe, lease_s=server.lease_s,
        owner=server.server_id, token_ttl_s=server.token_ttl_s, bots=pool,
    )  # fmt: skip
    server.metrics.count_rooms(lambda: len(lobby.rooms))
    if server.restore == "all":
        lobby.restore_all()
    health.supervise("lease keeper", lambda: _keep_rooms(lobby, server.idle_room_s))
    health.supervise("lag meter", health.measure_lag)
    watchdog = asyncio.create_task(health.watch())
    gc.freeze()  # the restored rooms are long-lived: keep them out of every collection
    server._lobby = lobby
    yield
    watchdog.cancel()
    health.stop()
    lobby.release_all()
    lobby.close()
    if pool is not None:
        pool.close()
    store.close()


async def drain(server: ServerState, grace_s: float) -> None:
    """Finish in-flight commits (at most ``grace_s``), then close every WebSocket with
    ``closing`` and 1001 (see mjcore.server.drain)."""
    server.health.draining = True
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace_s
    while True:
        busy = False
        for session in list(server.sessions):
            if session.conn.closing:
                continue
            if _committing(session.room) and loop.time() < deadline:
                busy = True  # its acknowledgements are still to come
                continue
            session.conn.close(DRAIN_REASON, GOING_AWAY)
        if not busy:
            break
        await asyncio.sleep(0.02)
    writers = [session.conn.writer for session in server.sessions]
    if writers:
        await asyncio.wait(writers, timeout=max(1.0, deadline - loop.time()))


# ------------------------------------------------------------ HTTP
async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def replay_page(request: Request) -> Response:
    """The viewer; ``?room=ID&hand=N`` must be a room id and a hand number (the page
    sends the seat token to the path they make: nothing else may get into it)."""
    room, hand = request.query_params.get("room"), request.query_params.get("hand")
    if (room is not None and not ROOM_ID.fullmatch(room)) or (
        hand is not None and not _is_number(hand)
    ):
        return _error(400, "room must be a room id and hand a hand number (0, 1, …)")
    return FileResponse(STATIC / "replay.html")


async def replay_bundle(request: Request) -> Response:
    """A saved game (``Game.to_json()`` form) -> its replay bundle (mjcore.replay).
    Expensive (tens of ms of CPU): a per-client rate, and one at a time per process."""
    server = server_of(request)
    limiter = server.limiter
    client = limiter.client(request.client, request.headers)
    wait = 0.0 if limiter.limits.exempts(client) else limiter.replays.take(client)
    if wait:
        limiter.count("replay")
        return _limited(f"at most {limiter.limits.replays_per_minute:g} replays a minute "
                        "per client", wait)  # fmt: skip
    try:
        saved = await _json_body(request, MAX_REPLAY_BODY)
        if not isinstance(saved, dict):
            raise RoomError("a saved game is a JSON object")
        async with server.replaying:
            bundle = await asyncio.to_thread(build_replay, saved)
    except MjcoreError as exc:  # (RoomError too) mjcore's own words about the input
        return _error(400, str(exc))
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
        # Never Python's own text to a client (it names internals): that goes to the log.
        print(f"mjcore server: replay: {type(exc).__name__}: {exc}", file=sys.stderr)
        return _error(400, "the saved game does not load (not a Game.to_json() form)")
    return JSONResponse(bundle)


async def saved_hand(request: Request) -> Response:
    """A finished hand's saved game, to a holder of one of the room's seat tokens
    (``Authorization: Bearer TOKEN``): the wall and every hand are in it."""
    room = await _room_of(request)
    if isinstance(room, Response):
        return room
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else None
    if room.seat_for_token(token) is None:
        return _error(403, "a seat token of this room is needed (Authorization: Bearer …)")
    hand = request.path_params["hand"]
    if not _is_number(hand) or int(hand) >= room.hand_count:
        return _error(404, f"no hand {hand!r} in this room ({room.hand_count} so far)")
    game = room.hand_game(int(hand))
    if game is None:  # a finished hand that left memory: rebuilt from the database
        try:
            game = await asyncio.to_thread(
                snapshots.load_hand, room.store, room.id, room.config, int(hand)
            )
        except StoreError as exc:
            return _unavailable(exc)
        if game is None:
            return _error(404, f"hand {hand} of this room is not stored")
    if not game.is_over:
        return _error(409, f"hand {hand} is not over yet")
    return JSONResponse(game.to_dict())


async def health(request: Request) -> Response:
    """200 when this process can do its job, else 503; every check with its numbers."""
    server = server_of(request)
    ok, checks = await server.health.report()
    database = "ok" if checks["database"]["ok"] else "unreachable"
    body = {"ok": ok, "rooms": len(server.lobby.rooms), "database": database, "checks": checks}
    failing = sorted(name for name, check in checks.items() if not check["ok"])
    if failing:
        body["failing"] = failing
    return JSONResponse(body, status_code=200 if ok else 503)


async def live(request: Request) -> Response:
    """Liveness only: the event loop answers."""
    return JSONResponse({"ok": True})


async def schema_file(request: Request) -> Response:
    """A JSON Schema with every reference inside it (plain validators need no registry)."""
    name = request.path_params["name"]
    if name not in bundled_names():
        return _error(404, f"no schema {name[:40]!r}; known: {', '.join(bundled_names())}")
    return Response(bundled_text(name), media_type="application/schema+json")


async def metrics_page(request: Request) -> Response:
    return Response(server_of(request).metrics.render(), media_type=CONTENT_TYPE)


async def variants(request: Request) -> Response:
    return JSONResponse([variant_info(get_variant(n)) for n in names()])


async def bots(request: Request) -> Response:
    """The agents a room's bot seats may name (what room configs accept)."""
    return JSONResponse({"names": list(BOTS), "default": DEFAULT_BOT})


async def favicon(request: Request) -> Response:
    return Response(favicon_svg(), media_type="image/svg+xml")


async def create_room(request: Request) -> Response:
    server = server_of(request)
    client = server.limiter.client(request.client, request.headers)
    try:
        server.lobby.check_room_space()  # full: 503 before any of the client's limits count
        limited = _room_limits(server, client)
        if limited is not None:
            return limited
        room = await server.lobby.create_async(await _json_body(request))
    except RoomsFull as exc:  # 503: a proxy tries another process
        response = _error(503, str(exc))
        response.headers["Retry-After"] = str(FULL_RETRY_S)
        return response
    except RoomError as exc:
        return _error(400, str(exc))
    except StoreError as exc:
        return _unavailable(exc)
    server.limiter.created_room(client, room.id)
    return JSONResponse(room.summary(), status_code=201)


def _room_limits(server: ServerState, client: str) -> Response | None:
    """429 if the client created too many rooms lately or has too many open."""
    limiter = server.limiter
    lim = limiter.limits
    if lim.exempts(client):
        return None
    rooms = server.lobby.rooms
    mine = limiter.open_rooms(client, lambda r: r in rooms and not rooms[r].finished)
    if lim.open_rooms and mine >= lim.open_rooms:
        limiter.count("open_rooms")
        return _limited(f"at most {lim.open_rooms} open rooms per client; finish or leave "
                        "some first", 60)  # fmt: skip
    wait = limiter.rooms.take(client)
    if wait:
        limiter.count("rooms")
        return _limited(f"at most {lim.rooms_per_minute:g} new rooms a minute per client",
                        wait)  # fmt: skip
    return None


async def room_summary(request: Request) -> Response:
    room = await _room_of(request)
    return room if isinstance(room, Response) else JSONResponse(room.summary())


async def join(request: Request) -> Response:
    room = await _room_of(request)
    if isinstance(room, Response):
        return room
    try:
        seat, name = _join_request(await _json_body(request))
    except RoomError as exc:
        return _error(400, str(exc))
    try:
        seat, token = room.join(seat, name)
    except RoomError as exc:
        return _error(409, str(exc))
    except StoreError as exc:
        return _unavailable(exc)
    room.pump()
    return JSONResponse({"room": room.id, "seat": seat, "token": token})


# ------------------------------------------------------------ WebSocket
async def play(ws: WebSocket) -> None:
    """One seat's WebSocket, within the client's connection limit."""
    server = server_of(ws)
    limiter = server.limiter
    client = limiter.client(ws.client, ws.headers)
    if not limiter.limits.exempts(client):
        if not limiter.connections.acquire(client):
            limiter.count("connections")
            return await ws.send_denial_response(_limited(
                f"at most {limiter.limits.connections} connections per client", 10
            ))  # fmt: skip
    else:
        client = ""  # (not counted)
    try:
        await _play(server, ws)
    finally:
        if client:
            limiter.connections.release(client)


async def _play(server: ServerState, ws: WebSocket) -> None:
    metrics, limits = server.metrics, server.limiter.limits
    try:
        found: Room | Exception = await server.lobby.fetch(ws.path_params["room_id"])
    except RoomBusy as exc:  # HTTP 503 to the handshake: a proxy tries the next process
        metrics.errors.labels(code="room_busy").inc()
        return await ws.send_denial_response(_busy(exc))
    except (RoomError, StoreError) as exc:
        found = exc
    await ws.accept()
    conn = Connection(ws)
    metrics.connections.inc()
    room = found
    if not isinstance(room, Room):
        code = "no_room" if isinstance(room, RoomError) else "server_error"
        why = str(room) if code == "no_room" else "the database is unavailable; try again"
        conn.send({"type": "error", "code": code, "message": why})
        conn.close("no such room" if code == "no_room" else "database unavailable")
        metrics.errors.labels(code=code).inc()
        metrics.connections.dec()
        await asyncio.wait_for(conn.writer, 5)
        return
    session = Session(room, conn, metrics)
    login_by = time.monotonic() + limits.login_s
    server.sessions.add(session)
    try:
        while not conn.closing:
            if session.seat is None and limits.login_s > 0:
                try:  # a socket that never authenticates does not hold a descriptor
                    message = await asyncio.wait_for(
                        ws.receive(), max(0.0, login_by - time.monotonic())
                    )
                except TimeoutError:
                    server.limiter.count("login")
                    session.error("not_authenticated", f"no hello within "
                                  f"{limits.login_s:g} s")  # fmt: skip
                    conn.close("no hello in time")
                    break
            else:
                message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            try:
                session.handle(text)
            except Exception as exc:  # a bug must cost one message, not the connection
                print(f"mjcore server: message failed: {type(exc).__name__}: {exc}",
                      file=sys.stderr)  # fmt: skip
                session.error("server_error", "the server could not handle this message")
    except WebSocketDisconnect:
        pass
    finally:
        server.sessions.discard(session)
        session.leave()
        if conn.closing:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(conn.writer), 2)
        await conn.finish()
        metrics.connections.dec()


# ------------------------------------------------------------ the app
def routes() -> list[BaseRoute]:
    """The app's routes (a new list each call: two apps share no route objects)."""
    return [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/health/live", live),
        Route("/schemas/{name}.json", schema_file),
        Route("/metrics", metrics_page),
        Route("/api/variants", variants),
        Route("/api/bots", bots),
        Route("/favicon.svg", favicon),
        Route("/favicon.ico", favicon),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", room_summary),
        Route("/api/rooms/{room_id}/join", join, methods=["POST"]),
        Route("/api/rooms/{room_id}/hands/{hand}", saved_hand),
        Route("/replay", replay_page),
        Route("/api/replay", replay_bundle, methods=["POST"]),
        WebSocketRoute("/ws/{room_id}", play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


def create_app(
    db: str = "mjcore-server.db",
    max_rooms: int = 10_000,
    restore: str = "lazy",
    idle_room_s: float = IDLE_ROOM_S,
    lease_s: float = LEASE_S,
    server_id: str = "",
    token_ttl_s: float = TOKEN_TTL_S,
    limits: ClientLimits | None = None,
    bot_workers: int = 1,
    bot_budget_ms: float = 0.0,
    allowed_origins: Iterable[str] = (),
    **defaults: Any,
) -> SecurityMiddleware:
    """The server app; ``defaults`` are room settings used when a request omits them.

    ``restore="lazy"`` restores a stored room on its first request, ``"all"`` every room at
    start; rooms nobody has been connected to for ``idle_room_s`` seconds leave memory. A
    room is served under a lease of ``lease_s`` seconds in the database (one process at a
    time), renewed while anyone is connected to it; ``server_id`` names this server in the
    leases (a restarted server with the same id takes its rooms back at once). ``limits``:
    what one client address may take (limits.py; the defaults if None). Bots slower than
    the loop's budget (``mc``) decide in ``bot_workers`` worker processes within
    ``bot_budget_ms`` each (rooms.BotPool).

    Pages of other sites may not open WebSockets or POST (their ``Origin``): only the
    server's own origin and ``allowed_origins`` (``["*"]``: any). The app returned is the
    Starlette app inside :class:`~.security.SecurityMiddleware` and :class:`~.drain.DrainGate`
    (``app.app``: what ``mjcore serve`` drains on SIGTERM; ``app.state``: the Starlette app's,
    whose ``server`` is this app's :class:`ServerState`)."""
    if restore not in ("lazy", "all"):
        raise ValueError(f"restore must be 'lazy' or 'all', got {restore!r}")
    origins = parse_origins(allowed_origins)
    metrics = Metrics()
    server = ServerState(
        db=db, max_rooms=max_rooms, restore=restore, idle_room_s=idle_room_s, lease_s=lease_s,
        server_id=server_id, token_ttl_s=token_ttl_s, bot_workers=bot_workers,
        bot_budget_ms=bot_budget_ms, defaults=defaults, metrics=metrics,
        limiter=Limiter(limits or ClientLimits(), metrics.registry),
    )  # fmt: skip
    app = Starlette(routes=routes(), lifespan=lifespan, exception_handlers={500: _internal})
    app.state.server = server
    app.state.count_limited = server.limiter.count  # (the HTTP protocol's refusals: limits.py)
    secured = SecurityMiddleware(DrainGate(app, functools.partial(drain, server)), origins)
    secured.state = app.state
    return secured


def _ref_of(text: str) -> Any:
    """The ``id`` of a message refused before it is handled (rate limit), if it has a valid
    one: the client can still match the refusal to its request."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        msg = parse_json(text)
    except BadJSON:
        return None
    ref = msg.get("id") if isinstance(msg, dict) else None
    return ref if ref is not None and valid_ref(ref) else None


async def _internal(request: Request, exc: Exception) -> Response:
    """A bug answers 500 with a fixed text: Python's own words go to the log only."""
    return _error(500, "internal server error")


def _committing(room: Room) -> bool:
    """Whether the room has a commit in flight or actions waiting for one (their ``ok``s are
    still to be sent)."""
    return bool(room._in_flight or room._waiting or room.store.pending(room.id))


class Session:
    """The messages of one WebSocket: authentication, then actions for its own seat only."""

    def __init__(self, room: Room, conn: Connection, metrics: Metrics | None = None) -> None:
        self.room, self.conn = room, conn
        self.metrics = metrics
        self.seat: int | None = None
        self.bucket = TokenBucket(MESSAGE_RATE, MESSAGE_BURST)
        self.violations = 0

    def error(self, code: str, message: str, ref: Any = None) -> None:
        if self.metrics is not None:
            self.metrics.errors.labels(code=code).inc()
        reply: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            reply["id"] = ref
        self.conn.send(reply)
        if code in ("rate_limited", "not_authenticated", "too_large", "bad_json"):
            self.violations += 1
            if self.violations > MAX_VIOLATIONS:
                self.conn.close("too many rejected messages")

    def handle(self, text: str) -> None:
        if not self.bucket.take():
            return self.error(
                "rate_limited", f"more than {MESSAGE_RATE:g} messages per second", _ref_of(text)
            )
        if len(text) > MAX_MESSAGE:
            return self.error("too_large", f"messages are at most {MAX_MESSAGE} characters")
        try:
            msg = parse_json(text)
        except BadJSON as exc:
            return self.error("bad_json", f"a message is one JSON object ({exc})")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return self.error("bad_message", "a message is a JSON object with a 'type'")
        ref = msg.get("id")
        if ref is not None and not valid_ref(ref):
            return self.error("bad_message", f"id must be an integer or a printable string of "
                              f"at most {MAX_REF} characters")  # fmt: skip
        kind = msg["type"]
        if "seat" in msg and (type(msg["seat"]) is not int or msg["seat"] != self.seat):
            mine = "no seat yet" if self.seat is None else f"seat {self.seat} only"
            return self.error("forged_seat", f"this connection plays {mine}", ref)
        if kind == "ping":
            return self.conn.send({"type": "pong", "id": ref})
        if self.seat is None:
            if kind != "hello":
                return self.error("not_authenticated", "send hello with your seat token first", ref)
            return self.hello(msg)
        handler = {"act": self.act, "next": self.next, "back": self.back}.get(kind)
        if handler is None:
            known = "hello, act, next, back, ping"
            return self.error("bad_message", f"unknown type {kind!r}; known: {known}", ref)
        handler(msg, ref)

    def hello(self, msg: dict[str, Any]) -> None:
        seat = self.room.seat_for_token(msg.get("token"))
        if seat is None:
            why = "unknown token for this room"
            if self.room.tokens_expired():
                why = f"the room finished over {self.room.token_ttl_s:g} s ago: its tokens expired"
            return self.error("not_authenticated", why, msg.get("id"))
        hand, since = msg.get("hand", -1), msg.get("since", 0)
        if type(hand) is not int or type(since) is not int or hand < -1 or since < 0:
            return self.error(
                "bad_message", "hand must be an integer ≥ -1 and since one ≥ 0", msg.get("id")
            )
        self.seat = seat
        self.conn.send(
            {
                "type": "welcome",
                "room": self.room.id,
                "seat": seat,
                "config": self.room.config.public(),
            }
        )
        self.room.connect(seat, self.conn, hand, since)

    def act(self, msg: dict[str, Any], ref: Any) -> None:
        """Apply the seat's action; ``ok`` once it is stored (off the loop: other rooms go on
        meanwhile), ``server_error`` if the database did not take it (then nothing changed)."""
        assert self.seat is not None
        start = time.perf_counter()
        try:
            self.room.act(self.seat, msg.get("action"))
        except NotYourTurnError as exc:
            self._acted(start)
            return self.error("not_your_turn", str(exc), ref)
        except IllegalActionError as exc:
            self._acted(start)
            return self.error("illegal", str(exc), ref)
        self.room.commit(lambda error: self._stored(ref, start, error))

    def _stored(self, ref: Any, start: float, error: StoreError | None) -> None:
        self._acted(start)
        if error is not None:  # the room is back at what the database holds
            # Never the driver's text (SQL, hosts) to a client: the details go to the log.
            print(f"mjcore server: room {self.room.id}: {error}", file=sys.stderr)
            return self.error("server_error", "the action was not stored, so not applied", ref)
        self.conn.send({"type": "ok", "id": ref})

    def _acted(self, start: float) -> None:
        if self.metrics is not None:
            self.metrics.action_latency.observe(time.perf_counter() - start)

    def next(self, msg: dict[str, Any], ref: Any) -> None:
        assert self.seat is not None
        hand = msg.get("hand")
        if hand is not None and (type(hand) is not int or hand < 0):
            return self.error("bad_message", "hand must be a hand number (an integer ≥ 0)", ref)
        try:
            self.room.next_hand(self.seat, msg.get("hand"))
        except IllegalActionError as exc:
            return self.error("not_your_turn", str(exc), ref)
        self.conn.send({"type": "ok", "id": ref})
        self.room.pump()

    def back(self, msg: dict[str, Any], ref: Any) -> None:
        assert self.seat is not None
        self.room.take_back(self.seat)
        self.conn.send({"type": "ok", "id": ref})
        self.room.pump()

    def leave(self) -> None:
        if self.seat is not None:
            self.room.disconnect(self.seat, self.conn)
