"""The game server's protocol, against a real ``mjcore serve`` process (no mocks).

Join, act, rejection of malformed / oversized / illegal / out-of-turn / forged-seat
messages (each leaving the room unchanged), rate limiting, reconnect-and-resume,
privacy of views and events, idle takeover, the next hand, and uniform claim pacing.
"""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from server_support import Client, Server  # noqa: E402

from mjcore.variants import names  # noqa: E402

SLOW = 60  # idle timeout for rooms where the test must never be replaced by a bot


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("srv") / "rooms.db").start()
    yield srv
    srv.stop()


def human_room(server, variant="xuezhan_kaxinwu", **kw):
    kw.setdefault("idle_timeout_s", SLOW)
    room = server.room(variant=variant, **kw)
    return room, server.join(room)


def first_decision(server, room, token):
    c = Client(server, room)
    state = c.hello(token)
    if not state["view"]["legal_actions"]:
        state = c.my_turn()
    return c, state


def test_variants_are_listed_generically(server):
    listed = {v["name"]: v for v in server.get("/api/variants")}
    # names() here may also hold variants other tests registered in this process
    assert {"qingdao", "xuezhan_kaxinwu"} <= set(listed) <= set(names())
    for v in listed.values():
        assert v["min_players"] <= v["max_players"] and isinstance(v["options"], dict)


