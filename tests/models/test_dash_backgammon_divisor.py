"""Dashboard 3 (backgammon divisor): the model and the widgets, without a browser.

Every asserted number comes from the Greek Gammon42 document (docs/sources.md#greek) or
from arithmetic on its printed numbers, never from
the code's own output.
"""

from __future__ import annotations

from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import pytest

from elo_explain.dashboards.backgammon_divisor import DivisorModel, DivisorView
from elo_explain.formats import fmt_pair as pair
from elo_explain.formats import fmt_pct as pct
from elo_explain.formats import fmt_signed

signed = partial(fmt_signed, places=0)  # whole points, as the dashboard shows them

# Greek document, step 1: "Διαφορά rating / Αναμενόμενο ποσοστό νίκης του φαβορί" (÷1200)
DOC_WIN_RATE = {
    0: "50.0 %",
    50: "52.4 %",
    100: "54.8 %",
    150: "57.1 %",
    200: "59.5 %",
    300: "64.0 %",
    400: "68.3 %",
    500: "72.3 %",
}
# Greek document, step 2: K 32, cube 1, favourite wins / underdog wins
DOC_CHANGES = {
    0: ("+16 / −16", "+16 / −16"),
    100: ("+14 / −14", "+18 / −18"),
    200: ("+13 / −13", "+19 / −19"),
    300: ("+12 / −12", "+20 / −20"),
    400: ("+10 / −10", "+22 / −22"),
}


@pytest.fixture
def view():
    return DivisorView(DivisorModel())


def test_formatting_follows_the_document():
    # the document prints "+16 / −16" with U+2212 and "64,0%" (here "64.0 %")
    assert signed(16) == "+16" and signed(-27) == "\u221227" and signed(0) == "0"
    assert pair(12, -20) == "+12 / \u221220"
    assert pct(64.0) == "64.0 %" and pct(84.94) == "84.9 %"


def test_document_win_rate_table_at_defaults():
    m = DivisorModel()
    rows = m.win_rates().rows
    assert [r[0] for r in rows] == list(DOC_WIN_RATE)  # Greek document, step 1 differences
    assert [pct(r[1]) for r in rows] == list(DOC_WIN_RATE.values())  # Greek document, step 1
    assert [pct(r[2]) for r in rows] == list(DOC_WIN_RATE.values())  # default divisor is 1200


def test_chosen_divisor_column_follows_the_slider_model():
    m = DivisorModel(divisor=400)
    by_diff = {r[0]: r for r in m.win_rates().rows}
    assert pct(by_diff[200][2]) == "76.0 %"  # document: with 400 a favourite 200 up wins 76 %
    assert pct(by_diff[300][2]) == "84.9 %"  # document's history table, ÷400 column
    assert pct(by_diff[300][1]) == "64.0 %"  # the document's ÷1200 column does not move


def test_k32_change_table_at_defaults():
    for diff, fav, dog, fav_mine, dog_mine in DivisorModel().changes().rows:
        assert (pair(*fav), pair(*dog)) == DOC_CHANGES[diff]  # Greek document, step 2
        assert (pair(*fav_mine), pair(*dog_mine)) == DOC_CHANGES[diff]  # chosen ÷ is 1200


def test_version_history_at_300_reproduces_the_document():
    hist = DivisorModel().history().rows
    by_div = {h[1]: h for h in hist[:4]}
    # Greek document, "Φαβορί με 300 πόντους διαφορά": ÷400 / ÷800 / ÷1200
    assert [pct(by_div[d][2]) for d in (400, 800, 1200)] == ["84.9 %", "70.3 %", "64.0 %"]
    assert [signed(by_div[d][3]) for d in (400, 800, 1200)] == ["+5", "+9", "+12"]
    assert [signed(by_div[d][4]) for d in (400, 800, 1200)] == ["−27", "−23", "−20"]
    assert 2000 in by_div  # FIBS's divisor (document: "FIBS uses 2000")


def test_version_history_at_another_difference():
    m = DivisorModel(difference=200)
    by_div = {h[1]: h for h in m.history().rows[:4]}
    assert pct(by_div[400][2]) == "76.0 %"  # document: ÷400, 200 up -> 76 %
    assert pct(by_div[1200][2]) == "59.5 %"  # document, step 1 table, 200
    assert (signed(by_div[1200][3]), signed(by_div[1200][4])) == ("+13", "−19")  # step 2, 200
    m.difference = 0
    assert {pct(h[2]) for h in m.history().rows} == {"50.0 %"}  # equal ratings: 0.5 for any divisor


