"""The server on a real PostgreSQL server that goes away (issue 22, defect 1): a write the
database did not take is not applied, not acknowledged and not lost track of; the room
keeps playing when the database is back, and a restart restores exactly what was
acknowledged. PostgreSQL comes from Debian's packages and is started by the test itself."""

from __future__ import annotations

import contextlib
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")
pytest.importorskip("psycopg")

from pg_support import Postgres, binaries  # noqa: E402
from server_support import Client, Server, drain, missing, to_act  # noqa: E402

if binaries() is None:  # pragma: no cover - .ci/run installs it
    pytest.skip(missing("PostgreSQL's server programs", "postgresql"), allow_module_level=True)


@pytest.fixture(scope="module")
def pg():
    db = Postgres().start()
    yield db
    db.destroy()


@pytest.fixture()
def server(pg, tmp_path):
    srv = Server(tmp_path / "server.db", url=pg.url).start()
    yield srv
    srv.stop()


def health(server: Server) -> tuple[int, dict]:
    import json
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(server.base + "/api/health", timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def post_with_headers(server: Server, path: str, body: dict) -> tuple[int, dict, dict]:
    import http.client
    import json

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        resp = conn.getresponse()
        headers = {k.lower(): v for k, v in resp.getheaders()}
        return resp.status, headers, json.loads(resp.read())
    finally:
        conn.close()


def wait_healthy(server: Server) -> None:
    deadline = time.monotonic() + 30
    while health(server)[0] != 200:
        assert time.monotonic() < deadline, "the server never saw the database again"
        time.sleep(0.2)


def test_a_database_outage_loses_nothing_and_applies_nothing_unstored(pg, server):
    room = server.room(variant="xuezhan_kaxinwu", players=2, seats=["human", "human"],
                       idle_timeout_s=600)  # fmt: skip
    tokens = [server.join(room, s) for s in (0, 1)]
    clients = [Client(server, room) for _ in (0, 1)]
    for c, t in zip(clients, tokens, strict=True):
        c.hello(t)
    acked = 0
    for ref in range(1, 5):  # a few actions while the database is up
        c, action = to_act(clients)
        assert c.act(action, ref)["type"] == "ok"
        acked += 1
    status, body = health(server)
    assert (status, body["ok"], body["rooms"], body["database"]) == (200, True, 1, "ok")

    pg.stop("immediate")
    c, action = to_act(clients)
    before = c.states[-1]["view"]
    for ref in (10, 11):  # the same action twice: refused the same way both times
        reply = c.act(action, ref)
        assert reply["type"] == "error" and reply["code"] == "server_error", reply
        for secret in ("SQL", "psycopg", "INSERT", "127.0.0.1", "Error"):
            assert secret not in reply["message"]
    drain(c)
    assert c.states[-1]["view"] == before  # nothing unstored stayed applied
    status, body = health(server)
    assert status == 503 and body["ok"] is False and body["database"] == "unreachable"
    assert {"database", "writes"} <= set(body["failing"])  # (a write failed too)
    assert server.metrics()["mjcore_commit_failures_total"] >= 2
    status, headers, body = post_with_headers(server, "/api/rooms", {"variant": "qingdao"})
    assert status == 503 and "database" in body["error"]
    assert int(headers["retry-after"]) >= 1  # (issue 32) when to come back

    pg.start()
    wait_healthy(server)
    # (issue 32) the first room created after the database is back is stored like any other
    status, body = server.post("/api/rooms", {"variant": "qingdao", "idle_timeout_s": 60})
    assert status == 201, body
    assert server.get(f"/api/rooms/{body['room']}")["hand"] == 0
    deadline = time.monotonic() + 10
    while True:  # the room waits a moment after a failed write, then takes actions again
        reply = c.act(action, 20)
        if reply["type"] == "ok" or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert reply["type"] == "ok", reply
    acked += 1
    for ref in range(21, 27):
        c, action = to_act(clients)
        if c.states[-1]["view"]["phase"] == "over":
            break
        assert c.act(action, ref)["type"] == "ok"
        acked += 1
    drain(clients[0])
    drain(clients[1])
    last = [c.states[-1]["view"] for c in clients]
    for c in clients:
        c.close()

    server.kill()  # a crash: whatever was acknowledged must be there after the restart
    server.start()
    for seat, token in enumerate(tokens):
        c = Client(server, room)
        state = c.hello(token)
        assert state["view"] == last[seat]
        c.close()
    assert server.get(f"/api/rooms/{room}")["hand"] == 0
    assert server.metrics()["mjcore_restores_total"] == 1
    assert acked >= 11


def _two_seat_room(server: Server) -> tuple[str, list[Client]]:
    room = server.room(variant="xuezhan_kaxinwu", players=2, seats=["human", "human"],
                       idle_timeout_s=600)  # fmt: skip
    clients = [Client(server, room) for _ in (0, 1)]
    for seat, c in enumerate(clients):
        c.hello(server.join(room, seat))
    return room, clients


def test_a_slow_commit_delays_only_its_own_room(pg, server):
    """Storage runs off the event loop: while another transaction holds room A's next log
    row (so A's commit waits on PostgreSQL's row lock), room B's actions are acknowledged
    at once; when the lock goes, A's action is stored and acknowledged."""
    import sqlalchemy as sa

    room_a, a_clients = _two_seat_room(server)
    room_b, b_clients = _two_seat_room(server)
    engine = sa.create_engine(pg.url)
    blocker = engine.connect()
    try:
        n = blocker.execute(
            sa.text("SELECT count(*) FROM actions WHERE room_id = :r"), {"r": room_a}
        ).scalar()
        blocker.execute(
            sa.text(
                "INSERT INTO actions (room_id, n, hand, seat, action) VALUES (:r, :n, 0, 0, 'held')"
            ),  # fmt: skip
            {"r": room_a, "n": n},
        )  # not committed: A's insert of entry n waits for this transaction
        a, action = to_act(a_clients)
        a.send({"type": "act", "action": action, "id": 1})
        for ref in range(1, 4):
            b, b_action = to_act(b_clients)
            started = time.monotonic()
            assert b.act(b_action, ref)["type"] == "ok"
            assert time.monotonic() - started < 1.0
        with pytest.raises(TimeoutError):
            a.until(lambda m: m["type"] in ("ok", "error") and m.get("id") == 1, timeout=0.5)
        blocker.rollback()  # the lock goes: A's commit goes through
        reply = a.until(lambda m: m["type"] in ("ok", "error") and m.get("id") == 1)
        assert reply["type"] == "ok", reply
    finally:
        blocker.close()
        engine.dispose()
        for c in (*a_clients, *b_clients):
            c.close()


def _reconnect(proxy, room: str, token: str, last: dict, deadline: float) -> dict:
    """Connect and resume after the last event seen, retrying while the room has no server."""
    while True:
        try:
            c = Client(proxy, room)
        except Exception:  # the handshake answered 503 (room not served yet) or failed
            assert time.monotonic() < deadline, "the room was not served again in time"
            time.sleep(0.2)
            continue
        state = c.hello(token, hand=last["hand"], since=last["next"])
        return {"client": c, "state": state}


def test_three_processes_behind_nginx_fail_over(pg, tmp_path):
    """Scale-out, built: three server processes on one PostgreSQL behind nginx with the
    shipped routing config. kill -9 the process that serves the most rooms mid-hand: within
    the lease time another process serves them, clients resume from their last event with
    nothing acknowledged lost, and the other processes' rooms never notice."""
    import sqlalchemy as sa
    from nginx_support import Nginx, nginx_binary

    if nginx_binary() is None:  # pragma: no cover - .ci/run installs it
        pytest.skip(missing("nginx", "nginx-light"))
    lease = 3.0
    servers = [
        Server(
            tmp_path / f"p{i}.db", "--lease-s", str(lease), "--server-id", f"p{i}", url=pg.url
        ).start()  # fmt: skip
        for i in range(3)
    ]
    proxy = Nginx([s.port for s in servers]).start()
    tables = []
    try:
        for _ in range(6):
            room = proxy.room(variant="xuezhan_kaxinwu", players=2, seats=["human", "human"],
                              idle_timeout_s=600)  # fmt: skip
            tokens = [proxy.join(room, s) for s in (0, 1)]
            clients = [Client(proxy, room) for _ in (0, 1)]
            for c, t in zip(clients, tokens, strict=True):
                c.hello(t)
            for ref in range(1, 4):
                c, action = to_act(clients)
                assert c.act(action, ref)["type"] == "ok"
            tables.append((room, tokens, clients))
        engine = sa.create_engine(pg.url)
        with engine.connect() as conn:
            owners = dict(conn.execute(sa.text("SELECT id, owner FROM rooms")).all())
        engine.dispose()
        served = [owners[room] for room, _, _ in tables]
        assert all(o in ("p0", "p1", "p2") for o in served)
        victim = max(set(served), key=served.count)
        for _, _, clients in tables:
            for c in clients:
                drain(c, 0.05)
        servers[int(victim[1])].kill()
        killed = time.monotonic()

        for room, tokens, clients in tables:
            if owners[room] == victim:
                for seat, c in enumerate(clients):
                    last = c.states[-1]
                    back = _reconnect(proxy, room, tokens[seat], last, killed + lease + 10)
                    assert back["state"]["view"] == last["view"]  # nothing lost, nothing new
                    assert back["state"]["events"] == []
                    clients[seat] = back["client"]
        failover = time.monotonic() - killed
        assert failover < lease + 8
        for room, _, clients in tables:  # every room plays on, moved or not
            c, action = to_act(clients)
            assert c.act(action, 50)["type"] == "ok", room
        print(f"failover of {served.count(victim)} rooms took {failover:.1f} s (lease {lease} s)")
    finally:
        for _, _, clients in tables:
            for c in clients:
                with contextlib.suppress(Exception):
                    c.close()
        proxy.stop()
        for s in servers:
            s.stop()
