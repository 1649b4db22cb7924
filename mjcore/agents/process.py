"""One agent program as a child process: JSON lines in, answer lines out, every fault caught.

:class:`AgentProcess` starts the command (its own session: a Ctrl-C at the terminal is the
host's to handle, and stopping it stops whatever it started), writes messages to its stdin
and reads answer lines from its stdout with a deadline (``poll`` on the raw pipe, no reader
thread). It never raises for anything the agent does: each call returns a fault name
(:data:`FAULTS`) or ``""``. stderr is the host's (an agent's log goes where the host's goes).

Host and agent take turns — the host waits while the agent decides — so an agent placed on
the host's CPU (``share_cpu``, Linux) answers without a wake-up across cores: on the 2-core
reference VM that is 6 µs a round trip instead of 25–85 (docs/agents.md).
"""

from __future__ import annotations

import contextlib
import functools
import os
import select
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Any

from .protocol import MAX_LINE, read_ready

_SCHED = hasattr(os, "sched_setaffinity")

FAULTS = ("start", "timeout", "crash", "malformed", "illegal", "flood")
"""What an agent can do wrong: not start (no ``ready`` in time), not answer in time, exit
or close its stdout, answer something that is not an action text, answer an action that
is not legal, or write lines nobody asked for (or an answer line over
:data:`~mjcore.agents.protocol.MAX_LINE` bytes)."""
FLOOD_BYTES = 1 << 20
"""Unasked output read before a decision; more than this and the agent is stopped."""
_CHUNK = 1 << 16


class AgentProcess:
    """A running agent program (see the module docstring); ``alive`` until a fault stops it."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | None,
        hello: bytes,
        start_ms: int,
        share_cpu: bool = False,
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd if cwd and os.path.isdir(cwd) else None
        self.hello = hello
        self.start_ms = start_ms
        self.ready: dict | None = None
        self.hands = 0  # hands begun on this process
        self.open_hand: Any = None  # (bot, game, seat) of a hand begun without the hooks
        self.share_cpu = share_cpu and _SCHED
        self.cpu: int | None = None  # the CPU it is held to (share_cpu), None when free
        self._proc: subprocess.Popen[bytes] | None = None
        self._buf = bytearray()
        self._poll = select.poll()

    # ---- life ------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._proc is not None

    def start(self) -> str:
        """Start the program, send ``hello`` and wait for ``ready``: ``""`` or ``"start"``."""
        self.stop()
        cpu = host_cpu() if self.share_cpu else None
        try:
            with _inherited_cpu(cpu):  # every thread and child of the agent starts on it
                self._proc = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    cwd=self.cwd,
                    bufsize=0,
                    start_new_session=True,
                )
        except OSError:
            self._proc = None
            return "start"
        self.cpu = cpu
        assert self._proc.stdout is not None
        self._buf.clear()
        self._poll = select.poll()
        self._poll.register(self._proc.stdout.fileno(), select.POLLIN)
        line, fault = self.ask(self.hello, self.start_ms)
        self.ready = read_ready(line) if line is not None else None
        if fault or self.ready is None:
            self.stop()
            return "start"
        return ""

    def follow_host(self) -> None:
        """Move a ``share_cpu`` agent to the CPU the host thread now runs on, if it moved
        (asked at each hand: the host may have been moved, e.g. beside another worker)."""
        if not self.share_cpu or self._proc is None:
            return
        cpu = host_cpu()
        if cpu is None or cpu == self.cpu:
            return
        self.cpu = cpu
        try:
            threads = os.listdir(f"/proc/{self._proc.pid}/task")
        except OSError:
            return
        for tid in threads:
            with contextlib.suppress(OSError, ValueError):
                os.sched_setaffinity(int(tid), {cpu})

    def close_input(self) -> None:
        """Close its stdin: a well-behaved agent reads what is left and exits."""
        if self._proc is not None:
            with contextlib.suppress(OSError):
                assert self._proc.stdin is not None
                self._proc.stdin.close()

    def stop(self, grace: float = 0.2) -> None:
        """Close its stdin, wait up to ``grace`` seconds, then kill what is left of it."""
        self.close_input()
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)  # its session: the agent and its children
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(2)
        with contextlib.suppress(OSError):
            assert proc.stdout is not None
            proc.stdout.close()

    # ---- messages --------------------------------------------------------------------
    def send(self, message: bytes) -> str:
        """Write one message that takes no answer: ``""``, ``"crash"`` or ``"flood"``."""
        if self._proc is None:
            return "crash"
        fault = self._drain()
        if self._proc is None:
            return fault
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(message)
        except (BrokenPipeError, OSError, ValueError):
            self.stop()
            return "crash"
        return fault

    def ask(self, message: bytes, timeout_ms: int) -> tuple[bytes | None, str]:
        """Write ``message`` and read one answer line within ``timeout_ms``.

        Returns (line, ``""``), or (line, ``"flood"``) when unasked output was discarded
        first, or (None, fault) — the process is then stopped (after a timeout a late
        answer could not be told from the next one's).
        """
        sent = self.send(message)
        if self._proc is None:
            return None, sent
        line, fault = self._read_line(time.monotonic() + timeout_ms / 1000)
        if fault:
            self.stop()
            return None, fault
        return line, sent

    # ---- reading ---------------------------------------------------------------------
    def _read_line(self, deadline: float) -> tuple[bytes | None, str]:
        buf = self._buf
        while True:
            end = buf.find(b"\n")
            if end >= 0:
                if end > MAX_LINE:
                    return None, "flood"
                line = bytes(buf[:end])
                del buf[: end + 1]
                return line, ""
            if len(buf) > MAX_LINE:
                return None, "flood"
            left = deadline - time.monotonic()
            if left <= 0 or not self._poll.poll(max(1, int(left * 1000) + 1)):
                if time.monotonic() >= deadline:
                    return None, "timeout"
                continue
            data = self._read()
            if not data:
                return None, "crash"
            buf += data

    def _read(self) -> bytes:
        assert self._proc is not None and self._proc.stdout is not None
        try:
            return os.read(self._proc.stdout.fileno(), _CHUNK)
        except OSError:
            return b""

    def _drain(self) -> str:
        """Discard output nobody asked for (``"flood"``); ``"crash"`` if the agent has gone."""
        flooded = bool(self._buf)
        self._buf.clear()
        taken = 0
        while self._poll.poll(0):
            data = self._read()
            if not data:
                self.stop()
                return "crash"
            flooded = True
            taken += len(data)
            if taken > FLOOD_BYTES:
                self.stop()
                return "flood"
        return "flood" if flooded else ""

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()


@functools.cache
def _sched_getcpu() -> Any:
    """libc's ``sched_getcpu`` (Linux), or None where there is none."""
    if not _SCHED:
        return None
    try:
        import ctypes

        getcpu = ctypes.CDLL(None, use_errno=True).sched_getcpu
    except (OSError, AttributeError):
        return None
    getcpu.restype, getcpu.argtypes = ctypes.c_int, ()
    return getcpu


def host_cpu() -> int | None:
    """The CPU the calling thread runs on (Linux), or None where that cannot be told."""
    getcpu = _sched_getcpu()
    cpu = getcpu() if getcpu is not None else -1
    return cpu if cpu >= 0 else None


@contextlib.contextmanager
def _inherited_cpu(cpu: int | None) -> Any:
    """Hold the calling thread to ``cpu`` while a child is started (it inherits the mask),
    then give the thread its own mask back."""
    if cpu is None:
        yield
        return
    try:
        saved = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {cpu})
    except OSError:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, saved)
