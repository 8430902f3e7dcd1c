"""Text in a figure that a reader cannot read, found from matplotlib's own extents.

:func:`problems` lays a figure out with its Agg renderer (or takes it as drawn) and reports each
visible text -- titles, axis and tick labels, legend entries, annotations, bar labels -- that

* **overlaps** another text or a legend's box (one is drawn over the other);
* **crosses a frame**: a visible spine of an axes runs through it (a tick label or an axis
  label is outside the frame by design, a label in the plot inside it: neither may straddle
  it -- on 07's phone figure the right frame crossed the minus of "−10.0");
* **sits on a line**: a plotted line (``Line2D`` segments and markers, line collections), an
  outlined patch (a histogram's stairs) or a bar's outline runs through one of its signs or
  digits (:data:`SIGNS`: "−10" read as "10", "0.92" as "092"). The grid is not a plotted line;
  a text in a framed legend or on its own opaque box is drawn over what lies under it.

Extents, not pixels: a text's box is matplotlib's ``get_window_extent`` (its lines' full
height, ascent to descent); a character's box is the part of its line between the widths of
the line's text before it and up to it (matplotlib's own measure of text), so a line through
the box is reported even where it passes just above a minus. A line clipped to its axes
counts only inside them. Boxes that touch by less than :data:`TOLERANCE_PT` do not count.

:func:`shown_texts` lists the texts a figure draws (tick labels of the ticks in view only);
``tests/models/test_figures_phone.py`` uses it too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.container import BarContainer
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text, _get_text_metrics_with_cache
from matplotlib.transforms import Bbox

TOLERANCE_PT = 0.5
"""Boxes and lines closer than this (points) to a text's box's inside do not count: adjacent
tick labels touch, a frame drawn along a box's edge covers no glyph."""

SIGNS = frozenset("+-−–±÷×=≈<>%.,:/?")
"""The characters besides digits that change what a number says when hidden."""


@dataclass(frozen=True)
class Problem:
    kind: str  # "overlap", "frame" or "line"
    text: str  # the text that cannot be read
    other: str  # what covers it
    where: str  # the text's box, in display pixels

    def __str__(self) -> str:
        what = {"overlap": "overlaps", "frame": "is crossed by", "line": "lies on"}[self.kind]
        return f"{self.text!r} {what} {self.other} at {self.where}"


def shown_texts(fig):
    """``(text, box)`` of each text the figure draws (tick labels: those of the ticks in view;
    not the texts of a hidden legend or of a hidden axes), boxes in display pixels."""
    renderer = fig.canvas.get_renderer()
    ticks = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            ticks.update(axis.get_major_ticks() + axis.get_minor_ticks())
    drawn = []
    for ax in fig.axes:
        if ax.get_visible():
            for axis in (ax.xaxis, ax.yaxis):
                for tick in axis._update_ticks():
                    drawn += [t for t in (tick.label1, tick.label2) if t.get_visible()]
    skipped = {id(t) for tick in ticks for t in (tick.label1, tick.label2)}
    skipped |= {id(t) for lg in fig.findobj(Legend) if not lg.get_visible() for t in lg.texts}
    for t in fig.findobj(Text):
        if id(t) in skipped or not t.get_visible() or not t.get_text().strip():
            continue
        if t.axes is not None and not t.axes.get_visible():
            continue
        drawn.append(t)
    for t in drawn:
        if t.get_text().strip():  # (an annotation's own extent has its arrow: not text)
            yield t, Text.get_window_extent(t, renderer)


def _name(text: Text) -> str:
    return " ".join(text.get_text().split())


def _sign(ch: str) -> bool:
    return ch.isdigit() or ch in SIGNS


def _sign_boxes(text: Text, box: Bbox, renderer) -> list[tuple[str, Bbox]]:
    """``(character, box)`` of each sign or digit of ``text`` (drawn at ``box``), from the
    layout matplotlib draws it with (``Text._get_layout``): each line's place, and the
    width of the line's text before the character and up to it. A rotated text or one with
    mathematics: the whole box, once, if it has a sign or a digit."""
    content = text.get_text()
    if not any(map(_sign, content)):
        return []
    if text.get_rotation() % 360 or text._preprocess_math(content)[1]:
        return [("".join(filter(_sign, content)), box)]
    layout, lines, _box = text._get_layout(renderer)
    dx, dy = box.x0 - layout.x0, box.y0 - layout.y0
    prop, dpi = text.get_fontproperties(), text.get_figure(root=True).dpi

    def width(s: str) -> float:
        return (
            _get_text_metrics_with_cache(renderer, s, prop, ismath=False, dpi=dpi)[0] if s else 0.0
        )

    out = []
    for line, (_w, ascent, descent), (x, y) in lines:
        for i, ch in enumerate(line):
            if _sign(ch):
                x0, x1 = x + dx + width(line[:i]), x + dx + width(line[: i + 1])
                out.append((ch, Bbox.from_extents(x0, y + dy - descent, x1, y + dy + ascent)))
    return out


