"""Dashboard "New to FIDE": model, view and notebook.

Sources (docs/sources.md#fide-b02: FIDE Rating Regulations B.02 section 7, table 8.1.1 and
FIDE's notice of 1 March 2024):
  [EX1] 3 / 5 against 1600, 1700, 1800, 1500, 1650: Ra 1692.86, p .57, dp 50, 1743, published;
        2022 rule 1670. Performance (Ra + dp over the real opponents): 1650 + dp(.60) 72 = 1722.
  [EX2] 5 / 5 against 2000-2400: Ra 2085.71, p .86, dp 309, capped at 2200; 2022 rule 2300.
        Performance: 2200 + dp(1.00) 800 = 3000.
  [EX3] 1 / 6 against 1400, 1450, 1500, 1500, 1550, 1600: Ra 1575, p .25, dp -193, 1382, not
        published; 2022 rule 1227 (published, floor 1000). Performance: 1500 + dp(.17) = 1227.
  [T]   table 8.1.1 rows (.57 -> 50, .86 -> 309, ..., dp(1 - p) = -dp(p)).
  [UP]  uplift 1000 -> 1400, 1500 -> 1700, 1650 -> 1790; 2000 and above unchanged.
  [FL]  floor 1400 from 1 March 2024, 1000 before; at least 5 rated games.
"""

from __future__ import annotations

import re

import pytest

from elo_explain.dashboards.new_to_fide import NewToFideModel, NewToFideView

M = "\u2212"
EX1 = {"opponents": [1600, 1700, 1800, 1500, 1650], "scores": [1, 0.5, 0.5, 1, 0]}
EX2 = {"opponents": [2000, 2100, 2200, 2300, 2400], "scores": [1, 1, 1, 1, 1]}
EX3 = {"opponents": [1400, 1450, 1500, 1500, 1550, 1600], "scores": [0, 0.5, 0, 0.5, 0, 0]}
# [T] a sample of table 8.1.1 as transcribed in docs/sources.md#fide-b02
DP = {
    0.0: -800,
    0.01: -677,
    0.17: -273,
    0.25: -193,
    0.49: -7,
    0.5: 0,
    0.57: 50,
    0.6: 72,
    0.86: 309,
    0.99: 677,
    1.0: 800,
}


def view(**traits) -> NewToFideView:
    return NewToFideView(NewToFideModel(**traits), query="")


def text(w) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", w.value))


@pytest.mark.parametrize(
    "games, ra, p, dp, rating, published, rule_2022, perf",
    [
        (EX1, 1692.86, 0.57, 50, 1743, True, 1670, 1722),
        (EX2, 2085.71, 0.86, 309, 2200, True, 2300, 3000),
        (EX3, 1575.00, 0.25, -193, 1382, False, 1227, 1227),
    ],
)
def test_model_worked_examples(games, ra, p, dp, rating, published, rule_2022, perf):
    m = NewToFideModel(on="2025-06-01", **games)
    r = m.first_rating()
    assert (round(r.average_opponent, 2), r.score_fraction, r.dp, r.rating, r.published) == (
        ra,
        p,
        dp,
        rating,
        published,
    )
    assert m.first_rating("2022").rating == rule_2022
    assert round(m.performance()) == perf
    # on a date of the 2022 rule, that rule is the one in force [FL]
    old = NewToFideModel(on="2023-05-01", **games)
    assert old.rule_in_force() == "2022" and old.first_rating().rating == rule_2022
    assert old.first_rating().published and old.floor() == 1000


def test_presets_are_the_worked_examples():
    got = {
        tuple(p["opponents"]): NewToFideModel(**p).first_rating("2024").rating
        for p in NewToFideModel.presets.values()
    }
    assert got == {
        tuple(EX1["opponents"]): 1743,
        tuple(EX2["opponents"]): 2200,
        tuple(EX3["opponents"]): 1382,
    }
    table = NewToFideModel.worked_examples()
    assert table.column("First rating") == (1743, 2200, 1382)
    assert table.column("2022 rule") == (1670, 2300, 1227)
    assert table.column("Published") == ("yes", "yes", "no")


def test_table_8_1_1_grid_holds_all_101_rows():
    t = NewToFideModel.table_8_1_1()
    cells = {
        round(float(row[0]) + k / 100, 2): row[k + 1]
        for row in t.rows
        for k in range(10)
        if row[k + 1] is not None
    }
    assert len(cells) == 101
    for p, dp in DP.items():
        assert cells[p] == dp, p
    assert all(cells[round(1 - p, 2)] == -dp for p, dp in cells.items())


