"""The shared pieces of every page in Telugu, Ukrainian and Greek: a typed value's
message, the link box and its notes, the preset menu, figure ticks and alt texts, the
navigation, the tables -- without a kernel or a browser.

The numbers asserted are the documents' (``shared/spec/terms.md``: Ukrainian and Greek write
a decimal comma, "0,5"; Telugu a decimal point; the Greek document's ÷800 at 300 points up is
70,3 %), the titles the ones the landing page's tests name (``tests/rules/test_translations``).
"""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from elo_explain import i18n, tables, translate  # noqa: E402
from elo_explain.formats import MINUS, parse_number  # noqa: E402
from elo_explain.i18n import N_  # noqa: E402
from elo_explain.interactive.figures import FigureView, Picture, describe_figure  # noqa: E402
from elo_explain.interactive.link import COPY_TEXT, LINK_TEXT  # noqa: E402
from elo_explain.interactive.live import depends  # noqa: E402
from elo_explain.interactive.model import DashboardModel  # noqa: E402
from elo_explain.interactive.page import NumberField  # noqa: E402
from elo_explain.interactive.traits import Number, Whole  # noqa: E402
from elo_explain.interactive.view import DashboardView  # noqa: E402
from elo_explain.server.nav import nav_html  # noqa: E402

LANGS = ("te", "uk", "el")
COMMA = ("uk", "el")  # terms.md: "decimal separator: comma (0,5)"


@pytest.fixture
def lang(request):
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language("en")


def in_each(*langs):
    return pytest.mark.parametrize("lang", langs, indirect=True)


# --- a small dashboard: the shared parts only ------------------------------------------------
class Demo(DashboardModel):
    params = ("difference", "k")
    presets = {N_("Rating difference"): {"difference": 300}}
    difference = Whole(0, 0, 800, label=N_("Rating difference"))
    k = Number(1.0, 0.5, 100, label="K")


class DemoView(DashboardView):
    def build(self):
        import ipywidgets as widgets

        self.out = widgets.HTML()
        return [
            self.preset_menu(),
            self.slider("difference", step=10),
            self.slider("k", step=0.5),
            self.out,
        ]

    @depends("difference")
    def show(self):
        self.out.value = str(self.model.difference)


def shown_text(view) -> str:
    """Every text the view's widgets show: descriptions, HTML values, option labels."""
    out = []

    def walk(w):
        for attr in ("description", "value", "tooltip", "placeholder"):
            v = getattr(w, attr, None)
            if isinstance(v, str):
                out.append(v)
        out.extend(str(label) for label in getattr(w, "_options_labels", ()))
        for child in getattr(w, "children", ()):
            walk(child)

    walk(view)
    return "\n".join(out)


# --- typed values ----------------------------------------------------------------------------
@in_each(*COMMA)
def test_a_bad_typed_value_has_its_message_in_the_language_with_the_range_in_its_numbers(lang):
    field = NumberField("K", 1.0, lo=0.5, hi=100)
    assert field.text.value == "1,0"  # the box shows the language's decimal symbol
    field.text.value = "abc"
    assert not field.valid and field.value == 1.0
    message = field.error
    assert message.startswith("K:") and "0,5" in message and "100" in message
    assert "0.5" not in message
    assert translate.english_left(message, lang) == []
    field.text.value = "200"  # out of range
    assert "0,5" in field.error and translate.english_left(field.error, lang) == []
    field.text.value = "2,5"  # the language's decimal comma is read
    assert field.valid and field.value == 2.5
    assert "0,5" in field.text.tooltip and translate.english_left(field.text.tooltip, lang) == []


@in_each(*LANGS)
def test_typed_number_messages_are_translated_and_english_stays_english(lang):
    for typed in ("", "abc", "1" * 50, "9999", "2.5"):
        try:
            parse_number("K", typed, 0, 4000, integer=True)
        except ValueError as exc:
            assert str(exc).startswith("K")
            assert translate.english_left(str(exc), lang) == [], typed
            assert "allowed" not in str(exc) and "must be" not in str(exc)
        else:
            raise AssertionError(f"{typed!r} was taken")
    i18n.set_language("en")
    with pytest.raises(ValueError, match=r"^K: 'abc' is not a number \(allowed: 0 to 4000\)$"):
        parse_number("K", "abc", 0, 4000)