def test_win_rate_needed_to_hold_the_rating():
    m = DivisorModel()
    # document: 300 up with ÷400 gets +5 / −27 -> holds at 27 / (5 + 27); "had to win 85 %"
    need = m.needed_win_rate(300, 400)
    assert need == pytest.approx(27 / 32)
    assert abs(need - 0.85) < 0.01
    # ÷1200 at 300: +12 / −20 (document) -> 20 / 32
    assert m.needed_win_rate(300, 1200) == pytest.approx(20 / 32)
    # the curve is vectorised over differences and rises with the difference
    curve = m.needed_curve(400)
    assert curve.shape == m.grid.shape and np.all(np.diff(curve) >= 0)
    # the history row carries the same number, 84.4 %
    assert pct(m.history().rows[0][5]) == "84.4 %"


def test_expected_curves_pass_through_the_document_points():
    m = DivisorModel()
    at = {int(x): i for i, x in enumerate(m.grid)}
    assert round(m.expected_curve(1200)[at[300]], 1) == 64.0  # document, step 1
    assert round(m.expected_curve(400)[at[300]], 1) == 84.9  # document, history table
    assert round(m.expected_curve(800)[at[300]], 1) == 70.3  # document, history table
    # FIBS one-point match, 100 up: 1 / (10^(-100/2000) + 1) = 52.9 % (FIBS help formula)
    assert round(m.expected_curve(2000)[at[100]], 1) == 52.9


def test_summary_sentence(view):
    s = view.summary.value
    # document: 300 up at ÷1200 -> 64.0 %, +12 / −20
    assert "64.0 %" in s and "+12" in s and "−20" in s


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("divisor", 50, "divisor must be a whole number between 100 and 4000"),
        ("divisor", 1200.5, "divisor must be a whole number"),
        ("difference", -10, "difference must be a whole number between 0 and 800"),
        ("difference", 900, "difference must be a whole number between 0 and 800"),
    ],
)
def test_model_rejects_bad_state(name, value, message):
    m = DivisorModel()
    with pytest.raises(ValueError, match=message):
        setattr(m, name, value)


def test_model_rejects_wrong_kind():
    with pytest.raises(ValueError, match="divisor must be a whole number"):  # FieldError
        DivisorModel(divisor="1200")


def test_tables_show_the_documents_numbers():
    m = DivisorModel()  # the notebook's cells show these three tables
    html = m.win_rates().to_html()
    for text in DOC_WIN_RATE.values():
        assert f"<td>{text}</td>" in html  # Greek document, step 1
    changes = m.changes().to_html()
    for fav, dog in DOC_CHANGES.values():
        assert f"<td>{fav}</td>" in changes  # Greek document, step 2
        assert f"<td>{dog}</td>" in changes
    hist = m.history().to_html()
    for text in ("84.9 %", "70.3 %", "64.0 %", "+5", "+9", "+12", "−27", "−23", "−20"):
        assert f"<td>{text}</td>" in hist  # Greek document, version history at 300


def test_summary_shows_the_version_history_at_the_lead(view):
    # Greek document, version history at 300: ÷400 / ÷800 / ÷1200 with their win / loss
    for text in ("÷400 84.9 % (+5 / −27)", "÷800 70.3 % (+9 / −23)", "÷1200 64.0 % (+12 / −20)"):
        assert text in view.summary.value


def test_slider_moves_update_summary_and_plot(view):
    before = view.my_expected.get_ydata().copy()
    view.controls["divisor"].slider.value = 400
    assert view.model.divisor == 400
    assert view.controls["divisor"].field.text.value == "400"
    by_diff = {r[0]: r for r in view.model.win_rates().rows}
    assert pct(by_diff[200][2]) == "76.0 %"  # document: ÷400, 200 up -> 76 %
    assert not np.allclose(view.my_expected.get_ydata(), before)
    assert view.my_label.get_text() == "your divisor (dashed): ÷400"
    view.controls["difference"].slider.value = 200
    assert "At 200 points up" in view.summary.value
    assert "÷1200 59.5 %" in view.summary.value  # document step 1: 200 -> 59.5 %
    assert list(view.left_vline.get_xdata()) == [200, 200]


def test_typed_value_and_bad_value(view):
    divisor = view.controls["divisor"]
    divisor.field.text.value = "800"
    assert divisor.slider.value == 800 and view.model.divisor == 800
    assert "÷800: expected win rate 70.3 %" in view.summary.value  # document: ÷800, 300 up
    divisor.field.text.value = "abc"
    msg = divisor.field.error
    assert "Your divisor" in msg and "100 to 4000" in msg
    assert view.model.divisor == 800  # last good value kept
    divisor.field.text.value = "99999"
    assert "must be a whole number from 100 to 4000" in divisor.field.error
    divisor.field.text.value = "1200"  # still answers
    assert divisor.field.error == "" and view.model.divisor == 1200
    assert "÷1200: expected win rate 64.0 %" in view.summary.value


