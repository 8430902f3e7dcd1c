"""Take the README's screenshots and the landing page's card pictures, in headless Chromium.

Run with ``make screenshots``. It writes:

* ``docs/screenshots/<notebook>.png``: every published page on a desktop (1200 px wide);
* ``docs/screenshots/phone_<notebook>.png``: three dashboards on a phone (Playwright's
  emulation: 390 × 844 CSS px, touch), the view only, at twice the CSS pixels;
* ``share/.../elo-explain/static/cards/<notebook>.png``: each dashboard's card picture for
  the landing page (its first figure on a desktop, whole, or the top of its view, 480 × 300), marked with the notebook it
  was taken from and the size it shows (a PNG text chunk ``Source``: ``tests/site/test_landing.py`` checks it);
  ``cards/<lang>/<notebook>.png`` the same from each translated page, for that language's
  landing page;
* ``docs/screenshots/<lang>_<notebook>.png``: one page in each translation (``LANGUAGE_PAGES``);
* ``docs/screenshots/phone_dock_<notebook>.png``: a phone's screen with a table of the notebook
  at its top and the dock's controls for it below (``DOCK_PAGES``; ``--dock``: only these).

``python scripts/screenshots.py uk/03_backgammon_divisor.ipynb …`` (``make screenshots
PAGES="…"``) shoots only the pages named, English or translated, on a desktop;
``python scripts/screenshots.py --cards te uk`` only the card pictures of those languages
(``en`` for the English ones; all of them without a language).
"""

from __future__ import annotations

import io
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from elo_explain.dashboards import INDEX_NOTEBOOK  # noqa: E402
from elo_explain.dashboards.index import CARDS, NOTEBOOKS, card_picture, published  # noqa: E402
from elo_explain.i18n import LANGUAGES  # noqa: E402
from harness import launch_chromium, open_dashboard, start_voila  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PHONE_PAGES = (
    "01_chess_calculator.ipynb",
    "03_backgammon_divisor.ipynb",
    "09_simulate_ladder.ipynb",
)
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
# one page in each of the documents' languages, for the README (Languages)
LANGUAGE_PAGES = (
    "te/01_chess_calculator.ipynb",
    "uk/01_chess_calculator.ipynb",
    "el/03_backgammon_divisor.ipynb",
)
# a table scrolled to the top of a phone's screen, with the dock (docs/reading.md)
DOCK_PAGES = (
    ("01_chess_calculator.ipynb", ".ee-live-outcomes-table"),
    ("03_backgammon_divisor.ipynb", ".ee-live-history"),
)
DOCK_SETTLED = (
    "() => { const d = document.querySelector('.ee-dock');"
    " return d && !d.classList.contains('ee-dock-away') &&"
    " getComputedStyle(d).transform === 'none'; }"
)
CARD = (480, 300)
FRAME = 6  # px of white round a card's picture, inside its frame
FRAME_COLOUR = (208, 215, 222)
FIGURES_READY = (
    "() => [...document.querySelectorAll('img.ee-plot')].every(i =>"
    " i.getAttribute('src') && i.naturalWidth > 0 &&"
    " i.getBoundingClientRect().width <= document.documentElement.clientWidth)"
)


def settle(page, base: str, notebook: str) -> None:
    open_dashboard(page, base, notebook)
    page.wait_for_function(FIGURES_READY, timeout=90_000)
    page.wait_for_load_state("networkidle")


