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
[TEL]   Telugu document (docs/sources.md#telugu): E = 0.24 for 1500 against 1700; Change =
        K × (Score − E); with equal K one side gains what the other loses.
[G1]/[G2] (docs/sources.md#glicko L4) Glickman's "95 % confidence interval" is rating ± twice
        the RD ("1850 and the RD is 50 … from 1750 to 1950"), in both papers.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest

from elo_explain.dashboards.elo_vs_glicko import (
    PAPER_GLICKO1,
    PAPER_GLICKO2,
    PRESETS,
    RD_GRID,
    EloVsGlickoModel,
    EloVsGlickoView,
)

MINUS = "\u2212"


# --------------------------------------------------------------------------- the model
def test_defaults_are_two_new_lichess_players():
    m = EloVsGlickoModel()
    # [LILA-G] new players: 1500 / RD 500; provisional while RD >= 110
    assert (m.rating, m.rd, m.opponent, m.opponent_rd) == (1500, 500, 1500, 500)
    assert m.display_before == "1500?" and m.provisional
    r, rd, _ = m.glicko_after
    # [LILA] white wins 1741 ± 1 / loses (as black wins) 1258 ± 1; a draw stays 1500 ± 1
    assert r[0] == pytest.approx(1741, abs=1)
    assert r[1] == pytest.approx(1500, abs=1)
    assert r[2] == pytest.approx(1258, abs=1)
    assert rd[0] == pytest.approx(396, abs=1)
    rows = m.after_table().cells()
    assert [row[4] for row in rows] == ["1741?", "1500?", "1258?"]  # [LILA] + [LILA-G] "?"


def test_scalachess_mixed_example():
    m = EloVsGlickoModel(**PRESETS["scalachess's test: 1400 (RD 79) against 1550 (RD 110)"])
    r, rd, _ = m.glicko_after
    # [SC] 1422.63 (win), 1406.31 (draw), 1389.99 (loss), RD 77.50, tolerance 0.005
    np.testing.assert_allclose(r, [1422.63, 1406.31, 1389.99], atol=0.005)
    np.testing.assert_allclose(rd, 77.50, atol=0.005)
    rows = m.after_table().cells()
    assert [row[3] for row in rows] == ["+22.6", "+6.3", MINUS + "10.0"]
    assert [row[4] for row in rows] == ["1422", "1406", "1389"]  # RD 77.5 < 110: no "?"
    assert m.display_before == "1400"


def test_elo_reference_is_k_times_score_minus_expected():
    m = EloVsGlickoModel(rating=1500, opponent=1700, k=20, rd=45, opponent_rd=45)
    # [TEL] E = 0.24; change = 20 × (S − 0.24): win +15.2, draw +5.2, loss −4.8 (to 0.1 at E 0.24;
    # the exact E 0.2403 gives +15.19, +5.19, −4.81)
    assert round(m.elo_expected, 2) == 0.24
    np.testing.assert_allclose(m.elo_changes, [15.19, 5.19, -4.81], atol=0.01)
    assert m.before_table().cells()[0][4] == "0.24"


def test_glicko_moves_more_as_rd_grows_and_elo_stays_flat():
    m = EloVsGlickoModel(**PRESETS["A new player against a regular 1500"])
    curves = m.change_curves()
    assert curves.shape == (3, RD_GRID.size)
    # Glickman's idea: a larger RD means a larger change (win rises, loss falls, monotonically)
    assert np.all(np.diff(curves[0]) > 0) and np.all(np.diff(curves[2]) < 0)
    # at the floor RD 45 the Glicko-2 change is smaller than Elo's K 40 change, at 500 far larger
    assert curves[0, 0] < m.elo_changes[0] < curves[0, -1]
    before = m.elo_changes.copy()
    m.rd = 45
    np.testing.assert_array_equal(m.elo_changes, before)  # Elo knows nothing about RD


def test_returning_after_a_year_becomes_provisional():
    m = EloVsGlickoModel(**PRESETS["A regular back after a year away"])
    # [LILA-G] RD 60 -> 110 in one year (σ 0.06), and 110 is provisional
    assert m.rd_now == pytest.approx(110, abs=0.05)
    assert m.provisional and m.display_before == "1500?"
    m.days_away = 0
    assert not m.provisional and m.display_before == "1500"
    m.days_away = 300
    assert not m.provisional  # not yet 110 after 300 days


def test_rd_table_marks_provisional_from_110():
    m = EloVsGlickoModel(rating=1500, k=20)
    t = m.rd_table(rds=(45, 109, 110, 500))
    # [LILA-G] "?" while RD >= 110; [G1]/[G2] rating ± 2·RD
    assert t.column("Lichess shows") == ("1500", "1500", "1500?", "1500?")
    assert t.cells()[0][2] == "1410 … 1590" and t.cells()[3][2] == "500 … 2500"
    # Elo: equal ratings, K 20 → ±10 on every row [TEL]
    assert set(t.column("Elo win")) == {10.0} and set(t.column("Elo loss")) == {-10.0}


def test_interval_is_rating_plus_minus_two_rd():
    m = EloVsGlickoModel(rating=1850, rd=50, volatility=0.06)
    # [G1]/[G2] "1850 and the RD is 50 … from 1750 to 1950"
    assert m.interval_before == (1750, 1950)
    assert m.before_table().cells()[1][3] == "1750 … 1950"
    low, high = m.intervals_after()
    r, rd, _ = m.glicko_after
    np.testing.assert_allclose(high - low, 4 * rd)
    assert np.all(rd < 50)  # a game shrinks the RD


def test_paper_rows_show_printed_and_computed():
    rows = {row[0]: row[1:] for row in EloVsGlickoModel.paper_table().cells()}
    # [G1] printed 1464 / 151.4; [G2] printed 1464.06 / 151.52 / 0.05999
    assert PAPER_GLICKO1 == {"rating": "1464", "rd": "151.4"}
    assert PAPER_GLICKO2 == {"rating": "1464.06", "rd": "151.52", "volatility": "0.05999"}
    assert float(rows["Glicko-1, rating"][1]) == pytest.approx(1464, abs=0.5)
    assert float(rows["Glicko-1, RD"][1]) == pytest.approx(151.4, abs=0.05)
    assert float(rows["Glicko-2 (τ 0.5), rating"][1]) == pytest.approx(1464.06, abs=0.01)
    assert rows["Glicko-2, RD"][1] == "151.52"
    assert float(rows["Glicko-2, volatility"][1]) == pytest.approx(0.05999, abs=1e-5)


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("rd", 20, "Your RD .* between 45 and 500"),
        ("rating", float("nan"), "Your rating must be a whole number"),
        ("opponent", 5000, "Opponent's rating must be a whole number between 400 and 3200"),
        ("k", 32, "Elo K must be one of 40, 20, 10"),
        ("days_away", 2000, "Days without games must be a whole number between 0 and 1095"),
        ("volatility", 0.5, "volatility σ must be between 0.02 and 0.1"),
    ],
)
def test_bad_values_name_the_field(name, value, message):
    m = EloVsGlickoModel()
    with pytest.raises(ValueError, match=message):
        setattr(m, name, value)
    assert m.rd == 500 and m.rating == 1500  # state kept