def _overlap(a: Bbox, b: Bbox, tol: float) -> bool:
    return a.x0 < b.x1 - tol and b.x0 < a.x1 - tol and a.y0 < b.y1 - tol and b.y0 < a.y1 - tol


def _crosses(segments: np.ndarray, box: Bbox) -> bool:
    """Whether any of ``segments`` (shape ``(n, 2, 2)``, display pixels) passes through
    ``box`` (Liang-Barsky clipping of each segment to the box)."""
    if box.width <= 0 or box.height <= 0 or not len(segments):
        return False
    p0, d = segments[:, 0], segments[:, 1] - segments[:, 0]
    t0, t1 = np.zeros(len(segments)), np.ones(len(segments))
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in (
            (-d[:, 0], p0[:, 0] - box.x0),
            (d[:, 0], box.x1 - p0[:, 0]),
            (-d[:, 1], p0[:, 1] - box.y0),
            (d[:, 1], box.y1 - p0[:, 1]),
        ):
            parallel = p == 0
            t0 = np.where(parallel & (q < 0), np.inf, t0)  # parallel and outside
            r = q / p
            t0 = np.where(~parallel & (p < 0), np.maximum(t0, r), t0)
            t1 = np.where(~parallel & (p > 0), np.minimum(t1, r), t1)
    return bool(np.any(t0 <= t1))


def _segments(path, transform) -> np.ndarray:
    """A path's drawn pieces as segments in display pixels (``NaN`` breaks a line)."""
    out = []
    for poly in transform.transform_path(path).to_polygons(closed_only=False):
        poly = np.asarray(poly, dtype=float)
        if len(poly) >= 2:
            seg = np.stack([poly[:-1], poly[1:]], axis=1)
            out.append(seg[np.isfinite(seg).all(axis=(1, 2))])
    return np.concatenate(out) if out else np.zeros((0, 2, 2))


def _box_segments(box: Bbox) -> np.ndarray:
    (x0, y0), (x1, y1) = box.get_points()
    corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
    return np.stack([corners[:-1], corners[1:]], axis=1)


def _marker_segments(points: np.ndarray, size_px: float) -> np.ndarray:
    """A square of ``size_px`` around each point (a marker), as its four sides and
    diagonals (so a marker inside a text's box crosses it)."""
    h = size_px / 2
    out = []
    for x, y in points[np.isfinite(points).all(axis=1)]:
        box = Bbox([[x - h, y - h], [x + h, y + h]])
        out += [_box_segments(box), np.array([[(x - h, y - h), (x + h, y + h)]])]
    return np.concatenate(out) if out else np.zeros((0, 2, 2))


def _drawn_edge(patch: Patch) -> bool:
    return patch.get_linewidth() > 0 and patch.get_edgecolor()[3] > 0


def _plotted_lines(fig):
    """``(artist, name, segments, clip)`` of each plotted line of ``fig``: segments in display
    pixels, ``clip`` the box the line is clipped to (or ``None``)."""
    px_per_pt = fig.dpi / 72
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        bars = {id(p) for c in ax.containers if isinstance(c, BarContainer) for p in c}
        artists = [*ax.lines, *ax.collections, *ax.patches]
        for a in artists:
            if not a.get_visible():
                continue
            clip = a.get_clip_box() if a.get_clip_on() else None
            segs = []
            if isinstance(a, Line2D):
                if a.get_linestyle() not in ("None", "", " ") and a.get_linewidth() > 0:
                    segs.append(_segments(a.get_path(), a.get_transform()))
                if a.get_marker() not in (None, "None", "", " ") and len(a.get_xydata()):
                    points = a.get_transform().transform(a.get_xydata())
                    segs.append(_marker_segments(points, a.get_markersize() * px_per_pt))
            elif isinstance(a, LineCollection):
                segs += [_segments(p, a.get_transform()) for p in a.get_paths()]
            elif isinstance(a, PathCollection):  # a scatter: a marker at each offset
                points = a.get_offset_transform().transform(a.get_offsets())
                size = np.sqrt(max(a.get_sizes(), default=0)) * px_per_pt
                segs.append(_marker_segments(np.asarray(points), size))
            elif isinstance(a, Patch):
                if id(a) in bars:  # a bar: its outline, drawn or not (where its fill ends)
                    box = a.get_window_extent()
                    if box.width > 0 and box.height > 0:
                        segs.append(_box_segments(box))
                elif _drawn_edge(a):
                    segs.append(_segments(a.get_path(), a.get_transform()))
            segs = [s for s in segs if len(s)]
            if segs:
                label = a.get_label()
                name = (
                    f"{type(a).__name__} {label!r}"
                    if label and not label.startswith("_")
                    else type(a).__name__
                )
                yield a, name, np.concatenate(segs), clip


