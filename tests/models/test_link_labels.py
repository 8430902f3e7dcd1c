"""Every setting a page's link can set has a label, and a bad link's note names the setting by
it, in the page's language, never by the link's key ("loser_games must be a whole number
between 0 and 300" was 04's note, in English on the Greek page too).

A link setting is one of a model's ``params`` (:class:`~elo_explain.interactive.model.DashboardModel`:
what the notebook's parameters cell and a link set). Its label is the words of its control on
the page (``label=`` of a trait of :mod:`elo_explain.interactive.traits`, or
``.tag(label=…)`` on a trait of traitlets' own). The note is
:func:`~elo_explain.interactive.link.apply_query`'s, on the model each page builds
(``tests/models/test_dock.py``'s ``PAGES``), for a value the setting cannot take: a word
(``zzz``) for a number, a choice, a yes/no, a text; an empty list for a list (a list's
items have labels of their own: "Opponent", "Week 2"). The bad links of
``tests/models/test_bad_links.py`` (the specs' ``bad_link``) check one setting per page; this
checks each.
"""

from __future__ import annotations

import html
import re

import pytest
import traitlets

from elo_explain import translate
from elo_explain.i18n import TRANSLATIONS, gettext
from elo_explain.interactive.link import apply_query
from elo_explain.interactive.traits import label_of, shown_label
from tests.models.shown import in_language
from tests.models.test_dock import PAGES

SETTINGS = [
    (notebook, name) for notebook, (model_cls, _v, _s) in PAGES.items() for name in model_cls.params
]

# A setting whose model writes its own message, naming it in its own words: 10's event date
# (its control, a date picker, says "Event ends on"; the message "Event date must be a date
# YYYY-MM-DD from ...").
OWN_WORDS = {("10_new_to_fide.ipynb", "on"): "Event date"}

_REASON = re.compile(r"^(?P<key>\w+)=(?P<text>[^ ]*) \((?P<reason>.*)\)$")
_WORD = re.compile(r"[A-Za-z]{2,}")


def _bad(trait: traitlets.TraitType) -> str:
    return "" if isinstance(trait, (traitlets.List, traitlets.Tuple)) else "zzz"


def _reason(notebook: str, name: str, lang: str) -> tuple[str, traitlets.TraitType]:
    """The note's reason for ``name`` set to a bad value, on a page in ``lang``: the text in
    the parentheses after ``name=value`` (markup unescaped), and the trait."""
    model_cls = PAGES[notebook][0]
    trait = model_cls.class_traits()[name]
    with in_language(lang):
        note = apply_query(model_cls(), f"{name}={_bad(trait)}")
        label = shown_label(trait)
    assert note, f"{notebook}: {name}={_bad(trait)!r} was taken"
    said = html.unescape(re.sub(r"<[^>]+>", "", note))
    # "Ignored from the link: name=value (reason; the page keeps x)." in the page's language
    item = said.split(": ", 1)[1].rsplit(".", 1)[0] if lang == "en" else said
    start = item.find(f"{name}={_bad(trait)} (")
    assert start >= 0, f"{notebook}: the note does not give {name}= as the link did: {said!r}"
    reason = item[start + len(f"{name}={_bad(trait)} (") :]
    return reason, label


def test_every_link_setting_has_a_label():
    """Each setting a link can set has a ``label`` (so that a note, a message and a control
    name it in words, translated where shown)."""
    unlabelled = [
        f"{notebook[:2]} {name}"
        for notebook, name in SETTINGS
        if not label_of(PAGES[notebook][0].class_traits()[name])
    ]
    assert not unlabelled, f"link settings without a label: {unlabelled}"


@pytest.mark.parametrize("notebook", list(PAGES))
def test_a_bad_link_names_the_setting_by_its_label(notebook):
    """In English, a bad value's reason starts with the setting's label ("Loser's games this
    week must be a whole number between 0 and 300"), never with its key (``loser_games``)."""
    wrong = []
    for name in PAGES[notebook][0].params:
        reason, label = _reason(notebook, name, "en")
        expected = OWN_WORDS.get((notebook, name), label)
        # (04's cube is labelled "cube", its key's very word: a label, not the key)
        keyed = label != name and re.match(rf"{re.escape(name)}\b", reason)
        if not reason.startswith(expected) or keyed:
            wrong.append(f"{name}: {reason[:90]!r} (its label: {label!r})")
    assert not wrong, f"{notebook}: " + "; ".join(wrong)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_translated_note_names_the_setting_in_the_pages_language(lang):
    """On a page in ``lang``, every setting's bad-link reason starts with its label in that
    language (a label of two or more English words is translated), and no English of the
    catalogs is left in that label (``translate.english_left``, the browser tests' check)."""
    wrong = []
    for notebook, name in SETTINGS:
        reason, label = _reason(notebook, name, lang)
        english = label_of(PAGES[notebook][0].class_traits()[name]) or name
        if (notebook, name) not in OWN_WORDS and not reason.startswith(label):
            wrong.append(f"{notebook[:2]} {name}: {reason[:80]!r} does not start with {label!r}")
        if len(_WORD.findall(english)) >= 2 and gettext(english, lang=lang) == english:
            wrong.append(f"{notebook[:2]} {name}: label {english!r} is not translated")
        # (the values a link takes, listed after it, are English on purpose: a link's own)
        left = translate.english_left(label, lang)
        if left:
            wrong.append(f"{notebook[:2]} {name}: English left {left} in {label!r}")
    assert not wrong, f"{lang}: " + "; ".join(wrong)
