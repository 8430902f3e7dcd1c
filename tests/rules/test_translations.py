"""The translation machinery (issue 21, point 2): catalogs, the generator, the landing page.

The catalogs (``elo_explain/locale/<lang>/LC_MESSAGES/``) and the translated notebooks
(``notebooks/<lang>/``) are made from the English sources by ``python -m
elo_explain.translate update``; these tests fail when a catalog is not fully translated,
when an entry is out of date (its English changed: fuzzy), when a ``.mo`` is not its
``.po`` compiled, or when a generated notebook differs from what the generator makes.
The words expected in the translations are the documents' own (``shared/spec/terms.md``).
"""

import json
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
    assert translate.catalog_problems(translate.package_template(),
                                      translate.read_catalog(path, lang), lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_catalog_is_complete_and_up_to_date(lang):
    path = translate.po_path(lang, translate.NOTEBOOK_DOMAIN)
    assert translate.catalog_problems(translate.notebooks_template(),
                                      translate.read_catalog(path, lang), lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalog_is_the_po_compiled(lang):
    po = translate.po_path(lang)
    assert po.with_suffix(".mo").read_bytes() == translate.compile_mo(po)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", translate.NOTEBOOKS)
def test_generated_notebook_is_what_the_generator_makes(lang, name):
    cells = translate.read_catalog(translate.po_path(lang, translate.NOTEBOOK_DOMAIN), lang)
    assert (NOTEBOOKS / lang / name).read_text("utf-8") == translate.translated_notebook(
        name, lang, cells), f"notebooks/{lang}/{name}: run python -m elo_explain.translate update"


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
        f'from elo_explain.i18n import set_language\nset_language("{lang}")')
    assert [c["source"] for c in code if c not in setting] == [
        c["source"] for c in english["cells"] if c["cell_type"] == "code"]
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    assert ours["metadata"]["kernelspec"]["name"] == "python3"
    assert ours["metadata"]["elo_explain"] == {"language": lang, "translated_from": "../index.ipynb"}
    markdown = [c for c in ours["cells"] if c["cell_type"] == "markdown"]
    assert "elo-explain" in "".join(markdown[0]["source"])       # the name stays
    assert "rating systems" not in "".join(markdown[0]["source"])  # the English does not


# --- out of date, not lost -----------------------------------------------------------------------
def _catalog(entries):
    cat = Catalog(locale="uk", domain="notebooks")
    for msgid, msgstr, context in entries:
        cat.add(msgid, msgstr, context=context)
    return cat


def test_a_changed_english_cell_keeps_its_translation_marked_out_of_date():
    old = _catalog([("# Old heading\n\nOld text.", "# Старий заголовок", "index.ipynb 8f827427"),
                    ("Kept.", "Залишено.", "index.ipynb aaaa")])
    template = _catalog([("# New heading\n\nNew text.", "", "index.ipynb 8f827427"),
                         ("Kept.", "", "index.ipynb aaaa"), ("Added.", "", "index.ipynb bbbb")])
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
        "uk: index.ipynb bbbb: 'Added.' is not translated"]
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
        assert any(p.startswith(f"elo_explain/locale/{lang}/LC_MESSAGES/notebooks.po: index.ipynb "
                                f"{nb['cells'][0]['id']}: ") and "is missing" in p for p in found)
    # the generator keeps the English cell until the translation is brought up to date
    cells = translate.read_catalog(translate.po_path("uk", translate.NOTEBOOK_DOMAIN), "uk")
    made = json.loads(translate.translated_notebook("index.ipynb", "uk", cells, folder))
    assert made["cells"][0]["source"][-1] == "A new English first paragraph."


# --- the landing page in each language ---------------------------------------------------------
ENGLISH = {d.title for d in DASHBOARDS} | {d.line for d in DASHBOARDS} | {
    "No dashboards are published yet.", "(in English)"}


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
    monkeypatch.setattr(index, "NOTEBOOKS", tmp_path)   # no translated dashboard
    html = index._link(DASHBOARDS[0], lang)
    assert '<a href="../01_chess_calculator.ipynb" hreflang="en">' in html
    assert i18n._("(in English)", lang=lang) in html and "(in English)" not in html


@pytest.mark.parametrize("lang, title, line_words", [
    # terms.md: calculator, expected score, K-factor, in each document's own words
    ("te", "చెస్ Elo కాలిక్యులేటర్", ("అంచనా స్కోరు", "కొత్త రేటింగ్")),
    ("uk", "Калькулятор рейтингу Elo для шахів", ("Очікуваний результат", "новий рейтинг")),
    ("el", "Υπολογιστής ELO για το σκάκι", ("Αναμενόμενο σκορ", "νέο rating")),
])
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
