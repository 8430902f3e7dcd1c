"""Message catalogs and translated notebooks, from the English sources: one source of truth.

``python -m elo_explain.translate update`` (``make translations``) does every step:

1. **extract** the English strings with Babel: the package's ``_("…")``, ``N_("…")``,
   ``pgettext("…", "…")`` calls and the plural entries of ``ngettext("…", "…", n)`` /
   ``npgettext("…", "…", "…", n)`` (one translation per plural form of the language, as
   its catalog's ``Plural-Forms`` header counts them: Telugu and Greek 2, Ukrainian 3), each dashboard's title and line from
   :data:`~elo_explain.dashboards.DASHBOARDS` (keyed ``"<notebook> title"`` /
   ``"<notebook> line"``), and every markdown cell of the notebooks in :data:`NOTEBOOKS`
   (keyed ``"<notebook> <cell id>"``, the cell's English text as msgid);
2. **merge** them into each language's catalogs, ``elo_explain/locale/<lang>/LC_MESSAGES/``
   ``elo_explain.po`` (the package's strings) and ``notebooks.po`` (the markdown cells): an
   entry whose English text changed keeps its translation, marked *fuzzy* (out of date),
   with the old English beside it (``#| msgid``), for the translator to check; a new entry
   is empty; an entry no longer used is kept at the end as obsolete (``#~``);
3. **compile** ``elo_explain.po`` to ``elo_explain.mo`` (what :mod:`elo_explain.i18n` reads;
   fuzzy entries are left out, so an out-of-date string shows in English);
4. **generate** ``notebooks/<lang>/<name>.ipynb`` from the English notebook: each markdown
   cell translated, the code cells as they are (no outputs), plus one code cell tagged
   ``language`` that calls ``set_language("<lang>")``, before the first code cell that is
   not the ``parameters`` cell; the notebook's metadata says
   ``"elo_explain": {"language": "<lang>", "translated_from": "../<name>"}``.

A translator edits the ``.po`` files (any gettext editor, or by hand), then runs ``update``
again. ``python -m elo_explain.translate check`` lists what is out of date (the tests run the
same checks): an entry missing, untranslated or fuzzy, a ``.mo`` that is not the ``.po``
compiled, a generated notebook that differs from what ``update`` makes.

To add a language: add its code to :data:`elo_explain.i18n.LANGUAGES` (its numbers come
from CLDR), run ``update`` (it creates the empty catalogs), translate, run ``update``.
A dashboard's notebook is translated once it is in ``DASHBOARDS`` (:data:`NOTEBOOKS`).
"""

from __future__ import annotations

import argparse
import difflib
import functools
import io
import json
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK
from elo_explain.i18n import DOMAIN, LOCALE_DIR, TRANSLATIONS

__all__ = [
    "NOTEBOOKS",
    "package_template",
    "notebooks_template",
    "merge",
    "compile_mo",
    "translated_notebook",
    "problems",
    "update",
]

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = (INDEX_NOTEBOOK, *(d.notebook for d in DASHBOARDS))
"""The notebooks translated: the landing page and every dashboard of
:data:`~elo_explain.dashboards.DASHBOARDS` (registering a dashboard is all it takes)."""
NOTEBOOK_DOMAIN = "notebooks"
LANGUAGE_TAG = "language"
_KEYWORDS = {
    "_": None,
    "gettext": None,
    "N_": None,
    "pgettext": ((1, "c"), 2),
    "ngettext": (1, 2),
    "npgettext": ((1, "c"), 2, 3),
}
_FIELD = re.compile(r"\{[^{}]*\}")
"""A ``str.format`` field of a package string (``{rating}``): a translation keeps each one."""
_DATE_LINE = re.compile(r'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"$', re.M)


# --- extract ------------------------------------------------------------------------------
def _new_catalog(lang: str | None, domain: str) -> Catalog:
    return Catalog(
        locale=lang,
        domain=domain,
        project="elo-explain",
        version="0.1",
        copyright_holder="elo-explain",
        msgid_bugs_address="elo-explain issues",
        last_translator="elo-explain",
        language_team=f"elo-explain {lang}",
        fuzzy=False,
        header_comment=f"# {domain}: translations of elo-explain "
        "(python -m elo_explain.translate update).",
    )