@pytest.mark.parametrize(
    "rating, after", [(1000, 1400), (1500, 1700), (1650, 1790), (2000, 2000), (2400, 2400)]
)
def test_uplift_and_floor(rating, after):
    m = NewToFideModel(rating=rating)
    assert m.uplift() == after  # [UP]
    assert dict((r[0], r[1]) for r in m.uplift_table().rows)[rating] == after
    assert NewToFideModel(on="2024-03-01").floor() == 1400
    assert NewToFideModel(on="2024-02-29").floor() == 1000


def test_parse_games_one_per_line_or_commas():
    assert NewToFideModel.parse_games("1600 1, 1700 0.5; 1800 ½\n1500\t0\n\n") == (
        [1600, 1700, 1800, 1500],
        [1.0, 0.5, 0.5, 0.0],
    )


@pytest.mark.parametrize(
    "text, words",
    [
        ("", ["Games", "none entered"]),
        ("1600 1, 1700", ["Games, row 2", "rating and the result"]),
        ("1600 1\n1700 2", ["Games, row 2", "1 (win), 0.5 or ½ (draw), 0 (loss)", "'2'"]),
        ("1600 1, abc 1", ["Games, row 2", "from 1000 to 3000", "'abc'"]),
        ("1600 1, 1700 1, 5000 0", ["Games, row 3", "between 1000 and 3000", "5000"]),
        ("nan 1", ["Games, row 1", "'nan'"]),
    ],
)
def test_parse_games_names_the_row_and_the_allowed_values(text, words):
    with pytest.raises(ValueError) as err:
        NewToFideModel.parse_games(text)
    for word in words:
        assert word in str(err.value)


def test_bad_traits_name_the_row_or_field():
    m = NewToFideModel()
    with pytest.raises(
        ValueError, match="Opponent in row 2 must be a whole number between 1000 and 3000"
    ):
        m.opponents = [1600, 999]
    with pytest.raises(ValueError, match=r"Result in row 3 must be 1 \(win\)"):
        m.scores = [1, 0, 0.7]
    with pytest.raises(ValueError, match="Event date must be a date YYYY-MM-DD from 2022-01-01"):
        m.on = "2021-12-31"
    with pytest.raises(
        ValueError, match="Rating before 1 March 2024 must be a whole number between 1000 and 3000"
    ):
        m.rating = 900
    assert m.opponents == EX1["opponents"]


def test_view_shows_both_rules_performance_uplift_and_floor():
    v = view()
    assert "1743" in text(v.headline) and "Published: yes" in text(v.headline)
    assert "0 more needed" in text(v.headline)
    # the notebook's table of both rules (the rule in force, 2024, first) ...
    row = re.search(
        r"<tr><td>From 1 March 2024</td>(.*?)</tr>", v.model.first_rating_table().to_html()
    ).group(1)
    assert re.findall(r"<td>(.*?)</td>", row) == ["5", "1692.86", "0.57", "+50", "1743", "yes"]
    # ... and the view's live lines: the arithmetic and the 2022 rule beside it
    assert "5 of at least 5" in text(v.headline)
    assert all(t in text(v.steps) for t in ("= 1692.86", "→ .57", "dp = 50", "→ 1743"))
    assert "2022 rule (to 29 February 2024): 1670" in text(v.headline)
    assert "1722" in text(v.headline)
    assert "1700" in text(v.up) and "+200" in text(v.up)
    assert "1400" in text(v.up)
    assert v.preset.value.startswith("3 / 5")


def test_view_presets_typing_adding_and_removing():
    v = view()
    v.preset.value = next(n for n in v.model.presets if n.startswith("1 / 6"))
    assert "1382" in text(v.headline) and "below 1400" in text(v.headline)  # [EX3]
    assert f"dp = {M}193" in text(v.steps)
    assert "2022 rule (to 29 February 2024): 1227" in text(v.headline)
    assert v.games.value.splitlines()[0] == "1400 1"
    # paste [EX2] on one line: capped at 2200, 2022 rule 2300; the text stays as typed
    v.games.value = "2000 1, 2100 1, 2200 1, 2300 1, 2400 1"
    assert "2200 (capped)" in text(v.headline)
    assert "2022 rule (to 29 February 2024): 2300" in text(v.headline)
    assert v.preset.value.startswith("5 / 5") and v.games.value.startswith("2000 1, 2100")
    # a bad row: a message naming it; the model keeps its games
    v.games.value = "2000 1, 2100 x"
    assert "row 2" in v.games_error.value and v.model.opponents[1] == 2100
    # only 3 games: 2 more needed, not published [FL]
    v.games.value = "1600 1, 1700 0.5, 1800 0.5"
    assert v.games_error.value == ""
    assert "2 more needed" in text(v.headline) and "at least 5" in text(v.headline)
    # add a game (1650, loss) and remove it again
    v.new_opponent.text.value, v.new_result.value = "1650", 0.0
    v._add()
    assert v.model.opponents == [1600, 1700, 1800, 1650] and v.model.scores[-1] == 0
    assert v.games.value.splitlines()[-1] == "1650 0" and "1 more needed" in text(v.headline)
    v._add(remove=True)
    assert v.model.opponents == [1600, 1700, 1800]
    for _ in range(3):
        v._add(remove=True)
    assert v.model.opponents == [1600] and "1 to 100 games" in v.games_error.value


