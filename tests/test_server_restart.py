"""Killing a real server process (SIGKILL) and starting another restores every room exactly."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from server_support import Client, Server  # noqa: E402


def play_some(client, state, actions):
    """Answer ``actions`` decisions (last legal action each time); the state after them."""
    for i in range(actions):
        assert client.act(state["view"]["legal_actions"][-1], ref=i)["type"] == "ok"
        state = client.until(
            lambda m: (
                m["type"] == "state"
                and (bool(m["view"]["legal_actions"]) or m["view"]["phase"] == "over")
            )
        )
        if state["view"]["phase"] == "over":
            break
    return state


def test_kill_and_restart_restores_every_room(tmp_path):
    db = tmp_path / "rooms.db"
    # the same server id: a restarted server takes its rooms' leases back at once
    first = Server(db, "--server-id", "restart-test").start()
    rooms = []
    try:
        for variant, seats in (
            ("xuezhan_kaxinwu", ["human", "greedy", "random", "greedy"]),
            ("qingdao", ["greedy", "human", "random", "greedy"]),
        ):
            room = first.room(variant=variant, seats=seats, idle_timeout_s=60)
            token = first.join(room)
            c = Client(first, room)
            state = c.hello(token)
            if not state["view"]["legal_actions"]:
                state = c.my_turn()
            state = play_some(c, state, 5)
            full = Client(first, room)  # a full snapshot as a fresh client sees it
            snapshot = full.hello(token)
            rooms.append((room, token, snapshot, first.get(f"/api/rooms/{room}")))
            full.close()
    finally:
        first.kill()

    second = Server(db, "--server-id", "restart-test").start()
    try:
        for room, token, snapshot, summary in rooms:
            c = Client(second, room)
            restored = c.hello(token)
            assert restored["view"] == snapshot["view"]  # same view, same legal actions
            assert restored["events"] == snapshot["events"]
            assert restored["hand"] == snapshot["hand"]
            after = second.get(f"/api/rooms/{room}")
            assert after["scores"] == summary["scores"] and after["hand"] == summary["hand"]
            if restored["view"]["legal_actions"]:  # and play goes on
                assert c.act(restored["view"]["legal_actions"][0], ref=99)["type"] == "ok"
            c.close()
    finally:
        second.stop()
