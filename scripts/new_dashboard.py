"""Start a new dashboard: every file that can be generated, ready to be filled in.

``make new-dashboard NAME=12_my_topic TITLE="My topic" LINE="The landing page's one line."``
(``python scripts/new_dashboard.py 12_my_topic "My topic" "The landing page's one line."``)
writes, for a dashboard that works at once (a skeleton: a favourite's expected win rate under
Gammon42's divisor, to be replaced by the topic's own computation):

* ``elo_explain/dashboards/my_topic.py``: the model and the view;
* ``notebooks/12_my_topic.ipynb``: the story, the ``lab-only`` cell, the ``parameters`` cell,
  the tables and the view (no outputs, kernel ``python3``, cell ids, the ``title``);
* its line in ``DASHBOARDS`` (``elo_explain/dashboards/__init__.py``), which publishes it;
* ``tests/models/test_dash_my_topic.py``: the model's and the view's tests;
* ``tests/site/specs/d12.py``: the page visit's spec;
* a run of the notebook in a kernel, appended to ``tests/notebooks/test_notebook_parameters.py``;
* the view in ``tests/models/test_figures_phone.py`` (``VIEWS``), its extreme settings in
  ``tests/models/test_figure_text.py`` (``EXTREMES``), and in ``tests/models/test_figure_store.py``
  (``WITH_FIGURES``);
* the catalogs' new entries and the translated notebooks (``elo_explain.translate.update``,
  as ``make translations``): the new entries are left empty, for the translator;
* the landing page's pictures, ``static/cards/12_my_topic.png`` and ``cards/<lang>/…``: the
  view's first figure as the page draws it on a desktop (``scripts/screenshots.py``'s
  ``card``; ``make screenshots`` re-takes them from the real pages in Chromium).

It refuses a number or a name already taken, and prints what is left to do: the entries to
translate, then the hand-written steps of ``docs/adding_a_dashboard.md``.
``python scripts/new_dashboard.py --cards 12_my_topic`` makes the pictures again (after the
translations, or a change of the view's figure).
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this tree's package, not an installed one
sys.path.insert(1, str(ROOT / "scripts"))

NAME = re.compile(r"^(\d\d)_([a-z][a-z0-9]*(?:_[a-z0-9]+)*)$")


def parts(name: str) -> tuple[str, str, str]:
    """``("12", "my_topic", "MyTopic")`` of ``"12_my_topic"`` (or ``12_my_topic.ipynb``).

    >>> parts("12_my_topic.ipynb")
    ('12', 'my_topic', 'MyTopic')
    """
    m = NAME.match(name.removesuffix(".ipynb"))
    if m is None:
        raise SystemExit(
            f"NAME must be two digits, an underscore and a lower-case topic "
            f"(12_my_topic), got {name!r}"
        )
    number, topic = m.groups()
    return number, topic, "".join(w.capitalize() for w in topic.split("_"))


def files(name: str) -> dict[str, Path]:
    """Every file :func:`new_dashboard` writes itself (not the catalogs and the translated
    notebooks, which ``elo_explain.translate`` writes), by what it is."""
    number, topic, _cls = parts(name)
    cards = ROOT / "share/jupyter/voila/templates/elo-explain/static/cards"
    return {
        "module": ROOT / f"elo_explain/dashboards/{topic}.py",
        "notebook": ROOT / f"notebooks/{number}_{topic}.ipynb",
        "model tests": ROOT / f"tests/models/test_dash_{topic}.py",
        "spec": ROOT / f"tests/site/specs/d{number}.py",
        "picture": cards / f"{number}_{topic}.png",
    }


# --- the skeleton ---------------------------------------------------------------------------
MODULE = '''"""Dashboard {n}, {title_lower}: TODO what the code computes, in one or two sentences.

The skeleton ``make new-dashboard`` wrote: a favourite's expected win rate under a divisor
(:func:`elo_explain.gammon42.expected_score`), one table, one sentence, one figure; replace it
with the topic's own (docs/adding_a_dashboard.md)."""

