"""The game server's cost per action, without the network (one core).

Run: ``pytest bench/bench_server.py --benchmark-enable`` (or ``python bench/bench_server.py``).

Each case replays the same recorded hands (random legal actions, fixed room seeds):

- ``room``: through :class:`mjcore.server.rooms.Room` as the server does it — four human
  seats connected, each action applied, committed to a SQLite file (group commit) and
  followed by the JSON-encoded ``state`` messages of every seat that may see a change;
- ``engine`` (baseline in the same run): the same actions on bare games the way a naive
  server would compute them — text ``apply`` plus every seat's ``view`` and ``events_for``
  after every action, no storage, no encoding.

The ratio is the server's own overhead (storage, encoding, bookkeeping) over the engine work
it cannot avoid. End-to-end figures over WebSockets come from ``mjcore loadtest``
(docs/server.md).
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import size

pytest.importorskip("sqlalchemy")

from mjcore.engine.match import Match  # noqa: E402
from mjcore.server.rooms import Room, RoomConfig  # noqa: E402
from mjcore.server.store import Store  # noqa: E402

VARIANTS = ("xuezhan_kaxinwu", "qingdao")
N_HANDS = size(30, 2)

try:
    from mjcore.server.app import _dumps as encode
except ImportError:  # pragma: no cover - without starlette
    import json

    def encode(message: dict[str, Any]) -> str:
        return json.dumps(message)


class Sink:
    """A connected seat that encodes every message as the server would send it."""

    def __init__(self) -> None:
        self.bytes = 0

    def send(self, message: dict[str, Any]) -> None:
        self.bytes += len(encode(message))

    def close(self, reason: str) -> None:
        pass


def config(variant: str, seed: int) -> RoomConfig:
    return RoomConfig(
        variant=variant,
        players=4,
        options={},
        seats=("human",) * 4,
        seed=seed,
        idle_timeout_s=3600,
        next_hand_s=3600,
    )


def record(variant: str, hands: int = N_HANDS) -> list[tuple[int, list[tuple[int, str]]]]:
    """(room seed, [(seat, action text)…]) of one random-play hand per seed."""
    out = []
    for seed in range(hands):
        match = Match(variant, players=4, seed=seed)
        game = match.new_hand()
        rng = random.Random(seed)
        actions = []
        while not game.is_over:
            seat = game.to_act()[0]
            action = str(rng.choice(game.legal_actions(seat)))
            game.apply(seat, action)
            actions.append((seat, action))
        out.append((seed, actions))
    return out


def replay_rooms(variant: str, traces, db: Path) -> int:
    store = Store(str(db))
    try:
        for seed, actions in traces:
            room_id = f"{variant}-{seed}-{time.monotonic_ns()}"
            room = Room.create(room_id, config(variant, seed), store)
            for s in range(4):
                room.join(s)
                room.connect(s, Sink())
            for seat, action in actions:
                room.act(seat, action)
                room.flush()
                room.pump()
    finally:
        store.close()
    return sum(len(a) for _, a in traces)


def replay_engine(variant: str, traces) -> int:
    for seed, actions in traces:
        game = Match(variant, players=4, seed=seed).new_hand()
        seen = [0] * 4
        for seat, action in actions:
            game.apply(seat, action)
            for s in range(4):
                game.view(s)
                seen[s] += len(game.events_for(s, since=seen[s]))
    return sum(len(a) for _, a in traces)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("path", ["room", "engine"])
def test_server_per_action(benchmark, tmp_path, variant, path):
    traces = record(variant)
    n = sum(len(a) for _, a in traces)
    if path == "room":
        done = benchmark.pedantic(
            replay_rooms, args=(variant, traces, tmp_path / "bench.db"), rounds=3
        )
    else:
        done = benchmark.pedantic(replay_engine, args=(variant, traces), rounds=3)
    assert done == n
    if benchmark.stats is not None:
        benchmark.extra_info.update(us_per_action=benchmark.stats.stats.mean / n * 1e6)


def report() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for variant in VARIANTS:
            traces = record(variant)
            n = sum(len(a) for _, a in traces)
            best = {}
            for path in ("engine", "room"):
                times = []
                for i in range(3):
                    t0 = time.perf_counter()
                    if path == "room":
                        replay_rooms(variant, traces, Path(tmp) / f"{variant}{i}.db")
                    else:
                        replay_engine(variant, traces)
                    times.append(time.perf_counter() - t0)
                best[path] = min(times) / n * 1e6
            print(
                f"{variant:>16}: room {best['room']:6.0f} µs/action "
                f"({1e6 / best['room']:5.0f} actions/s), engine baseline {best['engine']:5.0f} µs "
                f"-> server overhead x{best['room'] / best['engine']:.2f}"
            )


if __name__ == "__main__":
    report()
