"""Seeded hands give exactly the recorded results (fingerprints recorded before issue 34's
engine work, with the released compiled wheel; tools/record_fingerprints.py).

10,000 hands are recorded per variant, option set (default / main options) and bot (random /
greedy), one digest per block of 100 hands. By default a seeded sample of blocks is checked:
10 blocks (1,000 hands) per run with the compiled engine, 2 (200 hands) with the pure-Python
fallback, which is several times slower. ``MJCORE_FINGERPRINTS=all`` checks every block
(10,000 hands per run, minutes); ``MJCORE_FINGERPRINTS=<n>`` checks n blocks per run.
"""

from __future__ import annotations

import os
import random

import fingerprints as fp
import pytest

import mjcore

RECORDED = fp.load()


def _blocks(run: str) -> list[int]:
    total = RECORDED["hands"] // RECORDED["block"]
    wanted = os.environ.get("MJCORE_FINGERPRINTS", "")
    if wanted == "all":
        return list(range(total))
    n = int(wanted) if wanted else (10 if mjcore.compiled_modules() else 2)
    return sorted(random.Random(f"fingerprints {run}").sample(range(total), min(n, total)))


def test_the_recording_matches_its_definition():
    assert RECORDED["block"] == fp.BLOCK and RECORDED["hands"] == fp.HANDS
    assert RECORDED["seed"] == fp.SEED and RECORDED["main_options"] == fp.MAIN_OPTIONS
    assert sorted(RECORDED["digests"]) == sorted(fp.key(*c) for c in fp.combos())
    assert all(len(d) == fp.HANDS // fp.BLOCK for d in RECORDED["digests"].values())


@pytest.mark.parametrize("combo", fp.combos(), ids=lambda c: fp.key(*c))
def test_seeded_hands_match_their_fingerprints(combo):
    run = fp.key(*combo)
    blocks = _blocks(run)
    got = fp.block_digests(*combo, blocks=blocks)
    want = {b: RECORDED["digests"][run][b] for b in blocks}
    differ = [
        f"hands {b * fp.BLOCK}..{(b + 1) * fp.BLOCK - 1}" for b in blocks if got[b] != want[b]
    ]
    assert not differ, f"{run}: results changed in {', '.join(differ)}"


def test_a_changed_hand_changes_its_fingerprint():
    """The fingerprint covers the results: a different score or action changes it."""
    job = fp.make_job("xuezhan_kaxinwu", 2, 4, None, "random", 1, False, False)
    game, _, _ = fp.play_hand(job, 0)
    other, _, _ = fp.play_hand(job, 1)
    assert fp.hand_fingerprint(game) == fp.hand_fingerprint(game.copy())
    assert fp.hand_fingerprint(game) != fp.hand_fingerprint(other)
