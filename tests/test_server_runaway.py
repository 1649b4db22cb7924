"""Runaway rooms (issue 32): pacing floors, no hands dealt to bots alone, a room's memory
bounded (finished hands leave memory: per-hand snapshots), restores from snapshots exact,
and a room set up to run away bounded in CPU and memory in a real server process."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from test_server_pacing import FakeLoop, Sink  # noqa: E402

from mjcore.bots import make_bot  # noqa: E402
from mjcore.engine.game import Game  # noqa: E402
from mjcore.engine.match import Match  # noqa: E402
from mjcore.server import snapshots  # noqa: E402
from mjcore.server.rooms import (  # noqa: E402
    IDLE_TIMEOUT_FLOOR_S,
    NEXT_HAND_FLOOR_S,
    Room,
    RoomConfig,
    RoomError,
    config_from_request,
)
from mjcore.server.snapshots import KEEP_HANDS  # noqa: E402
from mjcore.server.store import Store  # noqa: E402


@pytest.mark.parametrize(
    ("field", "value"),
    [("idle_timeout_s", 0.1), ("idle_timeout_s", 0), ("next_hand_s", 0), ("next_hand_s", 0.5)],
)
def test_pacing_below_its_floor_is_refused_with_the_floor_named(field, value):
    with pytest.raises(RoomError, match=rf"{field} must be a number 1\.\.3600 \(its floor"):
        config_from_request({"variant": "qingdao", field: value})
    ok = config_from_request({"variant": "qingdao", field: 1})
    assert getattr(ok, field) == 1 == IDLE_TIMEOUT_FLOOR_S == NEXT_HAND_FLOOR_S


def make_room(tmp_path, seats=("human", "greedy", "greedy", "greedy"), variant="qingdao"):
    loop = FakeLoop()
    config = RoomConfig(variant=variant, players=4, options={}, seats=seats, seed=11,
                        idle_timeout_s=5, next_hand_s=2)  # fmt: skip
    store = Store(str(tmp_path / "room.db"))
    snapshots.ensure_table(store)
    room = Room.create("runaway", config, store, schedule=loop.call_later, clock=loop.now)
    room.join(0)
    sink = Sink(loop)
    room.connect(0, sink)
    return room, loop, store, sink


def play_hands(room: Room, loop: FakeLoop, hands: int) -> None:
    """Seat 0 present, answering each decision with greedy's choice and ready at once."""
    bot = make_bot("greedy", 3)
    for _ in range(100_000):
        if room.hand_index >= hands:
            return
        game = room.game
        if game.is_over:
            room.next_hand(0, room.hand_index)
            room.pump()
        elif 0 in game.to_act():
            room.act(0, str(bot.act_fast(game, 0, list(game.legal_actions(0)))))
            room.commit()
            room.pump()
        loop.advance(0.01)
    raise AssertionError("the hands did not finish")


def test_finished_hands_leave_memory_and_every_way_back_agrees(tmp_path):
    """Thirty hands played with a present human: only KEEP_HANDS hands and their log entries
    stay in memory; the room's state equals a replay of the whole stored log (the old
    restore), a restore from its latest snapshot, and any finished hand rebuilt from the
    store equals the same hand of the full replay."""
    room, loop, store, _ = make_room(tmp_path)
    play_hands(room, loop, 30)
    room.flush()
    whole = [g for g in room.match._hands if isinstance(g, Game)]
    assert len(whole) <= KEEP_HANDS and room.hand_count == 31
    first_kept = room.entries[0][0]
    assert first_kept >= room.hand_index - KEEP_HANDS + 1
    assert {h for h, _, _ in room.entries} <= {room.hand_index - 1, room.hand_index}

    full_log = store.load_all("runaway")[0].log
    assert room.log_len == len(full_log)
    full = Match("qingdao", players=4, options=room.config.options, seed=11)
    for _hand, seat, action in full_log:
        if action == "new_hand":
            full.new_hand()
        else:
            full.current.apply(seat, action)
    assert room.scores == full.scores and sum(room.scores) == 0
    assert room.game.view(0) == full.current.view(0)

    stored, snap = snapshots.load_room(store, "runaway")
    assert snap is not None and snap.hand == room.hand_index  # one hand's log, not thirty
    assert len(stored.log) == len(room.entries) - (snap.n - room.base)
    restored = Room.restore(stored, store, snap)
    assert restored.scores == full.scores
    assert [restored.game.view(s) for s in range(4)] == [full.current.view(s) for s in range(4)]
    assert restored.game.legal_actions(0) == full.current.legal_actions(0)

    for hand in (0, 7, 28):
        game = snapshots.load_hand(store, "runaway", room.config, hand)
        assert game is not None and game.is_over
        assert game.to_dict() == full.hands[hand].to_dict()
    assert snapshots.load_hand(store, "runaway", room.config, 99) is None
    store.close()


