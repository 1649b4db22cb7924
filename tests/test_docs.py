"""The documentation in docs/ checked against the code.

The Python examples of docs/vocabulary.md run as doctests (outputs compared), the
``mjcore score`` examples of docs/rules/*.md run through the CLI, and the vocabulary the
code uses — room options, event types, view fields, phases, action kinds, saved-game keys,
calculator fields, exception classes, the readings the variant modules cite — must each be
named in the docs. Event types and view fields are collected by playing seeded random games
of every registered variant under each option setting, so a new event or field fails here
until it is documented.
"""

from __future__ import annotations

import dataclasses
import doctest
import re
import shlex
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from scenario import drive, scripted_game

import mjcore.errors as E
from mjcore.cli import main
from mjcore.engine.actions import KINDS
from mjcore.engine.saved import _SAVE_KEYS, SAVE_FORMAT
from mjcore.scoring.context import _FIELDS
from mjcore.variants import get_variant, names

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
VOCAB = DOCS / "vocabulary.md"
REQUIRED = ("xuezhan_kaxinwu", "qingdao")  # rules files that must exist now
SEEDS = (0, 1, 2)


def rules_file(variant: str) -> Path:
    return DOCS / "rules" / f"{variant}.md"


def read(path: Path) -> str:
    """A file's text, or "" if it does not exist (yet)."""
    return path.read_text(encoding="utf-8") if path.exists() else ""


def module_source(variant: str) -> str:
    """The source of the module defining the variant (where its rules live)."""
    module = get_variant(variant).__class__.__module__.replace(".", "/") + ".py"
    return read(ROOT / module)


# game.log(...), and the engine's schema(...) and EventLog.adopt(...)
LOGGED = re.compile(r'\b(?:log|schema|adopt)\(\s*"(\w+)"')
SCORE_EXAMPLE = re.compile(r"^\$ (mjcore score .*)\n((?:[^$].*\n?)*)", re.M)


def variants() -> list[str]:
    """The variants shipped in mjcore/variants (not ones other tests register)."""
    return [v for v in names() if type(get_variant(v)).__module__.startswith("mjcore.variants.")]


def documented_variants() -> list[str]:
    return [v for v in variants() if rules_file(v).exists()]


def section(text: str, heading: str) -> str:
    """The markdown section starting at the ``## heading`` line (up to the next ``## ``)."""
    start = text.index(f"\n## {heading}")
    end = text.find("\n## ", start + 4)
    return text[start : end if end >= 0 else len(text)]


def first_column(text: str) -> set[str]:
    """First words of the back-quoted first cells of a markdown table: ``| `word …` |``."""
    return {m.split()[0] for m in re.findall(r"^\| `([^`]+)`", text, re.M)}


def code_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.M | re.S)


# ---- random games: what the engine actually logs and shows -----------------------------
def option_settings(variant: str) -> list[dict]:
    """Default options, then each option set to each of its other values once."""
    out: list[dict] = [{}]
    for f in dataclasses.fields(get_variant(variant).Options):
        values = f.metadata.get("choices") or ((True, False) if isinstance(f.default, bool) else ())
        out += [{f.name: v} for v in values if v != f.default]
    return out


def pick(legal: tuple, rng: np.random.Generator):
    """Win, declare and expose whenever offered (so those events occur), else at random."""
    eager = [a for a in legal if a.kind in ("hu", "declare", "niu")]
    return eager[0] if eager else legal[int(rng.integers(len(legal)))]


@pytest.fixture(scope="module")
def observed() -> dict:
    """Event types, view keys, seat keys, public keys and phases seen per variant."""
    seen: dict = defaultdict(lambda: defaultdict(set))
    for variant in variants():
        v, s = get_variant(variant), seen[variant]
        for options in option_settings(variant):
            for seed in SEEDS:
                game = v.new_game(options=options, seed=seed)
                rng = np.random.default_rng(seed)
                while True:
                    for seat in range(game.n):
                        view = game.view(seat)
                        s["view"] |= set(view)
                        s["public"] |= set(view["public"])
                        s["phase"].add(view["phase"])
                        for entry in view["seats"]:
                            s["seat"] |= set(entry)
                    if game.is_over:
                        break
                    seat = game.to_act()[0]
                    game.apply(seat, pick(game.legal_actions(seat), rng))
                s["event"] |= {ev["type"] for ev in game.events}
                for ev in game.events:
                    s["fields " + ev["type"]].add(tuple(k for k in ev if k not in ("type", "seq")))
    return seen


