"""The browser table in both languages, at phone size, and the replay viewer (issue 23).

Real headless Chromium (the system package) driven by Playwright, against ``mjcore serve``:
no raw keys on the page, a 中文/English switch remembered across reloads, a phone layout
without horizontal overflow, the replay viewer stepping through a whole hand of every
variant (from a pasted or uploaded saved game, from a room's finished hand, and as the
self-contained file of ``mjcore replay FILE --html``). Also unit tests of build_replay.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import mjcore
from mjcore.replay import build_replay, record_to_saved

VARIANTS = ["xuezhan_kaxinwu", "lipu", "susong", "qingdao", "rongcheng"]
RAW = ["joker_kind", "joker_indicator", "pao=", "piao=", "pihu+", " 1 points", "undefined", "NaN"]
CJK = ("\u4e00", "\u9fff")


def has_cjk(text: str) -> bool:
    return any(CJK[0] <= ch <= CJK[1] for ch in text)


def random_game(variant: str, seed: int) -> mjcore.Game:
    """A whole hand of random legal actions (a win taken when offered, half the time)."""
    game = mjcore.get_variant(variant).new_game(seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        wins = [a for a in legal if str(a).startswith("hu")]
        game.apply(seat, wins[0] if wins and rng.random() < 0.5 else rng.choice(legal))
    return game


# ---- build_replay (no browser) -----------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_build_replay_steps_and_views(variant):
    game = random_game(variant, 11)
    saved = json.loads(game.to_json())
    bundle = build_replay(saved)
    assert bundle["variant"] == variant and bundle["players"] == game.n
    assert len(bundle["steps"]) == len(saved["history"]) + 1
    assert bundle["steps"][0]["action"] is None
    assert [s["action"] for s in bundle["steps"][1:]] == [
        {"seat": s, "action": a} for s, a in saved["history"]
    ]
    restored = mjcore.Game.from_json(game.to_json())
    last = bundle["steps"][-1]
    assert last["views"] == [restored.view(s) for s in range(game.n)]
    assert last["events"] == len(bundle["events"]) == len(restored.events)
    assert bundle["settlement"]["scores"] == list(restored.scores)
    for step in bundle["steps"][:-1]:  # before the end: nobody sees another seat's tiles
        for seat, view in enumerate(step["views"]):
            for other in view["seats"]:
                if other["seat"] != seat:
                    assert not {"hand", "drawn", "held_flowers"} & set(other), (step["index"], seat)
        opened = step["open_view"]
        assert all("hand" in s for s in opened["seats"]) and opened["legal_actions"] == []
        for s in range(game.n):
            assert opened["seats"][s]["hand"] == step["views"][s]["seats"][s]["hand"]
    for seat, events in enumerate(bundle["seat_events"]):
        assert events == restored.events_for(seat)
    assert {p["id"] for p in bundle["patterns"]} == {
        p.id for p in mjcore.get_variant(variant).patterns()
    }
    json.dumps(bundle)  # plain JSON


def test_build_replay_rejects_a_broken_saved_game():
    saved = json.loads(random_game("lipu", 3).to_json())
    with pytest.raises(mjcore.errors.InvalidStateError):
        build_replay(dict(saved, history=[[0, "discard 9z"]]))
    with pytest.raises(mjcore.errors.InvalidStateError):
        build_replay("not json")
    with pytest.raises(mjcore.errors.InvalidStateError):
        build_replay(dict(saved, history="x"))


# ---- the browser ------------------------------------------------------------------------------
pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from server_support import Server, env, missing  # noqa: E402
from server_support import switch_language as switch  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_CHROMIUM = missing("the system Chromium", "chromium fonts-wqy-microhei")
browser_only = pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("i18n") / "i18n.db").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.errors = errors
    yield pg
    context.close()
    assert not errors, errors


def shoot(page, tmp_path: Path, name: str) -> None:
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 5_000
    keep = os.environ.get("MJCORE_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)


def page_text(page) -> str:
    return page.locator("body").inner_text()


def check_words(page, lang: str) -> None:
    """No raw keys anywhere; labels in the chosen language."""
    text = page_text(page)
    for raw in RAW:
        assert raw not in text, f"raw {raw!r} on the page"
    assert page.evaluate("document.documentElement.lang") == lang
    labels = page.locator("[data-i18n]:visible").all_inner_texts()
    labels += page.locator(".seat .name:visible, #actions button, #settlement th").all_inner_texts()
    labels += page.locator("#phase, #wall, #step-label, .seat .choices").all_inner_texts()
    if lang == "en":
        chinese = [x for x in labels if has_cjk(x)]
        assert not chinese, f"Chinese labels in English mode: {chinese}"
    else:
        assert labels and all(
            has_cjk(x) for x in page.locator(".seat .name:visible").all_inner_texts()
        )
        assert has_cjk(text)


def click_one(page) -> bool:
    for selector in (
        "#actions button[data-kind=hu]:not([disabled])",
        "#actions button[data-kind=pass]:not([disabled])",
        "#actions button:not([disabled])",
        "#my-hand .tile.clickable",  # a discard: the hand's tile itself
    ):
        buttons = page.locator(selector)
        if buttons.count():
            try:
                buttons.last.click(timeout=2000)
            except sync_api.Error:
                return False
            return True
    return False


def play(page, clicks: int, deadline_s: float = 40) -> int:
    """Click up to ``clicks`` actions, stopping when the hand is over; how many were clicked."""
    done, deadline = 0, time.monotonic() + deadline_s
    while done < clicks and time.monotonic() < deadline:
        if page.locator("#next-hand").count():
            break
        if click_one(page):
            done += 1
        else:
            page.wait_for_timeout(30)
    return done


def phone_checks(page, max_height: int) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"horizontal overflow: {width}px"
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"phone page: {width}x{height}px")
    assert height <= max_height, f"page {height}px tall"
    widths = page.evaluate(
        """[...document.querySelectorAll(
             '.seat:not(.me) .discards .tile, .seat:not(.me) .melds .tile')]
           .map((e) => e.getBoundingClientRect().width)"""
    )
    assert all(w >= 16 for w in widths), f"side seats' tiles too small: {min(widths)}px"
    font = page.evaluate(
        """Math.min(...[...document.querySelectorAll('.seat .discards .tile')]
           .map((e) => parseFloat(getComputedStyle(e).fontSize)), 99)"""
    )
    assert font >= 10


@browser_only
@pytest.mark.parametrize("variant", ["xuezhan_kaxinwu", "qingdao"])
def test_table_in_both_languages_and_on_a_phone(server, page, tmp_path, variant):
    page.goto(server.base + "/")
    switch(page, "zh")
    page.select_option("#variant", variant)
    page.fill("#idle-timeout", "120")
    page.click("#create")
    page.wait_for_selector("#my-hand .tile", timeout=10_000)
    for lang in ("zh", "en"):
        switch(page, lang)
        check_words(page, lang)
        shoot(page, tmp_path, f"{variant}-start-{lang}")
    page.reload()  # the choice is remembered
    page.wait_for_selector("#my-hand .tile", timeout=10_000)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("#lang").inner_text() == "中文"
    for _ in range(6):  # a few moves in, the hand still going (a bot may win early)
        play(page, 4)
        over = page.get_attribute("#phase", "data-phase") == "over"
        if not page.locator("#next-hand").count() and not over:
            break
        page.click("#next-hand")
        page.wait_for_selector("#next-hand", state="detached", timeout=10_000)
    assert page.locator(".seat:not(.me) .discards .tile").count() >= 3
    for lang in ("en", "zh"):
        switch(page, lang)
        check_words(page, lang)
        shoot(page, tmp_path, f"{variant}-mid-{lang}")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(50)
    for lang in ("zh", "en"):
        switch(page, lang)
        # The wall is random: 血战 mid-hand may show winners' open hands and long rivers
        # (1,522-1,707 px seen, English the taller); a layout blow-up (a tile a line, a seat
        # a screen) runs to several thousand px, as the finished hand's 2,600 bound allows.
        phone_checks(page, 2000)
        shoot(page, tmp_path, f"{variant}-phone-mid-{lang}")
    for _ in range(4):  # seeds are random: finish the hand
        play(page, 400, 60)
        if page.locator("#next-hand").count():
            break
    assert page.locator("#next-hand").count() == 1, "the hand did not finish"
    for lang in ("zh", "en"):
        switch(page, lang)
        check_words(page, lang)
        phone_checks(page, 2600)
        shoot(page, tmp_path, f"{variant}-phone-end-{lang}")
        pays = page.locator("#settlement td.reason").all_inner_texts()
        assert all("+" not in r or " + " in r for r in pays)
    page.set_viewport_size({"width": 1280, "height": 900})
    shoot(page, tmp_path, f"{variant}-end-en")
    # the finished hand in the replay viewer (this browser holds the seat token)
    page.click("#replay-link")
    page.wait_for_selector("#step-label", timeout=10_000)
    page.wait_for_selector("body[data-step='0']", state="attached", timeout=10_000)
    page.keyboard.press("End")
    assert page.locator("#settlement .scores").count() == 1
    check_words(page, "en")
    shoot(page, tmp_path, f"{variant}-room-replay-end-en")


@browser_only
def test_variants_api_has_patterns_and_saved_hands_need_a_token(server):
    variants = server.get("/api/variants")
    for v in variants:
        assert v["patterns"] and all(has_cjk(p["name"]) for p in v["patterns"])
        assert {"id", "name", "value", "kind"} <= set(v["patterns"][0])
        assert {"name", "title", "options", "min_players", "max_players"} <= set(v)
    room = server.room(variant="lipu", seats=["human", "greedy", "greedy", "greedy"])
    token = server.join(room, 0)

    def get(path, tok=None):
        req = urllib.request.Request(server.base + path)
        if tok:
            req.add_header("Authorization", f"Bearer {tok}")
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    assert get(f"/api/rooms/{room}/hands/0")[0] == 403
    assert get(f"/api/rooms/{room}/hands/0", "wrong")[0] == 403
    assert get(f"/api/rooms/{room}/hands/0", token)[0] == 409  # not over yet
    assert get(f"/api/rooms/{room}/hands/7", token)[0] == 404
    assert get("/api/rooms/nosuchroom/hands/0", token)[0] == 404
    status, bundle = server.post("/api/replay", json.loads(random_game("lipu", 5).to_json()))
    assert status == 200 and bundle["variant"] == "lipu"
    status, error = server.post("/api/replay", {"format": 2})
    assert status == 400 and "error" in error


def step_through(page, saved_history: int, players: int) -> None:
    """Every step forward by arrow key / button, back once, as each seat and all open."""
    label = page.locator("#step-label")
    page.wait_for_selector("body[data-step='0']", state="attached", timeout=10_000)
    assert f"{saved_history}" in label.inner_text()
    assert page.locator(".seat .shown-hand").count() == players  # all hands open
    page.select_option("#view-as", "1")
    assert page.locator(".seat .shown-hand").count() == 0  # seat 1 sees its own hand only
    assert page.locator("#my-hand .tile").count() >= 13
    page.select_option("#view-as", "open")
    page.locator("#board").click()  # focus off the select: arrows step
    for i in range(1, saved_history + 1):
        if i % 2:
            page.keyboard.press("ArrowRight")
        else:
            page.click("#next")
        assert page.evaluate("document.body.dataset.step") == str(i)
        if i == saved_history // 2:
            check_words(page, page.evaluate("document.documentElement.lang"))
    assert page.locator("#next").is_disabled()
    assert page.locator("#settlement .scores").count() == 1
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.body.dataset.step") == str(saved_history - 1)
    page.keyboard.press("End")
    assert page.evaluate("document.body.dataset.step") == str(saved_history)


@browser_only
@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_page_steps_through_a_saved_game(server, page, tmp_path, variant):
    game = random_game(variant, 21)
    saved = game.to_json()
    page.goto(server.base + "/replay")
    lang = "en" if variant in ("lipu", "qingdao") else "zh"
    switch(page, lang)
    if variant == "susong":  # upload a file
        path = tmp_path / "saved.json"
        path.write_text(saved)
        page.set_input_files("#saved-file", str(path))
    else:  # paste
        page.fill("#saved-json", saved)
        page.click("#load")
    step_through(page, len(game.history), game.n)
    check_words(page, lang)
    shoot(page, tmp_path, f"replay-{variant}-end-{lang}")
    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    phone_checks(page, 1700)
    shoot(page, tmp_path, f"replay-{variant}-phone-{lang}")


@browser_only
@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_html_file_from_a_parquet_record(browser, tmp_path, variant):
    pytest.importorskip("pyarrow")
    from mjcore.sim.records import read_hand

    record = tmp_path / "hands.parquet"
    run = [sys.executable, "-m", "mjcore.cli"]
    kw = {"env": env(), "cwd": str(tmp_path), "capture_output": True, "text": True}
    res = subprocess.run([*run, "simulate", "-v", variant, "-n", "2", "-s", "5",
                          "--out", str(record)], **kw)  # fmt: skip
    assert res.returncode == 0, res.stderr
    html = tmp_path / "replay.html"
    res = subprocess.run([*run, "replay", str(record), "--hand", "1", "--html", str(html)], **kw)
    assert res.returncode == 0, res.stderr
    row = read_hand(record, 1)
    text = html.read_text()
    assert "/static/" not in text and "MJCORE_BUNDLE" in text  # self-contained
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(html.as_uri())
    assert page.locator("#loader").is_hidden()
    step_through(page, len(row["actions"]), row["players"])
    scores = page.locator("#settlement .scores").inner_text()
    assert all((f"{s:+d}" if s else "0") in scores for s in row["scores"])
    bundle = build_replay(record_to_saved(row))
    assert bundle["settlement"]["scores"] == row["scores"]
    switch(page, "en")
    check_words(page, "en")
    shoot(page, tmp_path, f"replay-html-{variant}-end-en")
    context.close()
    assert not errors, errors
