"""A short load test: ``mjcore loadtest`` as a real process against a real server process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from server_support import Server, env  # noqa: E402


def loadtest(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mjcore.cli", "loadtest", *args],
        env=env(),
        cwd=cwd,  # not the checkout: its mjcore/ may lack the built core
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_short_load_test_has_no_errors(tmp_path):
    server = Server(tmp_path / "load.db").start()
    try:
        res = loadtest(
            tmp_path, "--url", server.base, "--tables", "12", "--duration", "4", "--json"
        )
        assert res.returncode == 0, res.stdout + res.stderr
        report = json.loads(res.stdout)
        assert report["errors"] == 0 and report["lost_tables"] == 0
        assert report["tables"] == 12 and report["clients"] == 48
        assert report["actions"] > 100 and report["actions_per_s"] > 0
        assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"]
        assert report["hands_finished"] >= 1
        assert server.get("/api/health")["rooms"] == 12
        mixed = loadtest(
            tmp_path,
            "--url", server.base, "--tables", "3", "--duration", "2", "--clients", "1",
            "--variant", "qingdao", "--json",
        )  # fmt: skip
        assert mixed.returncode == 0, mixed.stdout + mixed.stderr
    finally:
        server.stop()


def test_only_loopback_targets(tmp_path):
    res = loadtest(tmp_path, "--url", "http://192.0.2.1:8000", "--tables", "1", "--duration", "1")
    assert res.returncode != 0 and "loopback" in res.stderr
