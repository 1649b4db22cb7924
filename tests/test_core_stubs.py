"""The hand-written stubs match the compiled extension; the Cython source is lint-clean.

Both checks run only where the tools are installed (mypy; cython-lint, which is
not a dependency: ``pip install cython-lint`` to enable it).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the interpreter in ``tmp`` (no source tree on sys.path, caches kept there)."""
    env = dict(os.environ, MYPY_CACHE_DIR=str(tmp / "mypy_cache"))
    # tools installed beside this interpreter (cython-lint runs `pycodestyle`)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=tmp)


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
@pytest.mark.parametrize("module", ["mjcore._core", "mjcore._prng"])
def test_stubs_match_the_extension(tmp_path, module):
    out = _run(tmp_path, "-m", "mypy.stubtest", module)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("cython_lint") is None, reason="cython-lint is not installed"
)
def test_cython_sources_are_lint_clean(tmp_path):
    sources = [str(ROOT / "src" / name) for name in ("_core.pyx", "_prng.pyx", "mj_hand.pxd")]
    code = "import sys; from cython_lint.cython_lint import main; sys.exit(main())"
    out = _run(tmp_path, "-c", code, "--max-line-length", "100", *sources)
    assert out.returncode == 0, out.stdout + out.stderr
