"""A table people want to sit at (issue 37), in real headless Chromium (the system package) driven
by Playwright against ``mjcore serve``:

- tile faces are SVG drawn by tiles.js (one symbol per kind, nothing pasted), readable on a phone;
  the other seats' concealed hands lie face down with their count; 混 and 宝 are marked on the tile;
- a player's chosen display name is validated by the server, shown as text (never markup) at the
  table and in the replay;
- the English table names patterns in English; the 中文 lobby words every option and value;
- the settlement never prints a bare ``1 = 1``; a favicon, and no 404 on any page;
- ``#room=ID`` opens a room from an open lobby tab; every agent the server allows is offered.

With ``MJCORE_SCREENSHOTS=DIR`` the screenshots of the new table (both languages, desktop and
phone: a start, a mid-hand with claims, a settlement, a replay) are kept in DIR.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import time
from pathlib import Path

import pytest

import mjcore
from mjcore.server.security import MAX_NAME, InvalidNameError, check_display_name


# ---- display names (no browser) -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "shown"),
    [("Alice", "Alice"), ("  东家 ", "东家"), ("e\u0301", "é"), ("", ""), ("<b>x</b>", "<b>x</b>")],
)
def test_check_display_name_keeps_what_people_can_read(raw, shown):
    assert check_display_name(raw) == shown


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("a" * (MAX_NAME + 1), "longer than"),
        ("bell\x07", "unprintable"),
        ("line\nbreak", "unprintable"),
        ("\u200b\u200b", "unprintable"),  # zero-width spaces only
        ("ab\u202ecd", "unprintable"),  # a right-to-left override
        ("\u0301\u0302", "no visible"),  # combining marks only
        ("   ", "no visible"),  # spaces only
        (7, "string"),
    ],
)
def test_check_display_name_refuses_what_hides_or_breaks_the_table(raw, why):
    with pytest.raises(InvalidNameError, match=why):
        check_display_name(raw)
    assert issubclass(InvalidNameError, ValueError)


# ---- the browser --------------------------------------------------------------------------------
pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from server_support import Server, missing  # noqa: E402
from server_support import switch_language as switch  # noqa: E402


def wait_js(page, expression: str, timeout: float = 5_000) -> None:
    """Wait until ``expression`` is true in the page, polled with ``page.evaluate``: the
    table's CSP refuses string evaluation (``unsafe-eval``), which ``wait_for_function`` uses."""
    end = time.monotonic() + timeout / 1000
    while True:
        try:
            if page.evaluate(expression):
                return
            problem = ""
        except sync_api.Error as exc:  # mid-navigation: no document.body, or no context yet
            problem = f" (last: {exc.message.splitlines()[0]})"
        assert time.monotonic() < end, f"timed out waiting for {expression}{problem}"
        page.wait_for_timeout(50)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason=missing("the system Chromium", "chromium fonts-wqy-microhei")
)
CJK = re.compile(r"[\u3400-\u9fff]")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("table37") / "table.db").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=DESKTOP)
    pg = context.new_page()
    pg.errors = []
    pg.missing = []
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))
    pg.on("response", lambda r: pg.missing.append(r.url) if r.status == 404 else None)
    yield pg
    context.close()
    assert not pg.errors, pg.errors
    assert not pg.missing, f"404s: {pg.missing}"


