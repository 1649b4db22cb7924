"""Two apps made by ``create_app`` in one process share no state: each has its own lobby and
database, room defaults, client limits, room maximum, metrics, health, WebSocket sessions and
drain (the handlers are module-level functions reading their app's ``ServerState``)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from server_support import Client, Server, env  # noqa: E402

from mjcore.server.drain import DRAIN_REASON  # noqa: E402

HELPER = Path(__file__).with_name("two_apps.py")


def status_of(server: Server, path: str, method: str = "GET") -> tuple[int, Any, Any]:
    """(status, JSON body, headers) of a request, error statuses included."""
    data = b"{}" if method == "POST" else None
    req = urllib.request.Request(
        server.base + path, data=data, method=method,
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read()), resp.headers
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), exc.headers


@pytest.fixture
def two_apps(tmp_path: Path) -> Iterator[tuple[Server, Server, subprocess.Popen[str]]]:
    a, b = Server(tmp_path / "a.db"), Server(tmp_path / "b.db")  # (ports only: not started)
    log = tmp_path / "two_apps.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, str(HELPER), str(a.port), str(a.db), str(b.port), str(b.db)],
            env=env(), cwd=str(tmp_path), stdin=subprocess.PIPE, stdout=out,
            stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        for server in (a, b):
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"the apps' process exited: {log.read_text()}")
                try:
                    server.get("/api/health/live")
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("the apps did not come up in 30 s") from None
                    time.sleep(0.1)
        yield a, b, proc
    finally:
        if proc.poll() is None and proc.stdin is not None:
            proc.stdin.close()  # both apps stop
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def test_two_apps_in_one_process_share_no_state(two_apps: Any) -> None:
    a, b, proc = two_apps
    # Each app's room defaults, lobby and database.
    room_a, room_b = a.room(), b.room()
    config_a = a.get(f"/api/rooms/{room_a}")["config"]
    config_b = b.get(f"/api/rooms/{room_b}")["config"]
    assert (config_a["variant"], config_a["bot"]) == ("lipu", "random")
    assert (config_b["variant"], config_b["bot"]) == ("qingdao", "greedy")
    assert status_of(a, f"/api/rooms/{room_b}")[0] == 404
    assert status_of(b, f"/api/rooms/{room_a}")[0] == 404
    assert a.get("/api/health")["rooms"] == b.get("/api/health")["rooms"] == 1

    # Each app's limits: A allows one open room per client, B one room in the process.
    status, body, _ = status_of(a, "/api/rooms", "POST")
    assert (status, body["error"]) == (429, "at most 1 open rooms per client; finish or "
                                            "leave some first")  # fmt: skip
    status, body, headers = status_of(b, "/api/rooms", "POST")
    assert status == 503 and headers["Retry-After"] == "30", body
    assert body["error"].startswith("this server holds its maximum of 1 rooms"), body

    # Each app's metrics.
    metrics_a, metrics_b = a.metrics(), b.metrics()
    assert metrics_a['mjcore_limited_total{limit="open_rooms"}'] == 1
    assert metrics_b.get('mjcore_limited_total{limit="open_rooms"}', 0) == 0
    assert metrics_a["mjcore_rooms"] == metrics_b["mjcore_rooms"] == 1

    # Each app's sessions and drain: draining A closes A's seat only; B goes on serving.
    seat_a, seat_b = Client(a, room_a), Client(b, room_b)
    try:
        seat_a.hello(a.join(room_a, 0))
        seat_b.hello(b.join(room_b, 0))
        assert metrics_a["mjcore_connections"] == 0
        assert a.metrics()["mjcore_connections"] == b.metrics()["mjcore_connections"] == 1
        assert proc.stdin is not None
        proc.stdin.write("drain a\n")
        proc.stdin.flush()
        closing = seat_a.until(lambda m: m["type"] == "closing", timeout=15)
        assert closing["reason"] == DRAIN_REASON
        status, body, headers = status_of(a, "/api/rooms", "POST")
        assert (status, headers["Retry-After"]) == (503, "1"), body
        draining_a = status_of(a, "/api/health")
        assert draining_a[0] == 503 and draining_a[1]["checks"]["draining"]["ok"] is False
        health_b = b.get("/api/health")
        assert health_b["checks"]["draining"]["ok"] is True
        seat_b.send({"type": "ping", "id": 7})
        assert seat_b.until(lambda m: m["type"] == "pong")["id"] == 7
        assert b.get(f"/api/rooms/{room_b}")["room"] == room_b
        assert b.metrics()["mjcore_connections"] == 1
    finally:
        seat_a.close()
        seat_b.close()

    # Both apps stop cleanly, each through its own lifespan.
    proc.stdin.close()
    assert proc.wait(20) == 0
