"""Issue 32 (browsers, other sites, smaller faults, health, drain, schemas) against a real
``mjcore serve`` process: security headers on every response, Origin checked on WebSockets
and POSTs, JSON-only bodies, the replay page's hand number, NaN/Infinity, invisible names,
no Python text to clients, ``/api/health`` naming real faults (a stopped loop, too few file
descriptors), a drain on SIGTERM, and self-contained schemas that plain ``jsonschema``
reads."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from server_support import Client, Server, drain, missing, to_act  # noqa: E402

from mjcore.server.security import InvalidNameError, check_display_name, origin_allowed  # noqa: E402

SECURITY_HEADERS = {
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
    "referrer-policy",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # (many rooms from one address: the per-client limits are test_server_limits.py's)
    srv = Server(tmp_path_factory.mktemp("hardening") / "server.db",
                 "--limit-exempt", "127.0.0.1").start()  # fmt: skip
    yield srv
    srv.stop()


def request(
    server: Server, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """(status, lower-cased headers, body) of one HTTP request, errors included."""
    req = urllib.request.Request(server.base + path, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def two_humans(server: Server) -> tuple[str, list[str]]:
    room = server.room(variant="xuezhan_kaxinwu", players=2, seats=["human", "human"],
                       idle_timeout_s=600)  # fmt: skip
    return room, [server.join(room, s) for s in (0, 1)]


# ---- headers -------------------------------------------------------------------------------
def test_every_response_carries_the_security_headers(server):
    room, _ = two_humans(server)
    cases = [
        ("/", None, {}),
        ("/replay", None, {}),
        ("/static/table.js", None, {}),
        ("/api/variants", None, {}),
        ("/api/health/live", None, {}),
        ("/metrics", None, {}),
        (f"/api/rooms/{room}", None, {}),
        ("/api/rooms/0000000000000000", None, {}),  # 404
        ("/no/such/page", None, {}),  # 404 of the router
        ("/api/rooms", b"{}", {"Content-Type": "application/json"}),  # 400
        ("/api/rooms", b"{}", {"Content-Type": "text/plain"}),  # 415
    ]
    for path, body, headers in cases:
        status, got, _ = request(server, path, body, headers)
        missing = SECURITY_HEADERS - set(got)
        assert not missing, (path, status, missing)
        assert "frame-ancestors 'none'" in got["content-security-policy"]
        assert got["x-frame-options"] == "DENY"
        assert got["x-content-type-options"] == "nosniff"
        assert got["referrer-policy"] == "no-referrer"


# ---- Origin --------------------------------------------------------------------------------
def _ws_status(server: Server, room: str, origin: str | None) -> int:
    """101 if the handshake was accepted, else the HTTP status it was refused with."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    try:
        with connect(f"{server.ws_base}/ws/{room}", origin=origin, open_timeout=10):
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


def test_websockets_from_other_sites_are_refused(server, tmp_path):
    room, tokens = two_humans(server)
    assert _ws_status(server, room, "http://evil.example") == 403
    assert _ws_status(server, room, "null") == 403
    assert _ws_status(server, room, f"http://127.0.0.1:{server.port + 1}") == 403  # other port
    assert _ws_status(server, room, f"http://127.0.0.1:{server.port}") == 101  # its own page
    assert _ws_status(server, room, None) == 101  # not a browser (no Origin): a program
    # A configured allow-list adds origins; everything else stays refused.
    other = Server(tmp_path / "allow.db", "--allow-origin", "https://table.example").start()
    try:
        room2, _ = two_humans(other)
        assert _ws_status(other, room2, "https://table.example") == 101
        assert _ws_status(other, room2, "https://table.example:8443") == 403
        assert _ws_status(other, room2, "http://evil.example") == 403
    finally:
        other.stop()


def test_a_bad_allow_origin_is_a_clear_error(tmp_path):
    import sys

    from server_support import env

    cmd = [sys.executable, "-m", "mjcore.cli", "serve", "--port", "0", "--db",
           str(tmp_path / "x.db"), "--allow-origin", "table.example/path"]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env(), cwd=tmp_path)
    assert out.returncode != 0
    assert "not an origin" in out.stderr


