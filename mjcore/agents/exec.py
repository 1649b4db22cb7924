"""The bot spec ``exec:COMMAND``: an agent program in any language, wherever a bot spec is.

``exec:./mybot``, ``exec:python3 my_agent.py:timeout_ms=200``,
``exec:node agent.js:timeout_ms=200&name=js-agent``. The command is split like a shell
would (:func:`shlex.split`; no shell runs it) and started in the folder the spec was
resolved in. Settings after the last colon, ``&`` between them:

* ``timeout_ms`` (1000): the answer budget of a decision;
* ``start_ms`` (10000): from start to the agent's ``ready``;
* ``fallback`` (``greedy``): the registered bot that plays a decision the agent faulted;
* ``name``: the label in reports (default: the spec as given);
* ``cpu`` (``host``): ``host`` runs the agent on the CPU of the host thread that asks it
  (Linux; it follows the host at each hand) — host and agent take turns, so a decision then
  needs no wake-up across cores, the protocol's main cost; ``any`` leaves the placement to
  the system (an agent that searches with several threads of its own).

Every simulation worker process (and thread) keeps one agent process per (spec, variant,
table, seat) and reuses it across hands (:func:`agent_process`); it is stopped when the
worker exits. A fault (:data:`~mjcore.agents.process.FAULTS`) never stops a run: the
decision is played by the fallback, a stopped or dead agent leaves the rest of its hand to
the fallback and is started afresh for the next hand, and each fault is counted in the
bot's ``faults`` (``simulate`` and ``league`` report them per agent).
"""

from __future__ import annotations

import atexit
import operator
import os
import re
import shlex
import shutil
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError, clip
from . import protocol
from .process import AgentProcess

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game
    from ..engine.rules import Rules

PREFIX = "exec:"
SETTINGS = {"timeout_ms": 1000, "start_ms": 10000, "fallback": "greedy", "name": "", "cpu": "host"}
CPU_PLACEMENTS = ("host", "any")
_SETTINGS_TAIL = re.compile(r"^[a-z_]+=[^&:]*(?:&[a-z_]+=[^&:]*)*$")
MAX_MS = 600_000
MAX_PROCESSES = 16
"""Agent processes one worker thread keeps (one per spec, table and seat); beyond, the least
recently used is stopped (a league or suite moves on from a table and does not return)."""


@dataclass(frozen=True)
class ExecSpec:
    """A resolved ``exec:`` spec: what to start, where, and the budgets (picklable)."""

    text: str
    argv: tuple[str, ...]
    cwd: str
    timeout_ms: int = 1000
    start_ms: int = 10000
    fallback: str = "greedy"
    name: str = ""
    cpu: str = "host"

    @property
    def label(self) -> str:
        return self.name or self.text

    def bot(self, seed: Any, label: str | None = None) -> ExecBot:
        """A bot for one hand (its process comes from the worker's pool at the first use)."""
        return ExecBot(self, seed, label or self.label)


def parse_exec(text: str) -> ExecSpec:
    """``exec:COMMAND[:key=value&…]`` → :class:`ExecSpec`; InvalidOptionError naming the
    problem (no command, a program that is not found, an unknown or bad setting)."""
    if not isinstance(text, str) or not text.startswith(PREFIX):
        raise InvalidOptionError(f"bots: expected exec:COMMAND, got {clip(text)}")
    body = text[len(PREFIX) :]
    settings: dict[str, Any] = dict(SETTINGS)
    command, colon, tail = body.rpartition(":")
    if colon and _SETTINGS_TAIL.match(tail):
        for item in tail.split("&"):
            key, _, value = item.partition("=")
            if key not in SETTINGS:
                raise InvalidOptionError(
                    f"bots: {clip(text)}: unknown setting {key!r} (known: {', '.join(SETTINGS)})"
                )
            settings[key] = _setting(text, key, value)
    else:
        command = body
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise InvalidOptionError(f"bots: {clip(text)}: {exc}") from None
    if not argv:
        raise InvalidOptionError(f"bots: {clip(text)}: no command after exec:")
    cwd = os.getcwd()
    argv = (_program(text, argv[0], cwd), *argv[1:])
    return ExecSpec(text, argv, cwd, **settings)


def _setting(text: str, key: str, value: str) -> Any:
    if key in ("timeout_ms", "start_ms"):
        if not value.isdigit() or not 1 <= int(value) <= MAX_MS:
            raise InvalidOptionError(
                f"bots: {clip(text)}: {key} must be an integer 1..{MAX_MS}, got {clip(value)}"
            )
        return int(value)
    if key == "fallback":
        from ..bots.registry import BOTS

        if value not in BOTS:
            raise InvalidOptionError(
                f"bots: {clip(text)}: fallback must be one of {', '.join(BOTS)}, got {clip(value)}"
            )
    if key == "cpu" and value not in CPU_PLACEMENTS:
        raise InvalidOptionError(
            f"bots: {clip(text)}: cpu must be one of {', '.join(CPU_PLACEMENTS)}, got {clip(value)}"
        )
    if key == "name" and not re.fullmatch(r"[\w.+#-]{1,40}", value):
        raise InvalidOptionError(f"bots: {clip(text)}: name must be 1-40 word characters")
    return value


def _program(text: str, program: str, cwd: str) -> str:
    """The program as an absolute path (workers may start elsewhere), or a clear error."""
    if os.sep in program:
        path = os.path.abspath(os.path.join(cwd, program))
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise InvalidOptionError(f"bots: {clip(text)}: {program!r} is not an executable file")
        return path
    found = shutil.which(program)
    if found is None:
        raise InvalidOptionError(f"bots: {clip(text)}: program {program!r} not found on PATH")
    return found


