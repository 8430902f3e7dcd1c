"""Dashboard 2 (FIDE rules): the model and the widgets, without a browser.

Sources of the asserted numbers:
  [TE]  docs/sources.md#telugu (the Telugu chess Elo page: K rules, 700 rule, 400-point rule,
        0.92 vs 0.91)
  [B02] FIDE Rating Regulations B.02, 1 March 2024, amended 1 October 2025 (table 8.1.2,
        rule 8.3.3 K, the 700 rule, the 400-point rule and the 2650 exemption), docs/sources.md#fide-b02
The page prints negative numbers with the minus sign U+2212 ("−").
"""

from __future__ import annotations

import contextlib
import io
import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import traitlets  # noqa: E402

from elo_explain import fide  # noqa: E402
from elo_explain.dashboards.fide_rules import FideRulesModel, FideRulesView  # noqa: E402
from elo_explain.formats import fmt_number, fmt_signed  # noqa: E402
from elo_explain.interactive.chess import PERIODS  # noqa: E402
from elo_explain.tables import cap_example_table, k_rules_table  # noqa: E402

M = "\u2212"
Y2026 = "2026-01-01"
RULES = [row[0] for row in fide.K_RULES]


def k_decision(rating, *, rated_games, birth_year, reached_2400, on):
    """The dashboard's K decision: the model's, which is fide.k_factor_rule's."""
    return FideRulesModel(
        rating=rating,
        rated_games=rated_games,
        birth_year=birth_year,
        reached_2400=reached_2400,
        on=on,
    ).k_decision()


@pytest.fixture
def view():
    with contextlib.redirect_stdout(io.StringIO()):
        return FideRulesView(FideRulesModel(), query="")


# -------------------------------------------------------------------------- formatting
def test_formatting_signs_and_half_away_from_zero():
    # [TE] prints +7.2, −8.6 (we use U+2212), one decimal; E with two decimals
    assert fmt_signed(7.2379) == "+7.2" and fmt_signed(-8.5714) == f"{M}8.6"
    assert fmt_signed(0.25, 1) == "+0.3"  # half away from zero, not half to even (+0.2)
    assert fmt_number(0.125) == "0.13"
    assert fmt_signed(-0.01) == "0.0"  # no "−0.0"


# ------------------------------------------------------------------------------ K rule
@pytest.mark.parametrize(
    "rating, games, born, reached, k, rule, words",
    [
        (1800, 12, 1990, False, 40, 0, "30"),  # [TE] new to the list: 40 until 30 games
        (2350, 300, 1990, True, 10, 1, "for good"),  # [TE] reached 2400: stays 10 if it drops
        (2450, 300, 1990, False, 10, 1, "2400"),  # [B02] rating 2400 or more: 10
        (
            2100,
            80,
            2008,
            False,
            40,
            2,
            "junior",
        ),  # [TE] junior (born 2008: to the end of 2026) < 2300
        (2350, 80, 2008, False, 20, 3, "not under 2300"),  # [TE] junior rule needs < 2300
        (1800, 80, 1995, False, 20, 3, "under 2400"),  # [TE] K 20 under 2400
    ],
)
def test_k_decision_rule_and_reason(rating, games, born, reached, k, rule, words):
    d = k_decision(rating, rated_games=games, birth_year=born, reached_2400=reached, on=Y2026)
    assert (d.k, RULES.index(d.rule)) == (k, rule)
    assert words in d.text


def test_junior_k_ends_with_the_year_of_the_18th_birthday():
    # [TE] K 40 until the end of the year of the 18th birthday: born 2008 -> through 2026
    args = dict(rated_games=80, birth_year=2008, reached_2400=False)
    assert k_decision(2000, on="2026-01-01", **args).k == 40
    assert k_decision(2000, on="2027-01-01", **args).k == 20


def oracle_k(rating, games, born, reached, year):
    """docs/sources.md#telugu T11-T14, K-factor (FIDE), written independently of elo_explain.fide."""
    if games < 30:
        return 40
    if reached or rating >= 2400:
        return 10
    if year <= born + 18 and rating < 2300:
        return 40
    return 20


