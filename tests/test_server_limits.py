"""Per-client limits (issue 32) against real ``mjcore serve`` processes: room creation, open
rooms, WebSocket connections and replays per client address (the forwarded one only from
trusted proxies, here a real nginx), 429 with Retry-After, 503 from a full process, a login
deadline, silent TCP connections closed, and every refusal counted in /metrics."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from server_support import Client, Server, missing  # noqa: E402


def request(
    server: Server,
    method: str,
    path: str,
    body: Any = None,
    source: str = "127.0.0.1",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], Any]:
    """One HTTP request from the loopback address ``source``: (status, headers, JSON body)."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=10, source_address=(source, 0)
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data,
                     headers={"Content-Type": "application/json", **(headers or {})})  # fmt: skip
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, json.loads(raw or b"{}")
    finally:
        conn.close()


def create(server: Server, source: str = "127.0.0.1", **headers: str) -> tuple[int, dict, Any]:
    hdrs = {k.replace("_", "-"): v for k, v in headers.items()}
    return request(server, "POST", "/api/rooms", {"variant": "qingdao", "idle_timeout_s": 60},
                   source, hdrs)  # fmt: skip


def limited(server: Server, limit: str) -> float:
    return server.metrics().get(f'mjcore_limited_total{{limit="{limit}"}}', 0.0)


def test_room_creation_is_rate_limited_per_client_with_429_and_retry_after(tmp_path):
    srv = Server(tmp_path / "rate.db", "--limit-rooms-per-minute", "4").start()
    try:
        assert [create(srv)[0] for _ in range(4)] == [201] * 4
        status, headers, body = create(srv)
        assert status == 429 and "4 new rooms a minute" in body["error"]
        assert 1 <= int(headers["retry-after"]) <= 15  # one room per 15 s refills
        # Another client address is not held back by the first one …
        assert create(srv, "127.0.0.2")[0] == 201
        # … and a forwarded address from a peer that is no trusted proxy changes nothing.
        assert create(srv, x_forwarded_for="203.0.113.9")[0] == 429
        assert limited(srv, "rooms") == 2
    finally:
        srv.stop()


def test_open_rooms_per_client(tmp_path):
    srv = Server(tmp_path / "open.db", "--limit-open-rooms", "3",
                 "--limit-rooms-per-minute", "0").start()  # fmt: skip
    try:
        assert [create(srv)[0] for _ in range(3)] == [201] * 3
        status, headers, body = create(srv)
        assert status == 429 and "open rooms" in body["error"] and int(headers["retry-after"]) > 0
        assert create(srv, "127.0.0.3")[0] == 201
        assert limited(srv, "open_rooms") == 1
    finally:
        srv.stop()


def test_exempt_clients_are_not_limited(tmp_path):
    srv = Server(tmp_path / "exempt.db", "--limit-rooms-per-minute", "1",
                 "--limit-exempt", "127.0.0.1").start()  # fmt: skip
    try:
        assert [create(srv)[0] for _ in range(5)] == [201] * 5
        assert [create(srv, "127.0.0.2")[0] for _ in range(2)] == [201, 429]
    finally:
        srv.stop()


def test_a_full_process_answers_503_with_retry_after(tmp_path):
    srv = Server(tmp_path / "full.db", "--max-rooms", "2").start()
    try:
        rooms = [create(srv)[2]["room"] for _ in range(2)]
        clients = [Client(srv, room) for room in rooms]  # both in use: nothing to drop
        for room, c in zip(rooms, clients, strict=True):
            c.hello(srv.join(room, 0))
        status, headers, body = create(srv, "127.0.0.2")
        assert status == 503 and "maximum of 2 rooms" in body["error"]
        assert int(headers["retry-after"]) >= 1
        for c in clients:
            c.close()
    finally:
        srv.stop()


def test_behind_nginx_the_forwarded_address_from_a_trusted_proxy_is_the_client(tmp_path):
    """The repository's nginx config (X-Forwarded-For) in front of a server that trusts it:
    two client addresses reaching nginx have a limit each; a forged X-Forwarded-For sent
    through nginx does not give a client a new address; a full process answers 503 and
    nginx tries the next one."""
    from nginx_support import Nginx, nginx_binary

    if nginx_binary() is None:  # pragma: no cover - .ci/run installs it
        pytest.skip(missing("nginx", "nginx-light"))
    limits = ("--trusted-proxy", "127.0.0.1", "--limit-rooms-per-minute", "2")
    full = Server(tmp_path / "a.db", *limits, "--max-rooms", "0").start()
    ok = Server(tmp_path / "a.db", *limits).start()
    proxy = Nginx([full.port, ok.port]).start()
    try:
        for source in ("127.0.0.2", "127.0.0.4"):
            assert [create(proxy, source)[0] for _ in range(2)] == [201, 201]  # (via `ok`)
        assert create(proxy, "127.0.0.2")[0] == 429
        status, _, _ = create(proxy, "127.0.0.2", x_forwarded_for="198.51.100.7")
        assert status == 429  # nginx appends the real peer: still 127.0.0.2
        # the server trusts only 127.0.0.1: a direct request's forwarded address is ignored
        assert create(ok, "127.0.0.5", x_forwarded_for="198.51.100.8")[0] == 201
        assert create(ok, "127.0.0.5", x_forwarded_for="198.51.100.9")[0] == 201
        assert create(ok, "127.0.0.5", x_forwarded_for="198.51.100.10")[0] == 429
    finally:
        proxy.stop()
        full.stop()
        ok.stop()