def test_figure_count_flat_after_12_moves(view):
    before = len(plt.get_fignums())
    for i in range(12):  # 12 moves, alternating the two sliders
        if i % 2:
            view.controls["divisor"].slider.value = 100 + 50 * i
        else:
            view.controls["difference"].slider.value = (10 * i) % 800
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""  # no error on the way


def test_slider_and_field_render_once_per_value(view):
    seen = []
    view.model.observe(lambda c: seen.append(c["new"]), names="divisor")
    box = view.controls["divisor"]
    box.slider.value = 1600
    box.field.text.value = "1600.0"  # same value typed differently: no second event
    box.field.text.value = "1700"
    assert seen == [1600, 1700] and box.slider.value == 1700


def test_presets_and_link(view):
    view.preset.value = "Gammon42 1.2.0: ÷800, 300 points up"
    assert "÷800: expected win rate 70.3 %" in view.summary.value  # document: ÷800, 300 up
    assert 'href="?divisor=800&amp;difference=300"' in view.link.value
    linked = DivisorView(DivisorModel(), query="divisor=400&difference=200")
    assert "200 points up, ÷400: expected win rate 76.0 %" in linked.summary.value  # document
    bad = DivisorView(DivisorModel(), query="divisor=abc")
    assert "ee-query-note" in bad.notes.value and bad.model.divisor == 1200
    assert "÷1200: expected win rate 64.0 %" in bad.summary.value  # document: ÷1200, 300 up


def test_the_documents_rounded_figures_beside_the_exact_ones():
    # as printed beside ours, docs/sources.md#greek: G14 ÷400, 300 up: +5 / −27, "85 %"
    # (27 / 32 = 0.84375 -> 84.4 %); G6/G7 ÷1200, 200 up: +13 / −19, "about 60 %"
    # (19 / 32 = 0.59375 -> 59.4 %)
    from elo_explain.dashboards.backgammon_divisor import as_printed

    rows = as_printed().rows
    assert rows[0][1:] == ("+5 / \u221227", "27 / 32 = 84.4 %", "85 %")
    assert rows[1][1:] == ("+13 / \u221219", "19 / 32 = 59.4 %", "about 60 %")


# --- the translated pages -------------------------------------------------------------------
# The Greek document's history table, 300 points up: "84,9%" (÷400), "70,3%" (÷800), "64,0%"
# (÷1200), written as each language writes a percentage (CLDR, as the Greek document itself:
# decimal comma and no space in Ukrainian and Greek; Telugu: decimal point, no space).
DOC_HISTORY_PCT = {
    "te": ("84.9%", "70.3%", "64.0%"),
    "uk": ("84,9%", "70,3%", "64,0%"),
    "el": ("84,9%", "70,3%", "64,0%"),
}


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_translated_view_leaves_no_catalog_english(lang):
    from elo_explain.dashboards.backgammon_divisor import as_printed
    from elo_explain.translate import english_left
    from tests.models.shown import in_language, shown_text

    with in_language(lang):
        for query in ("", "divisor=800", "divisor=400&difference=200", "divisor=2000"):
            v = DivisorView(DivisorModel(), query=query)
            m = v.model
            text = "\n".join(
                [
                    shown_text(v),
                    m.win_rates().to_html(),
                    m.changes().to_html(),
                    m.history().to_html(),
                    as_printed().to_html(),
                ]
            )
            assert english_left(text, lang) == [], query
            assert v.preset.value in DivisorModel.presets or v.preset.value == "Custom"


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_translated_view_writes_the_documents_numbers_in_its_language(lang):
    from tests.models.shown import in_language

    at400, at800, at1200 = DOC_HISTORY_PCT[lang]
    with in_language(lang):
        doc = DivisorView(DivisorModel())  # ÷1200, 300 points up
        assert at1200 in doc.summary.value  # the issue: "64,0" in uk / el
        old = DivisorView(DivisorModel(), query="divisor=800")  # Gammon42 1.2.0
        assert at800 in old.summary.value  # the issue: ÷800 at 300: 70,3
        for pct in (at400, at800, at1200):  # the version line, every divisor
            assert pct in old.summary.value
        assert f"<td>{at1200}</td>" in DivisorModel().win_rates().to_html()
    assert "64.0 %" in DivisorView(DivisorModel()).summary.value  # English as before


