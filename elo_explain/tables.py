"""Every table the documents print, as data a notebook renders and a test checks.

Each function returns a :class:`Table` (``.columns``, ``.rows``, ``.caption``,
``.to_html()``; a notebook cell showing a table renders it as HTML; a :class:`RowTable`
formats each row its own way). The
defaults reproduce the printed table; the parameters let a notebook explore
(other differences, another K, other divisors...). Cells hold numbers at the
precision the document prints (percentages to 0.1, coefficients to 0.01,
rating changes as whole numbers), rounded half away from zero; the HTML shows
signs the way the documents do (``+16``, ``−16``, ``±16``).

Gammon42 tables (Greek document, ``docs/sources.md#greek``):

* :func:`divisor_comparison` -- the favourite's expected win rate by difference (step 1);
* :func:`changes_by_difference` -- K 32 changes, favourite wins / underdog wins (step 2);
* :func:`k_comparison` -- K 32 vs K 16 (step 3);
* :func:`divisor_history` -- ÷400 / ÷800 / ÷1200 for a favourite 300 up;
* :func:`cube_table` -- the cube coefficients with ±K 32 / ±K 16;
* :func:`ladder_replay` -- a :class:`~elo_explain.gammon42.Ladder` replay, game by game.

FIDE: :func:`fide_table_8_1_2` (FIDE Rating Regulations, table 8.1.2); the Telugu
document's 400-point example (:func:`cap_example_table`); FIDE's K rules, the one that
applies marked (:func:`k_rules_table`).

A number a notebook cell shows is a :class:`Sentence`: the number in words and the
product's formats (``+12 / −20``, ``64.0 %``), with the plain value beside it for code.
A :class:`Table` or a :class:`Sentence` that a model method declared with
:func:`elo_explain.interactive.live.depends` returns is displayed live in a notebook: the
cell's output follows the model (see :mod:`elo_explain.interactive.live`).

>>> t = changes_by_difference()
>>> t.columns[:3]
('Rating difference', 'Favourite wins: favourite', 'Favourite wins: underdog')
>>> t.rows[1]
(100, 14, -14, 18, -18)
"""

from __future__ import annotations

import csv
import html
import io
import re
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import fide
from . import gammon42 as g42
from ._validate import as_float_array, choice, finite, positive
from .formats import MINUS, fmt_number, fmt_pattern, fmt_signed, symbols
from .i18n import N_, _, ngettext, pgettext
from .rounding import round_half_away

__all__ = [
    "Table",
    "RowTable",
    "Sentence",
    "divisor_comparison",
    "changes_by_difference",
    "k_comparison",
    "divisor_history",
    "cube_table",
    "ladder_replay",
    "fide_table_8_1_2",
    "cap_example_table",
    "k_rules_table",
]

TABLE_CSS = """
table.ee-table { border-collapse: collapse; margin: 0.4em 0 0.8em 0; }
table.ee-table th, table.ee-table td { border: 1px solid #ccc; padding: 2px 8px;
    text-align: right; font-variant-numeric: tabular-nums; }
table.ee-table th { background: #f3f3f3; }
table.ee-table caption { caption-side: top; text-align: left; font-weight: 600; }
table.ee-table tr.ee-highlight td { background: #fff3c4; }
table.ee-table td.ee-left, table.ee-table th.ee-left { text-align: left; }
p.ee-sentence { margin: 0.3em 0 0.6em 0; font-variant-numeric: tabular-nums; }
p.ee-csv-line { margin: -0.6em 0 0.8em 0; font-size: 0.85em; }
p.ee-csv-line a.ee-csv { color: #1a5fb4; text-decoration: underline; }
@media print { p.ee-csv-line { display: none; } }
.ee-live { max-width: 100%; }
.ee-live > .widget-html-content { line-height: 1.4; overflow-x: auto; }
"""
"""How every table and sentence looks, in a notebook cell's output and on a dashboard
(``.ee-live``: a cell's output that follows its model, an HTML widget)."""


