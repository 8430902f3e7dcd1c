"""Dashboard 1 (chess Elo calculator): the model, the view and the notebook, without a browser.

Sources of the asserted numbers:
  [TE]  docs/sources.md#telugu (the Telugu chess Elo calculator page)
  [UK]  docs/sources.md#ukrainian (the Ukrainian calculator)
  [B02] FIDE Rating Regulations B.02 (table 8.1.2, rule 8.3: K, the 700 rule, rounding once
        0.5 away from zero, the 400-point rule and the 2650 exemption), docs/sources.md#fide-b02
  [E]   E = 1 / (1 + 10^((opponent - own) / 400)) (docs/sources.md#telugu T3), computed by hand in
        the test
The page prints negative numbers with the minus sign U+2212 ("−").
"""

from __future__ import annotations

import contextlib
import html
import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from elo_explain.dashboards.chess_calculator import (  # noqa: E402
    SPREADS,  # noqa: E402
    CalculatorModel,
    CalculatorView,
)
from elo_explain.formats import fmt_number, fmt_signed  # noqa: E402
from elo_explain.tables import cap_example_table  # noqa: E402

M = "\u2212"
PERIOD = "Period 1500 → 1501"
CAP_ON, CAP_OFF = "1500 beats 1000, 400-point rule on", "1500 beats 1000, rule off"