def test_a_rule_that_cannot_rate_the_games_says_why():
    # an opponent rated 1000: possible before 1 March 2024 (floor 1000), not after (floor 1400)
    v = view(opponents=[1000, 1700, 1800, 1500, 1650], scores=[1, 0.5, 0.5, 1, 0])  # [FL]
    assert "cannot: opponents must be between 1400" in text(v.headline)
    assert "2022 rule (to 29 February 2024): 1550" in text(v.headline)  # 7650 / 5 + 20 = 1550
    assert v.status.value == ""


def test_a_bad_preset_value_changes_nothing():
    m = NewToFideModel()
    with pytest.raises(ValueError, match="Opponent in row 2"):
        m.apply({"opponents": [1600, 5000], "scores": [1, 1]})
    assert m.opponents == EX1["opponents"] and m.scores == EX1["scores"]


def test_view_from_a_link():
    v = NewToFideView(
        NewToFideModel(),
        query="opponents=1400,1450,1500,1500,1550,1600"
        "&scores=1,0,0,0,0,0&on=2023-05-01&rating=1650",
    )
    assert v.notes.value == ""
    assert "1227" in text(v.headline) and "2022 rule" in text(v.headline)  # [EX3], 2022 rule
    assert "1790" in text(v.up) and "1000" in text(v.up)
    assert "opponents=1400%2C1450%2C1500%2C1500%2C1550%2C1600" in v.link.value
    bad = NewToFideView(NewToFideModel(), query="scores=1,2,0,0,0&colour=red")
    assert "scores=1,2,0,0,0 (Result in row 2" in bad.notes.value and "colour" in bad.notes.value
    assert "1743" in text(bad.headline)


# ----------------------------------------------------------------- what the page shows
# The facts tests/site/test_browser_new_to_fide.py asserted in a browser, on the view's widgets
# (the elements the page shows them in: ee-first-value, ee-other-rule, ...) and the model's
# tables the notebook shows live above the view (ee-live-first-rating-table,
# ee-live-uplift-table); the browser keeps one audit (tests/site/specs/d10.py).
import datetime as dt  # noqa: E402
import html as html_module  # noqa: E402

EX3_LINK = "opponents=1400,1450,1500,1500,1550,1600&scores=1,0,0,0,0,0&on=2023-05-01&rating=1650"
EX3_GAMES = "1400 1\n1450 0\n1500 0\n1500 0\n1550 0\n1600 0"


def shown(w, css: str) -> str:
    """The text of the one element with class ``css`` in the widget ``w``'s HTML."""
    found = re.findall(
        r"<(\w+) class=[\"'](?:[^\"']* )?" + re.escape(css) + r"(?: [^\"']*)?[\"']>(.*?)</\1>",
        w.value,
        re.S,
    )
    assert len(found) == 1, (css, found)
    return html_module.unescape(re.sub(r"<[^>]+>", "", found[0][1]))


def widget(root, css: str):
    """The one widget with class ``css`` under ``root`` (the view's own, not the dock's)."""
    found, todo = [], [root]
    while todo:
        w = todo.pop()
        if w is getattr(root, "dock", None):
            continue
        if css in getattr(w, "_dom_classes", ()):
            found.append(w)
        todo.extend(getattr(w, "children", ()))
    assert len(found) == 1, (css, found)
    return found[0]


def rows_of(table) -> dict:
    """A table's rows as the page shows them, by their first cell."""
    return {row[0]: row[1:] for row in table.cells()}


