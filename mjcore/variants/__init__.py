"""Variant registry: ``names()`` and ``get_variant(name)``."""

from __future__ import annotations

from importlib import import_module

from ..engine.variant import Variant, use_registry
from ..errors import InvalidOptionError, clip

_MODULES = {
    "xuezhan_kaxinwu": "xuezhan_kaxinwu",
    "qingdao": "qingdao",
    "lipu": "lipu",
    "rongcheng": "rongcheng",
    "susong": "susong",
}
_CACHE: dict[str, Variant] = {}
DEFAULT_VARIANT = "xuezhan_kaxinwu"
"""The variant the command-line tools play when none is named."""


def names() -> list[str]:
    """The registered variant names."""
    return list(dict.fromkeys([*_MODULES, *_CACHE]))


def register(variant: Variant) -> Variant:
    """Make a user-defined variant known by its ``name`` (e.g. for ``Game.from_json``)."""
    if not variant.name:
        raise InvalidOptionError("a registered variant needs a name")
    _CACHE[variant.name] = variant
    return variant


def get_variant(name: str | Variant) -> Variant:
    """The variant object for ``name``; unknown names raise ValueError listing the known ones."""
    if isinstance(name, Variant):
        return name
    if not isinstance(name, str):  # (an unhashable name must not reach the dict lookups)
        raise InvalidOptionError(f"a variant is a name such as 'qingdao', got {clip(name)}")
    if name in _CACHE:
        return _CACHE[name]
    if name not in _MODULES:
        raise InvalidOptionError(
            f"unknown variant {clip(name)}; known variants: {', '.join(names())}"
        )
    if name not in _CACHE:
        _CACHE[name] = import_module(f".{_MODULES[name]}", __name__).VARIANT
    return _CACHE[name]


use_registry(get_variant)  # the engine's doors that take a name (Match, saved games) ask here
