"""What a person sees on a page, by the browser's own record rather than the DOM's text.

Checks that take an open Playwright page (Chromium) and return a list of problems, empty
when there is none, so a page visit can run them all and assert once:

* :func:`glyph_problems`: every rendered text node is drawn with fonts that have its
  characters, by Chromium's own record of the fonts it used (the DevTools protocol's
  ``CSS.getPlatformFontsForNode``), each font's character map read with fontTools. Telugu
  must come from the page's own font (a web font), and the machine must have no Telugu
  font of its own: otherwise the check could pass because of the machine, not the page.
* :func:`python_text`: no output area shows Python's text: an exception, a warning, a
  stream written to stderr or IPython's own messages (its history database...).
* :func:`captions_out_of_view`: a table that scrolls sideways keeps its caption in view,
  wherever it is scrolled to.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parents[2]
#: the fonts the pages bring with them (web fonts: the template's static files)
PAGE_FONTS = tuple(
    sorted(
        (ROOT / "share" / "jupyter" / "voila" / "templates" / "elo-explain" / "static").glob(
            "*.ttf"
        )
    )
)

TELUGU = re.compile("[\u0c00-\u0c7f]")


def _cmap(font) -> frozenset[int]:
    return frozenset(font.getBestCmap() or {})


@cache
def _page_fonts() -> dict[str, frozenset[int]]:
    """The character maps of the page's own fonts, by family name (name table, id 1)."""
    fonts = {}
    for path in PAGE_FONTS:
        font = TTFont(path, lazy=True)
        fonts[font["name"].getDebugName(1)] = _cmap(font)
    return fonts


