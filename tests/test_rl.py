"""mjcore.rl (issue 24): the action table, the mask, the observation encoding and the envs."""

from __future__ import annotations

import copy
import dataclasses
import doctest
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
import vector_streams  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import mjcore.rl as rl  # noqa: E402
from mjcore import tiles as T  # noqa: E402
from mjcore.bots import make_bot  # noqa: E402
from mjcore.engine.actions import Action  # noqa: E402
from mjcore.engine.game import Game  # noqa: E402
from mjcore.engine.wall import Wall  # noqa: E402
from mjcore.errors import IllegalActionError  # noqa: E402
from mjcore.rl.encoding import Encoder  # noqa: E402
from mjcore.variants import get_variant, names  # noqa: E402

VARIANTS = names()
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rl.md"


def random_options(variant: str, rng: np.random.Generator) -> dict:
    """A random option set of ``variant`` (every bool and every choice field)."""
    out = {}
    for f in dataclasses.fields(get_variant(variant).Options):
        choices = f.metadata.get("choices")
        if isinstance(f.default, bool):
            out[f.name] = bool(rng.integers(2))
        elif choices:
            out[f.name] = choices[int(rng.integers(len(choices)))]
    return out


def mixed_play(game: Game, seed: int, check=None, limit: int = 2000) -> Game:
    """Play ``game`` to its end: greedy bots half the time, a uniformly random legal action
    otherwise (so rare actions — declarations, 扭, gangs — are taken too); ``check(game, seat)``
    before every decision of every seat asked."""
    rng = np.random.default_rng(seed)
    bots = [make_bot("greedy", seed + s) for s in range(game.n)]
    for _ in range(limit):
        if game.is_over:
            return game
        acting = game.to_act()
        if check is not None:
            for s in range(game.n):
                check(game, s)
        seat = acting[0]
        legal = game.legal_actions(seat)
        rare = [a for a in legal if a.kind in ("declare", "niu", "gang", "choose")]
        if rare and rng.random() < 0.3:
            action = rare[int(rng.integers(len(rare)))]
        elif rng.random() < 0.5:
            action = bots[seat].act_fast(game, seat, legal)
        else:
            action = legal[int(rng.integers(len(legal)))]
        game.apply(seat, action)
    raise AssertionError("the hand did not end")


# ---- the action table and the mask --------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_action_table_texts_are_unique_and_round_trip(variant):
    rng = np.random.default_rng(1)
    for opts in [None] + [random_options(variant, rng) for _ in range(4)]:
        table = rl.action_table(variant, opts)
        assert len(set(table)) == len(table)
        for i, text in enumerate(table):
            action = rl.decode_action(variant, i, opts)
            assert str(action) == text
            assert rl.encode_action(variant, action, opts) == i
            assert rl.encode_action(variant, text, opts) == i


def test_action_table_covers_the_documented_kinds():
    qd = rl.action_table("qingdao", {"niupai": True})
    assert "declare kouting" in qd and "niu 567z" in qd and "niu 1z" in qd
    assert "choose pao 2" in qd and "chi 123m" in qd
    assert not any(a.startswith("chi") for a in rl.action_table("qingdao", {"no_chi": True}))
    xz = rl.action_table("xuezhan_kaxinwu")
    assert "discard 1m" not in xz and "discard 1m" in rl.action_table(
        "xuezhan_kaxinwu", {"three_suits": True}
    )
    ss = rl.action_table("susong", {"piaohua": True, "chuzeng": 1})
    assert "discard 8f" in ss and "discard 5z" in ss and "gang 5z" not in ss
    assert "choose piao 1" in ss and "choose zeng 3" in ss
    assert "choose zeng 0" not in rl.action_table("susong")
    rc = rl.action_table("rongcheng")
    assert {"declare minglou", "declare cunpai", "choose changpao 2"} <= set(rc)


def test_encode_and_decode_reject_what_is_not_in_the_table():
    with pytest.raises(IllegalActionError):
        rl.encode_action("xuezhan_kaxinwu", "chi 123p")
    with pytest.raises(IllegalActionError):
        rl.decode_action("qingdao", len(rl.action_table("qingdao")))
    with pytest.raises(IllegalActionError):
        rl.decode_action("qingdao", 1.5)
    table = rl.table_for("lipu")
    assert rl.encode_action(table, Action.parse("hu")) == table.texts.index("hu")


