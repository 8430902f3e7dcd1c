"""Reading a reader's own results: a CSV of rating, opponent and score, checked row by row.

:func:`parse_results_csv` accepts a header or none, commas or semicolons, decimal commas and
score words (win / draw / loss, 1 / ½ / 0), and reports every bad row by its line number and
the reason; the rows that pass go to :func:`elo_explain.calibration.fit_divisor`.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

import numpy as np

from ._validate import readonly as _readonly
from .i18n import _

__all__ = [
    "UploadedResults",
    "FileProblem",
    "parse_results_csv",
]


class FileProblem(str):
    """An error of :func:`parse_results_csv` about the whole file (empty, no fields, a
    header that does not name the columns), not about one of its rows: a ``str`` like the
    others, in the page's language."""


def _row(n: int, reason: str) -> str:
    """``"row N: reason"``, in the page's language."""
    return _("row {row}: {reason}").format(row=n, reason=reason)


@dataclass(frozen=True, eq=False)
class UploadedResults:
    """Rows of a reader's CSV that passed every check (see :func:`parse_results_csv`).

    ``rating``, ``opponent``, ``score`` (floats) and ``row`` (the line number of each in the
    file, header = line 1); ``difference`` is ``rating - opponent``.

    >>> ok, errors = parse_results_csv("rating,opponent,score\\n1500,1450,0.5\\n")
    >>> len(ok), ok.score, errors
    (1, array([0.5]), [])
    """

    rating: np.ndarray
    opponent: np.ndarray
    score: np.ndarray
    row: np.ndarray

    def __len__(self) -> int:
        return len(self.score)

    @property
    def difference(self) -> np.ndarray:
        """``rating - opponent`` per row.

        >>> ok, _ = parse_results_csv("rating,opponent,score\\n1600,1500,1\\n")
        >>> ok.difference
        array([100.])
        """
        return self.rating - self.opponent


_SCORE_WORDS = {
    "1": 1.0,
    "1.0": 1.0,
    "win": 1.0,
    "w": 1.0,
    "0.5": 0.5,
    ".5": 0.5,
    "0,5": 0.5,
    "1/2": 0.5,
    "½": 0.5,
    "draw": 0.5,
    "d": 0.5,
    "0": 0.0,
    "0.0": 0.0,
    "loss": 0.0,
    "l": 0.0,
}
_COLUMNS = ("rating", "opponent", "score")
_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")


def _number(text: str, decimal_comma: bool):
    t = text.strip()
    if not _NUMBER.match(t) or ("," in t and not decimal_comma):
        return None
    return float(t.replace(",", "."))


