"""A bad link, in English, on every dashboard, without a kernel or a browser: the
note's words and the defaults kept (each spec's ``bad_note`` and ``defaults_show``), asserted on
the very views a page builds. (The browser opens the same links in the translated visits of
``tests/site/test_languages.py``: the note in the page's language, the markup inert.)

Each page is built as its notebook builds it: the notebook's code cells run in one namespace
(the parameters cell, the imports, the model, each cell's last expression displayed: a model
method's result as the live output a kernel makes of it, ``tests/models/shown.py``'s ``live``),
and its last cell's view is made with ``query=`` the page's query string,
:func:`tests.site.audit.bad_query` (``spec.bad_link``, the unknown setting
:data:`~tests.site.audit.UNKNOWN` and the markup :data:`~tests.site.audit.PAYLOADS` in every
other setting of the parameters cell) as Voilà hands it to the kernel (``QUERY_STRING``:
without its ``?``).

What a reader reads is then the page's HTML as the front end writes it: the live outputs in
the cells' order, then the view's widget tree (an HTML widget's value is its element's inner
HTML; a box holds its children; any other widget shows its description and value as text).
The spec's CSS selectors are evaluated on that HTML (:func:`_select`: classes, descendants,
``:nth-child``, ``:first-child`` and Playwright's ``:has()``, ``:has-text()``,
``:text-is()``), the first match as ``page.locator(css).first``, its text as
``to_contain_text`` reads it (markup removed, entities unescaped, white space collapsed).

The expected words are each spec's (``tests/site/specs/dNN.py``, whose docstring and comments
name the documents they come from: ``spec.source``); what stays the browser's is that a
payload runs no script and opens no dialog in Chromium (the translated page visits).
"""

from __future__ import annotations

import ast
import functools
import re

import ipywidgets as widgets
import nbformat
import pytest
from bs4 import BeautifulSoup, Tag

from elo_explain.interactive import figures
from elo_explain.interactive.live import LiveOutput
from harness import NOTEBOOKS
from tests.models.shown import in_language
from tests.models.test_dock import PAGES
from tests.site.audit import PAYLOADS, UNKNOWN, bad_query
from tests.site.specs import SPECS

# the markup of a payload, as it would be live (escaped, ``<`` is ``&lt;``: none is found)
LIVE_MARKUP = ("<img", "<svg", "<script", "<b ")
assert all(any(m in p for p in PAYLOADS) for m in LIVE_MARKUP)


# --- the page, as its notebook builds it ---------------------------------------------------


def _displayed(result):
    """What a cell's last expression shows on the page: a widget (the view), a live output
    (a model method's result, as the kernel displays it), or static HTML."""
    if isinstance(result, widgets.Widget):
        return result
    if getattr(result, "_live", None) is not None:
        return LiveOutput(result._live, result._repr_html_())
    if hasattr(result, "_repr_html_"):
        return result._repr_html_()
    return None


def _run(notebook: str, query: str) -> tuple[list, object]:
    """Run the notebook's code cells, its view made with ``query``; returns what the cells
    display, in order, and the view."""
    model_cls, view_cls, _shown = PAGES[notebook]
    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    ns: dict = {"__name__": "__main__"}
    shown, view = [], None
    for cell in (c for c in nb.cells if c.cell_type == "code"):
        tree = ast.parse(cell.source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, notebook, "exec"), ns)
        if view_cls.__name__ in ns:  # the view the page's kernel makes, with the page's query
            ns[view_cls.__name__] = functools.partial(view_cls, query=query)
        if last is not None:
            out = _displayed(eval(compile(ast.Expression(last.value), notebook, "eval"), ns))
            if out is not None:
                shown.append(out)
            if isinstance(out, view_cls):
                view = out
    assert view is not None, f"{notebook}: no cell shows a {view_cls.__name__}"
    return shown, view


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _html(w) -> str:
    """``w`` as the front end writes it."""
    if isinstance(w, str):  # a static output
        return f"<div>{w}</div>"
    classes = " ".join(w._dom_classes)
    if isinstance(w, (widgets.HTML, widgets.HTMLMath)):
        inner = w.value
    elif isinstance(w, widgets.Box):
        inner = "".join(_html(c) for c in w.children if isinstance(c, widgets.Widget))
    else:
        desc = getattr(w, "description", "") or ""
        desc = desc if getattr(w, "description_allow_html", False) else _esc(desc)
        value = getattr(w, "label", None) or getattr(w, "value", None)
        inner = desc + (f" {_esc(str(value))}" if isinstance(value, (str, int, float)) else "")
    return f'<div class="{classes}">{inner}</div>'


@functools.cache
def _page(notebook: str) -> tuple[BeautifulSoup, object]:
    """The page opened with the bad link (:func:`bad_query`), parsed, and its view."""
    query = bad_query(notebook, SPECS[notebook]).removeprefix("?")
    with in_language("en"), pytest.MonkeyPatch.context() as mp:
        # no pixels: a figure's image is no text of the page (its texts: test_figure_text.py)
        mp.setattr(figures.FigureView, "png", lambda self: b"")
        mp.setattr(figures, "_png", lambda fig: b"")
        shown, view = _run(notebook, query)
    return BeautifulSoup("".join(_html(w) for w in shown), "html.parser"), view


# --- CSS, as Playwright reads the specs' selectors -----------------------------------------

_TEXT_IS = re.compile(r""":text-is\((['"])(.*?)\1\)""")


def _words(el: Tag) -> str:
    return " ".join(el.get_text().split())


