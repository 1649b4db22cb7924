"""Two apps made by ``create_app`` served by ONE process, each on its own port, for
tests/test_server_apps.py (the process is real: the test starts it and stops it).

``python two_apps.py PORT_A DB_A PORT_B DB_B``: app A (lipu rooms, random bots, at most one
open room per client) and app B (qingdao rooms, greedy bots, at most one room in the
process). A line ``drain a`` (or ``drain b``) on stdin drains that app as SIGTERM would drain
``mjcore serve``; the end of stdin stops both (each runs its lifespan's shutdown).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import uvicorn

from mjcore.server.app import create_app
from mjcore.server.limits import ClientLimits


def apps(db_a: str, db_b: str) -> dict[str, Any]:
    return {
        "a": create_app(
            db_a,
            max_rooms=5,
            bot_workers=0,
            limits=ClientLimits(open_rooms=1),
            variant="lipu",
            bot="random",
        ),
        "b": create_app(db_b, max_rooms=1, bot_workers=0, variant="qingdao", bot="greedy"),
    }


async def serve(made: dict[str, Any], ports: dict[str, int]) -> None:
    servers = {
        name: uvicorn.Server(
            uvicorn.Config(
                app, host="127.0.0.1", port=ports[name], log_level="warning", lifespan="on"
            )
        )
        for name, app in made.items()
    }
    tasks = [asyncio.create_task(server.serve()) for server in servers.values()]
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        command, name = line.split()
        if command != "drain":
            raise SystemExit(f"unknown command {command!r}")
        await made[name].app.drain(1.0)  # (the DrainGate inside the security middleware)
        print(f"drained {name}", flush=True)
    for server in servers.values():
        server.should_exit = True
    await asyncio.gather(*tasks)


if __name__ == "__main__":
    port_a, db_a, port_b, db_b = sys.argv[1:5]
    asyncio.run(serve(apps(db_a, db_b), {"a": int(port_a), "b": int(port_b)}))
