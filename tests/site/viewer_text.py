"""A published page speaks to a viewer: every published dashboard, as Voilà serves
it with the published configuration, checked in its visit (``test_every_reader.py``)
by :func:`check_speaks_to_a_viewer`.

A viewer cannot see or run the code, so the page must not show the parameters cell's names
(``DIVISOR``, ``PER_DAY``...), tell them to "run all cells" or "edit the first cell", or show
Python's own output: a bare tuple such as ``(16, -16)``, a list, a number with a hyphen for
its minus sign, or ``print`` lines. Text for readers of the code is in markdown cells tagged
``lab-only``, which the published template drops (JupyterLab shows them).
"""

from __future__ import annotations

import re

import nbformat

from harness import NOTEBOOKS, assert_clean
from notebook_runner import parameters

# what tells a reader of the code, not a viewer, what to do
CODE_READER_PHRASES = (
    "run all cells",
    "first cell",
    "next cell",
    "parameters cell",
    "the cell below",
    "re-run",
)
BARE_TUPLE = re.compile(r"\(\s*-?\d+(?:\.\d+)?\s*(?:,\s*-?\d+(?:\.\d+)?\s*)+\)")
PYTHON_LIST = re.compile(r"\[\s*-?\d+(?:\.\d+)?\s*(?:,\s*-?\d+(?:\.\d+)?\s*)*\]")
HYPHEN_MINUS = re.compile(r"(?<![\w)\]])-\d")  # "-16"; not a date or a range (2025-06-01)


def lab_only_text(notebook: str) -> list[str]:
    """The sentences of the notebook's cells tagged ``lab-only`` (as a reader would see them)."""
    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    cells = [c for c in nb.cells if "lab-only" in c.metadata.get("tags", [])]
    assert cells, f"{notebook} has no lab-only cell"
    text = " ".join(re.sub(r"[`*]", "", c.source) for c in cells)
    return [s.strip() for s in re.split(r"(?<=[.:;—])\s+", text) if len(s.strip()) > 25]


def check_speaks_to_a_viewer(page, notebook: str) -> None:
    """The dashboard open in ``page`` (its defaults) shows no code, no instructions for a reader
    of the code and no Python output."""
    text = assert_clean(page, notebook)
    flat = re.sub(r"\s+", " ", text)
    for name in parameters(notebook):  # K, ON, RD are words on the page: only longer names
        if len(name) >= 3:
            assert not re.search(rf"\b{name}\b", text), f"{notebook} shows {name!r}"
    for phrase in CODE_READER_PHRASES:
        assert phrase not in flat.lower(), f"{notebook} says {phrase!r}"
    for sentence in lab_only_text(notebook):  # the cells for code readers are not published
        assert sentence[:60] not in flat, f"{notebook} shows its lab-only text {sentence[:60]!r}"
    for pattern in (BARE_TUPLE, PYTHON_LIST, HYPHEN_MINUS):
        found = pattern.search(flat)
        assert found is None, f"{notebook} shows Python's output {found.group()!r}"
    # no print lines (stream outputs) and no plain-text output of a cell
    assert page.locator("[data-mime-type='application/vnd.jupyter.stdout']").count() == 0
    assert page.locator(".jp-OutputArea-output[data-mime-type='text/plain']").count() == 0
