"""The browser table in real headless Chromium (system package) driven by Playwright.

A human plays one whole hand against three bots by clicking the page's buttons; the
page must show the hand, melds, every seat's discards, the wall count, the variant's
public state (青岛 混) and at the end the settlement with Chinese pattern names.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from server_support import Server, missing  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason=missing("the system Chromium", "chromium fonts-wqy-microhei")
)


def click_one(page) -> bool:
    """Click one legal action (hu first, then pass, then the last offered); False if none."""
    for selector in (
        "#actions button[data-kind=hu]:not([disabled])",
        "#actions button[data-kind=pass]:not([disabled])",
        "#actions button:not([disabled])",
        "#my-hand .tile.clickable",  # a discard: the hand's tile itself
    ):
        buttons = page.locator(selector)
        if buttons.count():
            buttons.last.click(timeout=5000)
            return True
    return False


def play_hand(page) -> tuple[int, bool]:
    """Click until the hand's settlement offers the next hand; (clicks, saw others' discards)."""
    clicks, deadline, saw_discards = 0, time.monotonic() + 90, False
    while time.monotonic() < deadline and clicks < 400:
        if page.locator("#next-hand").count():
            break
        if click_one(page):
            clicks += 1
        else:
            page.wait_for_timeout(30)
        saw_discards = saw_discards or page.locator(".seat:not(.me) .discards .tile").count() > 0
    assert page.locator("#next-hand").count() == 1, "the hand did not finish"
    return clicks, saw_discards


def check_settlement(page) -> None:
    """The settlement shows scores, and every win lists Chinese pattern names."""
    assert page.locator("#settlement .scores").count() == 1  # 得分 / Scores
    wins = page.locator("#settlement .win")
    for i in range(wins.count()):
        names = wins.nth(i).locator(".pattern").all_inner_texts()
        assert names and all(any("\u4e00" <= ch <= "\u9fff" for ch in n) for n in names)


@pytest.mark.parametrize("variant", ["qingdao", "xuezhan_kaxinwu", "lipu", "rongcheng", "susong"])
def test_play_a_whole_hand_in_the_browser(tmp_path, variant):
    server = Server(tmp_path / "browser.db").start()
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server.base + "/")
            page.select_option("#variant", variant)
            page.fill("#idle-timeout", "120")
            page.click("#create")
            page.wait_for_selector("#my-hand .tile", timeout=10_000)
            assert page.locator("#wall").inner_text().split()[0].isdigit()
            if variant == "qingdao":
                assert page.locator("#public [data-key=joker_kind] .tile").count() == 1
                assert page.locator("#indicators .tile").count() == 1
            clicks, saw_discards = 0, False
            for hand in range(4):  # seeds are random: a bot may win before the human acts much
                if hand:
                    page.click("#next-hand")
                    page.wait_for_selector("#next-hand", state="detached", timeout=10_000)
                played, seen = play_hand(page)
                clicks, saw_discards = clicks + played, saw_discards or seen
                check_settlement(page)
                if clicks > 3 and saw_discards:
                    break
            assert clicks > 3 and saw_discards
            shot = tmp_path / f"table-{variant}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
            keep = os.environ.get("MJCORE_SCREENSHOTS")
            if keep:
                shutil.copy(shot, Path(keep) / shot.name)
            browser.close()
    finally:
        server.stop()
