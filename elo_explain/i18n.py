"""The package's words in the page's language: English, Telugu, Ukrainian or Greek.

A page speaks one language, set once by its notebook: a translated notebook
(``notebooks/<lang>/<name>.ipynb``) has one code cell more than the English one, tagged
``language``::

    from elo_explain.i18n import set_language
    set_language("uk")

Every string the package shows goes through :func:`_` (or :func:`pgettext` with a
context; a string with a count in it through :func:`ngettext` / :func:`npgettext`, gettext's
plural entries: one form per plural category of the language, picked by the catalog's
``Plural-Forms`` rule -- two for Telugu and Greek, three for Ukrainian), which looks it up in the language's compiled gettext catalog,
``elo_explain/locale/<lang>/LC_MESSAGES/elo_explain.mo``; a string with no translation
(or an out-of-date, *fuzzy* one) stays English. The catalogs and the translated notebooks
are made by :mod:`elo_explain.translate`. Numbers go through :mod:`elo_explain.formats`
with ``locale=language()``.

>>> set_language("uk")
>>> pgettext("01_chess_calculator.ipynb title", "Chess Elo calculator")
'Калькулятор рейтингу Elo для шахів'
>>> set_language("en"); _("No dashboards are published yet.")
'No dashboards are published yet.'
>>> set_language("fr")
Traceback (most recent call last):
...
ValueError: language must be one of 'en', 'te', 'uk', 'el', got 'fr'
"""

from __future__ import annotations

import contextlib
import functools
import gettext as _gettext
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "TRANSLATIONS",
    "DOMAIN",
    "LOCALE_DIR",
    "set_language",
    "speaking",
    "language",
    "translations",
    "_",
    "gettext",
    "pgettext",
    "ngettext",
    "npgettext",
    "N_",
]

LANGUAGES = ("en", "te", "uk", "el")
"""The pages' languages: English and the three documents' (Telugu, Ukrainian, Greek)."""
TRANSLATIONS = tuple(lang for lang in LANGUAGES if lang != "en")
"""The languages a page is translated into (``notebooks/<lang>/``, ``locale/<lang>/``)."""
DOMAIN = "elo_explain"
"""The gettext domain of the package's strings (``<DOMAIN>.po`` / ``.mo``)."""
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""``<lang>/LC_MESSAGES/`` of each language's catalogs."""

_language = "en"


def _checked(lang: str) -> str:
    if lang not in LANGUAGES:
        listed = ", ".join(repr(x) for x in LANGUAGES)
        raise ValueError(f"language must be one of {listed}, got {lang!r}")
    return lang


def set_language(lang: str) -> None:
    """Set the page's language (one of :data:`LANGUAGES`)."""
    global _language
    _language = _checked(lang)


@contextlib.contextmanager
def speaking(lang: str):
    """The page's language set to ``lang`` for a block, the one before it restored after
    (a test of a translated page; the server rendering one page's template).

    >>> with speaking("el"):
    ...     language()
    'el'
    >>> language()
    'en'
    """
    before = _language
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


def language() -> str:
    """The page's language: ``"en"`` unless its notebook called :func:`set_language`."""
    return _language


@functools.cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: none, every string is its own).

    >>> translations("de")
    Traceback (most recent call last):
    ...
    ValueError: language must be one of 'en', 'te', 'uk', 'el', got 'de'
    """
    if _checked(lang) == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def gettext(message: str, *, lang: str | None = None) -> str:
    """``message`` in the page's language (or ``lang``'s)."""
    return translations(lang or _language).gettext(message)


def pgettext(context: str, message: str, *, lang: str | None = None) -> str:
    """``message`` in the page's language, the entry of ``context`` (for the same English
    words in two places, or an entry keyed to where it is shown, e.g. a dashboard's title)."""
    return translations(lang or _language).pgettext(context, message)


def _count(n) -> int:
    """``n`` as the whole number a plural form is chosen by (``ValueError`` otherwise)."""
    try:
        whole = int(n)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"n must be a whole number (the count shown), got {n!r}") from None
    if whole != n:
        raise ValueError(f"n must be a whole number (the count shown), got {n!r}")
    return whole


def ngettext(singular: str, plural: str, n, *, lang: str | None = None) -> str:
    """The form of ``singular`` / ``plural`` for the count ``n`` in the page's language (or
    ``lang``'s): gettext's plural entry, its form chosen by the catalog's ``Plural-Forms``
    rule (Ukrainian: 1 / 2-4 / 5-20 and so on; English, Telugu, Greek: 1 / other). ``n`` is
    the whole number the text shows (an integral float or NumPy integer is accepted).

    >>> ngettext("{n} point", "{n} points", 1).format(n=1)
    '1 point'
    >>> [ngettext("{n} point", "{n} points", n, lang="uk").format(n=n) for n in (1, 3, 5, 21)]
    ['1 очко', '3 очки', '5 очок', '21 очко']
    >>> ngettext("{n} point", "{n} points", 1.5)
    Traceback (most recent call last):
    ...
    ValueError: n must be a whole number (the count shown), got 1.5
    """
    return translations(lang or _language).ngettext(singular, plural, _count(n))


def npgettext(context: str, singular: str, plural: str, n, *, lang: str | None = None) -> str:
    """:func:`ngettext` for the entry of ``context`` (the same English in two places)."""
    return translations(lang or _language).npgettext(context, singular, plural, _count(n))


_ = gettext


def N_(message: str) -> str:
    """Mark a string for the catalogs without translating it (translated where shown)."""
    return message
