"""``mjcore agent``: run an agent program at a live server seat (:mod:`mjcore.agents.live`)."""

from __future__ import annotations

import json

import click

from ..errors import MjcoreError


@click.command(
    "agent", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False}
)
@click.option("--url", required=True, help="The server, e.g. http://127.0.0.1:8000.")
@click.option("--room", required=True, help="The room id.")
@click.option("--token", required=True, help="The seat's token (from POST /api/rooms/{id}/join).")
@click.option(
    "--timeout-ms", default=1000, show_default=True, type=click.IntRange(1, 600_000),
    help="The agent's answer budget per decision (the greedy fallback plays a late one).",
)  # fmt: skip
@click.option(
    "--start-ms", default=10000, show_default=True, type=click.IntRange(1, 600_000),
    help="From start to the agent's ready line.",
)  # fmt: skip
@click.option(
    "--hands", default=0, show_default=True, type=click.IntRange(0),
    help="Stop after this many finished hands (0: when the room's last hand ends).",
)  # fmt: skip
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def agent_command(
    url: str,
    room: str,
    token: str,
    timeout_ms: int,
    start_ms: int,
    hands: int,
    command: tuple[str, ...],
) -> None:
    """Play a server seat with an agent program (the agent protocol, docs/agents.md):

        mjcore agent --url http://HOST:PORT --room ID --token TOKEN -- ./mybot --its-flags

    The program runs here, on this machine; a dropped connection is resumed where it
    stopped. At the end a JSON line reports hands, decisions and faults.
    """
    from .live import LiveAgent

    def log(text: str) -> None:
        click.echo(f"mjcore agent: {text}", err=True)

    try:
        agent = LiveAgent(
            url, room, token, list(command), timeout_ms=timeout_ms, start_ms=start_ms,
            hands=hands, log=log,
        )  # fmt: skip
        report = agent.run()
    except (ValueError, MjcoreError) as exc:
        raise click.UsageError(str(exc)) from None
    except ConnectionError as exc:
        raise click.ClickException(str(exc)) from None
    except ImportError:
        from .._extras import install_hint

        raise click.ClickException(
            "mjcore agent needs websockets: " + install_hint("server", "websockets")
        ) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
