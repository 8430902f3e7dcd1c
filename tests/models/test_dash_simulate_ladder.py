"""Dashboard 9 "Simulate a ladder": the model and the widgets, without a browser.

Independent sources for the asserted numbers:
[G42]  docs/sources.md#greek G10 (Gammon42 document): "At 300 ranked games a week and K 32, being only 2-3
       percentage points below the expected win rate cost about 200 points in a week":
       32 x 300 x 0.02 = 192 and 32 x 300 x 0.03 = 288; at K 16 half: 96 and 144.
[BIN]  Binomial luck: equal players, E = 0.5, each game +16 / -16 at K 32 (docs/sources.md#greek
       G6: "0 -> +16/-16"), so a week of g games changes the rating by 32 (W - g/2) with
       W ~ Binomial(g, 1/2): standard deviation 16 sqrt(g) (277.1 at 300 games, 71.6 at 20),
       half of that at K 16; P(|change| >= 200) at 300 games, K 32 = P(|W - 150| >= 7),
       computed exactly here with math.comb.
[ZS]   Plain Elo is zero-sum (docs/sources.md#telugu T2: the winner gains what the loser loses), so the
       mean rating stays at the starting 1500.
"""

from __future__ import annotations

import contextlib
import html
import io
import math
import re
import time
from urllib.parse import urlencode

import matplotlib.pyplot as plt
import numpy as np
import pytest

from elo_explain import simulate
from elo_explain.dashboards.simulate_ladder import (
    AUTO_SECONDS,
    MAX_SECONDS,
    SWING_GAMES,
    LadderModel,
    LadderView,
    first_weeks,
)


@pytest.fixture(scope="module")
def view():
    with contextlib.redirect_stdout(io.StringIO()):
        return LadderView(LadderModel(), query="")


def quietly(fn):
    with contextlib.redirect_stdout(io.StringIO()):
        return fn()


# ------------------------------------------------------------------ weekly swing
def test_rule_of_thumb_is_the_documents(view):
    assert LadderModel().rule_of_thumb_table().rows == (
        (32, 300, 192, 288),  # [G42]
        (16, 300, 96, 144),
    )  # [G42]
    text = view.swing_text.value
    assert "32 × 300 × 2 % = 192" in text and "32 × 300 × 3 % = 288" in text  # [G42]
    assert "96 to 144 at K 16" in text  # [G42]


def test_weekly_swing_spread_is_binomial_luck():
    m = LadderModel()
    sd = m.swing().std
    for i, g in enumerate(SWING_GAMES):
        assert sd[0, i] == pytest.approx(16 * math.sqrt(g), rel=0.05)  # [BIN]
        assert sd[1, i] == pytest.approx(8 * math.sqrt(g), rel=0.05)  # [BIN]
    rows = {r[0]: r for r in m.swing_table().cells()}
    assert rows["300"][1] == f"±{sd[0, SWING_GAMES.index(300)]:.0f}"
    # share of K 32 weeks at 300 games moving 200 points or more
    p = 2 * sum(math.comb(300, w) for w in range(157, 301)) / 2**300  # [BIN] 0.4530
    share = float(rows["300"][2].rstrip(" %")) / 100
    assert share == pytest.approx(p, abs=0.04)


def test_swing_slider_state_and_histograms(view):
    m = LadderModel(swing_games=20)
    dens = m.swing_histograms()
    assert all(d.sum() == pytest.approx(1.0) for d in dens)
    m.swing_games = 300
    wide = m.swing_histograms()
    # at 300 games the K 32 weeks spread wider: less weight in the central bin
    centre = np.argmax(dens[0])
    assert wide[0][centre] < dens[0][centre]
    assert "At 300 games a week" in view.swing_text.value
    with pytest.raises(ValueError, match=r"must be one of 20, 50, 100, 150, 200, 250, 300, got 30"):
        m.swing_games = 30
    assert m.swing_games == 300


# ------------------------------------------------------------------ seasons
@pytest.mark.parametrize(
    "rule",
    [
        "Elo per game (K 20, ÷400)",
        "FIDE (table, 400 cap, K 20)",
        "Lichess Glicko-2",
        "Gammon42 1.3.1 (÷1200, volume K)",
    ],
)
def test_a_shorter_season_is_the_start_of_a_longer_one(rule):
    rules = simulate.RULE_SETS[rule]
    long = simulate.simulate_season(rules, players=30, weeks=8, games_per_week=3, seed=4)
    short = simulate.simulate_season(rules, players=30, weeks=5, games_per_week=3, seed=4)
    cut = first_weeks(long, 5)
    for name in (
        "ratings",
        "spread",
        "favourite_games",
        "favourite_score",
        "favourite_expected",
        "favourite_true",
        "true_strength",
    ):
        np.testing.assert_array_equal(getattr(cut, name), getattr(short, name))
    # computed by one matrix product over all weeks: equal up to the last bit of rounding
    np.testing.assert_allclose(cut.correlation, short.correlation, rtol=1e-12)
    if short.rd is not None:
        np.testing.assert_array_equal(cut.rd, short.rd)


