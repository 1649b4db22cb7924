"""The package version, read from the installed metadata: ``pyproject.toml`` is the one place
it is written."""

from __future__ import annotations

from importlib import metadata


def installed() -> str:
    """mjcore's installed version ("0+unknown" when the sources are imported uninstalled)."""
    try:
        return metadata.version("mjcore")
    except metadata.PackageNotFoundError:
        return "0+unknown"
