"""Issue 32 on real PostgreSQL and nginx (Debian's packages, started by the tests): a hung
process (SIGSTOP: it still accepts TCP connections, it answers nothing) is failed over by the
shipped nginx configuration like a dead one, and the database password never reaches the
server's output."""

from __future__ import annotations

import contextlib
import os
import signal
import time
import urllib.request

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


def test_the_database_password_is_never_printed(pg, tmp_path):
    secret = "s3cret-Pa55word"
    url = pg.url.replace("mjcore@", f"mjcore:{secret}@")  # (trust: any password is taken)
    srv = Server(tmp_path / "pw.db", url=url).start()
    try:
        srv.room(variant="qingdao")
    finally:
        srv.stop()
    out = srv.log.read_text()
    assert "mjcore server on" in out and "***" in out, out
    assert secret not in out


class PatientClient(Client):
    """A Client whose handshake may take longer than nginx's read timeout (browsers wait
    that long too): the hung process's silence, then the next process's answer."""

    def __init__(self, server: Server, room: str) -> None:
        from websockets.sync.client import connect

        self.server, self.states = server, []
        self._stack = contextlib.ExitStack()
        url = f"{server.ws_base}/ws/{room}"
        self.ws = self._stack.enter_context(connect(url, open_timeout=40))


def _reconnect(proxy, room: str, token: str, last: dict, deadline: float) -> Client:
    """Connect and resume after the last event seen, retrying while the room has no server."""
    while True:
        try:
            c = PatientClient(proxy, room)
        except Exception:  # 503 (room not served yet, or every try timed out) or refused
            assert time.monotonic() < deadline, "the room was not served again in time"
            time.sleep(0.2)
            continue
        state = c.hello(token, hand=last["hand"], since=last["next"])
        assert state["view"] == last["view"] and state["events"] == []  # nothing lost
        return c


def test_a_hung_process_behind_nginx_is_failed_over(pg, tmp_path):
    """Three processes behind nginx with the shipped config; SIGSTOP the one serving the most
    rooms mid-hand. nginx closes its clients' WebSockets (no ping for its read timeout), a
    new handshake or API request it does not answer goes to the next process, which takes
    the room once the lease lapses: clients resume with nothing acknowledged lost, and the
    other rooms never notice."""
    import sqlalchemy as sa
    from nginx_support import Nginx, nginx_binary
    from websockets.exceptions import ConnectionClosed

    if nginx_binary() is None:  # pragma: no cover - .ci/run installs it
        pytest.skip(missing("nginx", "nginx-light"))
    lease = 3.0
    servers = [
        Server(
            tmp_path / f"h{i}.db", "--lease-s", str(lease), "--server-id", f"h{i}", url=pg.url
        ).start()  # fmt: skip
        for i in range(3)
    ]
    proxy = Nginx([s.port for s in servers]).start()
    tables = []
    victim_proc = None
    try:
        for _ in range(5):
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
        victim = max(set(served), key=served.count)
        for _, _, clients in tables:
            for c in clients:
                drain(c, 0.05)
        victim_proc = servers[int(victim[1])].proc
        assert victim_proc is not None
        os.kill(victim_proc.pid, signal.SIGSTOP)
        stopped = time.monotonic()

        # 1. nginx notices the silence and closes the hung process's WebSockets.
        hung = [(room, tokens, clients) for room, tokens, clients in tables
                if owners[room] == victim]  # fmt: skip
        for _, _, clients in hung:
            with pytest.raises(ConnectionClosed):
                while True:
                    clients[0].ws.recv(timeout=max(0.1, stopped + 30 - time.monotonic()))
        noticed = time.monotonic() - stopped
        assert noticed < 25, noticed

        # 2. API requests and new handshakes for its rooms reach another process (each
        # after one read timeout on the hung one: nginx keeps trying it first).
        waits = []
        for room, tokens, clients in hung:
            start = time.monotonic()
            with urllib.request.urlopen(f"{proxy.base}/api/rooms/{room}", timeout=40) as resp:
                assert resp.status == 200
            waits.append(time.monotonic() - start)
            for seat, c in enumerate(clients):
                last = c.states[-1]
                with contextlib.suppress(Exception):
                    c.close()
                start = time.monotonic()
                clients[seat] = _reconnect(proxy, room, tokens[seat], last, start + 40)
                waits.append(time.monotonic() - start)
        assert max(waits) < 25, waits
        for room, _, clients in tables:  # every room plays on, moved or not
            c, action = to_act(clients)
            assert c.act(action, 50)["type"] == "ok", room
        span = f"{min(waits):.1f}-{max(waits):.1f} s"
        print(f"hung process: its sockets closed by nginx after {noticed:.1f} s; "
              f"{len(hung)} rooms served elsewhere, each request waiting {span}")  # fmt: skip
    finally:
        if victim_proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(victim_proc.pid, signal.SIGCONT)
        for _, _, clients in tables:
            for c in clients:
                with contextlib.suppress(Exception):
                    c.close()
        proxy.stop()
        for s in servers:
            s.stop()
