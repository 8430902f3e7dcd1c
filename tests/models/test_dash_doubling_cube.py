"""Dashboard 4 (doubling cube): the model and the widgets, without a browser.

Asserted numbers come from the Greek Gammon42 document (docs/sources.md#greek:
the cube table G18, the Go code G22, the 60-vs-10 example G11) or from hand arithmetic on its formula.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from elo_explain.dashboards.doubling_cube import CubeModel, CubeView

# Greek document, "Ο κύβος διπλασιασμού": cube, coefficient, two players at 1500 K 32, K 16
DOC_CUBE = [
    (1, "1.00", "±16", "±8"),
    (2, "1.17", "±19", "±9"),
    (4, "1.33", "±21", "±11"),
    (8, "1.50", "±24", "±12"),
    (16, "1.67", "±27", "±13"),
    (32, "1.83", "±29", "±15"),
    (64, "2.00", "±32", "±16"),
]


@pytest.fixture
def view():
    return CubeView(CubeModel())


def test_cube_table_is_the_documents():
    rows = CubeModel().cubes().rows
    shown = [(r[0], f"{r[1]:.2f}", f"±{r[2]}", f"±{r[3]}") for r in rows]
    assert shown == DOC_CUBE  # Greek document, cube table
    # before 1.0.5 "the cube multiplied the points directly": 16 points × cube at 1500 vs 1500
    assert [r[4] for r in rows] == [16 * c for c, *_ in DOC_CUBE]


@pytest.mark.parametrize("cube, coef, k32, k16", DOC_CUBE)
def test_one_game_at_each_cube(cube, coef, k32, k16):
    m = CubeModel(cube=cube)
    assert f"{m.coefficient:.2f}" == coef  # document: 1 + log2(cube) / 6
    w, lo = m.change()
    assert (f"±{w}", f"±{-lo}") == (k32, k32)  # document, K 32 column
    m.winner_k_source = m.loser_k_source = "K 16"
    w, lo = m.change()
    assert (f"±{w}", f"±{-lo}") == (k16, k16)  # document, K 16 column


def test_k_from_games_this_week():
    m = CubeModel(winner_k_source="from games this week", loser_k_source="from games this week")
    m.winner_games, m.loser_games = 60, 10
    # document: 60 games this week vs 10, same rating -> the busy winner +8, the other −16
    assert (m.winner_k, m.loser_k) == (16, 32)
    assert m.change() == (8, -16)
    m.winner_games = 49  # document: fewer than 50 games -> K 32
    assert m.winner_k == 32 and m.change() == (16, -16)
    m.winner_games = 50  # document: 50 games or more -> K 16
    assert m.winner_k == 16
    # the games only count when K comes from them
    m.winner_k_source = "K 32"
    assert m.winner_k == 32


def test_underdog_win_with_cube():
    m = CubeModel(winner_rating=1500, loser_rating=1800)
    # document step 2: the underdog 300 down wins -> +20 / −20 (K 32, cube 1)
    assert m.change() == (20, -20)
    m.cube = 4
    # by hand: E = 1 − 0.640 (document: 64.0 %); 32 × 0.640 × 4/3 = 27.3 -> 27
    assert m.change() == (27, -27)


def test_explanation_shows_the_unrounded_value():
    lines = CubeView(CubeModel(cube=2)).explanation()
    # by hand: 32 × (1 − 0.5) × 7/6 = 18.67, rounded to +19 (document: ±19)
    assert "32 × (1 − 0.500) × 1.17 = 18.67 → +19, new rating 1519" in lines[2]
    assert "= −18.67 → −19, new rating 1481" in lines[3]


def test_rules_before_105():
    # before 1.0.5: ÷400 and the cube multiplies the points; 300 up at ÷400 wins +5 (document)
    m = CubeModel(winner_rating=1800, loser_rating=1500)
    assert m.old_change() == (5, -5)
    m.cube = 8
    assert m.old_change() == (39, -39)  # by hand: 32 × 0.151 × 8 = 38.7


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("cube", 3, "cube must be one of 1, 2, 4, 8, 16, 32, 64, got 3"),
        ("winner_rating", 100, "Winner's rating must be a whole number between 500 and 3000"),
        ("loser_rating", 1500.5, "Loser's rating must be a whole number"),
        ("winner_games", -1, "Winner's games this week must be a whole number between 0 and 300"),
        ("loser_k_source", "K 20", "Loser's K must be one of 'K 32', 'K 16'"),
    ],
)
def test_model_rejects_bad_state(name, value, message):
    m = CubeModel()
    with pytest.raises(ValueError, match=message):
        setattr(m, name, value)


def test_the_documents_table_and_the_views_headline(view):
    html = view.model.cubes().to_html()  # the notebook's cell shows this table
    for cube, coef, k32, k16 in DOC_CUBE:  # Greek document, cube table
        assert f"<td>{cube}</td><td>{coef}</td><td>{k32}</td><td>{k16}</td>" in html
    assert "ee-winner-change'>+16<" in view.result.value  # document: equal players, +16


def test_cube_slider_updates_result_and_plot(view):
    before = view.left_marks.get_ydata()[1]
    view.cube.value = 32
    assert view.model.cube == 32
    assert "ee-winner-change'>+29<" in view.result.value  # document: cube 32 -> ±29
    assert "ee-coefficient'>1.83<" in view.result.value  # document: 1.83
    assert view.right_vspan.get_x() == pytest.approx(5 - 0.5)  # the column of cube 32 (its width)
    assert [b.get_height() for b in view.win_bars][5] == 29  # its bar: +29
    assert view.left_marks.get_ydata()[1] != before
    assert view.left_marks.get_ydata()[1] == pytest.approx(1 + 5 / 6)


def test_k_dropdown_and_games_slider(view):
    source, games = view.k_widgets["winner"]
    assert games.disabled  # K 32 chosen: the games do not count
    source.value = "from games this week"
    assert not games.disabled
    games.value = 60
    assert "ee-winner-change'>+8<" in view.result.value  # document: 60 games -> +8 / −16
    assert "ee-loser-change'>−16<" in view.result.value
    assert "K 16" in games.description
    heights = [b.get_height() for b in view.win_bars]
    assert heights[0] == 8  # the bar of cube 1 shows +8


def test_rating_typed_and_bad_value(view):
    box = view.controls["loser_rating"]
    field = box.field
    field.text.value = "1800"
    assert view.model.loser_rating == 1800 and box.slider.value == 1800
    assert "ee-winner-change'>+20<" in view.result.value  # document: underdog 300 down wins +20
    field.text.value = "twelve"
    assert "Loser&#x27;s rating" in field.error and "500 to 3000" in field.error
    assert view.model.loser_rating == 1800
    field.text.value = "1500"
    assert field.error == "" and "ee-winner-change'>+16<" in view.result.value


def test_figure_count_flat_after_12_moves(view):
    before = len(plt.get_fignums())
    cubes = (1, 2, 4, 8, 16, 32, 64)
    for i in range(12):  # 12 moves, alternating the cube and a rating
        if i % 2:
            view.cube.value = cubes[i % 7]
        else:
            view.controls["winner_rating"].slider.value = 1000 + 20 * i
    assert len(plt.get_fignums()) == before
    assert view.status.value == ""


def test_presets_and_link(view):
    view.preset.value = "60 vs 10 games this week (+8 / −16)"
    assert "ee-winner-change'>+8<" in view.result.value  # document: 60 vs 10 games -> +8 / −16
    assert "ee-loser-change'>−16<" in view.result.value
    assert "winner_k_source=from+games+this+week" in view.link.value
    linked = CubeView(
        CubeModel(), query=view.link.value.split('href="?')[1].split('"')[0].replace("&amp;", "&")
    )
    assert linked.model.state() == view.model.state()  # the link reproduces the view
    bad = CubeView(CubeModel(), query="cube=3&loser_rating=1800")
    assert "cube=3" in bad.notes.value and bad.model.cube == 1
    assert "ee-winner-change'>+20<" in bad.result.value  # document: underdog 300 down wins +20


# --- the translated pages -------------------------------------------------------------------
# The Greek document's cube table: cube 2 "1,17" (±19, ±9), cube 64 "2,00" (±32, ±16), with a
# decimal comma in Ukrainian and Greek (as the Greek document prints it), a point in Telugu.
DOC_COEFFICIENTS = {"te": ("1.17", "2.00"), "uk": ("1,17", "2,00"), "el": ("1,17", "2,00")}


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_translated_view_leaves_no_catalog_english(lang):
    from elo_explain.translate import english_left
    from tests.models.shown import in_language, shown_text

    with in_language(lang):
        for query in (
            "",
            "cube=64&winner_k_source=from games this week&winner_games=60",
            "loser_rating=1800&loser_k_source=K 16",
        ):
            v = CubeView(CubeModel(), query=query)
            m = v.model
            text = "\n".join([shown_text(v), m.cubes().to_html(), str(m.outcome())])
            assert english_left(text, lang) == [], query


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_translated_view_writes_the_documents_numbers_in_its_language(lang):
    from tests.models.shown import in_language

    cube2, cube64 = DOC_COEFFICIENTS[lang]
    with in_language(lang):
        v = CubeView(CubeModel(), query="cube=2")
        assert f"ee-coefficient'>{cube2}<" in v.result.value
        assert "ee-winner-change'>+19<" in v.result.value  # the document: ±19
        assert "ee-loser-change'>\u221219<" in v.result.value
        table = CubeModel().cubes().to_html()
        assert f"<td>{cube2}</td>" in table and f"<td>{cube64}</td>" in table
        assert "<td>±19</td><td>±9</td>" in table  # the document's row
    assert "ee-coefficient'>1.17<" in CubeView(CubeModel(), query="cube=2").result.value


def test_translated_k_sources_keep_their_link_values():
    from tests.models.shown import in_language

    with in_language("uk"):
        v = CubeView(CubeModel(), query="winner_k_source=from games this week&winner_games=60")
        assert v.model.winner_k == 16  # the document: 50 or more -> K 16
        source = v.controls["winner_k_source"]
        assert source.value == "from games this week"  # the link's value stays English
        assert source.label == "з ігор цього тижня"  # what the viewer reads
        assert "from games this week" not in source._options_labels


# --- what tests/site/test_browser_doubling_cube.py asserted in a browser -----------------------
# The page's live output ``ee-live-outcome`` and table ``ee-live-cubes`` show the model's
# ``outcome()`` and ``cubes()``; the browser audit (tests/site/specs/d04.py) checks that a link
# and a control reach them in the page.
def _row(table, first):
    """The cells of ``table``'s row whose first cell reads ``first`` (as the page shows it)."""
    rows = [r for r in table.cells() if r[0] == first]
    assert len(rows) == 1, (first, table.cells())
    return rows[0]


