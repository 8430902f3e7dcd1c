"""Numbers as the pages show them, in the page's language: one module for every format.

Every table, live line, slider readout and figure text of the package formats its numbers
here, with a ``locale`` (``"en"``, ``"te"``, ``"uk"``, ``"el"``, or any other locale Babel
knows); without one, in the page's language (:func:`elo_explain.i18n.language`, English
unless the notebook set another):

* rounding: half away from zero, as FIDE, Go and the documents round (Python's ``round``
  rounds halves to even): :mod:`elo_explain.rounding`;
* the minus sign: :data:`MINUS`, U+2212, in every language (the Ukrainian and Greek
  documents print it; CLDR's ``-`` is not used);
* the decimal symbol, the grouping symbol and sizes, and the percent sign and its place,
  from the Unicode CLDR data that Babel ships (:func:`symbols`). English keeps the
  product's own style, which the pages have always shown: a space before ``%``
  (``64.0 %``, as the Telugu document prints "76 %").

Grouping is off unless asked for (``grouping=True``): the documents print ratings, years
and versions without a separator ("1500", "2400"), so the formats never group a rating.

>>> fmt_pct(70.31), fmt_pct(70.31, locale="uk"), fmt_pct(70.31, locale="el")
('70.3 %', '70,3%', '70,3%')
>>> fmt_number(0.2402), fmt_number(0.2402, locale="uk"), fmt_signed(-16, 0, locale="el")
('0.24', '0,24', '−16')
>>> fmt_number(1234567, 0, grouping=True, locale="te")     # Indian grouping (CLDR: #,##,##0)
'12,34,567'
>>> parse_number("K", "0,5", 0, 100, locale="uk"), parse_number("Rating", "1.500", 0, 4000, locale="el")
(0.5, 1500.0)
"""

from __future__ import annotations

import functools
import math
import re
from decimal import Decimal
from typing import NamedTuple

import numpy as np
from babel import Locale, UnknownLocaleError

from elo_explain import i18n
from elo_explain.i18n import _
from elo_explain.rounding import rounded_decimal

__all__ = [
    "MINUS",
    "NO_NUMBER",
    "NumberSymbols",
    "symbols",
    "fmt_number",
    "fmt_signed",
    "fmt_pct",
    "fmt_pair",
    "fmt_plain",
    "fmt_pattern",
    "fmt_readout",
    "fmt_input",
    "parse_number",
]

MINUS = "\u2212"
"""The minus sign every page shows, in every language (U+2212, as the documents print it)."""
NO_NUMBER = "\u2013"
"""What the number formats show for NaN or an infinity (an en dash)."""


# --- the locale's symbols ---------------------------------------------------------------
class NumberSymbols(NamedTuple):
    """What a locale writes numbers with (:func:`symbols`)."""

    decimal: str
    group: str
    grouping: tuple  # (primary, secondary) group sizes: (3, 3), or (3, 2) for Indian grouping
    percent_prefix: str
    percent_suffix: str


def page_language() -> str:
    """The page's language (:func:`elo_explain.i18n.language`): what a format uses when it
    is given no ``locale``."""
    return i18n.language()


def symbols(locale: str | None = None) -> NumberSymbols:
    """The decimal and grouping symbols, the group sizes and the percent style of ``locale``.

    From Babel's CLDR data (the locale's default numbering system, its decimal and percent
    patterns), except English's percent, which keeps the product's space (``64.0 %``).

    >>> symbols("uk")
    NumberSymbols(decimal=',', group='\\xa0', grouping=(3, 3), percent_prefix='', percent_suffix='%')
    >>> symbols("en").percent_suffix, symbols("te").grouping
    (' %', (3, 2))
    >>> symbols("xx")
    Traceback (most recent call last):
    ...
    ValueError: locale must be a language code such as 'en', 'te', 'uk' or 'el', got 'xx'
    """
    return _symbols(page_language() if locale is None else locale)


