"""mjcore — Chinese regional mahjong: a native hand-evaluation core and five variants.

Hand questions (``is_win``, ``waits``, ``is_ready``, ``shanten``) answer on 34-kind
count vectors through lookup tables; :mod:`mjcore.batch` answers them for numpy
batches with the GIL released. Game engines for each variant live behind
:func:`get_variant`.
"""

from ._purepy import compiled_modules, install_if_requested
from ._version import installed as _installed_version

install_if_requested()  # MJCORE_PURE_PYTHON=1: load the engine from its sources (before any import)

from . import batch, tiles
from .engine import Action, Game, Meld
from .errors import (
    IllegalActionError,
    InvalidHandError,
    InvalidOptionError,
    InvalidTileError,
    InvalidWallError,
    MjcoreError,
)
from .hand import best_decomposition, decompositions, hand_facts, is_ready, is_win, shanten, waits
from .variants import get_variant, names

__version__ = _installed_version()

__all__ = [
    "__version__",
    "Action",
    "Game",
    "Match",
    "Meld",
    "SimStats",
    "batch",
    "compiled_modules",
    "simulate",
    "IllegalActionError",
    "InvalidHandError",
    "InvalidOptionError",
    "InvalidTileError",
    "InvalidWallError",
    "MjcoreError",
    "best_decomposition",
    "decompositions",
    "get_variant",
    "hand_facts",
    "is_ready",
    "is_win",
    "names",
    "schema",
    "shanten",
    "tiles",
    "waits",
]


_LAZY = {
    "simulate": "mjcore.sim",
    "SimStats": "mjcore.sim",
    "Match": "mjcore.engine.match",
    "schema": "mjcore.schemas",
}


def __getattr__(name: str):  # PEP 562: keep `import mjcore` fast; simulation loads on first use
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mjcore' has no attribute {name!r}")