def test_websocket_connections_per_client(tmp_path):
    from websockets.exceptions import InvalidStatus

    srv = Server(tmp_path / "ws.db", "--limit-connections", "3").start()
    try:
        room = srv.room(variant="qingdao", idle_timeout_s=60)
        clients = [Client(srv, room) for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            Client(srv, room)
        assert refused.value.response.status_code == 429
        assert refused.value.response.headers["Retry-After"]
        clients.pop().close()
        time.sleep(0.3)
        clients.append(Client(srv, room))  # a connection freed is one more allowed
        for c in clients:
            c.close()
        assert limited(srv, "connections") == 1
    finally:
        srv.stop()


def test_a_socket_that_never_says_hello_is_closed_at_the_login_deadline(tmp_path):
    srv = Server(tmp_path / "login.db", "--login-timeout", "1").start()
    try:
        room = srv.room(variant="qingdao", idle_timeout_s=60)
        silent = Client(srv, room)
        started = time.monotonic()
        error = silent.until(lambda m: m["type"] == "error", timeout=5)
        assert error["code"] == "not_authenticated" and "hello" in error["message"]
        assert silent.until(lambda m: m["type"] == "closing", timeout=5)
        assert 0.9 <= time.monotonic() - started < 4
        late = Client(srv, room)  # a socket that does say hello in time stays
        late.hello(srv.join(room, 0))
        time.sleep(1.5)
        late.send({"type": "ping", "id": 3})
        assert late.until(lambda m: m["type"] == "pong")["id"] == 3
        late.close()
        assert limited(srv, "login") == 1
    finally:
        srv.stop()


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes the connection (recv returns b"") within ``seconds``."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_silent_and_slow_tcp_connections_are_closed(tmp_path):
    srv = Server(tmp_path / "tcp.db", "--header-timeout", "1").start()
    try:
        silent = socket.create_connection(("127.0.0.1", srv.port))
        slow = socket.create_connection(("127.0.0.1", srv.port))
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # and never the end
        kept = socket.create_connection(("127.0.0.1", srv.port))  # one request, then a trickle
        kept.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        kept.settimeout(5)
        assert kept.recv(4096).startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /api/health HTTP/1.1\r\n")
        started = time.monotonic()
        for sock in (silent, slow, kept):
            assert _closed_within(sock, 5)
            sock.close()
        assert time.monotonic() - started < 5
        assert limited(srv, "silent") >= 2
        assert srv.get("/api/health")["ok"]  # everyone else is served as before
    finally:
        srv.stop()


def test_connections_past_the_process_limit_get_503(tmp_path):
    srv = Server(tmp_path / "max.db", "--max-connections", "4", "--header-timeout", "30").start()
    socks = []
    try:
        socks = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(4)]
        time.sleep(0.2)
        extra = socket.create_connection(("127.0.0.1", srv.port))
        extra.settimeout(5)
        reply = extra.recv(4096)
        assert reply.startswith(b"HTTP/1.1 503") and b"retry-after" in reply.lower()
        extra.close()
        for s in socks:
            s.close()
        socks = []
        time.sleep(0.3)
        assert srv.get("/api/health")["ok"]
        assert limited(srv, "full") >= 1
    finally:
        for s in socks:
            with contextlib.suppress(OSError):
                s.close()
        srv.stop()


def test_replays_are_rate_limited_per_client(tmp_path):
    from mjcore.engine.match import Match

    match = Match("qingdao", seed=5)
    game = match.new_hand()
    saved = game.to_dict()
    srv = Server(tmp_path / "replay.db", "--limit-replays-per-minute", "3").start()
    try:
        statuses = [request(srv, "POST", "/api/replay", saved)[0] for _ in range(3)]
        assert statuses == [200] * 3
        status, headers, body = request(srv, "POST", "/api/replay", saved)
        assert status == 429 and "replays a minute" in body["error"]
        assert int(headers["retry-after"]) >= 1
        assert request(srv, "POST", "/api/replay", saved, "127.0.0.2")[0] == 200
        assert limited(srv, "replay") == 1
    finally:
        srv.stop()


def test_rate_limited_errors_echo_the_message_id(tmp_path):
    srv = Server(tmp_path / "echo.db").start()
    try:
        room = srv.room(variant="qingdao", idle_timeout_s=60)
        c = Client(srv, room)
        c.hello(srv.join(room, 0))
        for ref in range(60):  # past the burst of 40
            c.send({"type": "ping", "id": f"p{ref}"})
        replies = []
        with contextlib.suppress(TimeoutError):
            while len(replies) < 60:
                replies.append(c.recv(2))
        refused = [m for m in replies if m["type"] == "error"]
        assert refused and all(m["code"] == "rate_limited" for m in refused)
        assert all(m.get("id", "").startswith("p") for m in refused)
        answered = {m["id"] for m in replies}
        assert answered == {f"p{ref}" for ref in range(60)}  # each one answered, by its id
        c.close()
    finally:
        srv.stop()
