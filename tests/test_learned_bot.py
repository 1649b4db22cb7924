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


def test_the_compiled_forward_pass_is_the_network():
    """``_core.mlp_forward`` (the sparse first layer) equals numpy's dense products."""
    from mjcore._core import mlp_forward

    rng = np.random.default_rng(5)
    n, h1, h2, m = 300, 24, 16, 9
    x = np.where(rng.random(n) < 0.1, rng.random(n), 0).astype(np.float32)
    x[3] = -1.5  # negative inputs are inputs too (only zeros are skipped)
    w1, w2, w3 = (rng.normal(size=s).astype(np.float32) for s in ((n, h1), (h1, h2), (h2, m)))
    b1, b2, b3 = (rng.normal(size=s).astype(np.float32) for s in (h1, h2, m))
    out = np.full(m, np.nan, dtype=np.float32)
    mlp_forward(x, w1, b1, w2, b2, w3, b3, out)
    want = np.maximum(np.maximum(x @ w1 + b1, 0) @ w2 + b2, 0) @ w3 + b3
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("bad", ["x", "b1", "w2", "out"])
def test_the_forward_pass_refuses_shapes_that_do_not_chain(bad):
    from mjcore._core import mlp_forward

    arrays = {
        "x": np.ones(5), "w1": np.ones((5, 4)), "b1": np.ones(4), "w2": np.ones((4, 3)),
        "b2": np.ones(3), "w3": np.ones((3, 2)), "b3": np.ones(2), "out": np.zeros(2),
    }  # fmt: skip
    wrong = {"x": np.ones(6), "b1": np.ones(5), "w2": np.ones((5, 3)), "out": np.zeros(3)}
    arrays = {k: v.astype(np.float32) for k, v in {**arrays, bad: wrong[bad]}.items()}
    before = arrays["out"].copy()
    with pytest.raises(ValueError, match="shapes do not chain"):
        mlp_forward(*arrays.values())
    np.testing.assert_array_equal(arrays["out"], before)


def _reference_discard_rows(game, seat, legal):
    """The discards' features as first written, from the expert bot's three native calls."""
    from mjcore import tiles as T
    from mjcore._core import expert_discards, expert_ukeire, expert_waits
    from mjcore.bots.expert import Info

    info = Info.from_game(game, seat)
    hand = info.hand
    held = [(i, a.tile) for i, a in enumerate(legal)
            if a.kind == "discard" and a.tile < T.N_KINDS and hand.counts[a.tile]]  # fmt: skip
    if not held:
        return {}
    tiles = [t for _, t in held]
    shantens, conns = expert_discards(hand.counts, hand.joker_kind, hand.bits, tiles)
    best = min(shantens)
    at_best = [t for t, sh in zip(tiles, shantens, strict=True) if sh == best]
    uke, live = {}, {}
    if best > 0:
        uke = dict(zip(at_best, expert_ukeire(hand.counts, hand.joker_kind, hand.bits,
                                              info.unseen, at_best), strict=True))  # fmt: skip
    elif best == 0:
        lives = expert_waits(hand.counts, hand.joker_kind, hand.bits, info.unseen, at_best)[1]
        live = dict(zip(at_best, lives, strict=True))
    return {
        i: [1.0, min(sh - best, 3), float(sh == best), uke.get(t, 0) / 20, live.get(t, 0) / 8,
            info.danger(t) if info.threat > 0 else 0.0, conn / 8]
        for (i, t), sh, conn in zip(held, shantens, conns, strict=True)
    }  # fmt: skip


@pytest.mark.parametrize("variant", names())
def test_the_native_discard_features_equal_the_expert_calls(variant):
    """``_core.discard_features`` against the expert's three calls, over random play."""
    from mjcore.bots.learned import FEATURES

    names = ("discard", "step", "best", "ukeire", "live", "danger", "conn")
    columns = [FEATURES.index(c) for c in names]
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(6):
        game = get_variant(variant).new_game(seed=seed)
        while not game.is_over:
            seat = game.current if game.phase == "turn" else game.to_act()[0]
            legal = game.legal_actions(seat)
            want = _reference_discard_rows(game, seat, legal)
            got = action_features(game, seat, legal)
            for i, row in want.items():
                np.testing.assert_array_equal(got[i, columns], np.float32(row))
                checked += 1
            game.apply(seat, legal[int(rng.integers(len(legal)))])
    assert checked > 100


def test_the_legal_actions_scores_are_the_logit_plus_the_weighted_features():
    from mjcore._core import legal_logits

    rng = np.random.default_rng(9)
    n_actions, f = 12, len(FEATURES)
    z = rng.normal(size=n_actions + f).astype(np.float32)
    legal = np.array([3, 0, 11, 7], dtype=np.int64)
    feats = rng.random((len(legal), f)).astype(np.float32)
    out = np.full(len(legal), np.nan, dtype=np.float32)
    legal_logits(z, n_actions, legal, feats, out)
    np.testing.assert_allclose(out, z[legal] + feats @ z[n_actions:], rtol=1e-5, atol=1e-5)
    for bad in (np.array([3, 12], dtype=np.int64), np.array([-1, 0], dtype=np.int64)):
        kept = out.copy()
        with pytest.raises(ValueError, match="outside"):
            legal_logits(z, n_actions, bad, feats[:2], out[:2])
        np.testing.assert_array_equal(out, kept)
    with pytest.raises(ValueError, match="entries"):
        legal_logits(z, n_actions + 1, legal, feats, out)
