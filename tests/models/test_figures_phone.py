"""Every dashboard's figures laid out for a phone: told a 370 CSS px
wide view (a 390 px screen less the page's margins), each figure is at most that wide, has
twice its CSS pixels (sharp on a high-density screen), no text under 10 CSS px, and no text
cut off at the figure's edge; told a desktop width again, it is the desktop figure it was.

A desktop figure 1,100 px wide shrunk to a phone's 370 px would make 9-pt text about 4 px
tall: the measure here is the text's size as the phone shows it."""

from __future__ import annotations

import pytest

from elo_explain.dashboards.backgammon_divisor import DivisorModel, DivisorView
from elo_explain.dashboards.calibrate import CalibrateModel, CalibrateView
from elo_explain.dashboards.chess_calculator import CalculatorModel, CalculatorView
from elo_explain.dashboards.doubling_cube import CubeModel, CubeView
from elo_explain.dashboards.elo_vs_glicko import EloVsGlickoModel, EloVsGlickoView
from elo_explain.dashboards.every_system import EverySystemModel, EverySystemView
from elo_explain.dashboards.fide_rules import FideRulesModel, FideRulesView
from elo_explain.dashboards.plan import PlanModel, PlanView
from elo_explain.dashboards.simulate_ladder import LadderModel, LadderView
from elo_explain.dashboards.volume_k import VolumeModel, VolumeView
from tests.models.figure_text import shown_texts as _shown_texts

pytestmark = pytest.mark.layout  # make test runs it; make test-fast does not

VIEWS = [
    (DivisorView, DivisorModel),
    (CalibrateView, CalibrateModel),
    (CalculatorView, CalculatorModel),
    (CubeView, CubeModel),
    (EloVsGlickoView, EloVsGlickoModel),
    (EverySystemView, EverySystemModel),
    (FideRulesView, FideRulesModel),
    (LadderView, LadderModel),
    (VolumeView, VolumeModel),
    (PlanView, PlanModel),
]
PHONE_VIEW = 370  # CSS px
CSS_PX_PER_PT = 100 / 72  # a figure is shown at 100 CSS px per inch


@pytest.mark.parametrize("view_cls, model_cls", VIEWS, ids=[v.__name__ for v, _ in VIEWS])
def test_figures_on_a_phone(view_cls, model_cls):
    view = view_cls(model_cls(), query="")
    assert view.figures(), "a view with figures"
    wide = {id(fv): (fv.png(), dict(fv.image.layout.get_state())) for fv in view.figures()}
    view.viewport.value = str(PHONE_VIEW)
    for fv in view.figures():
        css_w = float(fv.image.layout.width.removesuffix("px"))
        assert css_w <= PHONE_VIEW
        png_w = fv.fig.canvas.get_width_height()[0]
        assert png_w >= 2 * css_w - 1, "twice the CSS pixels"
        fv.png()
        fig_box = fv.fig.bbox
        for text, box in _shown_texts(fv.fig):
            if not text.get_visible() or (text.axes is not None and not text.axes.get_visible()):
                continue
            size = text.get_fontsize() * CSS_PX_PER_PT
            assert size >= 10, f"{text.get_text()!r}: {size:.1f} CSS px"
            inside = (
                box.x0 >= fig_box.x0 - 1
                and box.x1 <= fig_box.x1 + 1
                and box.y0 >= fig_box.y0 - 1
                and box.y1 <= fig_box.y1 + 1
            )
            assert inside, f"{text.get_text()!r} is cut off at the figure's edge: {box} {fig_box}"
        renderer = fv.fig.canvas.get_renderer()
        for ax in fv.fig.axes:
            if not ax.get_visible():
                continue
            # the plot keeps most of the width: long names (07's systems, a fifth of the
            # width left for the bars) are broken into lines
            assert ax.get_position().width >= 0.45, f"a panel {ax.get_position().width:.2f} wide"
            # tick labels clear of each other
            for axis in (ax.xaxis, ax.yaxis):
                boxes = [
                    t.get_window_extent(renderer)
                    for tick in axis._update_ticks()
                    for t in (tick.label1, tick.label2)
                    if t.get_visible() and t.get_text()
                ]
                for i, a in enumerate(boxes):
                    for b in boxes[i + 1 :]:
                        assert not (
                            a.x0 < b.x1 - 1
                            and b.x0 < a.x1 - 1
                            and a.y0 < b.y1 - 1
                            and b.y0 < a.y1 - 1
                        ), f"tick labels overlap: {a} {b}"
    view.viewport.value = "1280"  # back on a desktop: the same figure as before
    for fv in view.figures():
        png, layout = wide[id(fv)]
        assert dict(fv.image.layout.get_state()) == layout
        assert fv.png() == png


