"""The benchmark suite: ``mjcore league --suite v1 --bots AGENT`` (docs/benchmark.md).

A suite is a fixed, versioned set of duplicate deals per variant (a published seed each,
default options, four players) on which one agent plays at one seat against each member of
the reference ladder at the other three (``random``, ``greedy``, ``expert``, and ``learned``
when this mjcore has it). Its record — a JSON object — holds the suite id and version, the
mjcore version, the seeds, the agent's mean score per hand against each opponent with the
95 % duplicate interval, a rating with its uncertainty and the agent's fault counts.

The rating is openskill's Plackett-Luce model: the agent starts at the default prior and
every deal is a two-team game (its total over the seat rotations above, at or below zero)
against an opponent whose rating is held fixed at the suite's *anchor* — the ladder's own
ratings, measured once on the same deals (:func:`calibrate`) and frozen in the suite. So
every agent is rated on one scale, and a record does not depend on which other agents were
rated. A ladder member without an anchor (``learned`` before a suite calibrated it) is
played and reported but not rated against.

Everything in the record but its ``timing`` is a function of the agent's decisions: the
same decisions give the same bytes on any machine and any backend (``tests/test_agents.py``
compares processes with a Dask LocalCluster).
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..errors import InvalidOptionError, clip

LADDER = ("random", "greedy", "expert", "learned")
"""The reference ladder, weakest first; members this mjcore does not have are skipped."""
VARIANTS = ("xuezhan_kaxinwu", "lipu", "susong", "qingdao", "rongcheng")
PLAYERS = 4


@dataclass(frozen=True)
class Suite:
    """A published set of deals: per variant a seed, ``deals`` duplicate deals an opponent;
    the ladder's anchors are read from ``anchors_<anchors>.json`` beside this module (written
    by ``python -m mjcore.agents.suite calibrate v1 --write``)."""

    id: str
    version: int
    deals: int
    seeds: dict[str, int]
    anchor_set: str = ""
    about: str = ""

    @property
    def hands(self) -> int:
        """Hands the agent plays against one opponent in one variant."""
        return self.deals * PLAYERS

    @property
    def anchors(self) -> dict[str, dict[str, tuple[float, float]]]:
        """Per variant, per ladder member: its (mu, sigma) on the suite's deals."""
        return _anchors(self.anchor_set) if self.anchor_set else {}


@functools.cache
def _anchors(name: str) -> dict[str, dict[str, tuple[float, float]]]:
    text = resources.files(__package__).joinpath(f"anchors_{name}.json").read_text("utf-8")
    data = json.loads(text)["anchors"]
    return {v: {b: (mu, sigma) for b, (mu, sigma) in row.items()} for v, row in data.items()}


_V1_SEEDS = {
    "xuezhan_kaxinwu": 3601,
    "lipu": 3602,
    "susong": 3603,
    "qingdao": 3604,
    "rongcheng": 3605,
}
SUITES: dict[str, Suite] = {
    "v1": Suite(
        "v1", 1, 200, _V1_SEEDS, "v1",
        "the published size: 200 duplicate deals (800 hands) per opponent per variant",
    ),
    "v1-smoke": Suite(
        "v1-smoke", 1, 2, _V1_SEEDS, "v1",
        "v1's first 2 deals per opponent per variant (a quick check, e.g. in CI); v1's anchors",
    ),
}  # fmt: skip


def get_suite(name: str) -> Suite:
    """A suite by id; InvalidOptionError naming the known ones otherwise."""
    if name not in SUITES:
        raise InvalidOptionError(f"unknown suite {clip(name)}; known: {', '.join(SUITES)}")
    return SUITES[name]


def ladder() -> list[str]:
    """The members of :data:`LADDER` this mjcore can build (``learned`` may be absent)."""
    from ..bots.spec import resolve_bots

    present = []
    for name in LADDER:
        try:
            resolve_bots(name, PLAYERS)
        except (ValueError, ImportError):
            continue
        present.append(name)
    return present