def parse_results_csv(text):
    """Read a reader's CSV of results: ``(UploadedResults, errors)``, nothing silently dropped.

    The file has the columns ``rating``, ``opponent``, ``score`` (a header row naming them,
    in any order and any case; other columns are ignored; without a header the first three
    columns are taken in that order). Fields may be separated by commas, semicolons or tabs
    (with semicolons or tabs a decimal comma is accepted). A score is ``1``, ``0.5`` or
    ``0`` (also ``1/2``, ``½``, ``win``, ``draw``, ``loss``). Ratings must be numbers from 0
    to 4000. Blank lines are skipped; every other line either becomes a row of the result or
    an error ``"row N: reason"`` where N is the line number in the file (header = row 1; a
    quoted field may span lines, N is then the line the row starts on). Text that cannot
    be read as CSV at all (a field longer than 131,072 characters) is a ``ValueError``.

    >>> ok, errors = parse_results_csv(
    ...     "rating,opponent,score\\n1500,1400,1\\n1500,abc,0\\n1500,1600,0.7\\n1500,1550\\n1500,1600,draw\\n")
    >>> ok.rating, ok.opponent, ok.score, ok.row
    (array([1500., 1500.]), array([1400., 1600.]), array([1. , 0.5]), array([2, 6]))
    >>> for e in errors: print(e)
    row 3: opponent 'abc' is not a number
    row 4: score '0.7' must be 1 (win), 0.5 (draw) or 0 (loss)
    row 5: expected 3 fields (rating, opponent, score), got 2
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(_("text must be UTF-8 encoded CSV")) from None
    if not isinstance(text, str):
        raise TypeError(
            f"text must be the CSV file's text (str or bytes), got {type(text).__name__}"
        )
    text = text.lstrip("\ufeff")
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip()), None)
    errors: list[str] = []
    empty = UploadedResults(*(np.zeros(0) for _ in range(3)), np.zeros(0, dtype=np.int64))
    if first is None:
        return empty, [
            FileProblem(_row(1, _("the file is empty (expected columns rating, opponent, score)")))
        ]
    delimiter = max((";", "\t", ","), key=first.count) if any(c in first for c in ";\t,") else ","
    decimal_comma = delimiter != ","
    # each record with the line it starts on (a quoted field may span lines)
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    records, line_of, last = [], [], 0
    try:
        for record in reader:
            records.append(record)
            line_of.append(last + 1)
            last = reader.line_num
    except csv.Error as exc:
        raise ValueError(
            _("text could not be read as CSV (row {row}: {reason})").format(
                row=reader.line_num, reason=exc
            )
        ) from None
    header_index = next((i for i, r in enumerate(records) if any(f.strip() for f in r)), None)
    if header_index is None:  # only quotes and separators
        return empty, [
            FileProblem(
                _row(1, _("the file has no fields (expected columns rating, opponent, score)"))
            )
        ]
    head = [f.strip().lower() for f in records[header_index]]
    if (
        all(_number(f, decimal_comma) is not None or f.lower() in _SCORE_WORDS for f in head)
        and len(head) >= 3
    ):
        positions = (0, 1, 2)
        start = header_index
        width = 3
    else:
        missing = [c for c in _COLUMNS if c not in head]
        if missing:
            return empty, [
                FileProblem(
                    _row(
                        line_of[header_index],
                        _(
                            "the header must name the columns rating, opponent, score; missing {missing} "
                            "(found {found})"
                        ).format(missing=", ".join(missing), found=", ".join(head) or _("nothing")),
                    )
                )
            ]
        positions = tuple(head.index(c) for c in _COLUMNS)
        start = header_index + 1
        width = len(head)
    rating, opponent, score, rows = [], [], [], []
    for i in range(start, len(records)):
        fields_ = records[i]
        n = line_of[i]
        if not any(f.strip() for f in fields_):
            continue
        if len(fields_) < max(positions) + 1 or (width == 3 and len(fields_) != 3):
            errors.append(
                _row(
                    n,
                    _("expected {width} fields (rating, opponent, score), got {count}").format(
                        width=width, count=len(fields_)
                    ),
                )
            )
            continue
        problems = []
        values = []
        for name, pos in zip(_COLUMNS[:2], positions[:2]):
            raw = fields_[pos].strip()
            x = _number(raw, decimal_comma)
            if raw == "":
                problems.append(_("{column} is empty").format(column=name))
            elif x is None:
                problems.append(
                    _("{column} {value} is not a number").format(column=name, value=repr(raw))
                )
            elif not 0 <= x <= 4000:
                problems.append(
                    _("{column} {value} is outside 0..4000").format(column=name, value=raw)
                )
            values.append(x)
        raw = fields_[positions[2]].strip()
        sc = _SCORE_WORDS.get(raw.lower())
        if sc is None:
            x = _number(raw, decimal_comma)
            sc = x if x in (0.0, 0.5, 1.0) else None
        if raw == "":
            problems.append(_("{column} is empty").format(column="score"))
        elif sc is None:
            problems.append(
                _("score {value} must be 1 (win), 0.5 (draw) or 0 (loss)").format(value=repr(raw))
            )
        if problems:
            errors.append(_row(n, "; ".join(problems)))
            continue
        rating.append(values[0])
        opponent.append(values[1])
        score.append(sc)
        rows.append(n)
    out = UploadedResults(
        np.array(rating, dtype=float),
        np.array(opponent, dtype=float),
        np.array(score, dtype=float),
        np.array(rows, dtype=np.int64),
    )
    _readonly(out.rating, out.opponent, out.score, out.row)
    return out, errors
