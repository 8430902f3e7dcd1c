"""The declared mechanism (``elo_explain.interactive.live``), without a kernel or a browser: what a
declaration computes and shares, who is called after a change and in which order, and what a
live output shows. Values from the Greek Gammon42 document (docs/sources.md#greek): ÷1200, 300
points up -> 64.0 %; ÷800 -> 70.3 %.
"""

from __future__ import annotations

import pytest
import traitlets

from elo_explain.dashboards.backgammon_divisor import DivisorModel, DivisorView
from elo_explain.interactive.live import _replaces_the_cells_last_run, depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.traits import Whole
from tests.models.shown import live


def test_a_declared_result_is_computed_once_for_the_same_traits():
    m = DivisorModel()
    first = m.history()
    assert m.history() is first  # shared by the cell, the view, a test
    m.divisor = 800
    assert m.history() is not first
    assert m.history().rows[-1][2] == 70.3  # document: ÷800, 300 up
    m.divisor = 1200
    assert m.history().rows[-1][2] == 64.0  # document: ÷1200, 300 up


def test_a_live_output_follows_only_its_traits():
    m = DivisorModel()
    win_rates, history = live(m, "win_rates"), live(m, "history")
    assert "ee-live-win-rates" in win_rates._dom_classes
    before = win_rates.value
    m.difference = 200  # win_rates reads the divisor only
    assert win_rates.value == before and "A favourite 200 points up" in history.value
    m.divisor = 800
    assert "÷800 (your divisor)" in win_rates.value and "<td>70.3 %</td>" in win_rates.value


def test_the_view_answers_before_the_notebooks_outputs_and_a_batch_dispatches_once():
    m = DivisorModel()
    order = []
    out = live(m, "history")
    out.observe(lambda c: order.append("output"), names="value")
    view = DivisorView(m, query="")
    view.summary.observe(lambda c: order.append("view"), names="value")
    renders = view.renders
    with m.batch():
        m.divisor, m.difference = 800, 200
    assert order == ["view", "output"] and view.renders == renders + 1


def test_an_error_shows_as_a_message_in_the_output_never_a_traceback():
    class Broken(DashboardModel):
        n = Whole(1, 0, 10)

        @depends("n")
        def table(self):
            from elo_explain.tables import Table

            if self.n == 0:
                raise ValueError("n must not be 0 here")
            return Table(("n",), [(self.n,)], "n")

    m = Broken()
    out = live(m, "table")
    m.n = 0
    assert out.value == (
        '<p class="ee-error ee-live-error">Cannot show this now: n must not be 0 here</p>'
    )
    m.n = 2
    assert "<td>2</td>" in out.value


def test_a_declaration_must_name_traits_of_the_model():
    class Typo(DashboardModel):
        divisor = Whole(1200, 100, 4000)

        @depends("divisr")
        def table(self):
            return None

    with pytest.raises(TypeError, match=r"Typo.table depends on \['divisr'\]"):
        Typo()


def test_changes_that_keep_changing_stop_with_an_error():
    class Loop(DashboardModel):
        n = traitlets.Int(0)

    m = Loop()
    m.subscribe(("n",), lambda names: setattr(m, "n", m.n + 1))
    with pytest.raises(RuntimeError, match="keep changing"):
        m.n = 1


def test_a_cell_run_again_closes_the_live_outputs_of_its_last_run():
    class Kernel:
        def __init__(self):
            self.parent = {}

        def get_parent(self):
            return self.parent

    kernel, m = Kernel(), DivisorModel()
    kernel.parent = {"header": {"msg_id": "run-1"}, "metadata": {"cellId": "cell-a"}}
    first = live(m, "history")
    _replaces_the_cells_last_run(kernel, first)
    kernel.parent = {"header": {"msg_id": "run-2"}, "metadata": {"cellId": "cell-a"}}
    second = live(m, "history")
    _replaces_the_cells_last_run(kernel, second)
    m.divisor = 800
    assert first.comm is None  # closed: it follows the model no more
    assert "Your divisor (÷800)" in second.value and "70.3 %" in second.value
