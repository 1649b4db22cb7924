"""Fingerprints of seeded simulated hands: one digest per block of hands, per variant, option
set and bot (what ``tests/test_fingerprints.py`` checks and ``tools/record_fingerprints.py``
records).

A hand's fingerprint is a hash of everything a user can read of it once it is over: the event
log, the scores, the saved game (wall, options, carry and every action), each seat's view and
the next hand's dealer and carry. A block's digest hashes its hands' fingerprints in order, so
a change to any hand of the block changes the block's digest. The hands are played exactly as
:func:`mjcore.simulate` plays them (:func:`mjcore.sim.play.play_hand` on one Job, a block as a
chunk: replayable bots reseeded from hand to hand).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import mjcore
from mjcore.sim.play import play_hand
from mjcore.sim.runner import make_job

DATA = Path(__file__).parent / "data" / "fingerprints.json"
HANDS = 10_000
BLOCK = 100
SEED = 20_260_034
BOTS = ("random", "greedy")
MAIN_OPTIONS: dict[str, dict[str, Any]] = {  # as bench/bench_bots.py's "with options" rows
    "xuezhan_kaxinwu": {"three_suits": True, "gang_chain": "compound"},
    "lipu": {"zuoma": True, "laogang": True, "zhuama": 2},
    "susong": {"piaohua": True, "chuzeng": 1},
    "qingdao": {"niupai": True},
    "rongcheng": {"luanzhang": True},
}
OPTION_SETS = ("default", "main")


def combos() -> list[tuple[str, str, str]]:
    """(variant, option set, bots) of every recorded run."""
    return [(v, o, b) for v in sorted(MAIN_OPTIONS) for o in OPTION_SETS for b in BOTS]


def key(variant: str, option_set: str, bots: str) -> str:
    return f"{variant}/{option_set}/{bots}"


def hand_fingerprint(game: Any) -> bytes:
    """16 bytes that change when anything readable of a finished hand changes."""
    record = {
        "events": game.events,
        "scores": game.scores,
        "saved": game.to_dict(),
        "views": [game.view(s) for s in range(game.n)],
        "next_dealer": game.next_dealer,
        "next_carry": game.next_carry(),
    }
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def block_digests(variant: str, option_set: str, bots: str, blocks: list[int]) -> dict[int, str]:
    """{block: hex digest of hands block*BLOCK .. (block+1)*BLOCK-1} of one run."""
    options = MAIN_OPTIONS[variant] if option_set == "main" else None
    job = make_job(variant, HANDS, 4, options, bots, SEED, False, False)
    out = {}
    for b in blocks:
        h = hashlib.blake2b(digest_size=8)
        kept: list = [None] * job.players  # a block plays as a chunk: its bots carried along
        for i in range(b * BLOCK, (b + 1) * BLOCK):
            game, _, _ = play_hand(job, i, None, kept)
            h.update(hand_fingerprint(game))
        out[b] = h.hexdigest()
    return out


def load() -> dict[str, Any]:
    return json.loads(DATA.read_text())


def recorded_with() -> dict[str, Any]:
    """What a recording names as the engine it was made with (tools/record_*.py)."""
    return {"mjcore": mjcore.__version__, "compiled": bool(mjcore.compiled_modules())}
