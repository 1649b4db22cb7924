"""Bots, the simulator, Match and the ``simulate`` command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from mjcore.bots import Bot, GreedyBot, RandomBot, make_bot, make_bots
from mjcore.engine.actions import Action
from mjcore.engine.match import Match
from mjcore.errors import IllegalActionError
from mjcore.sim import GameFailedError, SimStats, game_seeds, play_game, simulate
from mjcore.sim.cli import simulate_command
from mjcore.variants import get_variant

V = "xuezhan_kaxinwu"


def _play(game, bots, check_view_path: bool = False) -> int:
    """Drive a hand; every bot answer must be one of the legal actions."""
    steps = 0
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        act = bots[seat].act_fast(game, seat, legal)
        assert act in legal, (seat, act, legal)
        if check_view_path:
            twin = type(bots[seat])(np.random.default_rng(steps))
            also = twin.act(
                game.view(seat), [Action.parse(a) for a in game.view(seat)["legal_actions"]]
            )
            assert also in legal
        game.apply(seat, act)
        steps += 1
    return steps


@pytest.mark.parametrize("name", ["random", "greedy"])
@pytest.mark.parametrize("options", [None, {"three_suits": True, "must_gang": True}])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_only_return_legal_actions(name, options, players):
    v = get_variant(V)
    for i in range(8):
        game = v.new_game(players=players, options=options, seed=i)
        _play(game, make_bots(name, players, seeds=range(players)), check_view_path=i < 2)
        assert sum(game.scores) == 0


@pytest.mark.parametrize(
    "variant, options",
    [
        ("qingdao", None),
        ("qingdao", {"niupai": True}),
        ("rongcheng", None),
        ("rongcheng", {"no_honors": True}),
    ],
)
def test_declarations_come_last(variant, options):
    """Variant.filter_turn's contract, which RandomBot relies on (it looks for 听/扣听 at the
    end of the list only): no legal action follows a ``declare``; and a seat offered one
    declares (the bot never skips a declaration)."""
    v = get_variant(variant)
    offered = 0
    for i in range(40):  # (扣听 is offered on a seat's first discard only: rarely)
        game = v.new_game(options=options, seed=i)
        bots = make_bots("random", 4, seeds=range(4))
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            kinds = [a.kind for a in legal]
            if "declare" in kinds:
                offered += 1
                first = kinds.index("declare")
                assert set(kinds[first:]) == {"declare"}, legal
            act = bots[seat].act_fast(game, seat, legal)
            assert ("declare" in kinds) == (act.kind == "declare"), (legal, act)
            game.apply(seat, act)
    assert offered  # the seeds reach declarations


def test_view_path_matches_fast_path():
    """Greedy's server-facing act(view) decides like its act_fast (same rng state)."""
    v = get_variant(V)
    for i in range(5):
        game = v.new_game(seed=100 + i)
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            fast = GreedyBot(7).act_fast(game, seat, legal)
            slow = GreedyBot(7).act(game.view(seat), legal)
            assert fast == slow
            game.apply(seat, fast)


def test_bot_protocol_and_registry():
    assert isinstance(RandomBot(0), Bot) and isinstance(GreedyBot(0), Bot)
    assert isinstance(make_bot("greedy", np.random.default_rng(1)), GreedyBot)
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        make_bot("smart")
    with pytest.raises(ValueError, match="one per seat"):
        make_bots(["random", "greedy"], 4)


def test_greedy_takes_wins_and_neutral_choices():
    hu, pas = Action.parse("hu"), Action.parse("pass")
    view = {
        "seat": 0,
        "phase": "rob",
        "seats": [{"hand": "123456789p1122s"}],
        "claim": {"tile": "2s"},
    }
    assert GreedyBot(0).act(view, [hu, pas]) == hu
    choose = [
        Action.parse("choose piao 2"),
        Action.parse("choose piao 0"),
        Action.parse("choose piao 1"),
    ]
    view = {"seat": 0, "phase": "choose", "seats": [{"hand": "123456789p1122s"}]}
    assert GreedyBot(0).act(view, choose) == choose[1]


def test_greedy_discards_the_useless_tile():
    view = {
        "seat": 0,
        "phase": "turn",
        "variant": V,
        "seats": [{"hand": "123456789p1122s9s"}],
        "claim": None,
    }
    legal = [
        Action.parse(f"discard {t}")
        for t in ("1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s", "2s", "9s")
    ]
    assert str(GreedyBot(0).act(view, legal)) == "discard 9s"


def test_greedy_beats_random():
    g = simulate(V, 60, bots=["greedy", "random", "random", "random"], seed=1)
    assert g.score_mean()[0] > max(g.score_mean()[1:])
    assert g.win_rate[0] > max(g.win_rate[1:])


def test_simulate_is_deterministic_and_zero_sum():
    a = simulate(V, 40, seed=11)
    b = simulate(V, 40, seed=11)
    timing = {"seconds": 0, "cpu_seconds": 0, "hands_per_second": 0}
    assert a == b and a.to_dict() | timing == b.to_dict() | timing
    assert a != simulate(V, 40, seed=12)
    assert a.games == 40 and abs(sum(a.score_mean())) < 1e-9
    assert sum(a.wins_by_how.values()) == a.wins == sum(a.wins_by_seat)
    assert all(sum(h.values()) == 40 for h in a.score_hist)
    json.loads(a.to_json())
    assert "win-rate" in a.summary()