def quiet(fn, *args, **kw):
    """Run a view call outside a notebook (FigureView displays to stdout there)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args, **kw)


def e400(own, opponent):
    """[E] the ÷400 formula, written out here independently of the package."""
    return 1 / (1 + 10 ** ((opponent - own) / 400))


def preset(name, **changes):
    m = CalculatorModel()
    m.apply({**CalculatorModel.presets[name], **changes})
    return m


def texts(m):
    p = m.period()
    return fmt_number(p.expected[0]), fmt_signed(p.change), fmt_number(p.new_rating, 0)


@pytest.fixture
def view():
    return quiet(CalculatorView, CalculatorModel(), query="")


# ------------------------------------------------------------------------------ model
def test_defaults_show_1500_against_1700_draw(view):
    m = view.model
    assert (m.rating, m.opponent, m.result, m.k_base) == (1500, 1700, "draw", 20)
    e, change, _ = texts(m)
    assert e == "0.24"  # [TE] 1500 vs 1700: E = 0.24
    assert change.startswith("+")  # [TE]/[UK] a draw against a stronger player gains points
    # [TE] E is points, not a chance
    assert "expected points, not a 24 % chance of winning" in view.summary.value


def test_period_preset_reproduces_the_telugu_period():
    m = preset(PERIOD)
    table = m.games_table().to_html()
    # [TE] K 20, 1500: win vs 1400 (E 0.64, +7.2), draw vs 1600 (E 0.36, +2.8),
    # loss vs 1550 (E 0.43, -8.6); total +1.4, new rating 1501
    for text in ("0.64", "+7.2", "0.36", "+2.8", "0.43", f"{M}8.6", "+1.4"):
        assert f"<td>{text}</td>" in table, text
    assert texts(m)[1:] == ("+1.4", "1501")


@pytest.mark.parametrize(
    "cap, e, win, loss",
    [
        (True, "0.91", "+1.8", f"{M}18.2"),  # [TE] with the cap: E 0.91, +1.8; a loss costs 18.2
        (False, "0.95", "+1.1", f"{M}18.9"),  # [TE] real difference 500: E 0.95, about +1.1; 18.9
    ],
)
def test_1500_beats_1000_with_and_without_the_cap(cap, e, win, loss):
    m = preset(CAP_ON if cap else CAP_OFF)
    assert m.cap_400 is cap
    assert texts(m)[:2] == (e, win)
    m.result = "loss"
    assert texts(m)[1] == loss


def test_single_game_table_shows_both_sides_of_the_cap():
    table = preset(CAP_ON).outcomes_table().to_html()
    assert "400-point rule applied" in table and "real difference" in table
    for text in ("0.91", "+1.8", f"{M}18.2", "0.95", "+1.1", f"{M}18.9"):  # [TE]
        assert f"<td>{text}</td>" in table, text


def test_cap_example_table_holds_every_printed_number():
    html = cap_example_table().to_html()
    for text in ("0.95", "+1.1", f"{M}18.9", "0.91", "+1.8", f"{M}18.2"):  # [TE]
        assert f"<td>{text}</td>" in html, text


def test_presets_are_the_documents_examples():
    assert set(CalculatorModel.presets) == {"1500 vs 1700: a draw gains", PERIOD, CAP_ON, CAP_OFF}


def test_average_opponent_mode_is_the_ukrainian_formula():
    m = CalculatorModel(mode="average", average=1500, n_games=5, points=3.5)
    # [UK] new = Ra + K(points - G E); equal ratings give E 0.5: 1500 + 20 (3.5 - 2.5) = 1520
    assert texts(m)[1:] == ("+20.0", "1520")
    assert fmt_number(m.period().expected_points) == "2.50"  # expected points G·E = 5 × 0.5
    m.points = 5.5
    with pytest.raises(ValueError, match="Points must be a multiple of 0.5 from 0 to the games G"):
        m.period()


def test_fide_table_toggle_uses_table_8_1_2():
    m = preset(CAP_ON, method="table")
    # [B02] table 8.1.2: 392-411 -> 0.92 (the cap makes 500 count as 400); 20 × 0.08 = 1.6;
    # rounded once, 0.5 away from zero: +1.6 -> +2
    assert texts(m) == ("0.92", "+1.6", "1502")


@pytest.mark.parametrize("result, new", [("win", "2001"), ("loss", "1990")])
def test_period_change_rounds_half_away_from_zero(result, new):
    m = CalculatorModel(
        rating=2000, opponent=1530, result=result, k=10, method="table", cap_400=False
    )
    # [B02] difference 470 is in 457-484 -> PD 0.95; K 10: a win +0.5 -> +1, a loss -9.5 -> -10
    # (Python's round() would give 0 and -10: the win case tells them apart)
    assert texts(m)[2] == new


def test_2650_exemption_and_the_period_selector(view):
    m = view.model
    m.apply({"rating": 2700, "opponent": 2200, "result": "win", "on": "2026-01-01"})
    assert texts(m)[0] == "0.95"  # [B02] since 2025-10-01 2650+ uses the real difference (500)
    assert "exempt" in view.summary.value
    m.on = "2025-01-01"
    assert texts(m)[0] == "0.91"  # [B02] before 2025-10-01 the cap applies to everyone (400)
    assert "every player" in view.summary.value


def test_k_from_profile_names_the_rule(view):
    m = view.model
    m.apply({"k": "profile", "rating": 1800, "rated_games": 12})
    assert m.k_base == 40 and "30" in view.summary.value  # [TE]/[B02] K 40 until 30 games
    m.apply({"rated_games": 300, "reached_2400": True, "rating": 2350})
    assert m.k_base == 10 and "for good" in view.summary.value  # [TE] stays 10 after 2400
    m.apply({"reached_2400": False, "rating": 2100, "birth_year": 2008, "on": "2026-01-01"})
    assert m.k_base == 40 and "junior" in view.summary.value  # [TE] K 40 to the 18th year, < 2300
    m.rating = 2350
    assert m.k_base == 20  # [TE] the junior K 40 needs a rating under 2300
    m.apply({"rating": 2100, "birth_year": 1990})
    assert m.k_base == 20  # [TE] K 20 under 2400


def test_700_rule_in_average_mode(view):
    view.model.apply({"mode": "average", "average": 1500, "n_games": 20, "points": 10, "k": 40})
    # [TE] a junior with K 40 and 20 games: 800 > 700, K 35 for the period
    assert "40 × 20 games = 800 &gt; 700" in view.summary.value
    assert "so K 35 for this period" in view.summary.value
    assert "K 35" in view.summary.value


# ---------------------------------------------------------------- the average-opponent shortcut
def test_shortcut_against_the_per_game_sum_by_hand():
    # 1500 against 1600 (win) and 2000 (loss), K 20, average 1800:
    # per game 20 (1 - E(1600) - E(2000)), shortcut 20 (1 - 2 E(1800)) [UK]
    m = CalculatorModel(rating=1500, opponents=[1600, 2000], results=["win", "loss"])
    per_game = 20 * (1 - e400(1500, 1600) - e400(1500, 2000))
    shortcut = 20 * (1 - 2 * e400(1500, 1800))
    a = m.averaging()
    assert a["per_game"] == pytest.approx(per_game, abs=1e-9)  # +11.74
    assert a["shortcut"] == pytest.approx(shortcut, abs=1e-9)  # +13.96
    assert a["error"] == pytest.approx(2.2243, abs=1e-4)  # written out: 13.9608 - 11.7365
    assert (a["average"], a["spread"]) == (1800, 200)
    # the curve at spread 200 is the same pair of opponents (1800 ± 200); at 0 no error
    err = m.averaging_error([0, 200])
    assert err[0] == 0 and err[1] == pytest.approx(a["error"], abs=1e-9)
    table = m.averaging_table().to_html()
    assert "<td>+2.22</td>" in table


def test_shortcut_on_the_telugu_period():
    m = preset(PERIOD)
    a = m.averaging()
    assert fmt_signed(a["per_game"]) == "+1.4"  # [TE] the period's total
    # [UK] shortcut: 1500 + 20 (1.5 - 3 E(1516.67)); E = 0.47602 -> +1.44
    assert a["shortcut"] == pytest.approx(20 * (1.5 - 3 * e400(1500, 4550 / 3)), abs=1e-9)
    assert abs(a["error"]) < 0.02  # opponents within 100 points: the shortcut is safe
    # symmetric around one's own rating the errors cancel for any spread: E(d) + E(-d) = 1
    m.apply({"opponents": [1300, 1700], "results": ["win", "loss"]})
    assert max(abs(m.averaging_error())) < 1e-9


def test_averaging_error_grows_with_the_spread():
    m = CalculatorModel(rating=1500, opponents=[1700, 1700], results=["draw", "draw"])
    err = m.averaging_error()
    # by hand at spread 400: 20 (E(1300) + E(2100) - 2 E(1700))
    at400 = 20 * (e400(1500, 1300) + e400(1500, 2100) - 2 * e400(1500, 1700))
    assert err[list(SPREADS).index(400)] == pytest.approx(at400, abs=1e-9)
    assert err[list(SPREADS).index(100)] < err[list(SPREADS).index(200)] < at400


# ---------------------------------------------------------------------------- widgets
def test_view_defaults_and_typed_values(view):
    assert "ee-ready" in view._dom_classes
    assert '"ee-value ee-big ee-e">0.24<' in view.summary.value  # [TE]
    view.controls["opponent"].text.value = "1600"
    # 1500 against 1600: E 0.36 ([TE] the period's draw against 1600)
    assert '"ee-value ee-big ee-e">0.36<' in view.summary.value
    assert view.status.value == ""


def test_bad_typed_value_shows_message_and_keeps_working(view):
    before = view.summary.value
    opponent = view.controls["opponent"]
    opponent.text.value = "abc"
    assert "Opponent" in opponent.error and "100 to 3500" in opponent.error
    assert view.summary.value == before  # last good value kept
    opponent.text.value = "1600"
    assert opponent.error == "" and ">0.36<" in view.summary.value
    view.controls["rating"].text.value = "99999"
    assert "Your rating must be a whole number from 100 to 3500" in view.controls["rating"].error


def test_preset_menu_loads_the_documents_examples(view):
    view.preset.value = PERIOD
    assert view.model.mode == "games" and len(view.rows_box.children) == 3
    assert '"ee-value ee-big ee-change">+1.4<' in view.summary.value  # [TE]
    assert '"ee-value ee-big ee-new">1501<' in view.summary.value  # [TE]
    assert f"Change per game: +7.2, +2.8, {M}8.6" in view.summary.value  # [TE]
    # [UK] the shortcut +1.44 against [TE] the per-game sum +1.43
    assert "shortcut +1.44 vs per-game sum +1.43" in view.summary.value
    view.preset.value = CAP_ON  # [TE] with the cap a loss costs 18.2, without it 18.9
    assert f"loss {M}18.2; with the real difference: win +1.1" in view.summary.value
    assert f"loss {M}18.9" in view.summary.value
    view.preset.value = CAP_OFF
    assert ">0.95<" in view.summary.value and ">+1.1<" in view.summary.value  # [TE]
    view.controls["opponent"].text.value = "1001"
    assert view.preset.value == "Custom"


def test_game_rows_add_remove_and_edit(view):
    view.preset.value = PERIOD
    for _ in range(97):  # a listed period takes 100 games ([TE] periods of 20, 40)
        view.add.click()
    assert len(view.rows_box.children) == 100 and len(view.model.opponents) == 100
    assert view.add.disabled
    view.add.click()  # a 101st row is refused with a visible message, no traceback
    assert "at most 100 games" in view.status.value
    for _ in range(99):
        view.remove.click()
    assert len(view.model.opponents) == 1 and view.remove.disabled
    field, result, _ = view.rows[0]
    result.value = "draw"
    field.text.value = "1700"
    assert ">0.24<" in view.summary.value  # [TE] 1500 vs 1700
    field.text.value = "x"
    assert "Game 1: opponent" in field.error


def test_mode_switch_hides_the_other_inputs(view):
    view.model.mode = "average"
    assert view.average_box.layout.display == "" and view.single_box.layout.display == "none"
    points = view.controls["points"].slider
    view.model.n_games = 4
    assert points.max == 4
    points.value = 3.5
    assert view.model.points == 3.5
    view.model.n_games = 2  # the points slider is clamped to the new G
    assert points.value == 2 and view.model.points == 2
    assert view.status.value == ""


def test_figure_count_flat_after_12_moves(view):
    before = len(plt.get_fignums())
    view.model.mode = "average"
    for i in range(12):
        view.model.n_games = 1 + i % 30
    for i in range(12):
        view.controls["rating"].text.value = str(1400 + 7 * i)
    view.model.mode = "games"
    for i in range(20):
        view.rows[0][0].text.value = str(1400 + 9 * i)
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""


def test_plot_marks_the_current_game(view):
    x, y = view.marks.get_data()
    assert list(x) == [-200] and round(float(y[0]), 2) == 0.24  # [TE] 1500 vs 1700
    view.preset.value = PERIOD
    x, y = view.marks.get_data()
    assert sorted(x) == [-100, -50, 100]  # [TE] the period's three differences
    # the averaging figure is the notebook's (above the view), which follows the listed games
    x, y = view.model.averaging_figure().figure.axes[0].lines[1].get_data()
    assert round(float(x[0])) == 85  # std of 1400, 1600, 1550: sqrt((116.7² + 83.3² + 33.3²) / 3)


def test_link_sets_the_start_and_bad_values_are_noted():
    v = quiet(
        CalculatorView,
        CalculatorModel(),
        query="rating=1500&opponent=1000&result=win&k=20&cap_400=false&colour=red&k=7",
    )
    assert texts(v.model)[:2] == ("0.95", "+1.1")  # [TE] the real difference 500
    assert "colour (not a setting of this page)" in v.notes.value
    assert "k=7" in v.notes.value
    v = quiet(CalculatorView, CalculatorModel(), query="result=lose&rating=abc")
    assert (v.model.result, v.model.rating) == ("draw", 1500)
    assert "result=lose" in v.notes.value and "rating=abc" in v.notes.value


def test_a_bad_list_in_a_link_is_noted_in_plain_words():
    # a result that is none of win / draw / loss, an opponent that is no number: each named,
    # with what the setting takes and what the page keeps (the Telugu document's period)
    v = quiet(CalculatorView, CalculatorModel(), query="results=win,lose&opponents=1500,abc")
    note = html.unescape(v.notes.value)
    assert (
        "results=win,lose (Results must be a list separated by commas, each one of win, "
        "draw, loss, got win,lose; the page keeps win,draw,loss)"
    ) in note
    assert (
        "opponents=1500,abc (Opponent must be a whole number between 100 and 3500, got abc; "
        "the page keeps 1400,1600,1550)"
    ) in note
    assert "Python" not in note and "trait" not in note and "Enum" not in note


# ------------------------------------------------ the documents' calculators first, FIDE beside
def summary_of(view, **values):
    view.model.apply(values)
    return html.unescape(view.summary.value)


@pytest.mark.parametrize(
    "values, calculator, fide, why",
    [
        # [UK] Ra + K(points - G E) with the K chosen: K 40, 20 games, 10 points against 1600
        # -> 1612.05; FIDE [B02] lowers K to 35 (40 × 20 = 800 > 700) and rounds once: 1598
        (
            {"k": 40, "average": 1600, "n_games": 20, "points": 10},
            "1612.05",
            "1598",
            "700 rule: K 40 → 35",
        ),
        # [UK] 5 of 5 against an average of 1000, K 20: no cap, 1505.32; FIDE caps +500 at +400
        (
            {"k": 20, "average": 1000, "n_games": 5, "points": 5},
            "1505.32",
            "1509",
            "400-point rule: +500 counts as +400",
        ),
        # [UK] equal ratings, E 0.5: 1500 + 20 (3.5 - 2.5) = 1520.00; FIDE the same
        ({"k": 20, "average": 1500, "n_games": 5, "points": 3.5}, "1520.00", "1520", None),
    ],
)
def test_average_opponent_is_the_ukrainian_formula_and_fide_beside(
    view, values, calculator, fide, why
):
    text = summary_of(view, mode="average", **values)
    assert f'ee-new">{calculator}<' in text and "The Ukrainian calculator" in text
    assert f'ee-fide-new">{fide}<' in text
    if why:
        assert "FIDE rates these games differently" in text and why in text
    else:
        assert "FIDE rates these games the same" in text
    # by hand, [UK]: the formula against the average, unrounded
    c = view.model.calculator()
    e = e400(1500, values["average"])
    assert c.new_rating == pytest.approx(
        1500 + values["k"] * (values["points"] - values["n_games"] * e), abs=1e-9
    )


def test_telugu_single_game_with_a_typed_k_25(view):
    # [TE] T8: 1500 against 1700, E 0.24; K 25 typed by the reader: 25 (0.5 - E) = +6.49,
    # shown as a whole number 1506 (the Telugu calculator), FIDE the same
    view.k_own.text.value = "25"
    assert view.model.k == 25 and view.controls["k"].value is None  # no button pressed
    text = html.unescape(view.summary.value)
    assert fmt_signed(25 * (0.5 - e400(1500, 1700))) == "+6.5"
    assert 'ee-change">+6.5<' in text and 'ee-new">1506<' in text
    assert "The Telugu calculator, K 25" in text and "FIDE rates these games the same" in text
    assert "K 25 chosen by hand" in text
    view.controls["k"].value = 40  # a button again: the typed box follows
    assert view.model.k == 40 and view.k_own.text.value == "40"


@pytest.mark.parametrize("typed", ["0", "101", "2.5", "abc"])
def test_a_typed_k_outside_1_to_100_is_refused(view, typed):
    view.k_own.text.value = typed
    assert view.model.k == 20 and "1 to 100" in view.k_own.error


def test_k_buttons_say_who_each_k_is_for(view):
    # [TE] T11-T14: K 40 new players and juniors, K 20 below 2400, K 10 from 2400
    labels = [label for label, _ in view.controls["k"].options]
    assert labels[:3] == [
        "K 40: new and young players",
        "K 20: most players, below 2400",
        "K 10: 2400 and above",
    ]


def test_a_k_of_ones_own_in_a_link_and_a_bad_one_noted():
    v = quiet(CalculatorView, CalculatorModel(), query="k=25")
    assert v.model.k == 25 and v.k_own.text.value == "25" and v.notes.value == ""
    v = quiet(CalculatorView, CalculatorModel(), query="k=101")
    assert v.model.k == 20 and "k=101" in v.notes.value and "between 1 and 100" in v.notes.value


def test_the_telugu_period_keeps_the_users_k_fide_lowers_it(view):
    # [TE] T15/T16: K 40 and 20 games: FIDE's 700 rule gives K 35; the calculator keeps the
    # K the user set (the page tells them to set it by the 700 rule themselves)
    view.model.mode = "games"
    view.games_text.value = "\n".join(["1500 win", "1500 loss"] * 10)  # 20 games pasted
    assert len(view.model.opponents) == 20 and len(view.rows_box.children) == 20
    text = summary_of(view, k=40)
    assert "The Telugu calculator, K 40" in text and 'ee-new">1500<' in text  # 10 of 20 at E 0.5
    assert 'ee-fide-new">1500<' in text and "700 rule: K 40 → 35" in text


def test_a_pasted_list_of_100_games_and_a_bad_row(view):
    view.model.mode = "games"
    view.games_text.value = ", ".join(["1700 draw"] * 100)
    assert len(view.model.opponents) == 100 and view.games_error.value == ""
    # [TE] E 0.24 against a player 200 up: 100 draws, K 20: 20 × 100 × (0.5 - E)
    c = view.model.calculator()
    assert c.change == pytest.approx(20 * 100 * (0.5 - e400(1500, 1700)), abs=1e-9)
    view.games_text.value = ", ".join(["1700 draw"] * 101)
    assert "1 to 100 games" in view.games_error.value and len(view.model.opponents) == 100
    view.games_text.value = "1400 win\n1600 won"
    assert "row 2" in html.unescape(view.games_error.value)
    assert len(view.model.opponents) == 100  # the last good list is kept
    view.games_text.value = "1400 1, 1600 ½; 1550 0"  # [TE] the period, in scores
    assert view.model.results == ["win", "draw", "loss"]
    assert 'ee-new">1501<' in view.summary.value  # [TE] +1.4, new rating 1501
    # the rows follow the list, the list follows a row
    view.rows[0][0].text.value = "1450"
    assert view.games_text.value.splitlines()[0] == "1450 win"


# ------------------------------------------------------ what the page showed in the browser tests
# The facts test_browser_chess_calculator.py asserted in a page, here at model and view level:
# the view's widgets (the HTML they hold, the figure's PNG) and the notebook's live outputs
# above the view (``ee-live-<method>``: the model's method, following it). What only a browser
# shows is in tests/site/specs/d01.py (a link, the 400-point rule switched on, a bad link).
import json  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

from tests.models.shown import caption, live, row  # noqa: E402

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "01_chess_calculator.ipynb"


def link_query(v) -> str:
    """The query of the view's "Link to this view"."""
    return html.unescape(re.search(r'href="\?([^"]*)"', v.link.value).group(1))


