"""The ``mjcore`` command line: ``mjcore hand TILES`` (and further subcommands).

Add a subcommand with ``@main.command()`` below, or define it next to its
subsystem and register it in ``_register_subcommands`` (as ``simulate`` is).
Keep each command's logic in a small function that returns plain data, so
``--json`` and the text output share it.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from . import hand as _hand
from . import tiles as _tiles
from .cli_options import parse_option
from .errors import InvalidHandError, MjcoreError
from .text import pad, pattern_label, table


@click.group()
@click.version_option(package_name="mjcore")
def main() -> None:
    """mjcore: Chinese regional mahjong tools."""


def _tile_info(kind: int, counts: Any) -> dict[str, Any]:
    return {
        "tile": _tiles.format([kind]),
        "kind": kind,
        "name": _tiles.name(kind),
        "unseen": 4 - int(counts[kind]),
    }


def _group_text(g: _hand.Group) -> str:
    """A group as text; each joker is a ``*`` and the tiles the jokers stand for follow:
    ``23m(*=1m)``, ``5p(**=46p)``. A group of jokers only (any set or pair) is ``***``."""
    if g.kind < 0:
        return "*" * len(g.tiles)
    text = _tiles.format(list(g.natural)) if g.natural else ""
    if not g.jokers:
        return text
    return f"{text}({'*' * g.jokers}={_tiles.format(sorted(g.wild))})"


MAX_READINGS = 12
"""Readings ``mjcore hand`` lists by default (a hand with jokers can have hundreds)."""


def analyze_hand(
    text: str, jokers: int, forms: dict[str, bool], max_readings: int = MAX_READINGS
) -> dict[str, Any]:
    """Everything ``mjcore hand`` shows, as plain data (also the ``--json`` output).

    At most ``max_readings`` readings are listed; ``readings_total`` counts them all.
    """
    kinds = _tiles.to_kinds(text)
    flowers = [k for k in kinds if k >= _tiles.N_KINDS]
    if flowers:
        raise InvalidHandError(
            f"tiles: {_tiles.NOTATION[flowers[0]]} ({_tiles.name(flowers[0])}) is a flower: "
            "flowers are set aside, never part of a hand"
        )
    counts = _tiles.counts(kinds)
    total = int(counts.sum()) + jokers
    out: dict[str, Any] = {
        "tiles": _tiles.format(counts),
        "names": _tiles.names(_tiles.from_counts(counts)),
        "jokers": jokers,
        "total": total,
        "forms": forms,
        "shanten": _hand.shanten(counts, jokers, **forms),
        "win": None,
        "waits": [],
        "discards": [],
        "decompositions": [],
        "readings_total": 0,
    }
    if total % 3 == 2:
        out["win"] = _hand.is_win(counts, jokers, **forms)
        if out["win"]:
            readings = _hand.decompositions(counts, jokers, pair258=forms["pair258"])
            out["readings_total"] = len(readings)
            out["decompositions"] = [
                [_group_text(g) for g in (*d.sets, d.pair)] for d in readings[:max_readings]
            ]
        elif out["shanten"] == 0:
            out["discards"] = _ready_discards(counts, jokers, forms)
    elif total % 3 == 1:
        out["waits"] = [_tile_info(t, counts) for t in _hand.waits(counts, jokers, **forms)]
    return out


def check_variant_tiles(
    text: str, variant: str, melds: tuple[str, ...], options: dict[str, Any]
) -> None:
    """Refuse a hand with a tile ``variant`` does not have or plays as a flower."""
    from .engine.melds import Meld
    from .variants import get_variant

    v = get_variant(variant)
    kinds = _tiles.to_kinds(text) + [t for m in melds for t in Meld.parse(m).tiles]
    v.check_tiles(kinds, v.parse_options(options))


def score_waits(
    info: dict[str, Any], variant: str, how: str, melds: tuple[str, ...], options: dict[str, Any]
) -> None:
    """Add to each wait what winning on it is worth under ``variant`` (its calculator), or
    why it is no win there (``reason``)."""
    from .engine.melds import Meld
    from .scoring import WinContext
    from .variants import get_variant

    v = get_variant(variant)
    parsed = tuple(Meld.parse(m) for m in melds)
    for w in info["waits"]:
        w["unseen"] -= sum(m.tiles.count(w["kind"]) for m in parsed)  # exposed copies are seen
        if w["unseen"] <= 0:  # every copy is already in this hand or its melds
            w["score"] = None
            w["reason"] = "every copy is in this hand or its melds"
            continue
        counts = _tiles.counts(info["tiles"] + w["tile"])
        ctx = WinContext(counts, w["kind"], how, parsed, jokers=info["jokers"])
        reason = v.why_not_win(ctx, options)  # raises for a hand the variant cannot hold
        bd = None if reason else v.calculate(ctx, options)
        w["score"] = None if bd is None else {"patterns": bd.ids, "points": bd.points}
        if reason:
            w["reason"] = reason


def _ready_discards(counts: Any, jokers: int, forms: dict[str, bool]) -> list[dict[str, Any]]:
    """Discards that leave the hand ready, with the waits after each."""
    found = []
    for d in range(_tiles.N_KINDS):
        if not counts[d]:
            continue
        rest = counts.copy()
        rest[d] -= 1
        waits = _hand.waits(rest, jokers, **forms)
        if waits:
            found.append({**_tile_info(d, counts), "waits": [_tile_info(t, counts) for t in waits]})
    return found


def _print_text(info: dict[str, Any], variant: str | None = None) -> None:
    joker_text = f" + {info['jokers']} joker(s)" if info["jokers"] else ""
    click.echo(f"hand     {info['tiles']}{joker_text}  ({info['total']} tiles)")
    click.echo(f"         {info['names']}")
    shanten = info["shanten"]
    label = {-1: "complete", 0: "ready (听牌)"}.get(shanten, f"{shanten} from ready")
    click.echo(f"shanten  {shanten}  {label}")
    if info["win"] is not None:
        click.echo(f"win      {'yes' if info['win'] else 'no'}")
    for groups in info["decompositions"]:
        click.echo("         " + " ".join(groups))
    hidden = info["readings_total"] - len(info["decompositions"])
    if hidden > 0:
        click.echo(f"         … and {hidden} more reading(s) (--max-readings)")
    if info["total"] % 3 == 1:
        if info["waits"]:
            n = sum(w["unseen"] for w in info["waits"])
            click.echo(f"waits    {len(info['waits'])} kinds, {n} tiles unseen by this hand")
            rows = [[w["tile"], w["name"], f"{w['unseen']} left"] for w in info["waits"]]
            for w, line in zip(info["waits"], table(rows, "><", indent=" " * 9), strict=True):
                click.echo(line + _wait_score(w, variant))
        else:
            click.echo("waits    none")
    for d in info["discards"]:
        waits = " ".join(f"{w['tile']}({w['unseen']})" for w in d["waits"])
        click.echo(f"discard  {pad(d['tile'], 3, '>')} {pad(d['name'], 6)} -> waits {waits}")


def _wait_score(w: dict[str, Any], variant: str | None) -> str:
    """What winning on wait ``w`` is worth, patterns as 中文名 (id); "" without --variant."""
    if "score" not in w:
        return ""
    sc = w["score"]
    if sc is None:
        return f"   not a win here: {w['reason']}"
    labels = " + ".join(pattern_label(variant or "", p) for p in sc["patterns"])
    return f"   {labels}: {sc['points']} per payer"


@main.command("hand")
@click.argument("tiles", nargs=-1, required=True)
@click.option(
    "--jokers",
    "-j",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Wildcards held apart from TILES (青岛 混, 荣成 宝).",
)
@click.option("--seven-pairs/--no-seven-pairs", default=True, show_default=True)
@click.option("--thirteen-orphans", is_flag=True, help="Allow 十三幺.")
@click.option("--knitted", is_flag=True, help="Allow 十三不靠.")
@click.option("--pair258", is_flag=True, help="The pair must be a suited 2/5/8 (258将).")
@click.option("--variant", "-v", default=None, help="Score each wait under this variant.")
@click.option(
    "--how",
    type=click.Choice(["discard", "self_draw"]),
    default="discard",
    show_default=True,
    help="With --variant: score the waits as won this way.",
)
@click.option(
    "--meld", "-m", "melds", multiple=True, help="With --variant: a meld, e.g. 'peng 3p'."
)
@click.option(
    "--option", "-o", "opts", multiple=True, help="With --variant: room option key=value."
)
@click.option(
    "--max-readings",
    type=click.IntRange(min=0),
    default=MAX_READINGS,
    show_default=True,
    help="List at most this many readings of a winning hand.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def hand_command(
    tiles: tuple[str, ...],
    jokers: int,
    seven_pairs: bool,
    thirteen_orphans: bool,
    knitted: bool,
    pair258: bool,
    variant: str | None,
    how: str,
    melds: tuple[str, ...],
    opts: tuple[str, ...],
    max_readings: int,
    as_json: bool,
) -> None:
    """Analyze a concealed hand, e.g. `mjcore hand 1112345678999m`.

    Shows whether it wins, its shanten, and its waits with how many copies of
    each remain unseen from this hand (13-tile hands), or the discards that
    leave it ready (14-tile hands one tile away). With --variant, each wait is
    scored by that variant's calculator, e.g.
    `mjcore hand 111p234p46p789p99p -v xuezhan_kaxinwu`.
    """
    forms = dict(
        seven_pairs=seven_pairs, thirteen_orphans=thirteen_orphans, knitted=knitted, pair258=pair258
    )
    try:
        if variant is not None:
            check_variant_tiles("".join(tiles), variant, melds, dict(parse_option(o) for o in opts))
        info = analyze_hand("".join(tiles), jokers, forms, max_readings)
        if variant is not None:
            score_waits(info, variant, how, melds, dict(parse_option(o) for o in opts))
    except (MjcoreError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        json.dump(info, sys.stdout, ensure_ascii=False, indent=2)
        click.echo()
    else:
        _print_text(info, variant)


def _register_subcommands() -> None:
    """Commands that live with their own subsystem join the group here."""
    from .scoring.cli import score_command
    from .sim.cli import replay_command, simulate_command

    main.add_command(simulate_command)
    main.add_command(replay_command)
    main.add_command(score_command)
    from .sim.league_cli import league_command

    main.add_command(league_command)
    from .agents.cli import agent_command

    main.add_command(agent_command)
    from .server.cli import COMMANDS as server_commands  # server deps load lazily

    for command in server_commands:
        main.add_command(command)


_register_subcommands()


if __name__ == "__main__":  # pragma: no cover
    main()