from __future__ import annotations

import html

import numpy as np

from elo_explain import gammon42 as g42, tables
from elo_explain.formats import fmt_pct, fmt_plain
from elo_explain.i18n import N_, _, ngettext
from elo_explain.interactive.figures import FigureView
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box
from elo_explain.interactive.traits import Whole
from elo_explain.interactive.view import DashboardView

__all__ = ["{cls}Model", "{cls}View"]


class {cls}Model(DashboardModel):
    """A divisor and the favourite's lead (TODO: what the state means).

    >>> {cls}Model().win_rates().rows[3]   # 300 points up, ÷1200
    (300, 64.0)
    >>> print({cls}Model(divisor=400).headline())
    300 points up, ÷400: 84.9 %
    """

    params = ("divisor", "difference")  # the parameters cell's names, in lower case
    presets = {{N_("300 points up, ÷1200"): {{"divisor": 1200, "difference": 300}},
               N_("300 points up, ÷400"): {{"divisor": 400, "difference": 300}}}}
    # the label names the field in every message (model) and beside its box (view)
    divisor = Whole(g42.DIVISOR, 100, 4000, label=N_("Your divisor"))
    difference = Whole(300, 0, 800, label=N_("Rating difference"))

    def _pct(self, difference) -> float:
        return round(100 * float(g42.expected_score(difference, 0, self.divisor)), 1)

    @depends("divisor")  # the traits it reads, and only those
    def win_rates(self) -> tables.Table:
        """The favourite's expected win rate every 100 points: ``(difference, %)``."""
        rows = tuple((d, self._pct(d)) for d in range(0, 801, 100))
        return tables.Table((_("Rating difference"), _("Expected win rate")), rows,
                            _("Expected win rate of the favourite"), (None, fmt_pct))

    @depends("divisor", "difference")
    def headline(self) -> tables.Sentence:
        """The chosen lead's number in a sentence (``value``: the number, for code and tests)."""
        pct = self._pct(self.difference)
        # a count in words is a plural entry: one form per plural category (docs/languages.md)
        text = ngettext("{{difference}} point up, ÷{{divisor}}: {{pct}}",
                        "{{difference}} points up, ÷{{divisor}}: {{pct}}", self.difference)
        return tables.Sentence(text.format(difference=fmt_plain(self.difference),
                                           divisor=fmt_plain(self.divisor), pct=fmt_pct(pct)), pct)


class {cls}View(DashboardView):
    """The controls, the live line and the figure (the tables are the notebook's cells)."""

    docked = ("divisor", "difference")  # the dock repeats them beside the tables
    key_target = "ee-summary"

    def key_result(self) -> str:
        """The page's key number, in a few words."""
        return fmt_pct(self.model.headline().value)

    def build(self) -> list:
        """Make the widgets once and return the page's children, in order."""
        self.summary = html_box("ee-summary")
        # fixed margins: no layout pass on every page load
        self.figure = FigureView(figsize=(8, 3.5), margins=dict(left=0.09, bottom=0.14))
        ax = self.figure.ax
        self.x = np.arange(0, 801, 10.0)
        self.curve = self.figure.dynamic(ax.plot(self.x, 0 * self.x, color="#1f77b4",
                                                 label=_("your divisor"))[0])
        self.marker = self.figure.dynamic(ax.axvline(0, color="grey", lw=0.8))
        ax.set(xlim=(0, 800), ylim=(48, 100), xlabel=_("Rating difference"),
               ylabel=_("Expected win rate (%)"))
        ax.set_title(_("Expected win rate of the favourite"), fontsize=10.5)
        ax.legend(fontsize=9, loc="lower right")
        ax.grid(alpha=0.3)
        return [self.preset_menu(), self.slider("divisor", step=50),
                self.slider("difference", step=10), self.summary, self.figure.out]

    # the parts: each runs at the first render and after a change of its traits
    @depends({cls}Model.headline)
    def show_headline(self) -> None:
        text = html.escape(self.model.headline().text)
        self.summary.value = f"<p class='ee-value ee-big'>{{text}}</p>"

    @depends("divisor", "difference")
    def draw(self) -> None:
        m = self.model
        self.curve.set_ydata(100 * g42.expected_score(self.x, 0, m.divisor))
        self.marker.set_xdata([m.difference, m.difference])
        self.figure.refresh()  # mutate the artists, never a new figure