def test_k_decision_agrees_with_the_rules_over_a_grid():
    grid = itertools.product(
        (1500, 2299, 2300, 2399, 2400, 2600),
        (0, 29, 30, 200),
        (1990, 2006, 2008, 2010),
        (False, True),
        (2024, 2026, 2028),
    )
    m = FideRulesModel()
    for rating, games, born, reached, year in grid:
        m.apply(
            dict(
                rating=rating,
                rated_games=games,
                birth_year=born,
                reached_2400=reached,
                on=f"{year}-{'03' if year == 2024 else '01'}-01",
            )
        )
        d = m.k_decision()
        assert d.k == oracle_k(rating, games, born, reached, year), (rating, games, born, year)
        assert dict((r, k) for r, k, _ in fide.K_RULES)[d.rule] == d.k


def test_k_table_marks_the_rule_that_applies(view):
    # the notebook's table (the view shows K and the reason only)
    def applies():
        return [row[0] for row in k_rules_table(view.model.k_decision()).rows if row[2]]

    assert applies()[0].startswith("Everyone else")
    view.model.rated_games = 5
    assert applies()[0].startswith("New to the list")
    assert '"ee-value ee-big ee-k-value">40<' in view.k_out.value  # [TE] fewer than 30 games


# ------------------------------------------------------------------------------ 700 rule
def k_700(k, games):
    return {r.k: r.k_used for r in FideRulesModel(games=games).rules_700()}[k]


def test_700_rule_documents_cases(view):
    assert k_700(40, 20) == 35  # [TE] junior K 40, 20 games: 800 -> 35
    assert k_700(20, 40) == 17  # [TE] adult K 20, 40 games: 800 -> 17
    assert k_700(20, 35) == 20  # [TE] exactly 700 is not reduced
    assert k_700(10, 70) == 10  # [TE] exactly 700 is not reduced
    assert "K 40 × 20 games = 800 &gt; 700: K becomes 35" in view.out_700.value  # [TE]
    html = view.model.table_700().to_html()  # the notebook's table
    for cells in (
        "<td>40</td><td>20</td><td>800</td><td>35</td>",
        "<td>20</td><td>40</td><td>800</td><td>17</td>",
        "<td>20</td><td>35</td><td>700</td><td>20</td>",
    ):
        assert cells in html


def test_700_staircase():
    g, ks = FideRulesModel().staircase()
    assert ks[40][g == 17][0] == 40 and ks[40][g == 18][0] == 38  # 680 ok; 720 -> 700 // 18
    assert ks[40][g == 20][0] == 35 and ks[20][g == 40][0] == 17  # [TE]
    assert ks[10][g == 70][0] == 10 and ks[10][g == 71][0] == 9  # 700 kept, 710 -> 9


# ------------------------------------------------------------------------ 400-point rule
def test_both_sides_of_2700_vs_2200(view):
    a, b = FideRulesModel().sides()
    # [TE]/[B02] since 2025-10-01: 2700 (>= 2650) uses the real difference, 2200 the cap
    assert (a["decision"].used, b["decision"].used) == (500.0, -400.0)
    assert (a["decision"].capped, b["decision"].capped) == (False, True)
    assert "2650" in a["decision"].reason and "below 2650" in b["decision"].reason
    # [B02] table 8.1.2: 485-517 -> 0.96; 392-411 -> 0.92, lower-rated 1 - 0.92 = 0.08
    assert (fmt_number(a["e"]), fmt_number(b["e"])) == ("0.96", "0.08")
    assert "add up to 1.04, not 1" in view.out_cap.value
    # the view's live line per side: K 20 × (S − E), E from table 8.1.2 [B02]
    html = view.out_cap.value
    assert (
        f'A 2700: difference used +500, E <span class="ee-value">0.96</span>; K 20: win +0.8, '
        f"draw {M}9.2, loss {M}19.2" in html
    )
    assert (
        f'B 2200: difference used {M}400, E <span class="ee-value">0.08</span>; K 20: win '
        f"+18.4, draw +8.4, loss {M}1.6" in html
    )


def test_before_october_2025_the_cap_applies_to_everyone(view):
    view.model.on = "2025-01-01"
    a, b = view.model.sides()
    assert (a["decision"].used, b["decision"].used) == (400.0, -400.0)  # [B02] to 2025-09-30
    assert (fmt_number(a["e"]), fmt_number(b["e"])) == ("0.92", "0.08")  # [B02] table
    assert "zero-sum" in view.out_cap.value


def test_cap_with_the_formula():
    m = FideRulesModel()
    m.method = "formula"
    a, b = m.sides()
    # [TE] formula: E(500) = 0.95 (real difference), E(400) = 0.91 so the 2200 side gets 0.09
    assert (fmt_number(a["e"]), fmt_number(b["e"])) == ("0.95", "0.09")


