"""Stubs of the native extension (src/_core.pyx); checked by mypy stubtest in CI."""

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from .tiles import TileLike

_R = TypeVar("_R", covariant=True)
_T = TypeVar("_T")

__test__: dict[str, str]
__pyx_capi__: dict[str, Any]  # capsules of the C functions mjcore/_core.pxd declares (for Cython)
N_KINDS: int
TABLE_BYTES: int
TABLE_CHECKSUM: str
SEVEN_PAIRS: int
ORPHANS: int
KNITTED: int
PAIR258: int

def ensure_init() -> int: ...
def form_flags(
    seven_pairs: bool = True,
    thirteen_orphans: bool = False,
    knitted: bool = False,
    pair258: bool = False,
) -> int: ...

class _Question(Protocol[_R]):
    def __call__(
        self,
        counts: TileLike,
        jokers: int = 0,
        *,
        seven_pairs: bool = True,
        thirteen_orphans: bool = False,
        knitted: bool = False,
        pair258: bool = False,
    ) -> _R: ...

is_win: _Question[bool]
is_ready: _Question[bool]
waits: _Question[list[int]]
waits_mask: _Question[int]
shanten: _Question[int]

def facts(
    counts: TileLike, win_tile: int, jokers: int = 0, pair258: bool = False
) -> tuple[bool, bool, bool, bool, bool, bool, int, int, bool, int, int]: ...
def decompose(
    counts: TileLike, jokers: int = 0, pair258: bool = False
) -> list[tuple[int, ...]]: ...
def run_batch(
    name: str,
    counts: npt.NDArray[np.integer[Any]],
    jokers: int | npt.NDArray[np.int64],
    flags: int,
) -> npt.NDArray[Any]: ...
def _coerce_row(counts: Any) -> npt.NDArray[np.uint8]: ...
def discard_shanten(
    counts: bytes | bytearray | memoryview | npt.NDArray[np.uint8],
    joker_kind: int = -1,
    flags: int = ...,
) -> list[int]: ...
def is_win_bits(counts: TileLike, jokers: int, flags: int) -> bool: ...
def waits_mask_bits(counts: TileLike, jokers: int, flags: int) -> int: ...
def shanten_bits(counts: TileLike, jokers: int, flags: int) -> int: ...
def hand_waits_bits(counts: TileLike, joker_kind: int, flags: int) -> int: ...
def tiles_in(counts: TileLike, kinds: int) -> int: ...
def held_mask(counts: TileLike) -> int: ...
def hand_is_win_bits(counts: TileLike, joker_kind: int, flags: int) -> bool: ...
def held_items(items: tuple[_T, ...], counts: TileLike) -> list[_T]: ...
def held_tuple(items: tuple[_T, ...], counts: TileLike) -> tuple[_T, ...]: ...
def address(obj: object) -> int: ...
def zeros(n: int) -> bytearray: ...
def counts_array(counts: TileLike, plus: int = -1) -> npt.NDArray[np.uint8]: ...
def zero_floats(out: Any, n: int) -> None: ...
def greedy_discard(
    counts: TileLike, joker_kind: int, flags: int, tiles: list[int]
) -> tuple[int | None, list[int]]: ...
def greedy_ready_discard(
    counts: TileLike, joker_kind: int, flags: int, tiles: list[int], picks: list[int], bao: int = -1
) -> list[int]: ...
def shanten_removed(
    counts: TileLike, joker_kind: int, flags: int, removed: dict[int, int], discard: bool = False
) -> int: ...
def expert_discards(
    counts: TileLike, joker_kind: int, flags: int, tiles: list[int]
) -> tuple[list[int], list[int]]: ...
def expert_ukeire(
    counts: TileLike, joker_kind: int, flags: int, unseen: list[int], tiles: list[int]
) -> list[int]: ...
def discard_features(
    counts: TileLike,
    joker_kind: int,
    flags: int,
    unseen: list[int],
    tiles: list[int],
    rows: list[int],
    out: npt.NDArray[np.float32],
    cols: tuple[int, int, int, int, int, int],
) -> int: ...
def legal_logits(
    z: npt.NDArray[np.float32],
    n_actions: int,
    legal: npt.NDArray[np.int64],
    feats: npt.NDArray[np.float32],
    out: npt.NDArray[np.float32],
) -> None: ...
def mlp_forward(
    x: npt.NDArray[np.float32],
    w1: npt.NDArray[np.float32],
    b1: npt.NDArray[np.float32],
    w2: npt.NDArray[np.float32],
    b2: npt.NDArray[np.float32],
    w3: npt.NDArray[np.float32],
    b3: npt.NDArray[np.float32],
    out: npt.NDArray[np.float32],
) -> None: ...
def expert_waits(
    counts: TileLike, joker_kind: int, flags: int, unseen: list[int], tiles: list[int]
) -> tuple[list[int], list[int]]: ...
def unseen_counts(
    totals: list[int] | bytes, counts: TileLike, groups: list[Sequence[int]]
) -> list[int]: ...
