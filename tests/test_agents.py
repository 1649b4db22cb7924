"""The agent protocol (issue 36): programs in any language as bots, at live seats, in a suite.

* every message a host writes validates against ``agent_message`` (and a ready line against
  ``agent_ready``) — in simulation and through ``mjcore agent`` at a live room;
* hostile agents (sleep, die, junk, illegal answers, floods, a 1 MiB line, no ready) never
  stop a run: their decisions are the fallback's (so the statistics equal greedy's at that
  seat), each fault is counted and reported, a dead agent is started again for the next hand;
* the reference agents (examples/agents: Python, Node, C) play the same decisions, built
  and run here in simulation (in process, worker processes, Dask), the league, the RL env's
  opponents and a live server room; the server never starts a program a request names;
* the suite's record is the same on worker processes and on a Dask LocalCluster.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import userbots  # noqa: E402
from server_support import missing  # noqa: E402

from mjcore.agents import exec as agent_exec  # noqa: E402
from mjcore.agents import protocol  # noqa: E402
from mjcore.agents.suite import run_suite, to_json, without_timing  # noqa: E402
from mjcore.errors import InvalidOptionError  # noqa: E402
from mjcore.sim import simulate  # noqa: E402
from mjcore.variants import get_variant  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "agents"
HOSTILE = Path(__file__).parent / "agents" / "hostile.py"
PY = sys.executable


def hostile(mode: str, *extra: str, settings: str = "") -> str:
    tail = f":{settings}" if settings else ""
    return f"exec:{PY} {HOSTILE} {mode} {' '.join(extra)}".rstrip() + tail


@pytest.fixture(scope="module", autouse=True)
def _stop_agents():
    yield
    agent_exec.stop_all()


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, str]:
    """The reference agent's three builds as exec: specs (the C one compiled here; a generous
    time budget: a loaded test machine must not turn a slow answer into a fault)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    node = shutil.which("node") or shutil.which("nodejs")
    if cc is None:
        pytest.skip(missing("a C compiler", "gcc"))
    if node is None:
        pytest.skip(missing("Node.js", "nodejs"))
    out = tmp_path_factory.mktemp("agents") / "rule_agent"
    subprocess.run(
        [cc, "-std=c99", "-O2", "-Wall", "-Werror", "-o", str(out), str(EXAMPLES / "rule_agent.c")],
        check=True,
    )
    return {
        "python": f"exec:{PY} {EXAMPLES / 'rule_agent.py'}:name=rule-py&timeout_ms=10000",
        "javascript": f"exec:{node} {EXAMPLES / 'rule_agent.js'}:name=rule-js&timeout_ms=10000",
        "c": f"exec:{out}:name=rule-c&timeout_ms=10000",
    }


def seat_rows(stats: Any) -> dict[str, Any]:
    """Everything a run's statistics say per seat (not per label), without the timing."""
    d = stats.to_dict()
    for key in ("bots", "backend", "seconds", "cpu_seconds", "hands_per_second", "faults"):
        d.pop(key)
    d.pop("by_bot")
    return d


# ---- the spec ------------------------------------------------------------------------------
def test_exec_specs_parse_and_bad_ones_are_named():
    spec = agent_exec.parse_exec(f"exec:{PY} -u my agent.py:timeout_ms=200&name=mine")
    assert spec.argv == (shutil.which(PY) or PY, "-u", "my", "agent.py")
    settings = (spec.timeout_ms, spec.start_ms, spec.fallback, spec.label)
    assert settings == (200, 10000, "greedy", "mine")
    assert agent_exec.parse_exec(f"exec:{PY}").label == f"exec:{PY}"
    assert (spec.cpu, agent_exec.parse_exec(f"exec:{PY}:cpu=any").cpu) == ("host", "any")
    for bad, words in [
        ("exec:", "no command"),
        ("exec:no-such-program-36", "not found"),
        ("exec:./no/such/file", "not an executable"),
        (f"exec:{PY}:timeout_ms=0", "timeout_ms"),
        (f"exec:{PY}:timeout_ms=fast", "timeout_ms"),
        (f"exec:{PY}:timeout=200", "unknown setting"),
        (f"exec:{PY}:fallback=exec", "fallback"),
        (f"exec:{PY}:cpu=all", "cpu must be one of host, any"),
        (f"exec:{PY} 'unclosed", "quotation"),
    ]:
        with pytest.raises(InvalidOptionError, match=words):
            simulate("lipu", 1, bots=[bad, "greedy", "greedy", "greedy"])


