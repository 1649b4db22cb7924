"""The documentation site (mkdocs.yml, docs/): it builds strictly and its examples run.

``mkdocs build --strict`` must pass on the real site, render the API reference from the sources
(real signatures on the API pages), and fail on a broken link, a missing anchor or a missing
API reference (proved on a small site built with the real configuration). The examples of the
pages written for the site run here: ```` ```python ```` blocks as doctests (outputs compared),
```` ```console ```` blocks of ``$ mjcore …`` through the CLI (output compared), and the command
lines of ```` ```bash ```` blocks are parsed by the CLI (every ``mjcore`` option exists and its
value is valid) or name files that exist. The pages that repeat README (the newcomer commands,
the benchmark figures) are checked to say what README says.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjcore.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"
# The pages written for the site; their examples are run below (the older pages' examples are
# run by tests/test_docs.py and tests/test_api_hardening.py).
SITE_PAGES = ("index.md", "getting-started.md", "simulation.md", "benchmarks.md")
HAS_MKDOCS = all(
    importlib.util.find_spec(m) for m in ("mkdocs", "material", "mkdocstrings_handlers.python")
)
needs_mkdocs = pytest.mark.skipif(
    not HAS_MKDOCS, reason='mkdocs, mkdocs-material or mkdocstrings missing: pip install ".[docs]"'
)


def fences(text: str, lang: str) -> list[str]:
    """The bodies of the ```` ```lang ```` blocks of a Markdown text."""
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.M | re.S)


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def build(config: Path, site: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``config`` into ``site``, as CI runs it."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


# ---- the real site ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from the repository's mkdocs.yml (once for this module)."""
    out = tmp_path_factory.mktemp("site")
    run = build(CONFIG, out)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-5000:]
    return out


def html_text(path: Path) -> str:
    """A built page's text without tags (entities kept as they are)."""
    return re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))


@needs_mkdocs
def test_the_site_builds_strictly_with_every_page(site: Path):
    for md in DOCS.rglob("*.md"):
        rel = md.relative_to(DOCS)
        if rel == Path("README.md"):
            continue  # the repository's index of docs/; index.md is the site's home
        built = site / (rel.parent if rel.stem == "index" else rel.with_suffix("")) / "index.html"
        assert built.exists(), f"docs/{rel} is not on the site"
    assert "九莲宝灯" in (site / "getting-started" / "index.html").read_text(encoding="utf-8")


@needs_mkdocs
def test_the_api_pages_render_real_signatures(site: Path):
    game = html_text(site / "api" / "game" / "index.html")
    assert re.search(r"legal_actions\(seat: int\)\s*-&gt;\s*tuple\[Action, \.\.\.\]", game)
    assert "Every action seat may take now" in game  # the method's docstring
    assert ":class:" not in game and ":meth:" not in game  # roles shown as code (griffe_roles)
    hands = html_text(site / "api" / "hands" / "index.html")
    assert re.search(r"shanten: _Question\[int\]", hands)  # from mjcore/_core.pyi
    assert re.search(r"def hand_facts|hand_facts\(\s*counts", hands)
    for name, needle in {
        "variant": "new_game",
        "match": "Match",
        "scoring": "WinContext",
        "sim": "simulate(",
        "bots": "GreedyBot",
        "errors": "IllegalActionError",
        "batch": "mask_to_kinds",
    }.items():
        assert needle in html_text(site / "api" / name / "index.html"), name


def public_classes() -> list[str]:
    """The full path of every public class of every public module of mjcore, read statically
    from the sources (as mkdocstrings reads them): what the API reference must document."""
    import griffe

    package = griffe.load("mjcore", search_paths=[str(ROOT)], allow_inspection=False)
    found: list[str] = []

    def walk(module) -> None:
        for name, sub in module.modules.items():
            if name.startswith("_"):
                continue
            found.extend(
                member.path
                for cname, member in sub.members.items()
                if not member.is_alias and not cname.startswith("_") and member.is_class
            )
            walk(sub)

    walk(package)
    return found


@needs_mkdocs
def test_the_api_reference_documents_every_public_class(site: Path):
    """Every public class (the RL envs, schemas' types, replay, league, server …) has its entry
    (an anchor named by its full path) somewhere in the API reference."""
    anchors: set[str] = set()
    for html in (site / "api").rglob("index.html"):
        anchors |= set(re.findall(r'id="(mjcore\.[\w.]+)"', html.read_text(encoding="utf-8")))
    classes = public_classes()
    assert len(classes) > 100 and "mjcore.rl.gym.MjcoreGymEnv" in classes
    missing = sorted(c for c in classes if c not in anchors)
    assert not missing, f"public classes missing from docs/api: {missing}"


@needs_mkdocs
def test_rest_roles_become_code_spans():
    spec = importlib.util.spec_from_file_location("griffe_roles", DOCS / "api" / "griffe_roles.py")
    assert spec and spec.loader
    roles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(roles)
    text = "Raises :class:`~mjcore.errors.InvalidHandError`; see :meth:`Game.apply` and ``x``."
    assert roles.plain(text) == "Raises `InvalidHandError`; see `Game.apply` and ``x``."


# ---- strictness, proved on a small site with the real configuration --------------------------
GOOD_HOME = """# Home

See [the other page](other.md#a-section) and [`MjcoreError`][mjcore.errors.MjcoreError].

::: mjcore.errors.MjcoreError
"""
BROKEN = {
    "a link to a missing page": ("(other.md#a-section)", "(no-such-page.md)", "no-such-page.md"),
    "a missing anchor": ("(other.md#a-section)", "(other.md#no-such-section)", "no-such-section"),
    "a missing API object": ("::: mjcore.errors.MjcoreError", "::: mjcore.NoSuch", "NoSuch"),
    "a missing cross-reference": ("errors.MjcoreError]", "errors.NoSuchError]", "NoSuchError"),
}


def small_site(tmp_path: Path, home: str) -> Path:
    """A two-page site under ``tmp_path`` built with mkdocs.yml's theme, plugins and validation
    (its own nav and docs; mkdocstrings reading this repository's sources)."""
    import yaml

    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(home, encoding="utf-8")
    (docs / "other.md").write_text("# Other\n\n## A section\n\nText.\n", encoding="utf-8")
    config.update(docs_dir=str(docs), nav=["index.md", "other.md"], exclude_docs="")
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "mkdocstrings" in plugin:
            python = plugin["mkdocstrings"]["handlers"]["python"]
            python["paths"] = [str(ROOT)]
            exts = python["options"]["extensions"]
            python["options"]["extensions"] = [str(ROOT / e) for e in exts]
    path = tmp_path / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


@needs_mkdocs
def test_a_small_site_with_the_real_configuration_builds(tmp_path: Path):
    run = build(small_site(tmp_path, GOOD_HOME), tmp_path / "site", cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "MjcoreError" in html_text(tmp_path / "site" / "index.html")


@needs_mkdocs
@pytest.mark.parametrize("what", sorted(BROKEN))
def test_strict_build_fails_on(tmp_path: Path, what: str):
    old, new, named = BROKEN[what]
    assert old in GOOD_HOME
    run = build(small_site(tmp_path, GOOD_HOME.replace(old, new)), tmp_path / "site", cwd=tmp_path)
    assert run.returncode != 0, f"{what} did not fail the build"
    assert named in run.stderr, run.stderr[-3000:]


# ---- the examples of the site's pages ---------------------------------------------------------
@pytest.mark.parametrize("name", SITE_PAGES)
def test_python_examples_run_and_print_what_they_show(name: str):
    blocks = fences(page(name), "python")
    text = "\n".join(blocks)
    test = doctest.DocTestParser().get_doctest(text, {}, name, str(DOCS / name), 0)
    assert all(">>> " in b for b in blocks), f"{name}: a python block without doctest prompts"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_the_pages_have_examples():
    counts = {name: len(fences(page(name), "python|console|bash")) for name in SITE_PAGES}
    assert all(counts.values()), counts
    assert len(fences(page("getting-started.md"), "console")) >= 2


CONSOLE = re.compile(r"^\$ (mjcore .*)\n((?:[^$].*\n?)*)", re.M)


def console_examples() -> list[tuple[str, str, str]]:
    """(page, command, expected output) of each ``$ mjcore …`` console example."""
    return [
        (name, cmd, out)
        for name in SITE_PAGES
        for block in fences(page(name), "console")
        for cmd, out in CONSOLE.findall(block)
    ]


@pytest.mark.parametrize("name,cmd,expected", console_examples())
def test_console_examples_print_what_they_show(name: str, cmd: str, expected: str):
    result = CliRunner().invoke(main, shlex.split(cmd)[1:])
    assert result.exit_code == 0, result.output
    got = [line.rstrip() for line in result.output.strip().splitlines()]
    assert got == [line.rstrip() for line in expected.strip().splitlines()], f"{name}: {cmd}"


def shell_commands(name: str) -> list[list[str]]:
    """Each command of the ```` ```bash ```` blocks of a page (split at ``&&``, comments cut)."""
    out = []
    for block in fences(page(name), "bash"):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                out += [shlex.split(part) for part in line.split("&&")]
    return out


def check_mjcore_command(args: list[str], cwd: Path) -> None:
    """Parse ``mjcore ARGS`` as the CLI would, without running it: a missing command, an
    unknown option or a bad value raises. Files that ``replay`` reads are made empty in cwd."""
    command = main.commands[args[0]]
    if args[0] == "replay":
        (cwd / args[1]).touch()
    with command.make_context(args[0], args[1:]) as ctx:
        assert ctx.params, args


def test_shell_commands_name_what_exists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    seen = 0
    for name in SITE_PAGES:
        for cmd in shell_commands(name):
            if cmd[0] == "mjcore":
                check_mjcore_command(cmd[1:], tmp_path)
            elif cmd[0] in ("python", "bash", "pytest") and len(cmd) > 1:
                target = cmd[1].split("::")[0]
                assert (ROOT / target).exists(), f"{name}: {' '.join(cmd)}: no {target}"
            seen += 1
    assert seen >= 15


def test_a_bad_command_line_is_caught(tmp_path: Path):
    with pytest.raises(Exception, match="no_such_option|No such option"):
        check_mjcore_command(["simulate", "--no-such-option", "3"], tmp_path)
    with pytest.raises(KeyError):
        check_mjcore_command(["simulat", "-n", "3"], tmp_path)


# ---- what the site repeats from README --------------------------------------------------------
def test_the_home_page_gives_readmes_newcomer_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert fences(page("index.md"), "bash")[0] == fences(readme, "bash")[0]


def figures(text: str) -> str:
    """The benchmark figures table (from its header row to the end of the table)."""
    start = text.index("| what | throughput |")
    return text[start : text.index("\n\n", start)]


def test_the_benchmarks_page_gives_readmes_figures():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert figures(page("benchmarks.md")) == figures(readme)


def test_every_page_is_in_the_nav():
    """A page missing from mkdocs.yml's nav is built but hard to find (the strict build also
    fails on it; this says so without mkdocs installed)."""
    config = CONFIG.read_text(encoding="utf-8")
    nav = set(re.findall(r"^\s+- (?:[^:\n]+: )?([\w/.-]+\.md)$", config, re.M))
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")} - {"README.md"}
    assert pages - nav == set(), f"pages not in mkdocs.yml's nav: {sorted(pages - nav)}"
    assert nav - pages == set(), f"nav entries with no page: {sorted(nav - pages)}"


def test_the_built_site_stays_out_of_git():
    """``site/``, mkdocs' default output, is ignored by git (and excluded from the sdist)."""
    assert "site/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()