def test_unknown_setting():
    with pytest.raises(TypeError, match="unknown setting 'tau'"):
        EloVsGlickoModel(tau=0.5)


# --------------------------------------------------------------------------- the notebook
def markdown_of(notebook: str) -> str:
    """The text of a notebook's markdown cells (what the page shows around the outputs)."""
    cells = json.loads(
        (Path(__file__).resolve().parents[2] / "notebooks" / notebook).read_text(encoding="utf-8")
    )["cells"]
    return " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_the_notebook_says_why_there_is_no_chess_com_preset():
    """The page's text (the notebook's markdown): Chess.com publishes no parameters, so no
    preset is offered for it; and none is."""
    text = markdown_of("06_elo_vs_glicko.ipynb")
    assert "Chess.com" in text and "no Chess.com preset" in text
    assert not any("Chess.com" in name for name in PRESETS)


# --------------------------------------------------------------------------- the widgets
@pytest.fixture
def view():
    with contextlib.redirect_stdout(io.StringIO()):
        yield EloVsGlickoView(EloVsGlickoModel(), query="")


def _quiet(fn):
    with contextlib.redirect_stdout(io.StringIO()):
        fn()


def test_view_shows_the_default_numbers(view):
    assert "1741?" in view.results.value and "1258?" in view.results.value  # [LILA]
    assert "1500?" in view.summary.value
    # the live lines replace the notebook's two tables: [LILA] win/draw/loss 1741? 1500? 1258?,
    # Elo K 40 between equals: ±20 [TEL]
    assert "Lichess shows <b>1741? / 1500? / 1258?</b>" in view.results.value
    assert f"Elo +20.0 / 0.0 / {MINUS}20.0" in view.results.value
    assert "RD 500.0, interval 500 … 2500" in view.summary.value  # [TEL]/[G2] 1500 ± 2 × 500
    assert "ee-ready" in view._dom_classes


