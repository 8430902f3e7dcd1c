"""Dashboard 5 (K vs weekly volume): the model and the widgets, without a browser.

Asserted numbers come from the Greek Gammon42 document (docs/sources.md#greek),
from an independent re-count of its 7-day window rule, or from the binomial distribution.
"""

from __future__ import annotations

import datetime as dt
import math

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
import pytest

from elo_explain.dashboards.volume_k import SWING_GAMES, VolumeModel, VolumeView
from elo_explain.formats import fmt_pct


@pytest.fixture(scope="module")
def model():
    return VolumeModel()


@pytest.fixture
def view():
    return VolumeView(VolumeModel())


@pytest.mark.parametrize("games, k", [(0, 32), (10, 32), (49, 32), (50, 16), (60, 16), (300, 16)])
def test_k_rule(games, k):
    # document: fewer than 50 ranked games in the last 7 days -> K 32, 50 or more -> K 16
    assert VolumeModel(games=games).k == k


def test_k_table_is_the_documents():
    rows = list(VolumeModel.k_table().rows)
    # document, step 3: 0 -> +16/−16, +8/−8; 150 -> +14/−18, +7/−9; 300 -> +12/−20, +6/−10
    assert rows == [(0, (16, -16), (8, -8)), (150, (14, -18), (7, -9)), (300, (12, -20), (6, -10))]


def test_asymmetric_example():
    m = VolumeModel()
    # document: 60 games vs 10, same rating: you win +8, they lose 16; they win +16, you lose 8
    assert m.asymmetric() == ((8, -16), (16, -8))
    assert [c for _, c in m.asymmetric_table().cells()] == ["+8 / −16", "+16 / −8"]  # as printed
    m.games_a, m.games_b = 10, 10  # document: same K -> the winner gains what the loser loses
    assert m.asymmetric() == ((16, -16), (16, -16))
    m.games_a, m.games_b = 60, 50
    assert m.asymmetric() == ((8, -8), (8, -8))  # both K 16: every change halved


def _oracle_counts(times):
    """The document's rule, counted naively: games with t − 7 days < g < t."""
    ts = [dt.datetime.fromisoformat(str(t)) for t in times]
    week = dt.timedelta(days=7)
    return [sum(1 for g in ts if t - week < g < t) for t in ts]


def test_rolling_window_matches_an_independent_count(model):
    times = model.schedule()
    assert times.size == 7 * (3 + 12 + 2 + 9)  # games per day in the four weeks × 7 days
    days, counts, ks = model.window()
    oracle = _oracle_counts(times)
    assert counts.tolist() == oracle
    assert ks.tolist() == [16 if c >= 50 else 32 for c in oracle]  # document: 50 -> K 16
    switches = model.switches()
    expected = [
        i + 1
        for i, c in enumerate(oracle)
        if (16 if c >= 50 else 32) != (32 if i == 0 else (16 if oracle[i - 1] >= 50 else 32))
    ]
    assert [n for n, *_ in switches] == expected
    assert [k for *_, k in switches] == [16, 32, 16]


def test_first_switch_by_hand(model):
    # By hand: week 1 has 3 games a day (19:00, 21:00, 23:00), week 2 has 12 (18:15, 18:45 ...).
    # Game 61 is the 4th game of day 11 (19:45). The 7 days before it hold days 4-7 of week 1
    # after 19:45 (2 + 9 = 11 games), days 8-10 (36) and 3 earlier games of day 11: 50 -> K 16.
    n, t, count, k = model.switches()[0]
    assert (n, str(t), count, k) == (61, "2026-10-15T19:45", 50, 16)


def test_window_with_no_games():
    m = VolumeModel(per_day=(0, 0, 0, 0))
    days, counts, ks = m.window()
    assert days.size == counts.size == ks.size == 0
    assert m.switches() == []


def test_weekly_swing_rule_of_thumb(model):
    # document: 300 games, K 32, 2-3 points below expectation -> about 200 points (192-288)
    rows = {s: (a, b) for s, a, b in model.rule_of_thumb().rows}
    assert rows[2.0] == (32 * 300 * 0.02, 16 * 300 * 0.02)
    assert rows[3.0] == (32 * 300 * 0.03, 16 * 300 * 0.03)
    assert abs(rows[2.0][0] - 200) <= 10  # "about 200"


