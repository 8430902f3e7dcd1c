"""elo_explain.tables: every row of every table the Greek document prints, and FIDE 8.1.2.

"DOC" is the Greek article on Gammon42 (docs/sources.md#greek); the rows below are
typed from it. FIDE rows are typed from the FIDE Rating Regulations (handbook B.02), table
8.1.2 (docs/sources.md#fide-b02), as also mirrored by lichess-org/scalachess rating/src/main/scala/Elo.scala
(conversionTableFIDE: the upper bound of each row and its PD).
"""

from __future__ import annotations

import html
import re

import pytest

from elo_explain import tables as T


def html_cells(table_html: str) -> list[list[str]]:
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table_html)
    return [[html.unescape(c) for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", r)] for r in rows]


# ------------------------------------------------------------------ step 1 table
DOC_WIN_RATES = [  # DOC step 1: rating difference, favourite's expected win rate (%)
    (0, 50.0),
    (50, 52.4),
    (100, 54.8),
    (150, 57.1),
    (200, 59.5),
    (300, 64.0),
    (400, 68.3),
    (500, 72.3),
]


def test_divisor_comparison_default_is_the_document_table():
    t = T.divisor_comparison()
    assert t.rows == tuple(DOC_WIN_RATES)
    assert len(t.columns) == 2 and "1200" in t.columns[1]
    # the rendered text is what the document prints (with a point for the decimal comma)
    assert [row[1] for row in t.cells()] == [
        "50.0",
        "52.4",
        "54.8",
        "57.1",
        "59.5",
        "64.0",
        "68.3",
        "72.3",
    ]


def test_divisor_comparison_three_divisors():
    t = T.divisor_comparison([200, 300], divisors=(400, 800, 1200))
    # DOC "Why 1200": ÷400 at 200 -> 76 %; at 300: 84.9 / 70.3 / 64.0 %
    assert t.rows[0][1] == 76.0
    assert t.rows[1][1:] == (84.9, 70.3, 64.0)


def test_divisor_comparison_bad_input():
    with pytest.raises(ValueError, match="differences must be >= 0"):
        T.divisor_comparison([-100])
    with pytest.raises(ValueError, match="divisors must be > 0"):
        T.divisor_comparison(divisors=(0,))
    with pytest.raises(ValueError, match="differences must be a non-empty"):
        T.divisor_comparison([])


# ------------------------------------------------------------------ step 2 table
DOC_CHANGES = [  # DOC step 2, K 32, cube 1: difference, favourite wins (W / L), underdog wins (W / L)
    (0, 16, -16, 16, -16),
    (100, 14, -14, 18, -18),
    (200, 13, -13, 19, -19),
    (300, 12, -12, 20, -20),
    (400, 10, -10, 22, -22),
]


def test_changes_by_difference_is_the_document_table():
    t = T.changes_by_difference()
    assert t.rows == tuple(DOC_CHANGES)
    cells = html_cells(t.to_html())
    assert cells[0] == list(t.columns)
    # DOC prints "+14 / −14" and "+18 / −18" in the 100 row
    assert cells[2] == ["100", "+14", "−14", "+18", "−18"]


def test_changes_by_difference_other_k():
    # K 16 halves every change of the K 32 table (DOC step 3: "every change is half")
    t = T.changes_by_difference([0, 300], k=16)
    assert t.rows == ((0, 8, -8, 8, -8), (300, 6, -6, 10, -10))
    with pytest.raises(ValueError, match="k must be > 0"):
        T.changes_by_difference(k=0)


# ------------------------------------------------------------------ step 3 table
DOC_K_TABLE = [  # DOC step 3: difference, K 32 favourite wins / loses, K 16 wins / loses
    (0, 16, -16, 8, -8),
    (150, 14, -18, 7, -9),
    (300, 12, -20, 6, -10),
]


def test_k_comparison_is_the_document_table():
    t = T.k_comparison()
    assert t.rows == tuple(DOC_K_TABLE)
    assert t.columns[1:] == (
        "K = 32: favourite wins",
        "K = 32: favourite loses",
        "K = 16: favourite wins",
        "K = 16: favourite loses",
    )
    assert t.cells()[1] == ["150", "+14", "−18", "+7", "−9"]


# ------------------------------------------------------------- divisor history
def test_divisor_history_is_the_document_table():
    # DOC "Why 1200": favourite 300 up; expected 84.9 / 70.3 / 64.0 %, win +5 / +9 / +12,
    # loss −27 / −23 / −20; columns "before 1.2.0 (÷400)", "1.2.0 to 1.3.0 (÷800)", "from 1.3.1 (÷1200)"
    t = T.divisor_history()
    assert [row[1:] for row in t.rows] == [
        (400, 84.9, 5, -27),
        (800, 70.3, 9, -23),
        (1200, 64.0, 12, -20),
    ]
    assert [row[0] for row in t.rows] == ["Before 1.2.0", "1.2.0 to 1.3.0", "From 1.3.1"]
    assert t.cells()[0][2:] == ["84.9", "+5", "−27"]


def test_divisor_history_other_difference():
    # at difference 0 every divisor gives 50 % and ±16 (DOC step 2: equal players +16)
    t = T.divisor_history(0)
    assert [row[2:] for row in t.rows] == [(50.0, 16, -16)] * 3
    with pytest.raises(TypeError, match="difference must be a single number"):
        T.divisor_history([100, 200])


# ------------------------------------------------------------------- cube table
DOC_CUBE = [  # DOC cube table: cube, coefficient, ±K 32 and ±K 16 for two players at 1500
    (1, 1.00, 16, 8),
    (2, 1.17, 19, 9),
    (4, 1.33, 21, 11),
    (8, 1.50, 24, 12),
    (16, 1.67, 27, 13),
    (32, 1.83, 29, 15),
    (64, 2.00, 32, 16),
]


def test_cube_table_is_the_document_table():
    t = T.cube_table()
    assert t.rows == tuple(DOC_CUBE)
    assert t.cells()[1] == ["2", "1.17", "±19", "±9"]  # DOC prints "1,17 ±19 ±9"


def test_cube_table_direct_before_105():
    # DOC: before 1.0.5 the cube multiplied the points directly
    t = T.cube_table(mode="direct")
    assert t.column("Multiplier") == (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
    assert t.column("Two players at 1500, K = 32") == (16, 32, 64, 128, 256, 512, 1024)
    with pytest.raises(ValueError, match="cubes must each be one of 1, 2, 4, 8, 16, 32, 64"):
        T.cube_table([3])
    with pytest.raises(ValueError, match="mode must be one of"):
        T.cube_table(mode="square")


# ------------------------------------------------------------------ ladder table
def test_ladder_replay_table():
    import datetime as dt

    from elo_explain import gammon42 as g

    games = g.Ladder().replay([(dt.datetime(2026, 10, 1), "ana", "bob")])
    t = T.ladder_replay(games)
    # DOC: two players at 1500 -> +16 / −16
    assert t.column("Winner change") == (16,) and t.column("Loser after") == (1484,)
    assert t.cells()[0][8:10] == ["+16", "−16"]
    with pytest.raises(TypeError, match=r"games\[0\]"):
        T.ladder_replay([("ana", "bob")])


# ------------------------------------------------------------------- bad input
# The K bound (0 < K <= 1000) is gammon42.MAX_K, the package's documented sanity bound.
@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: T.changes_by_difference(k=1e308), "k must be > 0 and at most 1000"),
        (lambda: T.divisor_history(k=5e307), "k must be > 0 and at most 1000"),
        (lambda: T.k_comparison(ks=(32, 7e305)), "ks must be > 0 and at most 1000"),
        (lambda: T.cube_table(ks=(2.9e307, 16)), "ks must be > 0 and at most 1000"),
        (lambda: T.k_comparison(ks=(32, 0)), "ks must be > 0"),
        (lambda: T.cube_table(cubes=float("nan")), "cubes must each be one of"),
        (lambda: T.cube_table(cubes=[1, 2.5]), "cubes must each be one of"),
        (lambda: T.cube_table(cubes=[]), "cubes must be a non-empty list"),
    ],
)
def test_tables_refuse_bad_values_naming_them(call, words):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning on the way to the error
        with pytest.raises(ValueError, match=words):
            call()