def test_telugu_400_point_example():
    free, capped = (row[1:] for row in cap_example_table("2026-01-01").rows)
    ex = {False: free, True: capped}
    # [TE] K 20, 1500 beats 1000: real 500 -> E 0.95, about +1.1; capped E 0.91, +1.8;
    # a loss costs 18.2 with the cap instead of 18.9
    assert (fmt_number(ex[False][0]), fmt_signed(ex[False][1]), fmt_signed(ex[False][2])) == (
        "0.95",
        "+1.1",
        f"{M}18.9",
    )
    assert (fmt_number(ex[True][0]), fmt_signed(ex[True][1]), fmt_signed(ex[True][2])) == (
        "0.91",
        "+1.8",
        f"{M}18.2",
    )
    html = cap_example_table().to_html()
    for text in ("0.95", "+1.1", f"{M}18.9", "0.91", "+1.8", f"{M}18.2"):
        assert f"<td>{text}</td>" in html


# --------------------------------------------------------------------- table vs formula
def test_table_vs_formula_at_400(view):
    m = view.model
    assert m.difference == 400
    assert m.table_and_formula() == (0.92, 0.91)  # [TE] at 400: table 0.92, formula 0.91
    html = m.compare_table().to_html()  # the notebook's table
    assert "<tr><td>400</td><td>0.92</td><td>0.91</td>" in html
    assert m.table_and_formula(200) == (0.76, 0.76)  # [TE] 1500 vs 1700: 0.24 = 1 - 0.76


def test_periods():
    assert PERIODS["October–December 2025"] == "2025-10-01"
    assert min(PERIODS.values()) == "2024-03-01"  # [B02] earlier cap rule not modelled
    with pytest.raises(traitlets.TraitError, match="on"):
        FideRulesModel(on="2023-01-01")


# ---------------------------------------------------------------------------- widgets
def test_view_defaults(view):
    assert "ee-ready" in view._dom_classes
    assert '"ee-value ee-big ee-k-value">20<' in view.k_out.value
    assert "K becomes 35" in view.out_700.value  # [TE]
    assert '"ee-value ee-big ee-cmp-fide">0.92<' in view.out_cmp.value  # [TE]
    assert '"ee-value ee-big ee-cmp-formula">0.91<' in view.out_cmp.value  # [TE]
    assert view.status.value == ""


def test_widgets_update_the_numbers(view):
    view.model.games = 40
    assert "K 20 × 40 games = 800 &gt; 700: K becomes 17" in view.out_700.value  # [TE]
    x, y = view.marks_700.get_data()
    assert list(y) == [17, 17, 10]  # K 40 and K 20 both give 17 with 40 games; K 10 stays
    view.controls["rating_a"].text.value = "2600"  # below 2650: now capped too
    assert "zero-sum" in view.out_cap.value
    view.controls["difference"].slider.value = 200
    assert ">0.76<" in view.out_cmp.value  # [TE] 200 points: 0.76 (1 - 0.24)


def test_bad_birth_year_shows_message_and_keeps_working(view):
    before, birth = view.k_out.value, view.controls["birth_year"]
    birth.text.value = "abc"
    assert "Birth year" in birth.error and "1900 to 2025" in birth.error
    assert view.k_out.value == before
    birth.text.value = "2010"  # junior in 2026, rated 1800 < 2300
    assert '"ee-value ee-big ee-k-value">40<' in view.k_out.value  # [TE]
    assert birth.error == ""


def test_figure_count_flat_after_12_moves(view):
    before = len(plt.get_fignums())
    with contextlib.redirect_stdout(io.StringIO()):
        for i in range(12):
            view.model.games = 1 + i
        for i in range(12):
            view.model.difference = 10 * i
        for i in range(12):
            view.controls["rating_a"].text.value = str(2000 + 20 * i)
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""