def csv_text(columns, cells, *, locale: str | None = None) -> str:
    """A table as a spreadsheet reads it: the page's column titles and the cells as the page
    shows them (its precision, its decimal symbol), with an ASCII ``-`` for the page's minus
    sign U+2212 (which spreadsheets do not read as a number; in the titles too); fields separated by ``;`` where
    the decimal symbol is a comma (Ukrainian, Greek: as their spreadsheets expect), else by
    ``,``; a UTF-8 byte order mark first, so a spreadsheet reads the text as UTF-8.

    >>> csv_text(("d", "E"), [["0", "\\u221216"], ["1,5", "x"]], locale="uk")
    '\\ufeffd;E\\r\\n0;-16\\r\\n1,5;x\\r\\n'
    >>> csv_text(("Score", "Rating"), [["9.5", "1,506"]], locale="en")
    '\\ufeffScore,Rating\\r\\n9.5,"1,506"\\r\\n'
    """
    sep = ";" if symbols(locale).decimal == "," else ","
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, lineterminator="\r\n")
    writer.writerows([str(c).replace(MINUS, "-") for c in row] for row in (columns, *cells))
    return "\ufeff" + out.getvalue()


def csv_link(columns, cells, caption: str = "", *, locale: str | None = None) -> str:
    """A "CSV" link that downloads the table (:func:`csv_text`) from a ``data:`` URI: no
    request to the server, so it works in a Voilà page as in a notebook. The file is named
    after the caption.

    >>> print(csv_link(("d",), [["1"]], "Win rate"))
    <p class="ee-csv-line"><a class="ee-csv" href="data:text/csv;charset=utf-8,%EF%BB%BFd%0D%0A1%0D%0A" download="Win-rate.csv" title="Download this table (CSV)">CSV</a></p>
    """
    data = urllib.parse.quote(csv_text(columns, cells, locale=locale), safe="")
    name = re.sub(r"[^\w]+", "-", caption).strip("-")[:60].strip("-") or "table"
    title = html.escape(_("Download this table (CSV)"))
    return (
        f'<p class="ee-csv-line"><a class="ee-csv" href="data:text/csv;charset=utf-8,{data}"'
        f' download="{html.escape(name)}.csv" title="{title}">CSV</a></p>'
    )


def _num_text(value, fmt, locale: str | None = None) -> str:
    return fmt(value) if callable(fmt) else fmt_pattern(value, fmt, locale=locale)


class Displayable:
    """What a notebook cell shows for a result: its HTML and its plain text.

    A result returned by a method declared with ``@depends`` carries its origin (the
    model, the method and its arguments) in ``_live``; displayed in a Jupyter kernel it
    is then a live widget that follows the model, with this HTML as its static copy
    (for a reader without widgets, and for tests that read a notebook's outputs).
    """

    def _repr_html_(self) -> str:
        return f"<style>{TABLE_CSS}</style>" + self.to_html()

    def _static_bundle(self) -> dict:
        return {"text/html": self._repr_html_(), "text/plain": self.plain()}

    def _repr_mimebundle_(self, include=None, exclude=None):
        live = self.__dict__.get("_live")
        bundle = live.mimebundle(self) if live is not None else None
        return bundle if bundle is not None else self._static_bundle()


