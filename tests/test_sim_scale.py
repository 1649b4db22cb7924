"""Simulation at scale: Dask backend, per-hand Parquet records and replay, duplicate deals, plots.

Every cluster here is a LocalCluster on the loopback interface, shared by the module.
"""

from __future__ import annotations

import json
import math
import os
import signal
import time

import numpy as np
import pytest
import userbots
from click.testing import CliRunner

from mjcore.bots import GreedyBot
from mjcore.errors import InvalidOptionError
from mjcore.sim import simulate
from mjcore.sim.cli import replay_command, simulate_command
from mjcore.sim.records import read_hand, replay
from mjcore.sim.stats import Z95
from mjcore.variants import names

distributed = pytest.importorskip("distributed")
pq = pytest.importorskip("pyarrow.parquet")

V = "xuezhan_kaxinwu"
MIXED = ["greedy", "random", "greedy", userbots.greedy_factory]


@pytest.fixture
def sigint_raises():
    """SIGINT raises KeyboardInterrupt during the test, as in an interactive session, even when
    the test run was started with SIGINT ignored (a background job, some CI runners)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",  # any free port: never clash with a running dashboard
            silence_logs=50,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


# ---- one answer whatever the backend -------------------------------------------------------------
@pytest.mark.parametrize("variant", [V, "qingdao"])
def test_same_statistics_on_every_backend(client, variant):
    kw = dict(games=36, seed=21, bots=MIXED)
    one = simulate(variant, **kw)
    assert one == simulate(variant, **kw, chunk_size=5)
    assert one == simulate(variant, **kw, workers=2, chunk_size=7)
    on_dask = simulate(variant, **kw, cluster=client, chunk_size=4)
    assert on_dask == one and on_dask.to_dict()["by_bot"] == one.to_dict()["by_bot"]
    assert on_dask.backend.startswith("dask tcp://127.0.0.1")


def test_a_scheduler_address(client):
    address = client.scheduler.address  # "tcp://127.0.0.1:PORT", as a real cluster's would be
    assert address.startswith("tcp://")
    stats = simulate(V, 10, seed=8, cluster=address, chunk_size=3)
    assert stats == simulate(V, 10, seed=8) and stats.backend.startswith(f"dask {address}")
    assert not client.status == "closed"  # our own connection closed, the cluster still serves
    assert simulate(V, 2, cluster=client).games == 2


def test_local_n_cluster_string_and_bad_clusters():
    a = simulate(V, 12, seed=3, duplicate=True, bots=["greedy", "random", "random", "greedy"])
    b = simulate(
        V,
        12,
        seed=3,
        duplicate=True,
        bots=["greedy", "random", "random", "greedy"],
        cluster="local:1",
        chunk_size=4,
    )
    assert a == b
    for bad in ("local:0", "local:x", "nowhere", 3):
        with pytest.raises(InvalidOptionError, match="cluster"):
            simulate(V, 1, cluster=bad)


def test_a_dying_worker_has_its_chunks_recomputed(client, tmp_path):
    marker = tmp_path / "died"
    dying = userbots.DyingFactory(str(marker), after=5)  # a fresh copy per task
    spec = [dying, "random", "greedy", "greedy"]
    crashed = simulate(V, 40, seed=5, bots=spec, cluster=client, chunk_size=10)
    assert marker.exists()  # a worker process really died mid-chunk
    assert crashed == simulate(V, 40, seed=5, bots=spec)  # inline: nobody dies
    assert crashed.games == 40 and not crashed.interrupted


def test_dask_takes_lambdas_and_progress_bar(client, capsys):
    stats = simulate(V, 8, bots=lambda seed: GreedyBot(seed), cluster=client, progress=True)
    assert stats.games == 8 and "8/8" in capsys.readouterr().err


# ---- per-hand records ----------------------------------------------------------------------------
def test_records_replay_every_hand_exactly(tmp_path):
    path = tmp_path / "hands.parquet"
    stats = simulate("qingdao", 12, seed=7, bots=MIXED, out=path, chunk_size=5)
    table = pq.read_table(path)
    assert table.num_rows == 12 and table.column("hand").to_pylist() == list(range(12))
    meta = json.loads(table.schema.metadata[b"mjcore"])
    assert meta["format"] == "mjcore-hands/1" and meta["bots"] == stats.bots
    rows = table.to_pylist()
    assert sum(sum(r["scores"]) for r in rows) == 0
    assert [r["scores"][0] for r in rows].count(0) == stats.score_hist[0][0]
    for r in rows:
        assert r["dealer"] == r["hand"] % 4 and sorted(r["wall"]) == sorted(rows[0]["wall"])
        *_, (_, _, _, game) = replay(r)
        assert game.is_over and game.scores == r["scores"]
        assert [w.breakdown.ids for w in game.wins] == [w["patterns"] for w in r["wins"]]
        assert [list(p) for p in game.settlement] == [list(p.values()) for p in r["payments"]]


@pytest.mark.parametrize("variant", names())
def test_every_variant_records_and_replays(tmp_path, variant):
    """Variant-generic: any registered variant's hands replay exactly from their records."""
    path = tmp_path / "h.parquet"
    stats = simulate(variant, 8, seed=2, bots=MIXED, duplicate=True, out=path, chunk_size=4)
    rows = pq.read_table(path).to_pylist()
    assert [r["hand"] for r in rows] == list(range(8)) and stats.games == 8
    for r in rows:
        *_, (_, _, _, game) = replay(r)
        assert game.is_over and game.scores == r["scores"] and r["variant"] == variant


