"""A reference game server on the engine API: rooms, WebSockets, persistence, a browser table.

Install the server extra (``pip install "$(ls dist/mjcore-*.whl)[server]"`` with the built wheel,
``pip install ".[server]"`` from a checkout) and run
``mjcore serve``. The pieces:
``rooms`` (a room = one Match, its seats, bots and pacing; no I/O), ``store`` (SQLAlchemy
persistence of configurations and action logs), ``app`` (the Starlette ASGI app:
HTTP API and one WebSocket per seat), ``limits`` (what one client address may take),
``botpool`` (bots too slow for the event loop decide in worker processes), ``snapshots``
(per-hand snapshots: fast restores, finished hands out of memory), ``loadtest`` (bot tables
as WebSocket clients),
``static/`` (the browser table). The protocol is documented in ``docs/protocol.md``.
This module imports nothing heavy, so ``mjcore`` works without the server extra.
"""

DEFAULT_BOT = "expert"
"""The server's bot (``mjcore serve --bot``, a room's ``bot``): it plays an away human seat and
fills the bot seats a room omits. The strongest reference agent measured (docs/bots.md) that
decides within a table's latency budget: about 0.02–0.03 ms a decision on the event loop, where
``mc`` spends up to seconds (it decides in the server's bot pool, ``botpool.py``) and has not
been shown stronger."""
