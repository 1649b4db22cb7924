"""Real server processes for the server tests: start ``mjcore serve`` and talk to it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import mjcore

PACKAGE_PARENT = str(Path(mjcore.__file__).resolve().parents[1])


def missing(what: str, package: str) -> str:
    """A skip reason naming the Debian package that brings the test back (README: System
    packages; ``.ci/run`` installs them all)."""
    return f"{what} not installed: `apt-get install {package}` brings this test back"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env() -> dict[str, str]:
    """The environment of a child process importing the same mjcore as these tests."""
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT, out.get("PYTHONPATH", "")])
    return out


class Server:
    """``mjcore serve`` in a subprocess on a free loopback port."""

    def __init__(self, db: Path, *extra: str, url: str | None = None) -> None:
        self.db = db  # a SQLite file, or where the log goes when ``url`` names another database
        self.url = url
        self.extra = extra
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        cmd = [sys.executable, "-m", "mjcore.cli", "serve", "--port", str(self.port)]
        self.log = self.db.with_suffix(f".{self.port}.log")
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [*cmd, "--db", self.url or str(self.db), *self.extra],
                env=env(),
                cwd=str(self.db.parent),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                self.get("/api/health")
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not come up in 30 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs (a crash)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as resp:
            return json.loads(resp.read())

    def metrics(self) -> dict[str, float]:
        """``GET /metrics`` (Prometheus text format) as {series: value}."""
        with urllib.request.urlopen(self.base + "/metrics", timeout=10) as resp:
            assert resp.headers["Content-Type"].startswith("text/plain")
            text = resp.read().decode()
        out = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, value = line.rsplit(" ", 1)
                out[name] = float(value)
        return out

    def post(self, path: str, body: Any, raw: bytes | None = None) -> tuple[int, Any]:
        data = raw if raw is not None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def room(self, **request: Any) -> str:
        status, data = self.post("/api/rooms", request)
        assert status == 201, data
        return data["room"]

    def join(self, room: str, seat: int | None = None) -> str:
        status, data = self.post(f"/api/rooms/{room}/join", {} if seat is None else {"seat": seat})
        assert status == 200, data
        return data["token"]


class Client:
    """A synchronous WebSocket client for one seat, keeping what it received."""

    def __init__(self, server: Server, room: str) -> None:
        from websockets.sync.client import connect

        self.server = server
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(connect(f"{server.ws_base}/ws/{room}", open_timeout=10))
        self.states: list[dict[str, Any]] = []

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg = json.loads(self.ws.recv(timeout=timeout))
        if msg["type"] == "state":
            self.states.append(msg)
        return msg

    def until(self, pred: Any, timeout: float = 10) -> dict[str, Any]:
        """Receive until ``pred(msg)`` holds (bounded by ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if pred(msg):
                return msg

    def hello(self, token: str, **cursor: Any) -> dict[str, Any]:
        self.send({"type": "hello", "token": token, **cursor})
        assert self.recv()["type"] == "welcome"
        return self.until(lambda m: m["type"] == "state")

    def my_turn(self, timeout: float = 10) -> dict[str, Any]:
        """The next state that offers this seat a decision."""
        return self.until(
            lambda m: m["type"] == "state" and bool(m["view"]["legal_actions"]), timeout
        )

    def act(self, action: str, ref: int = 1) -> dict[str, Any]:
        self.send({"type": "act", "action": action, "id": ref})
        return self.until(lambda m: m["type"] in ("ok", "error") and m.get("id") == ref)

    def close(self) -> None:
        self._stack.close()


def drain(c: Client, wait: float = 0.3) -> None:
    """Read everything the server has sent so far (states are kept in ``c.states``)."""
    try:
        while True:
            c.recv(wait)
    except TimeoutError:
        pass


def to_act(clients: list[Client]) -> tuple[Client, str]:
    """The client whose latest state offers a decision, and the first action offered."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for c in clients:
            drain(c, 0.05)
            if c.states and c.states[-1]["view"]["legal_actions"]:
                return c, c.states[-1]["view"]["legal_actions"][0]
    raise AssertionError("no seat was offered a decision")


def switch_language(page: Any, lang: str) -> None:
    """Set a page's language with its #lang button. The page wires the button once its data
    has loaded: a click before that does nothing, so it is clicked again when the language
    has not changed within a few seconds (a loaded machine was seen to need it)."""
    shown = "document.documentElement.lang"
    for _ in range(3):
        if page.evaluate(shown) == lang:
            return
        page.click("#lang")
        try:
            page.wait_for_function(f"{shown} === {lang!r}", timeout=5000)
        except Exception as exc:  # (playwright's TimeoutError: the click came too early)
            if type(exc).__name__ != "TimeoutError":
                raise
    assert page.evaluate(shown) == lang