@dataclass(frozen=True)
class Table(Displayable):
    """A printed table as data.

    The tables below are made in the page's language (their caption and column names:
    :mod:`elo_explain.i18n`), so a column is looked up by the name the page shows.

    ``formats`` (optional, one per column) turns a cell into text for
    :meth:`to_html`: a ``str.format`` pattern such as ``"{:+d}"`` or a callable;
    ``None`` means ``str``. Negative numbers are shown with a true minus sign, and
    :meth:`cells` and :meth:`to_html` take the page's ``locale`` (its decimal symbol; see
    :mod:`elo_explain.formats`; a callable format formats in its own language).

    >>> t = Table(("d", "E (%)"), ((0, 50.0), (300, 64.0)), "Win rate", (None, "{:.1f}"))
    >>> t.column("E (%)")
    (50.0, 64.0)
    >>> t.to_html()
    '<table class="ee-table"><caption>Win rate</caption><tr><th>d</th><th>E (%)</th></tr><tr><td>0</td><td>50.0</td></tr><tr><td>300</td><td>64.0</td></tr></table>'
    """

    columns: tuple
    rows: tuple
    caption: str = ""
    formats: tuple | None = None
    source: str = ""

    def __post_init__(self):
        object.__setattr__(self, "columns", tuple(self.columns))
        object.__setattr__(self, "rows", tuple(tuple(r) for r in self.rows))
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(
                    f"rows[{i}] must have {len(self.columns)} cells (one per column), "
                    f"got {len(row)}"
                )
        if self.formats is not None:
            object.__setattr__(self, "formats", tuple(self.formats))
            if len(self.formats) != len(self.columns):
                raise ValueError(
                    f"formats must have {len(self.columns)} entries (one per column), "
                    f"got {len(self.formats)}"
                )

    def __len__(self) -> int:
        return len(self.rows)

    def column(self, name: str) -> tuple:
        """The cells of column ``name``, top to bottom.

        >>> divisor_comparison().column("Rating difference")[:3]
        (0, 50, 100)
        """
        choice("name", name, self.columns)
        i = self.columns.index(name)
        return tuple(row[i] for row in self.rows)

    def cells(self, *, locale: str | None = None) -> list:
        """Every row as display strings (the text :meth:`to_html` shows).

        >>> changes_by_difference().cells()[0], divisor_history().cells(locale="el")[1][2]
        (['0', '+16', '−16', '+16', '−16'], '70,3')
        """
        fmts = self.formats or (None,) * len(self.columns)
        return [[_num_text(v, f, locale) for v, f in zip(row, fmts)] for row in self.rows]

    def to_html(self, *, highlight: int | None = None, locale: str | None = None) -> str:
        """``<table class="ee-table">`` with the caption; row ``highlight`` gets ``ee-highlight``.

        >>> '<td>+12</td>' in changes_by_difference().to_html(highlight=3)
        True
        """
        parts = ['<table class="ee-table">']
        if self.caption:
            parts.append(f"<caption>{html.escape(self.caption)}</caption>")
        parts.append(  # an empty corner (row names below it) is no header: a plain cell
            "<tr>"
            + "".join(
                f"<th>{html.escape(str(c))}</th>" if str(c) else "<td></td>" for c in self.columns
            )
            + "</tr>"
        )
        for i, row in enumerate(self.cells(locale=locale)):
            cls = ' class="ee-highlight"' if highlight is not None and i == highlight else ""
            parts.append(
                f"<tr{cls}>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
            )
        parts.append("</table>")
        return "".join(parts)

    def csv(self, *, locale: str | None = None) -> str:
        """The table as CSV (:func:`csv_text`): its column titles and its cells as
        :meth:`cells` shows them, in the page's language or ``locale``'s."""
        return csv_text(self.columns, self.cells(locale=locale), locale=locale)

    def _repr_html_(self) -> str:
        """The table as a notebook cell shows it (with its style: in a Voilà page it stands
        outside the dashboard's root), and its "CSV" link (:func:`csv_link`)."""
        return (
            f"<style>{TABLE_CSS}</style>"
            + self.to_html()
            + csv_link(self.columns, self.cells(), self.caption)
        )

    def plain(self) -> str:
        """The table as plain text: the caption, then one line per row, cells separated by
        `` | `` (what a reader without HTML sees).

        >>> print(Table(("d", "E"), ((300, -1),), "Caption", (None, "{:+d}")).plain())
        Caption
        d | E
        300 | −1
        """
        lines = [self.caption] if self.caption else []
        lines += [" | ".join(map(str, self.columns))] + [" | ".join(r) for r in self.cells()]
        return "\n".join(lines)


