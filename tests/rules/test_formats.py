"""Numbers in each language (``elo_explain.formats``).

Expected strings are written by hand from two independent sources, never from the code:

* the Unicode CLDR locale data (the version Babel ships, CLDR 49 here), ``numbers`` of
  ``uk``: decimal ``,`` group U+00A0 (no-break space), percent pattern ``#,##0%``; ``el``:
  decimal ``,`` group ``.``, percent ``#,##0%``; ``te``: decimal ``.`` group ``,``, decimal
  pattern ``#,##,##0.###`` (Indian grouping: 3, then 2), percent ``#,##0%``; every one of
  them with minus sign ``-`` (the product keeps U+2212) and the Latin digits as default
  numbering system;
* the documents (``docs/sources.md#greek``, ``#ukrainian``, ``#telugu``): Greek prints "70,3%", "64,0%", "84,9%", "0,5", "1,0 έως
  2,0", "χάνει −16"; Ukrainian "E = 0,5"; Telugu "E 0.64", "+7.2", "0.24".

English is the product's own style and stays as it was: "64.0 %", "+8 / −16", "0.24".
"""

import ast
import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from elo_explain import formats, i18n, rounding, tables
from elo_explain.formats import (
    MINUS,
    fmt_number,
    fmt_pair,
    fmt_pattern,
    fmt_pct,
    fmt_plain,
    fmt_readout,
    fmt_signed,
    parse_number,
    symbols,
)
from elo_explain.rounding import round_half_away

NBSP = "\u00a0"


# --- CLDR's symbols -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "locale, decimal, group, grouping, suffix",
    [
        ("uk", ",", NBSP, (3, 3), "%"),
        ("el", ",", ".", (3, 3), "%"),
        ("te", ".", ",", (3, 2), "%"),
        ("en", ".", ",", (3, 3), " %"),  # English: the product's space before "%"
    ],
)
def test_symbols_are_cldrs(locale, decimal, group, grouping, suffix):
    s = symbols(locale)
    assert (s.decimal, s.group, s.grouping, s.percent_prefix, s.percent_suffix) == (
        decimal,
        group,
        grouping,
        "",
        suffix,
    )


def test_babel_is_the_source():
    from babel import Locale

    # the module reads Babel's data (it carries no table of its own): French's narrow
    # no-break space as group symbol (CLDR since version 34) comes through, and the decimal
    # comma, although no page speaks French
    assert symbols("fr").group == Locale.parse("fr").number_symbols["latn"]["group"] == "\u202f"
    assert symbols("fr").decimal == ","


def test_unknown_locale_is_a_clear_error():
    with pytest.raises(ValueError, match="locale must be a language code .* got 'klingon'"):
        fmt_number(1, locale="klingon")


# --- the documents' numbers, in their languages --------------------------------------------
def test_greek_document_percentages_and_signs():
    # 004: ÷400 84,9%, ÷800 70,3%, ÷1200 64,0% for a favourite 300 up; "χάνει −16"
    assert [fmt_pct(p, locale="el") for p in (84.94, 70.31, 64.01)] == ["84,9%", "70,3%", "64,0%"]
    assert fmt_signed(-16, 0, locale="el") == f"{MINUS}16"
    assert fmt_pair(8, -16, locale="el") == f"+8 / {MINUS}16"
    assert (fmt_number(1, 1, locale="el"), fmt_number(2, 1, locale="el")) == ("1,0", "2,0")
    assert fmt_number(0.5, 1, locale="el") == "0,5"


def test_ukrainian_document_decimal_comma():
    # 002: "Нульова різниця рейтингів дає E = 0,5"; the examples 70,3 (%) and 0,24
    assert fmt_number(0.5, 1, locale="uk") == "0,5"
    assert fmt_number(0.2402, locale="uk") == "0,24"
    assert fmt_pct(70.31, locale="uk") == "70,3%"  # CLDR uk percent "#,##0%": no space
    assert fmt_signed(-8.5714, locale="uk") == f"{MINUS}8,6"


