"""The translation machinery: catalogs, the generator, the landing page.

The catalogs (``elo_explain/locale/<lang>/LC_MESSAGES/``) and the translated notebooks
(``notebooks/<lang>/``) are made from the English sources by ``python -m
elo_explain.translate update``; these tests fail when a catalog is not fully translated,
when an entry is out of date (its English changed: fuzzy), when a ``.mo`` is not its
``.po`` compiled, or when a generated notebook differs from what the generator makes.
The words expected in the translations are the documents' own (``shared/spec/terms.md``).
"""

import json
import re
import shutil

import pytest
from babel.messages.catalog import Catalog

from elo_explain import i18n, translate
from elo_explain.dashboards import DASHBOARDS
from elo_explain.dashboards.index import landing
from harness import NOTEBOOKS

LANGS = i18n.TRANSLATIONS


def test_the_three_documents_languages_are_translated():
    assert LANGS == ("te", "uk", "el")


@pytest.mark.parametrize("lang", LANGS)
def test_package_catalog_is_complete_and_up_to_date(lang):
    path = translate.po_path(lang)
    assert (
        translate.catalog_problems(
            translate.package_template(), translate.read_catalog(path, lang), lang
        )
        == []
    )


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_catalog_is_complete_and_up_to_date(lang):
    path = translate.po_path(lang, translate.NOTEBOOK_DOMAIN)
    assert (
        translate.catalog_problems(
            translate.notebooks_template(), translate.read_catalog(path, lang), lang
        )
        == []
    )


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalog_is_the_po_compiled(lang):
    po = translate.po_path(lang)
    assert po.with_suffix(".mo").read_bytes() == translate.compile_mo(po)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", translate.NOTEBOOKS)
def test_generated_notebook_is_what_the_generator_makes(lang, name):
    cells = translate.read_catalog(translate.po_path(lang, translate.NOTEBOOK_DOMAIN), lang)
    package = translate.read_catalog(translate.po_path(lang), lang)
    assert (NOTEBOOKS / lang / name).read_text("utf-8") == translate.translated_notebook(
        name, lang, cells, package=package
    ), f"notebooks/{lang}/{name}: run python -m elo_explain.translate update"


def test_the_check_command_finds_nothing():
    assert translate.problems() == []


@pytest.mark.parametrize("lang", LANGS)
def test_translated_notebook_code_is_the_english_code_plus_the_language(lang):
    english = json.loads((NOTEBOOKS / "index.ipynb").read_text())
    ours = json.loads((NOTEBOOKS / lang / "index.ipynb").read_text())
    code = [c for c in ours["cells"] if c["cell_type"] == "code"]
    setting = [c for c in code if "language" in c["metadata"].get("tags", [])]
    assert len(setting) == 1
    assert "".join(setting[0]["source"]) == (
        f'from elo_explain.i18n import set_language\nset_language("{lang}")'
    )
    assert [c["source"] for c in code if c not in setting] == [
        c["source"] for c in english["cells"] if c["cell_type"] == "code"
    ]
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    assert ours["metadata"]["kernelspec"]["name"] == "python3"
    assert ours["metadata"]["elo_explain"] == {
        "language": lang,
        "translated_from": "../index.ipynb",
    }
    markdown = [c for c in ours["cells"] if c["cell_type"] == "markdown"]
    assert "elo-explain" in "".join(markdown[0]["source"])  # the name stays
    assert "rating systems" not in "".join(markdown[0]["source"])  # the English does not


# --- out of date, not lost -----------------------------------------------------------------------
def _catalog(entries):
    cat = Catalog(locale="uk", domain="notebooks")
    for msgid, msgstr, context in entries:
        cat.add(msgid, msgstr, context=context)
    return cat