@dataclass(frozen=True)
class RowTable(Table):
    """A :class:`Table` whose rows each have their own formats (``row_formats``: one per
    row, one format per cell, as ``Table.formats``), for a table whose rows are different
    quantities (a rating, a difference, E) of the same players.
    The rows hold numbers; the cells are formatted when shown, in the page's language, or
    in ``locale``'s (a callable format is then called with ``locale=``).

    >>> from elo_explain.formats import fmt_signed
    >>> t = RowTable(("", "A"), (("E", 0.96), ("Change", -1.24)), "",
    ...              row_formats=((None, "{:.2f}"), (None, fmt_signed)))
    >>> t.cells(), t.cells(locale="uk")[0]
    ([['E', '0.96'], ['Change', '−1.2']], ['E', '0,96'])
    """

    row_formats: tuple = ()

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "row_formats", tuple(map(tuple, self.row_formats)))
        if len(self.row_formats) != len(self.rows) or any(
            len(f) != len(self.columns) for f in self.row_formats
        ):
            raise ValueError(
                f"row_formats must have {len(self.rows)} rows of "
                f"{len(self.columns)} formats (one per cell)"
            )

    def cells(self, *, locale: str | None = None) -> list:
        """Every row as display strings, each cell with its row's format, in the page's
        language or ``locale``'s."""

        def shown(value, fmt):
            if not callable(fmt):
                return fmt_pattern(value, fmt, locale=locale)
            return fmt(value) if locale is None else fmt(value, locale=locale)

        return [
            [shown(v, f) for v, f in zip(row, fmts)]
            for row, fmts in zip(self.rows, self.row_formats)
        ]


@dataclass(frozen=True)
class Sentence(Displayable):
    """A number (or a few) as a cell shows it: a sentence in the product's formats, one
    paragraph per line of ``text``; ``value`` keeps the plain number(s) for code.

    >>> s = Sentence("Winner +9, loser −19", (9, -19))
    >>> s.value, str(s), s.to_html()
    ((9, -19), 'Winner +9, loser −19', '<p class="ee-sentence">Winner +9, loser −19</p>')
    >>> Sentence("a < b\\nsecond line").to_html()
    '<p class="ee-sentence">a &lt; b</p><p class="ee-sentence">second line</p>'
    """

    text: str
    value: object = None

    def __str__(self) -> str:
        return self.text

    def plain(self) -> str:
        return self.text

    def to_html(self) -> str:
        return "".join(
            f'<p class="ee-sentence">{html.escape(line)}</p>' for line in self.text.splitlines()
        )


# --- helpers ------------------------------------------------------------------------------
def _differences(value) -> np.ndarray:
    arr = as_float_array("differences", value)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("differences must be a non-empty list of rating differences")
    finite("differences", arr, lo=0)
    return arr


def _plain(x):
    """A whole float as ``int`` (``300.0`` -> ``300``), else the float."""
    x = float(x)
    return int(x) if x.is_integer() else x


def _pct(x) -> float:
    return float(round_half_away(100 * np.asarray(x), 1))


def _k(name: str, value) -> float:
    """A K in 0 < K <= :data:`~elo_explain.gammon42.MAX_K` (1000)."""
    return g42._k(name, value)


def _ks(name: str, value) -> tuple:
    return _sequence(name, value, g42._k)


def _cubes(value) -> np.ndarray:
    """Cube values (1, 2, 4, ..., 64) as a 1-d float array; errors name ``cubes``."""
    arr = np.atleast_1d(as_float_array("cubes", value))
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("cubes must be a non-empty list of cube values")
    ok = np.isin(arr, g42.CUBE_VALUES)
    if not ok.all():
        bad = arr[~ok].flat[0]
        shown = int(bad) if np.isfinite(bad) and bad == int(bad) else float(bad)
        listed = ", ".join(str(c) for c in g42.CUBE_VALUES)
        raise ValueError(f"cubes must each be one of {listed}, got {shown!r}")
    return arr