@pytest.mark.parametrize(
    "value",
    [
        "",
        "abc",
        "-5",
        "1e308",
        "nan",
        "inf",
        "199",
        "10001",
        "<img src=x onerror=alert(1)>",
        "390px",
    ],
)
def test_anything_but_a_width_in_the_viewport_box_is_ignored(value):
    """The page's script writes the page's width into a hidden box (``.ee-viewport``); a
    forged value changes nothing and shows nothing (no message, the desktop figure kept)."""
    from elo_explain.dashboards.backgammon_divisor import DivisorModel, DivisorView

    view = DivisorView(DivisorModel(), query="")
    before = view.figure.image.value
    view.viewport.value = value
    assert view.figure.image.value == before
    assert view.status.value == ""


def _pictures():
    """Every figure a notebook cell shows (a model method returning a ``interactive.figures.Picture``)."""
    return [("01 averaging", CalculatorModel().averaging_figure)]


@pytest.mark.parametrize("make", [m for _, m in _pictures()], ids=[n for n, _ in _pictures()])
def test_notebook_pictures_on_a_phone(make):
    """A notebook cell's figure (``interactive.figures.Picture``) on a phone: the page offers a second drawing
    for a narrow screen, 360 CSS px wide at twice the pixels, no text under 10 CSS px, none
    cut off; a desktop gets the same ``<img>`` with the same pixels as a figure drawn alone."""
    import base64
    import io
    import re

    from PIL import Image

    from elo_explain.interactive.figures import FigureView

    alone = make().png()  # the desktop figure, before anything else drew it
    pic = make()
    page = pic.to_html()
    m = re.fullmatch(
        r'<picture><source media="\(max-width: ([\d.]+)px\)" srcset="data:image/'
        r'png;base64,([^ "]+) 2x">(<img class="ee-figure" [^>]*>)</picture>',
        page,
    )
    assert m, page[:200]
    desktop_px = pic.figure.get_size_inches()[0] * pic.figure.dpi
    assert 390 < float(m[1]) < 1000 and desktop_px <= float(m[1])
    desktop = re.search(r'src="data:image/png;base64,([^"]+)"', m[3])[1]
    assert base64.b64decode(desktop) == alone == pic.png(), "the desktop figure is unchanged"
    narrow = Image.open(io.BytesIO(base64.b64decode(m[2])))
    assert narrow.size[0] == 2 * 360, "360 CSS px at twice the pixels"
    layout = FigureView._laying_out(pic.figure)
    assert layout.fit(360)
    try:
        pic.figure.canvas.draw()  # as the page's narrow drawing (labels placed)
        fig_box = pic.figure.bbox
        assert (round(fig_box.width), round(fig_box.height)) == narrow.size
        texts = list(_shown_texts(pic.figure))
        assert texts
        for text, box in texts:
            size = text.get_fontsize() * CSS_PX_PER_PT
            assert size >= 10, f"{text.get_text()!r}: {size:.1f} CSS px"
            assert (
                box.x0 >= fig_box.x0 - 1
                and box.x1 <= fig_box.x1 + 1
                and box.y0 >= fig_box.y0 - 1
                and box.y1 <= fig_box.y1 + 1
            ), f"{text.get_text()!r} is cut off at the figure's edge"
    finally:
        layout.fit(float("inf"))
    assert pic.png() == alone


STEPS = [
    (DivisorView, DivisorModel, "difference", 10),
    (DivisorView, DivisorModel, "divisor", 50),
    (EloVsGlickoView, EloVsGlickoModel, "days_away", 30),
    (LadderView, LadderModel, "games_per_week", 1),
    (CalculatorView, CalculatorModel, "average", 10),
]


@pytest.mark.parametrize(
    "view_cls, model_cls, trait, step", STEPS, ids=[f"{v.__name__}-{t}" for v, _, t, _ in STEPS]
)
def test_a_slider_step_on_a_phone_draws_what_it_draws_on_a_desktop(
    view_cls, model_cls, trait, step
):
    """A slider step redraws on a phone only what it redraws on a desktop (its dynamic
    artists onto the saved background): measuring a narrow figure's texts (to keep them
    inside) must not mark the background changed. 03's annotation did, and every step on a
    phone drew the whole figure (benchmarks/DASHBOARDS.md: 03 at ~3 × the desktop before)."""
    draws = {}
    for width in ("1280", str(PHONE_VIEW)):
        view = view_cls(model_cls(), query="")
        view.viewport.value = width
        start = getattr(view.model, trait)
        before = sum(fv.full_draws + fv.restored for fv in view.figures())
        for i in range(6):
            setattr(view.model, trait, start + step * (1 + i % 2))
        assert view.status.value == ""
        draws[width] = sum(fv.full_draws + fv.restored for fv in view.figures()) - before
    assert draws[str(PHONE_VIEW)] == draws["1280"], draws