# ---- where the agent runs ------------------------------------------------------------------
def held_to(pid: int) -> list[set[int]]:
    """The CPU mask of every thread of process ``pid``."""
    return [os.sched_getaffinity(int(tid)) for tid in os.listdir(f"/proc/{pid}/task")]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU placement is Linux's")
@pytest.mark.parametrize("language", ["python", "javascript"])
def test_an_agent_runs_on_its_hosts_cpu_and_follows_it(language):
    """cpu=host (the default): every thread of the agent on the CPU of the host thread that
    started it, the host's own mask unchanged, and the agent moved when the host has moved
    by its next hand; cpu=any: the host's mask, as any child gets it."""
    node = shutil.which("node") or shutil.which("nodejs")
    if language == "javascript" and node is None:
        pytest.skip(missing("Node.js", "nodejs"))
    command = f"{PY} {HOSTILE} first"
    if language == "javascript":  # a runtime with threads of its own
        command = f"{node} {EXAMPLES / 'rule_agent.js'}"
    rules = get_variant("lipu").rules()
    mask = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, mask)
    except OSError:
        pytest.skip("this machine does not let a thread choose its CPUs")
    shared = agent_exec.parse_exec(f"exec:{command}:name=shared")
    free = agent_exec.parse_exec(f"exec:{command}:cpu=any&name=free")
    proc, fault = agent_exec.agent_process(shared, rules, 0, "simulation")
    assert fault == "" and proc.alive
    assert os.sched_getaffinity(0) == mask  # the host thread's mask is given back
    pid = proc._proc.pid
    assert proc.cpu in mask and held_to(pid) == [{proc.cpu}] * len(held_to(pid))
    others = sorted(mask - {proc.cpu})
    if others:  # the host thread moves; the agent follows at its next hand
        os.sched_setaffinity(0, {others[0]})
        try:
            again, fault = agent_exec.agent_process(shared, rules, 0, "simulation")
            assert again is proc and fault == ""
            assert proc.cpu == others[0] and all(m == {others[0]} for m in held_to(pid))
        finally:
            os.sched_setaffinity(0, mask)
    loose, fault = agent_exec.agent_process(free, rules, 0, "simulation")
    assert fault == "" and loose.cpu is None
    assert all(m == mask for m in held_to(loose._proc.pid))
    agent_exec.stop_all()


# ---- the messages against their schemas ----------------------------------------------------
def validators() -> tuple[Any, Any]:
    pytest.importorskip("jsonschema")
    from mjcore import schemas

    return schemas.validator("agent_message"), schemas.validator("agent_ready")


def check_log(log: Path) -> list[dict[str, Any]]:
    import jsonschema

    message, _ = validators()
    lines = log.read_text().splitlines()
    assert lines
    out = []
    for line in lines:
        msg = json.loads(line)
        error = jsonschema.exceptions.best_match(message.iter_errors(msg))
        assert error is None, f"{error.json_path}: {error.message}\n{line[:400]}"
        out.append(msg)
    return out