def _frames(fig):
    """``(name, segments)`` of each visible spine of each visible axes."""
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible() or not ax.axison:
            continue
        for side, spine in ax.spines.items():
            if spine.get_visible() and _drawn_edge(spine):
                yield (
                    f"the {side} frame of axes {i}",
                    _segments(spine.get_path(), spine.get_transform()),
                )


def _covers(text: Text, line) -> bool:
    """Whether ``text`` is drawn on a box of its own (an opaque ``bbox``) after ``line``, so
    that the box hides it: by z-order, and an artist blitted onto a saved background
    (``animated``, :meth:`FigureView.dynamic`) after every other."""
    patch = text.get_bbox_patch()
    opaque = patch is not None and patch.get_fill() and patch.get_facecolor()[3] >= 0.8
    return opaque and (
        (text.get_animated(), text.get_zorder()) > (line.get_animated(), line.get_zorder())
    )


def _legend_of(fig):
    """``{id(text): legend}`` for the texts of each visible legend of ``fig``."""
    out = {}
    for lg in fig.findobj(Legend):
        if lg.get_visible():
            for t in lg.texts:
                out[id(t)] = lg
    return out


def problems(fig, *, draw: bool = True) -> list[Problem]:
    """Every text of ``fig`` a reader cannot read (see the module's docstring); ``draw``:
    draw the figure first (off: it is drawn as shown, e.g. by a ``FigureView``)."""
    if draw:
        fig.draw_without_rendering()  # laid out as drawn: the extents, no pixels
    renderer = fig.canvas.get_renderer()
    tol = TOLERANCE_PT * fig.dpi / 72
    texts = list(shown_texts(fig))
    legends = _legend_of(fig)
    found = []

    def report(kind, text, other, box):
        found.append(
            Problem(
                kind,
                _name(text),
                other,
                f"({box.x0:.0f}, {box.y0:.0f})-({box.x1:.0f}, {box.y1:.0f})",
            )
        )

    for i, (a, box_a) in enumerate(texts):
        for b, box_b in texts[i + 1 :]:
            if _overlap(box_a, box_b, tol):
                report("overlap", a, repr(_name(b)), box_a)
    for lg in fig.findobj(Legend):
        if not lg.get_visible() or not lg.get_frame_on():
            continue
        frame = lg.get_window_extent(renderer)
        for t, box in texts:
            if legends.get(id(t)) is not lg and _overlap(box, frame, tol):
                report("overlap", t, "a legend", box)
    inner = {
        id(t): Bbox.from_extents(box.x0 + tol, box.y0 + tol, box.x1 - tol, box.y1 - tol)
        for t, box in texts
    }
    for name, segs in _frames(fig):
        for t, box in texts:
            if _crosses(segs, inner[id(t)]):
                report("frame", t, name, box)
    lines = list(_plotted_lines(fig))
    for t, box in texts:
        lg = legends.get(id(t))
        if lg is not None and lg.get_frame_on():
            continue
        for ch, cbox in _sign_boxes(t, box, renderer):
            cbox = Bbox.from_extents(cbox.x0 + tol, cbox.y0 + tol, cbox.x1 - tol, cbox.y1 - tol)
            for line, name, segs, clip in lines:
                if _covers(t, line):
                    continue
                area = cbox if clip is None else Bbox.intersection(cbox, clip)
                if area is not None and _crosses(segs, area):
                    report("line", t, f"a plotted line ({name}) through its {ch!r}", box)
    return found
