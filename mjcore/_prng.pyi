"""Stubs of the native seeded generator (src/_prng.pyx)."""

from collections.abc import Sequence
from typing import Any, TypeVar, overload

import numpy as np
from typing_extensions import Self, disjoint_base

_T = TypeVar("_T")

def generate_state(seed: int, spawn_key: tuple[int, ...] = (), n_words: int = 4) -> list[int]: ...
def _restored(words: tuple[int, int, int, int], has_uint32: int, uinteger: int) -> Pcg64: ...

__test__: dict[str, str]
__pyx_capi__: dict[str, Any]  # capsules of the C functions mjcore/_prng.pxd declares (for Cython)

@disjoint_base
class Pcg64:
    def __new__(cls, seed: int) -> Self: ...
    def integers(self, n: int) -> int: ...
    @overload
    def permutation(self, items: bytes) -> bytes: ...  # type: ignore[overload-overlap]
    @overload
    def permutation(self, items: Sequence[_T]) -> list[_T]: ...
    def numpy_state(self) -> dict[str, Any]: ...
    def to_generator(self) -> np.random.Generator: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