@functools.cache
def _symbols(locale) -> NumberSymbols:
    try:
        loc = Locale.parse(locale)
    except (UnknownLocaleError, ValueError, TypeError, AttributeError):
        raise ValueError(
            f"locale must be a language code such as 'en', 'te', 'uk' or 'el', got {locale!r}"
        ) from None
    sym = loc.number_symbols[loc.default_numbering_system]
    percent = loc.percent_formats[None]
    prefix, suffix = (
        s.replace("%", sym["percentSign"]) for s in (percent.prefix[0], percent.suffix[0])
    )
    if loc.language == "en":
        suffix = " " + sym["percentSign"]  # the product's style since the start: "64.0 %"
    return NumberSymbols(
        sym["decimal"], sym["group"], tuple(loc.decimal_formats[None].grouping), prefix, suffix
    )


def _localize(digits: str, sym: NumberSymbols, grouping: bool) -> str:
    """``"1234.5"`` (ASCII digits, no sign) in the locale's symbols, grouped if asked."""
    whole, dot, frac = digits.partition(".")
    if grouping and len(whole) > sym.grouping[0]:
        first, rest = sym.grouping
        parts = [whole[-first:]]
        whole = whole[:-first]
        while whole:
            parts.insert(0, whole[-rest:])
            whole = whole[:-rest]
        whole = sym.group.join(parts)
    return whole + (sym.decimal + frac if dot else "")


# --- formats --------------------------------------------------------------------------------
def fmt_number(x, places: int = 2, *, locale: str | None = None, grouping: bool = False) -> str:
    """A number with ``places`` decimals, half away from zero, minus sign U+2212.

    A number that is not finite (nothing to show yet) is shown as ``–``.

    >>> fmt_number(0.2402), fmt_number(0.035, 1), fmt_number(-0.5, 0), fmt_number(-0.004)
    ('0.24', '0.0', '−1', '0.00')
    >>> fmt_number(float("nan")), fmt_signed(float("inf")), fmt_pct(float("nan"))
    ('–', '–', '–')
    >>> fmt_number(-8.5714, 1, locale="el"), fmt_number(12345.6, 1, locale="uk", grouping=True)
    ('−8,6', '12\\xa0345,6')
    """
    if not math.isfinite(x):
        return NO_NUMBER
    d = rounded_decimal(x, places)
    text = _localize(f"{d.copy_abs():.{places}f}", symbols(locale), grouping)
    return MINUS + text if d < 0 else text


def fmt_signed(x, places: int = 1, *, locale: str | None = None, grouping: bool = False) -> str:
    """A change with its sign, as the documents print them: ``+7.2``, ``−8.6``, ``0.0``.

    >>> fmt_signed(7.2379), fmt_signed(-8.5714), fmt_signed(1.4299), fmt_signed(0.04)
    ('+7.2', '−8.6', '+1.4', '0.0')
    >>> fmt_signed(16, 0), fmt_signed(-27, 0), fmt_signed(0, 0), fmt_signed(-0.35, 1)
    ('+16', '−27', '0', '−0.4')
    >>> fmt_signed(7.2379, locale="uk")
    '+7,2'
    """
    if not math.isfinite(x):
        return NO_NUMBER
    d = rounded_decimal(x, places)
    text = _localize(f"{d.copy_abs():.{places}f}", symbols(locale), grouping)
    return text if d == 0 else ("+" if d > 0 else MINUS) + text


def fmt_pct(percent, places: int = 1, *, locale: str | None = None) -> str:
    """A percentage (already in %): ``64.0 %`` in English (the product's space), the locale's
    percent style from CLDR otherwise (``64,0%`` in Ukrainian and Greek).

    >>> fmt_pct(64.0), fmt_pct(72.34), fmt_pct(12, 0), fmt_pct(64.0, locale="el")
    ('64.0 %', '72.3 %', '12 %', '64,0%')
    """
    text = fmt_number(percent, places, locale=locale)
    if text == NO_NUMBER:
        return text
    sym = symbols(locale)
    return f"{sym.percent_prefix}{text}{sym.percent_suffix}"


