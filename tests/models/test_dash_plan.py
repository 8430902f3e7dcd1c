"""Dashboard 11, "What do I need?": model, view and notebook.

Numbers worked by hand from the rules (docs/sources.md: FIDE B.02, the Telugu and Greek
documents; the same sources as
tests/rules/test_plan_rules.py):
  [EVEN] 9 games at even ratings, K 20 (table 8.1.2: 0-3 -> .50): 7 / 9 gives 20 × 2.5 =
         +50 (1850), 6½ gives +40 (1840); every game won: +90 (1890).
  [DIFF] 1500 against 1000, K 20, 10 games, to 1507: table .92 -> 10 / 10 (1516), 9½ gives
         1506; the ÷400 formula (0.90909) -> 9½ (1508).
  [G42]  1500 against 1500 with 49 ranked games this week, to 1530: +16 (K 32), +8, +8 (K 16).
         300 up, K 32: +12 / −20, hold 62.5 %, at 70 % +2.4 a game.
  [SEAS] 1800 with 80 games (K 20): period 1 vs 1750 win, 1820 draw, 1900 loss: PD .57, .45,
         .37 -> ΔR .43 + .05 − .37 = .11 -> 20 × .11 = 2.2 -> +2 (1802).
"""

from __future__ import annotations

import contextlib
import io
import re
import urllib.parse

import pytest

from elo_explain import translate
from elo_explain.dashboards.plan import PlanModel, PlanView
from elo_explain.i18n import set_language, speaking
from tests.models.shown import shown_text

DIFF = list(PlanModel.presets)[0]
G42 = list(PlanModel.presets)[1]


def view(query: str = "", **traits) -> PlanView:
    return PlanView(PlanModel(**traits), query=query)


def text(w) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", w.value))


def test_the_least_score_at_even_ratings():
    m = PlanModel()
    row = m.fide_table().rows[0]  # [EVEN]
    assert row[1:6] == (7.0, 1850.0, 6.5, 1840.0, 1890.0)
    assert str(m.fide_answer()) == "You need 7 / 9 (rating 1850); 6.5 gives 1840."


def test_the_table_and_the_formula_side_by_side():
    m = PlanModel(**PlanModel.presets[DIFF])
    table, formula = m.fide_table().rows  # [DIFF]
    assert table[1:5] == (10.0, 1516.0, 9.5, 1506.0)
    assert formula[1:3] == (9.5, 1508.0)
    assert "The ÷400 formula would say 9.5 / 10." in str(m.fide_answer())
    m.target = 1517  # [DIFF] 1516 is the most
    assert str(m.fide_answer()).startswith("Out of reach: even 10 / 10 gives 1516.")


def test_k_from_the_profile_as_on_01():
    # a new player (12 rated games): K 40; 9 games × 40 = 360 <= 700; 6 / 9 at even ratings:
    # 40 × 1.5 = +60 (1860) >= 1850, 5½: 40 × 1 = +40
    m = PlanModel(k="profile", rated_games=12)
    assert m.fide_plan().points == 6.0 and m.fide_plan().k == 40


def test_the_stakes_of_the_next_fide_game():
    # Telugu document: 1500 vs 1700, K 20: E .24 -> win +15, draw +5, loss −5
    m = PlanModel(rating=1500, average=1700)
    assert [r[1] for r in m.fide_stakes().rows] == [15, 5, -5]
    assert [r[2] for r in m.fide_stakes().rows] == [1515, 1505, 1495]


def test_gammon42_wins_and_win_rate():
    m = PlanModel(**PlanModel.presets[G42])
    assert [(r[2], r[3], r[4]) for r in m.gammon_table().rows] == [
        (32, 16, 1516),
        (16, 8, 1524),
        (16, 8, 1532),
    ]  # [G42]
    m.apply({"rating": 1800, "opponent": 1500, "recent_games": 0, "win_rate": 70.0})
    win, loss, rate, change, _games, hold = m.win_rate_table().rows[0]
    assert (win, loss, rate, hold) == (12, -20, 70.0, 62.5)
    assert change == pytest.approx(2.4)


def test_the_season_is_rated_period_by_period():
    m = PlanModel()
    first = m.season_table().rows[0]  # [SEAS]
    assert (first[2], first[3], first[5], first[7], first[8]) == (3, 1.5, 20, 2, 1802.0)
    assert first[1] == "2026-01-10"
    # the third line has no date: the second's
    assert m.season_table().rows[2][1] == "2026-03-01"