def test_a_changed_english_cell_keeps_its_translation_marked_out_of_date():
    old = _catalog(
        [
            ("# Old heading\n\nOld text.", "# Старий заголовок", "index.ipynb 8f827427"),
            ("Kept.", "Залишено.", "index.ipynb aaaa"),
        ]
    )
    template = _catalog(
        [
            ("# New heading\n\nNew text.", "", "index.ipynb 8f827427"),
            ("Kept.", "", "index.ipynb aaaa"),
            ("Added.", "", "index.ipynb bbbb"),
        ]
    )
    merged = translate.merge(template, old, "uk")
    changed = merged.get("# New heading\n\nNew text.", context="index.ipynb 8f827427")
    assert changed.string == "# Старий заголовок" and changed.fuzzy
    assert changed.previous_id == ["# Old heading\n\nOld text."]
    kept = merged.get("Kept.", context="index.ipynb aaaa")
    assert kept.string == "Залишено." and not kept.fuzzy
    problems = translate.catalog_problems(template, merged, "uk")
    assert problems == [
        "uk: index.ipynb 8f827427: '# New heading\\n\\nNew text.' is out of date (fuzzy): "
        "check the translation, then remove the fuzzy flag",
        "uk: index.ipynb bbbb: 'Added.' is not translated",
    ]
    # the .po shows the translator the English it was made from
    previous = [ln for ln in translate.po_text(merged).splitlines() if ln.startswith("#| msgid")]
    assert previous == ['#| msgid "" "# Old heading\\n" "\\n" "Old text."']


def test_a_changed_package_string_without_context_is_matched_to_its_old_english():
    old = Catalog(locale="el", domain="elo_explain")
    old.add("No dashboards are published yet.", "Δεν έχει δημοσιευτεί ακόμη κανένας πίνακας.")
    template = Catalog(domain="elo_explain")
    template.add("No dashboards are published yet!")
    merged = translate.merge(template, old, "el")
    entry = merged.get("No dashboards are published yet!")
    assert entry.fuzzy and entry.string.startswith("Δεν έχει")


