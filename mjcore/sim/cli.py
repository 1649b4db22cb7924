"""The ``mjcore simulate`` command (registered into the ``mjcore`` click group)."""

from __future__ import annotations

import click

from ..bots import BOTS
from ..cli_options import parse_option


@click.command("simulate")
@click.option("--variant", "-v", default="xuezhan_kaxinwu", show_default=True, help="Variant name.")
@click.option(
    "--games",
    "-n",
    default=1000,
    show_default=True,
    type=click.IntRange(min=0),
    help="Number of hands to play.",
)
@click.option("--players", "-p", default=4, show_default=True, type=int, help="Seats at the table.")
@click.option(
    "--bots",
    "-b",
    default="greedy",
    show_default=True,
    help=f"Bot for every seat ({'|'.join(BOTS)}) or one per seat, comma-separated.",
)
@click.option(
    "--seed", "-s", default=0, show_default=True, type=click.IntRange(min=0), help="Run seed."
)
@click.option(
    "--workers",
    "-w",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Processes to play on.",
)
@click.option(
    "--option",
    "-o",
    "opts",
    multiple=True,
    metavar="KEY=VALUE",
    help="A room option, e.g. -o three_suits=true -o gang_chain=compound (repeatable).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the statistics as JSON instead of the summary."
)
@click.option(
    "--progress/--no-progress", default=True, show_default=True, help="Progress bar on stderr."
)
def simulate_command(
    variant: str,
    games: int,
    players: int,
    bots: str,
    seed: int,
    workers: int,
    opts: tuple[str, ...],
    as_json: bool,
    progress: bool,
) -> None:
    """Play many hands with bots and print aggregate statistics.

    Example: mjcore simulate --variant xuezhan_kaxinwu --games 10000 --workers 2
    """
    from . import simulate

    options = dict(parse_option(o) for o in opts)
    names = bots.split(",") if "," in bots else bots
    try:
        stats = simulate(
            variant,
            games,
            players=players,
            options=options or None,
            bots=names,
            seed=seed,
            workers=workers,
            progress=progress,
        )
    except ValueError as exc:  # bad variant / option / bot name: a usage error, not a crash
        raise click.UsageError(str(exc)) from None
    click.echo(stats.to_json(indent=2) if as_json else stats.summary())
