"""The first drawing of a dashboard's figures, kept on disk and restored by the next kernel
(``interactive.figures.FigureView._draw_background``, ``interactive.figures.shown_state``).

The reference is matplotlib's own drawing of the same figure: a view whose figures were
restored must show the very same pixels as one whose figures were drawn, at first and after
every change that follows (a change blits onto the restored background), and a state a
viewer's link asks for is drawn, never stored.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import elo_explain.dashboards as dashboards
from elo_explain.interactive.figures import FigureView
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.view import DashboardView


def _pairs():
    for info in pkgutil.iter_modules(dashboards.__path__):
        module = importlib.import_module(f"elo_explain.dashboards.{info.name}")
        own = [
            v
            for v in vars(module).values()
            if inspect.isclass(v) and v.__module__ == module.__name__
        ]
        views = [v for v in own if issubclass(v, DashboardView) and v is not DashboardView]
        models = [v for v in own if issubclass(v, DashboardModel) and v is not DashboardModel]
        for view in views:
            yield pytest.param(models[0], view, id=view.__name__)


PAIRS = list(_pairs())
WITH_FIGURES = {
    "DivisorView",
    "CalibrateView",
    "CalculatorView",
    "CubeView",
    "EloVsGlickoView",
    "EverySystemView",
    "FideRulesView",
    "LadderView",
    "PlanView",
    "VolumeView",
}


def _figures(view) -> dict[str, FigureView]:
    return {name: v for name, v in vars(view).items() if isinstance(v, FigureView)}


def _changes(model) -> list[tuple[str, object]]:
    """A new value for each numeric parameter: its default moved a little, up or down,
    whichever the model accepts (tried on a copy)."""
    out = []
    for name in model.params:
        value = getattr(model, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        step = max(1, abs(value) // 20)
        for new in (value + step, value - step, value + 1, value - 1):
            try:
                setattr(type(model)(), name, type(value)(new))
            except Exception:
                continue
            out.append((name, type(value)(new)))
            break
    return out


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("ELO_EXPLAIN_CACHE", str(tmp_path))
    return tmp_path


def test_every_dashboard_with_figures_is_checked():
    # (the store every test shares: which views have figures does not depend on it, and
    # their first drawings restored cost a third of the drawing)
    assert {
        p.values[1].__name__ for p in PAIRS if _figures(p.values[1](p.values[0](), query=""))
    } == WITH_FIGURES


@pytest.mark.parametrize(
    "model_class, view_class", [p for p in PAIRS if p.values[1].__name__ in WITH_FIGURES]
)
def test_restored_figures_are_the_drawn_pixels_then_and_after_each_change(
    store, model_class, view_class
):
    drawn = view_class(model_class(), query="")
    restored = view_class(model_class(), query="")
    figures_d, figures_r = _figures(drawn), _figures(restored)
    for name, fig in figures_r.items():
        assert figures_d[name].full_draws >= 1 and figures_d[name].restored == 0
        assert fig.restored == 1 and fig.full_draws == 0, name
        assert fig.image.value == figures_d[name].image.value, name
    start = {name: fig.image.value for name, fig in figures_r.items()}
    moved = False
    for trait, value in _changes(drawn.model):
        for view in (drawn, restored):
            setattr(view.model, trait, value)
        for name, fig in figures_r.items():
            assert fig.image.value == figures_d[name].image.value, (trait, value, name)
            moved |= fig.image.value != start[name]
    assert moved or not _changes(drawn.model), "no change moved a figure: the test proves nothing"


def test_a_link_state_is_drawn_not_stored(store):
    from elo_explain.dashboards.backgammon_divisor import DivisorModel, DivisorView

    DivisorView(DivisorModel(), query="")
    files = sorted(p.name for p in store.glob("figure-*"))
    assert len(files) == 1
    view = DivisorView(DivisorModel(), query="divisor=800")
    assert view.model.divisor == 800
    assert sorted(p.name for p in store.glob("figure-*")) == files  # nothing added
    reference = DivisorView(DivisorModel(divisor=800), query="")  # drawn (a new state)
    assert reference.figure.full_draws >= 1
    assert view.figure.image.value == reference.figure.image.value


def test_a_damaged_file_is_drawn_again(store):
    from elo_explain.dashboards.backgammon_divisor import DivisorModel, DivisorView

    first = DivisorView(DivisorModel(), query="")
    for path in store.glob("figure-*"):
        path.write_bytes(b"not pixels")
    again = DivisorView(DivisorModel(), query="")
    assert again.figure.restored == 0 and again.figure.full_draws >= 1
    assert again.figure.image.value == first.figure.image.value


def test_a_folder_that_cannot_be_written_only_costs_the_drawing(tmp_path, monkeypatch):
    from elo_explain.dashboards.backgammon_divisor import DivisorModel, DivisorView

    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("ELO_EXPLAIN_CACHE", str(blocked / "cache"))  # under a file
    first = DivisorView(DivisorModel(), query="")
    again = DivisorView(DivisorModel(), query="")
    assert again.figure.restored == 0 and again.figure.image.value == first.figure.image.value


def test_a_store_full_of_an_earlier_versions_figures_still_keeps_this_ones(store):
    # the store holds at most 256 figures; a new version of the package names its figures
    # anew, so the earlier version's files are never read again: refused when the folder was
    # full, this version's figures were drawn by every kernel for good
    import os

    from elo_explain.dashboards.backgammon_divisor import DivisorModel, DivisorView

    for i in range(256):
        stale = store / f"figure-{i:024x}.rgba"
        stale.write_bytes(b"an earlier version's pixels")
        os.utime(stale, (1_000_000_000 + i, 1_000_000_000 + i))
    first = DivisorView(DivisorModel(), query="")
    again = DivisorView(DivisorModel(), query="")
    assert first.figure.full_draws >= 1
    assert again.figure.restored == 1 and again.figure.full_draws == 0
    assert again.figure.image.value == first.figure.image.value
    assert len(list(store.glob("figure-*"))) == 256  # still the bound
    assert not (store / f"figure-{0:024x}.rgba").exists()  # the oldest made room