def test_link_sets_the_start_and_bad_values_are_noted():
    with contextlib.redirect_stdout(io.StringIO()):
        v = FideRulesView(
            FideRulesModel(),
            query="rating=2100&birth_year=2008&games=40&k=40"
            "&rating_a=2600&on=2025-01-01&games=3&x=1",
        )
    assert '"ee-value ee-big ee-k-value">40<' in v.k_out.value  # [TE] junior under 2300
    assert "K 40 × 40 games = 1600 &gt; 700: K becomes 17" in v.out_700.value  # 700 // 40
    assert "zero-sum" in v.out_cap.value  # [B02] before 2025-10-01 everyone is capped
    assert "games=3 (given twice)" in v.notes.value and "x (not a setting" in v.notes.value
    with contextlib.redirect_stdout(io.StringIO()):
        v = FideRulesView(FideRulesModel(), query="k=30&method=guess&difference=900")
    assert (v.model.k, v.model.method, v.model.difference) == (20, "table", 400)
    for bad in ("k=30", "method=guess", "difference=900"):
        assert bad in v.notes.value


# ------------------------------------------------------------------------------ translated pages
from elo_explain import translate  # noqa: E402
from elo_explain.tables import RowTable  # noqa: E402
from tests.models.shown import in_language, shown_text  # noqa: E402

DECIMAL = {"te": ".", "uk": ",", "el": ","}  # terms.md: Telugu a point, Ukrainian/Greek a comma


def fide_page(lang, query=""):
    """The view in ``lang`` and what it shows, with the notebook's tables of this module
    (the K-rule table is chess.k_rules_table's, translated with that module)."""
    with in_language(lang), contextlib.redirect_stdout(io.StringIO()):
        v = FideRulesView(FideRulesModel(), query=query)
        m = v.model
        tables = [t.to_html() for t in (m.table_700(), m.cap_table(), m.compare_table())]
        return v, "\n".join([shown_text(v), *tables]), [t.cells() for t in (m.cap_table(),)]


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_translated_page_has_no_english_left_and_the_documents_numbers(lang):
    v, text, _ = fide_page(lang)
    assert translate.english_left(text, lang) == []
    d = DECIMAL[lang]
    # [TE] at 400 points the table gives 0.92 where the formula gives 0.91
    assert f'"ee-value ee-big ee-cmp-fide">0{d}92<' in v.out_cmp.value
    assert f'"ee-value ee-big ee-cmp-formula">0{d}91<' in v.out_cmp.value
    # [TE] 700 rule: K 40 with 20 games -> 35, in the page's words
    assert "35 × 20 = 700" in v.out_700.value and "games" not in v.out_700.value
    # [B02] 2700 vs 2200 since 2025-10-01: E 0.96 (485-517) and 0.08 (1 - 0.92)
    assert f'<span class="ee-value">0{d}96</span>' in v.out_cap.value
    assert f'<span class="ee-value">0{d}08</span>' in v.out_cap.value


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_translated_page_follows_a_link(lang):
    # [TE] adult K 20 with 40 games: 800 -> 17; junior born 2008 at 2100: K 40
    v, text, _ = fide_page(lang, "games=40&rating=2100&birth_year=2008")
    assert "17 × 40 = 680" in v.out_700.value
    assert '"ee-value ee-big ee-k-value">40<' in v.k_out.value
    assert translate.english_left(text, lang) == []


def test_cap_table_rows_are_numbers_cells_in_the_in_language():
    m = FideRulesModel()  # 2700 vs 2200, K 20, table 8.1.2, rules of 2026
    t = m.cap_table()
    assert isinstance(t, RowTable)
    rows = {row[0]: row[1:] for row in t.rows}
    # [B02]/[TE] since 2025-10-01: 2700 (>= 2650) uses the real +500, 2200 is capped at -400
    assert rows["Real difference (own − opponent)"] == (500, -500)
    assert rows["Difference used"] == (500, -400)
    # [B02] table 8.1.2: 485-517 -> .96; 392-411 -> .92, so the lower-rated 1 - .92 = .08
    assert rows["E used"] == (0.96, pytest.approx(0.08))
    # K 20 × (0.5 − 0.96) = −9.2 for A's draw; K 20 × (0.5 − 0.08) = +8.4 for B's
    assert rows["Change for a draw, K 20"] == (pytest.approx(-9.2), pytest.approx(8.4))
    english = {r[0]: r[1:] for r in t.cells()}
    assert english["E used"] == ["0.96", "0.08"]
    assert english["Change for a draw, K 20"] == [f"{M}9.2", "+8.4"]
    for lang in ("uk", "el"):
        with in_language(lang):
            cells = m.cap_table().cells()
        assert ["0,96", "0,08"] in [c[1:] for c in cells]
        assert [f"{M}9,2", "+8,4"] in [c[1:] for c in cells]
        assert ["+500", f"{M}400"] in [c[1:] for c in cells]  # whole numbers: no separator


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_the_k_rules_in_the_in_language(lang):
    # the K-rule table's first column (chess.k_rules_table) shows each rule of fide.K_RULES in
    # the page's words, by its English text or by fide.k_rule_text; [TE] 30 games, 2400, 2300
    from elo_explain.i18n import gettext

    with in_language(lang):
        words = [fide.k_rule_text(rule) for rule, _k, _text in fide.K_RULES]
    assert words == [gettext(text, lang=lang) for _r, _k, text in fide.K_RULES]
    assert translate.english_left("\n".join(words), lang) == []
    assert ["30" in words[0], "2400" in words[1], "2300" in words[2], "2400" in words[3]] == [
        True
    ] * 4


