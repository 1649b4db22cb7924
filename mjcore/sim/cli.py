"""The ``mjcore simulate`` and ``mjcore replay`` commands (registered into the ``mjcore`` group)."""

from __future__ import annotations

import os
import sys

import click

from ..bots import BOTS
from ..cli_options import parse_option
from ..errors import MjcoreError
from ..variants import DEFAULT_VARIANT


@click.command("simulate")
@click.option("--variant", "-v", default=DEFAULT_VARIANT, show_default=True, help="Variant name.")
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
    help=f"Bot for every seat ({'|'.join(BOTS)}, module:Class for your own, found also in "
    "the current folder, or exec:COMMAND for a program in any language, docs/agents.md) or "
    "comma-separated from seat 0 on, the last one filling the "
    "remaining seats: mypkg.bots:MyBot,greedy = MyBot at seat 0, greedy at the others.",
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
    help="Local processes to play on.",
)
@click.option(
    "--cluster",
    default=None,
    metavar="local:N|tcp://HOST:PORT",
    help='Play on Dask (the "dask" extra: pip install "$(ls dist/mjcore-*.whl)[dask]", or '
    '".[dask]" from a checkout): a LocalCluster of N processes or a running scheduler\'s address.',
)
@click.option(
    "--chunk-size", type=click.IntRange(min=1), default=None, help="Hands per task (auto)."
)
@click.option(
    "--duplicate",
    is_flag=True,
    help="Play every wall once per seat rotation (games: a multiple of players); reports "
    "each bot's mean score with a confidence interval and the variance reduction.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write one row per hand to this Parquet file (see `mjcore replay`).",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Save a report figure (PNG, SVG, PDF …; needs matplotlib).",
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
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr [default: only when stderr is a terminal].",
)
def simulate_command(
    variant: str,
    games: int,
    players: int,
    bots: str,
    seed: int,
    workers: int,
    cluster: str | None,
    chunk_size: int | None,
    duplicate: bool,
    out: str | None,
    plot_path: str | None,
    opts: tuple[str, ...],
    as_json: bool,
    progress: bool | None,
) -> None:
    """Play many hands with bots and print aggregate statistics (Ctrl-C: what is done so far).

    Example: mjcore simulate --variant xuezhan_kaxinwu --games 10000 --workers 2
    """
    from . import simulate

    options = dict(parse_option(o) for o in opts)
    names = seat_specs(bots, players)
    if ":" in bots:
        _current_folder_importable()
    if plot_path is not None:
        _check_plot(plot_path)
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
            cluster=cluster,
            chunk_size=chunk_size,
            duplicate=duplicate,
            out=out,
        )
    except ValueError as exc:  # bad variant / option / bot: a usage error, not a crash
        raise click.UsageError(str(exc)) from None
    except ImportError as exc:  # an optional extra that is not installed
        raise click.ClickException(str(exc)) from None
    click.echo(stats.to_json(indent=2) if as_json else stats.summary())
    if plot_path is not None:
        try:
            stats.plot(plot_path)
        except ImportError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"plot written to {plot_path}", err=True)
    if stats.interrupted:
        raise SystemExit(130)  # the shell's code for "stopped by Ctrl-C", after the report


def seat_specs(bots: str, players: int) -> str | list[str]:
    """``--bots`` as simulate's ``bots``: one spec, or one per seat from seat 0 on where the
    last spec also takes every remaining seat (``MyBot,greedy`` at 4 seats: MyBot and three
    greedy)."""
    if "," not in bots:
        return bots
    names = [b.strip() for b in bots.split(",")]
    return names + names[-1:] * (players - len(names))


def _current_folder_importable() -> None:
    """Put the current folder on ``sys.path``, so that ``-b mybots:MyBot`` finds
    ``mybots.py`` there under the ``mjcore`` console script as under ``python -m mjcore``.

    Last, not first: a source checkout's unbuilt ``mjcore/`` in the current folder must not
    shadow the installed package, here or in the worker processes that inherit the path."""
    here = os.getcwd()
    if "" not in sys.path and here not in sys.path:
        sys.path.append(here)


def _check_plot(path: str) -> None:
    """A ``--plot`` file that cannot be written fails before the run, not after it."""
    from .plot import check_plot_path

    try:
        check_plot_path(path)
    except ImportError as exc:
        raise click.ClickException(str(exc)) from None
    except MjcoreError as exc:
        raise click.BadParameter(str(exc), param_hint="--plot") from None


@click.command("replay", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--hand", "hand", type=click.IntRange(min=0), required=True, help="Hand index.")
@click.option(
    "--html",
    "html",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the hand as one self-contained HTML replay viewer to this file instead.",
)
def replay_command(path: str, hand: int, html: str | None) -> None:
    """Replay one hand of a `mjcore simulate --out` Parquet file move by move.

    The hand is rebuilt from its recorded wall, dealer and options and every recorded
    action is applied through the engine; the last line checks the recorded scores.
    With --html the hand is written as a page (open it in a browser, no server needed)
    that steps through every action, as any seat saw it or with all hands open.
    """
    from .records import read_hand, replay_lines

    try:
        record = read_hand(path, hand)
        if html is not None:
            from ..replay import build_replay, record_to_saved, replay_html

            bundle = build_replay(record_to_saved(record))
            bundle["hand"] = record["hand"]
            got = (bundle["settlement"] or {}).get("scores")
            if got != record["scores"]:
                raise click.ClickException(
                    f"replay of hand {hand} gives scores {got}, the record {record['scores']}"
                )
            with open(html, "w", encoding="utf-8") as out:
                out.write(replay_html(bundle))
            click.echo(f"wrote {html}: hand {hand}, {len(bundle['steps']) - 1} actions")
            return
        for line in replay_lines(record):
            click.echo(line)
    except ImportError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {html}: {exc.strerror}") from None
    except (MjcoreError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