def test_the_notebooks_text_above_the_calculator():
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    items = [" ".join(item.split()) for item in re.split(r"\n- ", text)[1:]]
    # [TE]/[UK] E below 0.5 against a stronger player: a draw gains
    assert any("A draw against a stronger player gains points" in item for item in items)
    # [B02] table 8.1.2 against the ÷400 formula: [TE] at 400 points 0.92 vs 0.91
    (table,) = [item for item in items if "table 8.1.2" in item and "0.92" in item]
    assert "0.92 vs 0.91" in table


def test_the_tables_above_the_view_at_the_defaults():
    m = CalculatorModel()
    outcomes, games, example = (
        live(m, "outcomes_table"),
        live(m, "games_table"),
        cap_example_table().to_html(),
    )
    quiet(CalculatorView, m, query="")
    assert caption(outcomes.value) == "1500 against 1700: every result"  # [TE] the default game
    # [TE] the period, at the defaults: win vs 1400 (E 0.64, +7.2), draw vs 1600 (E 0.36,
    # +2.8), loss vs 1550 (E 0.43, -8.6); total +1.4, new rating 1501
    assert "every game from the starting ratings" in caption(games.value)
    assert "new rating 1501" in caption(games.value)
    for text in ("0.64", "+7.2", "0.36", "+2.8", "0.43", f"{M}8.6", "+1.4"):
        assert f"<td>{text}</td>" in games.value, text
    assert "The Telugu document's example" in html.unescape(example)  # [TE], its numbers above