def package_template() -> Catalog:
    """The package's English strings: ``_`` / ``pgettext`` calls and the dashboards' titles
    and lines (one entry per English string and context)."""
    cat = _new_catalog(None, DOMAIN)
    for d in DASHBOARDS:
        where = [("elo_explain/dashboards/__init__.py", None)]
        cat.add(d.title, locations=where, context=f"{d.notebook} title")
        cat.add(d.line, locations=where, context=f"{d.notebook} line")
    found = extract_from_dir(
        str(PACKAGE),
        method_map=[("**.py", "python")],
        keywords=_KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for filename, _lineno, message, comments, context in found:
        where = (f"elo_explain/{filename}", None)
        known = cat.get(message, context=context)
        if known is not None:
            known.locations.append(where)
            continue
        cat.add(message, locations=[where], auto_comments=comments, context=context)
    return cat


def _cell_context(name: str, cell: dict) -> str:
    if "id" not in cell:
        raise ValueError(
            f"{name}: a markdown cell has no id (nbformat 4.5 cell ids key the "
            f"translations; save the notebook with JupyterLab to add them)"
        )
    return f"{name} {cell['id']}"


def _source(cell: dict) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


def _read_notebook(name: str, folder: Path) -> dict:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def notebooks_template(folder: Path = NOTEBOOK_DIR) -> Catalog:
    """Every markdown cell of :data:`NOTEBOOKS`, keyed ``"<notebook> <cell id>"``; a cell's
    note to the translators (its metadata ``"elo_explain": {"translators": "…"}``, as a
    formula has one) is the entry's comment, as ``# TRANSLATORS:`` is a package string's."""
    cat = _new_catalog(None, NOTEBOOK_DOMAIN)
    for name in NOTEBOOKS:
        for cell in _read_notebook(name, folder)["cells"]:
            if cell["cell_type"] == "markdown" and _source(cell).strip():
                note = cell.get("metadata", {}).get("elo_explain", {}).get("translators")
                cat.add(
                    _source(cell),
                    locations=[(f"notebooks/{name}", None)],
                    context=_cell_context(name, cell),
                    auto_comments=[note] if note else [],
                )
    return cat


# --- merge -------------------------------------------------------------------------------------
def _entries(cat: Catalog | None) -> list:
    return [] if cat is None else [m for m in cat if m.id]


def merge(template: Catalog, old: Catalog | None, lang: str) -> Catalog:
    """``lang``'s catalog for ``template``, keeping every translation ``old`` has.

    An entry of the same English and context keeps its translation (and its flags); one of
    the same context whose English changed keeps its translation as *fuzzy*, with the old
    English as ``previous_id``; an entry without context whose English changed is matched to
    the closest old English (difflib, as gettext's msgmerge does) and made fuzzy the same
    way; entries no longer used become obsolete.
    """
    cat = _new_catalog(lang, template.domain)
    if old is not None:
        cat.creation_date, cat.revision_date = old.creation_date, old.revision_date
    previous = {(m.id, m.context): m for m in _entries(old)}
    by_context = {m.context: m for m in _entries(old) if m.context}
    unused = dict(previous)
    for m in _entries(template):
        same = previous.get((m.id, m.context))
        flags, previous_id, string = set(), None, ""
        if same is not None:
            string, flags = same.string, set(same.flags) - {"python-format"}
            previous_id = same.previous_id if same.fuzzy else None
            unused.pop((m.id, m.context), None)
        else:
            was = by_context.get(m.context) if m.context else None
            if was is None and m.context is None:
                free = {_english(k[0]): k for k in unused if k[1] is None}
                close = difflib.get_close_matches(_english(m.id), list(free), n=1, cutoff=0.6)
                was = previous[free[close[0]]] if close else None
            if was is not None and _translated(was.string):
                string, flags = _fitted(was.string, m.id, cat.num_plurals), {"fuzzy"}
                previous_id = list(was.id) if isinstance(was.id, tuple) else [was.id]
                unused.pop((was.id, was.context), None)
        cat.add(
            m.id,
            string,
            locations=m.locations,
            flags=flags | (set(m.flags) - {"fuzzy"}),
            auto_comments=m.auto_comments,
            previous_id=previous_id,
            context=m.context,
        )
    for (msgid, context), m in unused.items():
        if _translated(m.string):
            cat.obsolete[cat._key_for(msgid, context)] = m
    return cat


def _english(msgid) -> str:
    """The English an entry is matched by: its text, or a plural entry's plural form."""
    return msgid if isinstance(msgid, str) else msgid[-1]


def _translated(string) -> bool:
    """Whether an entry has a translation: its text, or every form of a plural entry."""
    if isinstance(string, str):
        return bool(string)
    return bool(string) and all(string)


def _fitted(string, msgid, forms: int):
    """An old translation fitted to a changed entry: a plural entry gets one text per form
    (an old single text in each, for the translator to check), a single one the last form."""
    if isinstance(msgid, str):
        return string if isinstance(string, str) else string[-1]
    if isinstance(string, str):
        return (string,) * forms
    return tuple(string[:forms]) + (string[-1],) * (forms - len(string))


# --- files ----------------------------------------------------------------------------------------
def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, lang: str | None = None) -> Catalog | None:
    if not path.exists():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=path.stem)


