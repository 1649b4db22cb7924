"""A real PostgreSQL server for the server tests: Debian's binaries, a cluster of its own in a
temporary directory on a free loopback port, started and stopped by the test itself (run as
the ``postgres`` system user when the tests run as root, since PostgreSQL refuses root)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from server_support import free_port


def binaries() -> Path | None:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl), or None if not installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


class Postgres:
    """One PostgreSQL cluster: ``start()``, ``stop(mode)``, ``url`` for SQLAlchemy."""

    def __init__(self) -> None:
        bindir = binaries()
        if bindir is None:
            raise RuntimeError("PostgreSQL's server programs are not installed")
        self.bin = bindir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="mjcore-pg-"))
        self.data = self.dir / "data"
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "mjcore", "-E", "UTF8")
        self.url = f"postgresql+psycopg://mjcore@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        cmd = [str(self.bin / program), *args]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def start(self) -> Postgres:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"),
                  "-w", "-t", "60", "start")  # fmt: skip
        return self

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m MODE`` (``immediate``: an abrupt outage, no shutdown checkpoint)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def destroy(self) -> None:
        if self.running():
            try:
                self.stop("immediate")
            except subprocess.CalledProcessError:
                pass
        deadline = time.monotonic() + 10
        while self.running() and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(self.dir, ignore_errors=True)