def test_a_bad_season_gets_10s_messages_and_the_model_keeps_its_value():
    v = view()
    before = v.model.season
    v.season_box.value = "2026-01-10: 1750 1\n1700 2"
    assert (
        "Season, period 2: Games, row 1 (&#x27;1700 2&#x27;): the result must be 1 (win)"
        in v.season_error.value
    )
    assert v.model.season == before
    v.season_box.value = "2023-01-01: 1700 1"
    assert (
        "Season, period 1: the date must be a date YYYY-MM-DD from 2024-03-01"
        in v.season_error.value
    )
    v.season_box.value = "1600 1; 1700 0.5"  # 1600 win: PD .76 -> +4.8; 1700 draw .64 -> −2.8
    assert v.season_error.value == "" and v.model.season == "1600 1; 1700 0.5"
    assert "1800 → 1802 (+2)" in v.season_line.value
    with pytest.raises(ValueError, match="Season, period 1: Games, row 1"):
        PlanModel(season="<b>1600</b> 1")


def test_the_view_follows_the_system_a_preset_and_a_link():
    v = view()
    assert "You need 7 / 9 (rating 1850)" in text(v.answer)
    assert "win +10, draw 0, loss −10" in v.stakes_line.value
    assert v.g42_box.layout.display == "none"
    v.preset.value = G42
    assert v.fide_box.layout.display == "none" and v.g42_box.layout.display == ""
    assert "3 wins in a row reach 1530 (last win: 1532)." in text(v.answer)
    v = view("system=gammon42&rating=1800&opponent=1500&target=1850&win_rate=70")
    assert "win +12, loss −20" in v.stakes_line.value and "62.5 %" in v.stakes_line.value
    assert "system=gammon42" in v.link.value
    v = view("n_games=500")
    assert "n_games=500" in v.notes.value and v.model.n_games == 9


def test_a_links_k_is_one_the_dropdown_shows():
    # FIDE's K-factors are 40, 20, 10 (or the profile's): K 25 from a link was computed with
    # while the dropdown still showed K 20, and a K set later broke the dropdown
    v = view("k=25")
    assert "k=25" in v.notes.value and v.model.k == 20
    v.apply({"k": 25})
    assert "K must be one of 40, 20, 10, &#x27;profile&#x27;, got 25" in v.status.value
    v = view("k=40")  # 9 games at even ratings, K 40: 6 / 9 → +60 (1860), 5½ → +40 (1840)
    assert v.fide_box.children[0].value == 40
    assert "You need 6 / 9 (rating 1860); 5.5 gives 1840." in text(v.answer)


def test_the_season_figure_is_mutated_not_remade():
    v = view()
    fig, line = v.figure.fig, v.rating_line
    assert list(line.get_ydata()) == [1800, 1802, 1810, 1819]
    v.season_box.value = "1600 1"
    assert v.figure.fig is fig and list(line.get_ydata()) == [1800, 1805]  # .76: +4.8 -> +5


def _period_labels(v) -> list[str]:
    v.figure.png()  # (laid out and drawn as the page shows it)
    return [t.get_text() for t in v.figure.ax.get_xticklabels() if t.get_text()]


def test_the_periods_labels_follow_the_season_after_a_phone_layout():
    # a layout kept the first season's labels: after a phone and a desktop, the period of
    # "1800 1" (E .5, K 20: +10) was labelled with the first season's "+2"
    v = view()
    assert _period_labels(v) == ["start", "1\n(+2)", "2\n(+8)", "3\n(+9)"]
    v.viewport.value = "370"
    v.season_box.value = "1800 1"
    assert _period_labels(v) == ["start", "1\n(+10)"]
    v.viewport.value = "1280"
    assert _period_labels(v) == ["start", "1\n(+10)"]