def test_simulated_spread_matches_the_binomial(model):
    # luck only: the week's change at cube 1 against equal opponents is K/2 × (2W − n),
    # W ~ Binomial(n, 1/2), so SD = K/2 × sqrt(n) (277 at K 32, 300 games; 139 at K 16)
    s = model.spread()
    assert s["std"][0] == pytest.approx(16 * math.sqrt(300), rel=0.05)
    assert s["std"][1] == pytest.approx(8 * math.sqrt(300), rel=0.05)
    assert s["std"][0] == pytest.approx(2 * s["std"][1], rel=1e-9)  # same luck, half K
    assert s["q05"][0] < -300 < 300 < s["q95"][0]
    assert s["beyond200"][0] > s["beyond200"][1]
    assert model.histogram().sum(axis=1) == pytest.approx([100, 100], abs=0.5)
    curves = model.swing().std
    assert curves.shape == (2, SWING_GAMES.size)


@pytest.mark.parametrize("feedback", [False, True])
def test_the_weekly_swing_is_the_same_run_as_09s(feedback):
    # one experiment, one answer -- 05 and 09 read the same simulated weeks
    from elo_explain.dashboards.simulate_ladder import SWING_GAMES as GAMES_09
    from elo_explain.dashboards.simulate_ladder import LadderModel

    five, nine = VolumeModel(feedback=feedback), LadderModel(feedback=feedback)
    for games in GAMES_09:
        five.swing_games = nine.swing_games = games
        i = GAMES_09.index(games)
        np.testing.assert_array_equal(five.spread()["std"], nine.swing().std[:, i])
        np.testing.assert_array_equal(
            five.spread()["beyond200"], nine.swing().share_beyond(200)[:, i]
        )
    # ... and the two pages print the same figures at 300 games, K 32: 05's "N points" and
    # 09's "±N" standard deviation, 05's and 09's share of weeks moving 200 or more
    five.swing_games = nine.swing_games = 300
    sd = float(five.spread()["std"][0])
    row = {r[0]: r for r in nine.swing_table().cells()}["300"]
    assert row[1] == f"±{sd:.0f}"
    assert row[2] == fmt_pct(100 * five.spread()["beyond200"][0])


def test_feedback_shrinks_the_swing():
    m = VolumeModel()
    without = m.spread()["std"]
    m.feedback = True
    with_fb = m.spread()["std"]
    # moving the rating game by game pulls a drifting rating back: smaller spread
    assert np.all(with_fb < without)


@pytest.mark.parametrize(
    "name, value, error, message",
    [
        (
            "games",
            301,
            ValueError,
            "Ranked games in the last 7 days must be a whole number between 0 and 300",
        ),
        (
            "games_a",
            -1,
            ValueError,
            "Player A's games this week must be a whole number between 0 and 300",
        ),
        (
            "swing_games",
            305,
            ValueError,
            "Ranked games in the week must be a multiple of 10 from 10 to 500",
        ),
        (
            "swing_games",
            600,
            ValueError,
            "Ranked games in the week must be a whole number between 10 and 500",
        ),
        ("shortfall", 11, ValueError, "Points below expected win rate must be between 0 and 10"),
        (
            "per_day",
            (1, 2, 3),
            ValueError,
            "The busy player's games per day in each week must hold 4 numbers",
        ),
        ("per_day", (1, 2, 3, 41), ValueError, "Week 4 must be a whole number between 0 and 40"),
        ("feedback", "yes", TypeError, "feedback must be True or False"),
    ],
)
def test_model_rejects_bad_state(name, value, error, message):
    with pytest.raises(error, match=message):
        VolumeModel(**{name: value})


def test_view_shows_the_documents_numbers(view):
    assert "K 32" in view.k_html.value
    cells = VolumeModel.k_table().to_html()  # the notebook's table, above the view
    for cell in ("+16 / −16", "+8 / −8", "+14 / −18", "+7 / −9", "+12 / −20", "+6 / −10"):
        assert f"<td>{cell}</td>" in cells  # document, step 3 table
    assert "ee-a-wins'>+8 / −16</span>" in view.asym_html.value  # document: 60 vs 10
    assert "ee-b-wins'>+16 / −8</span>" in view.asym_html.value
    assert ">192 points</span>" in view.swing_html.value  # 32 × 300 × 0.02 ("about 200")