'''

MODEL_TESTS = '''"""Dashboard {n} ({title}): the model and the view, without a kernel or a browser.

TODO: every asserted number from a document (docs/sources.md) or the rules, never from the
code's output. The skeleton's are worked by hand from the expected score
1 / (1 + 10^(−difference / divisor)): 300 points up, ÷1200 → 64.0 %, ÷800 → 70.3 %, ÷400 → 84.9 %.
"""

import pytest

from elo_explain.dashboards.{topic} import {cls}Model, {cls}View


def test_the_expected_win_rate():
    assert {cls}Model().win_rates().rows[3] == (300, pytest.approx(64.0, abs=0.05))
    assert {cls}Model(divisor=400).headline().value == pytest.approx(84.9, abs=0.05)


def test_a_bad_value_names_the_field():
    with pytest.raises(ValueError, match="Your divisor must be a whole number between 100 and 4000"):
        {cls}Model(divisor=50)


def test_the_view_follows_a_link_then_a_slider():
    view = {cls}View({cls}Model(), query="divisor=800")
    assert "70.3 %" in view.summary.value
    view.controls["divisor"].slider.value = 400
    assert "84.9 %" in view.summary.value and "divisor=400" in view.link.value
'''

SPEC = '''"""{n} {title_lower}: TODO the sources of the numbers (docs/sources.md's anchors). The
skeleton's, by hand from the expected score 1 / (1 + 10^(−difference / divisor)): 300 points
up, ÷1200 → 64.0 %, ÷800 → 70.3 %, ÷400 → 84.9 %."""

from tests.site.audit import Spec, Step