# ---- the worker's agent processes ---------------------------------------------------------
_local = threading.local()
_everyone: list[AgentProcess] = []
_everyone_lock = threading.Lock()


def agent_process(spec: ExecSpec, rules: Rules, seat: int, where: str) -> tuple[AgentProcess, str]:
    """This thread's agent process for (spec, rules, seat), started (again) when it is not
    running: (process, ``""`` or ``"start"``)."""
    pool: dict[Any, AgentProcess] | None = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = {}
    key = (spec, rules, seat)  # (rules: the variant, its options and the players, hashed once)
    proc = pool.pop(key, None)
    if proc is None:
        while len(pool) >= MAX_PROCESSES:  # the least recently used (another table's) goes
            _stop_one(pool.pop(next(iter(pool))))
        hello = protocol.hello(
            rules.name, rules.players, rules.options, seat, spec.timeout_ms, where
        )
        proc = AgentProcess(
            spec.argv, spec.cwd, protocol.encode(hello), spec.start_ms, spec.cpu == "host"
        )
        with _everyone_lock:
            _everyone.append(proc)
    pool[key] = proc  # the most recently used last
    if proc.alive:
        proc.follow_host()
        return proc, ""
    return proc, proc.start()


def _stop_one(proc: AgentProcess) -> None:
    proc.stop()
    with _everyone_lock:
        if proc in _everyone:
            _everyone.remove(proc)


@atexit.register
def stop_all() -> None:
    """Stop every agent process this process started (also run at exit)."""
    with _everyone_lock:
        procs = list(_everyone)
        _everyone.clear()
    for proc in procs:  # every agent reads its last messages at once, then each is stopped
        proc.close_input()
    for proc in procs:
        proc.stop(grace=2.0)
    pool = getattr(_local, "pool", None)
    if pool is not None:
        pool.clear()


# ---- the bot ------------------------------------------------------------------------------
class ExecBot:
    """One hand of an ``exec:`` agent at one seat: asks the program, falls back on a fault.

    The simulator calls :meth:`hand_start` and :meth:`hand_end` around a hand (the RL envs
    do not: a hand then starts at its first decision and ends when the next one starts).
    ``faults`` counts this hand's faults and ``fallback`` the decisions the fallback played.
    """

    name = "exec"

    def __init__(self, spec: ExecSpec, seed: Any, label: str) -> None:
        self.spec = spec
        self.seed = seed
        self.label = label
        self.faults: Counter[str] = Counter()
        self._proc: AgentProcess | None = None
        self._game: Game | None = None  # the hand being played
        self._dead = False
        self._hand = 0
        self._step = 0
        self._fallback: Any = None

    def hand_start(self, game: Game, seat: int, hand: int | None = None) -> None:
        """Take the seat's process (starting it if needed) and send ``hand_start``."""
        self._game, self._dead, self._step = game, False, 0
        proc, fault = agent_process(self.spec, game.rules, seat, "simulation")
        self._proc = proc
        if fault:
            self._fault(fault)
            return
        if proc.open_hand is not None and proc.open_hand[0] is not self:
            earlier, earlier_game, earlier_seat = proc.open_hand  # a hand without hand_end
            if earlier_game.is_over:
                earlier.hand_end(earlier_game, earlier_seat)
        proc.open_hand = (self, game, seat) if hand is None else None
        self._hand = proc.hands if hand is None else int(hand)
        proc.hands += 1
        try:
            seed: int | None = operator.index(self.seed)
        except TypeError:
            seed = None
        message = protocol.hand_start(self._hand, seat, seed, game.view(seat))
        self._check(proc.send(protocol.encode(message)))

    def act_fast(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        """The agent's answer to this decision, or the fallback's after a fault."""
        if game is not self._game:  # no hooks (the RL envs): a new game is a new hand
            if self._game is not None and self._game.is_over:
                self.hand_end(self._game, seat)
            self.hand_start(game, seat)
        if not self._dead:
            assert self._proc is not None
            view = game.view(seat)
            message = protocol.encode(protocol.decide(self._hand, self._step, view))
            self._step += 1
            line, fault = self._proc.ask(message, self.spec.timeout_ms)
            self._check(fault)
            if line is not None:
                action, fault = protocol.read_answer(line, legal, view["legal_actions"])
                if action is not None:
                    return action
                self._fault(fault)
        self.faults["fallback"] += 1
        if self._fallback is None:
            from ..bots.registry import make_bot

            self._fallback = make_bot(self.spec.fallback, self.seed)
        return self._fallback.act_fast(game, seat, legal)  # type: ignore[no-any-return]

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise TypeError("an exec: agent plays from the engine (simulate, league, the RL envs)")

    def hand_end(self, game: Game, seat: int) -> Counter[str]:
        """Send ``hand_end`` with the settlement; this hand's faults."""
        proc = self._proc
        if proc is not None and proc.open_hand is not None and proc.open_hand[0] is self:
            proc.open_hand = None
        if proc is not None and not self._dead and proc.alive:
            message = protocol.hand_end(
                self._hand, seat, protocol.settlement(game), game.view(seat)
            )
            self._check(proc.send(protocol.encode(message)))
        return self.faults

    def _check(self, fault: str) -> None:
        if fault:
            self._fault(fault)

    def _fault(self, fault: str) -> None:
        self.faults[fault] += 1
        if self._proc is None or not self._proc.alive:
            self._dead = True  # the rest of the hand is the fallback's; restarted next hand
