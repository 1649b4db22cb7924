"""Storage that recovers (issue 32): a real disk-full under a running server — its SQLite
database on a small tmpfs mounted by the test, filled up by a file — then space back.
While the disk is full, actions are refused (never acknowledged unstored) and
``/api/health`` answers 503 naming what is wrong; once space is back, the checkpoint thread
(which used to die at the first failure, leaving the write-ahead log to grow until the disk
filled again) empties the log, health is 200 again and play resumes."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from server_support import Client, Server, to_act  # noqa: E402

TMPFS_BYTES = 6 * 2**20


def health(server: Server) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(server.base + "/api/health", timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@contextlib.contextmanager
def small_disk(where: Path):
    """A tmpfs of TMPFS_BYTES mounted at ``where`` (skips unless root may mount here)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs for a real disk-full needs root")
    where.mkdir()
    out = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_BYTES}", "tmpfs",
                          str(where)], capture_output=True, text=True)  # fmt: skip
    if out.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {out.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(path: Path) -> int:
    """Write ``path`` until the disk is full; the bytes written."""
    written = 0
    with open(path, "wb", buffering=0) as f:
        for size in (1 << 16, 1 << 12, 1 << 9):
            block = b"\0" * size
            while True:
                try:
                    written += f.write(block)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
                    break
    return written


def act(clients: list[Client], ref: int) -> dict[str, Any]:
    c, action = to_act(clients)
    return c.act(action, ref)


def test_a_full_disk_then_space_back(tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "game.db"
        wal = Path(f"{db}-wal")
        srv = Server(tmp_path / "log.db", url=str(db)).start()  # (its log off the tmpfs)
        clients: list[Client] = []
        try:
            # next_hand_s=1: the disk may take dozens of actions to refuse one (SQLite reuses
            # its log's space after a checkpoint), so a hand may end meanwhile, and these
            # clients never say "next": the next hand must start well within to_act's 10 s.
            room = srv.room(variant="xuezhan_kaxinwu", players=2, seats=["human", "human"],
                            idle_timeout_s=600, next_hand_s=1)  # fmt: skip
            tokens = [srv.join(room, s) for s in (0, 1)]
            clients = [Client(srv, room) for _ in tokens]
            for c, t in zip(clients, tokens, strict=True):
                c.hello(t)
            ref = 0
            for _ in range(10):
                ref += 1
                assert act(clients, ref)["type"] == "ok"
            assert health(srv)[0] == 200

            filler = disk / "filler"
            fill(filler)
            refused, failing, statuses = 0, set(), []
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not (refused and statuses and failing):
                ref += 1
                reply = act(clients, ref)
                if reply["type"] == "error":
                    assert reply["code"] == "server_error", reply
                    assert "not stored" in reply["message"]
                    refused += 1
                    status, body = health(srv)
                    statuses.append(status)
                    if status == 503:
                        failing = set(body["failing"])
                    time.sleep(1.1)  # a room waits a second after a failed write
            assert refused, "the full disk never refused an action"
            assert 503 in statuses, "health stayed 200 on a full disk"
            assert failing & {"writes", "checkpointer"}, failing
            wal_full = wal.stat().st_size
            print(f"disk full after {ref} actions; log {wal_full} bytes; failing {failing}")

            filler.unlink()  # space back
            deadline = time.monotonic() + 30
            while True:  # the first action after space is back is stored
                ref += 1
                reply = act(clients, ref)
                if reply["type"] == "ok":
                    break
                assert time.monotonic() < deadline, reply
                time.sleep(1.1)
            for _ in range(20):
                ref += 1
                assert act(clients, ref)["type"] == "ok"
            deadline = time.monotonic() + 20
            while (answer := health(srv))[0] != 200:
                assert time.monotonic() < deadline, answer
                time.sleep(0.5)
            time.sleep(2.5)  # checkpoints run every second
            wal_after = wal.stat().st_size
            print(f"log {wal_full} -> {wal_after} bytes once space was back")
            assert wal_after < wal_full and wal_after < 256 * 1024
            assert health(srv)[1]["checks"]["checkpointer"]["error"] is None
        finally:
            for c in clients:
                with contextlib.suppress(Exception):
                    c.close()
            srv.stop()