def test_a_typed_opponent_moves_the_mark_and_redraws_the_curve(view):
    before = view.fig.image.value
    view.controls["opponent"].text.value = "1600"
    assert '"ee-value ee-big ee-e">0.36<' in view.summary.value  # [TE] the period's 1600
    assert list(view.marks.get_data()[0]) == [-100] and view.fig.image.value != before
    opponent = view.controls["opponent"]
    opponent.text.value = "abc"  # a message naming the field and its range; 0.36 kept
    assert "Opponent" in opponent.error and "100 to 3500" in opponent.error
    assert ">0.36<" in view.summary.value
    opponent.text.value = "1700"
    assert '"ee-value ee-big ee-e">0.24<' in view.summary.value and opponent.error == ""  # [TE]


def test_the_cap_example_then_the_rule_off_then_fides_table(view):
    outcomes = live(view.model, "outcomes_table")
    before = view.fig.image.value
    view.preset.value = CAP_ON  # [TE] 1500 beats 1000 with the cap: E 0.91, +1.8; loss -18.2
    text = html.unescape(view.summary.value)
    assert 'ee-e">0.91<' in text and 'ee-change">+1.8<' in text
    detail = re.search(r'ee-outcomes">(.*?)</div>', text).group(1)
    assert f"{M}18.2" in detail and f"{M}18.9" in detail  # [TE] 18.9 with the real difference
    assert view.fig.image.value != before
    view.controls["cap_400"].value = False  # [TE] the rule off: E 0.95, about +1.1
    text = html.unescape(view.summary.value)
    assert 'ee-e">0.95<' in text and 'ee-change">+1.1<' in text
    view.controls["method"].value = "table"
    # FIDE's table instead of the formula: [B02] 500 (485-517) -> 0.96 in the notebook's table of
    # the real difference; FIDE beside the calculator caps 1500's +500 at +400 -> 0.92, and the
    # calculator's E stays the document's ÷400 formula ([TE] 0.95 with the rule off)
    assert row(outcomes.value, "E") == ["E", "0.96", ""]
    text = html.unescape(view.summary.value)
    fide_line = re.search(r'<div class="ee-fide">(.*?)</div>', text).group(1)
    assert "400-point rule: +500 counts as +400" in fide_line
    assert "table 8.1.2: E 0.92" in fide_line
    assert 'ee-e">0.95<' in text


