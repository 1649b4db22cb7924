"""``--option key=value`` parsing shared by the ``mjcore`` subcommands."""

from __future__ import annotations

import json
from typing import Any

import click


def parse_option(text: str) -> tuple[str, Any]:
    """Room option ``key=value``: true/false, a JSON value (``2``, ``"flat"``) or a string."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise click.BadParameter(f"expected key=value, got {text!r}", param_hint="--option")
    lowered = raw.strip().lower()
    if lowered in ("true", "false"):
        return key.strip(), lowered == "true"
    try:
        return key.strip(), json.loads(raw)
    except ValueError:
        return key.strip(), raw