# --- the link box, its notes, the preset menu --------------------------------------------------
@in_each(*LANGS)
def test_link_box_and_copy_button_are_in_the_language(lang):
    view = DemoView(Demo(), query="")
    link = view.link.value
    assert translate.english_left(link, lang) == []
    assert i18n._(LINK_TEXT) in link and i18n._(COPY_TEXT) in link
    assert ">Link to this view<" not in link and ">Copy link<" not in link
    assert 'data-done="Link copied"' not in link
    assert translate.english_left(shown_text(view), lang) == []
    assert view.preset.value == "Custom"  # the value stays the English key
    labels = view.preset._options_labels
    assert "Custom" not in labels and "Rating difference" not in labels
    view.preset.value = "Rating difference"  # a preset works by its key
    assert view.model.difference == 300


#: The documents' words for "rating difference" (shared/spec/terms.md).
DIFFERENCE = {"te": "రేటింగ్ తేడా", "uk": "різниця рейтингів", "el": "διαφορά rating"}


@in_each(*LANGS)
def test_base_translates_a_sliders_label_its_box_and_the_example_menu(lang):
    """``DashboardView`` shows a trait's label (``N_``-marked) in the page's language on the
    slider, in its box's tooltip and messages, and the example menu's labels: no dashboard
    translates them again."""
    view = DemoView(Demo(), query="")
    box, word = view.controls["difference"], DIFFERENCE[lang].casefold()
    assert box.slider.description.casefold() == word
    assert box.field.label == box.slider.description
    assert box.field.text.tooltip.casefold().startswith(word + ":")
    box.field.text.value = "abc"
    assert box.field.error.casefold().startswith(word + ":")
    assert translate.english_left(box.field.error, lang) == []
    assert view.preset.description == i18n._("Example") != "Example"
    labels = {value: label for label, value in view.preset.options}
    assert labels["Rating difference"].casefold() == word
    assert labels["Custom"] == i18n._("Custom") != "Custom"


@pytest.mark.parametrize("lang", ("en", *LANGS), indirect=True)
def test_a_sliders_label_is_widened_for_a_longer_translation_only(lang):
    view = DemoView(Demo(), query="")
    box = view.slider("difference", label_width="7em")
    label, width = box.slider.description, box.slider.style.description_width
    if lang == "en":  # a dashboard sizes it for its English label
        assert width == "7em"
    else:  # about 0.55 em a character, never narrower
        assert float(width.removesuffix("em")) >= max(7, round(0.55 * len(label), 1))


@in_each(*COMMA)
def test_link_notes_are_in_the_language_with_its_numbers(lang):
    view = DemoView(Demo(), query="difference=9999&colour=red&k=abc")
    note = view.notes.value
    assert translate.english_left(note, lang) == []
    assert "9999" in note and "800" in note and "colour" in note
    assert "0,5" in note  # K's range in the language's numbers
    assert "Ignored from the link" not in note and "not a setting" not in note
    # the kept values: the slider's own (1,0 shown as the language writes it)
    assert view.model.difference == 0 and view.model.k == 1.0


@in_each(*COMMA)
def test_a_link_may_write_a_number_with_the_languages_decimal_comma(lang):
    view = DemoView(Demo(), query="k=2,5&difference=300")
    assert view.model.k == 2.5 and view.model.difference == 300 and view.notes.value == ""
    assert "k=2.5" in view.link.value  # the link it writes: the same in every language
    assert view.controls["k"].field.text.value == "2,5"


@in_each(*LANGS)
def test_a_status_message_is_in_the_language(lang):
    view = DemoView(Demo(), query="")
    view.apply({"difference": 5000})
    assert view.status.value and translate.english_left(view.status.value, lang) == []
    assert "Could not apply" not in view.status.value and "must be" not in view.status.value


# --- figures: ticks and alt texts -----------------------------------------------------------------
def tick_texts(fig):
    fig.canvas.draw()
    return [t.get_text() for ax in fig.axes for t in ax.get_xticklabels() + ax.get_yticklabels()]


@pytest.mark.parametrize(
    "lang, half", [("en", "0.5"), ("te", "0.5"), ("uk", "0,5"), ("el", "0,5")], indirect=["lang"]
)
def test_figure_ticks_use_the_languages_decimal_symbol(lang, half):
    fv = FigureView(figsize=(4, 3))
    fv.ax.plot([0, 1.5], [-1.5, 1.5])
    fv.ax.set_xlim(0, 1.5)
    fv.ax.set_ylim(-1.5, 1.5)
    fv.refresh()
    texts = tick_texts(fv.fig)
    assert half in texts  # x: 0.0, 0.5, 1.0, 1.5
    assert f"{MINUS}1{half[1]}0" in texts  # y: U+2212 kept, "−1,0" / "−1.0"
    other = "." if half == "0,5" else ","
    assert not any(other in t for t in texts)
    twin = fv.ax.twinx()  # an axes made later is localized too
    twin.set_ylim(0, 0.5)
    fv.refresh()
    assert half in [t.get_text() for t in twin.get_yticklabels()]


