"""``mjcore league``: the command line of :mod:`mjcore.sim.league` (and of the benchmark suite,
:mod:`mjcore.agents.suite`, which plays through the league: this module sits above both)."""

from __future__ import annotations

import click

from ..errors import MjcoreError
from ..variants import DEFAULT_VARIANT
from .league import league


@click.command("league")
@click.option("--variant", "-v", default=DEFAULT_VARIANT, show_default=True, help="Variant name.")
@click.option(
    "--bots",
    "-b",
    default="random,greedy,expert",
    show_default=True,
    help="Comma-separated agents: names (random, greedy, expert, mc, mc:ms=50, "
    "mc:rollouts=200), module:Class for your own, found also in the current folder, or "
    "exec:COMMAND for a program in any language (docs/agents.md).",
)
@click.option(
    "--hands",
    "-n",
    default=400,
    show_default=True,
    type=click.IntRange(min=1),
    help="Hands per matchup (rounded up to whole duplicate deals).",
)
@click.option("--players", "-p", default=4, show_default=True, type=int, help="Seats at the table.")
@click.option(
    "--seed", "-s", default=0, show_default=True, type=click.IntRange(min=0), help="Run seed."
)
@click.option(
    "--workers", "-w", default=1, show_default=True, type=click.IntRange(min=1),
    help="Local processes to play on.",
)  # fmt: skip
@click.option(
    "--cluster",
    default=None,
    metavar="local:N|tcp://HOST:PORT",
    help='Play on Dask (the "dask" extra: pip install ".[dask]" from a checkout): a '
    "LocalCluster of N processes or a running scheduler's address.",
)
@click.option(
    "--chunk-size", type=click.IntRange(min=1), default=None, help="Hands per task (auto)."
)
@click.option(
    "--option", "-o", "opts", multiple=True, metavar="KEY=VALUE",
    help="A room option, e.g. -o zuoma=true (repeatable).",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the league as JSON.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Save the table and the ratings as a figure (PNG, SVG, PDF …; needs matplotlib).",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bars on stderr [default: only when stderr is a terminal].",
)
@click.option(
    "--suite",
    default=None,
    metavar="v1|v1-smoke",
    help="Play the one agent of --bots through a benchmark suite against the reference "
    "ladder and print its JSON record (docs/benchmark.md).",
)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="With --suite: also write the record to this file.",
)
def league_command(
    variant: str,
    bots: str,
    hands: int,
    players: int,
    seed: int,
    workers: int,
    cluster: str | None,
    chunk_size: int | None,
    opts: tuple[str, ...],
    as_json: bool,
    plot_path: str | None,
    progress: bool | None,
    suite: str | None,
    out_path: str | None,
) -> None:
    """Rate agents against each other: every ordered pair plays duplicate deals (one agent at
    one seat, the other at the rest); prints each pair's mean score per hand with its 95 %
    interval and an openskill rating of every agent.

    Example: mjcore league -v lipu --bots random,greedy,expert,mc --hands 2000 --workers 2
    """
    from ..cli_options import parse_option
    from .cli import _check_plot, _current_folder_importable

    options = dict(parse_option(o) for o in opts)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if any(":" in b for b in names):
        _current_folder_importable()
    if suite is not None:
        from ..agents.suite import suite_command

        suite_command(suite, names, workers, cluster, chunk_size, progress, out_path)
        return
    if plot_path is not None:
        _check_plot(plot_path)
    try:
        result = league(
            variant, names, hands, players=players, options=options or None, seed=seed,
            workers=workers, cluster=cluster, chunk_size=chunk_size, progress=progress,
        )  # fmt: skip
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except (ValueError, MjcoreError) as exc:
        raise click.UsageError(str(exc)) from None
    except ImportError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(result.to_json(indent=2) if as_json else result.summary())
    if plot_path is not None:
        try:
            result.plot(plot_path)
        except ImportError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"plot written to {plot_path}", err=True)
