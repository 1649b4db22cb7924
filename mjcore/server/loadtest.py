"""Load test: N concurrent tables played by WebSocket clients against a running server.

Each table is one room; ``clients`` of its seats are played here over WebSockets (the
rest by the server's bots). A client answers every decision it is offered (``hu`` when it
can, otherwise a seeded random legal action) after ``think`` seconds and measures each
action's latency from sending ``act`` to receiving its ``ok``. Everything is bounded by
the duration; only loopback addresses are accepted. The server's per-client limits count
every table against this one address: start it with ``--limit-exempt 127.0.0.1``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import random
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

SETUP_CONCURRENCY = 32  # rooms created / joined at once
MIN_INTERVAL = 0.06  # seconds between one client's messages: under the server's 20/s limit
CONNECT_TIMEOUT = 30.0


@dataclass(frozen=True)
class LoadConfig:
    url: str
    tables: int
    duration: float
    variant: str = "xuezhan_kaxinwu"  # (a request field of the wire protocol)
    clients: int = 4
    think: float = 0.0
    seed: int = 0


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    hands_finished: int = 0


def loopback_base(url: str) -> str:
    """The http base URL if its host is a loopback address, else ValueError."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme != "http":
        raise ValueError(f"--url must be http://… on this machine, got {url!r}")
    if host != "localhost":
        try:
            if not ipaddress.ip_address(host).is_loopback:
                raise ValueError
        except ValueError:
            raise ValueError(
                f"the load test only targets loopback addresses, not {host!r}"
            ) from None
    return f"http://{parts.netloc}"


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=CONNECT_TIMEOUT) as resp:
        return json.loads(resp.read())


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=CONNECT_TIMEOUT) as resp:
        return json.loads(resp.read())


def _setup_table(base: str, cfg: LoadConfig, players: int) -> tuple[str, list[str]]:
    seats = ["human"] * cfg.clients + ["greedy"] * (players - cfg.clients)
    room = _post(
        f"{base}/api/rooms",
        # next_hand_s at its floor: the clients send next, so a hand starts when all did
        {"variant": cfg.variant, "players": players, "seats": seats, "next_hand_s": 1,
         "claim_window_ms": 0, "idle_timeout_s": 600},
    )  # fmt: skip
    tokens = [
        _post(f"{base}/api/rooms/{room['room']}/join", {})["token"] for _ in range(cfg.clients)
    ]
    return room["room"], tokens


async def _connect(ws_url: str, token: str, stack: contextlib.AsyncExitStack) -> tuple[Any, Any]:
    """Open a seat's WebSocket and say hello; the connection and its first state."""
    from websockets.asyncio.client import connect

    ws = await stack.enter_async_context(
        connect(
            ws_url,
            open_timeout=CONNECT_TIMEOUT,
            max_size=2**22,
            compression=None,
            ping_interval=None,  # the server pings; thousands of synchronised pings here
        )
    )
    await ws.send(json.dumps({"type": "hello", "token": token}))
    for _ in range(100):
        msg = json.loads(await asyncio.wait_for(ws.recv(), CONNECT_TIMEOUT))
        if msg["type"] == "state":
            return ws, msg
        if msg["type"] not in ("welcome",):
            raise RuntimeError(f"unexpected reply to hello: {msg}")
    raise RuntimeError("no state after hello")


async def _play(
    ws: Any,
    first: dict[str, Any],
    cfg: LoadConfig,
    rng: random.Random,
    deadline: float,
    totals: Totals,
    counts_hands: bool,
) -> None:
    """Answer every decision until the deadline; record each action's latency."""
    sent_at: float | None = None
    ref = 0
    last_hand_over = -1
    last_sent = 0.0
    msg: dict[str, Any] | None = first
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        if msg is None:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), remaining))
            except asyncio.TimeoutError:
                return
        kind = msg["type"]
        if kind == "error":
            totals.errors.append(f"{msg.get('code')}: {msg.get('message')}")
            sent_at = None
        elif kind == "ok" and sent_at is not None and msg.get("id") == ref:
            totals.latencies.append(time.monotonic() - sent_at)
            sent_at = None
        elif kind == "closing":
            totals.errors.append(f"closed by server: {msg.get('reason')}")
            return
        elif kind == "state" and sent_at is None:  # states before our ok are stale
            view = msg["view"]
            if view["phase"] == "over" and msg["hand"] > last_hand_over:
                last_hand_over = msg["hand"]
                totals.hands_finished += counts_hands
                await ws.send(json.dumps({"type": "next", "hand": msg["hand"]}))
            elif view["legal_actions"]:
                legal = view["legal_actions"]
                action = "hu" if "hu" in legal else rng.choice(legal)
                # Human-like, unsynchronised thinking: THINK × uniform(0.5, 1.5).
                think = cfg.think * rng.uniform(0.5, 1.5)
                pause = max(think, last_sent + MIN_INTERVAL - time.monotonic())
                if pause > 0:
                    await asyncio.sleep(min(pause, max(0.0, deadline - time.monotonic())))
                if time.monotonic() >= deadline:
                    return
                ref += 1
                last_sent = sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "act", "action": action, "id": ref}))
        msg = None