# ------------------------------------------------------ what the page showed in the browser tests
# The facts test_browser_fide_rules.py asserted in a page, here at model and view level: the
# view's widgets (the HTML they hold, the figures' PNGs) and the notebook's live outputs above
# the view (``ee-live-<method>``: the model's method, following it). What only a browser shows
# is in tests/site/specs/d02.py (a link, player A typed, a bad link).
import html  # noqa: E402
import re  # noqa: E402

from tests.models.shown import live, row  # noqa: E402


def lines_700(v) -> list[str]:
    return [
        html.unescape(t)
        for t in re.findall(r'<div class="ee-700-line">(.*?)</div>', v.out_700.value)
    ]


def div(value, css) -> str:
    """The text (markup left out) of the ``div`` of class ``css`` in a widget's HTML."""
    inner = re.search(f'<div class="{css}">(.*?)</div>', value, re.S).group(1)
    return html.unescape(re.sub(r"<[^>]+>", "", inner))


def fide_view(query="", model=None):
    with contextlib.redirect_stdout(io.StringIO()):
        return FideRulesView(model or FideRulesModel(), query=query)


def test_the_pages_numbers_at_the_defaults():
    m = FideRulesModel()
    table_700, cap = live(m, "table_700"), live(m, "cap_table")
    v = fide_view(model=m)
    # 1. the default profile (1800, 80 games, born 1995) gets K 20, and the reason
    assert '"ee-value ee-big ee-k-value">20<' in v.k_out.value
    assert "under 2400" in div(v.k_out.value, "ee-k-reason")
    # 2. the 700 rule: [TE] K 40 with 20 games -> 35; K 20 with 40 games -> 17; 700 not reduced
    assert row(table_700.value, "Junior, K 40, 20 games in a month (Telugu document)")[1:5] == [
        "40",
        "20",
        "800",
        "35",
    ]
    assert row(table_700.value, "Adult, K 20, 40 games (Telugu document)")[1:5] == [
        "20",
        "40",
        "800",
        "17",
    ]
    assert row(table_700.value, "K 20, 35 games: exactly 700, not reduced")[1:5] == [
        "20",
        "35",
        "700",
        "20",
    ]
    assert lines_700(v)[0] == "K 40 × 20 games = 800 > 700: K becomes 35 (35 × 20 = 700)."
    # 3. 2700 vs 2200 since October 2025: [B02] 2700 keeps the real difference (0.96 for
    # 485-517), 2200 gets the cap (1 - 0.92 = 0.08)
    assert row(cap.value, "Difference used") == ["Difference used", "+500", f"{M}400"]
    assert row(cap.value, "E used") == ["E used", "0.96", "0.08"]
    assert "difference used +500, E 0.96" in div(v.out_cap.value, "ee-cap-a")
    assert f"difference used {M}400, E 0.08" in div(v.out_cap.value, "ee-cap-b")
    assert "add up to 1.04" in div(v.out_cap.value, "ee-cap-sum")


def test_one_more_game_lowers_k_and_redraws_the_700_figure():
    m = FideRulesModel()
    table_700 = live(m, "table_700")
    v = fide_view(model=m)
    before = v.fig_700.image.value
    v.controls["games"].slider.value = 21
    # by hand: 700 // 21 = 33 (33 × 21 = 693 ≤ 700; 40 × 21 = 840 > 700)
    assert lines_700(v)[0] == "K 40 × 21 games = 840 > 700: K becomes 33 (33 × 21 = 693)."
    assert v.fig_700.image.value != before
    assert row(table_700.value, "Your period: K 40, 21 games")[3:5] == ["840", "33"]
    # the documents' cases stay fixed: [TE] K 40 with 20 games -> 35
    assert row(table_700.value, "Junior, K 40, 20 games in a month (Telugu document)")[4] == "35"