def test_slider_changes_numbers_and_plot(view):
    before_table = view.results.value
    before_curve = view.lines[0].get_ydata().copy()
    _quiet(lambda: setattr(view.controls["rd"].slider, "value", 45))
    assert view.results.value != before_table
    assert view.model.rd == 45
    # the opponent still has RD 500, so the change curve itself does not depend on our slider,
    # but our marker moves to RD 45
    np.testing.assert_array_equal(view.lines[0].get_ydata(), before_curve)
    assert view.dots[0].get_xdata()[0] == 45
    assert "1500?" not in view.summary.value  # RD 45: no "?"


def test_preset_loads_widgets_and_model(view):
    _quiet(
        lambda: setattr(
            view.preset, "value", "scalachess's test: 1400 (RD 79) against 1550 (RD 110)"
        )
    )
    assert view.controls["rd"].slider.value == 79 and view.controls["opponent_rd"].value == 110
    assert "1422" in view.results.value  # [SC]
    _quiet(lambda: setattr(view.controls["days_away"].slider, "value", 10))
    assert view.preset.value == "Custom"  # a change by hand leaves the example


def test_bad_typed_value_shows_message_and_dashboard_keeps_working(view):
    rating, opponent_rd = view.controls["rating"], view.controls["opponent_rd"]
    rating.text.value = "abc"
    assert "Your rating" in rating.error
    assert view.model.rating == 1500
    _quiet(lambda: setattr(rating.text, "value", "1600"))
    assert rating.error == "" and view.model.rating == 1600
    assert view.status.value == ""
    opponent_rd.text.value = "20"
    assert "Opponent" in opponent_rd.error and "45" in opponent_rd.error


def test_link_sets_the_start_and_a_bad_value_is_a_note():
    # [SC] the scalachess game from a link
    v = EloVsGlickoView(
        EloVsGlickoModel(),
        query="rating=1400&rd=79&volatility=0.06&k=20&"
        "opponent=1550&opponent_rd=110&opponent_volatility=0.065&tau=0.5&rd=20",
    )
    assert "+22.6" in v.results.value and "77.5" in v.results.value
    assert v.controls["rd"].field.text.value == "79"
    assert "tau" in v.notes.value and "rd=20" in v.notes.value  # ignored, with a note
    assert "opponent_volatility=0.065" in v.link.value and "ee-link" in v.link.value


SCALACHESS = "scalachess's test: 1400 (RD 79) against 1550 (RD 110)"


def test_the_example_then_the_rd_then_the_opponent_then_a_bad_rating(view):
    """The viewer's way through the page (was test_browser_elo_vs_glicko): the scalachess
    example, the RD five steps up, the opponent typed, a bad rating typed and then a good one."""
    curve = view.lines[0].get_ydata().copy()
    _quiet(lambda: setattr(view.preset, "value", SCALACHESS))
    # [SC] 1422.63 for a win (+22.63), RD 77.50; the curves follow the opponent's RD 110
    assert "Lichess shows <b>1422 / 1406 / 1389</b>" in view.results.value
    assert (
        "Glicko-2 +22.6 / +6.3 / " in view.results.value and "RD after 77.5" in view.results.value
    )
    assert not np.array_equal(view.lines[0].get_ydata(), curve)
    # the RD slider five steps (of 1) up from 79: 84, its box says so, the numbers and the
    # marker follow
    before = view.results.value
    _quiet(lambda: setattr(view.controls["rd"].slider, "value", 79 + 5))
    assert view.controls["rd"].field.text.value == "84"
    assert view.results.value != before and view.dots[0].get_xdata()[0] == 84
    # [TEL] the formula 1/(1 + 10^(300/400)) = 0.15: 1400 against 1700
    _quiet(lambda: setattr(view.controls["opponent"].text, "value", "1700"))
    assert "Elo <b>1400</b> (E 0.15)" in view.summary.value
    # a bad typed rating: a message naming the field; the model keeps 1400
    rating = view.controls["rating"]
    rating.text.value = "abc"
    assert "Your rating" in rating.error and "not a number" in rating.error
    assert view.model.rating == 1400
    _quiet(lambda: setattr(rating.text, "value", "1500"))
    assert rating.error == "" and view.status.value == ""
    assert "Elo <b>1500</b> (E 0.24)" in view.summary.value  # [TEL] 1500 vs 1700: E 0.24