def test_telugu_writes_numbers_as_english_does_but_for_percent():
    # 000: "E 0.64, మార్పు +7.2"; 1500 against 1700: 0.24
    assert fmt_number(0.64, locale="te") == "0.64"
    assert fmt_signed(7.2379, locale="te") == "+7.2"
    assert fmt_number(0.2402, locale="te") == "0.24"
    assert fmt_pct(64.0, locale="te") == "64.0%"  # CLDR te percent "#,##0%"
    assert fmt_signed(-8.6, locale="te") == f"{MINUS}8.6"  # the product's minus, not "-"


def test_english_stays_as_it_was():
    assert fmt_pct(64.0) == "64.0 %"
    assert fmt_pair(8, -16) == f"+8 / {MINUS}16"
    assert fmt_number(0.2402) == "0.24"
    assert fmt_signed(0.04) == "0.0" and fmt_signed(-0.35) == f"{MINUS}0.4"
    assert fmt_number(12345.5, 1) == "12345.5"  # never grouped unless asked


def test_ratings_are_never_grouped_unless_asked():
    # the documents print ratings, years and versions without a separator: "1500", "2400"
    assert [fmt_number(1500, 0, locale=loc) for loc in ("en", "te", "uk", "el")] == ["1500"] * 4
    assert fmt_number(19000, 0, locale="uk", grouping=True) == f"19{NBSP}000"
    assert fmt_number(19000, 0, locale="el", grouping=True) == "19.000"
    assert fmt_number(1234567, 0, locale="te", grouping=True) == "12,34,567"
    assert fmt_number(1234567.25, 2, locale="en", grouping=True) == "1,234,567.25"
    assert fmt_number(-1234567, 0, locale="el", grouping=True) == f"{MINUS}1.234.567"


def test_minus_sign_in_every_language():
    for loc in i18n.LANGUAGES:
        assert fmt_number(-2.5, 1, locale=loc)[0] == MINUS
        assert fmt_plain(-400, locale=loc) == f"{MINUS}400"
        assert "-" not in fmt_pattern(-16, "{:+d}", locale=loc)


# --- rounding: as before, in every language --------------------------------------------------
def test_rounding_is_half_away_from_zero_everywhere():
    # Python's round(): halves to even (0, 2, -2); FIDE and the documents: away from zero
    assert [round_half_away(x) for x in (0.5, 2.5, -2.5, -0.5)] == [1.0, 3.0, -3.0, -1.0]
    assert round_half_away(2.675, 2) == 2.68  # its shortest form 2.675, not 2.67499...
    assert round_half_away(Fraction(11, 2)) == 6  # FIDE's exact 5.5
    assert round_half_away(Fraction(-11, 2)) == -6
    for loc in ("en", "uk", "el", "te"):
        assert fmt_number(0.125, 2, locale=loc).endswith("13")
        assert fmt_signed(-0.25, 1, locale=loc) == f"{MINUS}0{symbols(loc).decimal}3"