def card(png: bytes, notebook: str, target: Path) -> None:
    """A dashboard's first figure (or the top of its view) whole, as a card picture ``CARD``
    big: scaled to fit, centred on white in a thin frame; its source and the size it was
    taken at (CSS px) noted in the PNG (``Source``, ``Shows``)."""
    from PIL import Image, ImageDraw, PngImagePlugin

    shot = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = shot.size
    if h * CARD[0] > w * CARD[1] * 1.6:  # a view far taller than a card: its top
        h = round(w * CARD[1] / CARD[0])
        shot = shot.crop((0, 0, w, h))
    room = (CARD[0] - 2 * FRAME, CARD[1] - 2 * FRAME)
    scale = min(room[0] / w, room[1] / h)
    size = (round(w * scale), round(h * scale))
    small = Image.new("RGB", CARD, "white")
    at = ((CARD[0] - size[0]) // 2, (CARD[1] - size[1]) // 2)
    small.paste(shot.resize(size, Image.LANCZOS), at)
    ImageDraw.Draw(small).rectangle(
        (at[0] - 1, at[1] - 1, at[0] + size[0], at[1] + size[1]), outline=FRAME_COLOUR
    )
    info = PngImagePlugin.PngInfo()
    info.add_text("Source", notebook)
    info.add_text("Shows", f"{w}x{h}")
    small.quantize(colors=128).save(target, pnginfo=info, optimize=True)


def take_card(page, notebook: str, lang: str = "en") -> None:
    """The card picture of ``notebook`` in ``lang``, from its page as ``page`` shows it."""
    target = CARDS / card_picture(notebook, lang)
    target.parent.mkdir(parents=True, exist_ok=True)
    figure = page.locator("img.ee-plot")  # the view's first figure, or the view
    shown = figure.first if figure.count() else page.locator(".ee-app").first
    card(shown.screenshot(), notebook if lang == "en" else f"{lang}/{notebook}", target)
    print(f"wrote {target.relative_to(ROOT)}")


def language_cards(page, base: str, languages) -> None:
    """The card pictures of every dashboard with a page in ``languages``, from that page."""
    for lang in languages:
        for d in published():
            if lang == "en" or (NOTEBOOKS / lang / d.notebook).exists():
                settle(page, base, d.notebook if lang == "en" else f"{lang}/{d.notebook}")
                take_card(page, d.notebook, lang)


def desktop_shot(page, base: str, notebook: str, load: bool = True) -> Path:
    """A full-page desktop screenshot of ``notebook`` (``<lang>/`` for a translation),
    loaded first unless ``load`` is false (the page shows it already)."""
    if load:
        settle(page, base, notebook)
    # the page scrolls inside its own container: grow the viewport to the content
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('*')].map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": 1200, "height": min(int(height) + 40, 6000)})
    target = OUT / notebook.replace("/", "_").replace(".ipynb", ".png")
    page.screenshot(path=str(target), full_page=True)
    page.set_viewport_size({"width": 1200, "height": 900})
    print(f"wrote {target.relative_to(ROOT)}")
    return target


@contextmanager
def served():
    """A Voilà server of the notebooks, Chromium and a desktop page: ``(base, browser, page)``,
    all stopped afterwards."""
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    proc, base = start_voila()
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            yield base, browser, browser.new_page(viewport={"width": 1200, "height": 900})
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def dock_shots(browser, base: str) -> None:
    """A phone's screen: a table at its top, the dock's controls for it below."""
    phone = browser.new_context(**PHONE).new_page()
    for notebook, table in DOCK_PAGES:
        settle(phone, base, notebook)
        phone.locator(table).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        phone.wait_for_function(DOCK_SETTLED, timeout=90_000)
        target = OUT / ("phone_dock_" + notebook.replace(".ipynb", ".png"))
        phone.screenshot(path=str(target))
        print(f"wrote {target.relative_to(ROOT)}")
    phone.context.close()


def only(pages: list[str]) -> None:
    """Desktop screenshots of the ``pages`` named (nothing else is re-taken)."""
    with served() as (base, _browser, page):
        for notebook in pages:
            desktop_shot(page, base, notebook)


def main() -> None:
    CARDS.mkdir(parents=True, exist_ok=True)
    with served() as (base, browser, page):
        # the landing page last: it shows the cards' pictures just taken
        for notebook in [d.notebook for d in published()] + [INDEX_NOTEBOOK]:
            settle(page, base, notebook)
            if notebook != INDEX_NOTEBOOK:
                take_card(page, notebook)
            desktop_shot(page, base, notebook, load=False)
        language_cards(page, base, [lang for lang in LANGUAGES if lang != "en"])
        for notebook in LANGUAGE_PAGES:
            desktop_shot(page, base, notebook)
        phone = browser.new_context(**PHONE).new_page()
        for notebook in PHONE_PAGES:
            settle(phone, base, notebook)
            target = OUT / ("phone_" + notebook.replace(".ipynb", ".png"))
            # the page scrolls inside its own container: a screen as tall as the page
            height = phone.evaluate(
                "() => Math.max(...[...document.querySelectorAll('*')].map(e => e.scrollHeight))"
            )
            phone.set_viewport_size({"width": 390, "height": min(int(height) + 40, 8000)})
            phone.wait_for_function(FIGURES_READY, timeout=90_000)
            box = phone.locator(".ee-app").first.bounding_box()
            phone.screenshot(path=str(target), clip=box)
            phone.set_viewport_size(PHONE["viewport"])
            print(f"wrote {target.relative_to(ROOT)}")
        dock_shots(browser, base)


def cards_only(languages: list[str]) -> None:
    """The card pictures of ``languages`` (every language when none is named), nothing else."""
    with served() as (base, _browser, page):
        language_cards(page, base, languages or list(LANGUAGES))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--cards"]:
        cards_only(sys.argv[2:])
    elif sys.argv[1:] == ["--dock"]:
        with served() as (base, browser, _page):
            dock_shots(browser, base)
    else:
        only(sys.argv[1:]) if sys.argv[1:] else main()
