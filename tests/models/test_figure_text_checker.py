"""The checker of figure text (``tests/models/figure_text.py``) on small figures made by hand:
one that must pass, and one for each kind of fault, placed where a reader sees it."""

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from tests.models.figure_text import problems


def _figure(**kw):
    fig = Figure(figsize=(4, 3), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set(xlim=(0, 10), ylim=(0, 10), title="A title", xlabel="x (points)", ylabel="y (%)")
    ax.plot([0, 10], [1, 1], label="a line at 1")
    return fig, ax


def test_a_clean_figure_passes():
    fig, ax = _figure()
    ax.text(5, 5, "−10.0 / +10.0", ha="center", va="center")  # clear of everything
    bars = ax.bar([2, 6], [3, 4], width=1)
    ax.bar_label(bars, labels=["+3", "+4"], padding=2)
    ax.text(9.5, 7, "no sign across", ha="right", va="center")
    ax.axvline(8.9)  # crosses letters only, not a sign or a digit
    ax.legend(loc="upper left")
    assert problems(fig) == []


def test_two_texts_on_each_other():
    fig, ax = _figure()
    ax.text(5, 5, "+10.0", ha="center")
    ax.text(5.3, 5.1, "−10.0", ha="center")
    [p] = problems(fig)
    assert (p.kind, p.text, p.other) == ("overlap", "+10.0", "'−10.0'")


def test_a_text_under_a_legend():
    fig, ax = _figure()
    ax.legend(loc="upper left")
    ax.text(0.3, 9.8, "7 games", va="top")
    assert ("overlap", "7 games", "a legend") in {(p.kind, p.text, p.other) for p in problems(fig)}


@pytest.mark.parametrize("x, ha", [(10, "center"), (0, "center"), (9.9, "left")])
def test_a_text_across_the_frame(x, ha):
    """07's phone figure: the right frame through "−10.0" (a bar label past the axes)."""
    fig, ax = _figure()
    ax.text(x, 7, "+10.0 / −10.0", ha=ha, va="center")  # (between the tick labels 6 and 8)
    found = problems(fig)
    assert [p.kind for p in found] == ["frame"]
    assert ("right" if x > 5 else "left") in found[0].other


def test_a_text_outside_the_frame_is_not_across_it():
    fig, ax = _figure()
    ax.text(10.3, 5, "+10.0", ha="left")  # in the margin, clear of the frame
    assert problems(fig) == []


def test_a_line_through_a_digit():
    fig, ax = _figure()
    ax.text(5, 3, "day 18, 22:30", ha="center", va="center")
    ax.plot([4, 7], [2, 4])  # crosses the middle of the text, where the digits are
    [p] = {(p.kind, p.text) for p in problems(fig)}
    assert p == ("line", "day 18, 22:30")


def test_a_line_through_a_minus():
    """A horizontal line through the minus of "−16" (it reads "16")."""
    fig, ax = _figure()
    t = ax.text(5, 1, "−16", ha="center", va="center")
    found = problems(fig)
    assert found and all(p.kind == "line" for p in found)
    assert "'−'" in found[0].other
    t.set_position((5, 3))  # moved off the line: clean
    assert problems(fig) == []


def test_a_bar_edge_and_a_marker_through_digits():
    fig, ax = _figure()
    ax.bar([5], [6], width=1)
    ax.text(5.5, 4, "+16", ha="center", va="center")  # over the bar's right edge
    ax.plot([2], [7], "o", ms=10)
    ax.text(2, 7, "42", ha="center", va="center")  # on a marker
    kinds = {(p.kind, p.text) for p in problems(fig)}
    assert kinds == {("line", "+16"), ("line", "42")}


def test_a_line_under_an_opaque_box_or_a_framed_legend_is_hidden():
    fig, ax = _figure()
    ax.text(5, 1, "−16", ha="center", va="center", bbox=dict(fc="white", ec="none"))
    ax.plot([0, 10], [8.6, 8.6], label="−20 %")
    ax.legend(loc="upper left", framealpha=1)
    assert problems(fig) == []


def test_hidden_texts_and_texts_of_hidden_axes_do_not_count():
    fig, ax = _figure()
    ax.text(5, 1, "−16", ha="center", va="center", visible=False)
    other = fig.add_axes([0.5, 0.5, 0.3, 0.3])
    other.text(0.5, 0.5, "−16")
    other.set_visible(False)
    assert problems(fig) == []


def test_an_opaque_box_drawn_under_a_line_hides_nothing():
    """A line drawn after the text's box (higher z-order, or blitted onto a saved background
    as a ``FigureView``'s dynamic artists are) runs over the digits all the same."""
    fig, ax = _figure()
    ax.text(5, 1, "−16", ha="center", va="center", bbox=dict(fc="white", ec="none"))
    (line,) = ax.plot([0, 10], [1.02, 1.02], zorder=4)
    assert problems(fig)
    line.set_zorder(2)
    line.set_animated(True)
    assert problems(fig)
