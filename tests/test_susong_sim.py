"""宿松 with bots and the simulator: flowers in bot play, the 飘/增 bot rule, tier and 花奖
frequencies in ``simulate`` and the ``mjcore simulate --variant susong`` command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from mjcore.bots import GreedyBot, make_bots
from mjcore.engine.actions import Action
from mjcore.sim import simulate
from mjcore.sim.cli import simulate_command
from mjcore.variants import get_variant

V = get_variant("susong")
PIAO = {"piaohua": True, "chuzeng": 1}


@pytest.mark.parametrize("bots", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_legal_actions_with_flowers(bots, players):
    kept = 0
    for i in range(6):
        game = V.new_game(players=players, options=PIAO, seed=i)
        seat_bots = make_bots(bots, players, seeds=range(players))
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            act = seat_bots[seat].act_fast(game, seat, legal)
            assert act in legal
            kept += bool(game.seats[seat].held_flowers)
            game.apply(seat, act)
        assert sum(game.scores) == 0
    assert kept  # some seat played 飘 with a flower in hand


def test_greedy_view_path_matches_fast_path():
    for i in range(4):
        game = V.new_game(options=PIAO, seed=200 + i)
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            fast = GreedyBot(7).act_fast(game, seat, legal)
            slow = GreedyBot(7).act(game.view(seat), legal)
            assert fast == slow
            game.apply(seat, fast)


def test_greedy_piao_rule_follows_the_dealt_flowers():
    seen = set()
    for seed in range(30):
        game = V.new_game(options={"piaohua": True}, seed=seed)
        while game.phase == "choose":
            (seat,) = game.to_act()
            dealt_flowers = bool(game.seats[seat].held_flowers)
            act = GreedyBot(0).act_fast(game, seat, game.legal_actions(seat))
            assert act == Action("choose", name="piao", value=int(not dealt_flowers))
            seen.add(act.value)
            game.apply(seat, act)
    assert seen == {0, 1}
    game = V.new_game(options={"chuzeng": 5}, seed=1)
    assert GreedyBot(0).act_fast(game, 0, game.legal_actions(0)).value == 0  # 增 0


def test_simulate_reports_tiers_and_flower_bonus():
    stats = simulate("susong", 60, bots="greedy", seed=3, options={"piaohua": True})
    counts = stats.hand_counters
    tiers = sum(v for k, v in counts.items() if k.startswith("tier "))
    bonus = sum(v for k, v in counts.items() if k.startswith("huajiang "))
    assert tiers == bonus == stats.wins > 0
    assert counts["piao seats"] > 0
    assert "variant counters (per hand): " in stats.summary()
    again = simulate("susong", 60, bots="greedy", seed=3, options={"piaohua": True}, workers=1)
    assert again.hand_counters == counts and again.score_hist == stats.score_hist


def test_simulate_command():
    out = CliRunner().invoke(
        simulate_command,
        ["--variant", "susong", "-n", "12", "--json", "--no-progress", "-o", "chuzeng=2"],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["variant"] == "susong" and data["games"] == 12
    assert sum(v for k, v in data["hand_counters"].items() if k.startswith("tier ")) == data["wins"]


def test_random_options_and_player_counts_conserve_flowers():
    from collections import Counter

    rng = np.random.default_rng(9)
    for seed in range(12):
        players = int(rng.integers(2, 5))
        opts = {
            "piaohua": bool(rng.integers(2)),
            "chuzeng": int(rng.choice([0, 1, 2, 5])),
            "flower_bonus_stack": bool(rng.integers(2)),
        }
        game = V.new_game(players=players, options=opts, seed=seed)
        full = Counter(V.tile_kinds(game.opts))
        bots = make_bots("random", players, seeds=range(players))
        while not game.is_over:
            seat = game.to_act()[0]
            game.apply(seat, bots[seat].act_fast(game, seat, game.legal_actions(seat)))
            assert game.tiles_in_play() == full
        flowers = sum(len(s.flowers) + len(s.held_flowers) for s in game.seats)
        flowers += sum(1 for s in game.seats for t in s.discards if game.is_flower[t])
        assert flowers == sum(n for k, n in full.items() if game.is_flower[k]) - sum(
            1 for t in game.wall.tiles[game.wall.head : game.wall.tail] if game.is_flower[t]
        )


def test_match_dealer_rotation():
    """Winner deals next (一炮多响: the first winner after the discarder); 流局: dealer stays."""
    from mjcore.engine.match import Match

    match = Match("susong", players=4, options={"piaohua": True}, seed=11, first_dealer=2)
    outcomes = set()
    for _ in range(12):
        game = match.new_hand()
        bots = make_bots("greedy", 4, seeds=range(4))
        while not game.is_over:
            seat = game.to_act()[0]
            game.apply(seat, bots[seat].act_fast(game, seat, game.legal_actions(seat)))
        expected = game.wins[0].seat if game.wins else game.dealer
        if len(game.wins) > 1:
            order = game.others(game.wins[0].from_seat)
            expected = min((w.seat for w in game.wins), key=order.index)
        assert game.next_dealer == expected
        outcomes.add("win" if game.wins else "draw")
    assert match.dealers[0] == 2
    assert match.dealers[1:] == [g.next_dealer for g in match.hands[:-1]]
    assert sum(match.scores) == 0