SPEC = Spec(
    source="docs/sources.md#greek",  # TODO: the anchors of the sources of the numbers
    link="?divisor=800&difference=300",                       # ÷800, 300 up: 70.3 %
    link_shows=((".ee-summary", "70.3 %"), (".ee-live-win-rates", "70.3 %"),
                (".ee-live-headline", "300 points up, ÷800: 70.3 %")),
    step=Step("type", ".ee-divisor-field", "400",             # ÷400, 300 up: 84.9 %
              shows=((".ee-summary", "84.9 %"), (".ee-live-win-rates", "84.9 %")),
              redraws=(".ee-plot",), link="?divisor=400&difference=300"),
    bad_link="divisor=abc",
    bad_note=("divisor=abc", "Your divisor must be a whole number between 100 and 4000"),
    defaults_show=((".ee-summary", "64.0 %"),),               # ÷1200, 300 up
)
'''

NOTEBOOK_RUN = """

# ---------------------------------------------------------------- {n} {title_lower}
def test_{n}_notebook_follows_its_parameters():
    # TODO the topic's own numbers; the skeleton's by hand from 1 / (1 + 10^(−difference / divisor))
    run = run_notebook("{notebook}", DIFFERENCE=200, then="model.divisor = 400")
    assert run.state == {{"divisor": 1200, "difference": 200}}
    assert "200 points up, ÷1200: 59.5 %" in run.text
    assert "64.0 %" in output(run, "Expected win rate of the favourite")  # ÷1200, 300 up
    assert "84.9 %" in live(run, "Expected win rate of the favourite")    # then ÷400
"""


def notebook(number: str, topic: str, cls: str, title: str) -> dict:
    """The notebook, as JupyterLab saves it (nbformat 4.5: cell ids key the translations)."""

    def md(i, text, **meta):
        return {
            "cell_type": "markdown",
            "id": f"{number}-{i:02d}",
            "metadata": meta,
            "source": text.splitlines(keepends=True),
        }

    def code(i, text, **meta):
        return {
            "cell_type": "code",
            "execution_count": None,
            "id": f"{number}-{i:02d}",
            "metadata": meta,
            "outputs": [],
            "source": text.splitlines(keepends=True),
        }

    cells = [
        md(
            0,
            f"# {title}\n\n"
            "TODO: the story, in a few short paragraphs. What this page explains, and why a "
            "reader would want to know it; which source it follows (its numbers are checked "
            "against docs/sources.md), and the rule in that source's own words.\n\n"
            "TODO: what the tables below show, row by row if it helps, and which of their "
            "numbers a reader can find in the source itself.\n\n"
            "TODO: what a viewer sets with the controls at the end of the page, named as the "
            "controls name them. Here: your divisor and the rating difference; the tables "
            "and the line below follow them, and so does the figure.",
        ),
        md(
            1,
            "In this notebook the settings are the next cell, `DIVISOR` and `DIFFERENCE`. "
            "Change them and run all cells, or run all cells and move the sliders of the "
            "view in the last cell: the cells above follow them too.",
            tags=["lab-only"],
        ),
        code(2, "DIVISOR = 1200\nDIFFERENCE = 300", tags=["parameters"]),
        code(3, f"from elo_explain.dashboards.{topic} import {cls}Model, {cls}View"),
        md(4, "**The favourite's expected win rate** at your divisor, every 100 points of lead:"),
        code(5, f"model = {cls}Model(divisor=DIVISOR, difference=DIFFERENCE)\nmodel.win_rates()"),
        md(6, "At the rating difference you chose:"),
        code(7, "model.headline()"),
        md(
            8,
            "Move a slider or type a value: the table and the line above follow, and the "
            "figure shows the whole curve, marked at your rating difference.",
        ),
        code(9, f"{cls}View(model)"),
    ]
    return {
        "cells": cells,
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "title": f"{title} · elo-explain",
        },
    }


# --- writing --------------------------------------------------------------------------------
def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print("wrote", path.relative_to(ROOT))


def _append_item(text: str, opener: str, closer: str, item: str) -> str:
    """``text`` with ``item`` as the last element of the literal that starts with ``opener``
    and ends at the first line that is ``closer`` alone (``ruff format``'s layout: one element
    a line, each with its comma)."""
    start = text.index(opener)
    end = text.index(f"\n{closer}", start + len(opener) - 1)
    before = text[:end].rstrip()
    comma = "" if before.endswith((",", opener[-1])) else ","
    return f"{before}{comma}\n    {item},{text[end:]}"


def tidy(paths: list[Path]) -> None:
    """The project's lint fixes and format on the Python files written or edited (``make
    lint`` checks every file as ``ruff`` leaves it)."""
    ruff = Path(sys.executable).with_name("ruff")
    names = [str(p) for p in paths if p.suffix == ".py"]
    subprocess.run([str(ruff), "check", "--fix", "--quiet", *names], cwd=ROOT, check=True)
    subprocess.run([str(ruff), "format", "--quiet", *names], cwd=ROOT, check=True)


def register(notebook_name: str, title: str, line: str) -> None:
    """Add the dashboard's line at the end of ``DASHBOARDS`` (its own text, edited in place)."""
    path = ROOT / "elo_explain/dashboards/__init__.py"
    text = path.read_text(encoding="utf-8")
    text = _append_item(
        text,
        "DASHBOARDS: tuple[Dashboard, ...] = (",
        ")",
        f"Dashboard({notebook_name!r}, {title!r}, {line!r})",
    )
    path.write_text(text, encoding="utf-8")
    print("registered", notebook_name, "in", path.relative_to(ROOT))


def _import_in_order(text: str, line: str) -> str:
    """``text`` with the import ``line`` among its ``from elo_explain.dashboards.…`` imports,
    in their alphabetical order."""
    lines = text.splitlines(keepends=True)
    at = [i for i, ln in enumerate(lines) if ln.startswith("from elo_explain.dashboards.")]
    before = next((i for i in at if lines[i] > line), at[-1] + 1)
    return "".join(lines[:before] + [line + "\n"] + lines[before:])


def figure_checks(topic: str, cls: str) -> None:
    """The view among the figures laid out for a phone (``test_figures_phone.py``'s ``VIEWS``),
    its extreme settings among those whose text is measured in every language
    (``test_figure_text.py``'s ``EXTREMES``: the skeleton's, the controls' far ends) and among
    the views whose first drawing is stored (``test_figure_store.py``'s ``WITH_FIGURES``)."""
    path = ROOT / "tests/models/test_figures_phone.py"
    text = _import_in_order(
        path.read_text(encoding="utf-8"),
        f"from elo_explain.dashboards.{topic} import {cls}Model, {cls}View",
    )
    text = _append_item(text, "\nVIEWS = [", "]", f"({cls}View, {cls}Model)")
    path.write_text(text, encoding="utf-8")
    print("added", f"{cls}View", "to", path.relative_to(ROOT))
    path = ROOT / "tests/models/test_figure_text.py"
    text = _import_in_order(
        path.read_text(encoding="utf-8"), f"from elo_explain.dashboards.{topic} import {cls}View"
    )
    text = _append_item(
        text,
        "\nEXTREMES = {",
        "}",
        f"# TODO: {cls}View's own far ends, where its labels move and grow\n"
        f'    {cls}View: [{{"divisor": 100, "difference": 800}}, '
        f'{{"divisor": 4000, "difference": 0}}]',
    )
    path.write_text(text, encoding="utf-8")
    print("added", f"{cls}View", "to", path.relative_to(ROOT))
    path = ROOT / "tests/models/test_figure_store.py"
    text = path.read_text(encoding="utf-8")
    text = _append_item(text, "\nWITH_FIGURES = {", "}", f'"{cls}View"')
    path.write_text(text, encoding="utf-8")
    print("added", f"{cls}View", "to", path.relative_to(ROOT))


def card_pictures(notebook_name: str) -> None:
    """The landing page's pictures of the dashboard, in every language: the view's first
    figure in its box, as the page shows it on a desktop (an element's screenshot: the
    figure at the top left of its box, white around it), made a card by
    ``scripts/screenshots.py``'s ``card``."""
    import importlib

    from PIL import Image
    from screenshots import card

    from elo_explain.dashboards.index import CARDS, card_picture
    from elo_explain.i18n import LANGUAGES, set_language

    _number, topic, cls = parts(notebook_name)
    module = importlib.import_module(f"elo_explain.dashboards.{topic}")
    model_cls, view_cls = getattr(module, f"{cls}Model"), getattr(module, f"{cls}View")
    try:
        for lang in LANGUAGES:
            set_language(lang)
            view = view_cls(model_cls(), query="")
            figure = view.figures()[0]
            box = [
                round(float(getattr(figure.image.layout, side).removesuffix("px")))
                for side in ("width", "height")
            ]
            shot = Image.new("RGB", tuple(box), "white")
            shot.paste(Image.open(io.BytesIO(figure.image.value)).convert("RGB"), (0, 0))
            png = io.BytesIO()
            shot.save(png, format="PNG")
            target = CARDS / card_picture(notebook_name, lang)
            target.parent.mkdir(parents=True, exist_ok=True)
            card(
                png.getvalue(), notebook_name if lang == "en" else f"{lang}/{notebook_name}", target
            )
            print("wrote", target.relative_to(ROOT))
            view.close_all()
    finally:
        set_language("en")


LEFT_BY_HAND = """
Left to you (docs/adding_a_dashboard.md):
  1. the topic: {module}, the notebook's story, the tests' numbers from the documents
     ({tests}, {spec}, the run in tests/notebooks/test_notebook_parameters.py);
  2. the translations: the entries above, in elo_explain/locale/<lang>/LC_MESSAGES/*.po,
     then `make translations` and `python scripts/new_dashboard.py --cards {name}`;
  3. the view's extreme settings in tests/models/test_figure_text.py (EXTREMES); a line in
     the README's table and a section in docs/dashboards.md; `make screenshots` for the
     pictures from the real pages.
"""


def new_dashboard(name: str, title: str, line: str) -> list[str]:
    """Write every generated file of the dashboard ``name`` (``12_my_topic``); returns what
    the translation check reports then (the entries to translate)."""
    number, topic, cls = parts(name)
    notebook_name = f"{number}_{topic}.ipynb"
    if not title.strip() or not line.strip():
        raise SystemExit("TITLE and LINE are needed: the landing page's title and one line")
    taken = sorted(p.name for p in (ROOT / "notebooks").glob(f"{number}_*.ipynb"))
    paths = files(name)
    taken += [str(p.relative_to(ROOT)) for p in paths.values() if p.exists()]
    if taken:
        raise SystemExit(f"{name}: already taken by {', '.join(taken)}")
    fields = dict(
        n=number,
        topic=topic,
        cls=cls,
        title=title,
        notebook=notebook_name,
        title_lower=title[:1].lower() + title[1:],
    )
    _write(paths["module"], MODULE.format(**fields))
    _write(
        paths["notebook"],
        json.dumps(notebook(number, topic, cls, title), indent=1, ensure_ascii=False) + "\n",
    )
    register(notebook_name, title, line)
    _write(paths["model tests"], MODEL_TESTS.format(**fields))
    _write(paths["spec"], SPEC.format(**fields))
    runs = ROOT / "tests/notebooks/test_notebook_parameters.py"
    runs.write_text(
        runs.read_text(encoding="utf-8") + NOTEBOOK_RUN.format(**fields), encoding="utf-8"
    )
    print("added a run of", notebook_name, "to", runs.relative_to(ROOT))
    figure_checks(topic, cls)
    tidy(
        [
            *paths.values(),
            ROOT / "elo_explain/dashboards/__init__.py",
            runs,
            *(
                ROOT / "tests/models" / f
                for f in ("test_figures_phone.py", "test_figure_text.py", "test_figure_store.py")
            ),
        ]
    )
    # only now the package: DASHBOARDS (and translate.NOTEBOOKS, made from it) has the page
    from elo_explain import translate

    for path in translate.update():
        print("wrote", Path(path).relative_to(ROOT))
    card_pictures(notebook_name)
    return translate.problems()


# --- the checks of one dashboard ------------------------------------------------------------
GLOBAL_CHECKS = (
    # each reads DASHBOARDS (or the files it names): the new dashboard is among what it checks
    "test_dashboards_hold_only_dashboards",
    "test_a_view_with_a_heading_names_its_registered_notebook_and_title",
    "test_every_name_is_imported_from_where_it_is_defined",
    "test_package_catalog_is_complete_and_up_to_date",
    "test_notebook_catalog_is_complete_and_up_to_date",
    "test_compiled_catalog_is_the_po_compiled",
    "test_the_check_command_finds_nothing",
    "test_landing_page_has_no_english_ui_string_left",
    "test_counts_go_through_plural_entries",
    "test_every_number_attributed_to_a_document_is_the_documents",
    "test_every_cited_anchor_exists",
    "test_markdown_cells_are_all_read",
    "test_every_csv_parses_back_to_its_tables_numbers",
    "test_every_topic_notebook_is_run_in_a_kernel",
    "test_every_dashboard_with_figures_is_checked",
    "test_published_notebooks_exist_and_are_listed",
    "test_every_card_has_a_picture_of_its_dashboard",
    "test_every_notebook_names_its_topic",
)
PAGE_CHECKS = (
    # one test a dashboard (parametrized by its notebook): the new dashboard's own
    "test_every_dashboard_docks_its_own_traits_beside_its_tables",
    "test_a_docked_control_is_the_views_own",
    "test_the_note_says_what_it_ignored",
    "test_the_markup_stays_text",
    "test_the_defaults_stand",
    "test_every_box_refuses_bad_input_by_name_and_range_and_the_model_answers",
    "test_markup_typed_or_pasted_into_any_box_stays_text",
    "test_generated_notebook_is_what_the_generator_makes",
    "test_notebook_committed_without_outputs_and_python3_kernel",
)
VIEW_CHECKS = (
    # one test a view (parametrized by its class): the new dashboard's view
    "test_figures_on_a_phone",
    "test_no_text_hidden_in_any_figure",
    "test_restored_figures_are_the_drawn_pixels_then_and_after_each_change",
)
"""The suite's checks that concern one dashboard, by test name (found in whichever file of
``tests/`` defines it), besides the dashboard's own (its module's doctests,
``test_dash_<topic>.py``, ``test_<NN>_notebook_follows_its_parameters``). Not here: the page
visits in Chromium (``tests/site/test_every_reader.py``, ``test_languages.py``: ``-k <NN>_<topic>``)."""


def check_command(name: str, *pytest_args: str) -> list[str]:
    """The pytest command of the checks that concern the dashboard ``name`` (this tree's)."""
    number, topic, cls = parts(name)
    wanted = {
        *GLOBAL_CHECKS,
        *PAGE_CHECKS,
        *VIEW_CHECKS,
        f"test_{number}_notebook_follows_its_parameters",
    }
    found = set()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        if any(re.search(rf"^def {t}\(", text, re.M) for t in wanted) or topic in path.stem:
            found.add(path.relative_to(ROOT).as_posix())
    own = [f"{topic}.py", f"test_{number}_notebook_follows_its_parameters"]  # its doctests, tests
    select = (
        f"({' or '.join(PAGE_CHECKS)}) and {number}_{topic} or "
        f"({' or '.join(VIEW_CHECKS)}) and {cls}View or " + " or ".join([*GLOBAL_CHECKS, *own])
    )
    return [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-rA",
        "-p",
        "no:cacheprovider",
        f"elo_explain/dashboards/{topic}.py",
        *sorted(found),
        "-k",
        select,
        *pytest_args,
    ]


def check(name: str, *pytest_args: str) -> int:
    """Run the checks of :func:`check_command`, after the gate's own: it serves the page in
    every language."""
    import subprocess

    from elo_explain.server.gate import served_pages

    number, topic, _cls = parts(name)
    served = set(served_pages())
    from elo_explain.i18n import TRANSLATIONS

    pages = [
        f"{number}_{topic}.ipynb",
        *(f"{lang}/{number}_{topic}.ipynb" for lang in TRANSLATIONS),
    ]
    missing = [p for p in pages if p not in served]
    if missing:
        print("the gate does not serve", ", ".join(missing), file=sys.stderr)
        return 1
    print("the gate serves", ", ".join(pages))
    command = check_command(name, *pytest_args)
    print(" ".join(command[1:]), flush=True)
    return subprocess.run(command, cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    if argv[:1] == ["--cards"] and len(argv) == 2:
        card_pictures(argv[1].removesuffix(".ipynb") + ".ipynb")
        return 0
    if argv[:1] == ["--check"] and len(argv) >= 2:
        return check(argv[1], *argv[2:])
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    name, title, line = argv
    left = new_dashboard(name, title, line)
    if left:
        print("\nTo translate (each entry's msgstr, empty now; `make translations` lists them):")
        for problem in left:
            print("  " + problem)
    number, topic, _cls = parts(name)
    paths = {k: p.relative_to(ROOT) for k, p in files(name).items()}
    print(
        LEFT_BY_HAND.format(
            module=paths["module"],
            tests=paths["model tests"],
            spec=paths["spec"],
            name=f"{number}_{topic}",
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