@pytest.mark.parametrize("variant", ["xuezhan_kaxinwu", "lipu", "susong", "qingdao", "rongcheng"])
def test_every_message_validates_in_simulation(tmp_path, variant):
    log = tmp_path / "messages.jsonl"
    spec = hostile("first", str(log), settings="timeout_ms=10000")  # a loaded machine: no timeouts
    stats = simulate(variant, 8, bots=[spec, "random", "expert", spec], seed=5, duplicate=True)
    assert not stats.faults
    agent_exec.stop_all()  # the agents read their last messages and exit
    msgs = check_log(log)
    kinds = [m["type"] for m in msgs]
    # one process per seat (the rotations seat the agent everywhere), reused across hands
    assert sorted(m["seat"] for m in msgs if m["type"] == "hello") == [0, 1, 2, 3]
    assert kinds.count("hand_start") == kinds.count("hand_end") == 16  # 2 seats × 8 hands
    assert kinds.count("decide") > 16
    ends = [m for m in msgs if m["type"] == "hand_end"]
    assert all(sum(m["settlement"]["scores"]) == 0 for m in ends)  # a settlement sums to zero
    assert all(m["view"]["phase"] == "over" for m in ends)
    for m in msgs:
        if m["type"] == "decide":
            assert m["legal"] == m["view"]["legal_actions"] and m["legal"]
            assert m["view"]["seat"] == m["view"]["to_act"][0]


def test_ready_lines_validate_and_bad_ones_do_not():
    _, ready = validators()
    assert ready.is_valid({"type": "ready", "name": "rule-agent", "language": "c"})
    assert ready.is_valid({"type": "ready"})
    assert not ready.is_valid({"type": "go"})
    assert not ready.is_valid({"type": "ready", "name": 3})
    message, _ = validators()
    good = protocol.hello("lipu", 4, {}, 0, 200, "simulation")
    assert message.is_valid(good)
    assert not message.is_valid({**good, "seat": 7})
    assert not message.is_valid({**good, "where": "moon"})
    assert not message.is_valid({**good, "extra": 1})


# ---- hostile agents ------------------------------------------------------------------------
FALLBACK_MODES = [
    ("junk", "malformed", ""),
    ("illegal", "illegal", ""),
    ("die", "crash", ""),
    ("sleep", "timeout", "timeout_ms=150"),
    ("longline", "flood", ""),
    ("noready", "start", "start_ms=300"),
]


@pytest.mark.parametrize("mode, fault, settings", FALLBACK_MODES)
def test_a_faulty_agent_never_stops_a_run_and_plays_the_fallback(mode, fault, settings):
    """Every decision of these agents faults, so the fallback (greedy, the seat's seed) plays
    them all: the run equals greedy at that seat, and every fault is counted."""
    spec = hostile(mode, settings=settings)
    hands = 4
    stats = simulate("qingdao", hands, bots=[spec, "greedy", "random", "greedy"], seed=11)
    same = simulate("qingdao", hands, bots=["greedy", "greedy", "random", "greedy"], seed=11)
    assert seat_rows(stats) == seat_rows(same)
    label = stats.bots[0]
    counts = stats.faults[label]
    per_hand = {"malformed", "illegal"}
    if fault in per_hand:  # every decision faults, the process lives on
        assert counts[fault] == counts["fallback"] > hands
    else:  # once a hand: the process is stopped, the rest of the hand is the fallback's
        assert counts[fault] == hands
        assert counts["fallback"] > hands
    assert set(counts) == {fault, "fallback"}
    assert f"faults of {label}: " in stats.summary()
    assert stats.to_dict()["faults"][label][fault] == counts[fault]


def test_a_flooding_agent_keeps_its_answers_and_is_counted():
    """Lines nobody asked for are thrown away before the next question (a flood fault); the
    agent's own answers stand: it plays as the same agent in process does."""
    spec = hostile("flood", settings="timeout_ms=10000")
    stats = simulate("lipu", 4, bots=[spec, "greedy", "greedy", "greedy"], seed=2)
    same = simulate("lipu", 4, bots=[userbots.FirstLegalBot, "greedy", "greedy", "greedy"], seed=2)
    assert seat_rows(stats) == seat_rows(same)
    counts = stats.faults[stats.bots[0]]
    assert counts["flood"] > 4 and "fallback" not in counts


def test_a_dead_agent_is_started_again_for_the_next_hand(tmp_path):
    log = tmp_path / "messages.jsonl"
    spec = hostile("die", str(log))
    stats = simulate("lipu", 3, bots=[spec, "greedy", "greedy", "greedy"], seed=4)
    agent_exec.stop_all()
    kinds = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert kinds.count("hello") == 3  # one start per hand: each died at its first decision
    assert stats.faults[stats.bots[0]]["crash"] == 3