def test_a_period_pasted_as_a_list(view):
    view.model.mode = "games"
    view.games_text.value = "1500 win"  # another list first
    assert len(view.rows_box.children) == 1
    # [TE] T10: the period pasted as a list: +1.4, new rating 1501 (K 20); the rows follow
    view.games_text.value = "1400 win, 1600 draw, 1550 loss"
    assert 'ee-new">1501<' in view.summary.value and 'ee-change">+1.4<' in view.summary.value
    assert view.rows[2][0].text.value == "1550" and len(view.rows_box.children) == 3


def test_the_period_edited_row_by_row_and_the_table_above(view):
    games = live(view.model, "games_table")
    view.preset.value = PERIOD
    assert "E per game: 0.64, 0.36, 0.43" in view.summary.value  # [TE]
    # game 3 a draw against 1550 instead of a loss: K 20 × ½ more, [TE] +1.43 + 10 = +11.4
    view.rows[2][1].value = "draw"
    by_hand = 20 * (2 - e400(1500, 1400) - e400(1500, 1600) - e400(1500, 1550))
    assert fmt_signed(by_hand) == "+11.4"
    assert 'ee-change">+11.4<' in view.summary.value
    assert row(games.value, "Total")[5] == "+11.4"
    # a game added: a win against 1500 (E 0.5): +10 more
    view.add.click()
    assert len(view.rows_box.children) == 4 and view.rows[3][0].text.value == "1500"
    assert fmt_signed(by_hand + 20 * (1 - e400(1500, 1500))) == "+21.4"
    assert 'ee-change">+21.4<' in view.summary.value