@pytest.mark.parametrize("variant", VARIANTS)
def test_mask_is_exactly_the_legal_set_in_random_play(variant):
    rng = np.random.default_rng(hash(variant) % 2**32)
    seen: set[str] = set()
    for k in range(12):
        opts = random_options(variant, rng) if k else None
        players = int(rng.integers(2, 5))
        enc = Encoder(get_variant(variant), opts)
        mask = np.zeros(len(enc.table), dtype=np.int8)

        def check(game, seat, enc=enc, mask=mask):
            enc.mask(game, seat, mask)
            legal = game.legal_actions(seat)
            assert sorted(np.flatnonzero(mask)) == sorted(enc.table.encode(a) for a in legal)
            for i in np.flatnonzero(mask):
                assert enc.table.decode(i) in legal
            seen.update(str(a) for a in legal)

        game = get_variant(variant).new_game(players, opts, seed=k)
        mixed_play(game, k, check)
    kinds = {text.split()[0] for text in seen}
    assert {"discard", "peng", "hu", "pass"} <= kinds


# ---- the observation holds nothing hidden ---------------------------------------------------
def permute_hidden(game: Game, observer: int, rng: np.random.Generator) -> Game:
    """A copy of ``game`` whose hidden tiles — the undrawn wall, every other seat's concealed
    tiles (not a 明搂 hand) and a face-down indicator — are shuffled among themselves."""
    g = copy.deepcopy(game)
    w = g.wall
    order = w.tiles  # (the public API: compiled, the Wall's byte order is a C field)
    slots: list[tuple[str, int]] = []
    pool: list[int] = []
    for i in range(w.head, w.tail):
        if not g.is_flower[order[i]]:
            slots.append(("wall", i))
            pool.append(order[i])
    for s, st in enumerate(g.seats):
        if s == observer or st.declared == "minglou" or g.is_over:
            continue
        for t in T.from_counts(st.hand):
            slots.append(("hand", s))
            pool.append(t)
        st.hand[:] = bytes(T.N_KINDS)
    for j, t in enumerate(g.hidden_indicators):
        slots.append(("indicator", j))
        pool.append(t)
    rng.shuffle(pool)
    for (where, i), t in zip(slots, pool, strict=True):
        if where == "wall":
            order[i] = t
        elif where == "hand":
            g.seats[i].hand[t] += 1
        else:
            g.hidden_indicators[i] = t
            g.extra["joker_kind"] = t  # 荣成: the face-down 宝 is the joker kind already
    g.wall = Wall(order, w.head, w.tail, w.kept, w.reserve)
    g._forget_legal()
    for st in g.seats:
        st._waits = -1
    assert g.tiles_in_play() == game.tiles_in_play()
    return g


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_does_not_change_with_hidden_tiles(variant):
    rng = np.random.default_rng(7)
    checked = 0
    for k in range(3):
        opts = random_options(variant, rng) if k else None
        enc = Encoder(get_variant(variant), opts)
        game = get_variant(variant).new_game(4, opts, seed=100 + k)
        steps = [0]

        def check(g, seat, enc=enc, steps=steps):
            nonlocal checked
            steps[0] += 1
            if steps[0] % 7:
                return
            other = permute_hidden(g, seat, rng)
            assert np.array_equal(enc.observation(g, seat), enc.observation(other, seat))
            assert np.array_equal(enc.action_mask(g, seat), enc.action_mask(other, seat))
            checked += 1

        mixed_play(game, k, check)
    assert checked > 10


def test_the_wall_order_alone_changes_nothing_seen():
    """Two deals with the same seat-0 hand and draws but different others' hands and wall."""
    v = get_variant("xuezhan_kaxinwu")
    tile_set = v.tile_kinds(v.parse_options(None))
    from mjcore.engine.wall import build_wall

    hands = {0: "11123456789999p"}
    a = v.new_game(wall=build_wall(tile_set, 4, hands=hands, seed=1))
    b = v.new_game(wall=build_wall(tile_set, 4, hands=hands, seed=2))
    enc = Encoder(v)
    assert a.seats[1].hand != b.seats[1].hand
    assert np.array_equal(enc.observation(a, 0), enc.observation(b, 0))
    assert not np.array_equal(enc.observation(a, 1), enc.observation(b, 1))


