"""How to install an optional part of mjcore, said so that the command works wherever the user
is: the extra's own requirements, read from the installed package's metadata.

mjcore is not on PyPI yet, so ``pip install "mjcore[dask]"`` would fail (or fetch someone
else's project); ``pip install "dask[distributed]>=2024.1" …`` works from any directory, and
``pip install ".[dask]"`` from a checkout.
"""

from __future__ import annotations

import re
import shlex
from functools import cache
from importlib import metadata

_MARKER = re.compile(r"""^(?P<req>[^;]+?)\s*;\s*extra\s*==\s*["'](?P<extra>[\w.-]+)["']\s*$""")


@cache
def extra_requirements(extra: str) -> tuple[str, ...]:
    """The requirement strings of mjcore's optional ``extra`` (``()`` if unknown or if the
    package metadata is missing, as when the source tree is imported without installing)."""
    try:
        requires = metadata.requires("mjcore") or []
    except metadata.PackageNotFoundError:
        return ()
    out = []
    for line in requires:
        m = _MARKER.match(line)
        if m and m["extra"] == extra:
            out.append(m["req"].replace(" ", ""))
    return tuple(out)


def install_hint(extra: str, *only: str) -> str:
    """A command that installs mjcore's ``extra`` (or just its requirements named in ``only``,
    e.g. ``install_hint("dask", "pyarrow")``): ``pip install 'pyarrow>=14'  (the "dask" extra;
    with the built wheel: pip install "$(ls dist/mjcore-*.whl)[dask]"; from a checkout: pip
    install ".[dask]")``."""
    reqs = [r for r in extra_requirements(extra) if not only or _name(r) in only]
    wheel = f'pip install "$(ls dist/mjcore-*.whl)[{extra}]"'
    checkout = f'pip install ".[{extra}]"'
    if not reqs:
        return f"{wheel} (with the built wheel) or {checkout} (from a checkout of mjcore)"
    command = "pip install " + " ".join(map(shlex.quote, reqs))
    where = f'the "{extra}" extra; with the built wheel: {wheel}; from a checkout: {checkout}'
    return f"{command} ({where})"


def _name(requirement: str) -> str:
    """The project name a requirement string starts with (``"dask[distributed]>=1"`` -> dask)."""
    return re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower()