def test_an_edited_english_notebook_fails_the_checks_until_updated(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    for name in translate.NOTEBOOKS:
        shutil.copy(NOTEBOOKS / name, folder / name)
    nb = json.loads((NOTEBOOKS / "index.ipynb").read_text())
    nb["cells"][0]["source"] = ["# elo-explain\n", "\n", "A new English first paragraph."]
    (folder / "index.ipynb").write_text(json.dumps(nb))
    for lang in LANGS:
        shutil.copytree(NOTEBOOKS / lang, folder / lang)
    found = translate.problems(folder)
    for lang in LANGS:
        assert f"notebooks/{lang}/index.ipynb is not what the generator makes (run update)" in found
        assert any(
            p.startswith(
                f"elo_explain/locale/{lang}/LC_MESSAGES/notebooks.po: index.ipynb "
                f"{nb['cells'][0]['id']}: "
            )
            and "is missing" in p
            for p in found
        )
    # the generator keeps the English cell until the translation is brought up to date
    cells = translate.read_catalog(translate.po_path("uk", translate.NOTEBOOK_DOMAIN), "uk")
    made = json.loads(translate.translated_notebook("index.ipynb", "uk", cells, folder))
    assert made["cells"][0]["source"][-1] == "A new English first paragraph."


# --- the landing page in each language ---------------------------------------------------------
ENGLISH = (
    {d.title for d in DASHBOARDS}
    | {d.line for d in DASHBOARDS}
    | {"No dashboards are published yet.", "(in English)"}
)


@pytest.mark.parametrize("lang", LANGS)
def test_landing_page_has_no_english_ui_string_left(lang):
    html = landing(lang).children[1].value
    assert f'lang="{lang}"' in html
    for text in ENGLISH:
        assert text not in html, text
    # every dashboard has its page in the language now: each card links it
    for d in DASHBOARDS:
        assert f'<a href="{d.notebook}">' in html, d.notebook
    assert 'hreflang="en"' not in html
    assert translate.english_left(html, lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_dashboard_not_yet_translated_links_the_english_page(lang, tmp_path, monkeypatch):
    from elo_explain.dashboards import index

    (tmp_path / lang).mkdir()
    monkeypatch.setattr(index, "NOTEBOOKS", tmp_path)  # no translated dashboard
    html = index._link(DASHBOARDS[0], lang)
    assert '<a href="../01_chess_calculator.ipynb" hreflang="en">' in html
    assert i18n._("(in English)", lang=lang) in html and "(in English)" not in html


@pytest.mark.parametrize(
    "lang, title, line_words",
    [
        # terms.md: calculator, expected score, K-factor, in each document's own words
        ("te", "చెస్ Elo కాలిక్యులేటర్", ("అంచనా స్కోరు", "కొత్త రేటింగ్")),
        ("uk", "Калькулятор рейтингу Elo для шахів", ("Очікуваний результат", "новий рейтинг")),
        ("el", "Υπολογιστής ELO για το σκάκι", ("Αναμενόμενο σκορ", "νέο rating")),
    ],
)
def test_translations_use_the_documents_words(lang, title, line_words):
    d = DASHBOARDS[0]
    assert i18n.pgettext(f"{d.notebook} title", d.title, lang=lang) == title
    line = i18n.pgettext(f"{d.notebook} line", d.line, lang=lang)
    assert all(w in line for w in line_words), line
    rules = DASHBOARDS[1]
    k = {"te": "K-ఫ్యాక్టర్", "uk": "K-фактор", "el": "συντελεστής K"}[lang]
    assert k in i18n.pgettext(f"{rules.notebook} line", rules.line, lang=lang)


def test_numbers_inside_translations_are_written_as_the_language_writes_them():
    cube = DASHBOARDS[3]
    assert "1,00" in i18n.pgettext(f"{cube.notebook} line", cube.line, lang="uk")
    assert "1,00" in i18n.pgettext(f"{cube.notebook} line", cube.line, lang="el")
    assert "1.00" in i18n.pgettext(f"{cube.notebook} line", cube.line, lang="te")


# --- plural forms: gettext's plural entries, not "1 points" -------------------------------------
def _uk_form(n: int) -> int:
    """Ukrainian's three forms (одне очко / два очки / п'ять очок), the rule of its grammar:
    1, 21, 31 … (not 11) take the first; 2-4, 22-24 … (not 12-14) the second; the rest the
    third."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


PLURALS = {"te": 2, "uk": 3, "el": 2}  # Telugu and Greek: one / other; Ukrainian: three forms


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogs_plural_rule_is_the_languages(lang):
    compiled = i18n.translations(lang)
    rule = _uk_form if lang == "uk" else (lambda n: 0 if n == 1 else 1)
    assert [compiled.plural(n) for n in range(0, 250)] == [rule(n) for n in range(0, 250)]
    assert translate.read_catalog(translate.po_path(lang), lang).num_plurals == PLURALS[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_every_plural_entry_has_all_its_forms(lang):
    cat = translate.read_catalog(translate.po_path(lang), lang)
    plural = [m for m in cat if m.id and isinstance(m.id, tuple)]
    assert len(plural) >= 40  # every count the package shows
    for m in plural:
        assert len(m.string) == PLURALS[lang] and all(m.string) and not m.fuzzy, m.id[1]


def test_a_plural_entry_left_half_done_is_reported():
    template = Catalog(domain="elo_explain")
    template.add(("{n} point", "{n} points"))
    cat = Catalog(locale="uk", domain="elo_explain")
    cat.add(("{n} point", "{n} points"), ("{n} очко", "{n} очки", ""))
    assert translate.catalog_problems(template, cat, "uk") == ["uk: '{n} point' is not translated"]
    cat = Catalog(locale="uk", domain="elo_explain")
    cat.add(("{n} point", "{n} points"), ("{n} очко", "очки", "{n} очок"))
    assert translate.catalog_problems(template, cat, "uk") == [
        "uk: '{n} point': the translation must keep the fields ['{n}'] (it has [])"
    ]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112])
def test_ngettext_gives_each_languages_form(n):
    point = ("{n} point", "{n} points")
    assert i18n.ngettext(*point, n, lang="en").format(n=n) == (
        f"{n} point" if n == 1 else f"{n} points"
    )
    assert i18n.ngettext(*point, n, lang="uk").format(n=n) == (
        f"{n} " + ("очко", "очки", "очок")[_uk_form(n)]
    )
    assert i18n.ngettext(*point, n, lang="el").format(n=n) == (
        f"{n} πόντος" if n == 1 else f"{n} πόντοι"
    )
    assert i18n.ngettext(*point, n, lang="te").format(n=n) == (
        f"{n} పాయింట్" if n == 1 else f"{n} పాయింట్లు"
    )


# A count in a single-form string ("{n} points" with no singular) reads "1 points" / "21 очок";
# these take one form for a reason: two counts in one phrase, or a count that cannot change.
SINGLE_FORM = {
    "{a} vs {b} games this week",
    "{rules}, {players} players, {weeks} weeks × {games} games (about {total} games each); {true}",
    'Games: there must be 1 to {most} games, one per line ("1600 win"), got {count}',
    "at most {most} games can be listed",
    "{name}: there must be 1 to {most} games, got {count}",
    "Games: there must be 1 to {most} games",
    "By simulation: weekly_swing, {weeks} weeks per K, opponents rated correctly, cube 1",
    "{all} real games from lichess.org, {rated} of them rated (CC0)",
    "{buckets} shown; {fewer} with fewer ({games} games) not shown, all games count in the fit",
    # a percentage, not a count
    "{won} of their games over the season (the rule's curve expected {expected}, their true "
    "strengths gave {true})",
    "typical swing ±{sd32} at K 32, ±{sd16} at K 16; {big32} and {big16} of weeks moved 200 or more",
    "{pct} of weeks between",
}
_COUNT = re.compile(
    r"\{\w+\} (?:\w+ ){0,2}?(?:games|points|days|weeks|rows|players|wins|losses|"
    r"draws|kernels|matches|seconds|minutes|hours|months|years|events|buckets|"
    r"opponents|moves)\b"
)


def test_counts_go_through_plural_entries():
    single = [
        m.id
        for m in translate.package_template()
        if isinstance(m.id, str)
        and m.context != "a fraction"
        and _COUNT.search(m.id)
        and m.id not in SINGLE_FORM
    ]
    assert single == []


# --- formulas in the page's words -------------------------------------------------------------
# Latin-script words a formula may keep: the documents' own (the Greek one writes "rating" in
# Latin script, terms.md) and log2's name. The rest ("expected", "divisor", "cube",
# "coefficient", "opponent", "own") is English left on a translated page.
FORMULA_LATIN = {"te": {"log"}, "uk": {"log"}, "el": {"log", "rating"}}
_LATIN = re.compile(r"[A-Za-z]{2,}")
_FIELD = re.compile(r"\{\w*\}")  # a str.format field ({cube}) is not a word on the page


def _translated_entries(lang):
    for domain in (translate.DOMAIN, translate.NOTEBOOK_DOMAIN):
        for m in translate.read_catalog(translate.po_path(lang, domain), lang):
            if m.id:
                yield m, [m.string] if isinstance(m.string, str) else list(m.string)


@pytest.mark.parametrize("lang", LANGS)
def test_formula_entries_have_no_english_and_no_latex(lang):
    formulas = [
        (m, strings)
        for m, strings in _translated_entries(lang)
        if any(c.startswith("Formula") for c in m.auto_comments)
    ]
    # 03's expected score, 04's cube coefficient; the cube table's caption, the cube page's
    # caption, its figure's legend and its worked line
    assert len(formulas) == 6, [m.id for m, _s in formulas]
    for m, strings in formulas:
        for s in strings:
            words = set(_LATIN.findall(_FIELD.sub("", s)))
            assert words <= FORMULA_LATIN[lang], (m.context or m.id, words - FORMULA_LATIN[lang])
            assert "$" not in s and "\\" not in s, s  # plain text, as the documents print


_EXPONENT = re.compile(r"10\^\(((?:[^()]|\([^()]*\))*)\)|log2\(([^()]*)\)")


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_inside_any_formula(lang):
    # every 10^(…) and log2(…) of every entry (formulas inside a paragraph too, as 07's and 08's)
    for m, strings in _translated_entries(lang):
        for s in strings:
            for found in _EXPONENT.finditer(s):
                words = set(_LATIN.findall(_FIELD.sub("", found.group(1) or found.group(2))))
                assert words <= FORMULA_LATIN[lang], (m.context or m.id, found.group(0))


def _cell(lang, notebook, cell):
    cat = translate.read_catalog(translate.po_path(lang, translate.NOTEBOOK_DOMAIN), lang)
    return next(m.string for m in cat if m.context == f"{notebook} {cell}")


def test_formulas_are_written_as_the_documents_write_them():
    cube, divisor = "04_doubling_cube.ipynb", "03_backgammon_divisor.ipynb"
    # the Greek document (docs/sources.md#greek): "συντελεστής = 1 + log2(κύβος) / 6" and
    # "αναμενόμενο = 1 / (1 + 10^((rating αντιπάλου − δικό σου rating) / 1200))"
    assert _cell("el", cube, "04-00f") == "συντελεστής = 1 + log2(κύβος) / 6"
    assert _cell("el", divisor, "03-00f").startswith(
        "αναμενόμενο = 1 / (1 + 10^((rating αντιπάλου − δικό σου rating) / "
    )
    # the Ukrainian document: "E = 1 / (1 + 10^((суперник − ви) / 400))"
    assert _cell("uk", divisor, "03-00f").startswith("E = 1 / (1 + 10^((суперник − ви) / ")
    # the Telugu document: "E = 1 / (1 + 10^((R_opponent - R_own) / 400))", "R_opponent
    # ప్రత్యర్థి రేటింగ్, R_own మీ రేటింగ్"
    assert _cell("te", divisor, "03-00f").startswith("E = 1 / (1 + 10^((ప్రత్యర్థి రేటింగ్ − మీ రేటింగ్) / ")
    # the same words as the cube table's caption on the same page
    for lang in LANGS:
        caption = i18n._("Doubling cube: coefficient = 1 + log2(cube) / 6", lang=lang)
        assert _cell(lang, cube, "04-00f") in caption, lang


_HYPHEN_MINUS = re.compile(r"(?:^|[\s(\[«\"/=])-\d")


@pytest.mark.parametrize("lang", LANGS)
def test_negative_numbers_use_the_minus_sign(lang):
    # the pages write −8.6 with U+2212 (elo_explain.formats), quotes of the documents too
    for m, strings in _translated_entries(lang):
        for s in strings:
            assert not _HYPHEN_MINUS.search(s), (m.context or m.id, _HYPHEN_MINUS.search(s))


@pytest.mark.parametrize("lang", LANGS)
def test_translated_notebooks_print_their_formulas_in_plain_text(lang):
    # the English pages draw 03's and 04's formulas with MathJax ($$\text{expected} …$$); a
    # translated page prints its own words as plain text (MathJax has no Telugu glyphs)
    english = {
        name: json.loads((NOTEBOOKS / name).read_text("utf-8"))
        for name in ("03_backgammon_divisor.ipynb", "04_doubling_cube.ipynb")
    }
    assert all(any("$$" in "".join(c["source"]) for c in nb["cells"]) for nb in english.values())
    for name in translate.NOTEBOOKS:
        nb = json.loads((NOTEBOOKS / lang / name).read_text("utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                assert "$$" not in "".join(cell["source"]), (name, cell["id"])
    cells = json.loads((NOTEBOOKS / lang / "04_doubling_cube.ipynb").read_text("utf-8"))["cells"]
    formula = next(c for c in cells if c["id"] == "04-00f")
    assert "".join(formula["source"]) == _cell(lang, "04_doubling_cube.ipynb", "04-00f")


# --- Ukrainian as a native reader writes it -----------------------------------------------------
def test_ukrainian_names_the_language_of_a_document():
    # "документ телугу" reads as "a document Telugu": a native writes "документ мовою телугу"
    # (a document in the Telugu language), and "обмежувати нічого" is no sentence at all
    awkward = re.compile(
        r"(?i)\b(документ\w*|сторінк\w*|калькулятор\w*) телугу|обмежувати нічого"
        r"|комірк"
    )  # one word for a notebook cell: клітинка
    for m, strings in _translated_entries("uk"):
        for s in strings:
            assert not awkward.search(s), (m.context or m.id, awkward.search(s).group(0))


def test_a_string_made_plural_keeps_its_translation_out_of_date_in_every_form():
    old = Catalog(locale="uk", domain="elo_explain")
    old.add("{n} points below", "нижче на {n} в. п.")
    template = Catalog(domain="elo_explain")
    template.add(("{n} point below", "{n} points below"))
    merged = translate.merge(template, old, "uk")
    entry = merged.get(("{n} point below", "{n} points below"))
    assert entry.fuzzy and entry.string == ("нижче на {n} в. п.",) * 3
    assert translate.catalog_problems(template, merged, "uk") == [
        "uk: '{n} point below' is out of date (fuzzy): check the translation, then remove the "
        "fuzzy flag"
    ]
