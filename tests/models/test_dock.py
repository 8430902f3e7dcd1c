"""The dock: every published dashboard docks controls of its own model beside its
tables, and each docked control is the view's own (one model, one set of values), without a
kernel or a browser. The browser side (the control on the same screen as the table it moves)
is tests/site/dock.py, run in each visit of tests/site/test_every_reader.py."""

from __future__ import annotations

import importlib
import re

import ipywidgets as widgets
import nbformat
import pytest

from elo_explain.dashboards import DASHBOARDS
from elo_explain.dashboards.backgammon_divisor import DivisorModel
from elo_explain.interactive.dock import DOCK_WORDS
from elo_explain.interactive.live import LiveOutput, _Origin
from elo_explain.interactive.page import NumberField
from harness import NOTEBOOKS
from tests.models.shown import in_language, shown_text

IMPORT = re.compile(r"from (elo_explain\.dashboards\.\w+) import ([^\n]+)")
CALL = re.compile(r"^(\w+)\.(\w+)\(", re.M)


def _page(notebook: str):
    """A notebook's model and view classes (as its import line names them) and the model
    methods its cells show."""
    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    module_name, names = IMPORT.search(code).groups()
    module = importlib.import_module(module_name)
    classes = [getattr(module, n.strip()) for n in names.split(",")]
    view = next(c for c in classes if isinstance(c, type) and c.__name__.endswith("View"))
    model = next(c for c in classes if isinstance(c, type) and c.__name__.endswith("Model"))
    shown = [method for _obj, method in CALL.findall(code) if hasattr(model, method)]
    return model, view, shown


PAGES = {d.notebook: _page(d.notebook) for d in DASHBOARDS}


def _declared(model_cls, method: str):
    f = getattr(model_cls, method)
    return getattr(getattr(f, "fget", f), "depends", None)


@pytest.mark.parametrize("notebook", list(PAGES))
def test_every_dashboard_docks_its_own_traits_beside_its_tables(notebook):
    model_cls, view_cls, shown = PAGES[notebook]
    docked = view_cls.docked
    assert docked, f"{view_cls.__name__} docks nothing"
    assert len(set(docked)) == len(docked), f"{view_cls.__name__} docks a trait twice"
    traits = set(model_cls.class_trait_names())
    assert set(docked) <= traits, f"not traits of {model_cls.__name__}: {set(docked) - traits}"
    # a docked control changes at least one table the notebook shows above the view
    followed = set().union(*(_declared(model_cls, m) or set() for m in shown))
    assert followed & set(docked), f"{notebook}: no docked trait moves a table of the page"
    view = view_cls(model_cls(), query="")
    assert set(view.dock.twins) == set(docked)
    assert view.dock in view.children, "the dock is part of the view"
    for name in docked:  # a twin, not the view's own widget
        assert view.dock.twins[name] is not view.controls[name]


def _other(twin, trait, now):
    """A value the twin can be set to, other than ``now``, and the model's value it means."""
    if hasattr(twin, "slider"):  # a slider with its box: its far end
        end = trait.lo if now != trait.lo else trait.hi
        return lambda: setattr(twin.slider, "value", end), end
    if isinstance(twin, NumberField):
        end = trait.lo if now != trait.lo else trait.hi
        return lambda: setattr(twin.text, "value", str(end)), end
    if isinstance(twin, widgets.Checkbox):
        return lambda: setattr(twin, "value", not now), not now
    if isinstance(twin, widgets.IntSlider):  # a slider of its own (05's players A and B)
        end = twin.min if now != twin.min else twin.max
        return lambda: setattr(twin, "value", end), end
    if isinstance(twin, widgets.Textarea):  # 10's games: one game, 1600, won
        return lambda: setattr(twin, "value", "1600 1"), [1600]
    values = [v for _label, v in twin._options_full if v != now and v is not None]
    return lambda: setattr(twin, "value", values[-1]), values[-1]