def test_layout_names_every_entry_once():
    for variant in VARIANTS:
        fields = rl.observation_layout(variant)
        ends = [f.offset + f.size for f in fields]
        assert [f.offset for f in fields[1:]] == ends[:-1] and fields[0].offset == 0
        assert ends[-1] == Encoder(get_variant(variant)).size
        assert len({f.name for f in fields}) == len(fields)


# ---- the PettingZoo and Gymnasium checkers ---------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api(variant, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rl.env(variant, players, seed=players), num_cycles=40)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_check_env(variant, players):
    env = gymnasium.make(rl.ENV_IDS[variant], players=players, opponents="greedy", seat=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)


def test_gym_env_plays_whole_hands_against_any_bot_spec():
    env = gymnasium.make("mjcore/Qingdao-v0", opponents=["greedy", "random", "greedy"], seat=2)
    obs, info = env.reset(seed=3)
    total, done = 0.0, False
    rng = np.random.default_rng(0)
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
    assert total == info["scores"][2] == env.unwrapped.game.scores[2]
    raising = rl.MjcoreGymEnv("lipu", illegal="raise")
    obs, _ = raising.reset(seed=1)
    with pytest.raises(IllegalActionError):
        raising.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


# ---- reproducible, zero-sum, the vector env agrees -------------------------------------------
def pick(mask: np.ndarray, step: int, i: int = 0) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[(step * 7 + i * 3) % len(legal)])


def aec_trajectory(variant, seed, players=4, hands=None):
    env = rl.env(variant, players, hands=hands)
    env.reset(seed=seed)
    out, step = [], 0
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        out.append((agent, obs["observation"].copy(), obs["action_mask"].copy()))
        env.step(pick(obs["action_mask"], step))
        out[-1] += (dict(env.rewards),)
        step += 1
    return out, env


@pytest.mark.parametrize("variant", VARIANTS)
def test_seeded_runs_reproduce_and_rewards_sum_to_zero(variant):
    a, env = aec_trajectory(variant, 5)
    b, _ = aec_trajectory(variant, 5)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x[0] == y[0] and np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])
        assert x[3] == y[3] and sum(x[3].values()) == 0
    totals = {ag: sum(step[3][ag] for step in a) for ag in env.possible_agents}
    assert [totals[ag] for ag in env.possible_agents] == env.unwrapped.game.scores
    assert env.unwrapped.game.seed == 5


def test_match_mode_rotates_dealers_and_rewards_the_whole_match():
    traj, env = aec_trajectory("qingdao", 9, hands=3)
    match = env.unwrapped._table.match
    assert len(match.hands) == 3 and all(g.is_over for g in match.hands)
    totals = [sum(step[3][ag] for step in traj) for ag in env.possible_agents]
    assert totals == match.scores and sum(totals) == 0
    from mjcore.engine.match import Match

    replay = Match("qingdao", 4, seed=9)
    for g in match.hands:
        fresh = replay.new_hand()
        assert fresh.wall.tiles == g.wall.tiles and fresh.dealer == g.dealer
        for seat, action in g.history:
            fresh.apply(seat, action)


@pytest.mark.parametrize("variant", VARIANTS)
def test_vector_env_matches_the_single_env(variant):
    n, seed, players = 3, 20, 3
    vec = rl.VectorEnv(variant, n, players=players, seed=seed)
    obs, mask, seat = vec.reset()
    singles = [aec_trajectory_env(variant, seed + i, players) for i in range(n)]
    steps = [0] * n
    finished = [False] * n
    while not all(finished):
        actions = np.array([pick(mask[i], steps[i], 0) for i in range(n)])
        for i, (env, traj) in enumerate(singles):
            if finished[i]:
                continue
            agent = env.agent_selection
            o = env.observe(agent)
            assert agent == f"seat_{seat[i]}"
            assert np.array_equal(o["observation"], obs[i])
            assert np.array_equal(o["action_mask"], mask[i])
            env.step(int(actions[i]))
            traj.append([env.rewards[a] for a in env.possible_agents])
        obs, mask, seat, rewards, done, info = vec.step(actions)
        assert (rewards.sum(axis=1) == 0).all()
        for i, (env, traj) in enumerate(singles):
            if finished[i]:
                continue
            assert rewards[i].tolist() == traj[-1]
            steps[i] += 1
            if done[i]:
                assert all(env.terminations.values())
                assert info["final_scores"][i].tolist() == env.unwrapped.game.scores
                finished[i] = True
            else:
                assert not any(env.terminations.values())
    assert sorted(vec.game_seeds.tolist()) == list(range(seed + n, seed + 2 * n))