def test_model_uses_the_cache_for_fewer_weeks():
    m = LadderModel(rules="Elo per game (K 20, ÷400)", weeks=20)
    full = m.season()
    m.weeks = 7
    assert m.estimated_seconds() == 0.0  # cached: no new simulation
    s = m.season()
    assert s.weeks == 7 and np.array_equal(s.ratings, full.ratings[:8])
    assert np.allclose(s.ratings.mean(axis=1), 1500.0)  # [ZS]


def test_modes_and_messages():
    m = LadderModel()
    assert m.mode == "auto" and m.estimated_seconds() <= AUTO_SECONDS
    m.rules, m.players, m.games_per_week, m.weeks = "Elo per game (K 20, ÷400)", 1000, 50, 20
    assert AUTO_SECONDS < m.estimated_seconds() <= MAX_SECONDS and m.mode == "run"
    assert "press Run" in m.mode_message()
    with pytest.raises(ValueError, match="press Run"):
        m.season()
    t = time.perf_counter()
    season = m.season(run=True)
    elapsed = time.perf_counter() - t
    assert season.ratings.shape == (21, 1000)
    assert elapsed < 2 * MAX_SECONDS
    m.rules, m.weeks = "Lichess Glicko-2", 104
    assert m.mode == "too big" and "Too big" in m.mode_message()
    with pytest.raises(ValueError, match="Too big"):
        m.season(run=True)


def test_bad_settings_name_the_setting():
    m = LadderModel()
    with pytest.raises(ValueError, match="Players must be a whole number between 10 and 1000"):
        m.players = 5
    with pytest.raises(ValueError, match="Rule set must be one of 'FIDE"):
        m.rules = "Chess.com"
    with pytest.raises(ValueError, match="SD must be a whole number between 0 and 400"):
        m.spread = 900
    assert (m.players, m.rules, m.spread) == (100, "Gammon42 1.3.1 (÷1200, volume K)", 200)


def test_summary_numbers_follow_the_season():
    m = LadderModel(rules="Gammon42 1.2.0 (÷800)", true_curve="1200", players=200, weeks=30)
    s = m.season()
    assert (
        dict(zip(m.season_table().columns, m.season_table().cells()[0]))["Rating spread (SD)"]
        == f"{s.spread[-1]:.0f}"
    )
    # true strengths seen through ÷800 when the game follows ÷1200 are stretched by 800/1200
    assert m.true_spread_on_rule_scale() == pytest.approx(s.true_strength.std() * 800 / 1200)
    rows = {r[0]: r for r in m.favourite_table().cells()}
    g = s.favourite_games
    whole = np.sum(s.favourite_score * g) / g.sum()
    assert rows["Favourites won"][3] == f"{100 * whole:.1f} %"
    # the document's story: with a rule steeper (÷800) than the game (÷1200), favourites
    # score less than the rule's curve expects of them
    won = float(rows["Favourites won"][2].rstrip(" %"))
    expected = float(rows["The rule's curve expected"][2].rstrip(" %"))
    assert won < expected


def test_sample_players_span_the_strengths(view):
    m = LadderModel()
    s = m.season()
    idx, _ = m.sample_players()
    theta = s.true_strength[idx]
    assert list(theta) == sorted(theta, reverse=True)
    assert theta[0] == pytest.approx(np.quantile(s.true_strength, 0.95), abs=30)
    assert len(m.sample_players()[1]) == 5 and "true" in view.summary.value


# ------------------------------------------------------------------ the widgets
def test_one_update_at_defaults_is_timed(view):
    def move(value):
        t, c = time.perf_counter(), time.process_time()
        quietly(lambda: setattr(view.players.slider, "value", value))
        return time.perf_counter() - t, time.process_time() - c

    move(110)
    wall, cpu = move(120)
    print(
        f"simulate_ladder: one players-slider update at defaults {1000 * wall:.0f} ms wall, "
        f"{1000 * cpu:.0f} ms CPU (simulation + drawing)"
    )
    assert view.model.up_to_date and view.status.value == ""
    assert wall < 5.0
    quietly(lambda: setattr(view.players.slider, "value", 100))