async def _run(cfg: LoadConfig) -> dict[str, Any]:
    base = loopback_base(cfg.url)
    variants = {v["name"]: v for v in await asyncio.to_thread(_get, f"{base}/api/variants")}
    if cfg.variant not in variants:
        raise ValueError(f"unknown variant {cfg.variant!r}; the server has {sorted(variants)}")
    players = int(variants[cfg.variant]["max_players"])
    if cfg.clients > players:
        raise ValueError(f"--clients must be at most {players} for {cfg.variant}")
    limit = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def setup() -> tuple[str, list[str]]:
        async with limit:
            return await asyncio.to_thread(_setup_table, base, cfg, players)

    t0 = time.monotonic()
    tables = await asyncio.gather(*(setup() for _ in range(cfg.tables)))
    setup_s = time.monotonic() - t0
    totals = Totals()
    rng = random.Random(cfg.seed)
    ws_base = "ws://" + base.removeprefix("http://")
    seats = [(room, i, t) for room, tokens in tables for i, t in enumerate(tokens)]
    async with contextlib.AsyncExitStack() as stack:
        t0 = time.monotonic()
        connected = []
        for i in range(0, len(seats), SETUP_CONCURRENCY):  # connect in batches, then start
            batch = seats[i : i + SETUP_CONCURRENCY]
            connected += await asyncio.gather(
                *(_connect(f"{ws_base}/ws/{room}", t, stack) for room, _, t in batch),
                return_exceptions=True,
            )
        connect_s = time.monotonic() - t0
        start = time.monotonic()
        deadline = start + cfg.duration
        lag = asyncio.create_task(_loop_lag(deadline))
        results = await asyncio.gather(
            *(
                _play(c[0], c[1], cfg, random.Random(rng.random()), deadline, totals, i == 0)
                for c, (_, i, _) in zip(connected, seats, strict=True)
                if not isinstance(c, BaseException)
            ),
            return_exceptions=True,
        )
        results += [c for c in connected if isinstance(c, BaseException)]
        lags = sorted(await lag)
        elapsed = time.monotonic() - start
    for r in results:
        if isinstance(r, BaseException):
            totals.errors.append(f"connection failed: {type(r).__name__}: {r}")
    lost = 0
    for room, _ in tables:  # every room must still be there
        try:
            await asyncio.to_thread(_get, f"{base}/api/rooms/{room}")
        except Exception:
            lost += 1
    lat = sorted(totals.latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else 0.0

    return {
        "tables": cfg.tables,
        "clients": cfg.tables * cfg.clients,
        "variant": cfg.variant,
        "think_ms": int(cfg.think * 1000),
        "setup_s": round(setup_s, 2),
        "connect_s": round(connect_s, 2),
        "duration_s": round(elapsed, 2),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed, 1) if elapsed else 0.0,
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * lat[-1], 2) if lat else 0.0,
        "hands_finished": totals.hands_finished,
        # How late this process's own event loop ran (a 10 ms sleep's overshoot): when it
        # is large, the latencies above include the load generator's own delays.
        "client_lag_p99_ms": round(1000 * lags[int(0.99 * (len(lags) - 1))], 2) if lags else 0,
        "errors": len(totals.errors),
        "first_errors": totals.errors[:5],
        "lost_tables": lost,
    }


async def _loop_lag(deadline: float) -> list[float]:
    """Overshoots of a 10 ms sleep until the deadline (the client's own loop delay)."""
    out = []
    while (now := time.monotonic()) < deadline:
        await asyncio.sleep(0.01)
        out.append(max(0.0, time.monotonic() - now - 0.01))
    return out


def run_loadtest(cfg: LoadConfig) -> dict[str, Any]:
    """Run the load test and return its report (latencies in milliseconds)."""
    loopback_base(cfg.url)
    gc.set_threshold(50_000, 50, 1_000)  # no long collections inside the measurement
    return asyncio.run(_run(cfg))
