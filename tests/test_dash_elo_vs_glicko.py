"""Dashboard 6, "Elo vs Glicko": the model (no browser) and the widgets (no browser).

Sources of the asserted numbers (none is copied from this code's output):

[LILA]  lichess-org/lila modules/rating/src/test/RatingCalculatorTest.scala: two new players
        (1500 / RD 500 / σ 0.09), white wins: 1741 ± 1 and 1258 ± 1, RD 396 ± 1; a draw:
        1500 ± 1 each.
[SC]    lichess-org/scalachess rating GlickoCalculatorTest.scala ("mixed ratings and
        deviations", tolerance 0.005): 1400 / 79 / 0.06 against 1550 / 110 / 0.065 gives the
        first player 1422.63 (win), 1389.99 (loss), 1406.31 (draw), RD 77.50.
[LILA-G] lichess-org/lila modules/rating/src/main/Glicko.scala: provisional while RD >= 110;
        ratingPeriodsPerDay 0.21436 "chosen so a typical player's RD goes from 60 -> 110 in 1
        year"; RD kept within 45…500.
[G1]/[G2] Glickman, "The Glicko system" (r' ≈ 1464, RD' ≈ 151.4) and "Example of the
        Glicko-2 system" (1464.06, 151.52, 0.05999), both printed.
[TEL]   Telugu document (seeds/000): E = 0.24 for 1500 against 1700; Change = K × (Score − E);
        with equal K one side gains what the other loses. Interval: Glickman's "95 %
        confidence interval" is rating ± twice the RD ("1850 and RD 50 … from 1750 to 1950").
"""

from __future__ import annotations

import contextlib
import io

import matplotlib.pyplot as plt
import numpy as np
import pytest

from elo_explain.dashboards.elo_vs_glicko import (
    PAPER_GLICKO1, PAPER_GLICKO2, PRESETS, RD_GRID, EloVsGlicko, EloVsGlickoView,
)

MINUS = "\u2212"


# --------------------------------------------------------------------------- the model
def test_defaults_are_two_new_lichess_players():
    m = EloVsGlicko()
    # [LILA-G] new players: 1500 / RD 500; provisional while RD >= 110
    assert (m.rating, m.rd, m.opponent_rating, m.opponent_rd) == (1500, 500, 1500, 500)
    assert m.display_before == "1500?" and m.provisional
    r, rd, _ = m.glicko_after
    # [LILA] white wins 1741 ± 1 / loses (as black wins) 1258 ± 1; a draw stays 1500 ± 1
    assert r[0] == pytest.approx(1741, abs=1)
    assert r[1] == pytest.approx(1500, abs=1)
    assert r[2] == pytest.approx(1258, abs=1)
    assert rd[0] == pytest.approx(396, abs=1)
    rows = m.table_rows()
    assert [row[4] for row in rows] == ["1741?", "1500?", "1258?"]  # [LILA] + [LILA-G] "?"


def test_scalachess_mixed_example():
    m = EloVsGlicko(**PRESETS["scalachess's test: 1400 (RD 79) against 1550 (RD 110)"])
    r, rd, _ = m.glicko_after
    # [SC] 1422.63 (win), 1406.31 (draw), 1389.99 (loss), RD 77.50, tolerance 0.005
    np.testing.assert_allclose(r, [1422.63, 1406.31, 1389.99], atol=0.005)
    np.testing.assert_allclose(rd, 77.50, atol=0.005)
    rows = m.table_rows()
    assert [row[3] for row in rows] == ["+22.6", "+6.3", MINUS + "10.0"]
    assert [row[4] for row in rows] == ["1422", "1406", "1389"]  # RD 77.5 < 110: no "?"
    assert m.display_before == "1400"


def test_elo_reference_is_k_times_score_minus_expected():
    m = EloVsGlicko(rating=1500, opponent_rating=1700, k=20, rd=45, opponent_rd=45)
    # [TEL] E = 0.24; change = 20 × (S − 0.24): win +15.2, draw +5.2, loss −4.8 (to 0.1 at E 0.24;
    # the exact E 0.2403 gives +15.19, +5.19, −4.81)
    assert round(m.elo_expected, 2) == 0.24
    np.testing.assert_allclose(m.elo_changes, [15.19, 5.19, -4.81], atol=0.01)
    assert m.summary_rows()[0][4] == "0.24"


def test_glicko_moves_more_as_rd_grows_and_elo_stays_flat():
    m = EloVsGlicko(**PRESETS["A new player against a regular 1500"])
    curves = m.change_curves()
    assert curves.shape == (3, RD_GRID.size)
    # Glickman's idea: a larger RD means a larger change (win rises, loss falls, monotonically)
    assert np.all(np.diff(curves[0]) > 0) and np.all(np.diff(curves[2]) < 0)
    # at the floor RD 45 the Glicko-2 change is smaller than Elo's K 40 change, at 500 far larger
    assert curves[0, 0] < m.elo_changes[0] < curves[0, -1]
    before = m.elo_changes.copy()
    m.set(rd=45)
    np.testing.assert_array_equal(m.elo_changes, before)  # Elo knows nothing about RD


def test_returning_after_a_year_becomes_provisional():
    m = EloVsGlicko(**PRESETS["A regular back after a year away"])
    # [LILA-G] RD 60 -> 110 in one year (σ 0.06), and 110 is provisional
    assert m.rd_now == pytest.approx(110, abs=0.05)
    assert m.provisional and m.display_before == "1500?"
    m.set(days_away=0)
    assert not m.provisional and m.display_before == "1500"
    m.set(days_away=300)
    assert not m.provisional  # not yet 110 after 300 days