def test_figure_count_flat_after_12_moves(view):
    before = len(plt.get_fignums())
    y0 = view.spread_line.get_ydata().copy()
    with contextlib.redirect_stdout(io.StringIO()):
        for i in range(12):
            view.swing_games.value = SWING_GAMES[i % len(SWING_GAMES)]
        for i in range(10):
            view.weeks.slider.value = 5 + i  # cached season: drawing only
        view.weeks.slider.value = 12
    assert len(plt.get_fignums()) == before
    assert len(view.spread_line.get_ydata()) == 13 and len(y0) == 21
    assert (
        view.title_h.get_text()
        == f"Weekly changes at {SWING_GAMES[11 % len(SWING_GAMES)]} games a week"
    )
    with contextlib.redirect_stdout(io.StringIO()):
        view.weeks.slider.value = 20
    assert view.status.value == ""


def test_seed_field_rejects_letters_and_keeps_working(view):
    with contextlib.redirect_stdout(io.StringIO()):
        first = view.model.shown.true_strength.copy()
        view.seed.text.value = "abc"
        assert "Seed" in view.seed.error and "0 to 99999" in view.seed.error
        assert view.model.seed == 1
        view.seed.text.value = "7"
        assert view.seed.error == ""
    assert view.model.seed == 7 and not np.array_equal(view.model.shown.true_strength, first)
    with contextlib.redirect_stdout(io.StringIO()):
        view.seed.text.value = "1"


def test_big_settings_wait_for_run(view):
    shown = view.model.shown
    with contextlib.redirect_stdout(io.StringIO()):
        view.rule.value = "Elo per game (K 20, ÷400)"
        view.players.slider.value = 1000
        view.games.slider.value = 50
    assert view.model.mode == "run" and not view.model.up_to_date
    assert "press Run" in view.summary.value and not view.run.disabled
    assert view.model.shown is not shown  # the rule change (small) ran at once
    stale = view.model.shown
    with contextlib.redirect_stdout(io.StringIO()):
        view.run.click()
    assert view.model.up_to_date and view.model.shown is not stale
    assert view.run.disabled and 'class="ee-run-message"' not in view.summary.value
    assert "1,000 players, 20 weeks × 50 games" in view.summary.value
    with contextlib.redirect_stdout(io.StringIO()):
        view.rule.value = "Lichess Glicko-2"
        view.weeks.slider.value = 104
    assert "Too big" in view.summary.value and view.run.disabled
    with contextlib.redirect_stdout(io.StringIO()):
        view.weeks.slider.value, view.games.slider.value, view.players.slider.value = 20, 5, 100
        view.rule.value = "Gammon42 1.3.1 (÷1200, volume K)"
    assert view.model.up_to_date and view.status.value == ""


def test_feedback_shrinks_the_swing(view):
    with contextlib.redirect_stdout(io.StringIO()):
        view.swing_games.value = 300
        plain = view.model.swing().std.copy()
        view.feedback.value = True
    fed = view.model.swing().std
    assert fed[0, -1] < plain[0, -1]
    assert "game by game" in view.swing_text.value
    with contextlib.redirect_stdout(io.StringIO()):
        view.feedback.value = False


# ------------------------------------------------------- the viewer's way (was test_browser_*)
def words(widget) -> str:
    """An HTML widget's text as a reader sees it (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<style>.*?</style>|<[^>]+>", "", widget.value))


def swing_now(view) -> tuple[int, int, int]:
    """The swing headline's games a week and typical swing (SD) at K 32 and K 16."""
    m = re.search(
        r"At (\d+) games a week: typical swing ±(\d+) at K 32, ±(\d+) at K 16",
        words(view.swing_text),
    )
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def test_players_rules_true_curve_and_the_swing():
    """The viewer's way through the page: ten more players, another rule set and true curve,
    the swing slider one step left (big settings, Run and too big ones:
    test_big_settings_wait_for_run)."""
    with contextlib.redirect_stdout(io.StringIO()):
        v = LadderView(LadderModel(), query="")
        v.players.slider.value = 110
        assert "110 players" in v.summary.value
        assert v.model.season_table().cells()[0][0] == "110"  # the season's table above
        v.rule.value = "Gammon42 1.2.0 (÷800)"
        assert "Gammon42 1.2.0 (÷800), 110 players" in v.summary.value
        v.true_curve.value = "1200"
        assert "true results follow ÷1200" in v.summary.value
        # the weekly swing: 250 games a week, its headline and histogram follow
        title = v.title_h.get_text()
        v.swing_games.value = 250
    assert swing_now(v)[0] == 250 and "At 250 games a week" in v.swing_text.value
    assert v.title_h.get_text() == "Weekly changes at 250 games a week" != title
    # [G42] 32 × 250 × 2 % = 160, × 3 % = 240; K 16 half: 80 and 120
    assert v.model.rule_of_thumb_table().cells() == [
        ["32", "250", "160", "240"],
        ["16", "250", "80", "120"],
    ]
    assert v.status.value == ""