def po_text(cat: Catalog) -> str:
    buf = io.BytesIO()
    write_po(buf, cat, width=0, include_previous=True, include_lineno=False)
    return buf.getvalue().decode("utf-8")


def compile_mo(po: Path) -> bytes:
    """The ``.mo`` of a ``.po`` file (fuzzy entries left out)."""
    buf = io.BytesIO()
    write_mo(buf, read_catalog(po), use_fuzzy=False)
    return buf.getvalue()


def _write_if_changed(path: Path, cat: Catalog) -> bool:
    """Write the catalog unless only its dates would change (no churn in git)."""
    text = po_text(cat)
    if path.exists() and _DATE_LINE.sub("", path.read_text("utf-8")) == _DATE_LINE.sub("", text):
        return False
    cat.revision_date = datetime.now(timezone.utc)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(po_text(cat), encoding="utf-8")
    return True


# --- generate -----------------------------------------------------------------------------------
def language_cell(lang: str) -> dict:
    """The code cell a translated notebook has more than the English one."""
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": LANGUAGE_TAG,
        "metadata": {"tags": [LANGUAGE_TAG]},
        "outputs": [],
        "source": ["from elo_explain.i18n import set_language\n", f'set_language("{lang}")'],
    }


def translated_notebook(
    name: str,
    lang: str,
    catalog: Catalog | None,
    folder: Path = NOTEBOOK_DIR,
    package: Catalog | None = None,
) -> str:
    """``notebooks/<lang>/<name>`` as it must be: markdown from ``catalog`` (a fuzzy or
    missing entry leaves the English cell), code cells as in English, no outputs; its title
    (the page's ``<title>``: ``"<the dashboard's title> · elo-explain"``) with the dashboard's
    title from the package's ``catalog`` (``"<notebook> title"``)."""
    nb = _read_notebook(name, folder)
    cells, placed = [], False
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "code" and not placed and "parameters" not in tags:
            cells.append(language_cell(lang))
            placed = True
        cell = dict(cell)
        if cell["cell_type"] == "markdown" and catalog is not None and _source(cell).strip():
            m = catalog.get(_source(cell), context=_cell_context(name, cell))
            if m is not None and m.string and not m.fuzzy:
                cell["source"] = m.string.splitlines(keepends=True)
        elif cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
        cells.append(cell)
    if not placed:
        cells.append(language_cell(lang))
    nb["cells"] = cells
    nb["metadata"] = {
        **nb["metadata"],
        "elo_explain": {"language": lang, "translated_from": f"../{name}"},
    }
    head, dot, site = nb["metadata"].get("title", "").partition(" · ")
    m = package.get(head, context=f"{name} title") if package is not None and dot else None
    if m is not None and m.string and not m.fuzzy:
        nb["metadata"]["title"] = f"{m.string}{dot}{site}"
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


# --- the two commands -------------------------------------------------------------------------
def _catalogs(folder: Path):
    """``(lang, template, path)`` for each language's ``.po`` of each domain."""
    templates = (package_template(), notebooks_template(folder))
    for lang in TRANSLATIONS:
        for template in templates:
            yield lang, template, po_path(lang, template.domain)


def _generated(lang: str, folder: Path) -> list[tuple[Path, bytes]]:
    """The files made from ``lang``'s catalogs, as they must be: the ``.mo``, the notebooks."""
    made = []
    if po_path(lang).exists():
        made.append((po_path(lang).with_suffix(".mo"), compile_mo(po_path(lang))))
    cells = read_catalog(po_path(lang, NOTEBOOK_DOMAIN), lang)
    package = read_catalog(po_path(lang), lang)
    for name in NOTEBOOKS:
        made.append(
            (
                folder / lang / name,
                translated_notebook(name, lang, cells, folder, package).encode("utf-8"),
            )
        )
    return made


def _stale(path: Path, data: bytes) -> bool:
    return not path.exists() or path.read_bytes() != data


def update(folder: Path = NOTEBOOK_DIR) -> list[str]:
    """Extract, merge, compile and generate; returns the files written."""
    written = [
        str(path)
        for lang, template, path in _catalogs(folder)
        if _write_if_changed(path, merge(template, read_catalog(path, lang), lang))
    ]
    for lang in TRANSLATIONS:
        for path, data in _generated(lang, folder):
            if _stale(path, data):
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                written.append(str(path))
    return written