def test_interval_is_rating_plus_minus_two_rd():
    m = EloVsGlicko(rating=1850, rd=50, volatility=0.06)
    # [TEL]/[G2] "1850 and RD 50 … from 1750 to 1950"
    assert m.interval_before == (1750, 1950)
    assert m.summary_rows()[1][3] == "1750 … 1950"
    low, high = m.intervals_after()
    r, rd, _ = m.glicko_after
    np.testing.assert_allclose(high - low, 4 * rd)
    assert np.all(rd < 50)  # a game shrinks the RD


def test_paper_rows_show_printed_and_computed():
    rows = {row[0]: row[1:] for row in EloVsGlicko.paper_rows()}
    # [G1] printed 1464 / 151.4; [G2] printed 1464.06 / 151.52 / 0.05999
    assert PAPER_GLICKO1 == {"rating": "1464", "rd": "151.4"}
    assert PAPER_GLICKO2 == {"rating": "1464.06", "rd": "151.52", "volatility": "0.05999"}
    assert float(rows["Glicko-1, rating"][1]) == pytest.approx(1464, abs=0.5)
    assert float(rows["Glicko-1, RD"][1]) == pytest.approx(151.4, abs=0.05)
    assert float(rows["Glicko-2 (τ 0.5), rating"][1]) == pytest.approx(1464.06, abs=0.01)
    assert rows["Glicko-2, RD"][1] == "151.52"
    assert float(rows["Glicko-2, volatility"][1]) == pytest.approx(0.05999, abs=1e-5)


@pytest.mark.parametrize("name, value, message", [
    ("rd", 20, "rd must be between 45 and 500"),
    ("rating", float("nan"), "rating must be a finite number"),
    ("opponent_rating", 5000, "opponent_rating must be between 400 and 3200"),
    ("k", 32, "k must be one of 40, 20, 10"),
    ("days_away", 2000, "days_away must be a whole number between 0 and 1095"),
    ("volatility", 0.5, "volatility must be between 0.02 and 0.1"),
])
def test_bad_values_name_the_field(name, value, message):
    m = EloVsGlicko()
    with pytest.raises(ValueError, match=message):
        m.set(**{name: value})
    assert m.rd == 500 and m.rating == 1500  # state kept


def test_unknown_setting():
    with pytest.raises(TypeError, match="unknown setting 'tau'"):
        EloVsGlicko(tau=0.5)


# --------------------------------------------------------------------------- the widgets
@pytest.fixture
def view():
    with contextlib.redirect_stdout(io.StringIO()):
        yield EloVsGlickoView()


def _quiet(fn):
    with contextlib.redirect_stdout(io.StringIO()):
        fn()


def test_view_shows_the_default_numbers(view):
    assert "1741?" in view.table.value and "1258?" in view.table.value  # [LILA]
    assert "1500?" in view.summary.value
    assert "1464.06" in view.paper.value and "151.52" in view.paper.value  # [G2] printed
    assert "ee-ready" in view.root._dom_classes


def test_slider_changes_numbers_and_plot(view):
    before_table = view.table.value
    before_curve = view.glicko_lines[0].get_ydata().copy()
    _quiet(lambda: setattr(view.rd, "value", 45))
    assert view.table.value != before_table
    assert view.model.rd == 45
    # the opponent still has RD 500, so the change curve itself does not depend on our slider,
    # but our marker moves to RD 45
    np.testing.assert_array_equal(view.glicko_lines[0].get_ydata(), before_curve)
    assert view.dots[0].get_xdata()[0] == 45
    assert "1500?" not in view.summary.value  # RD 45: no "?"


def test_preset_loads_widgets_and_model(view):
    _quiet(lambda: setattr(view.preset, "value",
                           "scalachess's test: 1400 (RD 79) against 1550 (RD 110)"))
    assert view.rd.value == 79 and view.opponent_rd.value == 110
    assert "1422" in view.table.value  # [SC]
    _quiet(lambda: setattr(view.days, "value", 10))
    assert view.preset.value == "Custom"  # a change by hand leaves the example


def test_bad_typed_value_shows_message_and_dashboard_keeps_working(view):
    view.rating.text.value = "abc"
    assert "Your rating" in view.rating.error
    assert view.model.rating == 1500
    _quiet(lambda: setattr(view.rating.text, "value", "1600"))
    assert view.rating.error == "" and view.model.rating == 1600
    assert view.status.value == ""
    view.opponent_rd.text.value = "20"
    assert "Opponent" in view.opponent_rd.error and "45" in view.opponent_rd.error


def test_figures_flat_after_50_moves(view):
    before = len(plt.get_fignums())

    def moves():
        for i in range(50):
            view.rd.value = 45 + (i * 37) % 455
            view.days.value = (i * 53) % 1000
    _quiet(moves)
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""


def test_widget_count_is_modest():
    import ipywidgets as W
    from ipywidgets.widgets.widget import _instances

    before = set(_instances)
    with contextlib.redirect_stdout(io.StringIO()):
        EloVsGlickoView()
    new = [w for k, w in _instances.items() if k not in before]
    dom = [w for w in new if isinstance(w, W.DOMWidget)]
    assert len(dom) <= 30, len(dom)
    assert len(new) <= 80, len(new)  # including Layout and Style models