def _first(soup: BeautifulSoup, selector: str) -> Tag | None:
    """``page.locator(selector).first`` on the page's HTML, by soupsieve (bs4's CSS), with
    Playwright's text pseudo-classes as soupsieve reads them: ``:has-text(t)`` as
    ``:-soup-contains(t)`` (Playwright's ignores case: the specs write their texts as shown),
    ``:text-is(t)`` as a class given to the elements whose whole text, white space trimmed,
    is ``t``."""

    def exact(m: re.Match) -> str:
        mark = f"ee-text-is-{len(m[2])}-{abs(hash(m[2]))}"
        for el in soup.find_all(True):
            if _words(el) == m[2] and mark not in (el.get("class") or []):
                el["class"] = [*(el.get("class") or []), mark]
        return "." + mark

    return soup.select_one(_TEXT_IS.sub(exact, selector).replace(":has-text(", ":-soup-contains("))


def test_the_selectors_read_as_playwright_reads_them():
    """The selector reading above (Playwright's dialect by soupsieve), on a page written by
    hand."""
    soup = BeautifulSoup(
        '<div class="ee-a x"><p>one</p></div><div class="ee-live-t"><table><caption>Cap</caption>'
        "<tr><th>System</th><th>E</th></tr><tr><td>Elo</td><td>0.30</td></tr>"
        "<tr><td>32</td><td>64</td><td>96</td></tr></table></div>",
        "html.parser",
    )
    text = lambda css: _words(_first(soup, css))  # noqa: E731
    assert text(".ee-a") == "one" and _first(soup, ".ee-b") is None
    assert text(".ee-live-t caption") == "Cap"
    assert text(".ee-live-t tr:has(td:text-is('Elo')) td:nth-child(2)") == "0.30"
    assert _first(soup, ".ee-live-t tr:has(td:text-is('El')) td:nth-child(2)") is None
    assert text(".ee-live-t tr:has(td:first-child:text-is('32')) td:nth-child(3)") == "96"
    assert _first(soup, ".ee-live-t tr:has(td:first-child:text-is('64')) td") is None
    assert text(".ee-live-t tr:has-text('Elo')") == "Elo0.30"  # textContent: no space added
    assert text(".ee-live-t td:nth-child(1)") == "Elo"
    assert text(".ee-none, .ee-a") == "one"


# --- the checks ----------------------------------------------------------------------------
# Every expected text is the spec's, with its sources there (spec.source, and the tags of each
# tests/site/specs/dNN.py: 01 docs/sources.md#telugu; 02 #telugu, #fide-b02; 03 #greek;
# 04 #greek (G5, G6, G18); 05 #greek (G8, G10, G11); 06 [SC], [LILA], [LILA-G], [G1]/[G2];
# 07 [GR], [KB], [TEL]; 08 elo_explain/data/SOURCE.md [SRC]; 09 [G42], [ZS]; 10 #fide-b02;
# 11 [EVEN]). The note's words: each spec's bad_note (tests/site/specs/).

NOTEBOOKS_WITH_SPECS = list(SPECS)


@pytest.mark.parametrize("notebook", NOTEBOOKS_WITH_SPECS)
def test_the_note_says_what_it_ignored(notebook):
    """The note (``.ee-query-note``) says in plain words what the link set that the page
    ignored and why: ``spec.bad_note`` (the field's name, its range, the value kept: each
    spec's source), the unknown setting, and a payload shown as its text."""
    spec = SPECS[notebook]
    note = _first(_page(notebook)[0], ".ee-query-note")
    assert note is not None, f"{notebook}: no note of what the link set that was ignored"
    said = _words(note)
    expected = [
        "Ignored from the link",
        *spec.bad_note,
        "colour (not a setting of this page)",
        PAYLOADS[0][:12],
    ]  # a payload, shown as text
    assert UNKNOWN.startswith("colour=")
    missing = [text for text in expected if " ".join(text.split()) not in said]
    assert not missing, f"{notebook} ({spec.source}): the note lacks {missing}: {said!r}"


@pytest.mark.parametrize("notebook", NOTEBOOKS_WITH_SPECS)
def test_the_markup_stays_text(notebook):
    """No payload's markup is live: the note's HTML holds it escaped, and no element a
    payload would make (``audit.py``'s browser check: ``.ee-pwned``, ``img[src="x"]``,
    ``svg[onload]``, a script of ``eePwned``) is anywhere in the page."""
    soup, view = _page(notebook)
    note = view.notes.value  # the note's HTML, as the page receives it
    assert 'class="ee-note ee-query-note"' in note
    assert not [m for m in LIVE_MARKUP if m in note], f"{notebook}: live markup in {note!r}"
    assert "&lt;img src=x" in note, f"{notebook}: the payload is not in the note as text"
    made = soup.select('.ee-pwned, img[src="x"], svg[onload]') + [
        el for el in soup.find_all("script") if "eePwned" in el.get_text()
    ]
    assert not made, f"{notebook}: elements made from a payload: {made}"


@pytest.mark.parametrize("notebook", NOTEBOOKS_WITH_SPECS)
def test_the_defaults_stand(notebook):
    """The page keeps its defaults: each ``spec.defaults_show`` (CSS selector, text) -- the
    view's widget of that class, or the notebook's live output of that model method
    (``.ee-live-<method>``) -- contains the text (each spec's numbers and their sources:
    ``tests/site/specs/dNN.py``, ``spec.source``)."""
    spec = SPECS[notebook]
    assert spec.defaults_show, f"{notebook}: the spec names nothing the defaults show"
    soup, _view = _page(notebook)
    wrong = []
    for css, text in spec.defaults_show:
        el = _first(soup, css)
        if el is None:
            wrong.append(f"{css}: not on the page")
        elif " ".join(text.split()) not in _words(el):
            wrong.append(f"{css}: {text!r} not in {_words(el)[:300]!r}")
    assert not wrong, f"{notebook} ({spec.source}): " + "; ".join(wrong)