def catalog_problems(template: Catalog, catalog: Catalog | None, where: str) -> list[str]:
    """Entries of ``template`` missing, untranslated or out of date (fuzzy) in ``catalog``."""
    if catalog is None:
        return [f"{where}: missing (run: python -m elo_explain.translate update)"]
    out = []
    for m in _entries(template):
        got = catalog.get(m.id, context=m.context)
        key = f"{m.context}: " if m.context else ""
        text = m.id if isinstance(m.id, str) else m.id[0]
        short = text if len(text) < 60 else text[:57] + "..."
        if got is None:
            out.append(f"{where}: {key}{short!r} is missing (run update)")
        elif got.fuzzy:
            out.append(
                f"{where}: {key}{short!r} is out of date (fuzzy): check the translation, "
                f"then remove the fuzzy flag"
            )
        elif isinstance(m.id, tuple) and (
            isinstance(got.string, str) or len(got.string) != catalog.num_plurals
        ):
            out.append(
                f"{where}: {key}{short!r} needs {catalog.num_plurals} plural forms "
                f"(the catalog's Plural-Forms)"
            )
        elif not _translated(got.string):
            out.append(f"{where}: {key}{short!r} is not translated")
        elif template.domain == DOMAIN:
            fields = sorted(_FIELD.findall(_english(m.id)))
            for form in [got.string] if isinstance(got.string, str) else got.string:
                if sorted(_FIELD.findall(form)) != fields:
                    out.append(
                        f"{where}: {key}{short!r}: the translation must keep the fields "
                        f"{sorted(set(fields))} (it has "
                        f"{sorted(set(_FIELD.findall(form)))})"
                    )
    return out


def problems(folder: Path = NOTEBOOK_DIR) -> list[str]:
    """Everything ``check`` reports: what is not translated, out of date, or not generated."""
    out = [
        p
        for lang, template, path in _catalogs(folder)
        for p in catalog_problems(template, read_catalog(path, lang), str(path.relative_to(ROOT)))
    ]
    for lang in TRANSLATIONS:
        for path, data in _generated(lang, folder):
            if not _stale(path, data):
                continue
            if path.suffix == ".mo":
                out.append(f"{path.relative_to(ROOT)} is not {path.stem}.po compiled (run update)")
            else:
                out.append(
                    f"notebooks/{lang}/{path.name} is not what the generator makes (run update)"
                )
    return out


_MARKUP = re.compile(r"<[^>]*>|\$[^$]*\$|`[^`]*`|\[([^\]]*)\]\([^)]*\)|[*_#>|]")
_PIECES = re.compile(r"[.,:;!?()\n\u2014\u2013\"\u201c\u201d]|\{[^{}]*\}|&\w+;")
_WORD = re.compile(r"[A-Za-z]{2,}")


def _pieces(english: str, translated: str):
    """The runs of three or more English words of ``english`` that ``translated`` does not
    keep (a proper name or a unit the translation keeps is not left-over English)."""
    plain = _MARKUP.sub(lambda m: m.group(1) or " ", english)
    for piece in _PIECES.split(plain):
        piece = " ".join(piece.split())
        if len(_WORD.findall(piece)) >= 3 and piece not in translated:
            yield piece


def english_left(text: str, lang: str, folder: Path = NOTEBOOK_DIR) -> list[str]:
    """The catalogs' English that ``text`` (a page's or a widget's text, in ``lang``) still
    shows: every run of three or more English words (between punctuation) of an entry of
    both catalogs, found in ``text``; ``[]`` for a page with no English UI string left.

    >>> english_left("Очікуваний результат: 64,0%", "uk")
    []
    >>> english_left("Калькулятор: change and new rating for one game or a whole rating period", "uk")
    ['change and new rating for one game or a whole rating period']
    """
    flat = " ".join(text.split())
    found = []
    for domain in (DOMAIN, NOTEBOOK_DOMAIN):
        for piece in _untranslated_pieces(po_path(lang, domain), lang):
            if piece in flat and piece not in found:
                found.append(piece)
    return found


def _untranslated_pieces(path: Path, lang: str) -> tuple[str, ...]:
    """The pieces (:func:`_pieces`) of every entry of the catalog at ``path``, in its order:
    read once per version of the file (parsing a catalog took most of a call of
    :func:`english_left`, and the tests call it a few hundred times)."""
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = None
    return _pieces_of_catalog(path, lang, version)


@functools.lru_cache(maxsize=16)
def _pieces_of_catalog(path: Path, lang: str, _version) -> tuple[str, ...]:
    out = []
    for m in _entries(read_catalog(path, lang)):
        english = (m.id,) if isinstance(m.id, str) else m.id
        string = m.string if isinstance(m.string, str) else " ".join(m.string)
        out += [p for text in english for p in _pieces(text, string or "")]
    return tuple(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m elo_explain.translate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("command", choices=("update", "check"))
    args = parser.parse_args(argv)
    if args.command == "update":
        for path in update():
            print("wrote", Path(path).relative_to(ROOT))
    found = problems()
    for p in found:
        print(p, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