def _sequence(name: str, value, check) -> tuple:
    arr = as_float_array(name, value)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty list")
    check(name, arr)
    return tuple(_plain(v) for v in arr)


_SIGNED = "{:+d}"
_GREEK = "Gammon42, Greek document (docs/sources.md#greek)"


# --- Gammon42 -----------------------------------------------------------------------------
DOC_WIN_RATE_DIFFERENCES = (0, 50, 100, 150, 200, 300, 400, 500)
DOC_CHANGE_DIFFERENCES = (0, 100, 200, 300, 400)
DOC_K_DIFFERENCES = (0, 150, 300)
DOC_DIVISORS = (400, 800, 1200)


def divisor_comparison(differences=DOC_WIN_RATE_DIFFERENCES, divisors=(g42.DIVISOR,)) -> Table:
    """The favourite's expected win rate (%) by rating difference, one column per divisor.

    The default is the document's step-1 table (÷1200); pass ``divisors=(400, 800, 1200)``
    to compare the three versions.

    >>> divisor_comparison().column("Expected win rate of the favourite, ÷1200 (%)")
    (50.0, 52.4, 54.8, 57.1, 59.5, 64.0, 68.3, 72.3)
    >>> divisor_comparison([200], divisors=(400, 1200)).rows
    ((200, 76.0, 59.5),)
    """
    diffs = _differences(differences)
    divs = _sequence("divisors", divisors, positive)
    cols = [
        np.atleast_1d(round_half_away(100 * g42.expected_score(diffs, 0.0, d), 1)) for d in divs
    ]
    rows = tuple((_plain(d), *(float(c[i]) for c in cols)) for i, d in enumerate(diffs))
    columns = (_("Rating difference"),) + tuple(
        _("Expected win rate of the favourite, ÷{divisor} (%)").format(divisor=f"{d:g}")
        for d in divs
    )
    return Table(
        columns,
        rows,
        _("Expected win rate of the favourite by rating difference"),
        (None,) + ("{:.1f}",) * len(divs),
        source=f"{_GREEK}, step 1",
    )


def changes_by_difference(
    differences=DOC_CHANGE_DIFFERENCES, *, k=g42.K, cube=1, divisor=g42.DIVISOR
) -> Table:
    """Rating changes by difference when the favourite wins and when the underdog wins.

    Each outcome has the winner's and the loser's change (both players with ``k``,
    0 < ``k`` <= 1000).

    >>> for row in changes_by_difference().rows: print(row)
    (0, 16, -16, 16, -16)
    (100, 14, -14, 18, -18)
    (200, 13, -13, 19, -19)
    (300, 12, -12, 20, -20)
    (400, 10, -10, 22, -22)
    """
    diffs = _differences(differences)
    k = _k("k", k)
    fav_w, fav_l = g42.change(diffs, 0.0, winner_k=k, loser_k=k, cube=cube, divisor=divisor)
    dog_w, dog_l = g42.change(0.0, diffs, winner_k=k, loser_k=k, cube=cube, divisor=divisor)
    fav_w, fav_l, dog_w, dog_l = (np.atleast_1d(a) for a in (fav_w, fav_l, dog_w, dog_l))
    rows = tuple(
        (_plain(d), int(fav_w[i]), int(fav_l[i]), int(dog_w[i]), int(dog_l[i]))
        for i, d in enumerate(diffs)
    )
    return Table(
        (
            _("Rating difference"),
            _("Favourite wins: favourite"),
            _("Favourite wins: underdog"),
            _("Underdog wins: underdog"),
            _("Underdog wins: favourite"),
        ),
        rows,
        _("Rating changes with K = {k}, cube {cube} (winner / loser)").format(
            k=fmt_pattern(_plain(k), None), cube=fmt_pattern(cube, None)
        ),
        (None, _SIGNED, _SIGNED, _SIGNED, _SIGNED),
        source=f"{_GREEK}, step 2",
    )


