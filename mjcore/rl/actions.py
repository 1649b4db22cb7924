"""The action table of a variant under its options: every action it can ever offer, by index.

Read from the engine and the variants' code (``Game._turn_actions``, ``Game._claim_options``
and each variant's ``hand_choices`` / ``filter_turn`` / ``filter_claims`` / ``on_declare``):

* ``discard T`` for every kind of the variant's tile set (flowers included: a seat holding a
  flower it may not set aside — 宿松 飘, or an empty tail — discards it);
* ``chi …`` for every chow of the tile set when the variant's options allow chi;
* ``peng``; ``gang T`` for every non-flower kind of the tile set; ``hu``; ``pass``;
* ``declare …``: 青岛 ``kouting``; 荣成 ``baoting``, ``liangting``, ``minglou`` and the 存牌
  readings ``cunpai``, ``gangkai``;
* ``choose NAME N``: the per-hand choices the options switch on (荔浦 坐马, 宿松 飘/增,
  青岛 跑, 荣成 飘/长跑);
* ``niu …`` (青岛 扭牌 only): the three 扭 groups, each with at most one member replaced by a
  混 of any other kind when 带混, and the single-tile 调牌 of every kind a group holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, overload

import numpy as np

from .. import tiles as T
from ..engine.actions import CHIS, DISCARDS, GANGS, HU, PASS, PENG, Action, legal_text, parse_action
from ..engine.variant import Variant
from ..errors import IllegalActionError, InvalidOptionError, clip
from ..variants import get_variant

# Kinds of the three 扭 groups (mjcore/variants/qingdao.py NIU_GROUPS).
_NIU_GROUPS = ((31, 32, 33), (27, 28, 29, 30), (27, 28, 18))
_RONGCHENG_DECLARES = ("baoting", "liangting", "minglou", "cunpai", "gangkai")
_ENGINE_SHARED = (*DISCARDS, *GANGS, *CHIS.values(), HU, PASS, PENG)
"""The engine's shared action objects (module constants: alive as long as the process)."""


def _choices(variant: Variant, opts: Any) -> list[tuple[str, int]]:
    """The ``choose`` actions the options switch on, as (name, value)."""
    name = variant.name
    offered = variant.offered_choices
    if name == "lipu":
        names = ["zuoma"] if opts.zuoma else []
    elif name == "susong":
        names = (["piao"] if opts.piaohua else []) + (["zeng"] if opts.chuzeng else [])
    else:  # 青岛 跑, 荣成 飘/长跑: always asked; a user variant: everything it offers
        names = list(offered)
    return [(n, v) for n in names for v in offered.get(n, ())]


def _declarations(variant: Variant, opts: Any) -> list[str]:
    if variant.name == "qingdao":
        return ["kouting"]
    if variant.name == "rongcheng":
        return list(_RONGCHENG_DECLARES)
    return []


def _niu_groups(variant: Variant, opts: Any, kinds: set[int]) -> list[tuple[int, ...]]:
    if variant.name != "qingdao" or not opts.niupai:
        return []
    out: set[tuple[int, ...]] = set()
    jokers = sorted(kinds) if opts.hun else []
    for group in _NIU_GROUPS:
        if not set(group) <= kinds:
            continue
        out.add(tuple(sorted(group)))
        for missing in group:
            for jk in jokers:
                if jk not in group:
                    out.add(tuple(sorted([m for m in group if m != missing] + [jk])))
    singles = {(t,) for g in _NIU_GROUPS if set(g) <= kinds for t in g}
    return sorted(out, key=lambda g: (len(g), g)) + sorted(singles)