# ---- running ------------------------------------------------------------------------------
def run_suite(
    suite: str | Suite,
    agent: Any,
    *,
    workers: int = 1,
    cluster: Any = None,
    chunk_size: int | None = None,
    progress: bool | None = False,
) -> dict[str, Any]:
    """Play ``agent`` (any bot spec: ``exec:…``, a name, ``module:Name``) through the suite
    and return its record (see the module docstring); ``workers``/``cluster`` as for
    :func:`~mjcore.sim.simulate` (one Dask client serves every matchup)."""
    from ..sim.league import _agent_name, _play, _shared_cluster

    suite = get_suite(suite) if isinstance(suite, str) else suite
    label = _agent_name(agent)  # an exec: agent's name= (its command is the machine's)
    opponents = ladder()
    owner, client = _shared_cluster(cluster)
    t0 = time.perf_counter()
    backend = ""
    variants: dict[str, Any] = {}
    totals: dict[str, dict[str, list[int]]] = {}
    faults: Counter[str] = Counter()
    try:
        for variant in VARIANTS:
            rows: dict[str, Any] = {}
            var_faults: Counter[str] = Counter()
            for opponent in opponents:
                stats, backend = _play(
                    variant, suite.hands, PLAYERS, None, [agent] + [opponent] * (PLAYERS - 1),
                    suite.seeds[variant], workers, client, chunk_size, progress,
                )  # fmt: skip
                mine = stats.bots[0]
                rows[opponent] = _row(stats, mine)
                totals.setdefault(variant, {})[opponent] = _deal_totals(stats, mine)
                var_faults.update(stats.faults.get(mine, {}))
            faults.update(var_faults)
            variants[variant] = {
                "seed": suite.seeds[variant],
                "options": _default_options(variant),
                "opponents": rows,
                "rating": _rating(suite, {variant: totals[variant]}),
                "faults": dict(sorted(var_faults.items())),
            }
    finally:
        if owner is not None:
            owner.close()
    record = {
        "suite": suite.id,
        "suite_version": suite.version,
        "mjcore": _version(),
        "agent": label,
        "players": PLAYERS,
        "deals_per_opponent": suite.deals,
        "hands_per_opponent": suite.hands,
        "ladder": opponents,
        "ladder_missing": [b for b in LADDER if b not in opponents],
        "anchored": sorted({b for v in suite.anchors.values() for b in v if b in opponents}),
        "seeds": dict(suite.seeds),
        "variants": variants,
        "mean_vs_ladder": round(
            sum(r["mean"] for v in variants.values() for r in v["opponents"].values())
            / max(1, len(variants) * len(opponents)),
            6,
        ),
        "rating": _rating(suite, totals),
        "faults": dict(sorted(faults.items())),
    }
    record["fingerprint"] = fingerprint(record)
    record["timing"] = {"seconds": round(time.perf_counter() - t0, 3), "backend": backend}
    return record


def fingerprint(record: dict[str, Any]) -> str:
    """SHA-256 of the record's published text without ``agent``, ``fingerprint`` and
    ``timing``: the short form to cite. It depends only on the agent's decisions, so it is
    the same on any machine, and a faithful port of an agent has its original's."""
    body = {k: v for k, v in record.items() if k not in ("agent", "fingerprint", "timing")}
    return hashlib.sha256(to_json(body).encode()).hexdigest()


def to_json(record: dict[str, Any]) -> str:
    """The record as published: two-space indented JSON, keys in the record's order."""
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"