def test_games_field_and_bad_value(view):
    games = view.controls["games"]
    games.field.text.value = "50"
    assert view.model.games == 50 and "K 16" in view.k_html.value  # document: 50 -> K 16
    games.field.text.value = "many"
    msg = games.field.error
    assert "Ranked games in the last 7 days" in msg and "0 to 300" in msg
    assert view.model.games == 50
    games.slider.value = 49
    assert "K 32" in view.k_html.value and games.field.error == ""


def test_sliders_update_numbers_and_plots(view):
    view.controls["games_a"].value = 10
    assert "ee-a-wins'>+16 / −16</span>" in view.asym_html.value  # equal K 32
    before = view.count_line.get_ydata().copy()
    view.week_sliders[1].value = 5  # a lighter week 2: weeks of 21, 35, 14 and 63 games
    assert not np.array_equal(view.count_line.get_ydata(), before)
    # by hand: no 7-day window reaches 50 before week 4; on day 21 + x of week 4 the window
    # holds 2 × (7 − x) + 9 × x = 14 + 7x games, 50 once x > 5.1: one switch, to K 16, in week 4
    switches = view.model.switches()
    assert [k for *_, k in switches] == [16]
    assert switches[0][0] > 21 + 35 + 14 + 9 * 5
    assert "day 27" in view.switch_labels[0].get_text()  # the plot's mark
    # by hand: day 27's games are at 18:20, 19:00, ... (9 in 18:00-24:00); before its 19:00 game
    # the window holds day 20's and 21's 2 + 2 games (19:30, 22:30), days 22-26's 45 and 18:20's
    # 1: 50, so game 21 + 35 + 14 + 45 + 2 = 117 is the switch
    assert "K switches at game 117</p>" in view.window_html.value
    old_marks = view.std_marks.get_xdata()
    view.controls["swing_games"].value = 100
    assert "100 games in a week" in view.swing_html.value
    assert ">64 points</span>" in view.swing_html.value  # 32 × 100 × 0.02
    assert list(view.std_marks.get_xdata()) != list(old_marks)
    view.controls["shortfall"].value = 3.0
    assert "your 3 → <span class='ee-value'>96 points" in view.swing_html.value  # 32 × 100 × 0.03


def test_figure_count_flat_after_12_moves(view):
    before = len(plt.get_fignums())
    for i in range(12):  # 12 moves, alternating the schedule and the weekly swing
        if i % 2:
            view.week_sliders[i % 4].value = (7 * i) % 40
        else:
            view.controls["swing_games"].value = int(SWING_GAMES[i % SWING_GAMES.size])
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""


def test_link_sets_the_view_and_a_bad_value_is_noted():
    v = VolumeView(VolumeModel(), query="games=50&per_day=3,5,2,9&swing_games=100")
    assert "K 16" in v.k_html.value  # document: 50 games or more -> K 16
    assert v.model.per_day == [3, 5, 2, 9] and [s.value for s in v.week_sliders] == [3, 5, 2, 9]
    assert ">64 points</span>" in v.swing_html.value  # 32 × 100 × 0.02
    assert "per_day=3%2C5%2C2%2C9" in v.link.value and "swing_games=100" in v.link.value
    bad = VolumeView(VolumeModel(), query="swing_games=305&per_day=1,2")
    assert "swing_games=305" in bad.notes.value and "per_day=1,2" in bad.notes.value
    assert ">192 points</span>" in bad.swing_html.value  # default 300 games: 32 × 300 × 0.02


def test_05_and_09_print_the_weekly_share_the_same_way_and_the_documents_200():
    # one share, one format on both pages (fmt_pct, one decimal); and
    # [GR] G10's "about 200" beside the rule of thumb's 192 to 288 at 300 games
    import contextlib
    import io

    from elo_explain.dashboards.simulate_ladder import LadderModel
    from elo_explain.dashboards.volume_k import VolumeView

    with contextlib.redirect_stdout(io.StringIO()):
        five = VolumeView(VolumeModel(), query="")
    share = fmt_pct(100 * five.model.spread()["beyond200"][0])
    assert f"<td>{share}</td>" in five.swing_html.value  # 05's page
    row = {r[0]: r for r in LadderModel().swing_table().cells()}["300"]
    assert row[2] == share  # 09's table, the same text
    assert "192 points" in five.swing_html.value and "288 points" in five.swing_html.value
    assert "the document's figure for them: “about 200”" in five.swing_html.value