def aec_trajectory_env(variant, seed, players):
    env = rl.env(variant, players)
    env.reset(seed=seed)
    return env, []


@pytest.mark.parametrize("variant", VARIANTS)
def test_vector_env_kept_seat_planes_match_a_fresh_read(variant):
    """VectorEnv keeps each game's melds, rivers, flowers and wins between steps (SeatPlanes);
    every observation equals the Encoder's, which reads the game afresh: under random options,
    2–4 players, Match mode (new games in a kept slot) and rare actions taken often."""
    rng = np.random.default_rng(3)
    for k, players in enumerate((4, 3, 2)):
        opts = random_options(variant, rng) if k else None
        vec = rl.VectorEnv(variant, 3, players=players, options=opts, seed=40 + k, hands=2)
        obs, mask, seat = vec.reset()
        table = vec.table
        for _ in range(250):
            for i in range(vec.num_envs):
                game = vec.tables[i].game
                assert np.array_equal(obs[i], vec.encoder.observation(game, int(seat[i])))
            actions = []
            for i in range(vec.num_envs):
                legal = np.flatnonzero(mask[i])
                rare = [a for a in legal if table.actions[a].kind in ("declare", "niu", "gang")]
                pool = rare if rare and rng.random() < 0.5 else legal
                actions.append(int(pool[int(rng.integers(len(pool)))]))
            obs, mask, seat, _, _, _ = vec.step(np.array(actions))


def test_vector_env_rejects_bad_actions():
    vec = rl.VectorEnv("lipu", 2, seed=1)
    _, mask, _ = vec.reset()
    with pytest.raises(IllegalActionError):
        vec.step(np.array([0]))
    bad = np.array([int(np.flatnonzero(mask[0] == 0)[0]), int(np.flatnonzero(mask[1])[0])])
    with pytest.raises(IllegalActionError):
        vec.step(bad)


# ---- docs/rl.md ----------------------------------------------------------------------------
def test_docs_snippets_run():
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"rl.md[{i}]", str(DOCS), 0)
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} docs/rl.md examples failed"


def test_docs_table_names_every_field():
    text = DOCS.read_text(encoding="utf-8")
    enc = Encoder(get_variant("rongcheng"))
    for f in enc.layout():
        generic = re.sub(r"seat\d", "seatR", f.name)
        assert f"`{generic}`" in text, f.name


# ---- what the first cut left out: locks, 扣听, 宿松 花 / 三比, 互包 ----------------------------
def field(enc: Encoder, name: str, obs: np.ndarray) -> np.ndarray:
    """The entries of field ``name`` in ``obs``."""
    (f,) = [f for f in enc.layout() if f.name == name]
    return obs[f.offset : f.offset + f.size]


