"""The action table of a variant under its options: every action it can ever offer, by index.

The table itself is the :class:`~mjcore.engine.rules.ActionTable` of a
:class:`~mjcore.engine.rules.Rules` (``rules.actions``): the engine's shared actions
(discards, chows, peng, gangs, hu, pass) for the tile set, then the variant's own
(``Variant.table_actions``: its declarations, the per-hand choices its options switch on,
青岛's 扭 groups …). The functions here are the public edge that takes a variant name and an
options dict.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from ..engine.rules import ActionTable, Rules
from ..engine.variant import Variant
from ..errors import InvalidOptionError, clip
from ..variants import get_variant

__all__ = [
    "ActionTable",
    "action_table",
    "check_options",
    "decode_action",
    "encode_action",
    "resolve_rules",
    "table_for",
]


def resolve_rules(variant: Any, options: Any = None, players: int = 4) -> Rules:
    """The public edge: a Rules as is (``options`` must then be None), or a variant name /
    object under ``options`` for ``players`` seats."""
    if isinstance(variant, Rules):
        if options is not None:
            raise InvalidOptionError(
                f"options come with the Rules {variant!r}; got options={clip(options)} too"
            )
        return variant if players in (4, variant.players) else variant.with_players(players)
    if options is not None and not isinstance(options, dict):
        raise InvalidOptionError(f"options must be a dict, got {clip(options)}")
    return get_variant(variant).rules(options, players)


def table_for(
    variant: str | Variant | Rules | ActionTable, options: dict[str, Any] | None = None
) -> ActionTable:
    """The (shared) :class:`ActionTable` of a Rules, or of a variant name / object under
    ``options``."""
    if isinstance(variant, ActionTable):
        return variant
    rules = variant if isinstance(variant, Rules) else get_variant(variant).rules(options)
    return rules.actions


def action_table(
    variant: str | Variant | Rules, options: dict[str, Any] | None = None
) -> tuple[str, ...]:
    """Every action ``variant`` can offer under ``options``, as texts by index."""
    return table_for(variant, options).texts


def encode_action(
    table_or_variant: str | Variant | Rules | ActionTable,
    action: Action | str,
    options: dict[str, Any] | None = None,
) -> int:
    """The index of ``action`` in the action table (a variant takes ``options``)."""
    return table_for(table_or_variant, options).encode(action)


def decode_action(
    table_or_variant: str | Variant | Rules | ActionTable,
    index: int,
    options: dict[str, Any] | None = None,
) -> Action:
    """The :class:`Action` of ``index`` in the action table."""
    return table_for(table_or_variant, options).decode(index)


def check_options(variant: Variant, options: Any) -> dict[str, Any]:
    """``options`` parsed and back as a plain dict (InvalidOptionError on a bad one)."""
    if options is not None and not isinstance(options, dict):
        raise InvalidOptionError(f"options must be a dict, got {clip(options)}")
    return variant.rules(options).options