class ActionTable(Sequence[str]):
    """Every action a variant can offer under its options, by index (a sequence of texts).

    ``table[i]`` is the text of action ``i``; :meth:`encode` / :meth:`decode` convert between
    an index and an :class:`~mjcore.engine.actions.Action`; :meth:`fill_mask` writes the legal
    set of a seat into an int8 mask."""

    def __init__(self, variant: Variant, options: dict[str, Any] | None = None) -> None:
        self.variant = variant
        self.opts = variant.parse_options(options)
        opts = self.opts
        tile_set = set(variant.tile_kinds(opts))
        flowers = variant.flower_kinds(opts)
        plain = {t for t in tile_set if t not in flowers and t < T.N_KINDS}
        acts: list[Action] = [DISCARDS[t] for t in sorted(tile_set)]
        if variant.chi_allowed(opts):
            acts += [c for low, c in CHIS.items() if set(c.tiles) <= plain]
        acts += [PENG]
        acts += [GANGS[t] for t in sorted(plain)]
        acts += [HU, PASS]
        acts += [Action("declare", name=n) for n in _declarations(variant, opts)]
        acts += [Action("choose", name=n, value=v) for n, v in _choices(variant, opts)]
        acts += [Action("niu", tile=g[0], tiles=g) for g in _niu_groups(variant, opts, plain)]
        self.actions: tuple[Action, ...] = tuple(acts)
        self.texts: tuple[str, ...] = tuple(str(a) for a in acts)
        self.by_action: dict[Action, int] = {a: i for i, a in enumerate(acts)}
        shared = {id(a): a for a in _ENGINE_SHARED}
        # by identity for the engine's shared objects: no hash of a dataclass per lookup
        self._by_id: dict[int, int] = {
            id(a): i for i, a in enumerate(acts) if shared.get(id(a)) is a
        }
        self.discard_index = np.full(T.N_ALL_KINDS, -1, dtype=np.int64)
        for t in tile_set:
            self.discard_index[t] = self.by_action[DISCARDS[t]]

    def __len__(self) -> int:
        return len(self.actions)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        return self.texts[i]

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    def __repr__(self) -> str:
        return f"<ActionTable {self.variant.name} {len(self)} actions>"

    def encode(self, action: Action | str, legal: Sequence[Action] | None = None) -> int:
        """The index of ``action`` (an Action or its text); IllegalActionError if it has none.

        ``legal`` (the seat's legal actions, when known) is listed in the error of a malformed
        text, as the engine and the server do."""
        i = self._by_id.get(id(action))
        if i is not None:
            return i
        if not isinstance(action, Action):
            action = Action.parse(action) if legal is None else parse_action(action, legal)
        i = self.by_action.get(action)
        if i is None:
            raise IllegalActionError(
                f"{action} is not in the {self.variant.name} action table under these options"
            )
        return i

    def decode(self, index: Any, legal: Sequence[Action] | None = None) -> Action:
        """The action of ``index`` (an int 0..len-1, or an action's text such as
        ``"discard 5m"``); ``legal``, when given, is listed in the error of a bad one."""
        if isinstance(index, str):
            return self.actions[self.encode(index, legal)]
        tail = "" if legal is None else f"; {legal_text(legal)}"
        try:
            i = int(index)
        except (TypeError, ValueError):
            raise IllegalActionError(
                f"an action is an index (int) or its text, got {clip(index)}{tail}"
            ) from None
        if not 0 <= i < len(self.actions) or i != index:
            raise IllegalActionError(
                f"action index must be 0..{len(self) - 1}, got {clip(index)}{tail}"
            )
        return self.actions[i]

    def fill_mask(self, legal: Sequence[Action], out: np.ndarray) -> None:
        """Set ``out[i] = 1`` for every legal action (``out`` is zeroed by the caller)."""
        by_id = self._by_id
        for a in legal:
            i = by_id.get(id(a))
            if i is None:
                i = self.encode(a)
            out[i] = 1


@lru_cache(maxsize=256)
def _cached(name: str, key: tuple[tuple[str, Any], ...]) -> ActionTable:
    return ActionTable(get_variant(name), dict(key) or None)


def table_for(
    variant: str | Variant | ActionTable, options: dict[str, Any] | None = None
) -> ActionTable:
    """The (shared) :class:`ActionTable` of a variant name / object under ``options``."""
    if isinstance(variant, ActionTable):
        return variant
    v = get_variant(variant)
    opts = v.parse_options(options).to_dict()
    try:
        return _cached(v.name, tuple(sorted(opts.items())))
    except TypeError:  # an option value that cannot be hashed
        return ActionTable(v, opts)


def action_table(variant: str | Variant, options: dict[str, Any] | None = None) -> tuple[str, ...]:
    """Every action ``variant`` can offer under ``options``, as texts by index."""
    return table_for(variant, options).texts


def encode_action(
    table_or_variant: str | Variant | ActionTable,
    action: Action | str,
    options: dict[str, Any] | None = None,
) -> int:
    """The index of ``action`` in the action table (a variant takes ``options``)."""
    return table_for(table_or_variant, options).encode(action)


def decode_action(
    table_or_variant: str | Variant | ActionTable,
    index: int,
    options: dict[str, Any] | None = None,
) -> Action:
    """The :class:`Action` of ``index`` in the action table."""
    return table_for(table_or_variant, options).decode(index)


def check_options(variant: Variant, options: Any) -> dict[str, Any]:
    """``options`` parsed and back as a plain dict (InvalidOptionError on a bad one)."""
    if options is not None and not isinstance(options, dict):
        raise InvalidOptionError(f"options must be a dict, got {clip(options)}")
    return dict(variant.parse_options(options).to_dict())