def test_a_room_stored_without_snapshots_restores_and_gets_one(tmp_path):
    room, loop, store, _ = make_room(tmp_path)
    play_hands(room, loop, 4)
    room.flush()
    with store.engine.begin() as conn:
        conn.execute(snapshots.snapshots.delete())  # as an older server stored it
    stored, snap = snapshots.load_room(store, "runaway")
    assert snap is None and stored.log[0] == (0, -1, "new_hand")
    again = Room.restore(stored, store)  # the whole log, replayed
    assert again.game.view(0) == room.game.view(0) and again.scores == room.scores
    again._write_snapshots()  # (a server does so right after a restore)
    assert snapshots.load_room(store, "runaway")[1].hand == room.hand_index
    store.close()


def test_no_hand_is_dealt_while_every_human_is_away(tmp_path):
    room, loop, store, sink = make_room(tmp_path)
    loop.advance(600)  # the human idles: away, bots finish the hand for it
    assert 0 in room.away and room.game.is_over and room.hand_index == 0
    loop.advance(600)  # far past next_hand_s: still no new hand
    assert room.hand_index == 0
    room.take_back(0)  # the human is back: the next hand comes after next_hand_s
    room.pump()
    loop.advance(room.config.next_hand_s + 0.1)
    assert room.hand_index == 1 and not room.game.is_over
    store.close()


def test_mc_seats_without_a_pool_still_play(tmp_path):
    """Without a bot pool (a Room outside the server) every bot decides in place, as
    before; the pool is only the server's way to keep its loop free."""
    room, loop, store, _ = make_room(tmp_path, seats=("human", "mc", "greedy", "greedy"))
    loop.advance(60)
    assert room.game.is_over
    assert "mc" in room._bots
    store.close()


def _cpu_and_rss(pid: int) -> tuple[float, int]:
    """(CPU seconds used, resident bytes) of a process, from /proc."""
    import os
    from pathlib import Path

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


RUNAWAY_S = 60  # the measure: a minute


def test_a_runaway_room_is_bounded_in_cpu_and_memory(tmp_path):
    """The issue's room (one human, three bots, idle_timeout_s 0.1, next_hand_s 0,
    max_hands 0) is refused; the fastest one accepted (1 s, 1 s, no limit), its human
    connected and idle — and a second one whose client sends ``back`` every 0.5 s to stay
    present — for a minute cost the server process under a fifth of a core and under 16 MiB
    (before the floors such a room grew 293 MiB a minute)."""
    from server_support import Client, Server

    srv = Server(tmp_path / "runaway.db").start()
    try:
        runaway = {"variant": "xuezhan_kaxinwu", "max_hands": 0, "idle_timeout_s": 0.1,
                   "next_hand_s": 0}  # fmt: skip
        status, body = srv.post("/api/rooms", runaway)
        assert status == 400 and "floor" in body["error"]
        fast = {"variant": "xuezhan_kaxinwu", "idle_timeout_s": 1, "next_hand_s": 1,
                "max_hands": 0}  # fmt: skip
        idle_room, back_room = srv.room(**fast), srv.room(**fast)
        idle = Client(srv, idle_room)
        idle.hello(srv.join(idle_room, 0))
        backer = Client(srv, back_room)
        backer.hello(srv.join(back_room, 0))
        time.sleep(3)  # settled: the idle room's first hand is played by its bots
        assert srv.proc is not None
        cpu0, rss0 = _cpu_and_rss(srv.proc.pid)
        start = time.monotonic()
        ref = 0
        while time.monotonic() - start < RUNAWAY_S:
            ref += 1
            backer.send({"type": "back", "id": ref})
            time.sleep(0.5)
            while True:  # (read what came, so the socket's buffers do not fill)
                try:
                    backer.recv(0.01)
                except TimeoutError:
                    break
        cpu1, rss1 = _cpu_and_rss(srv.proc.pid)
        hands = {r: srv.get(f"/api/rooms/{r}")["hand"] for r in (idle_room, back_room)}
        idle.close()
        backer.close()
    finally:
        srv.stop()
    cpu = (cpu1 - cpu0) / RUNAWAY_S
    grown = (rss1 - rss0) / 2**20
    print(f"{RUNAWAY_S} s: {cpu:.1%} of a core, RSS {rss0 / 2**20:.0f} -> {rss1 / 2**20:.0f} MiB, "
          f"hands {hands}")  # fmt: skip
    assert hands[idle_room] == 0  # the idle room dealt nothing to its bots alone
    assert hands[back_room] <= RUNAWAY_S  # at most one hand a second (next_hand_s's floor)
    assert cpu < 0.2 and grown < 16


