"""The site's icon, drawn by code: a mahjong tile (红中) as SVG, for ``/favicon.svg`` and
``/favicon.ico`` and inline in the self-contained replay page."""

from __future__ import annotations

from urllib.parse import quote


def favicon_svg(size: int = 64) -> str:
    """An ivory tile on its green back with a red 中, ``size`` pixels square."""
    w, h = 40, 54  # the tile, centred in a 64×64 box
    x, y = (64 - w) / 2, (64 - h) / 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        'viewBox="0 0 64 64">',
        f'<rect x="{x}" y="{y + 3}" width="{w}" height="{h}" rx="7" fill="#1e7a4a"/>',
        f'<rect x="{x}" y="{y}" width="{w}" height="{h - 2}" rx="7" fill="#fbf7ea" '
        'stroke="#b9b29c" stroke-width="1.5"/>',
        # the glyph drawn as strokes (no font needed): the box and the long vertical of 中
        f'<rect x="{x + 9}" y="{y + 17}" width="{w - 18}" height="15" rx="2" fill="none" '
        'stroke="#c3262e" stroke-width="5"/>',
        f'<rect x="{x + w / 2 - 2.75}" y="{y + 7}" width="5.5" height="{h - 16}" rx="2" '
        'fill="#c3262e"/>',
        "</svg>",
    ]
    return "".join(parts)


def favicon_data_uri() -> str:
    """The icon as a ``data:`` URI (for a page that must not fetch anything)."""
    return "data:image/svg+xml," + quote(favicon_svg())