def test_origin_rules():
    own = frozenset()
    assert origin_allowed(None, "example.com", own)
    assert origin_allowed("https://example.com", "example.com", own)  # TLS ends at a proxy
    assert origin_allowed("http://example.com:8000", "example.com:8000", own)
    assert origin_allowed("https://EXAMPLE.com:443", "example.com", own)
    assert not origin_allowed("https://example.com.evil.net", "example.com", own)
    assert not origin_allowed("https://example.com:8443", "example.com", own)
    assert not origin_allowed("null", "example.com", own)
    assert not origin_allowed("https://evil.net", None, own)
    assert origin_allowed("https://evil.net", "example.com", frozenset({"*"}))


# ---- bodies --------------------------------------------------------------------------------
def test_room_creation_and_joins_need_a_json_body(server):
    good = json.dumps({"variant": "qingdao"}).encode()
    for content_type in ("text/plain", "application/x-www-form-urlencoded",
                         "multipart/form-data; boundary=x", ""):  # fmt: skip
        status, _, body = request(server, "/api/rooms", good, {"Content-Type": content_type})
        assert status == 415, (content_type, body)
        assert "application/json" in json.loads(body)["error"]
    room, _ = two_humans(server)
    status, _, _ = request(server, f"/api/rooms/{room}/join", b"{}", {"Content-Type": "text/plain"})
    assert status == 415
    status, _, _ = request(
        server, "/api/rooms", good, {"Content-Type": "application/json; charset=utf-8"}
    )
    assert status == 201
    # A page of another site may not post JSON either (no CORS: its preflight fails too).
    headers = {"Content-Type": "application/json", "Origin": "https://evil.example"}
    status, _, body = request(server, "/api/rooms", good, headers)
    assert status == 403, body
    headers["Origin"] = server.base
    assert request(server, "/api/rooms", good, headers)[0] == 201


def test_nan_and_infinity_are_not_json(server):
    for text in ('{"variant": "qingdao", "next_hand_s": NaN}',
                 '{"variant": "qingdao", "next_hand_s": Infinity}',
                 '{"variant": "qingdao", "next_hand_s": 1e400}'):  # fmt: skip
        status, _, body = request(server, "/api/rooms", text.encode(),
                                  {"Content-Type": "application/json"})  # fmt: skip
        assert status == 400, text
        assert "not JSON" in json.loads(body)["error"]
    room, tokens = two_humans(server)
    c = Client(server, room)
    try:
        c.hello(tokens[0])
        for frame in ('{"type": "ping", "id": NaN}', '{"type": "ping", "id": -Infinity}',
                      '{"type": "next", "hand": 1e999}'):  # fmt: skip
            c.send(frame)
            reply = c.until(lambda m: m["type"] in ("error", "pong", "ok"))
            assert reply["type"] == "error" and reply["code"] == "bad_json", (frame, reply)
    finally:
        c.close()


# ---- names ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # Hangul filler (printable yet blank)
        "\u3164\u3164\u3164",
        "\u2800",  # blank Braille pattern
        "\u200b",  # zero-width space
        "a\u200bb",
        "\u202eevil",  # right-to-left override
        "   ",
        "\u0301\u0301",  # only combining marks
        "\u034f",  # combining grapheme joiner
        "Z\u0301\u0302\u0303\u0304\u0305",  # a stack of marks
        "x" * 65,
        "a\nb",
        "\U000e0041",  # a tag character
        7,
    ],
)
def test_invisible_or_combining_names_are_refused(server, name):
    room, _ = two_humans_free(server)
    status, body = server.post(f"/api/rooms/{room}/join", {"name": name})
    assert status == 400, (name, body)
    assert "name" in body["error"]
    with pytest.raises(InvalidNameError):
        check_display_name(name)


def two_humans_free(server: Server) -> tuple[str, None]:
    room = server.room(variant="xuezhan_kaxinwu", players=2, seats=["human", "human"])
    return room, None


@pytest.mark.parametrize("name", ["", "李雷", "Zoë", "e\u0301", "Ana María", "👀", "ملك"])
def test_ordinary_names_are_kept(server, name):
    room, _ = two_humans_free(server)
    status, body = server.post(f"/api/rooms/{room}/join", {"name": name})
    assert status == 200, body
    seats = server.get(f"/api/rooms/{room}")["seats"]
    assert seats[body["seat"]]["name"] == check_display_name(name)