@pytest.mark.parametrize(
    "request_body, fragment",
    [
        ({"variant": "nope"}, "unknown variant"),
        ({"variant": "qingdao", "seats": ["greedy"] * 4}, "at least one human"),
        ({"variant": "qingdao", "seats": ["human", "wizard", "greedy", "greedy"]}, "wizard"),
        ({"variant": "qingdao", "players": 9}, "players"),
        ({"variant": "qingdao", "options": {"no_such": 1}}, "no_such"),
        ({"variant": "qingdao", "colour": "red"}, "unknown room field"),
        ({"variant": "qingdao", "claim_window_ms": -1}, "claim_window_ms"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_room_requests_are_rejected(server, request_body, fragment):
    before = server.get("/api/health")["rooms"]
    status, data = server.post("/api/rooms", request_body)
    assert status == 400 and fragment in data["error"]
    assert server.get("/api/health")["rooms"] == before


def test_oversized_and_non_json_bodies(server):
    status, data = server.post("/api/rooms", None, raw=b"{" + b" " * 20_000 + b"}")
    assert status == 400 and "larger" in data["error"]
    status, data = server.post("/api/rooms", None, raw=b"not json")
    assert status == 400 and "not JSON" in data["error"]


def test_join_gives_each_human_seat_one_token(server):
    room = server.room(variant="qingdao", seats=["human", "greedy", "human", "random"])
    status, data = server.post(f"/api/rooms/{room}/join", {"seat": 1})
    assert status == 409 and "free human seat" in data["error"]  # a bot seat
    first = server.join(room)
    status, data = server.post(f"/api/rooms/{room}/join", {"seat": 0})
    assert status == 409  # taken
    second = server.join(room)
    assert first != second and len(first) >= 30
    status, _ = server.post(f"/api/rooms/{room}/join", {})
    assert status == 409  # full
    summary = server.get(f"/api/rooms/{room}")
    assert [s["joined"] for s in summary["seats"]] == [True, False, True, False]
    assert "seed" not in summary["config"] and "seed" not in json.dumps(summary)
    status, _ = server.post("/api/rooms/ffffffff/join", {})
    assert status == 404


def test_authentication_comes_first(server):
    room, token = human_room(server)
    c = Client(server, room)
    c.send({"type": "act", "action": "pass", "id": 1})
    assert c.recv()["code"] == "not_authenticated"
    c.send({"type": "hello", "token": "forged-token"})
    assert c.recv()["code"] == "not_authenticated"
    state = c.hello(token)
    assert state["view"]["seat"] == 0
    c.close()
    other_room, _ = human_room(server)
    c = Client(server, other_room)
    c.send({"type": "hello", "token": token})  # a token of another room
    assert c.recv()["code"] == "not_authenticated"
    c.close()


def test_view_is_private(server):
    room, token = human_room(server)
    c, state = first_decision(server, room, token)
    view = state["view"]
    assert "hand" in view["seats"][0]
    assert all("hand" not in s for s in view["seats"][1:])
    assert view["to_act"] in ([], [0])
    deal = state["events"][0]
    assert deal["type"] == "deal" and deal["hands"][0] and deal["hands"][1:] == [None] * 3
    for ev in state["events"]:
        if ev["type"] == "draw" and ev["seat"] != 0:
            assert ev["tile"] is None
    assert "wall" not in view and "seed" not in json.dumps(state)
    c.close()


def test_act_and_rejections_change_nothing(server):
    room, token = human_room(server)
    c, state = first_decision(server, room, token)
    legal = state["view"]["legal_actions"]
    hand = state["view"]["seats"][0]["hand"]
    missing = next(t for t in ("1m", "9p", "5s", "7z", "1z") if t not in hand)
    rejected = [
        ("not json", "bad_json"),
        ("x" * 5000, "too_large"),
        ('["act"]', "bad_message"),
        (json.dumps({"type": "dance"}), "bad_message"),
        (json.dumps({"type": "act", "action": f"discard {missing}", "id": 7}), "illegal"),
        (json.dumps({"type": "act", "action": "fly away", "id": 8}), "illegal"),
        (json.dumps({"type": "act", "action": 5, "id": 9}), "illegal"),
        (json.dumps({"type": "act", "action": legal[0], "seat": 2, "id": 10}), "forged_seat"),
        (json.dumps({"type": "next"}), "not_your_turn"),
    ]
    for text, code in rejected:
        c.send(text)
        reply = c.until(lambda m: m["type"] == "error")
        assert reply["code"] == code, (text[:40], reply)
    # Nothing changed: a fresh connection sees the very same view.
    c.close()
    again = Client(server, room)
    fresh = again.hello(token)
    assert fresh["view"] == state["view"]
    assert len(fresh["events"]) == len(state["events"])
    reply = again.act(legal[-1])
    assert reply["type"] == "ok"
    again.close()


def test_out_of_turn_is_rejected(server):
    room = server.room(variant="xuezhan_kaxinwu", seats=["human"] * 4, idle_timeout_s=SLOW)
    tokens = [server.join(room) for _ in range(4)]
    clients = [Client(server, room) for _ in range(4)]
    states = [c.hello(t) for c, t in zip(clients, tokens, strict=True)]
    waiting = [i for i, s in enumerate(states) if not s["view"]["legal_actions"]]
    if not waiting:  # everyone chooses at once (定缺): answer, then look again
        for i, c in enumerate(clients):
            assert c.act(states[i]["view"]["legal_actions"][0])["type"] == "ok"
        states = [c.until(lambda m: m["type"] == "state") for c in clients]
        time.sleep(0.3)
        waiting = [i for i, c in enumerate(clients) if not c.states[-1]["view"]["legal_actions"]]
    idle = waiting[0]
    reply = clients[idle].act("discard 1m", ref=3)
    assert reply["type"] == "error" and reply["code"] == "not_your_turn"
    for c in clients:
        c.close()


def test_rate_limit(server):
    room, token = human_room(server)
    c = Client(server, room)
    c.hello(token)
    for _ in range(80):
        c.send({"type": "ping"})
    codes = []
    for _ in range(80):
        msg = c.until(lambda m: m["type"] in ("pong", "error"))
        codes.append(msg.get("code", "pong"))
    assert "rate_limited" in codes and codes.count("pong") >= 30
    c.close()


def test_reconnect_resumes_after_last_event(server):
    room, token = human_room(server, variant="qingdao")
    c, state = first_decision(server, room, token)
    for i in range(6):
        assert c.act(state["view"]["legal_actions"][-1], ref=i)["type"] == "ok"
        state = c.until(
            lambda m: (
                m["type"] == "state"
                and (bool(m["view"]["legal_actions"]) or m["view"]["phase"] == "over")
            )
        )
        if state["view"]["phase"] == "over":
            break
    c.close()
    seen = state["next"]
    middle = seen // 2
    r = Client(server, room)
    resumed = r.hello(token, hand=state["hand"], since=middle)
    seqs = [e["seq"] for e in resumed["events"]]
    assert seqs == list(range(middle, resumed["next"]))
    assert resumed["view"] == state["view"]
    everything = Client(server, room)  # replaces r: one connection per seat
    full = everything.hello(token)
    assert full["events"][middle:] == resumed["events"]
    assert r.until(lambda m: m["type"] == "closing")["reason"].startswith("replaced")
    everything.close()


def test_idle_seat_is_taken_over_by_a_bot_and_can_come_back(server):
    room = server.room(variant="xuezhan_kaxinwu", idle_timeout_s=1, next_hand_s=60)
    token = server.join(room)
    c = Client(server, room)
    c.hello(token)
    msg = c.until(lambda m: m["type"] == "state" and m["seats"][0]["away"], timeout=10)
    if msg["view"]["phase"] != "over":  # the bots may have finished the hand in one go
        msg = c.until(lambda m: m["type"] == "state" and m["view"]["phase"] == "over", timeout=30)
    assert msg["seats"][0]["away"] and msg["hand"] == 0
    assert len([e for e in msg["events"] if e["type"] == "end"]) <= 1
    time.sleep(0.3)  # nobody present is ready: the bots do not start another hand
    assert c.server.get(f"/api/rooms/{room}")["hand"] == 0
    c.send({"type": "back", "id": 5})
    msg = c.until(lambda m: m["type"] == "state" and not m["seats"][0]["away"])
    c.close()


def test_finished_hand_starts_the_next(server):
    room = server.room(variant="xuezhan_kaxinwu", idle_timeout_s=1, next_hand_s=60)
    token = server.join(room)
    c = Client(server, room)
    c.hello(token)
    over = c.until(lambda m: m["type"] == "state" and m["view"]["phase"] == "over", timeout=30)
    end = [e for e in over["events"] if e["type"] == "end"]
    assert end and sum(end[0]["scores"]) == 0
    c.send({"type": "next", "hand": over["hand"], "id": "n"})
    nxt = c.until(lambda m: m["type"] == "state" and m["hand"] == over["hand"] + 1)
    assert nxt["events"][0]["type"] == "deal" and nxt["match"]["hands"] == over["hand"] + 2
    c.send({"type": "next", "hand": over["hand"]})  # late duplicate: harmless
    assert c.until(lambda m: m["type"] in ("ok", "error"))["type"] == "ok"
    c.close()


def test_claim_window_is_uniform(server):
    """With a claim window W, after each own discard the next state comes no sooner than W."""
    window = 0.25
    room, token = human_room(server, claim_window_ms=int(window * 1000))
    c, state = first_decision(server, room, token)
    discards = 0
    for i in range(40):
        legal = state["view"]["legal_actions"]
        action = next((a for a in legal if a.startswith("discard")), legal[0])
        sent = time.monotonic()  # before the server applies it: its window starts after this
        assert c.act(action, ref=i)["type"] == "ok"
        nxt = c.until(lambda m: m["type"] == "state", timeout=10)
        if action.startswith("discard"):
            discards += 1
            assert time.monotonic() - sent >= window * 0.9
            assert nxt["view"]["phase"] not in ("claim", "rob") or nxt["view"]["legal_actions"]
        if nxt["view"]["phase"] == "over" or discards >= 4:
            break
        state = nxt if nxt["view"]["legal_actions"] else c.my_turn()
    assert discards >= 3
    c.close()


def test_every_variant_plays_a_whole_hand_through_the_server(server):
    """Variant-generic: a full hand of each variant the server lists, one human and bots."""
    for info in server.get("/api/variants"):
        variant = info["name"]
        room, token = human_room(server, variant=variant, next_hand_s=600)
        c = Client(server, room)
        state = c.hello(token)
        for i in range(400):
            if state["view"]["phase"] == "over":
                break
            legal = state["view"]["legal_actions"]
            if legal:
                action = "hu" if "hu" in legal else legal[i % len(legal)]
                assert c.act(action, ref=i)["type"] == "ok", (variant, action)
            state = c.until(
                lambda m: (
                    m["type"] == "state"
                    and (bool(m["view"]["legal_actions"]) or m["view"]["phase"] == "over")
                ),
                timeout=20,
            )
        assert state["view"]["phase"] == "over", variant
        events = [e for m in c.states if m["hand"] == state["hand"] for e in m["events"]]
        assert [e["seq"] for e in events] == list(range(len(events))), variant  # none missed
        assert events[0]["type"] == "deal" and events[-1]["type"] == "end", variant
        assert all("hand" in s for s in state["view"]["seats"])  # every hand shown at the end
        c.close()


def test_resume_across_hands(server):
    """A seat that was away while a hand ended gets the rest of that hand, then the next."""
    room = server.room(
        variant="xuezhan_kaxinwu",
        seats=["human", "human", "greedy", "greedy"],
        idle_timeout_s=1,
        next_hand_s=1,
    )
    stays, leaves = server.join(room), server.join(room)
    a = Client(server, room)
    a.hello(stays)  # keeps the room awake; idle, so a bot plays it
    b = Client(server, room)
    first = b.hello(leaves)
    hand, since = first["hand"], first["next"]
    b.close()
    over = a.until(lambda m: m["type"] == "state" and m["view"]["phase"] == "over", timeout=60)
    a.send({"type": "next", "hand": over["hand"]})  # present and ready: the next hand starts
    deadline = time.monotonic() + 30
    while server.get(f"/api/rooms/{room}")["hand"] < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.get(f"/api/rooms/{room}")["hand"] >= 1
    back = Client(server, room)
    old = back.hello(leaves, hand=hand, since=since)
    assert old["hand"] == 0 and old["view"]["phase"] == "over"
    assert [e["seq"] for e in old["events"]] == list(range(since, old["next"]))
    assert old["events"][-1]["type"] == "end"
    new = back.until(lambda m: m["type"] == "state" and m["hand"] >= 1)
    assert new["events"][0]["seq"] == 0 and new["events"][0]["type"] == "deal"
    a.close()
    back.close()