# --- the translated pages -------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_translated_view_leaves_no_catalog_english(lang):
    from elo_explain.translate import english_left
    from tests.models.shown import in_language, shown_text

    with in_language(lang):
        for query in (
            "",
            "games=60&swing_games=300&feedback=true",
            "per_day=0,0,0,0&games_a=10&shortfall=3.5",
            "per_day=9,9,9,9&games=1",
        ):
            v = VolumeView(VolumeModel(), query=query)
            m = v.model
            text = "\n".join(
                [
                    shown_text(v),
                    str(m.your_k()),
                    m.k_table().to_html(),
                    m.asymmetric_table().to_html(),
                    m.switch_table().to_html(),
                    m.rule_of_thumb().to_html(),
                ]
            )
            assert english_left(text, lang) == [], query


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_translated_view_writes_the_documents_numbers_in_its_language(lang):
    from tests.models.shown import in_language

    with in_language(lang):
        v = VolumeView(VolumeModel())
        # the Greek document: 60 games against 10, "+8 ... −16", "+16 ... −8" (U+2212)
        assert "ee-a-wins'>+8 / \u221216<" in v.asym_html.value
        assert "ee-b-wins'>+16 / \u22128<" in v.asym_html.value
        # its K table, 300 points up: +12 / −20 at K = 32, +6 / −10 at K = 16
        assert "<td>+12 / \u221220</td><td>+6 / \u221210</td>" in VolumeModel.k_table().to_html()
        # the shortfall slider's readout in the page's language (ipywidgets' is en-US)
        readout = "2.5" if lang == "te" else "2,5"
        shortfall = v.controls["shortfall"]
        assert shortfall.readout is False
        box = next(w for w in v.children if isinstance(w, widgets.HBox) and shortfall in w.children)
        assert box.children[1].value == readout
        v.model.shortfall = 3.0
        assert box.children[1].value == ("3.0" if lang == "te" else "3,0")
    assert VolumeView(VolumeModel()).controls["shortfall"].readout is True  # English as before


# --- plural forms: "1 points below" was English at a shortfall of 1 --------------------------------
@pytest.mark.parametrize(
    "lang, one, two, half",
    [
        ("en", "1 point below", "2 points below", "2.5 points below"),
        ("te", "1 పాయింట్ తక్కువ", "2 పాయింట్లు తక్కువ", "2.5 పాయింట్లు తక్కువ"),
        # Ukrainian: 1 пункт, 2 пункти, 5 пунктів; a fraction takes the genitive singular
        (
            "uk",
            "на 1 відсотковий пункт нижче",
            "на 2 відсоткові пункти нижче",
            "на 2,5 відсоткового пункту нижче",
        ),
        # the Greek document's "ποσοστιαίες μονάδες": one μονάδα, more μονάδες
        ("el", "1 μονάδα κάτω", "2 μονάδες κάτω", "2,5 μονάδες κάτω"),
    ],
)
def test_a_shortfall_of_one_point_is_singular(lang, one, two, half):
    from tests.models.shown import in_language

    with in_language(lang):
        for shortfall, words in ((1, one), (2.5, half)):
            rows = VolumeModel(shortfall=shortfall).rule_of_thumb().cells()
            # rows: the document's 2 and 3 points, then the slider's shortfall
            assert rows[0][0] == two
            assert rows[2][0] == words


@pytest.mark.parametrize(
    "games, words",
    [
        (1, "1 рейтингова гра"),
        (2, "2 рейтингові гри"),
        (5, "5 рейтингових ігор"),
        (11, "11 рейтингових ігор"),
        (21, "21 рейтингова гра"),
        (24, "24 рейтингові гри"),
    ],
)
def test_ukrainian_counts_take_their_three_forms(games, words):
    from tests.models.shown import in_language

    with in_language("uk"):
        assert f"K 32: {words} за останні 7 днів" in str(VolumeModel(games=games).your_k())