# ---- the replay page -----------------------------------------------------------------------
def test_the_replay_page_takes_only_a_room_id_and_a_hand_number(server):
    room, _ = two_humans(server)
    assert request(server, f"/replay?room={room}&hand=0")[0] == 200
    assert request(server, "/replay")[0] == 200
    for query in ("hand=..%2F..%2Fapi%2Fvariants", "hand=1%2F..", "hand=%C2%B2", "hand=-1",
                  f"room={room}%2F..&hand=0", "room=..&hand=0"):  # fmt: skip
        status, headers, body = request(server, f"/replay?{query}")
        assert status == 400, query
        assert SECURITY_HEADERS <= set(headers)


def test_saved_hand_numbers_are_ascii_digits(server):
    room, tokens = two_humans(server)
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    status, _, body = request(server, f"/api/rooms/{room}/hands/%C2%B2", None, auth)  # '²'
    assert status == 404, body


# ---- no Python text to clients -------------------------------------------------------------
PYTHON_WORDS = re.compile(
    r"Traceback|\b[A-Z][A-Za-z]*(?:Error|Exception)\b|unhashable|object has no attribute|"
    r"invalid literal|NoneType|not subscriptable|File \""
)


def test_python_exception_text_never_reaches_clients(server):
    """Malformed requests and frames of many shapes: every answer is mjcore's own words (or a
    fixed text), never a 500 and never Python's exception text."""
    room, tokens = two_humans(server)
    shapes: list[Any] = [None, 1, "x", [], {}, [{}], {"a": {}}, 1.5, True, "\ud800", 2**70]
    bodies = [{"variant": "qingdao", field: value} for field in
              ("players", "seats", "options", "first_dealer", "bot", "max_hands")
              for value in shapes]  # fmt: skip
    bodies += [{"variant": value} for value in shapes] + shapes
    bodies += [{"variant": "qingdao", "players": 2, "seats": [value, "human"]} for value in shapes]
    bodies += [{"variant": "qingdao", "options": {"hun": value}} for value in shapes]
    for body in bodies:
        for path in ("/api/rooms", f"/api/rooms/{room}/join", "/api/replay"):
            data = json.dumps(body).encode()
            status, _, answer = request(server, path, data, {"Content-Type": "application/json"})
            assert status != 500, (path, body, answer)
            if status >= 400:
                error = json.loads(answer)["error"]
                assert not PYTHON_WORDS.search(error), (path, body, error)
    c = Client(server, room)
    try:
        frames = [{"type": "hello", "token": value} for value in shapes]
        frames += [{"type": "hello", "token": tokens[0], "hand": value} for value in shapes]
        frames += [{"type": "act", "action": value} for value in shapes]
        frames += [{"type": "act", "action": text} for text in ("discard 0z", "chi 999m", "x y")]
        frames += [{"type": value} for value in shapes] + [{"type": "next", "hand": "1"}]
        errors = 0
        for ref, frame in enumerate(frames):
            c.send({**frame, "id": ref})
            c.send({"type": "ping", "id": f"b{ref}"})  # a barrier: its pong comes after
            while (reply := c.recv())["type"] != "pong" or reply["id"] != f"b{ref}":
                if reply["type"] == "error":
                    errors += 1
                    assert not PYTHON_WORDS.search(reply["message"]), (frame, reply)
            time.sleep(0.1)  # under the rate limit
        assert errors >= len(frames) - 2  # (a valid hello and its repeat may pass)
    finally:
        c.close()