def test_translated_presets_keep_their_english_keys():
    from tests.models.shown import in_language

    with in_language("el"):
        v = DivisorView(DivisorModel(), query="divisor=800&difference=300")
        labels = dict((value, label) for label, value in v.preset.options)
        assert v.preset.value == "Gammon42 1.2.0: ÷800, 300 points up"  # the link's key
        assert labels[v.preset.value] == "Gammon42 1.2.0: ÷800, 300 πόντους πάνω"
        v.preset.value = "Chess: ÷400, 200 points up (76 %)"
        assert (v.model.divisor, v.model.difference) == (400, 200)


# --- what tests/site/test_browser_backgammon_divisor.py asserted in a browser ------------------
# The page's live tables (``ee-live-win-rates``, ``-changes``, ``-history``) show the model's
# ``win_rates()``, ``changes()`` and ``history()``; the browser audit (tests/site/specs/d03.py)
# checks that a link and a control reach them in the page.
def _row(table, first):
    """The cells of ``table``'s row whose first cell reads ``first`` (as the page shows it)."""
    rows = [r for r in table.cells() if r[0] == first]
    assert len(rows) == 1, (first, table.cells())
    return rows[0]


def test_the_divisor_slider_steps_by_50(view):
    # one key step on the divisor slider: 1200 -> 1250, the field and the summary follow
    box = view.controls["divisor"]
    assert box.slider.step == 50
    before, png = view.my_expected.get_ydata().copy(), view.figure.image.value
    box.slider.value = 1200 + box.slider.step
    assert box.field.text.value == "1250" and "÷1250" in view.summary.value
    assert not np.allclose(view.my_expected.get_ydata(), before)  # the figure redrawn
    assert view.figure.image.value != png


def test_live_tables_follow_the_typed_divisor_and_lead(view):
    m = view.model
    assert "÷1200 (your divisor)" in m.win_rates().to_html()
    view.controls["divisor"].field.text.value = "800"
    assert "÷800 (your divisor)" in m.win_rates().to_html()
    # Greek document: ÷1200 at 300 up 64.0 % (kept), the version history's ÷800 70.3 %
    assert _row(m.win_rates(), "300") == ["300", "64.0 %", "70.3 %"]
    # the version history at 300: ÷800 70.3 %, +9 / −23; 23 / 32 = 71.9 % holds the rating
    # (docs/sources.md#greek, derived numbers)
    assert _row(m.history(), "Your divisor (÷800)") == [
        "Your divisor (÷800)",
        "800",
        "70.3 %",
        "+9",
        "−23",
        "71.9 %",
    ]
    assert "÷800 (your divisor): favourite wins" in m.changes().to_html()
    # the lead typed: the version history is redone at 200 (document step 1: 59.5 %)
    png = view.figure.image.value
    view.controls["difference"].field.text.value = "200"
    assert view.figure.image.value != png  # the figure redrawn at the new lead
    assert "A favourite 200 points up" in m.history().to_html()
    assert _row(m.history(), "From 1.3.1 (÷1200)")[2] == "59.5 %"
    assert "At 200 points up" in view.summary.value and "÷1200 59.5 %" in view.summary.value


def test_a_link_sets_the_fields_the_sentence_and_the_link():
    # the document's version history, ÷800 at 300 points up: 70.3 %, +9 / −23
    v = DivisorView(DivisorModel(), query="divisor=800&difference=300")
    assert v.controls["divisor"].field.text.value == "800"
    assert (
        "300 points up, ÷800: expected win rate 70.3 %; +9 for a win, −23 for a loss"
        in v.summary.value
    )
    assert 'href="?divisor=800&amp;difference=300"' in v.link.value
    v.controls["divisor"].field.text.value = "400"  # document: ÷400, 300 up -> 84.9 %
    assert "÷400: expected win rate 84.9 %" in v.summary.value
    assert 'href="?divisor=400&amp;difference=300"' in v.link.value
    assert "ee-query-note" not in v.notes.value


def test_a_link_sets_the_tables_and_the_view_alike():
    # ÷1000, 300 points up: by hand 1 / (1 + 10^(−300/1000)) = 1 / 1.5012 = 66.6 %
    assert f"{100 / (1 + 10 ** (-300 / 1000)):.1f}" == "66.6"
    v = DivisorView(DivisorModel(), query="divisor=1000&difference=300")
    m = v.model
    assert "÷1000: expected win rate 66.6 %" in v.summary.value
    assert _row(m.win_rates(), "300") == ["300", "64.0 %", "66.6 %"]  # ÷1200: the document's
    assert _row(m.history(), "Your divisor (÷1000)")[2] == "66.6 %"
    assert "÷1000 (your divisor)" in m.changes().to_html()