def test_cube_one_step_then_a_typed_loser(view):
    # document: two players at 1500 -> +16 / −16
    assert "ee-winner-change'>+16<" in view.result.value
    assert "ee-loser-change'>−16<" in view.result.value
    # one step right on the cube slider: cube 2, coefficient 1.17, ±19 (document)
    options = list(view.cube.options)
    before, png = list(view.left_marks.get_ydata()), view.figure.image.value
    view.cube.value = options[options.index(view.cube.value) + 1]
    assert view.model.cube == 2
    assert list(view.left_marks.get_ydata()) != before  # the figure redrawn: × 7/6
    assert view.figure.image.value != png
    assert "ee-coefficient'>1.17<" in view.result.value
    assert "ee-winner-change'>+19<" in view.result.value
    assert "ee-loser-change'>−19<" in view.result.value
    # the loser typed: the underdog 300 down wins; by hand 32 × 0.640 × 7/6 = 23.9 -> +24
    field = view.controls["loser_rating"].field
    png = view.figure.image.value
    field.text.value = "1800"
    assert view.figure.image.value != png
    assert "ee-winner-change'>+24<" in view.result.value
    assert "ee-loser-change'>−24<" in view.result.value
    assert [b.get_height() for b in view.win_bars][1] == 24  # cube 2's bar redrawn
    field.text.value = "abc"
    assert "Loser&#x27;s rating" in field.error and "500 to 3000" in field.error
    field.text.value = "1500"
    assert field.error == "" and "ee-winner-change'>+19<" in view.result.value  # document: ±19


