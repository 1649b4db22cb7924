"""A malformed action text is explained the same way through every door (issue 31): the
message quotes the text, says in words what is wrong (unknown verb, missing tile, no such
tile …) and lists the legal actions — from ``Game.apply``, the server, the CLI (``mjcore
replay`` of a hands file) and the RL envs / action table. The RL envs also say "call reset()
before step()" when stepped first."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from scenario import scripted_game

from mjcore.cli import main
from mjcore.engine.actions import Action, parse_action
from mjcore.errors import IllegalActionError

# text -> the words that must explain it
MALFORMED = {
    "gang": "missing tile",
    "discard 9z": "no such tile '9z'",
    "discard 0m": "no such tile '0m'",
    "fly 5p": "unknown verb 'fly'",
    "   ": "empty action",
    "discard 5m6m": "one tile expected",
    "discard 5m 6m": "takes one tile",
    "peng 5m": "takes no tile",
    "chi": "missing tiles",
    "chi 4x5x": "no such tiles",
    "declare": "takes one name",
    "choose pao": "a name and a number",
    "choose pao two": "not a whole number",
}


def explained(msg: str, text: str, problem: str, legal: list[str]) -> bool:
    return repr(text) in msg and problem in msg and msg.endswith("legal: " + ", ".join(legal))


@pytest.mark.parametrize(("text", "problem"), MALFORMED.items())
def test_game_apply_explains_and_lists_legal(text, problem):
    g = scripted_game("xuezhan_kaxinwu", {0: "123s456s789s11p46p5p"})
    legal = [str(a) for a in g.legal_actions(0)]
    before = g.to_json()
    with pytest.raises(IllegalActionError) as err:
        g.apply(0, text)
    assert explained(str(err.value), text, problem, legal), str(err.value)
    assert g.to_json() == before
    with pytest.raises(IllegalActionError, match="no action is legal for this seat now"):
        g.apply(1, text)  # a seat that is not asked: nothing is legal for it


def test_parse_alone_explains_without_a_legal_list():
    for text, problem in MALFORMED.items():
        with pytest.raises(IllegalActionError, match="legal") as err:
            parse_action(text, [Action("pass")])
        assert problem in str(err.value)
        with pytest.raises(IllegalActionError) as err:
            Action.parse(text)
        assert problem in str(err.value) and "legal" not in str(err.value)


def test_rl_table_and_envs_explain_and_list_legal():
    pytest.importorskip("pettingzoo")
    import gymnasium

    import mjcore.rl as rl

    table = rl.table_for("qingdao")
    with pytest.raises(IllegalActionError, match="missing tile"):
        table.encode("gang")
    assert table.decode("discard 5m") == Action.parse("discard 5m")  # text decodes too
    env = rl.env("qingdao", seed=3)
    with pytest.raises(IllegalActionError, match=r"call reset\(\) before step\(\)"):
        env.step(0)
    env.reset()
    seat = env.agent_name_mapping[env.agent_selection]
    legal = [str(a) for a in env.unwrapped.game.legal_actions(seat)]
    for text, problem in MALFORMED.items():
        with pytest.raises(IllegalActionError) as err:
            env.step(text)
        assert explained(str(err.value), text, problem, legal), str(err.value)
    with pytest.raises(IllegalActionError, match="legal: "):
        env.step(10**6)  # an index out of range lists them too
    env.step(legal[0])  # a legal action's text is taken
    genv = gymnasium.make("mjcore/Qingdao-v0", opponents="random").unwrapped
    with pytest.raises(IllegalActionError, match=r"call reset\(\) before step\(\)"):
        genv.step(0)
    genv.reset(seed=1)
    legal = [str(a) for a in genv.game.legal_actions(genv.seat)]
    with pytest.raises(IllegalActionError) as err:
        genv.step("discard 9z")
    assert explained(str(err.value), "discard 9z", "no such tile", legal), str(err.value)


def test_cli_replay_explains_a_malformed_recorded_action(tmp_path):
    """``mjcore replay`` of a hands file whose recorded action was edited to 'gang'."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    out = tmp_path / "run.parquet"
    runner = CliRunner()
    res = runner.invoke(
        main, ["simulate", "-v", "qingdao", "--games", "1", "--out", str(out), "--no-progress"]
    )
    assert res.exit_code == 0, res.output
    table = pq.read_table(out)
    actions = table.column("actions").to_pylist()
    actions[0][0] = "gang"  # the first recorded action (a 跑 choice) made malformed
    table = table.set_column(
        table.column_names.index("actions"),
        "actions",
        pa.array(actions, table.schema.field("actions").type),
    )
    pq.write_table(table, out)
    res = runner.invoke(main, ["replay", str(out), "--hand", "0"])
    assert res.exit_code == 1
    assert "bad action 'gang': missing tile" in res.output
    assert "legal: choose pao 0, choose pao 1, choose pao 2" in res.output


def test_server_explains_a_malformed_action(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("websockets")
    from server_support import Client, Server

    srv = Server(tmp_path / "rooms.db").start()
    try:
        room = srv.room(variant="xuezhan_kaxinwu", idle_timeout_s=60)
        token = srv.join(room)
        c = Client(srv, room)
        state = c.hello(token)
        if not state["view"]["legal_actions"]:
            state = c.my_turn()
        legal = state["view"]["legal_actions"]
        for text, problem in (("gang", "missing tile"), ("discard 9z", "no such tile '9z'")):
            c.send(json.dumps({"type": "act", "action": text, "id": 1}))
            reply = c.until(lambda m: m["type"] == "error")
            assert reply["code"] == "illegal"
            assert explained(reply["message"], text, problem, legal), reply
        c.close()
    finally:
        srv.stop()