def test_the_page_at_its_defaults_shows_ex1_in_each_place():
    v = view()
    # [EX1]: 1743, the 2022 rule 1670; performance 1722; [UP] 1500 -> 1700; [FL] floor 1400
    assert shown(v.headline, "ee-first-value") == "1743"
    assert shown(v.headline, "ee-other-rule") == "2022 rule (to 29 February 2024): 1670"
    assert shown(v.headline, "ee-performance-value") == "1722"
    assert shown(v.up, "ee-uplift-value") == "1700"
    assert shown(v.up, "ee-floor-value") == "1400"
    assert all(t in text(v.steps) for t in ("1692.86", ".57", "dp = 50"))
    # the notebook's table above the view: both rules
    rows = rows_of(v.model.first_rating_table())
    assert rows["From 1 March 2024"][-2:] == ["1743", "yes"]
    assert "1670" in rows["2022 rule (to 29 February 2024)"]


def test_a_game_added_a_list_pasted_a_bad_row_and_too_few_games():
    v = view()
    # add a row: a draw against 1900 -> Ra 1718.75, 1762 (worked from the rules: Ra =
    # (8250 + 1900 + 3600) / 8 = 1718.75, p = 4.5 / 8 = .5625 -> .56, dp 43 [T], 1761.75)
    v.new_opponent.text.value = "1900"
    widget(v, "ee-new-result").value = 0.5
    widget(v, "ee-add-game").click()
    assert shown(v.headline, "ee-first-value") == "1762"
    assert "1718.75" in text(v.steps)
    assert v.games.value == "1600 1\n1700 0.5\n1800 0.5\n1500 1\n1650 0\n1900 0.5"
    # [EX2] pasted on one line: capped at 2200, the 2022 rule 2300; the preset it is
    v.games.value = "2000 1, 2100 1, 2200 1, 2300 1, 2400 1"
    assert shown(v.headline, "ee-first-value") == "2200" and "2200 (capped)" in text(v.headline)
    assert "2300" in shown(v.headline, "ee-other-rule")
    assert v.preset.value == "5 / 5 against 2000-2400: capped at 2200 (2022 rule 2300)"
    # a bad row: the row and the allowed results named; the numbers stay
    v.games.value = "2000 1\n2100 x"
    assert "Games, row 2" in v.games_error.value
    assert "1 (win), 0.5 or ½ (draw), 0 (loss)" in v.games_error.value
    assert shown(v.headline, "ee-first-value") == "2200"
    # two games: 3 more needed, not published [FL]
    v.games.value = "2000 1\n2100 1"
    assert v.games_error.value == ""
    assert shown(v.headline, "ee-needed") == "3 more needed"
    assert "at least 5" in shown(v.headline, "ee-verdict")


def test_the_1_of_6_example_then_an_earlier_date_then_a_rating():
    v = view()
    v.preset.value = "1 / 6 against 1400-1600: 1382, not published (2022 rule 1227)"
    assert shown(v.headline, "ee-first-value") == "1382"  # [EX3]
    assert "below 1400" in shown(v.headline, "ee-verdict")  # [FL]
    assert f"dp = {M}193" in text(v.steps)  # [T]
    assert "1227" in shown(v.headline, "ee-other-rule")  # [EX3]
    assert v.games.value == EX3_GAMES
    # an event before 1 March 2024: the 2022 rule is in force, the floor is 1000 [FL]
    v.date.value = dt.date(2023, 5, 1)
    assert shown(v.headline, "ee-first-value") == "1227"  # [EX3]
    assert shown(v.up, "ee-floor-value") == "1000"
    assert "under the 2022 rule" in text(v.headline)
    # the uplift, typed: 1650 -> 1790 [UP], a row of the table above
    v.controls["rating"].field.text.value = "1650"
    assert shown(v.up, "ee-uplift-value") == "1790"
    assert rows_of(v.model.uplift_table())["1650"] == ["1790", "+140"]


def test_the_5_of_5_example_in_the_tables_above():
    v = view()
    assert rows_of(v.model.first_rating_table())["From 1 March 2024"][4] == "1743"  # [EX1]
    v.preset.value = "5 / 5 against 2000-2400: capped at 2200 (2022 rule 2300)"
    rows = rows_of(v.model.first_rating_table())  # [EX2]
    assert rows["From 1 March 2024"][4] == "2200 (capped)"
    assert rows["2022 rule (to 29 February 2024)"][4] == "2300"
    assert shown(v.headline, "ee-first-value") == "2200"