def test_kouting_is_seen_by_every_seat_and_locks_the_mask():
    """青岛 扣听 scripted (docs/rules/qingdao.md): the declaration shows in every seat's
    observation and the declarer's mask is the ready discards, then only hu / the drawn tile."""
    from scenario import drive, scripted_game

    hands = {0: "1122335566779p1z"}  # ready on 9p after discarding 1z
    game = scripted_game("qingdao", hands, draws="1m2m3m9p", options={"hun": False})
    enc = Encoder(game.variant, {"hun": False})
    for seat in range(4):
        game.apply(seat, "choose pao 0")
    kouting = enc.table.encode("declare kouting")
    assert enc.action_mask(game, 0)[kouting] == 1
    assert not field(enc, "seat0.declared", enc.observation(game, 0)).any()
    game.apply(0, "declare kouting")
    for seat in range(4):  # seat 0 is R = (0 - seat) % 4 places after the observer
        declared = field(enc, f"seat{(0 - seat) % 4}.declared", enc.observation(game, seat))
        assert declared.tolist() == [1.0]
    ready = [enc.table[i] for i in np.flatnonzero(enc.action_mask(game, 0))]
    assert ready == ["discard 9p", "discard 1z"]  # the discards that keep the hand ready
    drive(game, [(0, "discard 1z"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri")])
    assert game.current == 0 and T.NOTATION[game.drawn] == "9p"
    assert [enc.table[i] for i in np.flatnonzero(enc.action_mask(game, 0))] == ["discard 9p", "hu"]


@pytest.mark.parametrize("variant", ["xuezhan_kaxinwu", "lipu", "susong", "qingdao"])
def test_locks_and_bans_are_in_their_own_seats_observation(variant):
    """过手胡 / 过手碰 locks, a chi's discard ban and 补杠 bans: in the seat's own rows exactly."""
    v = get_variant(variant)
    rng = np.random.default_rng(3)
    seen = {"pass_hu": 0, "pass_peng": 0, "no_discard": 0, "pass_hu_any": 0}
    wanted = {"pass_hu", "pass_peng"} if v.pass_hu_rule == "same_kind" else {"pass_hu_any"}
    if variant in ("lipu", "susong"):
        wanted.add("no_discard")
    for k in range(40):  # until every lock the variant has was seen at least once
        opts = random_options(variant, rng) if k % 2 else None
        enc = Encoder(v, opts)

        def check(game, seat, enc=enc):
            obs = enc.observation(game, seat)
            st = game.seats[seat]
            want = np.zeros(T.N_ALL_KINDS, dtype=np.float32)
            if v.pass_hu_rule == "same_kind":
                for t, points in st.pass_hu.items():
                    want[t] = points
            assert np.array_equal(field(enc, "plane.pass_hu", obs), want)
            for name in ("pass_peng", "no_discard", "no_bugang"):
                row = field(enc, f"plane.{name}", obs)
                assert sorted(np.flatnonzero(row)) == sorted(getattr(st, name)), name
                seen[name] = seen.get(name, 0) + bool(row.any())
            any_lock = field(enc, "pass_hu_any", obs)[0]
            assert any_lock == (v.pass_hu_rule == "any" and st.pass_hu_any)
            seen["pass_hu"] += bool(want.any())
            seen["pass_hu_any"] += bool(any_lock)

        mixed_play(v.new_game(4, opts, seed=30 + k), k, check)
        if all(seen[name] for name in wanted):
            break
    assert all(seen[name] for name in wanted), seen


def test_susong_hua_and_sanbi_match_the_view():
    v = get_variant("susong")
    enc = Encoder(v, {"piaohua": True})
    hua_seen = 0

    def check(game, seat):
        nonlocal hua_seen
        obs = enc.observation(game, seat)
        public = game.view(seat)["public"]
        n = game.n
        for r in range(n):
            s = (seat + r) % n
            assert field(enc, f"seat{r}.hua", obs)[0] == public["hua"][s]
            hua_seen += public["hua"][s] > 0
            related = {b if a == s else a for a, b in public["sanbi"] if s in (a, b)}
            marks = field(enc, f"seat{r}.sanbi", obs)
            assert {(seat + q) % n for q in np.flatnonzero(marks)} == related

    game = v.new_game(4, {"piaohua": True}, seed=4)
    mixed_play(game, 4, check)
    assert hua_seen
    game = v.new_game(4, {"piaohua": True}, seed=5)
    game.seats[1].claimed_from[3] = 3  # seat 1 took three tiles from seat 3: 吃三比
    game.seats[1].claims = 3
    check(game, 0)
    assert field(enc, "seat1.sanbi", enc.observation(game, 0)).tolist() == [0, 0, 0, 1]


def test_liabilities_are_marked_both_ways():
    v = get_variant("lipu")
    enc = Encoder(v)
    game = v.new_game(4, seed=2)
    game.bind(0, 2)
    obs = enc.observation(game, 1)  # seat 0 is R = 3 from seat 1, seat 2 is R = 1
    assert field(enc, "seat3.liable", obs).tolist() == [0, 1, 0, 0]
    assert field(enc, "seat1.liable", obs).tolist() == [0, 0, 0, 1]
    assert not field(enc, "seat0.liable", obs).any()


def test_the_hot_path_is_compiled_with_the_engine():
    """mjcore/rl/_fast.py is built like the engine modules (CMakeLists.txt): compiled exactly
    when they are, pure Python under MJCORE_PURE_PYTHON=1."""
    import importlib.machinery

    import mjcore.engine.game as engine_game
    from mjcore.rl import _fast

    def compiled(module) -> bool:
        return str(module.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))

    assert compiled(_fast) == compiled(engine_game)


_VECTOR_PROBE = """
import hashlib, sys
import numpy as np
import mjcore.rl as rl
digest = hashlib.sha256()
for variant in ("qingdao", "susong", "rongcheng"):
    vec = rl.VectorEnv(variant, 3, players=4, options={"piaohua": True} if variant == "susong"
                       else None, seed=11)
    obs, mask, seat = vec.reset()
    for step in range(300):
        acts = np.array([np.flatnonzero(mask[i])[(step * 5 + i) % int(mask[i].sum())]
                         for i in range(3)])
        obs, mask, seat, rewards, done, info = vec.step(acts)
        for a in (obs, mask, seat, rewards, done):
            digest.update(np.ascontiguousarray(a).tobytes())
print(digest.hexdigest())
"""


def test_compiled_and_pure_vector_envs_agree(tmp_path):
    """The same seeded VectorEnv run, byte for byte, compiled and under MJCORE_PURE_PYTHON=1
    (run outside the source tree, so the installed package is imported)."""
    import os
    import subprocess
    import sys

    runs = {}
    for pure in ("0", "1"):
        env = {**os.environ, "MJCORE_PURE_PYTHON": pure}
        out = subprocess.run(
            [sys.executable, "-c", _VECTOR_PROBE],
            env=env,
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert out.returncode == 0, out.stderr
        runs[pure] = out.stdout.strip()
    assert runs["0"] == runs["1"] and len(runs["0"]) == 64


@pytest.mark.parametrize("combo", vector_streams.combos(), ids=lambda c: vector_streams.key(*c))
def test_vector_env_streams_match_the_recording(combo):
    """A seeded VectorEnv run gives, byte for byte, the observations, masks, seats, rewards,
    done flags and final scores recorded with the build before issue 34's engine work
    (tools/record_vector_digests.py): the faster loop changed nothing a learner reads."""
    recorded = vector_streams.load()
    assert (recorded["envs"], recorded["steps"], recorded["seed"]) == (
        vector_streams.ENVS, vector_streams.STEPS, vector_streams.SEED)  # fmt: skip
    assert vector_streams.stream_digest(*combo) == recorded["digests"][vector_streams.key(*combo)]


def test_the_imitation_example_beats_the_random_bot(tmp_path):
    """examples/rl_imitation.py (the README's learning example), small: its policy's mean score
    against three random bots, duplicate over deals, has its 95 % interval above zero."""
    import subprocess
    import sys

    example = DOCS.parent.parent / "examples" / "rl_imitation.py"
    out = subprocess.run(
        [sys.executable, str(example), "120", "40"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path, check=True,
    ).stdout  # fmt: skip
    found = re.search(r"policy vs 3 random bots: ([+-][\d.]+) ± ([\d.]+)", out)
    assert found, out
    mean, ci = float(found[1]), float(found[2])
    assert ci > 0 and mean - ci > 0, out


def test_phase_and_draw_lookups_agree_with_their_tables(tmp_path):
    """_fast's C-string cascades for the phase and the draw (cdef when compiled: read in the
    pure-Python fallback) give exactly PHASE_INDEX / DRAW_INDEX."""
    import os
    import subprocess
    import sys

    code = (
        "from mjcore.rl import _fast as f\n"
        "assert all(f._phase_index(k) == v for k, v in f.PHASE_INDEX.items())\n"
        "assert all(f._draw_index(k) == v for k, v in f.DRAW_INDEX.items())\n"
        "assert f._draw_index(None) == -1 and f._draw_index('x') == -1\n"
    )
    env = {**os.environ, "MJCORE_PURE_PYTHON": "1"}
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True, timeout=120)