def test_faults_on_worker_processes_and_in_the_league():
    from mjcore.sim.league import league

    spec = hostile("junk", settings="name=junk")
    inline = simulate("lipu", 8, bots=[spec, "greedy", "greedy", "greedy"], seed=3)
    pooled = simulate("lipu", 8, bots=[spec, "greedy", "greedy", "greedy"], seed=3, workers=2)
    assert inline.faults == pooled.faults and seat_rows(inline) == seat_rows(pooled)
    result = league("lipu", [spec, "greedy"], 8, seed=1)
    assert set(result.faults) == {"junk"} and result.faults["junk"]["malformed"] > 0
    assert result.statistics()["faults"]["junk"]["fallback"] == result.faults["junk"]["fallback"]
    text = result.summary()
    assert "junk *" in text and "* junk faulted" in text and "greedy *" not in text


# ---- the reference agents ------------------------------------------------------------------
def test_reference_agents_agree_in_simulation_on_every_backend(reference):
    pytest.importorskip("distributed")
    runs = {}
    for language, spec in reference.items():
        bots = [spec, "greedy", "expert", "greedy"]
        runs[language] = simulate("qingdao", 12, bots=bots, seed=21, duplicate=True)
        assert not runs[language].faults, language
    assert seat_rows(runs["python"]) == seat_rows(runs["javascript"]) == seat_rows(runs["c"])
    bots = [reference["c"], "greedy", "expert", reference["python"]]
    inline = simulate("susong", 8, bots=bots, seed=6)
    pooled = simulate("susong", 8, bots=bots, seed=6, workers=2)
    dask = simulate("susong", 8, bots=bots, seed=6, cluster="local:2")
    assert seat_rows(inline) == seat_rows(pooled) == seat_rows(dask)
    assert not (inline.faults or pooled.faults or dask.faults)
    # and it is not first-legal play: the agents' own rules decide
    first = simulate("qingdao", 12, bots=[userbots.FirstLegalBot, "greedy", "expert", "greedy"],
                     seed=21, duplicate=True)  # fmt: skip
    assert seat_rows(first) != seat_rows(runs["c"])


def test_reference_agents_in_the_league(reference):
    from mjcore.sim.league import league

    result = league("rongcheng", [*reference.values(), "greedy"], 8, seed=2)
    table = result.pairwise()
    rows = [dict(table[name]["greedy"]) for name in ("rule-py", "rule-js", "rule-c")]
    for row in rows:
        row.pop("agent")
    assert rows[0] == rows[1] == rows[2]
    assert table["greedy"]["rule-py"]["mean"] == table["greedy"]["rule-c"]["mean"]
    assert not result.faults


def test_reference_agent_as_rl_opponents(reference):
    gymnasium = pytest.importorskip("gymnasium")
    import mjcore.rl  # noqa: F401 - registers the envs

    env = gymnasium.make("mjcore/Lipu-v0", opponents=reference["c"], seat=0)
    try:
        for episode in range(2):
            obs, _ = env.reset(seed=episode)
            done, steps = False, 0
            while not done:
                action = int(obs["action_mask"].nonzero()[0][0])
                obs, _, done, _, info = env.step(action)
                steps += 1
            assert "scores" in info and sum(info["scores"]) == 0 and steps > 0
    finally:
        env.close()


# ---- a live room ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("starlette")
    pytest.importorskip("websockets")
    from server_support import Server

    srv = Server(tmp_path_factory.mktemp("agents") / "rooms.db").start()
    yield srv
    srv.stop()


