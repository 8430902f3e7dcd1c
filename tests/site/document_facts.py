"""The documents' facts on the page where a reader looks for them, and
their numbers as they print them beside ours.

Each fact is one of ``docs/sources.md``'s (its number in the test's name and comment), in the
document's own figures and with the document named; the test finds it on the published page
(a real Voilà server and headless Chromium), in the notebook's text above the view: in each
dashboard's visit (``test_every_reader.py``, at a desktop's width), :func:`check_the_documents_facts`.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from elo_explain.i18n import gettext
from harness import TIMEOUT

FACTS = {
    "01_chess_calculator.ipynb": [
        # T1: Arpad Elo; the USCF adopted it in 1960, FIDE in 1970; FIDE still uses it
        ("T1", "The Telugu document opens with the history"),
        ("T1", "named after Arpad Elo"),
        ("T1", "United States Chess Federation adopted his rating system in 1960 and FIDE in 1970"),
        # T4 / U7: every 400 points multiply the odds by ten
        ("T4", "Every 400 points of difference multiply the odds by ten, as the Telugu document"),
        ("U7", "every 400 points of advantage make you about ten times as likely to score a point"),
        # U6: K is the most one game can move you; a higher K faster but more erratic
        ("U6", "K is the most rating points one game can move you"),
        ("U6", "a higher K makes your rating react faster, but more erratically"),
        # T11-T14, T16: the buttons' readers, and a K of one's own
        ("T16", "type any whole K from 1 to 100"),
        ("T11", "K 40: new and young players"),
        ("T13", "K 20: most players, below 2400"),
        ("T14", "K 10: 2400 and above"),
    ],
    "03_backgammon_divisor.ipynb": [
        # G1: dated 18 September 2026, the formula from 1.3.1 (October 2026)
        ("G1", "dated 18 September 2026, on the formula in force from version 1.3.1, October"),
        # G2 / G24: everyone starts at 1500
        ("G2", "Everyone starts at 1500"),
        # G3: only ranked games; Boosted (Casual before 1.3.0) and tournament games do not
        # count; podium prizes +50, +25, +15
        ("G3", "Only ranked games count: Boosted games (called Casual before"),
        ("G3", "games inside\na tournament do not change it either"),
        ("G3", "for example +50, +25 and +15"),
        # G23: no streaks, country, purchases or hidden balancing
        ("G23", "no winning streaks, no country, no\npurchases"),
        # G22: the Go listing itself
        ("G22", "const Divisor = 1200         // chess uses 400"),
        ("G22", "func CalculateChangeWithK(winnerELO, loserELO, winnerK, loserK int"),
        ("G22", "const Starting = 1500"),
        # numbers as printed, visible without moving a slider: G14 "85 %" beside
        # 27 / 32 = 84.4 %; G7 "about 60 %" at 200 points up beside 19 / 32 = 59.4 %
        ("G14", "27 / 32 = 84.4 %"),
        ("G14", 'had to win "85 %" of those games'),
        ("G7", "19 / 32 = 59.4 %"),
        ("G7", 'must win "about 60 %"'),
    ],
    "08_calibrate.ipynb": [
        # T5 / G13: 200 points up, ÷400: 76 %, as both documents print it
        ("G13", "expected to score 76 % (the Telugu document's 0.76, the Greek one's 76 %)"),
    ],
    "04_doubling_cube.ipynb": [
        # G21: resigning, leaving, disconnected too long, time out on 3 moves: a normal loss
        ("G21", "if you resign, leave, stay disconnected too long or run out\nof time on 3 moves"),
        ("G21", "rated as a normal loss, at the cube value of that moment"),
        ("G21", "as the Gammon42\narticle (the Greek document) says"),
    ],
}


VOLUME_K = "05_volume_k.ipynb"
"""05 shows G10 only at its defaults (300 games), and the English visit opens it from its
spec's link: :func:`check_g10_at_the_defaults` runs in its translated visits, which open it at
its defaults (from a bad link). In English: ``tests/models/test_dash_volume_k.py``."""


def check_g10_at_the_defaults(page, lang: str) -> None:
    """G10 on 05 open in ``page`` at its defaults, in ``lang``: at 300 games and K 32 (K 16),
    2 points short → 192 (96) and 3 → 288 (144) (32 × 300 × 2 % = 192), and the document's
    "about 200" beside them in the catalog's words for ``lang``."""
    swing = page.locator(".ee-swing").first
    expect(swing).to_contain_text("192", timeout=TIMEOUT)
    shown = _squash(swing.inner_text())
    assert re.search(r"2 → 192\D+\(96\), 3 → 288\D+\(144\)", shown), shown
    about = gettext("— the document's figure for them: “about 200”", lang=lang)
    assert about != "— the document's figure for them: “about 200”" and _squash(about) in shown


def _squash(text: str) -> str:
    return " ".join(text.split())


def check_the_documents_facts(page, notebook: str) -> None:
    """The facts of :data:`FACTS` for the dashboard open in ``page``, in its text."""
    app = page.locator("#rendered_cells, body").first
    expect(app).to_contain_text("Link to this view", timeout=TIMEOUT)
    shown = _squash(page.locator("body").inner_text())
    missing = [f"{fact}: {text!r}" for fact, text in FACTS[notebook] if _squash(text) not in shown]
    assert not missing, f"{notebook} does not show: " + "; ".join(missing)