def k_comparison(
    differences=DOC_K_DIFFERENCES, ks=(g42.K, g42.HEAVY_VOLUME_K), *, cube=1, divisor=g42.DIVISOR
) -> Table:
    """The favourite's change when they win and when they lose, for each K (0 < K <= 1000).

    >>> for row in k_comparison().rows: print(row)
    (0, 16, -16, 8, -8)
    (150, 14, -18, 7, -9)
    (300, 12, -20, 6, -10)
    """
    diffs = _differences(differences)
    ks = _ks("ks", ks)
    cols = []
    for k in ks:
        wins, _loses = g42.change(diffs, 0.0, winner_k=k, loser_k=k, cube=cube, divisor=divisor)
        _wins, loses = g42.change(0.0, diffs, winner_k=k, loser_k=k, cube=cube, divisor=divisor)
        cols += [np.atleast_1d(wins), np.atleast_1d(loses)]
    rows = tuple((_plain(d), *(int(c[i]) for c in cols)) for i, d in enumerate(diffs))
    columns = (_("Rating difference"),)
    for k in ks:
        shown = fmt_pattern(k, None)
        columns += (
            _("K = {k}: favourite wins").format(k=shown),
            _("K = {k}: favourite loses").format(k=shown),
        )
    listed = f"K = {fmt_pattern(ks[0], None)}"
    for k in ks[1:]:
        listed = _("{first} and {second}").format(
            first=listed, second=f"K = {fmt_pattern(k, None)}"
        )
    return Table(
        columns,
        rows,
        _("The favourite's change with {ks}").format(ks=listed),
        (None,) + (_SIGNED,) * (2 * len(ks)),
        source=f"{_GREEK}, step 3",
    )


_DIVISOR_LABELS = {
    400: N_("Before 1.2.0"),
    800: N_("1.2.0 to 1.3.0"),
    1200: N_("From 1.3.1"),
}


def divisor_history(difference=300, *, divisors=DOC_DIVISORS, k=g42.K) -> Table:
    """Expected win rate and points for a win / a loss of a favourite ``difference`` up.

    One row per divisor (the document prints the same figures with the versions as
    columns): ÷400 before 1.2.0, ÷800 from 1.2.0 to 1.3.0, ÷1200 from 1.3.1.

    >>> for row in divisor_history().rows: print(row)
    ('Before 1.2.0', 400, 84.9, 5, -27)
    ('1.2.0 to 1.3.0', 800, 70.3, 9, -23)
    ('From 1.3.1', 1200, 64.0, 12, -20)
    """
    if np.ndim(as_float_array("difference", difference)) != 0:
        raise TypeError(f"difference must be a single number, got {difference!r}")
    diff = float(finite("difference", difference, lo=0))
    divs = _sequence("divisors", divisors, positive)
    k = _k("k", k)
    rows = []
    for d in divs:
        e = g42.expected_score(diff, 0.0, d)
        win, _loss = g42.change(diff, 0.0, winner_k=k, loser_k=k, divisor=d)
        _win, loss = g42.change(0.0, diff, winner_k=k, loser_k=k, divisor=d)
        label = _DIVISOR_LABELS.get(d)
        rows.append((_(label) if label else f"÷{d:g}", d, _pct(e), win, loss))
    return Table(
        (
            _("Version"),
            _("Divisor"),
            _("Expected win rate (%)"),
            _("Points for a win"),
            _("Points for a loss"),
        ),
        rows,
        (
            ngettext(
                "A favourite {difference} point up, K = {k}",
                "A favourite {difference} points up, K = {k}",
                diff,
            )
            if diff.is_integer()
            # TRANSLATORS: {difference} is not a whole number here (2.5): the form a fraction takes.
            else pgettext("a fraction", "A favourite {difference} points up, K = {k}")
        ).format(difference=fmt_pattern(_plain(diff), None), k=fmt_pattern(_plain(k), None)),
        (None, None, "{:.1f}", _SIGNED, _SIGNED),
        source=f"{_GREEK}, why divide by 1200",
    )