def fmt_pair(winner, loser, places: int = 0, *, locale: str | None = None) -> str:
    """Winner's and loser's change in one cell, as the Greek document prints them.

    >>> fmt_pair(8, -16), fmt_pair(8.6, -16.25, 1, locale="el")
    ('+8 / −16', '+8,6 / −16,3')
    """
    return (
        f"{fmt_signed(winner, places, locale=locale)} / {fmt_signed(loser, places, locale=locale)}"
    )


def fmt_plain(x, *, signed: bool = False, locale: str | None = None) -> str:
    """A number as text: a whole number without decimals, others as short as they go (``%g``),
    minus sign U+2212; ``signed`` adds ``+`` to a positive number.

    >>> fmt_plain(1500.0), fmt_plain(-400), fmt_plain(0.5), fmt_plain(2.5, locale="uk")
    ('1500', '−400', '0.5', '2,5')
    >>> fmt_plain(500, signed=True), fmt_plain(-400, signed=True), fmt_plain(0, signed=True)
    ('+500', '−400', '0')
    """
    x = float(x)
    text = _to_locale(str(int(x)) if x.is_integer() else f"{x:g}", locale)
    return "+" + text if signed and x > 0 else text


_TO_LOCALE: dict = {}


def _to_locale(text: str, locale: str | None) -> str:
    """A number's text (``str.format`` output) with U+2212 and the locale's symbols."""
    locale = page_language() if locale is None else locale
    table = _TO_LOCALE.get(locale)
    if table is None:
        sym = symbols(locale)
        table = _TO_LOCALE[locale] = str.maketrans({"-": MINUS, ".": sym.decimal, ",": sym.group})
    return text.translate(table)


def fmt_pattern(value, pattern, *, locale: str | None = None) -> str:
    """A value through a ``str.format`` pattern (``"{:+d}"``, ``"{:.1f}"``; ``None``: ``str``),
    with the minus sign U+2212 and the locale's decimal and grouping symbols when the value is
    a number; other values (text) are shown as they are, ``None`` as nothing. The pattern
    rounds as ``str.format`` does (the tables' cells are already rounded half away from zero).

    >>> fmt_pattern(-16, "{:+d}"), fmt_pattern(64.0, "{:.1f}", locale="uk"), fmt_pattern("a-b", None)
    ('−16', '64,0', 'a-b')
    >>> fmt_pattern(12345.5, "{:,.1f}", locale="el"), fmt_pattern(None, "{:d}")
    ('12.345,5', '')
    """
    if value is None:
        return ""
    text = pattern.format(value) if pattern else str(value)
    return _to_locale(text, locale) if isinstance(value, (int, float, np.number)) else text


def _places(step) -> int:
    """The decimals a slider ``step`` needs: 1 → 0, 0.5 → 1, 0.05 → 2."""
    exponent = Decimal(repr(float(step))).normalize().as_tuple().exponent
    return max(0, -int(exponent))


def fmt_readout(value, step=1, *, locale: str | None = None) -> str:
    """A slider's value as its readout label shows it, with the decimals of its ``step``.

    ipywidgets' own slider readout is formatted by the browser in en-US, whatever the page's
    language; a view hides it (``readout=False``) and shows this text beside the slider.

    >>> fmt_readout(1500), fmt_readout(2.5, 0.5), fmt_readout(2.5, 0.5, locale="uk")
    ('1500', '2.5', '2,5')
    >>> fmt_readout(-0.05, 0.05, locale="el"), fmt_readout(32, 16)
    ('−0,05', '32')
    """
    return fmt_number(value, _places(step), locale=locale)


def fmt_input(value, *, locale: str | None = None) -> str:
    """A number as a text box shows it for editing: ``str(value)`` with the locale's decimal
    symbol (an ASCII ``-``, which a viewer types; :func:`parse_number` reads both).

    >>> fmt_input(1500.0), fmt_input(0.5, locale="uk"), fmt_input(-3, locale="el")
    ('1500.0', '0,5', '-3')
    """
    text = str(value)
    decimal = symbols(locale).decimal
    return text if decimal == "." else text.replace(".", decimal)


