"""``mjcore serve`` (the game server) and ``mjcore loadtest`` (bot tables over WebSockets)."""

from __future__ import annotations

import gc
import json
import math
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
    "--trusted-proxy",
    multiple=True,
    metavar="ADDRESS|NETWORK",
    help="A proxy (e.g. nginx) whose X-Forwarded-For names the client; repeatable. Without "
    "one, a client is the connection's peer address.",
)
@click.option(
    "--limit-exempt",
    multiple=True,
    metavar="ADDRESS|NETWORK",
    help="Clients no per-client limit applies to (a local load generator); repeatable.",
)
@click.option(
    "--limit-rooms-per-minute",
    default=30.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Room creations per client a minute (0: no limit).",
)
@click.option(
    "--limit-open-rooms",
    default=100,
    show_default=True,
    type=click.IntRange(0),
    help="Open rooms a client created, per process (0: no limit).",
)
@click.option(
    "--limit-connections",
    default=64,
    show_default=True,
    type=click.IntRange(0),
    help="WebSockets per client (0: no limit).",
)
@click.option(
    "--limit-replays-per-minute",
    default=60.0,
    show_default=True,
    type=click.FloatRange(0),
    help="POST /api/replay per client a minute (0: no limit).",
)
@click.option(
    "--login-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds a WebSocket has to send hello (0: no deadline).",
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds a TCP connection has to send a request's headers (0: no deadline).",
)
@click.option(
    "--max-connections",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help="Open connections per process before new ones get 503 (0: the descriptor "
    "limit less a reserve).",
)
@click.option(
    "--bot-workers",
    default=1,
    show_default=True,
    type=click.IntRange(0, 64),
    help="Worker processes deciding for bots too slow for the event loop (mc); 0: "
    "they decide on the loop (stalls every room).",
)
@click.option(
    "--bot-budget-ms",
    default=200.0,
    show_default=True,
    type=click.FloatRange(1, 60_000),
    help="Time budget of one such bot decision.",
)
@click.option(
    "--ws-compression/--no-ws-compression",
    default=False,
    show_default=True,
    help="permessage-deflate on WebSockets (less bandwidth, more CPU per message).",
)
@click.option(
    "--allow-origin",
    "allow_origins",
    multiple=True,
    metavar="ORIGIN",
    help="Also accept WebSockets and POSTs from pages of this origin (https://host[:port]; "
    "repeatable; '*': any site). By default only the server's own pages may.",
)
@click.option(
    "--drain-s",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0, 600),
    help="On SIGTERM: stop accepting, then wait up to this long for in-flight commits before "
    "telling every client to reconnect and closing (1001 going away).",
)
@click.option(
    "--ws-ping-interval",
    default=5.0,
    show_default=True,
    type=click.FloatRange(1, 300),
    help="Seconds between WebSocket pings (a dead peer is dropped after as long again; a "
    "proxy's read timeout must be longer: deploy/nginx/mjcore.conf expects at most 5 s).",
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
    trusted_proxy: tuple[str, ...],
    limit_exempt: tuple[str, ...],
    limit_rooms_per_minute: float,
    limit_open_rooms: int,
    limit_connections: int,
    limit_replays_per_minute: float,
    login_timeout: float,
    header_timeout: float,
    max_connections: int,
    bot_workers: int,
    bot_budget_ms: float,
    ws_compression: bool,
    allow_origins: tuple[str, ...],
    drain_s: float,
    ws_ping_interval: float,
) -> None:
    """Run the game server (HTTP API, WebSockets, browser table at http://HOST:PORT/)."""
    try:
        import uvicorn

        from .app import MAX_MESSAGE, create_app
        from .drain import DrainGate, serve_draining
        from .limits import ClientLimits, http_protocol, networks
        from .security import mask_url
    except ImportError as exc:  # pragma: no cover - depends on the install
        hint = "install the server extra: " + install_hint("server")
        raise click.ClickException(f"{exc}; {hint}") from None
    try:
        limits = ClientLimits(
            trusted_proxies=networks(trusted_proxy), exempt=networks(limit_exempt),
            rooms_per_minute=limit_rooms_per_minute,
            rooms_burst=max(1, int(limit_rooms_per_minute)), open_rooms=limit_open_rooms,
            connections=limit_connections, replays_per_minute=limit_replays_per_minute,
            replays_burst=max(1, min(10, math.ceil(limit_replays_per_minute))),
            login_s=login_timeout, header_s=header_timeout,
            max_connections=max_connections or _descriptor_budget(),
        )  # fmt: skip
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    try:
        app = create_app(
            db, limits=limits, bot_workers=bot_workers, bot_budget_ms=bot_budget_ms,
            max_rooms=max_rooms, restore=restore, idle_room_s=idle_room_s, lease_s=lease_s,
            server_id=server_id or f"{socket.gethostname()[:40]}:{port}",
            token_ttl_s=token_ttl_s, claim_window_ms=claim_window_ms,
            idle_timeout_s=idle_timeout, bot=bot, allowed_origins=allow_origins,
        )  # fmt: skip
    except ValueError as exc:  # a bad --allow-origin
        raise click.ClickException(str(exc)) from None
    # Fewer, cheaper garbage collections: a full collection walks every room's state and
    # pauses all tables (measured up to ~200 ms with 500 tables at the default thresholds).
    gc.set_threshold(50_000, 50, 1_000)
    click.echo(f"mjcore server on http://{host}:{port}/ (database {mask_url(db)})", err=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=4 * MAX_MESSAGE,
        ws_ping_interval=ws_ping_interval,
        ws_ping_timeout=ws_ping_interval,
        ws_per_message_deflate=ws_compression,
        backlog=4096,
        # The client address is resolved by limits.py from --trusted-proxy only (uvicorn's
        # own default would believe X-Forwarded-For from any local peer).
        proxy_headers=False,
        # a header deadline, and 503 to connections past the process's share of descriptors
        http=http_protocol(limits.header_s, limits.max_connections, app.state.count_limited),
    )
    gate = app.app
    assert isinstance(gate, DrainGate)  # (create_app's layers: security, drain, the app)
    serve_draining(config, gate, drain_s)


def _descriptor_budget(reserve: int = 128) -> int:
    """Raise the soft descriptor limit to the hard one; connections may use all but
    ``reserve`` (database, log files, the loop's own)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > 1 << 20:
        hard = 1 << 20
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return max(16, soft - reserve)


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