def run_agent(server: Any, room: str, token: str, command: list[str], **kw: Any) -> Any:
    from server_support import env

    argv = [PY, "-m", "mjcore.cli", "agent", "--url", server.base, "--room", room,
            "--token", token, "--timeout-ms", "2000", "--", *command]  # fmt: skip
    kw.setdefault("cwd", str(server.db.parent))  # not the checkout (no built core there)
    return subprocess.Popen(argv, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def finish(proc: Any, timeout: float = 120) -> dict[str, Any]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err.decode()[-2000:]
    return json.loads(out.decode().strip().splitlines()[-1])


@pytest.mark.parametrize("language", ["python", "javascript", "c"])
def test_reference_agent_plays_a_live_room(server, reference, language):
    room = server.room(variant="qingdao", seats=["human", "greedy", "expert", "greedy"],
                       max_hands=2, next_hand_s=1)  # fmt: skip
    token = server.join(room, 0)
    command = agent_exec.parse_exec(reference[language]).argv
    report = finish(run_agent(server, room, token, list(command)))
    assert report["hands"] == 2 and report["decisions"] > 4
    assert report["faults"] == {} and report["agent"]["name"] == "rule-agent"
    summary = server.get(f"/api/rooms/{room}")
    assert summary["phase"] == "over" and sum(summary["scores"]) == 0


def test_live_messages_validate_and_a_dropped_connection_resumes(server, tmp_path):
    """The server is killed mid-match and started again on its database: the agent reconnects
    with hand/since and finishes every hand, with no message missed or answered twice."""
    log = tmp_path / "live.jsonl"
    room = server.room(variant="lipu", seats=["human", "greedy", "greedy", "greedy"],
                       max_hands=3, next_hand_s=1)  # fmt: skip
    token = server.join(room, 0)
    proc = run_agent(server, room, token, [PY, str(HOSTILE), "slow", str(log)])
    deadline = time.monotonic() + 60
    while server.get(f"/api/rooms/{room}")["hand"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.kill()
    time.sleep(0.5)
    server.start()
    report = finish(proc)
    assert report["hands"] == 3 and report["reconnects"] >= 1, report
    assert report["faults"] == {}, report
    msgs = check_log(log)
    kinds = [m["type"] for m in msgs]
    assert kinds.count("hello") == 1
    assert [m["hand"] for m in msgs if m["type"] == "hand_start"] == [0, 1, 2]
    assert [m["hand"] for m in msgs if m["type"] == "hand_end"] == [0, 1, 2]
    ends = [m for m in msgs if m["type"] == "hand_end"]
    assert all(sum(m["settlement"]["scores"]) == 0 for m in ends)
    assert all(m["settlement"]["scores"] == m["view"]["scores"] for m in ends)
    assert server.get(f"/api/rooms/{room}")["phase"] == "over"


def test_a_live_agent_that_dies_plays_the_fallback(server):
    room = server.room(variant="qingdao", seats=["human", "greedy", "greedy", "greedy"],
                       max_hands=2, next_hand_s=1)  # fmt: skip
    token = server.join(room, 0)
    report = finish(run_agent(server, room, token, [PY, str(HOSTILE), "die"]))
    assert report["hands"] == 2 and report["faults"]["crash"] == 2
    assert report["faults"]["fallback"] == report["decisions"]


def test_the_server_never_starts_a_program_a_request_names(server, tmp_path):
    marker = tmp_path / "started"
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\n")
    script.chmod(0o755)
    seats = ["human", "greedy", "greedy", "greedy"]
    for request in (
        {"variant": "lipu", "seats": ["human", f"exec:{script}", "greedy", "greedy"]},
        {"variant": "lipu", "seats": seats, "bot": f"exec:{script}"},
        {"variant": "lipu", "seats": ["human", f"{script}", "greedy", "greedy"]},
    ):
        status, body = server.post("/api/rooms", request)
        assert status == 400, body
    time.sleep(0.5)
    assert not marker.exists()


# ---- the suite -----------------------------------------------------------------------------
def test_the_suite_record_is_the_same_on_processes_and_dask(reference):
    pytest.importorskip("distributed")
    pytest.importorskip("openskill")
    pooled = run_suite("v1-smoke", reference["c"], workers=2)
    dask = run_suite("v1-smoke", reference["c"], cluster="local:2")
    assert to_json(without_timing(pooled)) == to_json(without_timing(dask))
    assert pooled["timing"]["backend"] != dask["timing"]["backend"]
    assert pooled["suite"] == "v1-smoke" and pooled["faults"] == {}
    assert pooled["ladder"][:3] == ["random", "greedy", "expert"]
    for name, row in pooled["variants"].items():
        assert set(row["opponents"]) == set(pooled["ladder"]), name
        for cell in row["opponents"].values():
            assert cell["hands"] == 8 and cell["low"] <= cell["mean"] <= cell["high"]
    assert pooled["rating"]["sigma"] > 0
    from mjcore.agents.suite import fingerprint

    assert pooled["fingerprint"] == dask["fingerprint"] == fingerprint(pooled)
    changed = json.loads(json.dumps(pooled))
    changed["variants"]["lipu"]["opponents"]["greedy"]["mean"] += 0.001
    assert fingerprint(changed) != pooled["fingerprint"]


def test_the_reference_agents_have_one_suite_record(reference):
    pytest.importorskip("openskill")
    records = [without_timing(run_suite("v1-smoke", spec)) for spec in reference.values()]
    assert [r.pop("agent") for r in records] == ["rule-py", "rule-js", "rule-c"]
    assert records[0] == records[1] == records[2]  # the fingerprint included


def test_league_suite_command_writes_the_record(reference, tmp_path):
    pytest.importorskip("openskill")
    from click.testing import CliRunner

    from mjcore.cli import main

    out = tmp_path / "record.json"
    args = ["league", "--suite", "v1-smoke", "--bots", reference["c"], "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())
    assert record["agent"] == "rule-c" and record["suite_version"] == 1
    again = CliRunner().invoke(main, ["league", "--suite", "v1-smoke", "--bots", "greedy,random"])
    assert again.exit_code != 0 and "one agent" in again.output
    bad = CliRunner().invoke(main, ["league", "--suite", "v9", "--bots", "greedy"])
    assert bad.exit_code != 0 and "unknown suite" in bad.output
    fixed = ["league", "--suite", "v1-smoke", "--bots", "greedy", "--hands", "8", "-o", "x=1"]
    refused = CliRunner().invoke(main, fixed)
    assert refused.exit_code != 0 and "drop --hands, --option" in refused.output


def test_the_shipped_anchors_are_the_calibration_output_and_rate_the_ladder_in_order():
    from mjcore.agents import suite

    v1 = suite.get_suite("v1")
    path = Path(suite.__file__).with_name("anchors_v1.json")
    assert path.read_text() == suite.anchors_file(v1, v1.anchors)
    assert set(v1.anchors) == set(suite.VARIANTS) and v1.deals == 200
    for variant, row in v1.anchors.items():
        assert {"random", "greedy", "expert"} <= set(row), variant
        assert row["random"][0] < min(row["greedy"][0], row["expert"][0]), variant
    assert suite.get_suite("v1-smoke").anchors == v1.anchors
    with pytest.raises(InvalidOptionError, match="unknown suite"):
        suite.get_suite("v0")


def test_the_published_records_are_whole_and_shown():
    """docs/records/v1/*.json: each file's fingerprint is its own text's, docs/benchmark.md
    shows it, and the reference agent's builds share one."""
    from mjcore.agents.suite import fingerprint

    page = (ROOT / "docs" / "benchmark.md").read_text(encoding="utf-8")
    prints = {}
    for path in sorted((ROOT / "docs" / "records" / "v1").glob("*.json")):
        record = json.loads(path.read_text())
        assert record["suite"] == "v1" and record["agent"] == path.stem
        assert record["fingerprint"] == fingerprint(record), path.name
        assert f"`{record['fingerprint'][:16]}`" in page, path.name
        assert f"| `{record['agent']}` | {record['rating']['mu']:.2f} ±" in page, path.name
        prints[path.stem] = record["fingerprint"]
    assert {"rule-c", "greedy", "expert", "random"} <= set(prints)
    assert len({prints[k] for k in prints if k.startswith("rule-")}) == 1