# --- parsing --------------------------------------------------------------------------------
_SPACES = " \u00a0\u202f\u2009"
_SPACE_GROUPS = re.compile(rf"(?<=\d)[{_SPACES}](?=\d{{3}}(?:\D|$))")


def _normalized(text: str, locale: str | None) -> str:
    """What a viewer typed, as Python's ``float`` reads it.

    Both minus signs are read. With a decimal point (English, Telugu) a comma is read as a
    decimal point, as the pages always have. With a decimal comma (Ukrainian, Greek) the
    comma is the decimal symbol; the locale's group symbol is dropped where it groups digits
    by threes (a space or no-break space in Ukrainian; a point in Greek, "1.500"); any other
    point is read as a decimal point ("0.5").
    """
    t = text.strip().replace(MINUS, "-")
    sym = symbols(locale)
    if sym.decimal == ".":
        return t.replace(",", ".")
    if sym.group in _SPACES or sym.group.isspace():
        t = _SPACE_GROUPS.sub("", t)
    elif sym.group == "." and re.fullmatch(r"[+-]?[1-9]\d{0,2}(\.\d{3})+(,\d*)?", t):
        t = t.replace(".", "")
    return t.replace(sym.decimal, ".")


def parse_number(
    label: str, text: str, lo: float, hi: float, *, integer: bool = False, locale: str | None = None
) -> float:
    """Parse a number a viewer typed; ``ValueError`` with a message naming the field.

    The locale's decimal symbol is accepted (``0,5`` in Ukrainian and Greek), and so is the
    product's own minus sign. The message's words are in the page's language
    (:func:`elo_explain.i18n.language`), its numbers in ``locale``'s.

    >>> parse_number("Rating", " 1500 ", 0, 4000)
    1500.0
    >>> parse_number("Games", "3", 0, 100, integer=True)
    3
    >>> parse_number("Rating", "abc", 0, 4000)
    Traceback (most recent call last):
    ...
    ValueError: Rating: 'abc' is not a number (allowed: 0 to 4000)
    >>> parse_number("Rating", "nan", 0, 4000)
    Traceback (most recent call last):
    ...
    ValueError: Rating must be a number from 0 to 4000
    >>> parse_number("Change", "−2,5", -10, 10, locale="uk"), parse_number("Rating", "1 500", 0, 4000, locale="uk")
    (-2.5, 1500.0)
    >>> parse_number("K", "1,2,3", 0.5, 100, locale="el")
    Traceback (most recent call last):
    ...
    ValueError: K: '1,2,3' is not a number (allowed: 0,5 to 100)
    """
    locale = page_language() if locale is None else locale
    if locale == "en":
        lo_text, hi_text = f"{lo:g}", f"{hi:g}"
    else:
        lo_text, hi_text = fmt_plain(lo, locale=locale), fmt_plain(hi, locale=locale)
    # the words in the page's language, the numbers in ``locale``'s
    allowed = _("{lo} to {hi}").format(lo=lo_text, hi=hi_text)
    if isinstance(text, str):
        raw = _normalized(text, locale)
        shown = raw if locale == "en" else text.strip()
    else:
        raw = shown = text
    if raw == "" or raw is None:
        raise ValueError(
            _("{label} is empty (allowed: {allowed})").format(label=label, allowed=allowed)
        )
    if len(str(raw)) > 40:
        raise ValueError(
            _("{label} is too long to be a number (allowed: {allowed})").format(
                label=label, allowed=allowed
            )
        )
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise ValueError(
            _("{label}: {text} is not a number (allowed: {allowed})").format(
                label=label, text=repr(str(shown)[:20]), allowed=allowed
            )
        ) from None
    whole = _("{label} must be a whole number from {allowed}")
    if not math.isfinite(value) or value < lo or value > hi:
        if integer:
            raise ValueError(whole.format(label=label, allowed=allowed))
        raise ValueError(
            _("{label} must be a number from {allowed}").format(label=label, allowed=allowed)
        )
    if integer:
        if value != int(value):
            raise ValueError(whole.format(label=label, allowed=allowed))
        return int(value)
    return value
