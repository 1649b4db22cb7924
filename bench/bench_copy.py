"""The cost of ``Game.copy()`` (issue 35), beside the ways to copy a game it replaces.

* ``copy`` — :meth:`Game.copy` (engine/clone.py: the mutable parts copied, the rest shared);
* ``snapshot`` — what ``mc`` did per rollout: pickle the game once, unpickle a copy each time
  (:class:`mjcore.bots.mc.Snapshot`; only the unpickling is timed);
* ``deepcopy`` — ``copy.deepcopy(game)`` (the variant kept shared, as a fair copy must).

Games are mid-hand positions of every variant (greedy play, 10–60 actions in). Run:
``cd bench && python -m pytest bench_copy.py --benchmark-enable`` (the summary prints copies
per second and the ratio of ``copy`` to each other way) or ``python bench/bench_copy.py
[COPIES]`` for µs per copy (CPU time).
"""

from __future__ import annotations

import copy
import sys
import time

import pytest
from conftest import _RESULTS, NOTES, size

from mjcore.bots.mc import Snapshot
from mjcore.bots.registry import make_bot
from mjcore.variants import get_variant, names

COPIES = size(20000, 50)


def positions() -> list:
    """Mid-hand games of every variant: 10, 30 and 60 actions of greedy play."""
    out = []
    for v in names():
        for cut in (10, 30, 60):
            game = get_variant(v).new_game(seed=cut)
            bots = [make_bot("greedy", s) for s in range(4)]
            for _ in range(cut):
                if game.is_over:
                    break
                seat = game.to_act()[0]
                game.apply(seat, bots[seat].act_fast(game, seat, game.legal_actions(seat)))
            out.append(game)
    return out


def ways(games: list) -> dict:
    snaps = [Snapshot(g) for g in games]
    memos = [{id(g.variant): g.variant, id(g.opts): g.opts} for g in games]

    def by_copy(n: int) -> int:
        for i in range(n):
            games[i % len(games)].copy()
        return n

    def by_snapshot(n: int) -> int:
        for i in range(n):
            snaps[i % len(snaps)].copy()
        return n

    def by_deepcopy(n: int) -> int:
        for i in range(n):
            k = i % len(games)
            copy.deepcopy(games[k], dict(memos[k]))
        return n

    return {"copy": by_copy, "snapshot": by_snapshot, "deepcopy": by_deepcopy}


_WAYS = ways(positions())
_RATE: dict[str, float] = {}


@pytest.mark.parametrize("way", list(_WAYS))
def test_game_copy(throughput, way):
    fn = _WAYS[way]
    assert fn(COPIES // (1 if way == "copy" else 4)) > 0
    n = COPIES if way == "copy" else COPIES // 4
    throughput(f"game copies/s: {way}", "core", n, fn, n, rounds=3, warmup=0)
    got = _RESULTS.get(f"game copies/s: {way}", {}).get("core")
    if got:
        _RATE[way] = got
        if way == "deepcopy" and "copy" in _RATE:
            NOTES.append(
                "Game.copy ÷ snapshot: {:.1f}x, ÷ deepcopy: {:.1f}x".format(
                    _RATE["copy"] / _RATE.get("snapshot", float("nan")),
                    _RATE["copy"] / _RATE["deepcopy"],
                )
            )


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    us = {}
    for way, fn in _WAYS.items():
        k = n if way == "copy" else n // 4
        t = time.process_time()
        fn(k)
        us[way] = (time.process_time() - t) / k * 1e6
        print(f"{way:>9}: {us[way]:7.1f} µs a copy (CPU)")
    print(
        f"copy is {us['snapshot'] / us['copy']:.1f}x faster than the snapshot (pickle), "
        f"{us['deepcopy'] / us['copy']:.1f}x than deepcopy"
    )