def _pm(value) -> str:
    return f"±{value}"


def cube_table(
    cubes=g42.CUBE_VALUES,
    ks=(g42.K, g42.HEAVY_VOLUME_K),
    *,
    rating=g42.STARTING,
    mode="coefficient",
    divisor=g42.DIVISOR,
) -> Table:
    """The cube's multiplier and the change of two players at ``rating`` for each K.

    ``mode="direct"`` shows the rule before 1.0.5 (the cube multiplied the points).
    The change cells are the winner's gain; the loser loses the same (``±``). ``cubes``
    are values of the cube (1, 2, 4, ..., 64), ``ks`` values 0 < K <= 1000.

    >>> for row in cube_table().rows: print(row)
    (1, 1.0, 16, 8)
    (2, 1.17, 19, 9)
    (4, 1.33, 21, 11)
    (8, 1.5, 24, 12)
    (16, 1.67, 27, 13)
    (32, 1.83, 29, 15)
    (64, 2.0, 32, 16)
    >>> cube_table([64], [32], mode="direct").rows
    ((64, 64.0, 1024),)
    """
    cubes = _cubes(cubes)
    choice("mode", mode, g42.CUBE_MODES)
    mult = np.atleast_1d(g42.cube_multiplier(cubes, mode))
    ks = _ks("ks", ks)
    rating = finite("rating", rating)
    cols = [
        np.atleast_1d(
            g42.change(
                rating, rating, winner_k=k, loser_k=k, cube=cubes, divisor=divisor, cube_mode=mode
            )[0]
        )
        for k in ks
    ]
    mult_shown = round_half_away(mult, 2)
    rows = tuple(
        (int(c), float(mult_shown[i]), *(int(col[i]) for col in cols)) for i, c in enumerate(cubes)
    )
    name = _("Coefficient") if mode == "coefficient" else _("Multiplier")
    columns = (_("Cube"), name) + tuple(
        _("Two players at {rating}, K = {k}").format(
            rating=fmt_pattern(_plain(rating), None), k=fmt_pattern(k, None)
        )
        for k in ks
    )
    caption = (
        # TRANSLATORS: Formula: the cube coefficient in the page's words
        # (Greek, as its document: "συντελεστής = 1 + log2(κύβος) / 6").
        _("Doubling cube: coefficient = 1 + log2(cube) / 6")
        if mode == "coefficient"
        else _("Doubling cube before 1.0.5: the cube multiplied the points")
    )
    return Table(
        columns,
        rows,
        caption,
        (None, "{:.2f}") + (_pm,) * len(ks),
        source=f"{_GREEK}, the doubling cube",
    )


def ladder_replay(games: Sequence) -> Table:
    """A :class:`~elo_explain.gammon42.Ladder` replay (its :class:`LadderGame` records) as a table.

    >>> from datetime import datetime
    >>> games = g42.Ladder().replay([(datetime(2026, 10, 1), "ana", "bob", 2)])
    >>> ladder_replay(games).rows
    ((1, 'ana', 'bob', 2, 1500, 1500, 32, 32, 19, -19, 1519, 1481),)
    """
    if isinstance(games, (str, bytes, dict)) or not hasattr(games, "__iter__"):
        raise TypeError(
            f"games must be a sequence of gammon42.LadderGame records (Ladder.replay's "
            f"result), got {games!r}"
        )
    rows = []
    for i, g in enumerate(games):
        if not isinstance(g, g42.LadderGame):
            raise TypeError(f"games[{i}] must be a gammon42.LadderGame, got {g!r}")
        rows.append(
            (
                g.index + 1,
                g.winner,
                g.loser,
                g.cube,
                g.winner_before,
                g.loser_before,
                g.winner_k,
                g.loser_k,
                g.winner_delta,
                g.loser_delta,
                g.winner_after,
                g.loser_after,
            )
        )
    return Table(
        (
            _("Game"),
            _("Winner"),
            _("Loser"),
            _("Cube"),
            _("Winner before"),
            _("Loser before"),
            _("Winner K"),
            _("Loser K"),
            _("Winner change"),
            _("Loser change"),
            _("Winner after"),
            _("Loser after"),
        ),
        rows,
        _("Ladder replay: every player's K from their own last 7 days"),
        (None, str, str, None, None, None, None, None, _SIGNED, _SIGNED, None, None),
    )


