"""Batch hand questions over ``(N, 34)`` count arrays, answered in C with the GIL released.

``counts2d`` is an ``(N, 34)`` array of concealed counts (``uint8`` C-contiguous
is the fast path; other integer dtypes are checked and converted). ``jokers``
is one int for every row or an array of ``N`` ints. The form flags are those
of :mod:`mjcore.hand`. Every row is checked (counts 0..4, jokers >= 0, the
tile total fits the question); the first bad row raises
:class:`~mjcore.errors.InvalidHandError` naming the row.

* ``is_win(...) -> bool[N]``, ``is_ready(...) -> bool[N]``
* ``waits(...) -> uint64[N]`` — bit t set when kind t is a wait
* ``shanten(...) -> int8[N]``
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from .errors import InvalidHandError
from .hand import _core

__all__ = ["BatchQuestion", "is_ready", "is_win", "mask_to_kinds", "shanten", "waits"]


def _counts(counts2d: Any) -> np.ndarray:
    arr = np.asarray(counts2d)
    if arr.ndim != 2 or arr.shape[1] != 34:
        raise InvalidHandError(f"counts2d must have shape (N, 34), got shape {arr.shape}")
    if arr.dtype == np.uint8:
        return np.ascontiguousarray(arr)
    if arr.dtype.kind not in "iu":
        raise InvalidHandError(f"counts2d must hold integers, got dtype {arr.dtype}")
    bad = (arr < 0) | (arr > 4)
    if bad.any():
        row, col = (int(x) for x in np.argwhere(bad)[0])
        raise InvalidHandError(f"row {row}: count of kind {col} is {arr[row, col]}, must be 0..4")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _jokers(jokers: Any, n: int) -> np.ndarray:
    arr = np.asarray(jokers)
    if arr.dtype.kind not in "iu" and not (arr.dtype.kind == "b" and arr.ndim == 0):
        raise InvalidHandError(f"jokers must be an int or {n} ints, got {jokers!r}")
    if arr.ndim == 0:
        arr = arr.reshape(1)
    elif arr.shape != (n,):
        raise InvalidHandError(f"jokers must be an int or {n} ints, got shape {arr.shape}")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8:
        arr = np.minimum(arr, 1000)  # uint64 above int64 range would wrap
    return np.ascontiguousarray(arr, dtype=np.int64)


class BatchQuestion(Protocol):
    """Signature shared by the four batch functions."""

    def __call__(
        self,
        counts2d: Any,
        jokers: Any = 0,
        *,
        seven_pairs: bool = True,
        thirteen_orphans: bool = False,
        knitted: bool = False,
        pair258: bool = False,
    ) -> np.ndarray: ...


def _question(name: str, doc: str) -> BatchQuestion:
    def ask(
        counts2d: Any,
        jokers: Any = 0,
        *,
        seven_pairs: bool = True,
        thirteen_orphans: bool = False,
        knitted: bool = False,
        pair258: bool = False,
    ) -> np.ndarray:
        arr = _counts(counts2d)
        flags = _core.form_flags(seven_pairs, thirteen_orphans, knitted, pair258)
        return _core.run_batch(name, arr, _jokers(jokers, arr.shape[0]), flags)

    ask.__name__ = ask.__qualname__ = name
    ask.__doc__ = doc
    return ask


is_win = _question("is_win", "``bool[N]``: row wins (tiles + jokers = 3m+2 <= 14).")
is_ready = _question(
    "is_ready", "``bool[N]``: some kind completes the row (tiles + jokers = 3m+1 <= 13)."
)
waits = _question(
    "waits", "``uint64[N]``: bit t set when kind t (held < 4 times) completes the row."
)
shanten = _question(
    "shanten", "``int8[N]``: shanten of each row (tiles + jokers in 1, 2, 4, 5, ... 14)."
)


def mask_to_kinds(mask: int) -> list[int]:
    """Kinds of a waits bitmask, ascending."""
    mask = int(mask)
    return [t for t in range(34) if mask >> t & 1]
