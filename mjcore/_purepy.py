"""The compiled engine modules and their pure-Python fallback.

``pip install .`` compiles the engine's hot modules (the game loop, the variants, the bots,
``tiles``) with Cython in pure-Python mode; each ``.py`` source stays in the package beside
its extension. Python imports the extension when both are there. ``MJCORE_PURE_PYTHON=1`` in
the environment (read once, at ``import mjcore``) makes every ``mjcore`` module load from its
source instead — the same code, so the same results, only slower. The tests run both ways.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

ENV = "MJCORE_PURE_PYTHON"
NATIVE = frozenset({"mjcore._core", "mjcore._prng"})
"""Modules that exist only compiled (the native core): never replaced by a source."""


class SourceFirstFinder:
    """A meta-path finder that loads ``mjcore.*`` modules from their ``.py`` source."""

    @staticmethod
    def find_spec(
        fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("mjcore.") or fullname in NATIVE or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None  # a package or a native-only module: the normal finders handle it


def install_if_requested() -> None:
    """Put :class:`SourceFirstFinder` first on ``sys.meta_path`` when ``MJCORE_PURE_PYTHON``
    is set to anything but empty or ``0``."""
    if os.environ.get(ENV, "") not in ("", "0") and SourceFirstFinder not in sys.meta_path:
        sys.meta_path.insert(0, SourceFirstFinder)  # type: ignore[arg-type]


def compiled_modules() -> list[str]:
    """The imported ``mjcore`` modules that run compiled (besides the native core)."""
    return sorted(
        name
        for name, mod in list(sys.modules.items())
        if name.startswith("mjcore.")
        and name not in NATIVE
        and isinstance(
            getattr(getattr(mod, "__spec__", None), "loader", None),
            importlib.machinery.ExtensionFileLoader,
        )
    )