# --- what tests/site/test_browser_volume_k.py asserted in a browser ----------------------------
# The page's live outputs (``ee-live-your-k``, ``-asymmetric-table``, ``-switch-table``,
# ``-rule-of-thumb``) show the model's methods of those names; the browser audit
# (tests/site/specs/d05.py) checks that a link and a control reach them in the page.
def _row(table, first):
    """The cells of ``table``'s row whose first cell reads ``first`` (as the page shows it)."""
    rows = [r for r in table.cells() if r[0] == first]
    assert len(rows) == 1, (first, table.cells())
    return rows[0]


def test_b_at_the_slider_end_the_week_and_the_swing(view):
    # player B's games slider at its end (the End key): 300 games, both K 16 (document: 50 or
    # more) -> mirror images, +8 / −8
    b = view.controls["games_b"]
    b.value = b.max
    assert b.max == 300
    assert "ee-a-wins'>+8 / −8</span>" in view.asym_html.value
    assert "ee-b-wins'>+8 / −8</span>" in view.asym_html.value
    # the busy player's week 2, one more game a day: 7 × (3 + 13 + 2 + 9) = 189 games
    before, png = view.count_line.get_ydata().copy(), view.window_fig.image.value
    view.week_sliders[1].value = 13
    assert "189 games in four weeks" in view.window_html.value
    assert not np.array_equal(view.count_line.get_ydata(), before)  # the window figure
    assert view.window_fig.image.value != png  # ... its image redrawn
    # the weekly swing one step (10 games) more: 32 × 310 × 0.02 = 198.4
    swing = view.controls["swing_games"]
    assert swing.step == 10
    marks, png = list(view.std_marks.get_xdata()), view.swing_fig.image.value
    swing.value = 300 + swing.step
    assert "310 games in a week" in view.swing_html.value
    assert ">198 points</span>" in view.swing_html.value
    assert list(view.std_marks.get_xdata()) != marks  # the swing figure (the page's second)
    assert view.swing_fig.image.value != png  # ... its image redrawn


def test_the_tables_above_the_view_follow_it(view):
    m = view.model
    assert "K 32: 0 ranked games in the last 7 days" in str(m.your_k())
    # 60 games typed: document, 50 or more -> K 16, above and in the view
    view.controls["games"].field.text.value = "60"
    assert "K 16: 60 ranked games in the last 7 days" in str(m.your_k())
    assert "ee-k-value'>K 16</span>" in view.k_html.value
    # the weekly swing at 290 games: the document's rule of thumb K × games × shortfall,
    # 32 × 290 × 2 % = 185.6 -> 186 points (K 16: 92.8 -> 93)
    view.controls["swing_games"].value = 290
    assert "290 games in a week" in m.rule_of_thumb().to_html()
    assert _row(m.rule_of_thumb(), "2 points below") == [
        "2 points below",
        "186 points",
        "93 points",
    ]


def test_a_link_sets_the_view_and_its_link_and_a_bad_value_is_noted():
    # 50 games: K 16 (document); B with 300 games: both K 16, mirror images +8 / −8
    v = VolumeView(VolumeModel(), query="games=50&games_b=300&swing_games=100")
    assert "ee-k-value'>K 16</span>" in v.k_html.value
    assert "ee-a-wins'>+8 / −8</span>" in v.asym_html.value
    assert ">64 points</span>" in v.swing_html.value  # 32 × 100 × 0.02
    assert (
        'href="?games=50&amp;games_a=60&amp;games_b=300&amp;per_day=3%2C12%2C2%2C9'
        '&amp;swing_games=100&amp;shortfall=2.5&amp;feedback=false"'
    ) in v.link.value
    # a bad value: a note, and the document's defaults (60 vs 10 games: +8 / −16)
    bad = VolumeView(VolumeModel(), query="shortfall=lots")
    assert "shortfall=lots" in bad.notes.value
    assert "ee-a-wins'>+8 / −16</span>" in bad.asym_html.value
    assert ">192 points</span>" in bad.swing_html.value  # 32 × 300 × 0.02


def test_a_link_sets_the_tables_and_the_view_alike():
    # document: the same K on both sides -> the winner gains what the loser loses, +16 / −16
    v = VolumeView(VolumeModel(), query="games_a=10&games_b=10")
    assert "ee-a-wins'>+16 / −16</span>" in v.asym_html.value
    table = v.model.asymmetric_table()
    assert table.cells() == [["A (K 32) wins", "+16 / −16"], ["B (K 32) wins", "+16 / −16"]]
    assert "10 vs 10 games this week" in table.to_html()
