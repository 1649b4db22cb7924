"""The system packages some tests need (Chromium, a CJK font, PostgreSQL, nginx) are named in
the README and the docs' index with one command that installs them all — the same list
``.ci/run`` installs — and every test skipped without one says which package brings it back."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from server_support import missing

ROOT = Path(__file__).resolve().parents[1]


def ci_packages() -> set[str]:
    """The Debian packages ``.ci/run`` installs when missing."""
    found = set(re.findall(r"missing\+=\(([\w.+-]+)\)", (ROOT / ".ci" / "run").read_text()))
    assert found, ".ci/run lists the system packages it installs"
    return found


def install_commands(text: str) -> list[set[str]]:
    """The packages of each ``apt-get install`` command in ``text``."""
    out = []
    for m in re.finditer(r"apt-get install ([^\n`]*)", text):
        words = shlex.split(m[1])
        out.append({w for w in words if not w.startswith("-")})
    return out


def test_readme_and_index_name_every_system_package_in_one_command():
    want = ci_packages()
    assert {"chromium", "fonts-wqy-microhei", "postgresql", "nginx-light"} <= want
    for doc in ("README.md", "docs/index.md"):
        commands = install_commands((ROOT / doc).read_text(encoding="utf-8"))
        assert want in commands, f"{doc}: one apt-get install of {sorted(want)}, got {commands}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme[: readme.index("## What is in it")]
    assert "everything else comes from PyPI" not in head
    assert "System packages" in head


def test_every_system_package_skip_names_its_package():
    named: set[str] = set()
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path.name == Path(__file__).name:
            continue
        text = path.read_text(encoding="utf-8")
        for packages in re.findall(r"missing\(\s*\"[^\"]+\",\s*\"([^\"]+)\"\s*\)", text):
            named |= set(packages.split())
        for line in text.splitlines():  # no skip about a system program without its package
            if re.search(r"skip", line) and re.search(r"chromium|postgres|nginx|font", line, re.I):
                assert "missing(" in line or "NO_CHROMIUM" in line, f"{path.name}: {line.strip()}"
    assert named == ci_packages(), "each package .ci/run installs brings some skipped test back"
    reason = missing("nginx", "nginx-light")
    assert reason.startswith("nginx not installed") and "`apt-get install nginx-light`" in reason