def test_a_link_sets_the_view_and_the_tables_alike():
    v = NewToFideView(NewToFideModel(), query=EX3_LINK)
    assert v.notes.value == ""
    # [EX3] on 2023-05-01 the 2022 rule is in force: 1227; from 1 March 2024 1382; [UP] 1790
    assert shown(v.headline, "ee-first-value") == "1227"
    assert shown(v.headline, "ee-other-rule").startswith("From 1 March 2024: 1382")
    assert shown(v.up, "ee-uplift-value") == "1790" and shown(v.up, "ee-floor-value") == "1000"
    assert v.games.value == EX3_GAMES
    table = v.model.first_rating_table()
    assert "on 2023-05-01: the 2022 rule is in force" in table.caption
    assert rows_of(table)["2022 rule (to 29 February 2024)"][4] == "1227"
    assert rows_of(table)["From 1 March 2024"][4] == "1382"
    assert rows_of(v.model.uplift_table())["1650"] == ["1790", "+140"]
    assert "rating=1650" in v.link.value and "on=2023-05-01" in v.link.value
    # a bad rating and an unknown name: noted, the defaults kept ([EX1] 1743)
    bad = NewToFideView(NewToFideModel(), query="rating=99999&colour=red")
    assert (
        "rating=99999 (Rating before 1 March 2024 must be a whole number between 1000 and 3000"
    ) in bad.notes.value and "colour" in bad.notes.value
    assert shown(bad.headline, "ee-first-value") == "1743"


# ----------------------------------------------------------------- the page in the documents' languages
import contextlib  # noqa: E402
import io  # noqa: E402

from elo_explain import translate  # noqa: E402
from elo_explain.i18n import set_language  # noqa: E402
from tests.models.shown import shown_text  # noqa: E402

#: [EX1] Ra 1692.86, p .57 and [UP] R + 0.4 × (2000 − R), in each language's numbers
#: (terms.md: Telugu a decimal point, Ukrainian and Greek a decimal comma).
RA = {"te": "1692.86", "uk": "1692,86", "el": "1692,86"}
P = {"te": "0.57", "uk": "0,57", "el": "0,57"}


@pytest.fixture
def language(request):
    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.mark.parametrize("language", ["te", "uk", "el"], indirect=True)
def test_the_page_in_the_documents_languages_has_no_english_left(language):
    with contextlib.redirect_stdout(io.StringIO()):
        v = view(**EX1)
    m = v.model
    tables = [
        m.first_rating_table(),
        NewToFideModel.worked_examples(),
        NewToFideModel.table_8_1_1(),
        m.uplift_table(),
    ]
    first = tables[0].cells()[0]
    assert first[2] == RA[language] and first[3] == P[language]  # [EX1]
    assert first[5] == "1743"  # [EX1]
    assert ("0,4 ×" if language != "te" else "0.4 ×") in tables[3].caption  # [UP]
    texts = [shown_text(v)] + [t.to_html() for t in tables]
    v.preset.value = list(NewToFideModel.presets)[2]  # [EX3] not published
    texts.append(shown_text(v))
    m.on = "2024-01-15"  # the 2022 rule in force
    texts.append(shown_text(v))
    text = "\n".join(texts)
    assert translate.english_left(text, language) == []
    for english in (
        "First rating under the",
        "Add game",
        "Remove last",
        "Performance rating",
        "Published:",
        "Event ends on",
    ):
        assert english not in text, english
    # a bad pasted row: the message in the page's language
    v.games.value = "1600 1\n1700 3"
    message = v.games_error.value
    assert translate.english_left(message, language) == [] and "the result must be" not in message


@pytest.mark.parametrize("language", ["uk", "el"], indirect=True)
def test_table_8_1_1_rows_and_columns_with_a_decimal_comma(language):
    t = NewToFideModel.table_8_1_1()
    # [T] p .57 = row .50 + column +.07 -> dp 50
    row = next(r for r in t.rows if r[0] == "0,50")
    assert row[t.columns.index("+0,07")] == 50


@pytest.mark.parametrize("language", ["uk", "el"], indirect=True)
def test_a_draw_in_the_games_box_is_a_half_where_the_decimal_symbol_is_a_comma(language):
    # "1700 0,5" would split at the comma that separates games: the box writes ½, reads it
    with contextlib.redirect_stdout(io.StringIO()):
        v = view(**EX1)
    assert v.games.value.splitlines()[1:3] == ["1700 ½", "1800 ½"]
    v.games.value = v.games.value
    assert v.model.scores == [1.0, 0.5, 0.5, 1.0, 0.0] and v.games_error.value == ""
