"""The published site in every language: which pages exist, the language switch, and the words
the page template shows itself.

The English pages are ``notebooks/<name>.ipynb``, published at ``/voila/render/<name>``; a
translation is ``notebooks/<lang>/<name>.ipynb``, published at ``/voila/render/<lang>/<name>``
(:func:`published_pages`). Every page says which language it is in (``<html lang>``, from its
notebook's metadata ``elo_explain.language``: :func:`page_language`) and offers the same page
in the other languages (:func:`switch_html`). Its links are relative (they work under any base
URL and behind nginx); the page's script adds the query of the view's own "Link to this view",
so a viewer who moved a slider lands on the same values in the other language.

The template's JavaScript shows a few words of its own ("This view has stopped.", the link to
reopen it, ...): :func:`page_words` gives them in the page's language, from the same catalogs
as everything else. These functions run in the server (Jinja filters of the page template,
``VoilaExporter.filters`` in ``voila.json``), not in a page's kernel, so they take the
language as an argument instead of reading :func:`elo_explain.i18n.language`.

>>> page_language({"elo_explain": {"language": "uk"}}), page_language({}), page_language(
...     {"elo_explain": {"language": "<script>"}})
('uk', 'en', 'en')
>>> language_of("uk/03_backgammon_divisor.ipynb"), language_of("03_backgammon_divisor.ipynb")
('uk', 'en')
>>> page_path("03_backgammon_divisor.ipynb", "el"), page_path("index.ipynb", "en")
('el/03_backgammon_divisor.ipynb', 'index.ipynb')
>>> print(switch_html("03_backgammon_divisor", "uk"))  # doctest: +NORMALIZE_WHITESPACE
<nav class="ee-langs" aria-label="Мова"><ul>
<li><a class="ee-lang" href="../03_backgammon_divisor.ipynb" data-page="../03_backgammon_divisor.ipynb" lang="en" hreflang="en">English</a></li>
<li><a class="ee-lang" href="../te/03_backgammon_divisor.ipynb" data-page="../te/03_backgammon_divisor.ipynb" lang="te" hreflang="te">తెలుగు</a></li>
<li><a class="ee-lang" href="03_backgammon_divisor.ipynb" data-page="03_backgammon_divisor.ipynb" lang="uk" hreflang="uk" aria-current="page">Українська</a></li>
<li><a class="ee-lang" href="../el/03_backgammon_divisor.ipynb" data-page="../el/03_backgammon_divisor.ipynb" lang="el" hreflang="el">Ελληνικά</a></li>
</ul></nav>
>>> page_words("uk")["reopen"]
'Відкрити цю сторінку знову'
"""

from __future__ import annotations

import html
import os
import re

from elo_explain import i18n
from elo_explain.i18n import LANGUAGES, N_, TRANSLATIONS
from elo_explain.server.nav import nav_html

__all__ = [
    "LANGUAGE_NAMES",
    "page_language",
    "language_of",
    "page_path",
    "published_pages",
    "switch_html",
    "page_words",
    "nav_in",
    "in_language",
    "share_base",
]

#: Each language's name in its own language: what the language switch shows.
LANGUAGE_NAMES = {"en": "English", "te": "తెలుగు", "uk": "Українська", "el": "Ελληνικά"}

_WORDS = {
    "stopped": N_("This view has stopped."),
    "why": N_(
        "The server closed it after a while without use, or it was restarted. "
        "Nothing you set is lost: the link below opens the same view again."
    ),
    "reopen": N_("Reopen this view"),
    "file": N_("the file"),
    "pasted": N_("pasted text"),
}
_SWITCH_LABEL = N_("Language")
_PREFIX = re.compile(r"(?P<lang>[a-z]{2})/")


def page_language(metadata) -> str:
    """The language of a notebook from its metadata (``elo_explain.language``); ``"en"``
    for an English notebook or anything that is not a language of the site."""
    try:
        lang = metadata.get("elo_explain", {}).get("language", "en")
    except AttributeError:
        return "en"
    return lang if lang in LANGUAGES else "en"


def language_of(notebook: str) -> str:
    """The language of a published notebook path (``"uk/03_…ipynb"``: ``"uk"``)."""
    m = _PREFIX.match(notebook)
    return m.group("lang") if m and m.group("lang") in TRANSLATIONS else "en"


def page_path(notebook: str, lang: str) -> str:
    """The path (under ``voila/render/``) of ``notebook`` (an English file name) in ``lang``."""
    return notebook if lang == "en" else f"{lang}/{notebook}"


def published_pages(notebooks) -> list[str]:
    """Every published page: the English ``notebooks`` and each in every translation.

    >>> published_pages(["index.ipynb"])
    ['index.ipynb', 'te/index.ipynb', 'uk/index.ipynb', 'el/index.ipynb']
    """
    return [page_path(nb, lang) for lang in LANGUAGES for nb in notebooks]


def in_language(lang: str, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with the package's language set to ``lang`` for the call (the
    server renders a Jinja filter synchronously: no other page's code runs meanwhile)."""
    with i18n.speaking(lang if lang in LANGUAGES else "en"):
        return fn(*args, **kwargs)


def share_base(base_url: str) -> str:
    """The prefix that a page's shared and reopen links put in place of the server's own
    ``base_url``: ``EE_SHARE_BASE`` where the server's address is not the one other viewers
    reach (under JupyterHub, ``/hub/user-redirect/``: deploy/hub/singleuser.py), else
    ``base_url`` itself.

    >>> share_base("/user/ab12/")  # no EE_SHARE_BASE: the server's own prefix
    '/user/ab12/'
    """
    return os.environ.get("EE_SHARE_BASE") or base_url


def nav_in(name: str, lang: str = "en", end: bool = False) -> str:
    """The page's links to the other topics (:func:`elo_explain.server.nav.nav_html`) in
    the page's language; ``end``: the copy below the page's cells."""
    return in_language(lang, nav_html, name, end=end)


def switch_html(name: str, lang: str = "en") -> str:
    """The language switch of the page whose notebook is ``name`` (with or without
    ``.ipynb``), in language ``lang``: each language's name in that language, the current one
    marked ``aria-current``; relative links (the page's script adds the view's query)."""
    lang = lang if lang in LANGUAGES else "en"
    notebook = name if name.endswith(".ipynb") else f"{name}.ipynb"
    up = "" if lang == "en" else "../"
    e = html.escape
    items = []
    for other in LANGUAGES:
        href = e(notebook if other == lang else up + page_path(notebook, other))
        current = ' aria-current="page"' if other == lang else ""
        items.append(
            f'<li><a class="ee-lang" href="{href}" data-page="{href}" lang="{other}" '
            f'hreflang="{other}"{current}>{e(LANGUAGE_NAMES[other])}</a></li>'
        )
    label = e(i18n.gettext(_SWITCH_LABEL, lang=lang))
    return f'<nav class="ee-langs" aria-label="{label}"><ul>\n' + "\n".join(items) + "\n</ul></nav>"


def page_words(lang: str = "en") -> dict[str, str]:
    """The words the page's script shows itself, in ``lang`` (the template writes them into
    the page as JSON, ``<script id="ee-words">``)."""
    lang = lang if lang in LANGUAGES else "en"
    return {key: i18n.gettext(text, lang=lang) for key, text in _WORDS.items()}