def documented_fields(row: str) -> list[str]:
    """The field names of an Events table cell: the leading `name` of each comma-separated item
    (what parentheses say about a field is not a field)."""
    depth, flat = 0, []
    for ch in row:
        depth += ch == "("
        flat.append(ch if depth == 0 else "")
        depth -= ch == ")" and depth > 0
    return [
        m.group(1)
        for m in (re.match(r"\s*`(\w+)`", item) for item in "".join(flat).split(","))
        if m
    ]


def event_table() -> dict[str, list[str]]:
    """Event type -> its documented fields, from docs/vocabulary.md's Events table."""
    rows = re.findall(r"^\| `(\w+)` \| ([^|]*) \|", section(read(VOCAB), "Events"), re.M)
    return {kind: documented_fields(cell) for kind, cell in rows}


def test_required_rules_files_exist_and_are_indexed():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for variant in REQUIRED:
        assert rules_file(variant).exists(), f"docs/rules/{variant}.md is missing"
    for variant in variants():
        assert f"rules/{variant}.md" in index, f"docs/README.md does not list {variant}"


def test_every_room_option_is_documented():
    for variant in documented_variants():
        text = rules_file(variant).read_text(encoding="utf-8")
        for f in dataclasses.fields(get_variant(variant).Options):
            assert f"`{f.name}`" in text, f"option {f.name} of {variant} is not documented"


@pytest.mark.parametrize("variant", REQUIRED)
def test_option_tables_give_the_real_defaults(variant):
    table = section(rules_file(variant).read_text(encoding="utf-8"), "Room options")
    for f in dataclasses.fields(get_variant(variant).Options):
        default = {True: "true", False: "false"}.get(f.default, f'"{f.default}"')
        row = rf"^\| `{f.name}` \| `{re.escape(default)}` \|"
        assert re.search(row, table, re.M), f"{variant}: no row '{f.name} | {default}'"


def test_every_logged_event_type_is_documented(observed):
    events = first_column(section(VOCAB.read_text(encoding="utf-8"), "Events"))
    engine_types = set(LOGGED.findall("".join(map(read, (ROOT / "mjcore/engine").glob("*.py")))))
    assert {"deal", "draw", "discard", "hu", "pay", "end"} <= engine_types
    assert engine_types - events == set(), "engine events missing from docs/vocabulary.md"
    for variant in variants():
        types = observed[variant]["event"] | set(LOGGED.findall(module_source(variant)))
        assert {"deal", "discard", "end"} <= types  # the games were played
        own = read(rules_file(variant))
        missing = {t for t in types - events if f"`{t}`" not in own}
        assert not missing, f"{variant} logs undocumented event types {sorted(missing)}"


def test_every_event_has_exactly_its_documented_fields_in_every_variant(observed):
    """One wire format: an event type has the same fields, in the documented order, in every
    variant and every game (so a client never special-cases a variant)."""
    table = event_table()
    assert {"deal", "indicator", "flower", "claim", "hu", "bao"} <= set(table)
    for variant in variants():
        for key, shapes in observed[variant].items():
            if key.startswith("fields "):
                kind = key.split()[1]
                assert shapes == {tuple(table[kind])}, f"{variant} {kind}: {sorted(shapes)}"