def test_the_averaging_figure_above_the_view_follows_the_listed_games(view):
    figure = live(view.model, "averaging_figure")
    # the listed games (the defaults: [TE] the period) spread ±85 around 1516.7, by hand
    # sqrt((116.7² + 83.3² + 33.3²) / 3)
    assert '<img class="ee-figure"' in figure.value and "spread 85," in figure.value
    before = figure.value
    view.preset.value = PERIOD
    view.rows[0][0].text.value = "1300"  # a wider field: another spread, another error
    assert '<img class="ee-figure"' in figure.value and figure.value != before


def test_the_average_opponent_mode_and_its_games_slider(view):
    view.model.mode = "average"  # the defaults: 5 games against an average of 1600, 3 points
    # [UK] R + K (points - G E): 20 (3 - 5 × 0.36) = +24.0 (E against 1600 = 0.3599)
    assert fmt_signed(20 * (3 - 5 * e400(1500, 1600))) == "+24.0"
    assert 'ee-change">+24.0<' in view.summary.value
    before = view.fig.image.value
    view.controls["n_games"].slider.value = 6  # G 6, still 3 points: 20 (3 - 6 × 0.3599)
    assert fmt_signed(20 * (3 - 6 * e400(1500, 1600))) == "+16.8"
    assert 'ee-change">+16.8<' in view.summary.value and view.fig.image.value != before


