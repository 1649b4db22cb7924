"""Batch hand questions over ``(N, 34)`` count arrays, answered in C with the GIL released.

``counts2d`` is an ``(N, 34)`` array of concealed counts (``uint8`` with
contiguous rows is the fast path; other integer dtypes and strides are read in
place, never converted). ``jokers`` is one int for every row or an array of
``N`` ints (``int64`` is used as it is). The form flags are those of
:mod:`mjcore.hand`. Every row is checked in the kernel's single pass (counts
0..4, jokers >= 0, the tile total fits the question); the first bad row raises
:class:`~mjcore.errors.InvalidHandError` naming the row.

* ``is_win(...) -> bool[N]``, ``is_ready(...) -> bool[N]``
* ``waits(...) -> uint64[N]`` — bit t set when kind t is a wait
* ``shanten(...) -> int8[N]``
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from .errors import InvalidHandError, clip
from .hand import _core

__all__ = ["BatchQuestion", "is_ready", "is_win", "mask_to_kinds", "shanten", "waits"]


def _counts(counts2d: Any) -> np.ndarray:
    """``counts2d`` as an integer array of shape (N, 34), checked for shape and dtype only.

    The values are checked by the kernel in the pass that answers each row (a
    count of 256 or -1 is rejected, never wrapped), so no numpy pass runs here;
    only a non-native byte order is converted.
    """
    arr = _array(counts2d, "counts2d")
    if arr.ndim != 2 or arr.shape[1] != 34:
        raise InvalidHandError(f"counts2d must have shape (N, 34), got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InvalidHandError(f"counts2d must hold integers, got dtype {arr.dtype}")
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr


def _array(value: Any, what: str) -> np.ndarray:
    """``numpy.asarray(value)``; what numpy cannot read (ragged rows, a raising sequence …)
    is an InvalidHandError naming ``what``."""
    try:
        return np.asarray(value)
    except Exception as exc:  # noqa: BLE001 - numpy's ValueError or whatever the object raises
        raise InvalidHandError(f"{what} is not an array of integers ({clip(str(exc))})") from None


def _jokers(jokers: Any, n: int) -> int | np.ndarray:
    """``jokers`` as an int (one for every row) or an aligned int64 array of ``n`` entries.

    Values are left to the kernel (negative jokers raise there, naming the row);
    an int or an int64 array passes as it is, other integer arrays are converted. A bool is
    no joker count (as for the single-hand functions).
    """
    if type(jokers) is int and -(2**63) <= jokers < 2**63:
        return jokers
    arr = _array(jokers, "jokers")
    if arr.dtype.kind not in "iu":
        raise InvalidHandError(f"jokers must be an int or {n} ints, got {clip(jokers)}")
    if arr.ndim != 0 and arr.shape != (n,):
        raise InvalidHandError(f"jokers must be an int or {n} ints, got shape {arr.shape}")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8:
        arr = np.minimum(arr, 1000)  # uint64 above int64 range would wrap
    if arr.ndim == 0:
        return int(arr)
    if arr.dtype != np.int64 or not arr.flags.aligned:
        arr = arr.astype(np.int64)
    return arr


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
    """Kinds of a waits bitmask (an int 0 <= mask < 2**34, numpy integers too), ascending."""
    if isinstance(mask, (bool, np.bool_)) or not isinstance(mask, (int, np.integer)):
        raise InvalidHandError(f"a kinds mask is an integer, got {clip(mask)}")
    mask = int(mask)
    if not 0 <= mask < 1 << 34:
        raise InvalidHandError(f"a kinds mask has bits 0..33 only, got {clip(mask)}")
    return [t for t in range(34) if mask >> t & 1]
