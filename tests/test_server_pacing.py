"""The uniform claim window, on a simulated clock: a seat that was not asked cannot tell.

Two copies of one room (same private seed) differ only in seat 0's first discard: after one
a bot may claim, after the other nobody may. The observer (seat 1, a human not asked either
time) must receive exactly the same kind of message at exactly the same time: nothing
during the window W, then one state with the window already resolved.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from mjcore.engine.game import Game  # noqa: E402
from mjcore.server.rooms import Room, RoomConfig  # noqa: E402
from mjcore.server.store import Store  # noqa: E402

W = 1.0


class Handle:
    def __init__(self, when: float, fn: Any) -> None:
        self.when, self.fn, self.cancelled = when, fn, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeLoop:
    """A clock and timers that move only when the test says so."""

    def __init__(self) -> None:
        self.t = 0.0
        self.timers: list[Handle] = []

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, fn: Any) -> Handle:
        handle = Handle(self.t + delay, fn)
        self.timers.append(handle)
        return handle

    def advance(self, dt: float) -> None:
        end = self.t + dt
        for _ in range(10_000):
            due = [h for h in self.timers if not h.cancelled and h.when <= end]
            if not due:
                break
            h = min(due, key=lambda x: x.when)
            self.timers.remove(h)
            self.t = max(self.t, h.when)
            h.fn()
        self.t = end


class Sink:
    def __init__(self, loop: FakeLoop) -> None:
        self.loop = loop
        self.got: list[tuple[float, dict[str, Any]]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.got.append((self.loop.t, message))

    def close(self, reason: str) -> None:
        pass


def make_room(tmp_path, seed: int, name: str) -> tuple[Room, FakeLoop, list[Sink]]:
    loop = FakeLoop()
    config = RoomConfig(
        variant="qingdao",
        players=4,
        options={},
        seats=("human", "human", "greedy", "greedy"),
        seed=seed,
        claim_window_ms=int(W * 1000),
        idle_timeout_s=600,
    )
    store = Store(str(tmp_path / f"{name}.db"))
    room = Room.create(name, config, store, schedule=loop.call_later, clock=loop.now)
    sinks = [Sink(loop), Sink(loop)]
    for seat in (0, 1):
        room.join(seat)
        room.connect(seat, sinks[seat])
    for seat in (0, 1):  # per-hand choices (选跑) first
        legal = room.game.legal_actions(seat)
        if legal and room.game.phase == "choose":
            room.act(seat, str(legal[0]))
            room.pump()
    loop.advance(0.01)
    return room, loop, sinks


def asked_after(game: Game, action: str) -> list[int]:
    trial = Game.from_json(game.to_json())
    trial.apply(0, action)
    return trial.to_act() if trial.phase in ("claim", "rob") else []


def find_case(tmp_path) -> tuple[int, str, str]:
    """A seed and two discards of seat 0: one a bot may claim, one nobody may claim."""
    for seed in range(60):
        room, _, _ = make_room(tmp_path, seed, f"probe{seed}")
        room.store.close()
        game = room.game
        if game.phase != "turn" or game.current != 0:
            continue
        claimable, quiet = None, None
        for a in game.legal_actions(0):
            if a.kind != "discard":
                continue
            asked = asked_after(game, str(a))
            if asked and 1 not in asked:
                claimable = claimable or str(a)
            elif not asked:
                quiet = quiet or str(a)
        if claimable and quiet:
            return seed, claimable, quiet
    raise AssertionError("no seed with both kinds of discard")


def observe(tmp_path, seed: int, discard: str, name: str) -> list[tuple[float, str, str]]:
    room, loop, sinks = make_room(tmp_path, seed, name)
    start = len(sinks[1].got)
    t0 = loop.t
    room.act(0, discard)
    room.pump()
    loop.advance(W * 1.5)
    room.store.close()
    out = []
    for t, msg in sinks[1].got[start:]:
        phase = msg["view"]["phase"] if msg["type"] == "state" else ""
        out.append((round(t - t0, 6), msg["type"], phase))
    return out


def test_not_asked_seat_cannot_tell_a_claim_window(tmp_path):
    seed, claimable, quiet = find_case(tmp_path)
    with_window = observe(tmp_path, seed, claimable, "a")
    without = observe(tmp_path, seed, quiet, "b")
    assert with_window and without
    # Nothing before W; at W exactly one state, the window already resolved.
    for seen in (with_window, without):
        assert seen[0][0] == pytest.approx(W)
        assert seen[0][1] == "state" and seen[0][2] not in ("claim", "rob", "waiting")
    assert [m[:2] for m in with_window[:1]] == [m[:2] for m in without[:1]]


def test_asked_seat_gets_its_decision_at_once_and_passes_when_the_window_ends(tmp_path):
    seed, claimable, _ = find_case(tmp_path)
    room, loop, sinks = make_room(tmp_path, seed, "c")
    asked = asked_after(room.game, claimable)
    assert asked and 1 not in asked
    room.act(0, claimable)
    room.pump()
    assert room.game.phase in ("claim", "rob")  # the bot has not answered during the hold
    assert room.summary()["phase"] == "playing"  # the public summary does not tell either
    loop.advance(W * 0.5)
    assert room.game.phase in ("claim", "rob")
    loop.advance(W * 0.6)
    assert room.game.phase not in ("claim", "rob")  # resolved when the window closed
    room.store.close()