def test_a_difference_of_399_is_still_0_92_in_fides_table(view):
    before = view.fig_cmp.image.value
    view.controls["difference"].slider.value = 399
    # [B02] table 8.1.2: 392-411 -> 0.92
    assert '<span class="ee-value ee-cmp-d">399</span>' in view.out_cmp.value
    assert '"ee-value ee-big ee-cmp-fide">0.92<' in view.out_cmp.value
    assert view.fig_cmp.image.value != before


def test_player_a_at_2600_is_capped_too_zero_sum():
    m = FideRulesModel()
    cap = live(m, "cap_table")
    v = fide_view(model=m)
    before = v.fig_cap.image.value
    v.controls["rating_a"].text.value = "2600"
    # [B02] 2600 is below 2650: both sides capped at 400, the two E's add up to 1 again
    assert "add up to 1:" in div(v.out_cap.value, "ee-cap-sum")
    assert "zero-sum" in div(v.out_cap.value, "ee-cap-sum")
    assert "difference used +400" in div(v.out_cap.value, "ee-cap-a")
    assert f"difference used {M}400" in div(v.out_cap.value, "ee-cap-b")
    assert v.fig_cap.image.value != before
    assert "<th>Player A (2600)</th>" in cap.value
    assert row(cap.value, "Difference used") == ["Difference used", "+400", f"{M}400"]


def test_a_junior_by_birth_year_and_a_new_player_by_rated_games():
    m = FideRulesModel()
    rules = live(m, "k_rules")
    v = fide_view(model=m)
    v.controls["birth_year"].text.value = "2010"  # [TE] a junior (to the end of 2028) under 2300
    assert '"ee-value ee-big ee-k-value">40<' in v.k_out.value
    assert "junior" in div(v.k_out.value, "ee-k-reason")
    v.controls["birth_year"].text.value = "1995"
    assert '"ee-value ee-big ee-k-value">20<' in v.k_out.value
    v.controls["rated_games"].slider.value = 12  # [TE] new to the list (< 30 games): K 40
    (applies,) = [tr for tr in re.findall(r"<tr>(.*?)</tr>", rules.value) if "◀ applies" in tr]
    assert "<td>K 40</td>" in applies
    assert '"ee-value ee-big ee-k-value">40<' in v.k_out.value


JUNIOR_LINK = "rating=2100&birth_year=2008&games=40&on=2026-01-01"


def test_a_link_sets_the_view_and_the_tables_alike_and_its_link_reproduces_it():
    m = FideRulesModel()
    rules, table_700 = live(m, "k_rules"), live(m, "table_700")
    v = fide_view(JUNIOR_LINK, m)
    # [TE] born 2008, rated 2100: a junior under 2300 in 2026, K 40; 40 games: 700 // 40 = 17
    assert v.notes.value == ""
    assert '"ee-value ee-big ee-k-value">40<' in v.k_out.value
    assert "junior" in div(v.k_out.value, "ee-k-reason")
    assert lines_700(v)[0] == "K 40 × 40 games = 1600 > 700: K becomes 17 (17 × 40 = 680)."
    assert "K 40: born 2008, a junior" in html.unescape(
        re.search(r"<caption>(.*?)</caption>", rules.value).group(1)
    )
    assert row(table_700.value, "Your period: K 40, 40 games")[4] == "17"
    # the view changed by the reader; its link reproduces it: 2600 is capped too (zero-sum)
    v.controls["rating_a"].text.value = "2600"
    assert "zero-sum" in v.out_cap.value
    query = html.unescape(re.search(r'href="\?([^"]*)"', v.link.value).group(1))
    assert "rating_a=2600" in query
    again = fide_view(query)
    assert again.notes.value == "" and "zero-sum" in again.out_cap.value
    assert '"ee-value ee-big ee-k-value">40<' in again.k_out.value
    assert "K becomes 17" in lines_700(again)[0]


def test_bad_values_in_a_link_are_noted_and_the_defaults_stay():
    v = fide_view("games=500&k=30&shoe=1")
    for text in ("games=500", "k=30", "shoe"):
        assert text in v.notes.value
    # the defaults: [TE] K 40 with 20 games -> 35
    assert lines_700(v)[0] == "K 40 × 20 games = 800 > 700: K becomes 35 (35 × 20 = 700)."