LINK_1000 = "rating=1500&opponent=1000&result=win&k=20&cap_400=false"


def test_a_link_sets_the_view_and_the_tables_alike_and_its_link_reproduces_it():
    m = CalculatorModel()
    outcomes = live(m, "outcomes_table")
    v = quiet(CalculatorView, m, query=LINK_1000)
    # [TE] 1500 beats 1000 with the real difference (rule off): E 0.95, about +1.1, in both
    assert texts(m)[:2] == ("0.95", "+1.1") and v.notes.value == ""
    assert 'ee-e">0.95<' in v.summary.value and 'ee-change">+1.1<' in v.summary.value
    assert caption(outcomes.value) == "1500 against 1000: every result"
    assert row(outcomes.value, "E") == ["E", "0.95", ""]
    assert row(outcomes.value, "Win") == ["Win", "+1.1", "1501"]
    # the reader changes the view; its link reproduces it: [TE] a loss costs 18.9
    v.controls["result"].value = "loss"
    assert f'ee-change">{M}18.9<' in v.summary.value
    query = link_query(v)
    assert "result=loss" in query
    again = quiet(CalculatorView, CalculatorModel(), query=query)
    assert texts(again.model)[:2] == ("0.95", f"{M}18.9") and again.notes.value == ""


def test_a_bad_link_is_noted_and_the_defaults_stay():
    v = quiet(CalculatorView, CalculatorModel(), query="result=lose&colour=red&opponent=1700")
    assert "result=lose" in v.notes.value and "colour" in v.notes.value
    assert '"ee-value ee-big ee-e">0.24<' in v.summary.value  # [TE] 1500 vs 1700


def test_the_table_above_follows_a_typed_opponent_both_sides_of_the_cap(view):
    outcomes = live(view.model, "outcomes_table")
    view.controls["opponent"].text.value = "1000"
    # [TE] 1500 against 1000, K 20: with the cap E 0.91 (a win +1.8, a loss −18.2), with the
    # real difference E 0.95 (+1.1, −18.9)
    assert caption(outcomes.value) == "1500 against 1000: every result"
    assert row(outcomes.value, "E") == ["E", "0.91", "", "0.95", ""]
    assert row(outcomes.value, "Win") == ["Win", "+1.8", "1502", "+1.1", "1501"]
    assert row(outcomes.value, "Loss") == ["Loss", f"{M}18.2", "1482", f"{M}18.9", "1481"]


# ----------------------------------------------------------------- the page in the documents' languages
from elo_explain import translate  # noqa: E402
from elo_explain.i18n import set_language  # noqa: E402
from tests.models.shown import figure_texts, shown_text  # noqa: E402

#: [TE] 1500 vs 1700: E 0.24; the period's changes +7.2, +2.8, -8.6 -- in each language's
#: numbers (terms.md: Telugu writes a decimal point, Ukrainian and Greek a decimal comma;
#: the product's minus U+2212).
LANGUAGE_NUMBERS = {
    "te": ("0.24", f"+7.2, +2.8, {M}8.6"),
    "uk": ("0,24", f"+7,2, +2,8, {M}8,6"),
    "el": ("0,24", f"+7,2, +2,8, {M}8,6"),
}


