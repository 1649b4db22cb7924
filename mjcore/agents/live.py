"""``mjcore agent``: an agent program at a live server seat, through the WebSocket protocol.

The client joins with the seat's token (docs/protocol.md), starts the program on this
machine once the server's ``welcome`` says what is played, and relays: a new hand is the
agent's ``hand_start``, a ``state`` offering decisions its ``decide``, a finished hand its
``hand_end`` (the settlement read from the hand's ``pay`` and ``end`` events) followed by
``next``. The same faults as in simulation play the ``greedy`` fallback and are counted;
a dead agent is started again for the next hand. A dropped connection is resumed with
``hello`` carrying the last ``hand`` and ``since`` (the events' cursor), so no event is
missed and no decision answered twice. Processes are started only here, by the person who
runs the command: a server never starts one.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidOptionError, clip
from . import protocol
from .process import AgentProcess


@dataclass
class LiveReport:
    """What a live session did: hands finished, decisions answered, faults, reconnections."""

    seat: int = -1
    hands: int = 0
    decisions: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    agent: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hands": self.hands,
            "decisions": self.decisions,
            "faults": dict(sorted(self.faults.items())),
            "reconnects": self.reconnects,
            "agent": self.agent,
        }


def ws_url(url: str, room: str) -> str:
    """``http://host:port`` (or ``ws://…``) and a room id → the room's WebSocket URL."""
    base = url.rstrip("/")
    for http, ws in (("https://", "wss://"), ("http://", "ws://")):
        if base.startswith(http):
            base = ws + base[len(http) :]
    if not base.startswith(("ws://", "wss://")):
        raise InvalidOptionError(f"--url: expected http(s):// or ws(s)://, got {clip(url)}")
    if base.endswith(f"/ws/{room}"):
        return base
    return f"{base}/ws/{room}"


