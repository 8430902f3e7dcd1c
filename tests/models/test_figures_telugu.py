"""Telugu in the figures: shaped, with the package's own font.

Telugu letters join: in ప్రత్యర్థి ("opponent", the Telugu document's word) the consonants
after each virama (్) become small subjoined forms under the letter before, so the word
is six glyphs wide, not ten. Matplotlib before 3.11 drew one glyph per character, side by
side, as a row of broken letters. The reference here is HarfBuzz (``uharfbuzz``), the
shaping engine browsers and LibreOffice use, shaping the same font file at the same size:
the ink the figure draws must be as wide and as tall as HarfBuzz's shaped glyphs, and
clearly not as wide as the same glyphs unshaped (so the test fails on an unshaped
rendering).
"""

import contextlib
import io

import matplotlib.pyplot as plt
import numpy as np
import uharfbuzz as hb
from PIL import Image

from elo_explain import i18n
from elo_explain.interactive.figures import TELUGU_FONT, FigureView

OPPONENT = "ప్రత్యర్థి"  # the Telugu document's word (docs/sources.md#telugu, T9)
PX = 40  # font size in pixels (the figure's dpi is 100)
DPI = 100


def _hb_font():
    face = hb.Face(hb.Blob.from_file_path(str(TELUGU_FONT)))
    return hb.Font(face), face.upem


def _ink(glyphs, font, upem):
    """Ink box (width, height) in pixels of glyphs placed at (x, y) in font units."""
    xs, ys = [], []
    for gid, x, y in glyphs:
        e = font.get_glyph_extents(gid)
        if e.width:
            xs += [x + e.x_bearing, x + e.x_bearing + e.width]
            ys += [y + e.y_bearing, y + e.y_bearing + e.height]
    scale = PX / upem
    return (max(xs) - min(xs)) * scale, (max(ys) - min(ys)) * scale


def shaped_ink(text):
    font, upem = _hb_font()
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(font, buf)
    glyphs, pen = [], 0
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        glyphs.append((info.codepoint, pen + pos.x_offset, pos.y_offset))
        pen += pos.x_advance
    return _ink(glyphs, font, upem), len(glyphs)


def unshaped_ink(text):
    """One glyph per character, side by side: what matplotlib before 3.11 drew."""
    font, upem = _hb_font()
    glyphs, pen = [], 0
    for ch in text:
        gid = font.get_nominal_glyph(ord(ch))
        glyphs.append((gid, pen, 0))
        pen += font.get_glyph_h_advance(gid)
    return _ink(glyphs, font, upem), len(glyphs)


@contextlib.contextmanager
def telugu_page():
    """As a Telugu page's kernel: ``set_language("te")`` (its notebook's language cell)."""
    i18n.set_language("te")
    try:
        yield
    finally:
        i18n.set_language("en")


def figure_ink(text):
    """Ink box of ``text`` drawn in a :class:`FigureView` figure of a Telugu page."""
    with telugu_page():
        view = FigureView(figsize=(6, 2))
    assert view.fig.dpi == DPI
    view.ax.set_axis_off()
    view.fig.text(0.1, 0.4, text, fontsize=PX * 72 / DPI)
    pixels = np.asarray(Image.open(io.BytesIO(view.png())).convert("L"))
    rows, cols = np.nonzero(pixels < 128)
    return cols.max() - cols.min() + 1, rows.max() - rows.min() + 1


def test_telugu_in_a_figure_is_shaped_like_harfbuzz_shapes_it():
    (w_shaped, h_shaped), n_shaped = shaped_ink(OPPONENT)
    (w_plain, h_plain), n_plain = unshaped_ink(OPPONENT)
    assert (n_shaped, n_plain) == (6, 10)  # the conjuncts join: 10 characters, 6 glyphs
    w, h = figure_ink(OPPONENT)
    tolerance = 3  # pixels: hinting and antialiasing
    assert abs(w - w_shaped) <= tolerance, (w, w_shaped)
    assert abs(h - h_shaped) <= tolerance, (h, h_shaped)
    # the test can fail: unshaped, the word is far wider (about 184 px against 100)
    assert w_plain - w_shaped > 10 * tolerance
    assert abs(w - w_plain) > 10 * tolerance


def test_the_telugu_font_is_a_fallback_english_figures_do_not_change():
    """Latin, Greek and Cyrillic glyphs still come from DejaVu Sans, pixel for pixel."""
    with telugu_page():
        FigureView(figsize=(2, 1))  # registers the fallback
    families = list(plt.rcParams["font.family"])
    assert families[-1] == "Noto Sans Telugu" and len(families) >= 2

    def draw(family):
        with plt.rc_context({"font.family": family}):
            fig = plt.figure(figsize=(5, 1.5), dpi=DPI)
            fig.text(0.02, 0.4, "E 0.64 −16 ÷1200 σκορ очікуваний 70,3%", fontsize=14)
            fig.canvas.draw()
            out = np.asarray(fig.canvas.buffer_rgba()).copy()
            plt.close(fig)
            return out

    assert np.array_equal(draw(families), draw(families[:-1]))
