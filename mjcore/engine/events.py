# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""The hand's event log, stored a few bytes an event and read back as plain dicts.

A game logs ~20–150 events a hand. Kept as one dict each they were a third to half of a live
game's memory (~200 bytes an event); here an event is one flat run in a list: its schema
number (the event type and its field names, interned once per process), then one reference
per value (tiles, seats and short strings are shared objects). Reading decodes exactly the
dict that was logged: its fields in logging order, then ``type`` and ``seq``.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import IllegalActionError, clip

_SCHEMAS: list[tuple[str, tuple[str, ...]]] = []
"""Schema number -> (event type, field names): append-only, shared by every log."""
_SCHEMA_IDS: dict[tuple[str, tuple[str, ...]], int] = {}
_WIDTHS: list[int] = []
"""Schema number -> how many values an event of it has."""
_REGISTER = threading.Lock()


def _register(key: tuple[str, tuple[str, ...]]) -> int:
    """The schema number of a (type, fields) pair seen for the first time in this process."""
    with _REGISTER:
        sid = _SCHEMA_IDS.get(key)
        if sid is None:
            sid = len(_SCHEMAS)
            _SCHEMAS.append(key)
            _WIDTHS.append(len(key[1]))
            _SCHEMA_IDS[key] = sid
    return sid


def schema(kind: str, *fields: str) -> int:
    """The number of an event shape — its type and field names in order — for
    :meth:`EventLog.add` (the engine's frequent events skip building a dict)."""
    sid = _SCHEMA_IDS.get((kind, fields))
    return _register((kind, fields)) if sid is None else sid


def _shape(kind: str, data: dict[str, Any]) -> int:
    """The schema number of an event of type ``kind`` with ``data``'s fields (in order)."""
    key = (kind, tuple(data))
    ids = _SCHEMA_IDS  # (a typed dict when compiled: the lookup is a C call)
    sid = ids.get(key)
    return _register(key) if sid is None else sid  # type: ignore[no-any-return]


class Deferred:
    """A logged value made when the event is read: ``fn(*args)``, a new value each read.

    For what is costly to build and seldom read (the deal's hand texts: most simulated hands
    never read their log); ``args`` must never change."""

    __slots__ = ("fn", "args")

    def __init__(self, fn: Any, args: tuple[Any, ...]) -> None:
        self.fn = fn
        self.args = args


def copy_plain(value: Any) -> Any:
    """An event value with its lists and dicts copied at every level (scalars are shared,
    a :class:`Deferred` is made)."""
    kind = type(value)
    if kind is Deferred:
        return value.fn(*value.args)
    if kind is list:
        return [copy_plain(v) for v in value]
    if kind is tuple:
        return tuple([copy_plain(v) for v in value])
    if kind is dict:
        return {k: copy_plain(v) for k, v in value.items()}
    return value