# ----------------------------------------------------------------- what the page shows
# The facts tests/site/test_browser_plan.py asserted in a browser, on the view's widgets and
# the model's tables the notebook shows live above the view (ee-live-fide-table); the browser
# keeps the CSV download and the printed page (tests/site/test_browser_plan.py) and one audit
# (tests/site/specs/d11.py).
def test_the_fide_tables_csv_link_as_the_page_shows_it():
    # the live output above the view shows the table's HTML, its CSV link under it [EVEN]
    shown = PlanModel().fide_table()._static_bundle()["text/html"]
    link = re.search(
        r'<a class="ee-csv" href="data:text/csv;charset=utf-8,([^"]*)" '
        r'download="([^"]*)"',
        shown,
    )
    assert link and link[2].endswith(".csv")
    data = urllib.parse.unquote(link[1])
    assert data.startswith("\ufeffMethod,Least score,") and "FIDE: table 8.1.2,7,1850," in data


def test_a_preset_then_bad_entries_keep_the_answer():
    v = view()
    # the menu's first example (after "Custom"): [DIFF] the table and the formula differ
    assert v.preset.options[1][1] == DIFF
    v.preset.value = DIFF
    assert "You need 10 / 10 (rating 1516)" in text(v.answer)
    assert "The ÷400 formula would say 9.5 / 10." in text(v.answer)
    assert "1508" in [row[2] for row in v.model.fide_table().cells()]  # the table above
    # bad input: plain words naming the field, the numbers kept
    target = v.controls["target"].field
    target.text.value = "abc"
    assert "Target rating" in target.error
    v.season_box.value = "2026-01-10: 1750 1\n1700 2"
    assert (
        "Season, period 2: Games, row 1 (&#x27;1700 2&#x27;): the result must be 1 (win)"
        in v.season_error.value
    )
    assert "You need 10 / 10 (rating 1516)" in text(v.answer) and v.model.target == 1507


@pytest.fixture
def language(request):
    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.mark.parametrize("language", ["te", "uk", "el"], indirect=True)
def test_the_page_in_the_documents_languages_has_no_english_left(language):
    with contextlib.redirect_stdout(io.StringIO()):
        v = view()
    m = v.model
    tables = [
        m.fide_table(),
        m.fide_stakes(),
        m.gammon_table(),
        m.win_rate_table(),
        m.season_table(),
    ]
    texts = [shown_text(v), str(m.fide_answer())] + [t.to_html() for t in tables]
    v.preset.value = G42
    texts.append(shown_text(v))
    v.season_box.value = "1600 1\n1700 3"
    texts.append(v.season_error.value)
    assert translate.english_left("\n".join(texts), language) == []


def test_counts_take_each_languages_plural_form():
    # Ukrainian: 1, 21 -> гра; 2-4, 22-24 -> гри; 5-20 -> ігор (перемога / перемоги,
    # період / періоди alike); English: 1 game, 3 games. [SEAS] 1600 won at 1800: +5;
    # 21 draws, then a win and a loss, then a win, at even ratings (K 20): 0, 0, +10
    season = "\n".join(["1800 0.5, " * 20 + "1800 0.5", "1800 1, 1800 0", "1800 1"])
    seen = {}
    for lang in ("en", "uk"):
        with speaking(lang), contextlib.redirect_stdout(io.StringIO()):
            v = view(season="1600 1")
            seen[lang] = [v.season_line.value]
            v.season_box.value = season
            seen[lang].append(v.season_line.value)
            for n in (1, 3, 9, 21):
                v.model.n_games = n
                seen[lang].append(v.model.fide_table().caption.split(": ")[1].split(" ")[:2])
            v.model.rated_games = 22
            seen[lang].append(v.model.season_table().caption)
            v.preset.value = G42  # [G42]
            seen[lang].append(text(v.answer).strip())
    assert seen["en"] == [
        "1 period, 1 game: 1800 → 1805 (+5).",
        "3 periods, 24 games: 1800 → 1810 (+10).",
        ["1", "game"],
        ["3", "games"],
        ["9", "games"],
        ["21", "games"],
        "Your season from 1800 (22 rated games before)",
        "3 wins in a row reach 1530 (last win: 1532).",
    ]
    assert seen["uk"] == [
        "1 період, 1 гра: 1800 → 1805 (+5).",
        "3 періоди, 24 гри: 1800 → 1810 (+10).",
        ["1", "гра"],
        ["3", "гри"],
        ["9", "ігор"],
        ["21", "гра"],
        "Ваш сезон від 1800 (22 рейтингові гри до нього)",
        "3 перемоги поспіль доводять рейтинг до 1530 (остання перемога: 1532).",
    ]
