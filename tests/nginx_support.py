"""A real nginx (Debian's package) in front of server processes, with the repository's own
routing configuration (deploy/nginx/mjcore.conf) pointed at the test's ports."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from server_support import Server

CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "nginx" / "mjcore.conf"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )


def routing_config(listen: int, upstreams: list[int]) -> str:
    """deploy/nginx/mjcore.conf with its listen address and upstream servers replaced."""
    text = CONFIG.read_text()
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=0;\n" for p in upstreams)
    text, n = re.subn(r"(?m)^    server 127\.0\.0\.1:\d+ [^\n]*\n", "", text)
    assert n, "the shipped config lists no upstream servers"
    text = text.replace(
        "    hash $mjcore_room consistent;\n", "    hash $mjcore_room consistent;\n" + servers
    )
    text, n = re.subn(r"listen 127\.0\.0\.1:\d+;", f"listen 127.0.0.1:{listen};", text)
    assert n == 1
    return text


class Nginx(Server):
    """nginx on a free loopback port, routing to ``upstreams`` (ports of mjcore servers);
    it has the same HTTP helpers as a Server."""

    def __init__(self, upstreams: list[int]) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="mjcore-nginx-"))
        super().__init__(self.dir / "unused.db")
        self.upstreams = upstreams

    def start(self) -> Nginx:  # type: ignore[override]
        binary = nginx_binary()
        assert binary, "nginx is not installed"
        d = self.dir
        conf = d / "nginx.conf"
        temp = "".join(
            f"    {name}_temp_path {d}/{name};\n"
            for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        conf.write_text(
            f"worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\n"
            "worker_rlimit_nofile 16384;\nevents { worker_connections 8192; }\n"
            f"http {{\n    access_log off;\n{temp}"
            + routing_config(self.port, self.upstreams)
            + "}\n"
        )
        with open(d / "stderr.log", "wb") as log:
            self.proc = subprocess.Popen(
                [binary, "-c", str(conf), "-p", str(d), "-g", "daemon off;"],
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                self.get("/api/health")
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError((d / "stderr.log").read_text()) from None
                time.sleep(0.1)
        raise RuntimeError("nginx did not come up")

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(self.dir, ignore_errors=True)