@pytest.fixture
def language(request):
    set_language(request.param)
    yield request.param
    set_language("en")


def every_text(v) -> str:
    """The page: the view, the notebook's tables and its figure, in every mode."""
    m, parts = v.model, []
    for mode in ("single", "games", "average"):
        m.mode = mode
        parts.append(shown_text(v))
    m.apply(CalculatorModel.presets[CAP_ON])  # the one-game table with both sides of the cap
    picture = m.averaging_figure()
    parts += [shown_text(v), *figure_texts(picture.figure, picture.alt)]
    parts += [
        m.outcomes_table().to_html(),
        m.games_table().to_html(),
        m.averaging_table().to_html(),
        cap_example_table().to_html(),
    ]
    m.k = "profile"
    parts.append(shown_text(v))
    return "\n".join(parts)


@pytest.mark.parametrize("language", ["te", "uk", "el"], indirect=True)
def test_the_page_in_the_documents_languages_has_no_english_left(language):
    v = quiet(CalculatorView, CalculatorModel(), query="")
    e, changes = LANGUAGE_NUMBERS[language]
    assert f'"ee-value ee-big ee-e">{e}<' in v.summary.value  # [TE] E 0.24
    v.preset.value = PERIOD
    assert changes in v.summary.value  # [TE] +7.2, +2.8, -8.6
    text = every_text(v)
    assert translate.english_left(text, language) == []
    # short strings english_left does not look for (fewer than three words of two letters)
    for english in ("Expected score E", "Several games", "New rating", "K-factor", "this game"):
        assert english not in text, english
    # a bad pasted row: the message in the page's language, naming the row
    v.model.mode = "games"
    v.games_text.value = "1400 1\n1600 x"
    message = html.unescape(v.games_error.value)
    assert translate.english_left(message, language) == [] and "2" in message
    assert "row" not in message


@pytest.mark.parametrize("language", ["uk", "el"], indirect=True)
def test_the_period_table_holds_numbers_shown_with_a_decimal_comma(language):
    table = preset(PERIOD).games_table()
    # [TE] win vs 1400 (E 0.64, +7.2), draw vs 1600 (E 0.36, +2.8), loss vs 1550 (E 0.43, -8.6)
    rows = table.rows
    assert [r[1] for r in rows[:3]] == [1400, 1600, 1550]
    assert [round(r[4], 2) for r in rows[:3]] == [0.64, 0.36, 0.43]
    assert [round(r[5], 1) for r in rows[:3]] == [7.2, 2.8, -8.6]
    assert round(rows[3][5], 1) == 1.4  # [TE] total +1.4
    assert all(isinstance(x, (int, float)) for r in rows[:3] for x in (r[1], r[3], r[4], r[5]))
    cells = table.cells()
    assert [c[4] for c in cells[:3]] == ["0,64", "0,36", "0,43"]
    assert [c[5] for c in cells] == ["+7,2", "+2,8", f"{M}8,6", "+1,4"]
    # [TE] with the cap, 1500 beats 1000: E 0.91, +1.8; a loss costs 18.2 (real difference 18.9)
    one = preset(CAP_ON).outcomes_table()
    assert round(one.rows[0][1], 2) == 0.91 and round(one.rows[0][3], 2) == 0.95
    assert round(one.rows[1][1], 1) == 1.8 and round(one.rows[3][1], 1) == -18.2
    cells = one.cells()
    assert cells[0][1:4:2] == ["0,91", "0,95"]
    assert cells[3][1] == f"{M}18,2" and cells[3][3] == f"{M}18,9"


def test_english_tables_are_unchanged_by_the_numbers_in_rows():
    # the English cells as the page has always printed them ([TE] the period)
    cells = preset(PERIOD).games_table().cells()
    assert cells[0] == ["1", "1400", "Win", "+100", "0.64", "+7.2"]
    assert cells[3] == ["Total", "", "1.5", "", "1.43", "+1.4"]
    assert preset(CAP_ON).outcomes_table().cells()[0] == ["E", "0.91", "", "0.95", ""]


@pytest.mark.parametrize("language", ["uk"], indirect=True)
def test_a_pasted_period_in_the_pages_words(language):
    # [TE] the period, as a Ukrainian reader types it ([UK] перемога / нічия / поразка)
    v = quiet(CalculatorView, CalculatorModel(), query="")
    v.model.mode = "games"
    v.games_text.value = "1400 перемога, 1600 нічия; 1550 поразка"
    assert v.model.results == ["win", "draw", "loss"] and v.games_error.value == ""
    assert 'ee-new">1501<' in v.summary.value
    v.model.opponents = [1400, 1600]
    v.model.results = ["win", "draw"]
    assert v.games_text.value == "1400 перемога\n1600 нічия"
