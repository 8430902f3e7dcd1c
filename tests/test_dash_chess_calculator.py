"""Dashboard 1 (chess Elo calculator): the model and the widgets, without a browser.

Sources of the asserted numbers:
  [TE]  /work/shared/seeds/000_7fd785a203dc48e3.txt (Telugu chess Elo calculator page),
        digested in /work/shared/spec/rules.md section A
  [UK]  /work/shared/seeds/002_3a6faaf89c39e7dc.txt (Ukrainian calculator), rules.md section B
  [B02] FIDE Rating Regulations B.02 (table 8.1.2, rule 8.3: K, the 700 rule, rounding once
        0.5 away from zero, the 400-point rule and the 2650 exemption), rules.md section D
The page prints negative numbers with the minus sign U+2212 ("−").
"""

from __future__ import annotations

import contextlib
import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from elo_explain.dashboards.chess_calculator import (  # noqa: E402
    PRESETS, CalculatorModel, CalculatorView,
)

M = "\u2212"


def quiet(fn, *args):
    """Run a view call outside a notebook (FigureView displays to stdout there)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args)


@pytest.fixture
def view():
    return quiet(CalculatorView)


# ------------------------------------------------------------------------------ model
def test_defaults_show_1500_against_1700_draw():
    m = CalculatorModel()
    assert (m.rating, m.opponent, m.result, m.k_base) == (1500, 1700, "Draw", 20)
    assert m.e_text() == "0.24"  # [TE] 1500 vs 1700: E = 0.24
    # [TE]/[UK] a draw against a stronger player gains points
    assert m.change_text().startswith("+")
    html = m.summary_html()
    assert "expected points, not a 24 % chance of winning" in html  # [TE] E is points, not a chance


def test_period_preset_reproduces_the_telugu_period():
    m = CalculatorModel()
    m.load_preset("period")
    table = m.detail_html()
    # [TE] K 20, 1500: win vs 1400 (E 0.64, +7.2), draw vs 1600 (E 0.36, +2.8),
    # loss vs 1550 (E 0.43, -8.6); total +1.4, new rating 1501
    for text in ("0.64", "+7.2", "0.36", "+2.8", "0.43", f"{M}8.6", "+1.4"):
        assert f"<td>{text}</td>" in table, text
    assert m.change_text() == "+1.4"
    assert m.new_rating_text() == "1501"


@pytest.mark.parametrize("cap, e, win, loss", [
    (True, "0.91", "+1.8", f"{M}18.2"),   # [TE] with the cap: E 0.91, +1.8; a loss costs 18.2
    (False, "0.95", "+1.1", f"{M}18.9"),  # [TE] real difference 500: E 0.95, about +1.1; 18.9
])
def test_1500_beats_1000_with_and_without_the_cap(cap, e, win, loss):
    m = CalculatorModel()
    m.load_preset("cap_on" if cap else "cap_off")
    assert m.cap_400 is cap
    assert (m.e_text(), m.change_text()) == (e, win)
    m.result = "Loss"
    assert m.change_text() == loss


def test_single_game_table_shows_both_sides_of_the_cap():
    m = CalculatorModel()
    m.load_preset("cap_on")
    table = m.detail_html()
    assert "400-point rule applied" in table and "real difference" in table
    for text in ("0.91", "+1.8", f"{M}18.2", "0.95", "+1.1", f"{M}18.9"):  # [TE]
        assert f"<td>{text}</td>" in table, text


def test_examples_table_at_defaults_holds_every_printed_number():
    html = CalculatorModel().examples_html()
    for text in ("0.24", "0.64", "+7.2", "0.36", "+2.8", "0.43", f"{M}8.6", "+1.4",
                 "new rating 1501", "0.95", "+1.1", f"a loss: {M}18.9", "0.91", "+1.8",
                 f"a loss: {M}18.2"):  # [TE]
        assert f">{text}<" in html, text
    assert ">0.92 vs 0.91<" in html  # [TE] at 400 the table gives 0.92, the formula 0.91


def test_presets_are_the_documents_examples():
    assert set(PRESETS) == {"draw_up", "period", "cap_on", "cap_off"}
    with pytest.raises(ValueError, match="preset must be one of"):
        CalculatorModel().load_preset("nope")


def test_average_opponent_mode_is_the_ukrainian_formula():
    m = CalculatorModel()
    m.mode, m.average_opponent, m.n_games, m.points = "average", 1500, 5, 3.5
    # [UK] new = Ra + K(points - G E); equal ratings give E 0.5: 1500 + 20 (3.5 - 2.5) = 1520
    assert m.change_text() == "+20.0"
    assert m.new_rating_text() == "1520"
    assert "2.50" in m.summary_html()  # expected points G·E = 5 × 0.5


def test_fide_table_toggle_uses_table_8_1_2():
    m = CalculatorModel()
    m.load_preset("cap_on")
    m.method = "FIDE table 8.1.2"
    # [B02] table 8.1.2: 392-411 -> 0.92 (the cap makes 500 count as 400); 20 × 0.08 = 1.6
    assert (m.e_text(), m.change_text()) == ("0.92", "+1.6")
    # [B02] rounded once, 0.5 away from zero: +1.6 -> +2
    assert m.new_rating_text() == "1502"


@pytest.mark.parametrize("result, new", [("Win", "2001"), ("Loss", "1990")])
def test_period_change_rounds_half_away_from_zero(result, new):
    m = CalculatorModel()
    m.rating, m.opponent, m.result = 2000, 1530, result
    m.k_source, m.method, m.cap_400 = "K 10", "FIDE table 8.1.2", False
    # [B02] difference 470 is in 457-484 -> PD 0.95; K 10: a win +0.5 -> +1, a loss -9.5 -> -10
    # (Python's round() would give 0 and -10: the win case tells them apart)
    assert m.new_rating_text() == new


def test_2650_exemption_and_the_period_selector():
    m = CalculatorModel()
    m.rating, m.opponent, m.result = 2700, 2200, "Win"
    m.period = "2026"
    assert m.e_text() == "0.95"  # [B02] since 2025-10-01 2650+ uses the real difference (500)
    assert "exempt" in m.cap_text()
    m.period = "January–September 2025"
    assert m.e_text() == "0.91"  # [B02] before 2025-10-01 the cap applies to everyone (400)
    assert "every player" in m.cap_text()


def test_k_from_profile_names_the_rule():
    m = CalculatorModel()
    m.k_source = "From a player profile"
    m.rating, m.rated_games = 1800, 12
    assert m.k_base == 40 and "30" in m.k_text()  # [TE]/[B02] new players: K 40 until 30 games
    m.rated_games, m.reached_2400, m.rating = 300, True, 2350
    assert m.k_base == 10 and "for good" in m.k_text()  # [TE] stays 10 after reaching 2400
    m.reached_2400, m.rating, m.birth_year, m.period = False, 2100, 2008, "2026"
    assert m.k_base == 40 and "junior" in m.k_text()  # [TE] K 40 to the end of the 18th year, < 2300
    m.rating = 2350
    assert m.k_base == 20  # [TE] the junior K 40 needs a rating under 2300
    m.rating, m.birth_year = 2100, 1990
    assert m.k_base == 20  # [TE] K 20 under 2400


def test_700_rule_in_average_mode():
    m = CalculatorModel()
    m.mode, m.average_opponent, m.n_games, m.points, m.k_source = "average", 1500, 20, 10, "K 40"
    # [TE] a junior with K 40 and 20 games: 800 > 700, K 35 for the period
    assert "700 rule: 40 × 20 games = 800 > 700, so K 35" in m.k_text()
    assert "K 35" in m.summary_html()


# ---------------------------------------------------------------------------- widgets
def test_view_defaults_and_typed_values(view):
    assert "ee-ready" in view.root._dom_classes
    assert '"ee-value ee-big ee-e">0.24<' in view.summary.value  # [TE]
    view.opponent.text.value = "1600"
    # 1500 against 1600: E 0.36 ([TE] the period's draw against 1600)
    assert '"ee-value ee-big ee-e">0.36<' in view.summary.value
    assert view.status.value == ""


def test_bad_typed_value_shows_message_and_keeps_working(view):
    before = view.summary.value
    view.opponent.text.value = "abc"
    assert "Opponent" in view.opponent.error
    assert "100 to 3500" in view.opponent.error
    assert view.summary.value == before  # last good value kept
    view.opponent.text.value = "1600"
    assert view.opponent.error == ""
    assert ">0.36<" in view.summary.value
    view.rating.text.value = "99999"
    assert "Your rating must be a whole number from 100 to 3500" in view.rating.error


def test_preset_buttons_load_and_reset(view):
    view.presets.value = "period"
    assert view.presets.value is None  # ready to load the same example again
    assert view.model.mode == "games" and len(view.rows_box.children) == 3
    assert '"ee-value ee-big ee-change">+1.4<' in view.summary.value  # [TE]
    assert '"ee-value ee-big ee-new">1501<' in view.summary.value  # [TE]
    view.presets.value = "cap_off"
    assert ">0.95<" in view.summary.value and ">+1.1<" in view.summary.value  # [TE]


def test_game_rows_add_remove_and_edit(view):
    quiet(view.load, "period")
    for _ in range(7):
        view.add.click()
    assert len(view.rows_box.children) == 10 and len(view.model.games) == 10
    assert view.add.disabled
    view.add.click()  # an 11th row is refused with a visible message, no traceback
    assert "at most 10 games" in view.status.value
    for _ in range(9):
        view.remove.click()
    assert len(view.model.games) == 1 and view.remove.disabled
    field, result, _ = view.rows[0]
    result.value = "Draw"
    field.text.value = "1700"
    assert ">0.24<" in view.summary.value  # [TE] 1500 vs 1700
    field.text.value = "x"
    assert "Game 1: opponent" in field.error


def test_mode_switch_hides_the_other_inputs(view):
    view.mode.value = "average"
    assert view.average_box.layout.display == "" and view.single_box.layout.display == "none"
    view.n_games.value = 4
    assert view.points.max == 4
    view.points.value = 3.5
    assert view.model.points == 3.5
    view.n_games.value = 2  # the points slider is clamped to the new G
    assert view.points.value == 2 and view.model.points == 2


def test_figure_count_flat_after_50_moves(view):
    before = len(plt.get_fignums())
    view.mode.value = "average"
    for i in range(50):
        view.n_games.value = 1 + i % 30
    for i in range(50):
        view.rating.text.value = str(1400 + 7 * i)
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""


def test_plot_marks_the_current_game(view):
    x, y = view.marks.get_data()
    assert list(x) == [-200] and round(float(y[0]), 2) == 0.24  # [TE] 1500 vs 1700
    quiet(view.load, "period")
    x, y = view.marks.get_data()
    assert sorted(x) == [-100, -50, 100]  # [TE] the period's three differences