@pytest.mark.parametrize(
    "lang, half", [("en", "0.5"), ("uk", "0,5"), ("el", "0,5")], indirect=["lang"]
)
def test_a_pictures_ticks_too(lang, half):
    pic = Picture.new((3, 2))
    pic.figure.axes[0].set_xlim(0, 1.5)
    pic.png()
    assert half in [t.get_text() for t in pic.figure.axes[0].get_xticklabels()]


@in_each(*COMMA)
def test_alt_text_is_in_the_language_with_its_numbers(lang):
    # the Greek document: ÷400, 300 points up: 84.9 %
    fv = FigureView(figsize=(4, 3))
    fv.ax.set_title("Γ")
    fv.ax.set_xlabel("d")
    fv.ax.plot([0, 400, 800], [50, 90.9, 99.0], label="÷400")
    fv.ax.plot([300], [84.9], "o", label="•")
    fv.ax.set_xlim(0, 800)
    alt = describe_figure(fv.fig)
    assert "84,9" in alt and "84.9" not in alt
    assert (";" in alt) == (lang != "el")  # Greek writes ";" as its question mark
    fv.ax.axvline(400)  # each curve's value at the marker
    alt = describe_figure(fv.fig)
    assert "90,9" in alt and "90.9" not in alt
    assert translate.english_left(alt, lang) == []
    assert " to " not in alt and " from " not in alt and " at " not in alt


# --- navigation ------------------------------------------------------------------------------------
def test_nav_names_the_titles_in_ukrainian():
    nav = nav_html("02_fide_rules", lang="uk")
    assert "1. Калькулятор рейтингу Elo для шахів" in nav  # the neighbour's title
    assert "All topics" not in nav and 'aria-label="Topics"' not in nav
    assert translate.english_left(nav, "uk") == []
    assert "Chess Elo calculator" in nav_html("02_fide_rules")  # English: as before


@in_each(*LANGS)
def test_nav_follows_the_pages_language(lang):
    nav = nav_html("03_backgammon_divisor")
    assert nav == nav_html("03_backgammon_divisor", lang=lang)
    assert "All topics" not in nav and "FIDE rules" not in nav


# --- tables -----------------------------------------------------------------------------------------
@in_each(*COMMA)
def test_a_document_table_in_the_language(lang):
    t = tables.divisor_history()
    html = t.to_html()
    assert "<td>70,3</td>" in html  # 004: ÷800 at 300 points up, 70,3 %
    assert "<td>64,0</td>" in html  # 004: ÷1200, 64,0 %
    assert translate.english_left(html, lang) == []
    assert "Before 1.2.0" not in html and "Points for a win" not in html
    assert "and more" not in tables.fide_table_8_1_2().to_html()


def _ink(text: str):
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(0.5, 0.4), dpi=100)
    FigureCanvasAgg(fig)
    fig.text(0.3, 0.3, text, fontsize=10)
    fig.canvas.draw()
    return 255 - np.asarray(fig.canvas.buffer_rgba())[..., 0].astype(int)


def test_greek_figures_keep_the_tonos_at_ten_points():
    # matplotlib's default hinting drew ί (iota with tonos) at 10 pt, 100 dpi with no tonos:
    # 03/09's "φαβορί" read "φαβορ(". A Greek page's figures use FreeType's auto-hinter.
    import matplotlib.pyplot as plt

    from elo_explain.interactive import figures

    before = plt.rcParams["text.hinting"]
    try:
        i18n.set_language("el")
        figures.fonts_for_page()
        accented, iota = _ink("ί").sum(axis=1), _ink("ι").sum(axis=1)
        first, stem = accented.nonzero()[0].min(), iota.nonzero()[0].min()
        # the tonos is a mark of its own: a row of no ink between it and the iota's stem
        assert first < stem and (accented[first : stem + 1] == 0).any(), (
            "ί drawn like ι with a hook: its tonos is merged into the stem"
        )
    finally:
        i18n.set_language("en")
        plt.rcParams["text.hinting"] = before
