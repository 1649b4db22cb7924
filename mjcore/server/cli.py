"""``mjcore serve`` (the game server) and ``mjcore loadtest`` (bot tables over WebSockets)."""

from __future__ import annotations

import gc
import json
import socket
import sys

import click

from .._extras import install_hint
from ..bots.registry import BOTS
from ..variants import DEFAULT_VARIANT
from . import DEFAULT_BOT


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option(
    "--db",
    default="mjcore-server.db",
    show_default=True,
    help="SQLite file path, or a SQLAlchemy URL (postgresql+psycopg://user@host/db).",
)
@click.option(
    "--claim-window-ms",
    default=0,
    show_default=True,
    type=click.IntRange(0, 30_000),
    help="Default uniform claim window for rooms that do not set one (0 = no pacing).",
)
@click.option("--idle-timeout", default=30.0, show_default=True, help="Default idle seconds.")
@click.option("--max-rooms", default=10_000, show_default=True, type=int)
@click.option(
    "--restore",
    type=click.Choice(["lazy", "all"]),
    default="lazy",
    show_default=True,
    help="Restore a stored room on its first request (lazy), or every room at start (all).",
)
@click.option(
    "--idle-room-s",
    default=600.0,
    show_default=True,
    type=click.FloatRange(1, 86_400),
    help="A room nobody has been connected to this long leaves memory (the database keeps it).",
)
@click.option(
    "--lease-s",
    default=10.0,
    show_default=True,
    type=click.FloatRange(1, 3600),
    help="A room's lease: how long this process keeps serving it without renewing (and how "
    "soon another process may take over after a crash).",
)
@click.option(
    "--token-ttl-s",
    default=3600.0,
    show_default=True,
    type=click.FloatRange(0, 365 * 86_400),
    help="Seat tokens of a finished room (max_hands played) stop working this long after its "
    "last hand.",
)
@click.option(
    "--server-id",
    default="",
    help="This server's name in room leases (default HOSTNAME:PORT); a server restarted "
    "with the same id serves its rooms again at once.",
)
@click.option(
    "--bot",
    type=click.Choice(list(BOTS)),
    default=DEFAULT_BOT,
    show_default=True,
    help="The agent that plays an away human seat and fills the bot seats a room omits "
    "(a room may choose its own with 'bot').",
)
@click.option(
    "--ws-compression/--no-ws-compression",
    default=False,
    show_default=True,
    help="permessage-deflate on WebSockets (less bandwidth, more CPU per message).",
)
def serve_command(
    host: str,
    port: int,
    db: str,
    claim_window_ms: int,
    idle_timeout: float,
    max_rooms: int,
    restore: str,
    idle_room_s: float,
    lease_s: float,
    server_id: str,
    token_ttl_s: float,
    bot: str,
    ws_compression: bool,
) -> None:
    """Run the game server (HTTP API, WebSockets, browser table at http://HOST:PORT/)."""
    try:
        import uvicorn

        from .app import MAX_MESSAGE, create_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        hint = "install the server extra: " + install_hint("server")
        raise click.ClickException(f"{exc}; {hint}") from None
    app = create_app(
        db, max_rooms=max_rooms, restore=restore, idle_room_s=idle_room_s, lease_s=lease_s,
        server_id=server_id or f"{socket.gethostname()[:40]}:{port}", token_ttl_s=token_ttl_s,
        claim_window_ms=claim_window_ms, idle_timeout_s=idle_timeout, bot=bot,
    )  # fmt: skip
    # Fewer, cheaper garbage collections: a full collection walks every room's state and
    # pauses all tables (measured up to ~200 ms with 500 tables at the default thresholds).
    gc.set_threshold(50_000, 50, 1_000)
    click.echo(f"mjcore server on http://{host}:{port}/ (database {db})", err=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=4 * MAX_MESSAGE,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        ws_per_message_deflate=ws_compression,
        backlog=4096,
    )


@click.command("loadtest")
@click.option("--url", default="http://127.0.0.1:8000", show_default=True)
@click.option("--tables", default=10, show_default=True, type=click.IntRange(1, 5000))
@click.option("--duration", default=10.0, show_default=True, type=click.FloatRange(0.5, 3600))
@click.option("--variant", default=DEFAULT_VARIANT, show_default=True)
@click.option(
    "--clients",
    default=4,
    show_default=True,
    type=click.IntRange(1, 4),
    help="WebSocket players per table (the other seats are server bots).",
)
@click.option(
    "--think-ms", default=0, show_default=True, type=click.IntRange(0, 60_000),
    help="Each client waits this long before answering a decision.",
)  # fmt: skip
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def loadtest_command(
    url: str,
    tables: int,
    duration: float,
    variant: str,
    clients: int,
    think_ms: int,
    seed: int,
    as_json: bool,
) -> None:
    """Play TABLES concurrent tables against a running server on this machine (loopback only).

    Exit status 0 only if no error reply, dropped connection or lost room occurred.
    """
    from .loadtest import LoadConfig, run_loadtest

    cfg = LoadConfig(url, tables, duration, variant, clients, think_ms / 1000, seed)
    try:
        report = run_loadtest(cfg)
    except (ValueError, OSError) as exc:  # bad arguments; no server at the URL
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(report))
    else:
        for key, value in report.items():
            click.echo(f"{key:>16}: {value}")
    sys.exit(0 if report["errors"] == 0 and report["lost_tables"] == 0 else 1)


COMMANDS = (serve_command, loadtest_command)
"""The commands ``mjcore.cli`` registers."""
