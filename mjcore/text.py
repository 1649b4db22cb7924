"""Text for people: display width of CJK text, padded columns, pattern and payment-reason
labels in 中文 and English."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine.variant import Variant


def display_width(s: str) -> int:
    """Terminal columns ``s`` takes: wide and fullwidth characters (中文, ｆｕｌｌ) count 2."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def pad(s: str, width: int, align: str = "<") -> str:
    """``s`` padded with spaces to ``width`` display columns (``align`` "<" left, ">" right);
    a longer ``s`` is returned whole."""
    fill = " " * max(0, width - display_width(s))
    return fill + s if align == ">" else s + fill


def table(rows: Sequence[Sequence[str]], align: str = "", indent: str = "") -> list[str]:
    """Rows of cells as lines whose columns line up by display width; ``align`` gives one
    "<" or ">" per column (default left), columns are two spaces apart."""
    if not rows:
        return []
    n = max(len(r) for r in rows)  # a short row leaves its last columns empty
    widths = [max(display_width(r[i]) if i < len(r) else 0 for r in rows) for i in range(n)]
    aligns = align.ljust(n, "<")
    return [
        indent
        + "  ".join(pad(c, w, a) for c, w, a in zip(r, widths, aligns, strict=False)).rstrip()
        for r in rows
    ]


def pattern_label(variant: str, pid: str) -> str:
    """``"清一色 Full Flush (qingyise)"``: a pattern's 中文 name, English name and id, or the id
    alone if ``variant`` (a registered name) has no such pattern."""
    name, english = pattern_name(variant, pid), pattern_english(variant, pid)
    return f"{name} {english} ({pid})" if name else pid


def pattern_english(variant: str, pid: str) -> str:
    """A pattern's English name in ``variant``'s registry (清一色 "Full Flush"; "" if unknown)."""
    v = _variant(variant)
    entry = v.pattern(pid) if v is not None else None
    return entry.english if entry is not None else ""


def pattern_name(variant: str, pid: str) -> str:
    """A pattern's 中文 name in ``variant``'s registry ("" if unknown)."""
    v = _variant(variant)
    entry = v.pattern(pid) if v is not None else None
    return entry.name if entry is not None else ""


def reason_label(variant: str, reason: str) -> str:
    """A ``pay`` event's reason in 中文: ``"pihu+pao"`` -> ``"屁胡 + 跑"`` (the variant's
    ``reason_name``; the reason as is if ``variant`` is unknown)."""
    v = _variant(variant)
    return v.reason_name(reason) if v is not None else reason


def _variant(name: str) -> Variant | None:
    from .errors import MjcoreError
    from .variants import get_variant

    try:
        return get_variant(name)
    except MjcoreError:
        return None