def test_records_are_the_same_file_content_on_every_backend(client, tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    simulate(V, 20, seed=2, bots=MIXED, out=a, chunk_size=20)
    simulate(V, 20, seed=2, bots=MIXED, out=b, chunk_size=3, cluster=client)
    assert pq.read_table(a).equals(pq.read_table(b))


def test_replay_command(tmp_path):
    path = tmp_path / "h.parquet"
    res = CliRunner().invoke(simulate_command, ["-n", "6", "--out", str(path), "-s", "4"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(replay_command, [str(path), "--hand", "3"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    record = read_hand(path, 3)
    assert lines[0].startswith("hand 3 of xuezhan_kaxinwu") and "dealer seat 3" in lines[0]
    moves = [ln for ln in lines if ln[:4].strip().isdigit()]
    assert len(moves) == len(record["actions"])
    assert moves[0].split(":", 1)[1].strip() == record["actions"][0]
    assert lines[-1].endswith("replay reproduces the record")
    res = CliRunner().invoke(replay_command, [str(path), "--hand", "99"])
    assert res.exit_code == 1 and "hand 99 is not in" in res.output
    junk = tmp_path / "junk.parquet"
    junk.write_text("not parquet")
    res = CliRunner().invoke(replay_command, [str(junk), "--hand", "0"])
    assert res.exit_code == 1 and "is not a hands file" in res.output


def test_a_tampered_record_is_caught(tmp_path):
    path = tmp_path / "h.parquet"
    simulate(V, 2, seed=1, out=path)
    record = read_hand(path, 1)
    record["scores"] = [s + 1 for s in record["scores"]]
    from mjcore.sim.records import replay_lines

    with pytest.raises(InvalidOptionError, match="does not reproduce"):
        list(replay_lines(record))


# ---- duplicate deals -----------------------------------------------------------------------------
def _reference_intervals(rows, players):
    """Per bot: (mean per seat-hand, duplicate 95% half-width, plain 95% half-width), by numpy."""
    out = {}
    for label in sorted({b for r in rows for b in r["bots"]}):
        k = rows[0]["bots"].count(label)
        per_hand = np.array(
            [
                sum(s for s, b in zip(r["scores"], r["bots"], strict=True) if b == label)
                for r in rows
            ],
            dtype=float,
        )
        per_deal = per_hand.reshape(-1, players).sum(axis=1)
        mean = per_hand.sum() / (k * len(rows))
        dup = Z95 * per_deal.std(ddof=1) / math.sqrt(len(per_deal)) / (k * players)
        plain = Z95 * per_hand.std(ddof=1) / math.sqrt(len(per_hand)) / k
        out[label] = (mean, dup, plain)
    return out


def test_duplicate_rotates_bots_over_one_wall(tmp_path):
    path = tmp_path / "dup.parquet"
    bots = ["greedy", "random", "random", "random"]
    stats = simulate(V, 48, seed=9, bots=bots, duplicate=True, out=path, chunk_size=8)
    rows = pq.read_table(path).to_pylist()
    for d in range(12):
        deal = rows[4 * d : 4 * d + 4]
        assert len({tuple(r["wall"]) for r in deal}) == 1 and {r["dealer"] for r in deal} == {d % 4}
        assert [r["bots"].index("greedy") for r in deal] == [0, 1, 2, 3]  # each seat once
    report = stats.bot_report()
    for label, (mean, dup, plain) in _reference_intervals(rows, 4).items():
        assert report[label]["score_mean"] == pytest.approx(mean)
        assert report[label]["duplicate_ci95"] == pytest.approx(dup)
        assert report[label]["plain_ci95"] == pytest.approx(plain)
        assert report[label]["variance_reduction"] == pytest.approx(1 - (dup / plain) ** 2)
    text = stats.summary()
    assert "duplicate deals" in text and "variance reduction" in text
    assert stats == simulate(V, 48, seed=9, bots=bots, duplicate=True, workers=2, chunk_size=12)


def test_plain_intervals_match_numpy(tmp_path):
    path = tmp_path / "p.parquet"
    stats = simulate(V, 30, seed=1, bots=MIXED, out=path)
    rows = pq.read_table(path).to_pylist()
    report = stats.bot_report()
    for label in stats.by_bot:
        k = stats.by_bot[label].seats
        per_hand = np.array(
            [
                sum(s for s, b in zip(r["scores"], r["bots"], strict=True) if b == label)
                for r in rows
            ],
            dtype=float,
        )
        assert report[label]["score_mean"] == pytest.approx(per_hand.mean() / k)
        se = per_hand.std(ddof=1) / math.sqrt(len(rows)) / k
        assert report[label]["plain_ci95"] == pytest.approx(Z95 * se)


# ---- plots ---------------------------------------------------------------------------------------
def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    stats = simulate(V, 24, seed=3, bots=MIXED, workers=2, chunk_size=4)
    png = tmp_path / "report.png"
    fig = stats.plot(png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    titles = [ax.get_title() for ax in fig.axes]
    assert any(t.startswith("score distribution") for t in titles)
    assert any(t.startswith("pattern frequency") for t in titles)
    assert any(t.startswith("win-rate") for t in titles)
    assert any(t.startswith("hands/s") for t in titles)
    bars = fig.axes[2].patches  # 4 seats + 3 bots
    assert len(bars) == 7
    assert bars[1].get_height() == pytest.approx(100 * stats.win_rate[1])
    res = CliRunner().invoke(simulate_command, ["-n", "4", "--plot", str(tmp_path / "c.png")])
    assert res.exit_code == 0 and (tmp_path / "c.png").stat().st_size > 10_000


# ---- last: a Ctrl-C lands wherever the client happens to be -----------------------------------
def test_ctrl_c_on_a_cluster_returns_the_hands_so_far(client, tmp_path, sigint_raises):
    ctrl_c = userbots.CtrlCFactory(os.getpid(), str(tmp_path / "sent"), after=20)
    stats = simulate(
        V, 2000, bots=[ctrl_c, "greedy", "greedy", "greedy"], cluster=client, chunk_size=25
    )
    assert stats.interrupted and stats.games < 2000 and stats.games % 25 == 0
    assert all(sum(h.values()) == stats.games for h in stats.score_hist)
    for _ in range(50):  # the cancelled chunks leave the scheduler (asynchronously)
        if client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0:
            break
        time.sleep(0.1)
    assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0
