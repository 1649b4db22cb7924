"""The compiled engine modules and the pure-Python fallback give the same results.

``pip install .`` compiles the hot modules with Cython; ``MJCORE_PURE_PYTHON=1`` loads every
``.py`` source instead. The fallback is run in a subprocess (the switch acts at import).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import mjcore
from mjcore import tiles as T
from mjcore._core import discard_shanten, form_flags
from mjcore.engine.game import STATE, Game
from mjcore.errors import InvalidHandError
from mjcore.hand import shanten

_PROBE = """
import json, mjcore
stats = [json.loads(mjcore.simulate(v, games=12, bots=b, seed=9, progress=False).to_json())
         for v in mjcore.names() for b in ("random", "greedy", "expert")]
for s in stats:
    for k in ("seconds", "cpu_seconds", "hands_per_second"):
        s.pop(k, None)
game = mjcore.get_variant("qingdao").new_game(seed=1)
fields = sorted(vars(game)) if hasattr(game, "__dict__") else None
print(json.dumps({"compiled": mjcore.compiled_modules(), "stats": stats, "fields": fields}))
"""


def _probe(pure: bool) -> dict:
    env = {**os.environ, "MJCORE_PURE_PYTHON": "1" if pure else "0"}
    out = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=os.path.dirname(os.path.dirname(mjcore.__file__)),
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_pure_python_fallback_gives_the_compiled_results():
    compiled, pure = _probe(pure=False), _probe(pure=True)
    assert pure["compiled"] == []  # every mjcore module came from its source
    assert pure["fields"] == sorted(STATE)  # STATE names every attribute __init__ sets
    if not compiled["compiled"]:
        pytest.skip("built without compiled modules (MJCORE_COMPILE_PY=OFF)")
    assert "mjcore.engine.game" in compiled["compiled"]
    assert pure["stats"] == compiled["stats"]


def test_compiled_game_fields_are_state():
    """game.pxd declares exactly the attributes STATE lists (what _restore copies back)."""
    game = mjcore.get_variant("xuezhan_kaxinwu").new_game(seed=2)
    if hasattr(game, "__dict__"):
        assert set(vars(game)) == set(STATE)
    else:
        fields = {k for k, v in vars(Game).items() if type(v).__name__ == "getset_descriptor"}
        properties = {"scores", "is_over", "next_dealer", "events", "event_log", "history"}
        properties |= {"shape_flags", "action_count", "settlement", "wins"}
        assert fields - properties == set(STATE)
    for name in STATE:
        setattr(game, name, getattr(game, name))  # every field reads and writes from Python


def test_the_engine_runs_compiled_after_pip_install():
    import mjcore.bots.expert  # noqa: F401
    import mjcore.bots.greedy  # noqa: F401
    import mjcore.engine.game  # noqa: F401

    if os.environ.get("MJCORE_PURE_PYTHON", "") not in ("", "0"):
        assert mjcore.compiled_modules() == []
    elif mjcore.compiled_modules():  # a default build compiles the hot path
        compiled = set(mjcore.compiled_modules())
        assert {"mjcore.engine.game", "mjcore.bots.greedy", "mjcore.bots.expert"} <= compiled


@pytest.mark.parametrize("joker", [-1, 0, 31])
def test_discard_shanten_is_one_shanten_per_held_kind(joker):
    rng = np.random.default_rng(joker + 2)
    flags = form_flags()
    for _ in range(300):
        counts = np.zeros(34, np.uint8)
        for t in rng.choice(136, 14, replace=False) // 4:
            counts[t] += 1
        table = discard_shanten(bytearray(counts), joker, flags)
        for t in range(34):
            if not counts[t]:
                assert table[t] == 99
                continue
            c = counts.copy()
            c[t] -= 1
            k = 0
            if joker >= 0:
                k, c[joker] = int(c[joker]), 0
            assert table[t] == shanten(c, k)


@pytest.mark.parametrize(
    ("counts", "joker", "message"),
    [
        (bytes(33), -1, "34 entries"),
        (bytes(35), -1, "34 entries"),
        (bytes(34), 34, "joker_kind"),
        (bytes(34), -2, "joker_kind"),
        (bytes([5] + [0] * 33), -1, "count"),
        (bytes([5, 4, 4, 1] + [0] * 30), -1, "count"),
        (bytes(T.counts("123m456p789s1z")), -1, "tiles"),  # 13 tiles: 12 after a discard
    ],
)
def test_discard_shanten_rejects_bad_input(counts, joker, message):
    with pytest.raises(InvalidHandError, match=message):
        discard_shanten(counts, joker)
