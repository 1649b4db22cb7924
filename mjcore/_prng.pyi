"""Stubs of the native seeded generator (src/_prng.pyx)."""

from collections.abc import Sequence
from typing import Any, TypeVar, overload

import numpy as np
from typing_extensions import Self, disjoint_base

_T = TypeVar("_T")

def generate_state(seed: int, spawn_key: tuple[int, ...] = (), n_words: int = 4) -> list[int]: ...

__test__: dict[str, str]

# Cython's pickling helpers of the extension type, at module level in the compiled module
def __reduce_cython__(self: Any) -> Any: ...
def __setstate_cython__(self: Any, __pyx_state: Any) -> Any: ...

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
