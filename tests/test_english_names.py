"""English pattern names (issue 37): every pattern of every variant has the English name players
use (清一色 "Full Flush"), never pinyin; ``mjcore hand -v``, ``mjcore score`` and the registry
the server sends show it beside the 中文 name."""

from __future__ import annotations

import re
from functools import cache

import pytest
from click.testing import CliRunner

from mjcore.cli import main
from mjcore.replay import pattern_list
from mjcore.scoring.context import pattern_table
from mjcore.variants import get_variant, names

# Pinyin syllables (toneless), built from initials and finals: a superset is fine, it only makes
# the check stricter (an English word that happens to be a syllable, "long", "men", is allowed
# as long as the name holds a word that is not pinyin at all).
INITIALS = "b p m f d t n l g k h j q x zh ch sh r z c s y w".split()
FINALS = (
    "a o e i u v ai ei ui ao ou iu ie ve er an en in un vn ang eng ing ong ia iao ian iang iong "
    "ua uo uai uan uang ue"
).split()


@cache
def syllables() -> frozenset[str]:
    alone = "a o e ai ei ao ou an en ang eng er".split()  # syllables with no initial
    return frozenset({i + f for i in INITIALS for f in FINALS} | set(alone))


def is_pinyin_word(word: str) -> bool:
    """``word`` splits wholly into pinyin syllables ("qingyise", "hu", "long")."""
    word = word.lower().replace("ü", "v")
    ok = [True] + [False] * len(word)
    for end in range(1, len(word) + 1):
        ok[end] = any(ok[s] and word[s:end] in syllables() for s in range(max(0, end - 6), end))
    return ok[len(word)]


def test_the_pinyin_detector_can_fail():
    assert is_pinyin_word("qingyise") and is_pinyin_word("Gangshanghua") and is_pinyin_word("hu")
    assert not is_pinyin_word("Flush") and not is_pinyin_word("Seven")
    assert not is_pinyin_word("Thirteen") and not is_pinyin_word("Orphans")


ALL = [(v, p) for v in names() for p in get_variant(v).patterns()]


@pytest.mark.parametrize(("variant", "pattern"), ALL, ids=[f"{v}-{p.id}" for v, p in ALL])
def test_every_pattern_has_an_english_name_that_is_not_pinyin(variant, pattern):
    english = pattern.english
    assert english and english.strip() == english, (variant, pattern.id)
    assert english.isascii() and not re.search(r"[\u3400-\u9fff]", english)
    words = re.findall(r"[A-Za-z]+", english)
    assert words and english[0].isupper(), english
    # at least one real English word: "Kong Bloom" passes (bloom), "Hun Yi Se" fails
    assert not all(is_pinyin_word(w) for w in words), f"{variant} {pattern.id}: {english!r}"
    assert english.lower().replace(" ", "") != pattern.id.replace("_", ""), english


def test_the_names_people_use():
    want = {
        ("qingdao", "qingyise"): "Full Flush",
        ("xuezhan_kaxinwu", "xiaoqidui"): "Seven Pairs",
        ("qingdao", "pengpenghu"): "All Triplets",
        ("xuezhan_kaxinwu", "daduizi"): "All Triplets",
        ("qingdao", "gangshanghua"): "Kong Bloom",
        ("xuezhan_kaxinwu", "qiangganghu"): "Robbing the Kong",
        ("rongcheng", "haidilao"): "Last Tile Draw",
        ("qingdao", "tianhu"): "Heavenly Hand",
        ("susong", "dihu"): "Earthly Hand",
        ("qingdao", "yitiaolong"): "Pure Straight",
        ("rongcheng", "shisanyao"): "Thirteen Orphans",
        ("susong", "hunyise"): "Half Flush",
    }
    for (variant, pid), english in want.items():
        assert get_variant(variant).pattern(pid).english == english


def test_a_table_without_an_english_name_raises_at_import():
    rows = [("pinghu", "平胡", 1, "points")]
    with pytest.raises(ValueError, match="English"):
        pattern_table(rows, {"pinghu": "a rule"}, {})
    (entry,) = pattern_table(rows, {"pinghu": "a rule"}, {"pinghu": "Chicken Hand"})
    assert entry.english == "Chicken Hand" and entry.name == "平胡"


def test_the_registry_the_server_sends_carries_the_english_name():
    for v in names():
        listed = {p["id"]: p["english"] for p in pattern_list(v)}
        assert listed == {p.id: p.english for p in get_variant(v).patterns()}


def test_mjcore_score_shows_the_english_name_beside_the_chinese():
    args = ["score", "-v", "qingdao", "11122233344455p", "-w", "5p", "--how", "self_draw"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    line = next(x for x in out.output.splitlines() if "qingyise" in x)
    assert "清一色" in line and "Full Flush" in line


def test_mjcore_hand_v_shows_the_english_name():
    out = CliRunner().invoke(main, ["hand", "1112345678999p", "-v", "qingdao"])
    assert out.exit_code == 0, out.output
    assert "清一色 Full Flush (qingyise)" in out.output
    assert "Pure Straight" in out.output  # 一条龙 on the 9-gate waits that make 123 456 789
