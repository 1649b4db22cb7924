"""simulate() as users call it: their own bots, strict arguments, clear output, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import userbots
from click.testing import CliRunner

import mjcore
from mjcore.bots import GreedyBot, RandomBot
from mjcore.errors import InvalidOptionError
from mjcore.sim import simulate
from mjcore.sim.backends import interrupt_kept
from mjcore.sim.cli import simulate_command
from mjcore.sim.report import LEGEND

V = "xuezhan_kaxinwu"


@pytest.fixture
def sigint_raises():
    """SIGINT raises KeyboardInterrupt during the test, as in an interactive session, even when
    the test run was started with SIGINT ignored (a background job, some CI runners)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


# ---- user bots -----------------------------------------------------------------------------------
def test_a_bot_class_factory_or_instance_plays_like_the_name():
    """GreedyBot given as a name, a class, a factory or an instance: the same hands."""
    by_name = simulate(V, 12, seed=4, bots="greedy")
    for spec in (GreedyBot, userbots.greedy_factory, lambda seed: GreedyBot(seed), GreedyBot(99)):
        other = simulate(V, 12, seed=4, bots=spec)
        assert other.score_hist == by_name.score_hist
        assert other.wins_by_pattern == by_name.wins_by_pattern


def test_an_instance_is_copied_per_hand_so_chunking_does_not_matter():
    bot = RandomBot(0)
    a = simulate(V, 20, seed=1, bots=bot, chunk_size=20)
    b = simulate(V, 20, seed=1, bots=bot, chunk_size=3)
    assert a == b
    assert bot.rng.bit_generator.state == RandomBot(0).rng.bit_generator.state  # untouched


def test_a_protocol_only_bot_gets_views():
    stats = simulate(V, 5, seed=2, bots=[userbots.FirstLegalBot, "greedy", "random", "greedy"])
    assert stats.games == 5 and sum(stats.score_mean()) == pytest.approx(0)
    assert simulate(V, 3, bots=userbots.NoSeedBot).games == 3  # no-argument constructor


def test_mixed_tables_report_per_bot():
    stats = simulate(V, 40, seed=3, bots=["greedy", "random", GreedyBot, userbots.greedy_factory])
    # GreedyBot's label is its registered name, so it pools with "greedy"
    assert stats.bots == ["greedy", "random", "greedy", "greedy_factory"]
    assert set(stats.by_bot) == {"greedy", "random", "greedy_factory"}
    greedy = stats.by_bot["greedy"]
    assert greedy.seats == 2 and greedy.seat_hands == 80
    assert greedy.wins == stats.wins_by_seat[0] + stats.wins_by_seat[2]
    assert greedy.hands_won == stats.hands_won_by_seat[0] + stats.hands_won_by_seat[2]
    assert greedy.score_hist == stats.score_hist[0] + stats.score_hist[2]
    report = stats.bot_report()
    assert report["random"]["score_mean"] == pytest.approx(stats.score_mean()[1])
    assert report["greedy"]["score_mean"] > report["random"]["score_mean"]
    lo, hi = report["random"]["win_rate_ci95"]
    assert lo <= report["random"]["win_rate"] <= hi
    text = stats.summary()
    assert "greedy_factory" in text and "mean score ± 95% CI" in text
    assert json.loads(stats.to_json())["by_bot"]["random"]["seats"] == 1


def test_two_distinct_bots_with_one_name_get_two_rows():
    stats = simulate(V, 4, bots=[GreedyBot(1), RandomBot(2), GreedyBot(3), "greedy"])
    assert stats.bots == ["greedy#2", "random", "greedy#3", "greedy"]  # the name keeps its label
    assert stats.by_bot["greedy#2"].seat_hands == 4


def test_user_bots_run_on_worker_processes():
    spec = [userbots.greedy_factory, "random", userbots.FirstLegalBot, GreedyBot(5)]
    one = simulate(V, 24, seed=6, bots=spec)
    two = simulate(V, 24, seed=6, bots=spec, workers=2, chunk_size=5)
    assert one == two


def test_unpicklable_bots_fail_clearly_with_workers():
    with pytest.raises(InvalidOptionError, match=r"bots: seat 0's bot 'lambda' cannot be sent"):
        simulate(V, 4, bots=lambda seed: GreedyBot(seed), workers=2)