def test_a_finished_hand_that_left_memory_is_served_from_the_store(tmp_path):
    """A real server: a room plays four hands (its human answering at once), so hand 0 has
    left memory; GET /api/rooms/{id}/hands/0 rebuilds it from its snapshot and log — the
    same hand a replay of the whole stored log gives."""
    import json
    import threading
    import urllib.request

    from server_support import Server
    from test_server_loop import play_human

    srv = Server(tmp_path / "hands.db").start()
    stop = threading.Event()
    try:
        room = srv.room(variant="qingdao", seats=["human", "greedy", "greedy", "greedy"],
                        idle_timeout_s=600, next_hand_s=1)  # fmt: skip
        acted = [0]
        token: list[str] = []
        player = threading.Thread(target=play_human, args=(srv, room, stop, acted, token))
        player.start()
        deadline = time.monotonic() + 120
        while srv.get(f"/api/rooms/{room}")["hand"] < 3:
            assert time.monotonic() < deadline, "the room did not reach hand 3"
            time.sleep(0.5)
        stop.set()
        player.join(15)
        req = urllib.request.Request(f"{srv.base}/api/rooms/{room}/hands/0",
                                     headers={"Authorization": f"Bearer {token[0]}"})  # fmt: skip
        with urllib.request.urlopen(req, timeout=10) as resp:
            served = json.loads(resp.read())
    finally:
        stop.set()
        srv.stop()
    store = Store(str(tmp_path / "hands.db"))
    try:
        stored = store.load_all(room)[0]
    finally:
        store.close()
    config = RoomConfig.from_json(stored.config)
    full = Match(config.variant, players=4, options=config.options, seed=config.seed)
    for _hand, seat, action in stored.log:
        if action == "new_hand":
            full.new_hand()
        else:
            full.current.apply(seat, action)
    assert served == json.loads(json.dumps(full.hands[0].to_dict()))
    assert served["history"]  # a whole hand, played


def test_back_on_an_away_seat_of_a_fast_room_is_a_few_messages(tmp_path):
    """The issue's room built directly (no floors: idle 0.1 s, next hand 0 s): its human idles
    away, then sends ``back``. In the next 3 s it hears a few states — the hand dealt for it,
    played out once it idles again — not hundreds (before: 257 in 3 s, a hand after hand)."""
    loop = FakeLoop()
    config = RoomConfig(variant="xuezhan_kaxinwu", players=4, options={}, seed=5,
                        seats=("human", "expert", "expert", "expert"), idle_timeout_s=0.1,
                        next_hand_s=0)  # fmt: skip
    store = Store(str(tmp_path / "back.db"))
    snapshots.ensure_table(store)
    room = Room.create("backroom", config, store, schedule=loop.call_later, clock=loop.now)
    room.join(0)
    sink = Sink(loop)
    room.connect(0, sink)
    loop.advance(30)
    assert 0 in room.away and room.game.is_over and room.hand_index == 0
    before = len(sink.got)
    room.take_back(0)
    room.pump()
    loop.advance(3)
    heard = sink.got[before:]
    assert room.hand_index == 1  # one hand for the returning human, then it idled away again
    assert 1 <= len(heard) <= 10, len(heard)
    store.close()
