"""The game server under load: SQLite and PostgreSQL, one process and three behind nginx.

    python bench/server_scale.py [--tables 500] [--duration 20] [--think-ms 1000] [--json]

For each configuration it starts everything itself on loopback — a PostgreSQL cluster in a
temporary directory (Debian's server programs), `mjcore serve` processes, nginx with the
repository's routing config (deploy/nginx/mjcore.conf) — runs `mjcore loadtest` against it
and prints latency (act → ok) percentiles, throughput, errors and the load average. With
three processes it then measures failover: kill -9 the process serving a connected room and
time how long until the room is served again through nginx (bounded by the lease).

Nothing here is a timed unit test; the figures depend on the machine and its other load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the test suite's real-process helpers

from nginx_support import Nginx, nginx_binary  # noqa: E402
from pg_support import Postgres, binaries  # noqa: E402
from server_support import Client, Server, env  # noqa: E402

LEASE_S = 10.0


def loadtest(url: str, args: argparse.Namespace) -> dict:
    cmd = [
        sys.executable, "-m", "mjcore.cli", "loadtest", "--url", url, "--tables",
        str(args.tables), "--duration", str(args.duration), "--think-ms", str(args.think_ms),
        "--json",
    ]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, env=env(), timeout=1800)
    if out.returncode not in (0, 1) or not out.stdout.strip():
        raise RuntimeError(out.stderr[-2000:])
    report = json.loads(out.stdout)
    report["load_avg"] = round(os.getloadavg()[0], 2)
    return report


def failover(proxy: Nginx, servers: list[Server]) -> float:
    """Seconds from kill -9 of a room's process to the room being served again."""
    room = proxy.room(variant="xuezhan_kaxinwu", idle_timeout_s=600)
    token = proxy.join(room, 0)
    c = Client(proxy, room)
    c.hello(token)
    victim = next(s for s in servers if _holds(s, room))
    victim.kill()
    killed = time.monotonic()
    c.close()
    while True:
        try:
            again = Client(proxy, room)
            again.hello(token)
            again.close()
            return time.monotonic() - killed
        except Exception:
            if time.monotonic() - killed > 3 * LEASE_S:
                raise
            time.sleep(0.1)


def _holds(server: Server, room: str) -> bool:
    """Whether ``server`` serves the room (the others answer 503: it holds the lease)."""
    status, _ = server.post(f"/api/rooms/{room}/join", {"seat": 99})
    return status != 503  # 409 (no such seat) from the process that serves the room


def run(config: str, args: argparse.Namespace, pg: Postgres | None) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="mjcore-bench-"))
    url = pg.url if pg is not None else None
    n = 3 if config.endswith("x3") else 1
    # one load generator on loopback plays every table: no per-client limit applies to it
    extra = ("--lease-s", str(LEASE_S), "--limit-exempt", "127.0.0.1")
    servers = [
        Server(workdir / "rooms.db", *extra, "--server-id", f"s{i}", url=url).start()
        for i in range(n)
    ]
    proxy = Nginx([s.port for s in servers]).start() if n > 1 else None
    try:
        report = loadtest((proxy or servers[0]).base, args)
        report["config"] = config
        if proxy is not None:
            report["failover_s"] = round(failover(proxy, servers), 2)
        return report
    finally:
        if proxy is not None:
            proxy.stop()
        for s in servers:
            with contextlib.suppress(Exception):
                s.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--think-ms", type=int, default=1000)
    ap.add_argument("--configs", default="sqlite,postgres,sqlite-x3,postgres-x3")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    configs = args.configs.split(",")
    if any(c.startswith("postgres") for c in configs) and binaries() is None:
        sys.exit("PostgreSQL's server programs are not installed (apt-get install postgresql)")
    if any(c.endswith("x3") for c in configs) and nginx_binary() is None:
        sys.exit("nginx is not installed (apt-get install nginx-light)")
    pg = Postgres().start() if any(c.startswith("postgres") for c in configs) else None
    reports = []
    try:
        for config in configs:
            reports.append(run(config, args, pg if config.startswith("postgres") else None))
            r = reports[-1]
            if not args.json:
                print(
                    f"{config:<12} {r['tables']} tables  {r['actions_per_s']:>7} act/s  "
                    f"p50 {r['p50_ms']} ms  p99 {r['p99_ms']} ms  max {r['max_ms']} ms  "
                    f"errors {r['errors']}  lost {r['lost_tables']}  load {r['load_avg']}"
                    + (f"  failover {r['failover_s']} s" if "failover_s" in r else ""),
                    flush=True,
                )
    finally:
        if pg is not None:
            pg.destroy()
    if args.json:
        print(json.dumps(reports, indent=1))


if __name__ == "__main__":
    main()