_TIMING = ("backend", "seconds", "cpu_seconds", "hands_per_second")
_RUN = (
    f"import mjcore; print(mjcore.simulate({V!r}, 20, seed=1, bots='random', workers=2).to_json())"
)
_MAIN_BOT = f"""
import mjcore
from mjcore.bots import GreedyBot

class MainBot(GreedyBot):
    pass

if __name__ == "__main__":
    one = mjcore.simulate({V!r}, 12, bots=MainBot, seed=2)
    two = mjcore.simulate({V!r}, 12, bots=MainBot, seed=2, workers=2, chunk_size=2)
    print(one == two, two.games, two.backend)
"""


def _python(how: str, code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new interpreter from standard input, ``-c`` or a script file; a
    hang (a pool restarting workers that die at start) fails on the timeout."""
    args = {"stdin": ["-"], "-c": ["-c", code], "script": [str(tmp_path / "run.py")]}[how]
    (tmp_path / "run.py").write_text(code)
    where = str(Path(mjcore.__file__).resolve().parents[1])  # the mjcore under test
    return subprocess.run(
        [sys.executable, *args],
        input=code if how == "stdin" else None,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": where},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("how", ["stdin", "-c", "script"])
def test_workers_start_whatever_the_main_module(tmp_path, how):
    """workers=2 from ``python -`` (a __main__ the workers cannot re-read), ``python -c`` and
    a script without the ``if __name__ == "__main__"`` guard: the workers=1 statistics."""
    res = _python(how, _RUN, tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    two = json.loads(res.stdout)
    one = simulate(V, 20, bots="random", seed=1).to_dict()
    assert two["backend"] == "2 processes"
    assert {k: v for k, v in two.items() if k not in _TIMING} == {
        k: v for k, v in one.items() if k not in _TIMING
    }


def test_a_bot_defined_in_a_script_runs_on_workers(tmp_path):
    res = _python("script", _MAIN_BOT, tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.split() == ["True", "12", "2", "processes"]


@pytest.mark.parametrize("how", ["stdin", "-c"])
def test_a_bot_defined_in_an_unimportable_main_fails_clearly(tmp_path, how):
    res = _python(how, _MAIN_BOT.replace('if __name__ == "__main__":', "if True:"), tmp_path)
    assert res.returncode == 1
    assert "bots: seat 0's bot 'MainBot' cannot be sent to worker processes" in res.stderr
    assert "run with workers=1" in res.stderr


def test_cli_takes_module_colon_class():
    res = CliRunner().invoke(
        simulate_command, ["-n", "6", "--json", "-b", "userbots:FirstLegalBot,greedy,random,greedy"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["bots"] == ["FirstLegalBot", "greedy", "random", "greedy"]
    assert data["by_bot"]["greedy"]["seats"] == 2
    for bad, message in (
        ("nosuchmodule_xyz:Bot", "cannot import 'nosuchmodule_xyz'"),
        ("userbots:Nope", "has no 'Nope'"),
        ("userbots:Path", "building a bot from userbots:Path failed"),
        ("json:dumps", "has no act"),
    ):
        res = CliRunner().invoke(simulate_command, ["-n", "1", "-b", bad])
        assert res.exit_code == 2 and message in res.output, res.output


# ---- strict arguments ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"bots": None}, "bots"),
        ({"bots": 3}, "bots"),
        ({"bots": ["greedy"] * 3}, "bots"),
        ({"bots": {"greedy": 1}}, "bots"),
        ({"bots": object()}, "bots"),
        ({"games": True}, "games"),
        ({"games": -1}, "games"),
        ({"games": 2.0}, "games"),
        ({"games": "10"}, "games"),
        ({"seed": True}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"workers": 0}, "workers"),
        ({"workers": True}, "workers"),
        ({"workers": 2.0}, "workers"),
        ({"players": "4"}, "players"),
        ({"players": 5}, "players"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"duplicate": "yes"}, "duplicate"),
        ({"duplicate": True, "games": 6}, "multiple of players"),
        ({"progress": "yes"}, "progress"),
        ({"options": "abc"}, "options"),
        ({"out": 3}, "out"),
        ({"variant": "nope"}, "unknown variant 'nope'"),
        ({"variant": ["qingdao"]}, "variant must be"),
        ({"workers": 2, "cluster": "local:2"}, "workers and cluster"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, name):
    args = {"games": 4, "variant": V} | kwargs
    games, variant = args.pop("games"), args.pop("variant")
    with pytest.raises(InvalidOptionError, match=name):
        simulate(variant, games, **args)


def test_an_unwritable_out_path_is_refused(tmp_path):
    pytest.importorskip("pyarrow")
    with pytest.raises(InvalidOptionError, match="out: cannot write"):
        simulate(V, 1, out=tmp_path)  # a directory
    with pytest.raises(InvalidOptionError, match="out: cannot write"):
        simulate(V, 1, out=tmp_path / "no" / "such" / "dir" / "h.parquet")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_bug_names_the_hand_to_replay(workers):
    from mjcore.sim import GameFailedError

    with pytest.raises(
        GameFailedError, match=r"game \d+ failed: RuntimeError: bot bug(.|\n)*play_game"
    ):
        simulate(V, 6, bots=["greedy", userbots.BrokenBot, "greedy", "greedy"], workers=workers)


def test_a_failed_run_stops_its_workers_without_terminating_them(monkeypatch):
    """After a bot's error the pool's workers are asked to stop (the run's cancel flag) and
    joined, never terminated first: Pool.terminate could stop a worker holding the result
    queue's lock, and then wait for that lock for ever (it did, in CI). A worker that stopped
    normally exits with 0, one terminated with -SIGTERM."""
    import multiprocessing.pool

    from mjcore.sim import GameFailedError

    terminated, exits = [], []
    terminate, join = multiprocessing.pool.Pool.terminate, multiprocessing.pool.Pool.join

    def spy_terminate(pool):
        terminated.append(pool)
        terminate(pool)

    def spy_join(pool):
        join(pool)
        exits.extend(p.exitcode for p in pool._pool)

    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate", spy_terminate)
    monkeypatch.setattr(multiprocessing.pool.Pool, "join", spy_join)
    for _ in range(3):
        with pytest.raises(GameFailedError):
            simulate(V, 40, bots=["greedy", userbots.BrokenBot, "greedy", "greedy"], workers=2,
                     chunk_size=2)  # fmt: skip
    assert terminated == [] and exits and all(code == 0 for code in exits), exits


def test_failed_runs_on_workers_never_hang(tmp_path):
    """The race above, run many times in a child process with a deadline (it hung the
    pool's shutdown within a few thousand runs before)."""
    here = str(Path(__file__).parent)  # (userbots)
    code = f"""if True:
        import sys; sys.path.insert(0, {here!r})
        import userbots
        from mjcore.sim import simulate, GameFailedError
        for _ in range(150):
            try:
                simulate("xuezhan_kaxinwu", 6, workers=2,
                         bots=["greedy", userbots.BrokenBot, "greedy", "greedy"])
            except GameFailedError:
                pass
        print("done")
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=240, cwd=tmp_path)  # fmt: skip  # (not the source tree)
    assert out.returncode == 0 and out.stdout.strip() == "done", out.stderr[-2000:]


def test_numpy_integers_and_none_seed():
    a = simulate(V, np.int64(6), seed=np.int64(5), workers=np.int32(1))
    assert a == simulate(V, 6, seed=5) and type(a.seed) is int
    fresh = simulate(V, 6, seed=None)
    assert isinstance(fresh.seed, int) and fresh == simulate(V, 6, seed=fresh.seed)


def test_zero_games_give_empty_statistics():
    for workers in (1, 2):
        stats = simulate(V, 0, workers=workers, bots=["greedy", "random", "greedy", "random"])
        assert stats.games == 0 and stats.wins == 0 and not stats.interrupted
        assert stats.win_rate == [0.0] * 4 and stats.by_bot["greedy"].seat_hands == 0
        assert "0 hands" in stats.summary()
        json.loads(stats.to_json())
    res = CliRunner().invoke(simulate_command, ["--games", "0"])
    assert res.exit_code == 0 and "0 hands" in res.stdout


# ---- output --------------------------------------------------------------------------------------
def test_win_rate_and_wins_are_labelled_plainly():
    stats = simulate(V, 10, seed=1)
    text = stats.summary()
    assert LEGEND in text
    assert "win-rate = share of hands the seat (bot) won at least once" in text
    assert "wins = number of wins" in text
    # 血战: more wins than hands won, and the two columns say so
    assert stats.wins > sum(stats.hands_won_by_seat)


def test_progress_bar_only_on_a_terminal(capsys):
    simulate(V, 3, progress=None)  # pytest's stderr is not a terminal
    assert capsys.readouterr().err == ""
    simulate(V, 3, progress=True)
    assert "simulate" in capsys.readouterr().err
    res = CliRunner().invoke(simulate_command, ["-n", "3"])  # CLI default: auto
    assert res.exit_code == 0 and res.stderr == ""
    res = CliRunner().invoke(simulate_command, ["-n", "3", "--progress"])
    assert "hand" in res.stderr


def test_ctrl_c_returns_the_hands_so_far():
    userbots.TiredBot._made = 0  # resolving the bots makes one: hand i makes bot i + 2
    stats = simulate(
        V, 30, seed=2, bots=[userbots.TiredBot, "greedy", "greedy", "greedy"], chunk_size=3
    )
    assert stats.interrupted and stats.games == 5  # the 7th bot plays hand 5
    assert all(sum(h.values()) == 5 for h in stats.score_hist)
    full = simulate(V, 5, seed=2, bots=[userbots.TiredBot, "greedy", "greedy", "greedy"])
    assert stats.score_hist == full.score_hist
    assert "INTERRUPTED" in stats.summary() and json.loads(stats.to_json())["interrupted"]


def test_ctrl_c_with_workers(sigint_raises):
    marker = Path(userbots.ctrl_c_marker(os.getpid()))
    marker.unlink(missing_ok=True)
    try:
        stats = simulate(V, 4000, seed=2, bots=userbots.CtrlCFromWorker, workers=2, chunk_size=5)
    finally:
        marker.unlink(missing_ok=True)
    assert stats.interrupted and stats.games < 4000 and stats.games % 5 == 0
    assert all(sum(h.values()) == stats.games for h in stats.score_hist)


def test_ctrl_c_inside_a_lock_wait_stays_an_interrupt():
    """Ctrl-C landing in Condition.wait's re-acquire surfaces as RuntimeError("release unlocked
    lock") from the ``with``: the pool backend turns it back into the KeyboardInterrupt
    ``drive`` answers with the hands so far; another RuntimeError passes unchanged."""
    lock = threading.Lock()
    with pytest.raises(KeyboardInterrupt), interrupt_kept():
        try:
            raise KeyboardInterrupt  # (where Condition._acquire_restore was interrupted)
        finally:
            lock.release()  # what Condition.__exit__ then does: raises RuntimeError
    with pytest.raises(RuntimeError, match="other"), interrupt_kept():
        raise RuntimeError("other")


def test_cli_ctrl_c_prints_the_report_and_exits_130():
    userbots.TiredBot._made = 0
    res = CliRunner().invoke(simulate_command, ["-n", "20", "-b", "userbots:TiredBot"])
    assert res.exit_code == 130 and "INTERRUPTED" in res.stdout


def test_python_dash_m_mjcore(tmp_path):
    # the mjcore under test: the installed one in CI, the working tree's when run from it
    where = str(Path(mjcore.__file__).resolve().parents[1])
    res = subprocess.run(
        [sys.executable, "-m", "mjcore", "simulate", "-n", "2", "--json"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": where},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["games"] == 2
    assert mjcore.simulate is simulate


# ---- variant counters hook -----------------------------------------------------------------------
def test_variant_hand_counters_are_summed(monkeypatch):
    v = mjcore.get_variant(V)
    monkeypatch.setattr(
        type(v), "hand_counters", lambda self, game: {"won": int(bool(game.wins)), "one": 1}
    )
    a = simulate(V, 21, seed=8, chunk_size=4)
    assert a.hand_counters == {"won": 21 - a.draws, "one": 21}
    assert a == simulate(V, 21, seed=8, chunk_size=21)
    assert "variant counters (per hand): one 21 (1.000), won" in a.summary()