# ---- schemas -------------------------------------------------------------------------------
def test_served_schemas_validate_real_messages_with_plain_jsonschema(server):
    """/schemas/NAME.json is one self-contained file: jsonschema without mjcore's registry
    (with no way to fetch anything) validates what the server really sends and takes."""
    jsonschema = pytest.importorskip("jsonschema")

    def served(name: str) -> Any:
        status, headers, body = request(server, f"/schemas/{name}.json")
        assert status == 200 and headers["content-type"].startswith("application/schema+json")
        schema = json.loads(body)
        refs = [r for r in _refs(schema) if not r.startswith("#")]
        assert not refs, (name, refs)
        jsonschema.Draft202012Validator.check_schema(schema)
        return jsonschema.Draft202012Validator(schema)

    assert request(server, "/schemas/nope.json")[0] == 404
    server_v, client_v = served("server_message"), served("client_message")
    room, tokens = two_humans(server)
    clients = [Client(server, room) for _ in tokens]
    try:
        sent: list[dict[str, Any]] = []
        for c, t in zip(clients, tokens, strict=True):
            sent.append({"type": "hello", "token": t})
            c.send(sent[-1])
        seen: list[dict[str, Any]] = []
        for ref in range(1, 6):
            c, action = to_act(clients)
            sent.append({"type": "act", "action": action, "id": ref})
            c.send(sent[-1])
            seen.append(c.until(lambda m, ref=ref: m.get("id") == ref))
        sent.append({"type": "ping", "id": "p"})
        clients[0].send(sent[-1])
        sent.append({"type": "act", "action": "discard 9z", "id": 99})  # not a legal action
        clients[0].send(sent[-1])
        for c in clients:
            drain(c, 0.3)
            seen.extend(c.states)
        seen.append({"type": "error", "code": "illegal", "message": "x", "id": 99})
        kinds = {m["type"] for m in seen}
        assert {"state", "ok"} <= kinds
        for message in seen:
            server_v.validate(message)
        for message in sent[:-1]:
            client_v.validate(message)
        assert not server_v.is_valid({"type": "state", "hand": 0})  # it does check
        assert not client_v.is_valid({"type": "act", "action": "discard 10m"})
        served("room_summary").validate(server.get(f"/api/rooms/{room}"))
        served("variants").validate(server.get("/api/variants"))
    finally:
        for c in clients:
            c.close()


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


# ---- health --------------------------------------------------------------------------------
def health(server: Server) -> tuple[int, dict[str, Any]]:
    status, _, body = request(server, "/api/health")
    return status, json.loads(body)


def test_health_names_a_stalled_loop_and_too_few_descriptors(tmp_path):
    srv = Server(tmp_path / "h.db").start()
    try:
        status, body = health(srv)
        assert status == 200, body
        assert set(body["checks"]) >= {"loop", "database", "writes", "checkpointer",
                                       "background", "descriptors", "memory"}  # fmt: skip
        assert request(srv, "/api/health/live")[0] == 200
        # A loop that did not run for 1.5 s (the process stopped, as a blocking call would).
        assert srv.proc is not None
        os.kill(srv.proc.pid, signal.SIGSTOP)
        time.sleep(1.5)
        os.kill(srv.proc.pid, signal.SIGCONT)
        time.sleep(0.6)
        status, body = health(srv)
        assert status == 503 and "loop" in body["failing"], body
        assert body["checks"]["loop"]["lag_ms"] > 1000
        assert request(srv, "/api/health/live")[0] == 200  # alive, though unhealthy
        # Nearly out of file descriptors: a soft limit just above what the process has open.
        import resource

        opened = body["checks"]["descriptors"]["open"]
        soft, hard = resource.prlimit(srv.proc.pid, resource.RLIMIT_NOFILE)
        resource.prlimit(srv.proc.pid, resource.RLIMIT_NOFILE, (opened + 40, hard))
        status, body = health(srv)
        assert status == 503 and "descriptors" in body["failing"], body
        assert body["checks"]["descriptors"]["limit"] == opened + 40
        resource.prlimit(srv.proc.pid, resource.RLIMIT_NOFILE, (soft, hard))
        deadline = time.monotonic() + 15  # the lag leaves the 10 s window
        while health(srv)[0] != 200:
            assert time.monotonic() < deadline, health(srv)
            time.sleep(0.5)
    finally:
        srv.stop()


