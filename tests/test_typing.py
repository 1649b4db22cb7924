"""The package's type hints are checked (mypy), so the public API's annotations stay true."""

from __future__ import annotations

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")
ROOT = Path(__file__).resolve().parents[1]


def test_mypy_clean():
    out, err, status = api.run(
        [str(ROOT / "mjcore"), "--config-file", str(ROOT / "pyproject.toml"), "--no-incremental"]
    )
    assert status == 0, out + err