class EventLog:
    """An append-only sequence of events, each read as a new ``dict`` (``type``, ``seq`` last).

    ``len``, indexing, slicing (a list of dicts), iteration and ``==`` (against another log
    or a list of dicts) behave as on the list of dicts it stands for.
    """

    __slots__ = ("_packed", "_n", "_starts")

    def __init__(self) -> None:
        self._packed: list[Any] = []  # per event: its schema number, then its values
        self._n = 0
        self._starts: array | None = None  # where each event starts, built when first read

    def append(self, kind: str, data: dict[str, Any]) -> int:
        """Log an event of type ``kind`` with ``data``'s fields; its sequence number."""
        packed = self._packed
        packed.append(_shape(kind, data))
        for value in data.values():  # copied: the logger's lists stay its own
            packed.append(copy_plain(value))
        self._n += 1
        return self._n - 1

    def adopt(self, kind: str, data: dict[str, Any]) -> int:
        """:meth:`append` of ``data`` built for the log alone (no caller keeps a reference to
        it or to anything inside it): stored as it is, not copied. Its sequence number."""
        self._packed.append(_shape(kind, data))
        self._packed.extend(data.values())
        self._n += 1
        return self._n - 1

    def add(
        self, sid: int, a: Any = None, b: Any = None, c: Any = None, d: Any = None, e: Any = None
    ) -> None:
        """Log an event of shape ``sid`` (see :func:`schema`) with its values in field order:
        as many of ``a`` … ``e`` as the shape has fields (at most five). The engine logs its
        every-step events so, without a dict or a tuple (a C call when compiled)."""
        widths = _WIDTHS  # (a typed list when compiled: a C read)
        width = widths[sid]
        if width > 5:
            raise ValueError(f"add() logs shapes of at most five fields, not {width}")
        packed = self._packed
        packed.append(sid)
        if width > 0:
            packed.append(a)
            if width > 1:
                packed.append(b)
                if width > 2:
                    packed.append(c)
                    if width > 3:
                        packed.append(d)
                        if width > 4:
                            packed.append(e)
        self._n += 1

    def __len__(self) -> int:
        return self._n

    def _index(self) -> array:
        """The start of every event in ``_packed`` (extended by the events logged since)."""
        starts = self._starts
        if starts is None:
            starts = self._starts = array("I")
        if len(starts) < self._n:
            packed, widths, new = self._packed, _WIDTHS, []
            at = starts[-1] + 1 + widths[packed[starts[-1]]] if starts else 0
            end = len(packed)
            while at < end:
                new.append(at)
                sid = packed[at]
                width = widths[sid]
                at += 1 + width
            starts.extend(array("I", new))
        return starts

    def _event(self, seq: int, at: int) -> dict[str, Any]:
        """Event ``seq`` as a new dict whose lists and dicts are new too (docs/vocabulary.md:
        changing what a reader gets changes nothing in the log)."""
        packed = self._packed
        kind, keys = _SCHEMAS[packed[at]]
        values = packed[at + 1 : at + 1 + len(keys)]
        event = dict(zip(keys, map(copy_plain, values), strict=True))
        event["type"] = kind
        event["seq"] = seq
        return event

    def __getitem__(self, index: int | slice) -> Any:
        starts = self._index()
        if isinstance(index, slice):
            return [self._event(i, starts[i]) for i in range(*index.indices(self._n))]
        i = index + self._n if index < 0 else index
        if not 0 <= i < self._n:
            raise IndexError("event index out of range")
        return self._event(i, starts[i])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.since(0))

    def since(self, seq: int) -> list[dict[str, Any]]:
        """Events from sequence number ``seq`` on (an int; numpy integers too)."""
        if isinstance(seq, (bool, np.bool_)) or not isinstance(seq, (int, np.integer)):
            raise IllegalActionError(f"since must be an event number, got {clip(seq)}")
        seq = int(seq)
        starts = self._index()
        return [self._event(i, starts[i]) for i in range(max(seq, 0), self._n)]

    def types(self) -> list[str]:
        """Every event's type, in order (without decoding the events)."""
        packed, widths, schemas, out = self._packed, _WIDTHS, _SCHEMAS, []
        at, end = 0, len(packed)
        while at < end:  # (a walk over the schema numbers: no index is built)
            sid = packed[at]
            out.append(schemas[sid][0])
            width = widths[sid]  # (a C int when compiled: at stays one)
            at += 1 + width
        return out

    def select(self, *kinds: str) -> list[dict[str, Any]]:
        """The events of the given types, in order (only those are decoded)."""
        return self._select(kinds)

    def _select(self, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
        schemas = _SCHEMAS
        n = len(schemas)
        chosen = bytearray(n)  # chosen[sid]: the events of schema sid are wanted
        for sid in range(n):
            if schemas[sid][0] in kinds:
                chosen[sid] = 1
        packed, widths, out = self._packed, _WIDTHS, []
        at, seq, end = 0, 0, len(packed)
        while at < end:  # (a walk over the schema numbers: no index is built)
            sid = packed[at]
            if sid < n and chosen[sid]:
                out.append(self._event(seq, at))
            width = widths[sid]  # (a C int when compiled: at stays one)
            at += 1 + width
            seq += 1
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            other = other.since(0)
        if not isinstance(other, list):
            return NotImplemented
        return self.since(0) == other

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"EventLog({self.since(0)!r})"

    def copy(self) -> EventLog:
        """An independent log with the same events (their packed values are never changed)."""
        new = EventLog()
        new._packed = list(self._packed)
        new._n = self._n
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # By value: schema numbers are only meaningful inside this process.
        pairs = [(e.pop("type"), e) for e in self.since(0)]
        for _, e in pairs:
            del e["seq"]
        return (_rebuild, (pairs,))


def _rebuild(pairs: list[tuple[str, dict[str, Any]]]) -> EventLog:
    log = EventLog()
    for kind, data in pairs:
        log.append(kind, data)
    return log