def test_vocabulary_runs_under_plain_doctest(tmp_path):
    """``python -m doctest docs/vocabulary.md`` passes as it is (a fence is not output)."""
    run = subprocess.run(
        [sys.executable, "-m", "doctest", str(VOCAB)], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


def test_every_view_field_is_documented(observed):
    text = section(VOCAB.read_text(encoding="utf-8"), "The view")
    documented = first_column(text)
    for variant in variants():
        seen = observed[variant]
        assert {"phase", "to_act", "seats"} <= seen["view"] and "hand" in seen["seat"]
        missing = (seen["view"] | seen["seat"]) - documented
        assert not missing, f"{variant}: view fields {sorted(missing)} not in docs/vocabulary.md"
    for variant in documented_variants():
        own = rules_file(variant).read_text(encoding="utf-8")
        missing = {k for k in observed[variant]["public"] if not re.search(rf"\b{k}\b", own)}
        assert not missing, f"{variant}: public_state keys {sorted(missing)} not documented"


def test_every_phase_is_documented(observed):
    phases = first_column(section(VOCAB.read_text(encoding="utf-8"), "Phases"))
    seen = set().union(*(observed[v]["phase"] for v in variants()))
    assert {"turn", "claim", "waiting", "over"} <= seen
    assert seen | {"deal", "choose", "rob", "fenzhang"} <= phases


def test_actions_saved_form_calculator_and_errors_are_documented():
    text = VOCAB.read_text(encoding="utf-8")
    assert set(KINDS) <= first_column(section(text, "Actions"))
    saved = section(text, "Saved games")
    assert set(_SAVE_KEYS) <= first_column(saved) and f"`{SAVE_FORMAT}`" in saved
    assert set(_FIELDS) <= set(re.findall(r"`(\w+)`", section(text, "The hand calculator")))
    errors = first_column(section(text, "Exceptions"))
    classes = {c.__name__ for c in E.MjcoreError.__subclasses__()} | {"MjcoreError"}
    assert classes <= errors, f"exception classes not documented: {sorted(classes - errors)}"


def test_vocabulary_examples_run_and_print_what_they_show():
    blocks = code_blocks(VOCAB.read_text(encoding="utf-8"), "python")
    assert len(blocks) >= 5
    test = doctest.DocTestParser().get_doctest(
        "\n".join(blocks), {}, "docs/vocabulary.md", str(VOCAB), 0
    )
    assert len(test.examples) >= 40
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def score_examples() -> list[tuple[str, str, str]]:
    """(file, command, expected output) of each ``$ mjcore score …`` console example."""
    out = []
    for path in sorted((DOCS / "rules").glob("*.md")):
        for block in code_blocks(path.read_text(encoding="utf-8"), "console"):
            for cmd, expected in SCORE_EXAMPLE.findall(block):
                out.append((path.name, cmd, expected))
    return out


def test_required_rules_files_have_score_examples():
    files = {f for f, _, _ in score_examples()}
    assert {f"{v}.md" for v in REQUIRED} <= files


@pytest.mark.parametrize("name,cmd,expected", score_examples())
def test_rules_score_examples_match_the_cli(name, cmd, expected):
    result = CliRunner().invoke(main, shlex.split(cmd)[1:])
    assert result.exit_code == 0, result.output
    got = [line.rstrip() for line in result.output.strip().splitlines()]
    assert got == [line.rstrip() for line in expected.strip().splitlines()], f"{name}: {cmd}"


def test_cited_readings_are_explained():
    """Each [DEC id] a variant module cites is explained in its rules file.

    The required files list them as table rows (``| X6 | …``); others at least name the id.
    """
    for variant in documented_variants():
        tags = re.findall(r"\[DEC ([^\]]+)\]", module_source(variant))
        cited = {
            i for tag in tags for i in re.split(r"[,/\s]+", tag) if re.fullmatch(r"[A-Z]+\d+", i)
        }
        text = read(rules_file(variant))
        form = r"^\| {} \|" if variant in REQUIRED else r"\b{}\b"
        missing = {i for i in cited if not re.search(form.format(i), text, re.M)}
        assert not missing, f"{variant}: readings {sorted(missing)} cited in code, not in its docs"
    assert "X9" in {*re.findall(r"\[DEC (X\d+)", module_source("xuezhan_kaxinwu"))}


def test_docs_never_point_outside_the_repository():
    for path in [ROOT / "README.md", *DOCS.rglob("*.md")]:
        text = path.read_text(encoding="utf-8")
        for outside in ("../shared", "/work/", "RULES.md", "seeds/"):
            assert outside not in text, f"{path.relative_to(ROOT)} points outside: {outside}"


def test_qingdao_worked_example_pays_as_documented():
    """docs/rules/qingdao.md: E 扣听 self-draws 清一色 七对 (8) with 跑 E1 S0 W2 N0."""
    text = read(rules_file("qingdao"))
    assert "South 9, West 11, North 9 — East +29" in text
    hands = {0: "1122335566779p1z"}  # ready on 9p after discarding 1z
    game = scripted_game("qingdao", hands, draws="1m2m3m9p", options={"hun": False})
    for seat, pao in enumerate((1, 0, 2, 0)):
        game.apply(seat, f"choose pao {pao}")
    drive(game, [(0, "declare kouting"), (0, "discard 1z")])
    drive(game, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "hu")])
    assert [(w.breakdown.points, w.how) for w in game.wins] == [(8, "self_draw")]
    assert game.scores == [29, -9, -11, -9]
