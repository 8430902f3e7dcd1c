"""Dashboard 2 (FIDE rules): the model and the widgets, without a browser.

Sources of the asserted numbers:
  [TE]  /work/shared/seeds/000_7fd785a203dc48e3.txt (Telugu chess Elo page), digested in
        /work/shared/spec/rules.md section A (K rules, 700 rule, 400-point rule, 0.92 vs 0.91)
  [B02] FIDE Rating Regulations B.02, 1 March 2024, amended 1 October 2025 (table 8.1.2,
        rule 8.3.3 K, the 700 rule, the 400-point rule and the 2650 exemption), rules.md D
The page prints negative numbers with the minus sign U+2212 ("−").
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from elo_explain.dashboards.fide_rules import (  # noqa: E402
    K_RULES, PERIODS, FideRulesModel, FideRulesView, cap_example, k_decision, period_date,
)
from elo_explain.ui import fmt_number, fmt_signed  # noqa: E402

M = "\u2212"
Y2026 = dt.date(2026, 1, 1)


@pytest.fixture
def view():
    with contextlib.redirect_stdout(io.StringIO()):
        return FideRulesView()


# -------------------------------------------------------------------------- formatting
def test_formatting_signs_and_half_away_from_zero():
    # [TE] prints +7.2, −8.6 (we use U+2212), one decimal; E with two decimals
    assert fmt_signed(7.2379) == "+7.2" and fmt_signed(-8.5714) == f"{M}8.6"
    assert fmt_signed(0.25, 1) == "+0.3"  # half away from zero, not half to even (+0.2)
    assert fmt_number(0.125) == "0.13"
    assert fmt_signed(-0.01) == "0.0"  # no "−0.0"


# ------------------------------------------------------------------------------ K rule
@pytest.mark.parametrize("rating, games, born, reached, k, rule, words", [
    (1800, 12, 1990, False, 40, 0, "30"),      # [TE] new to the list: 40 until 30 games
    (2350, 300, 1990, True, 10, 1, "for good"),  # [TE] reached 2400: stays 10 if it drops
    (2450, 300, 1990, False, 10, 1, "2400"),   # [B02] rating 2400 or more: 10
    (2100, 80, 2008, False, 40, 2, "junior"),  # [TE] junior (born 2008: to the end of 2026) < 2300
    (2350, 80, 2008, False, 20, 3, "not under 2300"),  # [TE] junior rule needs < 2300
    (1800, 80, 1995, False, 20, 3, "under 2400"),  # [TE] K 20 under 2400
])
def test_k_decision_rule_and_reason(rating, games, born, reached, k, rule, words):
    d = k_decision(rating, rated_games=games, birth_year=born, reached_2400=reached, on=Y2026)
    assert (d.k, d.rule) == (k, rule)
    assert words in d.reason


def test_junior_k_ends_with_the_year_of_the_18th_birthday():
    # [TE] K 40 until the end of the year of the 18th birthday: born 2008 -> through 2026
    args = dict(rated_games=80, birth_year=2008, reached_2400=False)
    assert k_decision(2000, on=dt.date(2026, 12, 31), **args).k == 40
    assert k_decision(2000, on=dt.date(2027, 1, 1), **args).k == 20


def oracle_k(rating, games, born, reached, year):
    """rules.md section A, K-factor (FIDE), written independently of elo_explain.fide."""
    if games < 30:
        return 40
    if reached or rating >= 2400:
        return 10
    if year <= born + 18 and rating < 2300:
        return 40
    return 20


def test_k_decision_agrees_with_the_rules_over_a_grid():
    grid = itertools.product((1500, 2299, 2300, 2399, 2400, 2600), (0, 29, 30, 200),
                             (1990, 2006, 2008, 2010), (False, True), (2024, 2026, 2028))
    for rating, games, born, reached, year in grid:
        d = k_decision(rating, rated_games=games, birth_year=born, reached_2400=reached,
                       on=dt.date(year, 6, 1))
        assert d.k == oracle_k(rating, games, born, reached, year), (rating, games, born, year)
        assert K_RULES[d.rule][0] == d.k


def test_k_html_highlights_the_rule_that_applies():
    m = FideRulesModel()
    html = m.k_html()
    assert '<tr class="ee-highlight"><td class="ee-left">Everyone else' in html
    m.rated_games = 5
    assert '<tr class="ee-highlight"><td class="ee-left">New to the list' in m.k_html()


# ------------------------------------------------------------------------------ 700 rule
def test_700_rule_documents_cases():
    m = FideRulesModel()
    assert m.k_700(40, 20) == 35  # [TE] junior K 40, 20 games: 800 -> 35
    assert m.k_700(20, 40) == 17  # [TE] adult K 20, 40 games: 800 -> 17
    assert m.k_700(20, 35) == 20  # [TE] exactly 700 is not reduced
    assert m.k_700(10, 70) == 10  # [TE] exactly 700 is not reduced
    html = m.rule_700_html()
    assert "K 40 × 20 games = 800 &gt; 700: K becomes 35" in html  # [TE], default 20 games
    for row in ("<td>40</td><td>20</td><td>800</td><td>35</td>",
                "<td>20</td><td>40</td><td>800</td><td>17</td>",
                "<td>20</td><td>35</td><td>700</td><td>20</td>"):
        assert row in html


def test_700_staircase():
    g, ks = FideRulesModel().staircase()
    assert ks[40][g == 17][0] == 40 and ks[40][g == 18][0] == 38  # 680 ok; 720 -> 700 // 18
    assert ks[40][g == 20][0] == 35 and ks[20][g == 40][0] == 17  # [TE]
    assert ks[10][g == 70][0] == 10 and ks[10][g == 71][0] == 9  # 700 kept, 710 -> 9


# ------------------------------------------------------------------------ 400-point rule
def test_both_sides_of_2700_vs_2200():
    a, b = FideRulesModel().sides()
    # [TE]/[B02] since 2025-10-01: 2700 (>= 2650) uses the real difference, 2200 the cap
    assert (a["used"], b["used"]) == (500.0, -400.0)
    # [B02] table 8.1.2: 485-517 -> 0.96; 392-411 -> 0.92, lower-rated 1 - 0.92 = 0.08
    assert (fmt_number(a["e"]), fmt_number(b["e"])) == ("0.96", "0.08")
    html = FideRulesModel().cap_html()
    assert "add up to 1.04, not 1" in html


def test_before_october_2025_the_cap_applies_to_everyone():
    m = FideRulesModel()
    m.cap_period = "January–September 2025"
    a, b = m.sides()
    assert (a["used"], b["used"]) == (400.0, -400.0)  # [B02] 2024-03-01 .. 2025-09-30
    assert (fmt_number(a["e"]), fmt_number(b["e"])) == ("0.92", "0.08")  # [B02] table
    assert "zero-sum" in m.cap_html()


def test_cap_with_the_formula():
    m = FideRulesModel()
    m.method = "÷400 formula"
    a, b = m.sides()
    # [TE] formula: E(500) = 0.95 (real difference), E(400) = 0.91 so the 2200 side gets 0.09
    assert (fmt_number(a["e"]), fmt_number(b["e"])) == ("0.95", "0.09")


def test_telugu_400_point_example():
    ex = cap_example(on=period_date("2026"))
    # [TE] K 20, 1500 beats 1000: real 500 -> E 0.95, about +1.1; capped E 0.91, +1.8;
    # a loss costs 18.2 with the cap instead of 18.9
    assert (fmt_number(ex[False][0]), fmt_signed(ex[False][1]), fmt_signed(ex[False][2])) == \
        ("0.95", "+1.1", f"{M}18.9")
    assert (fmt_number(ex[True][0]), fmt_signed(ex[True][1]), fmt_signed(ex[True][2])) == \
        ("0.91", "+1.8", f"{M}18.2")
    html = FideRulesModel().cap_example_html()
    for text in ("0.95", "+1.1", f"{M}18.9", "0.91", "+1.8", f"{M}18.2"):
        assert f"<td>{text}</td>" in html


# --------------------------------------------------------------------- table vs formula
def test_table_vs_formula_at_400():
    m = FideRulesModel()
    assert m.difference == 400
    assert m.table_and_formula() == (0.92, 0.91)  # [TE] at 400: table 0.92, formula 0.91
    html = m.compare_html()
    assert '<tr class="ee-highlight"><td class="ee-left">400</td><td>0.92</td><td>0.91</td>' in html
    assert m.table_and_formula(200) == (0.76, 0.76)  # [TE] 1500 vs 1700: 0.24 = 1 - 0.76


def test_periods():
    assert period_date("October–December 2025") == dt.date(2025, 10, 1)
    assert min(PERIODS.values()) == dt.date(2024, 3, 1)  # [B02] earlier cap rule not modelled
    with pytest.raises(ValueError, match="period must be one of"):
        period_date("2023")


# ---------------------------------------------------------------------------- widgets
def test_view_defaults(view):
    assert "ee-ready" in view.root._dom_classes
    assert '"ee-value ee-big ee-k-value">20<' in view.k_out.value
    assert "K becomes 35" in view.out_700.value  # [TE]
    assert '"ee-value ee-big ee-cmp-fide">0.92<' in view.out_cmp.value  # [TE]
    assert '"ee-value ee-big ee-cmp-formula">0.91<' in view.out_cmp.value  # [TE]
    assert view.status.value == ""


def test_widgets_update_the_numbers(view):
    view.games.value = 40
    assert "K 20 × 40 games = 800 &gt; 700: K becomes 17" in view.out_700.value  # [TE]
    x, y = view.marks_700.get_data()
    assert list(y) == [17, 17, 10]  # K 40 and K 20 both give 17 with 40 games; K 10 stays
    view.rating_a.text.value = "2600"  # below 2650: now capped too
    assert "zero-sum" in view.out_cap.value
    view.difference.value = 200
    assert ">0.76<" in view.out_cmp.value  # [TE] 200 points: 0.76 (1 - 0.24)


def test_bad_birth_year_shows_message_and_keeps_working(view):
    before = view.k_out.value
    view.birth.text.value = "abc"
    assert "Birth year" in view.birth.error and "1900 to 2025" in view.birth.error
    assert view.k_out.value == before
    view.birth.text.value = "2010"  # junior in 2026, rated 1800 < 2300
    assert '"ee-value ee-big ee-k-value">40<' in view.k_out.value  # [TE]
    assert view.birth.error == ""


def test_figure_count_flat_after_50_moves(view):
    before = len(plt.get_fignums())
    with contextlib.redirect_stdout(io.StringIO()):
        for i in range(50):
            view.games.value = 1 + i
        for i in range(50):
            view.difference.value = 10 * i
        for i in range(50):
            view.rating_a.text.value = str(2000 + 20 * i)
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""