@cache
def _system_font_files() -> dict[str, tuple[str, int]]:
    """The machine's fonts (fontconfig's list): ``(file, index)`` by PostScript name."""
    out = subprocess.run(
        ["fc-list", "--format", "%{postscriptname}\t%{file}\t%{index}\n"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {
        name: (path, int(index or 0))
        for name, path, index in (line.split("\t") for line in out.splitlines())
    }


@cache
def _system_font(postscript_name: str) -> frozenset[int] | None:
    """The character map of the machine's font ``postscript_name`` (``None``: no such font)."""
    if postscript_name not in _system_font_files():
        return None
    path, index = _system_font_files()[postscript_name]
    if path.endswith((".ttc", ".otc")):
        return _cmap(TTCollection(path, lazy=True).fonts[index])
    return _cmap(TTFont(path, lazy=True, fontNumber=index))


@cache
def machine_telugu_fonts() -> list[str]:
    """The machine's own fonts with Telugu (``fc-list :lang=te``): there must be none."""
    out = subprocess.run(
        ["fc-list", ":lang=te", "family"], capture_output=True, text=True, check=True
    ).stdout
    return sorted(set(out.split("\n")) - {""})


def _covers(font: dict) -> frozenset[int] | None:
    """The characters of a font Chromium reports (``PlatformFontUsage``), or ``None`` when
    it is not one of the page's fonts nor one of the machine's."""
    if font["isCustomFont"]:
        return _page_fonts().get(font["familyName"])
    return _system_font(font["postScriptName"])


def _drawn(ch: str) -> bool:
    """Whether a character needs a glyph (not a space, a control or a joiner)."""
    return not ch.isspace() and unicodedata.category(ch) not in ("Cc", "Cf")


def _text_nodes(node: dict):
    """``(node id, text)`` of every text node with something to draw under ``node`` (a node
    of ``DOM.getDocument``, shadow roots, the browser's own ones included)."""
    if node.get("nodeType") == 3 and node.get("nodeValue", "").strip():
        yield node["nodeId"], node["nodeValue"]
    if node.get("localName") in ("head", "script", "style", "template"):
        return
    for child in (
        node.get("children", [])
        + node.get("shadowRoots", [])
        + ([node["contentDocument"]] if "contentDocument" in node else [])
    ):
        yield from _text_nodes(child)


def glyph_problems(page, limit: int = 20) -> list[str]:
    """Text the page draws with a font that lacks its characters (empty boxes), by
    Chromium's record of the fonts each rendered text node was drawn with.

    A text node's characters must each be in one of the fonts Chromium used for it, and a
    font without some of them may have drawn no more glyphs than the node has characters it
    has (else it drew a missing one as a box). Telugu must be drawn by the page's own font,
    on a machine without a Telugu font (``fc-list :lang=te`` empty). ``page`` is a loaded
    Playwright page in Chromium; at most ``limit`` problems are returned.
    """
    machine = machine_telugu_fonts()
    if machine:
        return [
            f"this machine has Telugu fonts of its own ({', '.join(machine)}): the check "
            "would not see a page that brings none"
        ]
    for _attempt in range(3):  # again if the page changed under the scan (a view redrew)
        page.evaluate("document.fonts.ready.then(() => true)")  # no font still loading
        problems = _scan(page, limit)
        if problems is not None:
            return problems
    raise AssertionError("the page kept changing under the glyph check")


def _scan(page, limit: int) -> list[str] | None:
    """:func:`glyph_problems` once; ``None`` if a node went away while it ran."""
    from playwright.sync_api import Error

    cdp = page.context.new_cdp_session(page)
    problems: list[str] = []
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
        for node, text in _text_nodes(root):
            # empty for a node Chromium did not lay out (not rendered: display: none, a
            # closed menu's options): its record decides what is rendered
            try:
                used = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            except Error as e:
                if "Could not find node" in str(e):
                    return None
                raise
            if used:
                problems += _node_problems(text, used)
            if len(problems) >= limit:
                break
    finally:
        cdp.detach()
    return problems[:limit]


def _node_problems(text: str, used: list[dict]) -> list[str]:
    """What is wrong with one text node's ``text`` drawn with the fonts ``used``."""
    shown = re.sub(r"\s+", " ", text.strip())[:60]
    covers = {}
    used = [f for f in used if f["glyphCount"]]  # (MathJax's empty font, for a zero width)
    for font in used:
        cmap = _covers(font)
        if cmap is None:
            return [
                f"{shown!r}: drawn with {font['familyName']} ({font['postScriptName']}), "
                "a font neither the page nor the machine has"
            ]
        covers[font["familyName"], font["postScriptName"]] = cmap
    chars = [ch for ch in text if _drawn(ch)]
    problems = []
    missing = sorted({ch for ch in chars if not any(ord(ch) in c for c in covers.values())})
    if missing:
        names = ", ".join(f"{f['familyName']} ({f['glyphCount']})" for f in used)
        problems.append(f"{shown!r}: {''.join(missing)!r} in no font it was drawn with ({names})")
    for font in used:
        cmap = covers[font["familyName"], font["postScriptName"]]
        if all(ord(ch) in cmap for ch in chars):
            continue  # it has them all (shaping may make more glyphs than characters)
        has = sum(1 for ch in text if ord(ch) in cmap or not _drawn(ch))
        if font["glyphCount"] > has:
            problems.append(
                f"{shown!r}: {font['familyName']} drew {font['glyphCount']} glyphs "
                f"but has only {has} of its characters: boxes"
            )
    telugu = {ord(ch) for ch in text if TELUGU.match(ch)}
    if telugu and not any(
        f["isCustomFont"] and telugu & covers[f["familyName"], f["postScriptName"]] for f in used
    ):
        problems.append(f"{shown!r}: its Telugu not drawn by the page's own font")
    return problems


# Python's own text in an output area: a plain-text output (a stream to stdout or stderr, a
# repr, an error: the published pages show none, a view shows plain words in its widgets), or
# words only Python writes: a traceback, a warning's or an exception's class, IPython's
# messages (its history database: "The history saving thread hit an unexpected error").
PYTHON_WORDS = (
    r"Traceback|\b[A-Z]\w*(Error|Warning|Exception)\b|history saving thread|"
    r"History will not be written|IPython|site-packages|File \"[^\"]*\.py\""
)
PYTHON_TEXT = """(words) => {
  const re = new RegExp(words);
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const text = e => (e.innerText || '').replace(/\\s+/g, ' ').trim().slice(0, 120);
  const plain = [...document.querySelectorAll('.jp-OutputArea-output')].filter(e => shown(e) &&
      (e.classList.contains('jp-RenderedText') || e.querySelector('.jp-RenderedText') ||
       /^(text\\/plain|application\\/vnd\\.jupyter\\.(stderr|stdout|error))$/.test(
         e.getAttribute('data-mime-type') || '')));
  const worded = [...document.querySelectorAll('.jp-OutputArea-output')].filter(e => shown(e)
      && re.test(e.innerText || ''));
  return [...new Set([...plain, ...worded])].map(e =>
      (e.getAttribute('data-mime-type') || e.className.split(' ')[0]) + ': ' + text(e));
}"""


def python_text(page) -> list[str]:
    """Output areas of ``page`` that show Python's text rather than the page's: a plain-text
    output (stdout, stderr, a repr, an error), or a traceback, a warning, an exception's class
    or one of IPython's messages in any output. Each as ``"<its type>: <its text>"``."""
    return page.evaluate(PYTHON_TEXT, PYTHON_WORDS)


# every table that scrolls sideways, scrolled to its end and back: its caption's box stays
# inside the table's frame
CAPTIONS = """() => [...document.querySelectorAll('table')].filter(t => t.scrollWidth > t.clientWidth + 1
    && t.querySelector(':scope > caption')).flatMap(t => {
  const c = t.querySelector(':scope > caption'), back = t.scrollLeft, out = [];
  for (const x of [0, t.scrollWidth]) {
    t.scrollLeft = x;
    const f = t.getBoundingClientRect(), r = c.getBoundingClientRect();
    if (r.left < f.left - 0.5 || r.right > f.right + 0.5)
      out.push(`"${c.textContent.trim().slice(0, 40)}" at ${Math.round(r.left)}..${Math.round(r.right)}`
               + ` in a frame at ${Math.round(f.left)}..${Math.round(f.right)}, scrolled ${t.scrollLeft}`);
  }
  t.scrollLeft = back;
  return out;
})"""


def captions_out_of_view(page) -> list[str]:
    """The captions of ``page``'s tables that scroll sideways (a phone's wide table) that
    leave the table's frame when it is scrolled to its start or its end."""
    return page.evaluate(CAPTIONS)