# ---- SIGTERM -------------------------------------------------------------------------------
def test_sigterm_drains_acknowledges_then_closes_with_going_away(tmp_path):
    from websockets.exceptions import ConnectionClosed

    srv = Server(tmp_path / "d.db", "--drain-s", "5").start()
    room, tokens = two_humans(srv)
    clients = [Client(srv, room) for _ in tokens]
    for c, t in zip(clients, tokens, strict=True):
        c.hello(t)
    c, action = to_act(clients)
    assert srv.proc is not None
    c.send({"type": "act", "action": action, "id": 7})
    srv.proc.send_signal(signal.SIGTERM)  # right behind the action
    start = time.monotonic()
    got: list[dict[str, Any]] = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            got.append(c.recv(10))
    kinds = [m["type"] for m in got]
    assert {"type": "ok", "id": 7} in got, got  # the in-flight action was stored and answered
    assert kinds[-1] == "closing" and "shutting down" in got[-1]["reason"]
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001  # going away
    assert time.monotonic() - start < 5
    srv.proc.wait(15)
    for other in clients:
        other.close()
    # Nothing acknowledged was lost: a restart on the same database has the action.
    again = Server(tmp_path / "d.db").start()
    try:
        c2 = Client(again, room)
        state = c2.hello(tokens[0])
        c2.close()
        assert len(state["events"]) > 0
        history = [e for e in state["events"] if e["type"] in ("discard", "draw", "claim")]
        assert history, state["events"]
    finally:
        again.stop()


def test_the_watchdog_restarts_background_work_that_died(tmp_path):
    """A supervised task that ends and a checkpoint thread that died are named by the health
    report, then started again by the watchdog (real threads, a real SQLite file)."""
    import asyncio

    from mjcore.server.health import Health
    from mjcore.server.store import Store

    store = Store(str(tmp_path / "w.db"))
    health_ = Health(store)
    runs: list[int] = []

    async def flaky() -> None:
        runs.append(1)
        if len(runs) == 1:
            raise RuntimeError("a bug in a background loop")
        await asyncio.sleep(3600)

    async def main() -> None:
        health_.supervise("flaky", flaky)
        await asyncio.sleep(0.05)
        _, checks = await health_.report()
        assert checks["background"]["dead"] == ["flaky"]
        assert store.restart_background() == []  # (the running one is alive)
        store._stop.set()  # the checkpoint thread ends, as a crash would end it
        assert store._checkpointer is not None
        store._checkpointer.join(5)
        store._stop.clear()
        ok, checks = await health_.report()
        assert not ok and not checks["checkpointer"]["ok"] and not checks["checkpointer"]["alive"]
        health_.check_background()
        await asyncio.sleep(0.05)
        ok, checks = await health_.report()
        assert len(runs) == 2 and health_.restarts == {"flaky": 1, "checkpointer": 1}
        assert checks["background"]["ok"] and checks["checkpointer"]["alive"], checks
        health_.stop()

    try:
        asyncio.run(main())
    finally:
        store.close()


def test_the_replay_page_never_sends_the_token_to_another_path(server):
    """In real Chromium: the viewer refuses a room or hand that is not an id and a number
    before it sends the seat token (and the server refuses such an address outright)."""
    import shutil

    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip(missing("the system Chromium", "chromium fonts-wqy-microhei"))
    room, tokens = two_humans(server)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True)
        try:
            page = browser.new_page()
            page.goto(f"{server.base}/replay")
            keep = "([r, t]) => localStorage.setItem(`mjcore:${r}`, JSON.stringify({token: t}))"
            page.evaluate(keep, [room, tokens[0]])
            sent: list[tuple[str, str | None]] = []

            def record(r: Any) -> None:  # (the browser's own late favicon fetch is not the page's)
                if "/favicon." not in r.url:
                    sent.append((r.url, r.headers.get("authorization")))

            page.on("request", record)
            load = "([r, h]) => loadRoomHand(r, h).then(() => 'loaded', (e) => e.message)"
            for hand in ("../../api/variants", "0/../../x", "1?x=1", "\u00b2", "-1", ""):
                assert "bad room or hand" in page.evaluate(load, [room, hand]), hand
            assert "bad room or hand" in page.evaluate(load, [f"{room}/..", "0"])
            assert sent == []  # nothing was requested, so the token went nowhere
            page.evaluate(load, [room, "0"])  # a real hand number: its path only
            assert sent == [(f"{server.base}/api/rooms/{room}/hands/0", f"Bearer {tokens[0]}")]
            answer = page.goto(f"{server.base}/replay?room={room}&hand=..%2F..%2Fapi%2Fvariants")
            assert answer is not None and answer.status == 400
        finally:
            browser.close()
