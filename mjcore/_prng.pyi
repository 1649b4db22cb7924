"""Stubs of the native seeded generator (src/_prng.pyx)."""

from collections.abc import Sequence
from typing import Any, TypeVar, overload

import numpy as np

_T = TypeVar("_T")

def generate_state(seed: int, spawn_key: tuple[int, ...] = (), n_words: int = 4) -> list[int]: ...

class Pcg64:
    def __init__(self, seed: int) -> None: ...
    def integers(self, n: int) -> int: ...
    @overload
    def permutation(self, items: bytes) -> bytes: ...  # type: ignore[overload-overlap]
    @overload
    def permutation(self, items: Sequence[_T]) -> list[_T]: ...
    def numpy_state(self) -> dict[str, Any]: ...
    def to_generator(self) -> np.random.Generator: ...