def without_timing(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its ``timing`` (what must be equal on every machine and backend)."""
    return {k: v for k, v in record.items() if k != "timing"}


def _row(stats: Any, label: str) -> dict[str, Any]:
    from ..sim.stats import Z95

    tally = stats.by_bot[label]
    ci = Z95 * tally.duplicate_se(stats.players)
    totals = _deal_totals(stats, label)
    return {
        "mean": round(tally.mean, 6),
        "ci95": round(ci, 6),
        "low": round(tally.mean - ci, 6),
        "high": round(tally.mean + ci, 6),
        "deals": tally.deals,
        "hands": stats.games,
        "deals_won": sum(1 for t in totals if t > 0),
        "deals_lost": sum(1 for t in totals if t < 0),
    }


def _deal_totals(stats: Any, label: str) -> list[int]:
    """The agent's (seat 0's bot's) total of every deal, in deal order (LeagueStats)."""
    assert stats.bots[0] == label
    return list(stats.deal_totals)


def _default_options(variant: str) -> dict[str, Any]:
    """Every option of the variant at its default (the suite plays the defaults)."""
    from ..variants import get_variant

    return dict(get_variant(variant).parse_options(None).to_dict())


def _version() -> str:
    from .. import __version__

    return __version__


# ---- the rating ----------------------------------------------------------------------------
def _rating(suite: Suite, totals: dict[str, dict[str, list[int]]]) -> dict[str, Any]:
    """The agent's openskill rating against the anchored ladder (see the module docstring):
    variants in suite order, and within one the deals interleaved over the opponents."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        from .._extras import install_hint

        raise ImportError("the suite's rating needs openskill: " + install_hint("league")) from None
    model = PlackettLuce()
    me = model.rating(name="agent")
    games = 0
    for variant, rows in totals.items():
        anchors = suite.anchors.get(variant, {})
        rated = [(anchors[o], t) for o, t in rows.items() if o in anchors]
        longest = max((len(t) for _, t in rated), default=0)
        for d in range(longest):
            for (mu, sigma), deal_totals in rated:
                if d >= len(deal_totals):
                    continue
                total = deal_totals[d]
                ranks = [1.0, 1.0] if total == 0 else [1.0, 2.0] if total > 0 else [2.0, 1.0]
                other = model.rating(mu=mu, sigma=sigma, name="anchor")
                [[me], _] = model.rate([[me], [other]], ranks=ranks)
                games += 1
    return {
        "mu": round(me.mu, 6),
        "sigma": round(me.sigma, 6),
        "ordinal": round(me.ordinal(), 6),
        "games": games,
    }


# ---- the command (mjcore league --suite) ------------------------------------------------
def suite_command(
    suite: str,
    agents: list[str],
    workers: int,
    cluster: str | None,
    chunk_size: int | None,
    progress: bool | None,
    out_path: str | None,
) -> None:
    """``mjcore league --suite SUITE --bots AGENT [--out FILE]``: print (and write) the record."""
    import click
    from click.core import ParameterSource

    from ..errors import MjcoreError

    ctx = click.get_current_context(silent=True)
    fixed = {"variant": "--variant", "hands": "--hands", "players": "--players", "seed": "--seed",
             "opts": "--option", "as_json": "--json", "plot_path": "--plot"}  # fmt: skip
    given = [
        flag
        for name, flag in fixed.items()
        if ctx is not None and ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
    ]
    if given:
        raise click.UsageError(
            "--suite fixes the variants, deals, seeds, options and output; drop " + ", ".join(given)
        )
    if len(agents) != 1:
        raise click.UsageError(
            f"--suite rates one agent: give it alone with --bots (got {', '.join(agents)})"
        )
    try:
        record = run_suite(
            suite, agents[0], workers=workers, cluster=cluster, chunk_size=chunk_size,
            progress=progress,
        )  # fmt: skip
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except (ValueError, MjcoreError) as exc:
        raise click.UsageError(str(exc)) from None
    except ImportError as exc:
        raise click.ClickException(str(exc)) from None
    text = to_json(record)
    if out_path is not None:
        with open(out_path, "w", encoding="utf-8") as fh:
            fh.write(text)
        click.echo(f"record written to {out_path}", err=True)
    click.echo(text, nl=False)


# ---- calibrating the anchors --------------------------------------------------------------
def calibrate(suite: str | Suite, workers: int = 1) -> dict[str, dict[str, tuple[float, float]]]:
    """The ladder's ratings on the suite's deals: per variant a league of the ladder (every
    ordered pair, the suite's seed and deals), each member's (mu, sigma). Run once per suite
    version and frozen in :data:`SUITES` (``python -m mjcore.agents.suite calibrate v1``)."""
    from ..sim.league import league

    suite = get_suite(suite) if isinstance(suite, str) else suite
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for variant in VARIANTS:
        result = league(variant, ladder(), suite.hands, seed=suite.seeds[variant], workers=workers)
        out[variant] = {r["agent"]: (r["mu"], r["sigma"]) for r in result.ratings}
    return out


def anchors_file(suite: Suite, anchors: dict[str, dict[str, tuple[float, float]]]) -> str:
    """The text of ``anchors_<set>.json``: how it was made, then the anchors."""
    record = {
        "suite": suite.id,
        "made_by": f"python -m mjcore.agents.suite calibrate {suite.id} --write",
        "mjcore": _version(),
        "deals_per_matchup": suite.deals,
        "seeds": suite.seeds,
        "anchors": {v: {b: list(ms) for b, ms in row.items()} for v, row in anchors.items()},
    }
    return json.dumps(record, indent=1) + "\n"


if __name__ == "__main__":  # pragma: no cover - the calibration run
    import sys
    from pathlib import Path

    if len(sys.argv) >= 3 and sys.argv[1] == "calibrate":
        chosen = get_suite(sys.argv[2])
        text = anchors_file(chosen, calibrate(chosen))
        if "--write" in sys.argv:
            Path(__file__).with_name(f"anchors_{chosen.anchor_set}.json").write_text(text)
        print(text, end="")
    else:
        print("usage: python -m mjcore.agents.suite calibrate SUITE [--write]")