def test_workers_equal_one_worker():
    one = simulate(V, 48, seed=5, bots="random", options={"three_suits": True})
    two = simulate(V, 48, seed=5, bots="random", options={"three_suits": True}, workers=2)
    assert one == two


def test_merge_and_game_seeds():
    whole = simulate(V, 30, seed=3, players=3)
    wall, bots = game_seeds(3, 7, 3)
    assert len(bots) == 3 and wall == game_seeds(3, 7, 3)[0] != game_seeds(3, 8, 3)[0]
    game, _ = play_game(V, 7, players=3, seed=3)
    assert game.seed == wall and game.is_over
    parts = SimStats(V, 3)
    for i in range(30):
        g, n = play_game(V, i, players=3, seed=3)
        part = SimStats(V, 3)
        part.add_game(g, n)
        parts.merge(part)
    assert parts.games == whole.games and parts.score_hist == whole.score_hist
    assert parts.wins_by_pattern == whole.wins_by_pattern


def test_bad_arguments_fail_loudly():
    with pytest.raises(ValueError, match="unknown variant"):
        simulate("nope", 1)
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        simulate(V, 1, options={"bogus": 1})
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(V, 1, bots="clever")


def test_a_failing_game_propagates_with_its_seed(monkeypatch):
    def boom(self, game, seat, legal):
        raise RuntimeError("bot exploded")

    monkeypatch.setattr(GreedyBot, "act_fast", boom)
    with pytest.raises(
        GameFailedError, match=r"game 0 failed: RuntimeError: bot exploded(.|\n)*wall seed"
    ):
        simulate(V, 3, seed=9)


def test_cli_simulate_summary_and_json():
    runner = CliRunner()
    res = runner.invoke(simulate_command, ["--games", "12", "--seed", "2", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "12 hands" in res.stdout and "win-rate" in res.stdout
    res = runner.invoke(
        simulate_command,
        [
            "-n",
            "6",
            "--json",
            "-b",
            "random,greedy,random",
            "-p",
            "3",
            "-o",
            "three_suits=true",
            "-o",
            "gang_chain=compound",
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 6 and data["bots"] == ["random", "greedy", "random"]
    assert data["options"] == {"three_suits": True, "gang_chain": "compound"}
    res = runner.invoke(simulate_command, ["-n", "1", "-o", "bogus=1", "--no-progress"])
    assert res.exit_code == 2 and "unknown option 'bogus'" in res.output


def test_cli_group_has_simulate():
    from mjcore.cli import main

    res = CliRunner().invoke(main, ["simulate", "-n", "3", "--no-progress"])
    assert res.exit_code == 0, res.output


# ---- Match ---------------------------------------------------------------------------------
def _finish(game, bots):
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].act_fast(game, seat, game.legal_actions(seat)))


def test_match_rotates_dealer_and_accumulates():
    m = Match(V, seed=4)
    bots = make_bots("greedy", 4, seeds=range(4))
    totals = [0] * 4
    for _ in range(5):
        game = m.new_hand()
        assert game.dealer == (m.hands[-2].next_dealer if len(m.hands) > 1 else 0)
        with pytest.raises(IllegalActionError, match="not over"):
            m.new_hand()
        _finish(game, bots)
        totals = [a + b for a, b in zip(totals, game.scores, strict=False)]
    assert m.scores == totals and sum(m.scores) == 0 and len(m.dealers) == 5
    again = Match(V, seed=4)
    for _ in range(5):
        _finish(again.new_hand(), make_bots("greedy", 4, seeds=range(4)))
    assert [g.seed for g in again.hands] == [g.seed for g in m.hands]


def test_match_json_round_trip_mid_hand():
    m = Match(V, players=3, options={"three_suits": True}, seed=8, first_dealer=2)
    bots = make_bots("random", 3, seeds=range(3))
    _finish(m.new_hand(), bots)
    game = m.new_hand()
    for _ in range(10):
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].act_fast(game, seat, game.legal_actions(seat)))
    back = Match.from_json(m.to_json())
    assert back.to_json() == m.to_json() and back.scores == m.scores
    assert back.current.view(0) == game.view(0)
    assert m.hands[0].dealer == 2


def test_match_validates():
    with pytest.raises(ValueError, match="first_dealer"):
        Match(V, first_dealer=4)
    with pytest.raises(ValueError, match="seed"):
        Match(V, seed=-1)
    with pytest.raises(ValueError, match="unknown option"):
        Match(V, options={"nope": True})


def test_regression_after_win_zhigang_check_in_claim_window():
    """Random hand 26 of seed 0 offers a 直杠 to a seat that has won: the 血战 waits rule
    used to take 1 tile instead of 3 (phase is still "turn" while claims are filtered)."""
    game, _ = play_game(V, 26, bots="random", seed=0)
    assert game.is_over


def test_greedy_exposes_a_niu_group_that_costs_nothing():
    from scenario import scripted_game

    from mjcore.bots import GreedyBot

    g = scripted_game("qingdao", {0: "567z19m19p19s2468s"}, options={"niupai": True, "hun": False})
    for seat in range(4):
        g.apply(seat, "choose pao 0")
    action = GreedyBot(0).act_fast(g, 0, g.legal_actions(0))
    assert str(action) == "niu 567z"