def test_a_link_sets_the_game():
    # the underdog 300 down wins at cube 2: by hand 32 × 0.640 × 7/6 = 23.9 -> +24 / −24
    v = CubeView(CubeModel(), query="loser_rating=1800&cube=2")
    assert "ee-winner-change'>+24<" in v.result.value
    assert "ee-loser-change'>−24<" in v.result.value
    assert "ee-coefficient'>1.17<" in v.result.value  # document: cube 2
    assert 'href="?winner_rating=1500&amp;loser_rating=1800&amp;cube=2&amp;' in v.link.value
    # document: 60 games this week against 10 (the loser keeps K 32) -> +8 / −16
    v = CubeView(CubeModel(), query="winner_k_source=from+games+this+week&winner_games=60")
    assert "ee-winner-change'>+8<" in v.result.value
    assert "ee-loser-change'>−16<" in v.result.value
    # a cube the game does not have: a note, the defaults (document: two at 1500 -> +16)
    v = CubeView(CubeModel(), query="cube=3")
    assert "cube=3" in v.notes.value and "ee-winner-change'>+16<" in v.result.value


def test_the_outcome_and_the_table_above_the_view_follow_it(view):
    m = view.model
    assert "Winner 1500 (K 32): +16" in str(m.outcome())  # document: +16 / −16
    view.cube.value = 2  # document: cube 2, 1.17 and ±19
    outcome = str(m.outcome())
    assert "Winner 1500 (K 32): +19, new rating 1519" in outcome
    assert "Loser 1500 (K 32): −19, new rating 1481" in outcome
    assert "Cube 2, coefficient 1.17" in outcome
    # the example "60 vs 10 games this week": document, K 16 against K 32 -> +8 / −16 at
    # cube 1, the table's "your game" column; the document's column stays ±16
    view.preset.value = "60 vs 10 games this week (+8 / −16)"
    assert _row(m.cubes(), "1")[5] == "+8 / −16"
    assert _row(m.cubes(), "1")[2] == "±16"


def test_a_link_sets_the_tables_and_the_view_alike():
    # document: the underdog 300 down wins at cube 1, +20 / −20, above and in the view
    v = CubeView(CubeModel(), query="winner_rating=1500&loser_rating=1800&cube=1")
    m = v.model
    assert "ee-winner-change'>+20<" in v.result.value
    assert "ee-loser-change'>−20<" in v.result.value
    assert "Winner 1500 (K 32): +20" in str(m.outcome())
    assert "Loser 1800 (K 32): −20" in str(m.outcome())
    assert _row(m.cubes(), "1")[5] == "+20 / −20"