# --- FIDE ---------------------------------------------------------------------------------
def _upper(value) -> str:
    return _("and more") if value is None else str(value)


def fide_table_8_1_2() -> Table:
    """FIDE Rating Regulations table 8.1.2: difference D -> PD of the higher and lower rated.

    51 rows ``(from, to, PD higher, PD lower)``; the last row has no upper bound
    (``to`` is ``None``, shown as "and more"). PD lower = 1 − PD higher, exact.

    >>> t = fide_table_8_1_2()
    >>> len(t), t.rows[0], t.rows[42], t.rows[-1]
    (51, (0, 3, 0.5, 0.5), (392, 411, 0.92, 0.08), (736, None, 1.0, 0.0))
    """
    rows = []
    for low, high, pd in fide.TABLE_8_1_2:
        hundredths = int(round_half_away(pd * 100))
        rows.append((low, high, hundredths / 100, (100 - hundredths) / 100))
    return Table(
        (_("Difference from"), _("Difference to"), _("PD higher rated"), _("PD lower rated")),
        rows,
        _("FIDE table 8.1.2: rating difference D and scoring probability PD"),
        (None, _upper, "{:.2f}", "{:.2f}"),
        source="FIDE Rating Regulations (B.02), table 8.1.2",
    )


def cap_example_table(on="2026-01-01") -> Table:
    """The Telugu document's 400-point example (1500 beats 1000, K 20, ÷400 formula): E, the
    change for a win and for a loss, without and with the cap (:func:`fide.rate_period`).
    A fixed example: 1500 is below 2650, so every rating period since March 2024 caps it
    (``on``: the rules' date, by default the 2026 rules, the chess dashboards' default period).

    >>> [[round(x, 2) for x in row[1:]] for row in cap_example_table().rows]
    [[0.95, 1.06, -18.94], [0.91, 1.82, -18.18]]
    """
    rows = []
    for cap, label in (
        (False, _("Real difference 500 (no cap)")),
        (True, _("Difference capped at 400")),
    ):
        win, loss = (
            fide.rate_period(1500, [(1000, s)], k=20, on=on, use_table=False, cap_400=cap)
            for s in (1, 0)
        )
        rows.append((label, float(win.expected[0]), win.change, loss.change))
    return Table(
        (_("1500 against 1000, K 20, ÷400 formula"), "E", _("Win"), _("Loss")),
        rows,
        _("The Telugu document's example (fixed)"),
        (None, fmt_number, fmt_signed, fmt_signed),
    )


def k_rules_table(decision: fide.KFactor) -> Table:
    """FIDE rule 8.3.3 tried from the top (:data:`fide.K_RULES`), the rule that gave
    ``decision`` marked; the caption is the decision and its reason.

    >>> t = k_rules_table(fide.k_factor_rule(2450, rated_games=40, reached_2400=True))
    >>> [row[1] for row in t.rows if row[2]]
    ['K 10']
    """
    if not isinstance(decision, fide.KFactor):
        raise TypeError(
            f"decision must be a fide.KFactor (fide.k_factor_rule), got {type(decision).__name__}"
        )
    applies = _("◀ applies")
    return Table(
        (_("FIDE rule 8.3.3, tried from the top"), "K", ""),
        [
            (fide.k_rule_text(rule), f"K {k}", applies if rule == decision.rule else "")
            for rule, k, _text in fide.K_RULES
        ],
        _("The first rule that matches gives K. {decision}").format(decision=decision.text),
    )