class LiveAgent:
    """One seat of one room played by an agent program (see the module docstring)."""

    def __init__(
        self,
        url: str,
        room: str,
        token: str,
        argv: Sequence[str],
        *,
        timeout_ms: int = 1000,
        start_ms: int = 10000,
        hands: int = 0,
        retries: int = 20,
        log: Callable[[str], None] | None = None,
    ) -> None:
        if not argv:
            raise InvalidOptionError("agent: give the agent's command after --")
        self.url = ws_url(url, room)
        self.room, self.token, self.argv = room, token, list(argv)
        self.timeout_ms, self.start_ms = timeout_ms, start_ms
        self.max_hands = hands  # stop after this many finished hands (0: when the room ends)
        self.retries = retries
        self.log = log or (lambda text: None)
        self.report = LiveReport()
        self._proc: AgentProcess | None = None
        self._config: dict[str, Any] = {}
        self._hand: int | None = None  # the hand of the last state
        self._since: int | None = None  # its events' cursor (the next seq)
        self._started: set[int] = set()  # hands whose hand_start was sent
        self._ended: set[int] = set()  # hands whose hand_end was sent
        self._events: dict[int, list[dict[str, Any]]] = {}
        self._answered: set[tuple[int, int]] = set()  # (hand, cursor) of answered decisions
        self._dead_hand: int | None = None  # the hand a fault left to the fallback
        self._fallback: Any = None
        self._ref = 0

    # ---- the session -------------------------------------------------------------------
    def run(self) -> LiveReport:
        """Play until the room ends (or ``hands`` hands are done); reconnect when dropped."""
        from websockets.exceptions import ConnectionClosed, InvalidStatus
        from websockets.sync.client import connect

        failures = 0
        try:
            while True:
                try:
                    with connect(self.url, open_timeout=10, max_size=2**22) as ws:
                        failures = 0
                        if self._session(ws):
                            return self.report
                except (ConnectionClosed, OSError, TimeoutError, InvalidStatus) as exc:
                    failures += 1
                    if failures > self.retries:
                        raise ConnectionError(f"agent: {self.url} unreachable: {exc}") from None
                    self.report.reconnects += 1
                    self.log(f"connection lost ({type(exc).__name__}); reconnecting")
                    time.sleep(min(5.0, 0.2 * 2 ** min(failures, 5)))
        finally:
            if self._proc is not None:
                self._proc.stop()

    def _session(self, ws: Any) -> bool:
        """One connection: hello (resuming at the cursor), then relay; True when done."""
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        if self._hand is not None and self._since is not None:
            hello.update(hand=self._hand, since=self._since)
        ws.send(json.dumps(hello))
        while True:
            msg = json.loads(ws.recv())
            kind = msg.get("type")
            if kind == "welcome":
                self._welcome(msg)
            elif kind == "state":
                if self._state(ws, msg):
                    return True
            elif kind == "error":
                if msg.get("code") in ("not_authenticated", "no_room"):
                    raise InvalidOptionError(f"agent: the server refused: {msg.get('message')}")
                self.log(f"server error {msg.get('code')}: {msg.get('message')}")
            elif kind == "closing":
                self.log(f"server closing: {msg.get('reason')}")

    def _welcome(self, msg: dict[str, Any]) -> None:
        self._config = msg["config"]
        self.report.seat = msg["seat"]
        if self._proc is None:
            hello = protocol.hello(
                self._config["variant"],
                self._config["players"],
                self._config.get("options", {}),
                msg["seat"],
                self.timeout_ms,
                "room",
            )
            self._proc = AgentProcess(self.argv, None, protocol.encode(hello), self.start_ms)

    # ---- one state ---------------------------------------------------------------------
    def _state(self, ws: Any, msg: dict[str, Any]) -> bool:
        hand, view = msg["hand"], msg["view"]
        seat = self.report.seat
        self._events.setdefault(hand, []).extend(msg.get("events", []))
        self._hand, self._since = hand, msg["next"]
        if hand not in self._started:
            self._started.add(hand)
            self._begin(hand, seat, view)
        if view["phase"] == "over":
            if hand not in self._ended:
                self._ended.add(hand)
                self._finish(hand, seat, view)
                ws.send(json.dumps({"type": "next", "hand": hand}))
            limit = self._config.get("max_hands") or 0
            done = self.report.hands
            return bool(self.max_hands and done >= self.max_hands) or bool(
                limit and hand + 1 >= limit
            )
        if view["legal_actions"] and (hand, msg["next"]) not in self._answered:
            self._answered.add((hand, msg["next"]))
            action = self._decide(hand, view)
            self._ref += 1
            ws.send(json.dumps({"type": "act", "action": action, "id": self._ref}))
            self.report.decisions += 1
        return False

    def _begin(self, hand: int, seat: int, view: dict[str, Any]) -> None:
        """``hand_start`` (the agent started again first if a fault stopped it)."""
        proc = self._proc
        assert proc is not None
        if not proc.alive:
            fault = proc.start()
            if fault:
                self._fault(fault, hand)
                return
            self.report.agent = proc.ready
        if self._dead_hand is not None:
            self._dead_hand = None
        self._fault(proc.send(protocol.encode(protocol.hand_start(hand, seat, None, view))), hand)

    def _decide(self, hand: int, view: dict[str, Any]) -> str:
        proc = self._proc
        legal = view["legal_actions"]
        from ..engine.actions import Action

        actions = [Action.parse(a) for a in legal]
        if proc is not None and proc.alive and self._dead_hand != hand:
            line, fault = proc.ask(
                protocol.encode(protocol.decide(hand, self.report.decisions, view)),
                self.timeout_ms,
            )
            self._fault(fault, hand)
            if line is not None:
                action, fault = protocol.read_answer(line, actions)
                if action is not None:
                    return str(action)
                self._fault(fault, hand)
        self.report.faults["fallback"] += 1
        if self._fallback is None:
            from ..bots.greedy import GreedyBot

            self._fallback = GreedyBot(0)
        return str(self._fallback.act(view, actions))

    def _finish(self, hand: int, seat: int, view: dict[str, Any]) -> None:
        self.report.hands += 1
        proc = self._proc
        if proc is not None and proc.alive and self._dead_hand != hand:
            settlement = protocol.settlement_from_events(self._events.get(hand, []))
            message = protocol.hand_end(hand, seat, settlement, view)
            self._fault(proc.send(protocol.encode(message)), hand)
        self._events.pop(hand, None)

    def _fault(self, fault: str, hand: int) -> None:
        if not fault:
            return
        self.report.faults[fault] += 1
        self.log(f"agent fault: {fault} (hand {hand})")
        if self._proc is None or not self._proc.alive:
            self._dead_hand = hand