@given(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e17, max_value=1e17)
    | st.integers(-(10**6), 10**6).map(lambda n: n / 2)
)
def test_fide_and_go_round_every_float_to_the_same_whole_number(x):
    # FIDE's rounding read from the number as written (its shortest decimal form, half up)
    # and Go's math.Round of the float's exact value (a Fraction: no float error) agree, and
    # round_half_away is both (the claim of elo_explain.rounding)
    from decimal import ROUND_HALF_UP, Decimal

    fide_way = float(Decimal(repr(x)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    exact = Fraction(x)
    go_way = float(math.floor(abs(exact) + Fraction(1, 2)) * (1 if exact >= 0 else -1))
    assert round_half_away(x) == fide_way == go_way


def test_tables_and_live_numbers_round_alike():
    # a table cell and a live line show the same number the same way
    rounded = round_half_away([64.05, 2.675 * 100, 0.35], 1)
    assert list(rounded) == [64.1, 267.5, 0.4]


def _exported(module: str) -> set[str]:
    """A package module's ``__all__``, read from its source (not imported: the dashboards'
    framework needs more than these rules' tests have)."""
    path = Path(formats.__file__).parent.joinpath(*module.split(".")).with_suffix(".py")
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            getattr(t, "id", "") == "__all__" for t in node.targets
        ):
            return set(ast.literal_eval(node.value))
    return set()


def test_every_format_has_one_home():
    # one convention on every page: each format is defined once, in formats (rounding in
    # rounding), and no other module hands it on (no re-exports: one place to look)
    for name in (
        "MINUS",
        "fmt_number",
        "fmt_signed",
        "fmt_pct",
        "fmt_pair",
        "parse_number",
        "fmt_readout",
    ):
        assert name in formats.__all__
        assert not hasattr(rounding, name)
        for module in ("interactive.figures", "interactive.page", "tables"):
            assert _exported(module), module
            assert name not in _exported(module)
    assert "round_half_away" in rounding.__all__ and not hasattr(formats, "round_half_away")


# --- tables ------------------------------------------------------------------------------------
def test_a_document_table_in_greek_and_in_english():
    t = tables.divisor_history()  # ÷400 84.9, ÷800 70.3, ÷1200 64.0; +9 / −23
    assert [row[2] for row in t.cells(locale="el")] == ["84,9", "70,3", "64,0"]
    assert [row[2] for row in t.cells()] == ["84.9", "70.3", "64.0"]
    assert t.cells(locale="uk")[1][3:] == ["+9", f"{MINUS}23"]
    assert "<td>1,17</td>" in tables.cube_table().to_html(locale="el")  # 004: 1,17
    assert "<td>1.17</td>" in tables.cube_table().to_html()


# --- typed numbers -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "locale, typed, value",
    [
        ("uk", "0,5", 0.5),
        ("uk", "0.5", 0.5),
        ("uk", "1 500", 1500.0),
        ("uk", f"1{NBSP}500", 1500.0),
        ("uk", f"{MINUS}2,5", -2.5),
        ("el", "0,5", 0.5),
        ("el", "1.500", 1500.0),
        ("el", "1.234,5", 1234.5),
        ("el", "0.5", 0.5),
        ("el", "1.5", 1.5),
        ("te", "0.5", 0.5),
        ("te", "0,5", 0.5),
        ("en", "0,5", 0.5),
        ("en", f"{MINUS}3", -3.0),
    ],
)
def test_typed_numbers_in_the_languages_symbols(locale, typed, value):
    assert parse_number("X", typed, -4000, 4000, locale=locale) == value


def test_typed_errors_name_the_field_and_range_in_the_languages_numbers():
    with pytest.raises(ValueError, match=r"^K: '1,2,3' is not a number \(allowed: 0,5 to 100\)$"):
        parse_number("K", "1,2,3", 0.5, 100, locale="uk")
    with pytest.raises(ValueError, match=f"^Change must be a number from {MINUS}10 to 10$"):
        parse_number("Change", "11", -10, 10, locale="el")
    with pytest.raises(ValueError, match=r"^Change must be a number from -10 to 10$"):
        parse_number("Change", "11", -10, 10)  # English: as before


# --- slider readouts ------------------------------------------------------------------------------
def test_slider_readout_has_the_steps_decimals_in_the_language():
    assert fmt_readout(1200, 100) == "1200"
    assert fmt_readout(2.5, 0.5, locale="uk") == "2,5"
    assert fmt_readout(3, 0.5, locale="el") == "3,0"
    assert fmt_readout(-0.05, 0.05, locale="el") == f"{MINUS}0,05"
    assert fmt_readout(0.25, 0.05) == "0.25"


# --- nothing typed or computed crashes a format -----------------------------------------------

LOCALES = st.sampled_from(i18n.LANGUAGES)


@given(st.text(max_size=50), LOCALES, st.booleans())
def test_any_typed_text_is_a_number_in_range_or_a_clear_error(text, locale, integer):
    try:
        value = parse_number("Rating", text, -4000, 4000, integer=integer, locale=locale)
    except ValueError as exc:
        assert str(exc).startswith("Rating")
    else:
        assert -4000 <= value <= 4000


@given(st.floats(allow_nan=True, allow_infinity=True), st.integers(0, 6), LOCALES, st.booleans())
def test_any_float_formats_in_every_language(x, places, locale, grouping):
    text = fmt_number(x, places, locale=locale, grouping=grouping)
    assert text == formats.NO_NUMBER or ("-" not in text and text.lstrip(MINUS)[0].isdigit())
    assert isinstance(fmt_signed(x, places, locale=locale), str)
    assert isinstance(fmt_pct(x, places, locale=locale), str)
    assert isinstance(fmt_readout(x, 0.5, locale=locale), str)
