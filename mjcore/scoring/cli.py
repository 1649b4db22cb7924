"""``mjcore score``: the hand calculator on the command line (patterns and points of a win)."""

from __future__ import annotations

import json
from typing import Any

import click

from ..cli_options import parse_option
from ..errors import MjcoreError
from ..text import pattern_english, table
from ..variants import get_variant, names


def score_win(variant: str, win: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The breakdown of a described win as plain data (``win`` is the calculator's JSON form);
    for no win, the reason."""
    v = get_variant(variant)
    reason = v.why_not_win(win, options)  # raises for a description that cannot happen
    if reason:
        return {"variant": variant, "win": False, "reason": reason}
    breakdown = v.calculate(win, options)
    assert breakdown is not None  # why_not_win found no reason
    return {"variant": variant, "win": True, **breakdown.to_json()}


@click.command("score")
@click.option("--variant", "-v", required=True, type=click.Choice(names()), help="Rule variant.")
@click.argument("concealed")
@click.option("--win-tile", "-w", required=True, help="The winning tile (included in CONCEALED).")
@click.option(
    "--how",
    type=click.Choice(["self_draw", "discard", "rob_gang", "fenzhang"]),
    default="discard",
    show_default=True,
)
@click.option("--meld", "-m", "melds", multiple=True, help="An exposed meld, e.g. 'peng 3p'.")
@click.option("--jokers", type=int, default=0, help="Wildcards held apart from CONCEALED.")
@click.option("--joker-kind", default=None, help="The wildcard's kind (荣成 宝, 青岛 混), e.g. 6s.")
@click.option("--gang-chain", type=int, default=0, help="Self-drawn after N chained gangs.")
@click.option("--after-gang", type=int, default=0, help="Won on the discard after a gang.")
@click.option("--flowers", default="", help="The winner's flower area (宿松), e.g. 1f5f7z.")
@click.option("--flag", "flags", multiple=True, help="Situation flag (tianhu, haidi, kouting …).")
@click.option("--option", "-o", "opts", multiple=True, help="Room option key=value (JSON value).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def score_command(
    variant: str,
    concealed: str,
    win_tile: str,
    how: str,
    melds: tuple[str, ...],
    jokers: int,
    joker_kind: str | None,
    gang_chain: int,
    after_gang: int,
    flowers: str,
    flags: tuple[str, ...],
    opts: tuple[str, ...],
    as_json: bool,
) -> None:
    """Score a described win: mjcore score -v xuezhan_kaxinwu 46s5s123p789s99p -w 5s
    --how self_draw -m "angang 8p" --gang-chain 1

    Exit status 1, with the reason, if it is no win in this variant (its tiles, or a rule
    that forbids it); 2 if the description cannot happen."""
    win = {
        "concealed": concealed,
        "win_tile": win_tile,
        "how": how,
        "melds": list(melds),
        "jokers": jokers,
        "gang_chain": gang_chain,
        "after_gang": after_gang,
        "flags": list(flags),
        "flowers": flowers,
    }
    if joker_kind is not None:
        win["joker_kind"] = joker_kind
    try:
        result = score_win(variant, win, dict(parse_option(o) for o in opts))
    except MjcoreError as exc:
        raise click.BadParameter(str(exc)) from None
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    elif not result["win"]:
        click.echo(f"not a winning hand: {result['reason']}")
    if not result["win"]:
        raise click.exceptions.Exit(1)
    if as_json:
        return
    rows = [
        [
            p["name"],
            pattern_english(variant, p["id"]),
            p["id"],
            {"base": "", "add": "+", "mul": "x"}[p["combine"]] + str(p["value"]),
        ]
        for p in result["patterns"]
    ]
    for line in table(rows, indent="  "):  # 中文 names: aligned by display width
        click.echo(line)
    click.echo(f"points per payer: {result['points']}   ({result['formula']})")
