"""The event loop never stalls (issue 32): rooms whose bots are slow (``mc``) beside a room
whose pings must stay fast, and a restore of a 10,000-hand room beside it — each in a real
``mjcore serve`` process the test starts and kills."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from server_support import Client, Server  # noqa: E402

BUDGET_MS = 50.0  # no room may delay another room's messages by more than this


def ping_times(server: Server, seconds: float) -> list[float]:
    """Round trips (ms) of pings every 60 ms (under the 20 messages/s limit) for ``seconds``
    on a room of its own."""
    room = server.room(variant="qingdao", seats=["human", "human", "human", "human"],
                       idle_timeout_s=600)  # fmt: skip
    c = Client(server, room)
    c.hello(server.join(room, 0))
    times = []
    end = time.monotonic() + seconds
    ref = 0
    while time.monotonic() < end:
        ref += 1
        sent = time.perf_counter()
        c.send({"type": "ping", "id": ref})
        reply = c.until(lambda m, r=ref: m.get("id") == r, timeout=30)
        assert reply["type"] == "pong", reply
        times.append((time.perf_counter() - sent) * 1000)
        time.sleep(0.06)
    c.close()
    return times


def play_human(
    server: Server, room: str, stop: threading.Event, acted: list[int], token: list | None = None
) -> None:
    """The human seat of a bot room: answers every decision at once (first legal action)
    and is ready for each next hand, so the room's bots keep deciding (its seat token goes
    to ``token`` if given)."""
    c = Client(server, room)
    try:
        seat_token = server.join(room, 0)
        if token is not None:
            token.append(seat_token)
        msg = c.hello(seat_token)
        ref = 0
        last: dict | None = None
        while not stop.is_set():
            if ref:
                try:
                    msg = c.recv(0.5)
                except TimeoutError:
                    continue
            if msg["type"] == "error" and msg.get("code") == "rate_limited" and last:
                time.sleep(0.2)  # answering at once can outrun the per-connection limit
                ref += 1
                c.send({**last, "id": ref})
                continue
            if msg["type"] != "state":
                continue
            view = msg["view"]
            ref += 1  # (from here on: the next message)
            if view["phase"] == "over":
                last = {"type": "next", "hand": msg["hand"]}
            elif view["legal_actions"]:
                legal = view["legal_actions"]
                last = {"type": "act", "action": "hu" if "hu" in legal else legal[0]}
                acted[0] += 1
            else:
                continue
            c.send({**last, "id": ref})
    except Exception:  # the server going away at the end
        if not stop.is_set():
            raise
    finally:
        with contextlib.suppress(Exception):
            c.close()


def mc_rooms_beside_pings(server: Server, rooms: int, seconds: float) -> tuple[list[float], int]:
    stop = threading.Event()
    acted = [0]
    threads = []
    for _ in range(rooms):
        room = server.room(variant="xuezhan_kaxinwu", seats=["human", "mc", "mc", "mc"],
                           idle_timeout_s=600, next_hand_s=1)  # fmt: skip
        t = threading.Thread(target=play_human, args=(server, room, stop, acted), daemon=True)
        t.start()
        threads.append(t)
    try:
        time.sleep(1.0)  # the bots are deciding
        times = ping_times(server, seconds)
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    return times, acted[0]


def bot_count(server: Server, by: str) -> float:
    return server.metrics().get(f'mjcore_bot_decisions_total{{by="{by}"}}', 0.0)


def test_mc_bots_decide_off_the_loop_and_other_rooms_stay_fast(tmp_path):
    """Three rooms of ``mc`` bots, their humans answering at once, beside a room pinging every
    60 ms for 12 s: every ping answered within 50 ms (p99; the max is printed) while the mc
    bots keep deciding in the worker pool. The same run with the bots on the loop
    (``--bot-workers 0``, as before) shows what the pool prevents."""
    server = Server(tmp_path / "mc.db").start()
    try:
        times, acted = mc_rooms_beside_pings(server, 3, 12.0)
        pooled = bot_count(server, "pool")
    finally:
        server.stop()
    p99 = statistics.quantiles(times, n=100)[98]
    p50, top = statistics.median(times), max(times)
    print(f"pool: {len(times)} pings p50 {p50:.1f} ms p99 {p99:.1f} ms max {top:.1f} ms; "
          f"{pooled:.0f} mc decisions in the pool; {acted} acts")  # fmt: skip
    assert pooled >= 10 and acted >= 10  # the mc rooms were playing meanwhile
    assert p99 < BUDGET_MS, times

    onloop = Server(tmp_path / "mc-loop.db", "--bot-workers", "0").start()
    try:
        slow, _ = mc_rooms_beside_pings(onloop, 3, 6.0)
    finally:
        onloop.stop()
    print(f"on the loop: p50 {statistics.median(slow):.1f} ms max {max(slow):.1f} ms")
    assert max(slow) > BUDGET_MS  # the measurement can fail: mc on the loop stalls it


def long_room(db, hands: int, real: int) -> tuple[str, str, dict]:
    """A room with ``hands`` hands in a SQLite database, written the way the server stores
    rooms (config, a seat token, the action log, per-hand snapshots).

    Scaled setup: the log holds ~100 entries for every hand (about a million rows for 10,000
    hands, what the server stores for such a room), but only the last ``real`` hands are
    played by the engine (greedy bots); the earlier entries are well-formed filler, never
    valid to replay — so a restore that read or replayed the whole log would be slow or fail,
    and one that starts at the latest snapshot is exact. Returns (room id, seat 0's token,
    the current hand's view of seat 0 as computed here)."""
    from sqlalchemy import insert

    from mjcore.bots import make_bot
    from mjcore.engine.match import Match
    from mjcore.server import snapshots
    from mjcore.server.rooms import config_from_request, token_hash
    from mjcore.server.snapshots import Snapshot, match_at, snapshot_of
    from mjcore.server.store import Store, actions

    store = Store(str(db))
    snapshots.ensure_table(store)
    # every seat human: nothing moves by itself when the test connects
    request = {"variant": "xuezhan_kaxinwu", "seats": ["human"] * 4, "idle_timeout_s": 600}
    config = config_from_request(request)
    room_id, token = "00000000c0ffee01", "long-room-token"
    store.create_room(room_id, config.to_json(), time.time())
    store.set_token(room_id, 0, token_hash(token), "")
    rows: list[dict] = []
    n = 0

    def log(hand: int, seat: int, action: str) -> None:
        nonlocal n
        rows.append({"room_id": room_id, "n": n, "hand": hand, "seat": seat, "action": action})
        n += 1
        if len(rows) >= 50_000:
            with store.engine.begin() as conn:
                conn.execute(insert(actions), rows)
            rows.clear()

    first_real = hands - real
    for h in range(first_real):
        log(h, -1, "new_hand")
        for _ in range(99):
            log(h, 0, "discard 1m")
    template = Match(config.variant, players=4, options=config.options, seed=config.seed)
    match = match_at(template, Snapshot(first_real, n, (100, -40, -30, -30), 1, {}))
    bot = make_bot("greedy", 0)

    for h in range(first_real, hands):
        if h > first_real:
            match.new_hand()
        snapshots.write(store, room_id, snapshot_of(match, n))
        log(h, -1, "new_hand")
        game = match.current
        limit = 40 if h == hands - 1 else 10_000  # the last hand stays unfinished
        for _ in range(limit):
            if game.is_over:
                break
            seat = game.to_act()[0]
            action = bot.act_fast(game, seat, list(game.legal_actions(seat)))
            game.apply(seat, action)
            log(h, seat, str(action))
    with store.engine.begin() as conn:
        conn.execute(insert(actions), rows)
    view = json.loads(json.dumps(match.current.view(0), default=list))
    store.close()
    return room_id, token, view


def test_restoring_a_10000_hand_room_keeps_other_rooms_fast(tmp_path):
    """After a restart, the first request for a room of 10,000 hands restores it from its
    latest snapshot (one hand's log) off the loop: exactly the state the log holds, while
    another room's pings stay under 50 ms."""
    db = tmp_path / "long.db"
    room_id, token, view = long_room(db, 10_000, 3)
    server = Server(db).start()
    try:
        result: dict = {}

        def restore() -> None:
            time.sleep(1.0)  # while the pings run
            started = time.perf_counter()
            result["summary"] = server.get(f"/api/rooms/{room_id}")
            result["seconds"] = time.perf_counter() - started

        t = threading.Thread(target=restore)
        t.start()
        times = ping_times(server, 4.0)
        t.join(30)
        assert result["summary"]["hand"] == 9_999
        c = Client(server, room_id)
        state = c.hello(token)
        c.close()
        assert state["view"] == view  # exactly the room the log holds
        assert state["match"]["hands"] == 10_000
        assert server.metrics()["mjcore_restores_total"] == 1
    finally:
        server.stop()
    print(f"restore (GET of the room) {result['seconds'] * 1000:.0f} ms; pings meanwhile max "
          f"{max(times):.1f} ms, p50 {statistics.median(times):.1f} ms")  # fmt: skip
    # (a restore on the loop stalls every room for seconds; one scheduling hiccup of a busy
    # machine is not that: 95 % of pings within the budget, none beyond four times it)
    assert statistics.quantiles(times, n=20)[18] < BUDGET_MS, times
    assert max(times) < 4 * BUDGET_MS, times


def test_bot_workers_exit_when_their_server_dies(tmp_path):
    """A process that starts bot workers (the server's BotPool initializer) and is then
    killed with SIGKILL, as in a crash: its workers notice and exit within a few seconds,
    instead of waiting on their task pipe for ever."""
    code = """if True:
        import concurrent.futures, multiprocessing, os, signal, sys
        from mjcore.server.botpool import _warm
        pool = concurrent.futures.ProcessPoolExecutor(
            2, mp_context=multiprocessing.get_context("spawn"), initializer=_warm)
        pids = {pool.submit(os.getpid).result() for _ in range(8)}
        print(" ".join(map(str, sorted(pids))), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """
    log = tmp_path / "out.txt"  # (a file, not a pipe: the workers hold it open too)
    with log.open("w") as sink:
        rc = subprocess.run([sys.executable, "-c", code], stdout=sink, stderr=subprocess.STDOUT,
                            timeout=120, cwd=tmp_path).returncode  # fmt: skip
    assert rc == -signal.SIGKILL, log.read_text()[-2000:]
    pids = [int(p) for p in log.read_text().split()]
    assert pids

    def alive(pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # (a zombie has exited)
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 15
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [p for p in pids if alive(p)]
    for p in left:  # (do not leave them behind when the check fails)
        os.kill(p, signal.SIGKILL)
    assert not left, f"bot workers {left} outlived their server"