def test_a_year_away_in_the_tables_above_the_view(view):
    """The notebook's live tables ("ee-live-before-table", "ee-live-rd-growth") follow the
    example chosen in the view."""
    glicko_row = view.model.before_table().cells()[1]
    assert glicko_row[:2] == ["Glicko-2 (Lichess)", "1500?"]  # [LILA-G] new player: "?"
    _quiet(lambda: setattr(view.preset, "value", "A regular back after a year away"))
    # [LILA-G] a regular's RD 60 grows to 110 in a year away, and 110 is provisional
    glicko_row = view.model.before_table().cells()[1]
    assert glicko_row[:3] == ["Glicko-2 (Lichess)", "1500?", "110.0 (60 + 365 idle days)"]
    assert "RD 60 after 365 days without games is 110.0" in str(view.model.rd_growth())
    assert "<b>1500?</b>" in view.summary.value


def test_a_link_with_a_bad_value_takes_the_rest():
    # rd=20 is below Lichess's 45: noted, the RD stays 500; the rating of the link is taken,
    # and with RD 500 it is provisional [LILA-G]
    with contextlib.redirect_stdout(io.StringIO()):
        v = EloVsGlickoView(EloVsGlickoModel(), query="rating=1400&rd=20&colour=red")
    assert "rd=20" in v.notes.value and "colour" in v.notes.value
    assert "<b>1400?</b>" in v.summary.value and v.model.rd == 500


def test_figures_flat_after_50_moves(view):
    before = len(plt.get_fignums())

    def moves():
        for i in range(50):
            view.controls["rd"].slider.value = 45 + (i * 37) % 455
            view.controls["days_away"].slider.value = (i * 53) % 1000

    _quiet(moves)
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""


def test_widget_count_is_modest():
    import ipywidgets as W
    from ipywidgets.widgets.widget import _instances

    before = set(_instances)
    with contextlib.redirect_stdout(io.StringIO()):
        EloVsGlickoView(EloVsGlickoModel(), query="")
    new = [w for k, w in _instances.items() if k not in before]
    dom = [w for w in new if isinstance(w, W.DOMWidget)]
    # no 60-models target any more (the shared Layout/Style registry is gone, every
    # slider has its text box): this bounds a leak, not the page's cost
    assert len(dom) <= 36 + 17, len(dom)  # + the dock: 17 widgets, 43 models
    assert len(new) <= 90 + 43, len(new)  # including Layout and Style models


# --------------------------------------------------------------------------- translated pages
@pytest.mark.parametrize("lang, e", [("te", "0.24"), ("uk", "0,24"), ("el", "0,24")])
def test_translated_page_shows_no_catalog_english_and_the_document_numbers(lang, e):
    """In te/uk/el every text the view and the notebook's tables show is translated, and the
    Telugu document's E = 0.24 (1500 against 1700, [TEL]) is written as the language writes
    it (a decimal comma in Ukrainian and Greek); the "?" and the ratings stay as Lichess
    shows them ([LILA])."""
    from tests.models.shown import english_left_of, in_language, shown_text

    with in_language(lang):
        m = EloVsGlickoModel(days_away=30)
        view = EloVsGlickoView(m)
        tables = [m.before_table(), m.after_table(), m.rd_table(), m.paper_table()]
        text = "\n".join(
            [
                shown_text(view, field_tooltips=False),
                *(t.to_html() for t in tables),
                str(m.rd_growth()),
                str(m.intervals()),
            ]
        )
        assert english_left_of(text, lang, ["dashboards/elo_vs_glicko.py"]) == []
        assert [row[4] for row in m.after_table().cells()][0].endswith("?")
        view.apply({"opponent": 1700, "opponent_rd": 45, "rd": 45, "days_away": 0})
        assert f"(E {e})" in view.summary.value, view.summary.value
        legend = [t.get_text() for t in view.figure.axes[0].get_legend().get_texts()]
        assert legend[0] != "Glicko-2: win" and "Glicko-2" in legend[0]
