"""The learned bot (issue 35): a trained network shipped in the package, run with numpy.

Legality in every variant (also under options it was not trained at), no peeking (hidden
tiles shuffled: the same decisions), seeded reproducibility, the bot spec, the file."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

from mjcore.bots.learned import FEATURES, WEIGHTS, LearnedBot, action_features
from mjcore.bots.mc import determinize
from mjcore.bots.registry import BOTS, make_bot
from mjcore.bots.spec import resolve_bots
from mjcore.errors import InvalidOptionError
from mjcore.sim import simulate
from mjcore.variants import get_variant, names

OTHER_OPTIONS = {
    "xuezhan_kaxinwu": {"three_suits": True, "gang_chain": "compound"},
    "lipu": {"zuoma": True, "laogang": True, "zhuama": 2},
    "susong": {"piaohua": True, "chuzeng": 1},
    "qingdao": {"niupai": True},
    "rongcheng": {"luanzhang": True},
}


def _seat(game):
    return game.to_act()[0]


def test_the_weights_file_is_small_and_has_a_network_per_variant():
    assert os.path.getsize(WEIGHTS) < 1_000_000
    with np.load(WEIGHTS) as z:
        for v in names():
            assert f"{v}/w1" in z.files and z[f"{v}/c"].shape[1] == len(FEATURES)
    assert "learned" in BOTS


@pytest.mark.parametrize("variant", names())
@pytest.mark.parametrize("options", ["default", "other"])
def test_every_decision_is_legal_and_hands_settle(variant, options):
    opts = OTHER_OPTIONS[variant] if options == "other" else None
    for hand in range(2):
        game = get_variant(variant).new_game(seed=40 + hand, options=opts, dealer=hand)
        bots = [LearnedBot(s) for s in range(4)]
        decisions = 0
        while not game.is_over:
            seat = _seat(game)
            legal = game.legal_actions(seat)
            action = bots[seat].act_fast(game, seat, legal)
            assert action in legal
            decisions += len(legal) > 1
            game.apply(seat, action)
        assert sum(game.scores) == 0 and decisions > 5


@pytest.mark.parametrize("variant", names())
def test_decisions_ignore_hidden_tiles(variant):
    """Other seats' hands, the wall and a hidden 宝 shuffled: every decision stays (and the
    worlds really differ)."""
    game = get_variant(variant).new_game(seed=7)
    bots = [make_bot("greedy", s) for s in range(4)]
    compared = changed = step = 0
    while not game.is_over:
        seat = _seat(game)
        legal = game.legal_actions(seat)
        if len(legal) > 1 and step % 2 == 0:
            world = determinize(game.copy(), seat, seed=step)
            assert Counter(world.tiles_in_play()) == Counter(game.tiles_in_play())
            assert world.legal_actions(seat) == legal
            changed += any(
                bytes(world.seats[s].hand) != bytes(game.seats[s].hand)
                for s in range(game.n)
                if s != seat
            )
            mine = LearnedBot(step).act_fast(game, seat, legal)
            assert LearnedBot(step).act_fast(world, seat, legal) == mine, step
            assert np.array_equal(
                action_features(world, seat, legal), action_features(game, seat, legal)
            )
            compared += 1
        game.apply(seat, bots[seat].act_fast(game, seat, legal))
        step += 1
    assert compared >= 5 and changed >= compared // 2


def _decisions(bot_seed, temperature, variant="lipu"):
    game = get_variant(variant).new_game(seed=5)
    bots = [LearnedBot(bot_seed + s, temperature=temperature) for s in range(4)]
    out = []
    while not game.is_over:
        seat = _seat(game)
        action = bots[seat].act_fast(game, seat, game.legal_actions(seat))
        out.append(str(action))
        game.apply(seat, action)
    return out


def test_seeded_runs_reproduce_and_the_seed_matters_when_sampling():
    assert _decisions(1, 0.0) == _decisions(1, 0.0) == _decisions(2, 0.0)  # arg-max
    assert _decisions(1, 1.0) == _decisions(1, 1.0)
    assert any(_decisions(s, 1.0) != _decisions(1, 1.0) for s in (2, 3, 4))
    a = simulate("qingdao", 8, bots="learned", seed=3, progress=False).to_json()
    b = simulate("qingdao", 8, bots="learned", seed=3, progress=False).to_json()
    strip = ("seconds", "cpu_seconds", "hands_per_second")
    import json

    ja, jb = json.loads(a), json.loads(b)
    for k in strip:
        ja.pop(k, None)
        jb.pop(k, None)
    assert ja == jb


def test_the_bot_spec_takes_learned_and_its_temperature():
    seats = resolve_bots(["learned", "learned:temperature=0.5", "greedy", "expert"], 4)
    bot = seats[1].make(0)
    assert isinstance(bot, LearnedBot) and bot.temperature == 0.5
    with pytest.raises(InvalidOptionError):
        resolve_bots("learned:temperature=-1", 4)
    with pytest.raises(NotImplementedError, match="act_fast"):
        LearnedBot(0).act({}, [])
