"""Take any table away: every table a page shows has a CSV link whose file parses
back to the table's numbers, in the page's language and number format.

The check is written here, independently of elo_explain.tables: the link's data URI is
decoded with urllib, the file read with Python's csv module, the separator and decimal
symbol as the documents write them (the Telugu document a decimal point, as English, the
Ukrainian and Greek documents a decimal comma, so their files are separated by ';'), and each number compared with
the table's own value at the precision the cell shows (within a unit of its last digit).
"""

from __future__ import annotations

import csv
import importlib
import inspect
import io
import re
import urllib.parse

import pytest

from elo_explain import tables
from elo_explain.dashboards import DASHBOARDS
from elo_explain.i18n import set_language
from elo_explain.interactive.model import DashboardModel
from elo_explain.tables import Table

DECIMAL = {"en": ".", "te": ".", "uk": ",", "el": ","}  # the documents' decimal symbol
GROUP = {"en": ",", "te": ",", "uk": "\xa0", "el": "."}  # CLDR: 15,467 / 15 467 / 15.467
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def _returns_table(fn) -> bool:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    required = [
        p
        for p in sig.parameters.values()
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return not required and sig.return_annotation in ("Table", "tables.Table", "RowTable")


def every_table() -> list[tuple[str, Table]]:
    """Each dashboard model's tables at its starting values, and the documents' tables."""
    found = []
    for d in DASHBOARDS:
        module = importlib.import_module("elo_explain.dashboards." + d.notebook[3:-6])
        for cls in vars(module).values():
            if not (
                inspect.isclass(cls)
                and issubclass(cls, DashboardModel)
                and cls.__module__ == module.__name__
            ):
                continue
            model = cls()
            for name in dir(cls):
                attr = inspect.getattr_static(cls, name)
                if name.startswith("_") or isinstance(attr, property):
                    continue
                method = getattr(model, name)
                if callable(method) and _returns_table(method):
                    found.append((f"{cls.__name__}.{name}", method()))
    for name in tables.__all__:
        fn = getattr(tables, name)
        if inspect.isfunction(fn) and _returns_table(fn):
            found.append((f"tables.{name}", fn()))
    return found


def csv_of(shown_html: str, lang: str) -> list[list[str]]:
    links = re.findall(r'<a class="ee-csv" href="data:text/csv;charset=utf-8,([^"]*)"', shown_html)
    assert len(links) == 1, "one CSV link under the table"
    text = urllib.parse.unquote(links[0])
    assert text.startswith("\ufeff"), "a UTF-8 byte order mark for spreadsheets"
    assert "\u2212" not in text, "an ASCII minus, not U+2212"
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";" if DECIMAL[lang] == "," else ","))


@pytest.fixture(params=["en", "te", "uk", "el"])
def lang(request):
    set_language(request.param)
    yield request.param
    set_language("en")


def test_every_csv_parses_back_to_its_tables_numbers(lang):
    checked = 0
    found = every_table()
    assert len(found) >= 35, [n for n, _ in found]  # every page's tables, 11's too
    assert any(name.startswith("PlanModel.") for name, _ in found)
    for name, table in found:
        rows = csv_of(table._repr_html_(), lang)
        # the page's column titles (a minus sign in ASCII, as every minus in the file)
        assert rows[0] == [str(c).replace("\u2212", "-") for c in table.columns], name
        assert len(rows) == len(table.rows) + 1, name
        for row, values in zip(rows[1:], table.rows):
            assert len(row) == len(values), name
            for text, value in zip(row, values):
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    continue
                plain = text.strip().removesuffix("%").strip().replace(GROUP[lang], "")
                plain = plain.replace(DECIMAL[lang], ".")
                if not NUMBER.fullmatch(plain):
                    continue  # a pair ("+12 / -20") or a word: not one number
                places = len(plain.partition(".")[2])
                # within a unit of the last digit shown: rounded half away from zero, or
                # cut as Lichess shows a rating (1509.89 as "1509")
                assert abs(float(plain) - value) < 10**-places, (name, text, value)
                checked += 1
    assert checked > 500


def test_the_csv_link_of_a_live_table_in_volume_k():
    # the one table a view builds itself (page.table_html) has its link too
    from elo_explain.dashboards.volume_k import VolumeModel, VolumeView

    v = VolumeView(VolumeModel(), query="")
    rows = csv_of(v.swing_html.value, "en")
    assert rows[0][1:] == ["K 32", "K 16"] and len(rows) == 4