@pytest.mark.parametrize("bad", [3, None, float("nan"), "abc", {"a": 1}])
def test_ladder_replay_refuses_non_sequences(bad):
    with pytest.raises(TypeError, match="games must be a sequence of gammon42.LadderGame"):
        T.ladder_replay(bad)


def test_ladder_replay_of_no_games_is_an_empty_table():
    assert T.ladder_replay([]).rows == ()


# -------------------------------------------------------------------- FIDE 8.1.2
# FIDE B.02 table 8.1.2: upper bound of D for each PD .50 ... .99; 736 and more -> 1.00
FIDE_UPPER = [
    3,
    10,
    17,
    25,
    32,
    39,
    46,
    53,
    61,
    68,
    76,
    83,
    91,
    98,
    106,
    113,
    121,
    129,
    137,
    145,
    153,
    162,
    170,
    179,
    188,
    197,
    206,
    215,
    225,
    235,
    245,
    256,
    267,
    278,
    290,
    302,
    315,
    328,
    344,
    357,
    374,
    391,
    411,
    432,
    456,
    484,
    517,
    559,
    619,
    735,
]


def test_fide_table_8_1_2_all_rows():
    t = T.fide_table_8_1_2()
    assert len(t) == 51  # docs/sources.md#fide-b02 F1: 51 rows
    lows = [0] + [u + 1 for u in FIDE_UPPER]
    for i, row in enumerate(t.rows[:50]):
        assert row == (lows[i], FIDE_UPPER[i], (50 + i) / 100, (50 - i) / 100)
    assert t.rows[50] == (736, None, 1.0, 0.0)  # "736 and more -> 1.00"
    cells = t.cells()
    assert cells[0] == ["0", "3", "0.50", "0.50"]
    assert cells[42] == ["392", "411", "0.92", "0.08"]  # the 400 row: 0.92 (Telugu doc / FIDE)
    assert cells[-1] == ["736", "and more", "1.00", "0.00"]


# ---------------------------------------------------------------------- Table
def test_table_html_and_shape_checks():
    t = T.Table(("a", "b"), ((1, -2),), "A <caption>", (None, "{:+d}"))
    out = t.to_html(highlight=0)
    assert out.startswith('<table class="ee-table"><caption>A &lt;caption&gt;</caption>')
    assert '<tr class="ee-highlight"><td>1</td><td>−2</td></tr>' in out
    # a notebook cell shows the same table, with its style (outside a dashboard in a Voilà
    # page), then its CSV link
    shown = t._repr_html_()
    assert shown.startswith(
        f"<style>{T.TABLE_CSS}</style>" + t.to_html() + '<p class="ee-csv-line">'
    )
    with pytest.raises(ValueError, match=r"rows\[0\] must have 2 cells"):
        T.Table(("a", "b"), ((1,),))
    with pytest.raises(ValueError, match="name must be one of"):
        t.column("c")