def shoot(page, tmp_path: Path, name: str) -> Path:
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    keep = os.environ.get("MJCORE_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
    return shot


def create(page, variant: str, name: str = "", seats: list[str] | None = None) -> str:
    page.goto(page.base + "/")
    page.wait_for_selector("#seats select", state="attached")  # the lobby is ready
    if name:
        page.fill("#player-name", name)
    page.select_option("#variant", variant)
    page.fill("#idle-timeout", "600")
    for seat, kind in enumerate(seats or []):
        page.select_option(f"[data-seat='{seat}']", kind)
    page.click("#create")
    page.wait_for_selector("#my-hand .tile", timeout=15_000)
    return page.locator("#room-id").inner_text()


# A move of the human seat, in order of preference: a win, else a discard (the first tile),
# else pass, else the last button.
MOVES = (
    "#actions button[data-kind=hu]:not([disabled])",
    "#my-hand .tile.clickable",
    "#actions button[data-kind=pass]:not([disabled])",
    "#actions button:not([disabled])",
)


def step(page) -> str:
    """One move of the human seat (:data:`MOVES`); '' when there was nothing to do."""
    for selector in MOVES:
        found = page.locator(selector)
        if found.count():
            try:
                (found.first if "tile" in selector else found.last).click(timeout=2000)
            except sync_api.Error:
                return ""
            return selector
    return ""


def finish_hand(page, deadline_s: float = 90) -> None:
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline and not page.locator("#next-hand").count():
        if not step(page):
            page.wait_for_timeout(30)
    assert page.locator("#next-hand").count() == 1, "the hand did not finish"


def next_hand(page) -> None:
    page.click("#next-hand")
    page.wait_for_selector("#next-hand", state="detached", timeout=10_000)
    page.wait_for_selector("#my-hand .tile", timeout=10_000)


def no_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"horizontal overflow: {width}px"


def widths(page, selector: str) -> list[float]:
    return page.evaluate(
        f"[...document.querySelectorAll({selector!r})].map((e) => e.getBoundingClientRect().width)"
    )


# ---- 1. tile faces -------------------------------------------------------------------------------
def test_tile_faces_are_svg_drawn_by_code_and_readable_on_a_phone(server, page, tmp_path):
    page.base = server.base
    create(page, "qingdao", "Alice")
    sprite = page.evaluate(
        """[...document.querySelectorAll('#mj-tile-sprite symbol')]
             .map((x) => [x.id, x.childElementCount])"""
    )
    ids = {i for i, _ in sprite}
    kinds = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    assert {f"mj-{k}" for k in kinds} | {"mj-back"} <= ids
    assert {f"mj-en-{n}m" for n in range(1, 10)} <= ids
    # CSP-ready: nothing styled inline (the server's policy may forbid inline styles)
    assert page.evaluate("document.querySelectorAll('[style]').length") == 0
    assert all(n >= 1 for _, n in sprite), "a symbol draws nothing"
    assert page.locator("img").count() == 0  # no pasted pictures
    # distinct faces: the symbols' drawings differ (nine dots are not eight dots)
    faces = page.evaluate(
        "[...document.querySelectorAll('#mj-tile-sprite symbol')].map((s) => s.innerHTML)"
    )
    assert len(set(faces)) == len(faces)
    # every tile of my hand is that face: <svg><use href="#mj-5p">, named for screen readers
    hand = page.evaluate(
        """[...document.querySelectorAll('#my-hand .tile')].map((t) =>
             [t.dataset.tile, t.querySelector('svg use').getAttribute('href'),
              t.getAttribute('aria-label')])"""
    )
    assert len(hand) >= 13
    assert all(href == f"#mj-{tile}" and label for tile, href, label in hand)
    # the other seats' concealed hands: face down, as many as they hold, with the count
    for seat in page.locator(".seat:not(.me)").all():
        backs = seat.locator(".concealed .tile.back").count()
        count = seat.locator(".concealed .count").inner_text()
        head = seat.locator(".name .count").inner_text()
        assert backs >= 13 and count == f"×{backs}" and str(backs) in head
        assert seat.locator(".concealed .tile[data-tile]").count() == 0  # nothing leaks
    # 混: the joker kind is marked on the tile, wherever it shows
    joker = page.locator("#public [data-key=joker_kind] .tile")
    assert joker.locator(".wild").inner_text() == "混"
    kind = joker.get_attribute("data-tile")
    marked = page.locator(f".tile[data-tile='{kind}']")
    assert marked.count() == page.locator(f".tile[data-tile='{kind}'] .wild").count() >= 1
    switch(page, "en")
    assert joker.locator(".wild").inner_text() == "J"
    # English readers get the characters' numerals and the honours' letters
    honors = page.locator("#my-hand .tile.z")
    assert page.locator("#my-hand .tile.z .idx").count() == honors.count()
    for tile in page.locator("#my-hand .tile.m").all():
        href = tile.locator("svg use").get_attribute("href")
        assert href == f"#mj-en-{tile.get_attribute('data-tile')}"
    switch(page, "zh")
    # a phone: the whole hand fits, each tile wide enough to read
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(50)
    no_overflow(page)
    hand_widths = widths(page, "#my-hand .tile")
    assert min(hand_widths) >= 22, hand_widths
    tops = page.evaluate(
        "[...document.querySelectorAll('#my-hand .tile')].map((e) => e.getBoundingClientRect().top)"
    )
    assert max(tops) - min(tops) < 80, "the hand wraps into more than two rows"
    assert min(widths(page, ".seat .backs .tile")) >= 10
    shoot(page, tmp_path, "tiles-phone-zh")


def test_bao_is_marked_on_the_tile_in_a_replay(server, page, tmp_path):
    """荣成: once a declared seat turns the 宝 over, the tile shows 宝 (replay of a real game)."""
    game, rng = mjcore.get_variant("rongcheng").new_game(seed=4), random.Random(4)
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        declares = [a for a in legal if str(a).startswith("declare")]
        game.apply(seat, declares[0] if declares else rng.choice(legal))
    page.base = server.base
    page.goto(server.base + "/replay")
    switch(page, "zh")
    page.fill("#saved-json", game.to_json())
    page.click("#load")
    wait_js(page, "document.body.dataset.step === '0'", timeout=10_000)
    page.locator("#board").click()
    shown = False
    for _ in range(len(game.history)):
        page.keyboard.press("ArrowRight")
        bao = page.locator("#public [data-key=bao] .tile")
        if bao.count():
            assert bao.locator(".wild").inner_text() == "宝"
            assert bao.get_attribute("data-tile")
            shown = True
            break
    assert shown, "the 宝 never showed"
    shoot(page, tmp_path, "replay-bao-zh")


# ---- 2. display names ----------------------------------------------------------------------------
def test_a_chosen_name_is_checked_escaped_and_shown_at_the_table_and_in_the_replay(
    server, page, tmp_path
):
    page.base = server.base
    page.goto(server.base + "/")
    page.wait_for_selector("#seats select", state="attached")  # the lobby is ready
    page.fill("#player-name", "\u200b\u200b")  # nothing visible: the server says no
    page.click("#create")
    wait_js(page, "document.querySelector('#lobby-error').textContent.length > 0")
    assert "U+200B" in page.locator("#lobby-error").inner_text()  # the rule's own words
    assert page.locator("#table").is_hidden()
    name = "<img src=x onerror=f()>&"  # 24 characters: the most a name may have
    assert len(name) == MAX_NAME
    room = create(page, "xuezhan_kaxinwu", name)
    me = page.locator(".seat.me .player")
    assert me.inner_text() == name  # as text …
    assert page.locator(".seat img, #board img").count() == 0  # … never as markup
    assert server.get(f"/api/rooms/{room}")["seats"][0]["name"] == name
    status, error = server.post(f"/api/rooms/{room}/join", {"name": "x\x00y"})
    assert status == 400 and "unprintable" in error["error"]
    finish_hand(page)
    page.click("#replay-link")
    wait_js(page, "document.body.dataset.step === '0'", timeout=10_000)
    assert name in page.locator("#view-as option[value='0']").inner_text()
    page.keyboard.press("End")
    assert page.locator(".seat[data-seat='0'] .player").inner_text() == name
    assert page.locator(".seat img").count() == 0


# ---- 3. English pattern names in the English table -----------------------------------------------
def trivial_win_game() -> mjcore.Game:
    """A 青岛 hand won as a plain 屁胡 (its formula '1 = 1')."""
    for seed in range(500):
        game, rng = mjcore.get_variant("qingdao").new_game(seed=seed), random.Random(seed)
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            wins = [a for a in legal if str(a) == "hu"]
            game.apply(seat, wins[0] if wins else rng.choice(legal))
        formulas = [e["formula"] for e in game.events if e["type"] == "hu"]
        if formulas and re.fullmatch(r"(\d+) = \1", formulas[0]):
            return game
    raise AssertionError("no plain win in 500 seeds")


def assert_no_bare_formula(page) -> None:
    """No "1 = 1" in the settlement: a formula never ends by saying a plain number equals
    itself ("小胡 1 = 1"); one with arithmetic ("1 × 1 = 1") is a real calculation."""
    for text in page.locator("#settlement .formula").all_inner_texts():
        assert not re.search(r"(?:^|: |[^\s×+*^)/-] )(\d+) = \1$", text), text
    assert not re.search(r"(?m)^\s*(\d+) = \1\s*$", page.locator("#settlement").inner_text())


def test_the_settlement_names_patterns_in_english_and_never_prints_1_eq_1(server, page, tmp_path):
    game = trivial_win_game()
    v = mjcore.get_variant("qingdao")
    page.base = server.base
    page.goto(server.base + "/replay")
    switch(page, "en")
    page.fill("#saved-json", game.to_json())
    page.click("#load")
    wait_js(page, "document.body.dataset.step === '0'", timeout=10_000)
    page.locator("#board").click()
    page.keyboard.press("End")
    box = page.locator("#settlement")
    assert_no_bare_formula(page)
    assert box.locator(".formula").count() == 0  # "1 = 1" says nothing: no formula line
    won = [p for e in game.events if e["type"] == "hu" for p in e["patterns"]]
    names = box.locator(".pattern .pname").all_inner_texts()
    assert names == [v.pattern(p["id"]).english for p in won]
    assert not any(CJK.search(n) for n in names)
    assert all(re.search(r"\d", x) for x in box.locator(".pattern .pvalue").all_inner_texts())
    assert not CJK.search(" ".join(box.locator("td.reason").all_inner_texts()))
    switch(page, "zh")
    assert box.locator(".pattern .pname").all_inner_texts() == [p["name"] for p in won]
    assert_no_bare_formula(page)


# ---- 4. lobby, favicon, #room=, agents -----------------------------------------------------------
def test_the_chinese_lobby_words_every_option_and_value(server, page, tmp_path):
    page.base = server.base
    page.goto(server.base + "/")
    for lang in ("zh", "en"):
        switch(page, lang)
        page.select_option("#variant", "xuezhan_kaxinwu")
        page.fill("#player-name", "小明" if lang == "zh" else "Alice")
        shoot(page, tmp_path, f"lobby-desktop-{lang}")
        page.set_viewport_size(PHONE)
        no_overflow(page)
        shoot(page, tmp_path, f"lobby-phone-{lang}")
        page.set_viewport_size(DESKTOP)
        for v in server.get("/api/variants"):
            page.select_option("#variant", v["name"])
            labels = page.locator("#options label .opt-name").all_inner_texts()
            assert len(labels) == len(v["options"]), v["name"]
            values = page.locator("#options select option").all_inner_texts()
            seats = page.locator("#seats select option").all_inner_texts()
            words = labels + values + seats
            if lang == "zh":
                english = [w for w in words if re.search(r"[A-Za-z]{3}", w) and not CJK.search(w)]
                assert not english, f"{v['name']}: untranslated {english}"
            else:
                chinese = [w for w in words if CJK.search(w)]
                assert not chinese, f"{v['name']}: Chinese in English: {chinese}"
                assert not [w for w in labels if "_" in w]
    switch(page, "zh")
    page.select_option("#variant", "xuezhan_kaxinwu")
    text = page.locator("#options").inner_text()
    for raw in ("kaxinwu single wait only", "flat", "compound"):
        assert raw not in text


def test_a_favicon_and_no_404_on_any_page(server, page, tmp_path):
    import urllib.request

    for path in ("/favicon.ico", "/favicon.svg"):
        with urllib.request.urlopen(server.base + path, timeout=10) as resp:
            body = resp.read().decode()
            assert resp.status == 200 and resp.headers["Content-Type"].startswith("image/svg+xml")
            assert body.startswith("<svg") and "</svg>" in body
    page.base = server.base
    for path in ("/", "/replay"):
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        icon = page.get_attribute("link[rel=icon]", "href")
        assert icon == "/favicon.svg"
    create(page, "lipu")
    page.wait_for_load_state("networkidle")
    # the self-contained replay file carries its icon inline: nothing to fetch, nothing missing
    from mjcore.replay import build_replay, replay_html

    game = mjcore.get_variant("lipu").new_game(seed=2)
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    html = tmp_path / "replay.html"
    html.write_text(replay_html(build_replay(game.to_json())))
    page.goto(html.as_uri())
    assert page.get_attribute("link[rel=icon]", "href").startswith("data:image/svg+xml,")
    assert page.locator("#step-label").inner_text()
    # (the page fixture asserts no 404 and no page error on every page above)


def test_room_links_open_from_an_open_lobby_tab(server, page):
    page.base = server.base
    first = create(page, "lipu", "Ann")
    page.evaluate("location.hash = ''")  # back to the lobby, the tab stays open
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.locator("#table").is_hidden()
    # a room this browser holds a seat of: the link opens its table
    room = server.room(variant="susong", seats=["human", "greedy", "greedy", "greedy"])
    status, joined = server.post(f"/api/rooms/{room}/join", {"seat": 0, "name": "Ann"})
    assert status == 200
    session = json.dumps({"room": room, "seat": 0, "token": joined["token"]})
    page.evaluate(f"localStorage.setItem('mjcore:{room}', {json.dumps(session)})")
    page.evaluate(f"location.hash = 'room={room}'")
    wait_js(page, f"document.querySelector('#room-id').textContent === '{room}'")
    # nothing of the room left stays on the table while the next one's view is on its way
    assert page.locator("#variant-title").inner_text() in ("", "宿松麻将")
    wait_js(page, "document.querySelector('#variant-title').textContent === '宿松麻将'")
    page.wait_for_selector("#my-hand .tile", timeout=10_000)
    # back to the first room by its link, without reloading
    page.evaluate(f"location.hash = 'room={first}'")
    wait_js(page, f"document.querySelector('#room-id').textContent === '{first}'")
    wait_js(page, "document.querySelector('#variant-title').textContent === '荔浦麻将'")
    # a room this browser has no seat in: the join form, filled in
    other = server.room(variant="qingdao", seats=["human", "greedy", "greedy", "greedy"])
    page.evaluate(f"location.hash = 'room={other}'")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.input_value("#join-room") == other
    page.click("#join")
    wait_js(page, f"document.querySelector('#room-id').textContent === '{other}'")
    page.wait_for_selector("#my-hand .tile", timeout=10_000)
    assert server.get(f"/api/rooms/{other}")["seats"][0]["name"] == "Ann"


def test_every_agent_the_server_allows_is_offered_for_bot_seats(server, page):
    allowed = server.get("/api/bots")
    assert allowed["default"] in allowed["names"]
    from mjcore.bots import BOTS

    assert allowed["names"] == list(BOTS)
    page.base = server.base
    page.goto(server.base + "/")
    for lang in ("zh", "en"):
        switch(page, lang)
        for seat in page.locator("#seats select").all():
            offered = [o.get_attribute("value") for o in seat.locator("option").all()]
            assert offered == ["human", *allowed["names"]]
            assert all(t.strip() for t in seat.locator("option").all_inner_texts())
    room = create(page, "xuezhan_kaxinwu", "Mo", ["human", "mc", "random", "greedy"])
    kinds = [s["kind"] for s in server.get(f"/api/rooms/{room}")["seats"]]
    assert kinds == ["human", "mc", "random", "greedy"]
    switch(page, "zh")
    assert page.locator(".seat[data-seat='1'] .player").inner_text() == "搜索机器人"
    switch(page, "en")
    assert page.locator(".seat[data-seat='1'] .player").inner_text() == "search bot"


# ---- the screenshots: both languages, desktop and phone ------------------------------------------
# One step of play_to_a_claim, looked at and taken in one turn of the page's event loop: no
# state can arrive between seeing that no chi/peng/gang is offered and clicking (a pass
# clicked from Python could answer an offer that arrived after the look).
_STEP_TO_A_CLAIM = """(moves) => {
  const claim = "#actions button:is([data-kind=chi],[data-kind=peng],[data-kind=gang])";
  if (document.querySelector(claim + ":not([disabled])") &&
      document.querySelector("#claim .claim-tile")) return "claim";
  for (const s of moves) {
    const found = document.querySelectorAll(s);
    if (!found.length) continue;
    (s.includes("tile") ? found[0] : found[found.length - 1]).click();
    return s;
  }
  return "";
}"""


def play_to_a_claim(page, hands: int = 6) -> bool:
    """Play as :func:`step` does until this seat is offered a chi/peng/gang of another
    seat's discard (True), or ``hands`` hands ended without one."""
    for hand in range(hands):
        if hand:
            next_hand(page)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not page.locator("#next-hand").count():
            done = page.evaluate(_STEP_TO_A_CLAIM, list(MOVES))
            if done == "claim":
                return True
            if not done:
                page.wait_for_timeout(30)
    return False


@pytest.mark.parametrize("variant", ["qingdao", "susong"])
def test_screens_of_the_new_table(server, page, tmp_path, variant):
    page.base = server.base
    create(page, variant, "Alice" if variant == "qingdao" else "小明")
    for lang in ("zh", "en"):
        switch(page, lang)
        shoot(page, tmp_path, f"{variant}-1-start-desktop-{lang}")
        page.set_viewport_size(PHONE)
        no_overflow(page)
        shoot(page, tmp_path, f"{variant}-1-start-phone-{lang}")
        page.set_viewport_size(DESKTOP)
    assert play_to_a_claim(page), "no claim offered in six hands"
    for lang in ("zh", "en"):
        switch(page, lang)
        assert page.locator("#claim .claim-tile .tile").count() == 1
        shoot(page, tmp_path, f"{variant}-2-claim-desktop-{lang}")
        page.set_viewport_size(PHONE)
        no_overflow(page)
        shoot(page, tmp_path, f"{variant}-2-claim-phone-{lang}")
        page.set_viewport_size(DESKTOP)
    finish_hand(page)
    for lang in ("zh", "en"):
        switch(page, lang)
        assert_no_bare_formula(page)
        shoot(page, tmp_path, f"{variant}-3-settlement-desktop-{lang}")
        page.set_viewport_size(PHONE)
        no_overflow(page)
        shoot(page, tmp_path, f"{variant}-3-settlement-phone-{lang}")
        page.set_viewport_size(DESKTOP)
    page.click("#replay-link")
    wait_js(page, "document.body.dataset.step === '0'", timeout=10_000)
    page.locator("#board").click()
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    for lang in ("zh", "en"):
        switch(page, lang)
        shoot(page, tmp_path, f"{variant}-4-replay-desktop-{lang}")
        page.set_viewport_size(PHONE)
        no_overflow(page)
        shoot(page, tmp_path, f"{variant}-4-replay-phone-{lang}")
        page.set_viewport_size(DESKTOP)
