"""Rules: one variant under one option set for N seats, resolved once and handed down (issue 33)."""

from __future__ import annotations

import dataclasses
import pickle
from collections import Counter

import numpy as np
import pytest

import mjcore
import mjcore.bots  # (mjcore.bots.make_bot below: the package is not imported by mjcore)
from mjcore.engine.match import Match
from mjcore.engine.rules import Rules
from mjcore.engine.variant import Variant
from mjcore.errors import InvalidOptionError
from mjcore.rl import action_table, table_for

OPTIONS = {
    "xuezhan_kaxinwu": {"three_suits": True},
    "lipu": {"zuoma": True, "zhuama": 2},
    "susong": {"piaohua": True, "chuzeng": 1},
    "qingdao": {"niupai": True, "pair258": True},
    "rongcheng": {"luanzhang": True},
}


@pytest.mark.parametrize("name", mjcore.names())
def test_one_shared_frozen_hashable_rules_per_option_set(name):
    v = mjcore.get_variant(name)
    rules = v.rules(OPTIONS[name], 3)
    assert v.rules(dict(OPTIONS[name]), 3) is rules  # cached per distinct option set
    assert v.rules(rules.opts, 3) is rules  # parsed options are taken as they are
    assert v.rules(OPTIONS[name], 4) is not rules and v.rules(None, 3) is not rules
    assert rules == pickle.loads(pickle.dumps(rules))
    assert hash(rules) == hash(pickle.loads(pickle.dumps(rules)))
    assert len({rules, v.rules(OPTIONS[name], 3), v.rules(None, 3)}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 2  # type: ignore[misc]
    # the defaults (looked up without hashing the options) are the same shared Rules
    assert v.rules() is v.rules(None, 4) is v.rules({}, 4) is v.rules(v.parse_options(None))
    assert v.rules(None, 3) is v.rules({}, 3) is v.rules(None, np.int64(3))
    for bad in (3.0, True, "3"):
        with pytest.raises(InvalidOptionError):
            v.rules(None, bad)
    assert rules.to_dict() == {
        "variant": name,
        "players": 3,
        "options": {**v.parse_options(None).to_dict(), **OPTIONS[name]},
    }


def test_the_newest_option_sets_stay_shared_when_many_were_asked():
    """Past the cache's size the oldest option set is dropped, never the one just asked for
    (nor the defaults)."""
    v = mjcore.get_variant("qingdao")
    flags = [f.name for f in dataclasses.fields(v.Options) if isinstance(f.default, bool)]
    default = v.rules()
    for i in range(1100):  # 10 flags x 3 player counts: more option sets than the cache keeps
        options = {name: bool(i >> bit & 1) for bit, name in enumerate(flags)}
        first = v.rules(options, 2 + i % 3)
        assert v.rules(dict(options), 2 + i % 3) is first
    assert v.rules() is default is v.rules({}) is v.rules(v.parse_options(None), 4)


FILTERS = {"filter_turn", "filter_claims"}
HOOKS = (
    *("after_deal", "hand_choices", "after_choices", "before_turn", "replace_flowers"),
    *(*FILTERS, "after_claim"),
)
OWN_HOOKS = {
    "xuezhan_kaxinwu": FILTERS | {"after_claim"},  # after a win; 有杠必杠; a declined 直杠
    "lipu": {"hand_choices", "after_claim"},  # 坐马; 捞杠 off; 三比
    # 飘, 增; a 飘 seat keeps its flowers, and its turns and claims are filtered
    "susong": {"hand_choices", "replace_flowers"} | FILTERS,
    "qingdao": {"after_deal", "hand_choices"} | FILTERS,  # the 混 indicator; 跑; 扣听, 扭
    "rongcheng": {"hand_choices", "before_turn"} | FILTERS,  # 飘; the 宝 revealed on a turn
}


@pytest.mark.parametrize("name", mjcore.names())
def test_the_facts_are_the_variant_hooks_answers(name):
    v = mjcore.get_variant(name)
    rules = v.rules(OPTIONS[name])
    opts = rules.opts
    assert Counter(rules.tile_set) == Counter(v.tile_kinds(opts))
    assert [rules.copies[t] for t in range(42)] == [
        Counter(v.tile_kinds(opts))[t] for t in range(42)
    ]
    assert rules.flowers == v.flower_kinds(opts)
    assert rules.is_flower == tuple(t in v.flower_kinds(opts) for t in range(42))
    assert dict(rules.shape_flags) == v.shape_flags(opts)
    assert rules.kept_back == v.kept_back(opts)
    assert rules.fenzhang == v.fenzhang(opts)
    assert rules.gang_limit == v.gang_limit(opts)
    assert rules.multi_win == v.multi_win(opts)
    assert rules.chi == v.chi_allowed(opts)
    assert rules.loss_cap == v.loss_cap(opts)
    assert rules.post_win_draws == v.post_win_draws(opts)
    assert rules.meld_kinds == v.meld_kinds(opts)
    assert rules.max_jokers == v.max_jokers(opts)
    for low in range(27):  # 吃后不能打: the kinds each chow bans, as bitmasks
        for tile in range(low, low + 3):
            banned = rules.chi_bans[3 * low + tile - low]
            if low % 9 > 6:
                assert banned == 0  # (no such chow)
                continue
            chow = (low, low + 1, low + 2)
            assert {t for t in range(34) if banned >> t & 1} == v.no_discard_after_chi(
                opts, chow, tile
            )
    # the game's set-up and turn hooks the engine asks: only those the variant has its own of
    assert rules.own_hooks == OWN_HOOKS[name]
    for hook in HOOKS:
        assert (hook in rules.own_hooks) == (getattr(type(v), hook) is not getattr(Variant, hook))


def test_flowers_are_replaced_without_asking_when_no_seat_may_keep_them():
    """宿松 without 飘花: nobody can be 飘, so the engine does not ask replace_flowers (and
    the hook would say yes for every seat) nor filter_turn (it would change no turn); with
    飘花 it asks both."""
    v = mjcore.get_variant("susong")
    assert not {"replace_flowers", "filter_turn"} & v.rules().own_hooks
    assert {"replace_flowers", "filter_turn"} <= v.rules({"piaohua": True}).own_hooks
    for seed in range(10):
        game = v.new_game(seed=seed)
        assert all(v.replace_flowers(game, s) for s in range(4))
        assert not any(st.held_flowers for st in game.seats)  # every dealt flower replaced


@pytest.mark.parametrize("name", mjcore.names())
def test_choices_are_asked_only_when_the_table_offers_one(name):
    """Under options that switch every per-hand choice off (the defaults of 荔浦 and 宿松) the
    engine does not ask hand_choices: asking finds none for any seat, and a hand starts as it
    did when every seat was asked."""
    v = mjcore.get_variant(name)
    rules = v.rules()
    offers = any(a.kind == "choose" for a in rules.variant_actions)
    assert ("hand_choices" in rules.own_hooks) == (
        offers and type(v).hand_choices is not Variant.hand_choices
    )
    for seed in range(20):
        game = rules.new_game(seed=seed, dealer=seed % 4)
        asked = [v.hand_choices(game, s) for s in range(4)]
        if not offers:
            assert asked == [[]] * 4 and game.phase == "turn"
        else:
            assert game.phase == "choose" and game.pending


@pytest.mark.parametrize("name", mjcore.names())
def test_a_game_of_rules_is_the_game_of_name_and_options(name):
    v = mjcore.get_variant(name)
    rules = v.rules(OPTIONS[name], 4)
    a = rules.new_game(seed=5, dealer=1)
    b = mjcore.Game(v, 4, dict(OPTIONS[name]), seed=5, dealer=1)
    assert a.rules is b.rules is rules
    assert a.to_dict() == b.to_dict()
    assert mjcore.Game.from_json(a.to_json()).rules is rules
    m1, m2 = Match(rules, seed=3), Match(name, 4, OPTIONS[name], seed=3)
    assert m1.new_hand().to_dict() == m2.new_hand().to_dict()
    assert m1.rules is m2.rules is rules


def test_rules_refuse_a_second_set_of_options():
    rules = mjcore.get_variant("lipu").rules({"zuoma": True}, 3)
    with pytest.raises(InvalidOptionError, match="takes its players and options"):
        mjcore.Game(rules, options={"zuoma": False})
    with pytest.raises(InvalidOptionError, match="takes its players and options"):
        Match(rules, players=2)
    with pytest.raises(InvalidOptionError, match="players must be 2..4"):
        mjcore.get_variant("lipu").rules(None, 5)
    with pytest.raises(InvalidOptionError, match="unknown option"):
        mjcore.get_variant("lipu").rules({"nope": 1})


@pytest.mark.parametrize("name", mjcore.names())
def test_the_action_table_is_the_rules_and_covers_every_legal_action(name):
    rules = mjcore.get_variant(name).rules(OPTIONS[name])
    table = rules.actions
    assert rules.actions is table and table_for(name, OPTIONS[name]) is table
    assert action_table(rules) == table.texts == action_table(name, OPTIONS[name])
    assert len(set(table.texts)) == len(table)
    game = rules.new_game(seed=11)
    bot = mjcore.bots.make_bot("random", seed=1)
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        for a in legal:
            assert table.decode(table.encode(a)) == a
        game.apply(seat, bot.act_fast(game, seat, legal))


def test_a_view_and_a_room_carry_the_rules():
    from mjcore.server.config import config_from_request

    config = config_from_request(
        {
            "variant": "rongcheng",
            "players": 3,
            "options": {"luanzhang": True},
            "seats": ["human", "greedy", "greedy"],
        }  # fmt: skip
    )
    rules = mjcore.get_variant("rongcheng").rules({"luanzhang": True}, 3)
    assert config.rules is rules
    assert config.options == rules.options
    view = rules.new_game(seed=1).view(0)
    assert view["options"] == rules.options
    assert isinstance(rules, Rules)


# Variant.plain_turns_filtered / plain_claims_filtered narrow where the engine asks a variant's
# own filter_turn / filter_claims: each option set here reaches the hook's every branch.
PLAIN_FILTER_OPTIONS = [  # (variant, options, Rules.plain_turns_filtered, plain_claims_filtered)
    ("xuezhan_kaxinwu", None, "never", False),  # a seat that has won
    ("xuezhan_kaxinwu", {"must_gang": True}, "never", False),  # 有杠必杠
    ("susong", None, "never", False),  # no 飘: a chi that leaves no discard is never offered
    ("susong", {"piaohua": True}, "never", True),  # 飘
    ("qingdao", None, "first", True),  # 扣听 on a seat's first discard, a 扣听 hand locked
    ("qingdao", {"niupai": True}, "always", True),  # 调牌 on every turn
    ("rongcheng", None, "always", False),  # 报听 on any turn; a declared hand's claims
]


def _random_hands(variant, options, seeds):
    """The events and scores of seeded random hands (every seat a RandomBot)."""
    from mjcore.bots.random_bot import RandomBot

    rules = variant.rules(options)
    out = []
    for seed in seeds:
        game = rules.new_game(seed=seed)
        bots = [RandomBot(seed * 4 + s) for s in range(rules.players)]
        while not game.is_over:
            s = game.to_act()[0]
            game.apply(s, bots[s].act_fast(game, s, game.legal_actions(s)))
        out.append((game.events, game.scores))
    return out


@pytest.mark.parametrize(("name", "options", "turns", "claims"), PLAIN_FILTER_OPTIONS)
def test_plain_turns_and_claims_are_skipped_only_where_the_filters_change_nothing(
    name, options, turns, claims
):
    """The same hands as a variant whose filters are asked on every turn and claim."""
    base = mjcore.get_variant(name)

    class AskedAlways(type(base)):  # type: ignore[misc, valid-type]
        def plain_turns_filtered(self, opts):
            return "always"

        def plain_claims_filtered(self, opts):
            return True

    asked = AskedAlways()
    rules = base.rules(options)
    every = asked.rules(options)  # (a filter the options switch off stays off: own_hooks)
    assert every.plain_turns_filtered == ("always" if "filter_turn" in every.own_hooks else "never")
    assert every.plain_claims_filtered
    assert (rules.plain_turns_filtered, rules.plain_claims_filtered) == (turns, claims)
    seeds = range(60)
    assert _random_hands(base, options, seeds) == _random_hands(asked, options, seeds)


def test_a_plain_turns_answer_outside_the_three_is_refused():
    class Odd(type(mjcore.get_variant("qingdao"))):  # type: ignore[misc]
        def plain_turns_filtered(self, opts):
            return "sometimes"

    with pytest.raises(ValueError, match="plain_turns_filtered must be one of"):
        Odd().rules()
    # without an own filter_turn the answer is not asked: "never"
    assert mjcore.get_variant("lipu").rules().plain_turns_filtered == "never"