@pytest.mark.parametrize("notebook", list(PAGES))
def test_a_docked_control_is_the_views_own(notebook):
    """Moving a twin moves the model and the view's control; the model moves the twin."""
    model_cls, view_cls, _shown = PAGES[notebook]
    view = view_cls(model_cls(), query="")
    m = view.model
    saved = {n: getattr(m, n) for n in m.params}
    for name in view_cls.docked:
        twin, trait, before = view.dock.twins[name], m.traits()[name], getattr(m, name)
        move, expected = _other(twin, trait, before)
        move()
        assert getattr(m, name) == expected, f"{name}: the twin did not move the model"
        control = view.controls[name]
        if hasattr(control, "slider"):
            assert control.slider.value == expected
        elif isinstance(control, NumberField):
            assert control.value == expected
        elif not isinstance(control, widgets.Textarea):
            assert control.value == expected
        m.apply(saved)
        if hasattr(twin, "slider"):
            assert twin.slider.value == before, f"{name}: the model did not move the twin"
        elif isinstance(twin, NumberField):
            assert twin.value == before
        elif isinstance(
            twin,
            (widgets.Checkbox, widgets.Dropdown, widgets.ToggleButtons, widgets.SelectionSlider),
        ):
            assert twin.value == before


def test_the_key_number_follows_the_model():
    """03's key number: a favourite 200 points up with ÷400 is expected to win 76 % (the
    chess figure its notebook quotes), 1 / (1 + 10^(−200/400)) = 75.97 %."""
    from elo_explain.dashboards.backgammon_divisor import DivisorView

    view = DivisorView(DivisorModel(), query="")
    view.dock.twins["divisor"].slider.value = 400
    view.dock.twins["difference"].field.text.value = "200"
    expected = 100 / (1 + 10 ** (-200 / 400))
    assert f"{expected:.1f} %" in view.dock.values.value
    assert view.dock.values.value.count("ee-dock-key") == 1


def test_11s_key_number_is_the_least_score_or_the_wins_in_a_row():
    """11's key number follows the system. FIDE, 9 games against an average of 1800 from 1800,
    K 20: expected ½ a game (table 8.1.2, difference 0), so each point above 4½ is +20:
    6½ gives 1840, 7 gives 1850. Gammon42, 1500 against 1500 to 1530, K 32 (no games this
    week), cube 1: each win rated from the new rating, rounded half away from zero."""
    import math

    from elo_explain.dashboards.plan import PlanModel, PlanView

    assert 1800 + 20 * (6.5 - 9 * 0.5) < 1850 == 1800 + 20 * (7 - 9 * 0.5)
    view = PlanView(PlanModel(), query="")
    for name, value in (("rating", 1800), ("target", 1850), ("n_games", 9), ("average", 1800)):
        view.dock.twins[name].slider.value = value
    view.controls["k"].value = 20
    assert "You need 7 / 9 (rating 1850)" in view.dock.values.value
    rating, wins = 1500, 0
    while rating < 1530:
        expected = 1 / (1 + 10 ** ((1500 - rating) / 1200))
        rating += math.floor(32 * (1 - expected) + 0.5)
        wins += 1
    view.dock.twins["system"].value = "gammon42"
    view.dock.twins["target"].slider.value = 1530
    view.dock.twins["opponent"].slider.value = 1500
    view.dock.twins["rating"].slider.value = 1500
    assert wins == 2 and "2 wins in a row to 1530" in view.dock.values.value


def test_a_live_output_names_the_traits_it_follows():
    """The version history follows the divisor and the lead (its notebook's text: "for a
    favourite at your rating difference ... and your divisor last"); the win rates only the
    divisor ("next to the same differences under your divisor")."""
    m = DivisorModel()
    history = LiveOutput(_Origin(m, "history", (), {}, _declared(DivisorModel, "history")), "")
    rates = LiveOutput(_Origin(m, "win_rates", (), {}, _declared(DivisorModel, "win_rates")), "")
    deps = lambda w: {c for c in w._dom_classes if c.startswith("ee-dep-")}  # noqa: E731
    assert deps(history) == {"ee-dep-divisor", "ee-dep-difference"}
    assert deps(rates) == {"ee-dep-divisor"}
    history.close(), rates.close()


@pytest.mark.parametrize("lang", ["te", "uk", "el"])
def test_the_dock_speaks_the_pages_language(lang):
    from elo_explain.dashboards.backgammon_divisor import DivisorView

    with in_language(lang):
        view = DivisorView(DivisorModel(), query="")
        head = view.dock.head.value
        text = shown_text(view)
    for english in DOCK_WORDS.values():
        assert english not in head and english not in text, f"{lang}: {english!r} untranslated"
    dock = view.dock.values.value + "".join(t.slider.description for t in view.dock.twins.values())
    assert "Your divisor" not in dock and "Rating difference" not in dock
