"""The hand's event log, stored a few bytes an event and read back as plain dicts.

A game logs ~20–150 events a hand. Kept as one dict each they were a third to half of a live
game's memory (~200 bytes an event); here an event is its schema number (the event type and
its field names, interned once per process), the end of its values, and one reference per
value (tiles, seats and short strings are shared objects). Reading decodes exactly the dict
that was logged: its fields in logging order, then ``type`` and ``seq``.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterator
from typing import Any

_SCHEMAS: list[tuple[str, tuple[str, ...]]] = []
"""Schema number -> (event type, field names): append-only, shared by every log."""
_SCHEMA_IDS: dict[tuple[str, tuple[str, ...]], int] = {}
_REGISTER = threading.Lock()


def _schema_id(kind: str, keys: tuple[str, ...]) -> int:
    key = (kind, keys)
    sid = _SCHEMA_IDS.get(key)
    if sid is None:
        with _REGISTER:  # first use of a (type, fields) pair: a handful per variant
            sid = _SCHEMA_IDS.get(key)
            if sid is None:
                if len(_SCHEMAS) >= 0xFFFF:
                    raise ValueError("too many distinct event shapes (65,535)")
                sid = len(_SCHEMAS)
                _SCHEMAS.append(key)
                _SCHEMA_IDS[key] = sid
    return sid


class EventLog:
    """An append-only sequence of events, each read as a new ``dict`` (``type``, ``seq`` last).

    ``len``, indexing, slicing (a list of dicts), iteration and ``==`` (against another log
    or a list of dicts) behave as on the list of dicts it stands for.
    """

    __slots__ = ("_kinds", "_ends", "_values")

    def __init__(self) -> None:
        self._kinds = array("H")  # schema number per event
        self._ends = array("I")  # end of each event's values in _values
        self._values: list[Any] = []

    def append(self, kind: str, data: dict[str, Any]) -> int:
        """Log an event of type ``kind`` with ``data``'s fields; its sequence number."""
        seq = len(self._kinds)
        self._kinds.append(_schema_id(kind, tuple(data)))
        self._values.extend(data.values())
        self._ends.append(len(self._values))
        return seq

    def __len__(self) -> int:
        return len(self._kinds)

    def _event(self, seq: int) -> dict[str, Any]:
        kind, keys = _SCHEMAS[self._kinds[seq]]
        start = self._ends[seq - 1] if seq else 0
        event = dict(zip(keys, self._values[start : self._ends[seq]], strict=True))
        event["type"] = kind
        event["seq"] = seq
        return event

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self._event(i) for i in range(*index.indices(len(self._kinds)))]
        n = len(self._kinds)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("event index out of range")
        return self._event(i)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self._event(i) for i in range(len(self._kinds)))

    def since(self, seq: int) -> list[dict[str, Any]]:
        """Events from sequence number ``seq`` on."""
        return [self._event(i) for i in range(max(seq, 0), len(self._kinds))]

    def types(self) -> list[str]:
        """Every event's type, in order (without decoding the events)."""
        return [_SCHEMAS[k][0] for k in self._kinds]

    def select(self, *kinds: str) -> Iterator[dict[str, Any]]:
        """The events of the given types, in order (only those are decoded)."""
        wanted = {k for k, (kind, _) in enumerate(_SCHEMAS) if kind in kinds}
        return (self._event(i) for i, k in enumerate(self._kinds) if k in wanted)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            other = list(other)
        if not isinstance(other, list):
            return NotImplemented
        return list(self) == other

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # By value: schema numbers are only meaningful inside this process.
        pairs = [(_SCHEMAS[k][0], self._fields(i)) for i, k in enumerate(self._kinds)]
        return (_rebuild, (pairs,))

    def _fields(self, seq: int) -> dict[str, Any]:
        event = self._event(seq)
        del event["type"], event["seq"]
        return event


def _rebuild(pairs: list[tuple[str, dict[str, Any]]]) -> EventLog:
    log = EventLog()
    for kind, data in pairs:
        log.append(kind, data)
    return log