def test_a_link_sets_the_tables_and_the_view_alike():
    query = urlencode(
        {"rules": "Elo per game (K 20, ÷400)", "players": 50, "weeks": 10, "swing_games": 100}
    )
    with contextlib.redirect_stdout(io.StringIO()):
        v = LadderView(LadderModel(), query=query)
    assert "Elo K 20 ÷400, 50 players, 10 weeks × 5 games" in v.summary.value
    # K × games × shortfall at 100 games: 32 × 100 × 2 % = 64, × 3 % = 96 (K 16: 32 to 48)
    assert "32 × 100 × 2 % = 64" in v.swing_text.value  # [G42]
    assert "32 × 100 × 3 % = 96" in v.swing_text.value  # [G42]
    assert v.model.rule_of_thumb_table().cells()[0] == ["32", "100", "64", "96"]  # [G42]
    games, sd32, _sd16 = swing_now(v)
    assert games == 100 and abs(sd32 - 16 * math.sqrt(100)) < 0.05 * 160  # [BIN]
    season = v.model.season_table()
    assert season.caption == "Elo K 20 ÷400 after 10 weeks"
    assert season.cells()[0][0] == "50" and season.cells()[0][3] == "1500"  # [ZS]
    for part in ("players=50", "weeks=10", "swing_games=100"):
        assert part in v.link.value
    assert v.notes.value == ""
    # settings that wait for Run: a link runs them, tables and view alike
    query = urlencode({"rules": "Elo per game (K 20, ÷400)", "players": 1000, "games_per_week": 50})
    with contextlib.redirect_stdout(io.StringIO()):
        v = LadderView(LadderModel(), query=query)
    assert "1,000 players, 20 weeks × 50 games" in v.summary.value
    assert "press Run" not in v.summary.value
    assert v.model.season_table().cells()[0][0] == "1,000"


def test_a_link_with_bad_values_keeps_the_defaults_the_season_and_the_swing():
    with contextlib.redirect_stdout(io.StringIO()):
        v = LadderView(LadderModel(), query="players=5&swing_games=30&colour=red")
    for text in ("players=5", "swing_games=30", "colour (not a setting of this page)"):
        assert text in v.notes.value
    # the default season and weekly swing
    summary = v.summary.value
    assert "Gammon42 1.3.1 (÷1200), 100 players, 20 weeks × 5 games" in summary
    assert "Favourites won:" in summary
    assert re.search(r"Rating spread after the season: \d+ points", words(v.summary))
    assert "At 300 games a week: typical swing" in words(v.swing_text)
    # the simulated K 32 swing at 300 games is binomial luck: ±16 √300 = ±277, K 16 ±139
    games, sd32, sd16 = swing_now(v)
    assert games == 300
    assert abs(sd32 - 16 * math.sqrt(300)) < 0.05 * 277  # [BIN]
    assert abs(sd16 - 8 * math.sqrt(300)) < 0.05 * 139  # [BIN]
    # the notebook's luck table ("ee-live-swing-table") shows the same row
    row = {r[0]: r for r in v.model.swing_table().cells()}["300"]
    assert row[1:4:2] == [f"±{sd32}", f"±{sd16}"]
    # and its rule-of-thumb table ("ee-live-rule-of-thumb-table"): [G42] 192 and 288
    assert v.model.rule_of_thumb_table().cells()[0] == ["32", "300", "192", "288"]


# --------------------------------------------------------------------------- translated pages
@pytest.mark.parametrize("lang, percent", [("te", " %"), ("uk", "%"), ("el", "%")])
def test_translated_page_shows_no_catalog_english_and_the_document_numbers(lang, percent):
    """In te/uk/el the view and the notebook's tables are translated (the rule sets' names
    too, their link values stay English), and the Greek document's weekly swing at 300 games
    and K 32, 32 × 300 × 2 % = 192 to 3 % = 288, is written with the language's percent
    style (no space in Ukrainian and Greek, as the Greek document prints 50,0%; the Telugu
    document's "76 %")."""
    from tests.models.shown import english_left_of, in_language, shown_text

    with in_language(lang):
        m = LadderModel()
        view = LadderView(m)
        tables = [m.season_table(), m.favourite_table(), m.swing_table(), m.rule_of_thumb_table()]
        text = "\n".join([shown_text(view, field_tooltips=False), *(t.to_html() for t in tables)])
        assert english_left_of(text, lang, ["dashboards/simulate_ladder.py"]) == []
        swing = view.swing_text.value
        assert f"32 × 300 × 2{percent} = 192" in swing and f"3{percent} = 288" in swing, swing
        labels = dict(zip(view.rule._options_values, view.rule._options_labels))
        assert labels["Gammon42 1.3.1 (÷1200, volume K)"] != "Gammon42 1.3.1 (÷1200, volume K)"
        view.apply({"rules": "FIDE (table, 400 cap, K 20)"})
        assert "FIDE K 20, table" not in view.summary.value
