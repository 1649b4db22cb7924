"""The pattern registry (issue 23): ``variant.patterns()`` names every pattern a variant's
scoring can award, and ``variant.payment_reasons()`` every other part of a payment reason, in
中文 — so a table can show any ``hu`` or ``pay`` event in Chinese.

Random hands of every variant, with random room options, table sizes and walls cut in runs
(for 清一色, 七对, gangs …), each win taken when offered: every pattern id of every ``hu``
event is in the registry under the same name, and every part of every ``pay`` reason is named.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections import Counter
from typing import Any

import numpy as np
import pytest

from mjcore.scoring import Pattern, PayReason
from mjcore.scoring.context import PATTERN_KINDS
from mjcore.text import pattern_label, reason_label
from mjcore.variants import get_variant, names

GAMES = int(os.environ.get("MJCORE_PATTERN_GAMES", "1000"))  # random hands per variant
KEEN = ("hu", "declare", "niu", "gang", "peng")  # wins first, then what makes patterns
CJK = re.compile(r"[\u4e00-\u9fff]")


def chinese(text: str) -> bool:
    return bool(CJK.search(text))


def random_options(name: str, rng: np.random.Generator) -> dict[str, Any]:
    """Every room option of the variant, each drawn from its allowed values."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(get_variant(name).Options):
        values = (False, True) if isinstance(f.default, bool) else f.metadata["choices"]
        out[f.name] = values[int(rng.integers(len(values)))]
    return out


def clumped_wall(tile_set: list[int], rng: np.random.Generator, block: int) -> list[int]:
    """The sorted tile set in blocks of ``block`` tiles, the blocks shuffled."""
    ordered = sorted(tile_set)
    blocks = [ordered[i : i + block] for i in range(0, len(ordered), block)]
    return [t for i in rng.permutation(len(blocks)) for t in blocks[i]]


def play(name: str, i: int) -> tuple[list[dict[str, Any]], str]:
    """The events of one random hand (and a description of it for failure messages)."""
    rng = np.random.default_rng([i, 23, len(name)])
    v = get_variant(name)
    opts = random_options(name, rng)
    players = int(rng.integers(v.min_players, v.max_players + 1))
    block = (0, 3, 4, 6, 9)[i % 5]
    wall = clumped_wall(v.tile_kinds(v.parse_options(opts)), rng, block) if block else None
    game = v.new_game(players=players, options=opts, seed=i, wall=wall)
    eager = (0.5, 0.8, 0.95)[i % 3]
    for _ in range(3000):
        if game.is_over:
            break
        asked = game.to_act()
        seat = asked[int(rng.integers(len(asked)))]
        legal = game.legal_actions(seat)
        wins = [a for a in legal if a.kind == "hu"]
        keen = [a for a in legal if a.kind in KEEN]
        if wins:
            action = wins[0]
        elif keen and rng.random() < eager:
            action = keen[int(rng.integers(len(keen)))]
        else:
            action = legal[int(rng.integers(len(legal)))]
        game.apply(seat, action)
    return game.events, f"{name} hand {i} ({players} seats, {opts})"


@pytest.fixture(scope="module")
def seen() -> dict[str, tuple[Counter, Counter]]:
    """Per variant: pattern ids of the hu events and parts of the pay reasons met."""
    out = {}
    for name in names():
        v = get_variant(name)
        patterns: Counter = Counter()
        parts: Counter = Counter()
        for i in range(GAMES):
            events, where = play(name, i)
            for ev in events:
                if ev["type"] == "hu":
                    for p in ev["patterns"]:
                        entry = v.pattern(p["id"])
                        assert entry is not None, f"{where}: pattern {p['id']} not in registry"
                        assert p["name"] == entry.name, f"{where}: {p} vs registry {entry}"
                        patterns[p["id"]] += 1
                elif ev["type"] == "pay":
                    for part, zh in v.reason_parts(ev["reason"]):
                        assert zh is not None, f"{where}: reason {ev['reason']!r}: {part!r}?"
                        assert chinese(zh), f"{where}: {part} is named {zh!r}"
                        parts[part] += 1
        out[name] = (patterns, parts)
    return out


@pytest.mark.parametrize("name", names())
def test_every_emitted_pattern_and_reason_is_in_the_registry(name, seen):
    patterns, parts = seen[name]
    assert sum(patterns.values()) >= 20, f"{name}: too few wins to check ({patterns})"
    v = get_variant(name)
    # the reasons met beyond patterns: gang scores, 查叫, 跑, 陪杀 … all named by the registry
    others = {p.rstrip("0123456789") for p in parts if v.pattern(p) is None}
    assert others <= {r.id for r in v.payment_reasons()}


@pytest.mark.parametrize("name", names())
def test_the_registry_is_chinese_and_well_formed(name):
    v = get_variant(name)
    pats, reasons = v.patterns(), v.payment_reasons()
    assert pats and all(isinstance(p, Pattern) for p in pats)
    assert all(isinstance(r, PayReason) for r in reasons)
    ids = [p.id for p in pats] + [r.id for r in reasons]
    assert len(ids) == len(set(ids)), "a pattern id doubles as a payment reason"
    for entry in (*pats, *reasons):
        assert re.fullmatch(r"[a-z][a-z0-9_]*", entry.id), entry
        assert chinese(entry.name), entry
        assert entry.rule.strip(), entry
    for p in pats:
        assert p.kind in PATTERN_KINDS and isinstance(p.value, int), p
        assert v.pattern(p.id) is p
    assert v.pattern("no_such_pattern") is None


def test_registry_names_the_reasons_every_variant_pays():
    expected = {
        "xuezhan_kaxinwu": {"zhigang", "bugang", "angang", "chajiao"},
        "qingdao": {"zhigang", "bugang", "angang", "pao", "gang"},
        "lipu": {"zhigang", "bugang", "angang", "horses", "peisha", "quanbao"},
        "rongcheng": {"cap"},
        "susong": {"sanbi"},
    }
    assert set(expected) == set(names())
    for name, ids in expected.items():
        assert {r.id for r in get_variant(name).payment_reasons()} == ids, name


def test_reason_names():
    lipu = get_variant("lipu")
    assert lipu.reason_name("pinghu+zimo+horses2+peisha") == "平胡 + 自摸 + 中马2 + 陪杀"
    assert lipu.reason_parts("horses") == [("horses", None)]  # a counted part needs its count
    assert lipu.reason_parts("angang3") == [("angang3", None)]  # and only a counted one has it
    assert lipu.reason_parts("") == []
    assert get_variant("rongcheng").reason_name("pihu+mobao+piao+gang+cap") == (
        "屁胡 + 摸宝 + 飘 + 杠分 + 封顶"
    )
    assert get_variant("qingdao").reason_name("pihu+pao+gang") == "屁胡 + 跑 + 杠分"
    assert get_variant("xuezhan_kaxinwu").reason_name("chajiao") == "查叫"
    assert get_variant("susong").reason_name("sanbi") == "三比"
    assert get_variant("susong").reason_name("pinghu+what") == "平胡 + what"
    assert reason_label("qingdao", "pihu+pao") == "屁胡 + 跑"
    assert reason_label("no_such_variant", "pihu+pao") == "pihu+pao"


def test_pattern_labels():
    assert pattern_label("xuezhan_kaxinwu", "pinghu") == "平胡 Chicken Hand (pinghu)"
    assert pattern_label("qingdao", "qingyise") == "清一色 Full Flush (qingyise)"
    assert pattern_label("xuezhan_kaxinwu", "nope") == "nope"
    assert pattern_label("no_such_variant", "pinghu") == "pinghu"
