"""Every sentence that attributes a number to a document says what the document says.

The facts are ``docs/sources.md``'s (so this works from a clone, without the documents): each
source section (``## Telugu``, ``## Ukrainian``, ``## Greek``, ``## FIDE B.02``, …) lists
the numbers its source prints in the tables' **Numbers** columns, and each document has a table
of *derived numbers* (arithmetic on its own figures). The texts are the notebooks' markdown, the
dashboards' string literals, README.md and docs/ (``tests/texts.py``).

The check, sentence by sentence:

1. A sentence *names a document* when it says "Telugu", "Ukrainian", "Greek", "Gammon42
   document / article", "the calculator page(s)", "the document('s)" (which document: the one
   named last before it in the same text, else the page's own -- :data:`PAGE_DOCUMENTS`) or
   "the documents" (all three).
2. Its *checked numbers* are the rating-sized ones (100 to 3000, in words like "1500", "÷1200",
   "+1.8" is too small, "1,500") and every percentage ("76 %", "84.4 %"); version and section
   numbers ("1.3.1", "8.1.2") are not numbers, nor are an f-string's computed fields.
3. Each checked number must be among the facts of a source the sentence names (the documents
   it names, and the official sources it also names: FIDE, Glickman / Glicko, FIBS, Lichess),
   unless it stands in a clause that marks it as the reader's own value ("your", "yours",
   "you", "reader").

A failure lists every such sentence, where it is, which source it names, and the numbers that
source does not print, so a maintainer can fix the sentence or, if the document does print the
number, add the fact (with where the document prints it) to ``docs/sources.md``.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from texts import ROOT, all_texts, notebook_texts, sentences

SOURCES_MD = ROOT / "docs" / "sources.md"
DOCUMENTS = ("telugu", "ukrainian", "greek")

#: The document a page is about, for "the document" in a sentence that names no other.
PAGE_DOCUMENTS = {
    "01": ("telugu", "ukrainian"),
    "02": ("telugu",),
    "03": ("greek",),
    "04": ("greek",),
    "05": ("greek",),
    "06": ("telugu",),
    "07": DOCUMENTS,
    "08": ("greek",),
    "09": ("greek",),
    "10": ("telugu",),
    "chess_calculator": ("telugu", "ukrainian"),
    "fide_rules": ("telugu",),
    "chess": ("telugu",),
    "backgammon_divisor": ("greek",),
    "doubling_cube": ("greek",),
    "volume_k": ("greek",),
    "elo_vs_glicko": ("telugu",),
    "every_system": DOCUMENTS,
    "calibrate": ("greek",),
    "simulate_ladder": ("greek",),
    "new_to_fide": ("telugu",),
}

#: How a text names a source: (regular expression, the sections of docs/sources.md it means).
NAMES = [
    (r"\bTelugu\b", ("telugu",)),
    (r"\bUkrainian\b", ("ukrainian",)),
    (r"\bGreek\b|\bGammon42 (?:document|article)", ("greek",)),
    (r"\bcalculator pages?\b", ("telugu", "ukrainian")),
    (r"\b[Dd]ocuments\b|\b[Dd]ocuments'", DOCUMENTS),
]
THE_DOCUMENT = re.compile(r"\b[Tt]he document\b")
OFFICIAL = [
    (r"\bFIDE\b|\bB\.02\b|\btable 8\.1\.[12]\b|\brule 8\.3", "fide-b02"),
    (r"\bGlickman\b|\bGlicko", "glicko"),
    (r"\bFIBS\b", "fibs"),
    (r"\bLichess\b|\blila\b|\bscalachess\b", "lichess"),
]
READER = re.compile(r"\b(?:your|yours|you|reader'?s?)\b", re.I)
#: a number: digits with thousands commas or a decimal point, not part of a word, a version
#: or a section number (1.3.1, 8.1.2, B.02), optionally followed by a percent sign
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w]|\.\d)(\s*%)?")
CLAUSE = re.compile(r"[,;:()—–]| - ")

# the folder this project's machines keep their checkouts in, spelt so that this file does
# not name it itself
MACHINE_ROOT = "/" + "work" + "/"


# ------------------------------------------------------------------------- docs/sources.md
def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@lru_cache(maxsize=1)
def sections() -> dict[str, str]:
    """``{anchor: text}`` of every ``## `` section of docs/sources.md (its ### parts included)."""
    out, name = {}, None
    for line in SOURCES_MD.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            name = slug(line[3:])
            out[name] = ""
        elif name:
            out[name] += line + "\n"
    return out


def _value(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-").strip())


@cache
def facts(section: str) -> frozenset:
    """The numbers of a section's **Numbers** columns (absolute values, as floats)."""
    found, columns = set(), None
    for line in sections()[section].splitlines():
        if not line.startswith("|"):
            columns = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if columns is None:
            columns = [i for i, c in enumerate(cells) if c.startswith("Numbers")]
            continue
        if set("".join(cells)) <= set("-: "):
            continue  # the |---| line
        for i in columns:
            for item in re.findall(
                r"−?-?\d[\d,]*(?:\.\d+)?|−?-?\.\d+", cells[i] if i < len(cells) else ""
            ):
                found.add(
                    abs(
                        _value(
                            item
                            if not item.lstrip("-−").startswith(".")
                            else item.replace(".", "0.", 1)
                        )
                    )
                )
    return frozenset(found)


# ----------------------------------------------------------------------------- the check
def page_of(file: str) -> str:
    name = file.rsplit("/", 1)[-1].removesuffix(".py").removesuffix(".ipynb")
    return name[:2] if name[:2].isdigit() else name


def checked_numbers(clause: str) -> list[tuple[str, float]]:
    """``(as written, value)`` of the rating-sized numbers and percentages in ``clause``."""
    out = []
    for m in NUMBER.finditer(clause.replace("{…}", " ")):
        value = _value(m.group(1) + (m.group(2) or ""))
        if m.group(3) or 100 <= value <= 3000:
            out.append((m.group(0).strip(), value))
    return out


def named(text: str) -> tuple[str, ...]:
    found = []
    for pattern, docs in NAMES:
        if re.search(pattern, text):
            found += [d for d in docs if d not in found]
    return tuple(found)


def problems(where: str, file: str, text: str) -> list[str]:
    """Why the sentences of one text are wrong (an empty list when every one is right)."""
    out, last = [], PAGE_DOCUMENTS.get(page_of(file), DOCUMENTS)
    for sentence in sentences(text):
        docs = named(sentence)
        if THE_DOCUMENT.search(sentence) and not docs:
            docs = last
        if not docs:
            continue
        last = docs
        allowed = set().union(*(facts(d) for d in docs))
        official = [s for pattern, s in OFFICIAL if re.search(pattern, sentence)]
        allowed |= set().union(*(facts(s) for s in official)) if official else set()
        wrong = []
        for clause in CLAUSE.split(sentence):
            if READER.search(clause):
                continue
            wrong += [written for written, value in checked_numbers(clause) if value not in allowed]
        if wrong:
            sources = " and ".join(f"docs/sources.md#{s}" for s in (*docs, *official))
            out.append(
                f"{where}:\n    “{sentence}”\n    names {sources}; not among its facts: "
                f"{', '.join(dict.fromkeys(wrong))}"
            )
    return out


def test_every_number_attributed_to_a_document_is_the_documents():
    found = [p for t in all_texts() for p in problems(*t)]
    assert not found, (
        f"{len(found)} sentence(s) attribute a number to a document that does not print it "
        "(fix the sentence; or, if the document prints it, add the fact to docs/sources.md; or "
        "mark a reader's own value with “your”):\n\n" + "\n\n".join(found)
    )


# ------------------------------------------------------------------ the check checks itself
def test_the_check_fails_on_an_invented_example():
    # notebook 06 once said "The Telugu document's example, 1850 with RD 50 (from 1750
    # to 1950)"; the Telugu page has no such example (docs/sources.md#telugu: it prints no
    # interval), the three numbers are Glickman's (docs/sources.md#glicko, L4)
    text = (
        "**The interval rating ± 2·RD** is where the system believes your true strength "
        "lies. The Telugu document's example, 1850 with RD 50 (from 1750 to 1950), and yours:"
    )
    [why] = problems(
        "notebooks/06_elo_vs_glicko.ipynb, markdown cell 13",
        "notebooks/06_elo_vs_glicko.ipynb",
        text,
    )
    assert "names docs/sources.md#telugu; not among its facts: 1850, 1750, 1950" in why
    assert "markdown cell 13" in why and "“The Telugu document's example" in why
    # ... and passes once the example is Glickman's own, with the reader's value marked
    assert (
        problems(
            "x",
            "notebooks/06_elo_vs_glicko.ipynb",
            "Glickman's example, 1850 with RD 50 (from 1750 to 1950), and yours:",
        )
        == []
    )


def test_the_check_reads_names_clauses_and_numbers():
    page = "notebooks/03_backgammon_divisor.ipynb"
    # a document's own numbers pass, in its own decimals and percentages
    assert problems("x", page, "The Greek document: 300 points up, ÷1200, 64.0 %.") == []
    # "the document" on a Greek page is the Greek document; 1234 is not in it
    assert "1234" in problems("x", page, "The document prints 1234 here.")[0]
    # the reader's own value in its clause is not the document's
    assert problems("x", page, "The document's ÷1200, and your divisor 1234.") == []
    # a derived number (with its arithmetic in docs/sources.md) passes: 27 / 32 = 84.4 %
    assert problems("x", page, "The document's 85 % is 84.4 % with whole points.") == []
    # versions and section numbers are not numbers; small numbers are not checked
    assert checked_numbers("1.3.1 and 8.1.2, K 32, +1.8, ÷400, 1,500 and 7.5 %") == [
        ("400", 400.0),
        ("1,500", 1500.0),
        ("7.5 %", 7.5),
    ]
    # a sentence that names no document is not checked
    assert problems("x", page, "FIBS divides by 2000; 1234 is anything.") == []
    # the Telugu page's rating sizes: 1650 (¶ 2) passes, 1651 does not
    assert problems("x", page, "The Telugu page's 1650.") == []
    assert "1651" in problems("x", page, "The Telugu document's 1651.")[0]


def test_sources_md_has_a_section_with_facts_for_every_source():
    for anchor in (
        "telugu",
        "ukrainian",
        "greek",
        "fide-b02",
        "glicko",
        "fibs",
        "lichess",
        "lichess-games",
    ):
        assert anchor in sections(), f"docs/sources.md has no section #{anchor}"
        assert facts(anchor), f"docs/sources.md#{anchor} lists no Numbers"
    # a few facts as the documents print them (docs/sources.md's transcription)
    assert {1500, 1700, 0.24, 1501, 18.9, 2650, 1960, 1970} <= facts("telugu")
    assert {400, 2400, 0.5} <= facts("ukrainian")
    assert {1200, 64.0, 84.9, 85, 57, 58, 3000, 50, 25, 15, 2.00} <= facts("greek")
    assert {735, 0.99, 677, 2200} <= facts("fide-b02")
    assert not {1850, 1750, 1950} & facts("telugu")


# -------------------------------------------------------------------- citations resolve
def cited_anchors() -> dict[str, set[str]]:
    """``{anchor: files citing it}`` for every citation ``sources.md#…`` in the repository."""
    out: dict[str, set[str]] = {}
    for path in [
        *ROOT.glob("elo_explain/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("notebooks/*.ipynb"),
        *ROOT.glob("*.md"),
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("elo_explain/data/*.md"),
    ]:
        for anchor in re.findall(r"sources\.md#([\w-]+)", path.read_text(encoding="utf-8")):
            out.setdefault(anchor, set()).add(path.relative_to(ROOT).as_posix())
    return out


def test_every_cited_anchor_exists():
    anchors = cited_anchors()
    assert {"telugu", "ukrainian", "greek", "fide-b02"} <= set(anchors)
    missing = {a: sorted(f) for a, f in anchors.items() if a not in sections()}
    assert not missing, f"cited but not a section of docs/sources.md: {missing}"


def test_every_test_sources_md_cites_exists():
    text = SOURCES_MD.read_text(encoding="utf-8")
    cited = set(re.findall(r"`(tests/[\w/]+\.py)::((?:\w+::)?\w+)`", text))
    assert len(cited) > 80
    missing = []
    for file, name in sorted(cited):
        source = (ROOT / file).read_text(encoding="utf-8") if (ROOT / file).exists() else ""
        *cls, func = name.split("::")
        if not re.search(rf"^\s*def {func}\(", source, re.M) or (
            cls and not re.search(rf"^class {cls[0]}\b", source, re.M)
        ):
            missing.append(f"{file}::{name}")
    assert not missing, f"docs/sources.md cites tests that do not exist: {missing}"


def test_no_tracked_text_points_outside_the_repository():
    # a clone has no ../shared, no seeds/ folder and no machine paths
    bad = []
    for path in [
        *ROOT.glob("elo_explain/**/*.py"),
        *ROOT.glob("elo_explain/data/*.md"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("notebooks/*.ipynb"),
        *ROOT.glob("*.md"),
        *ROOT.glob("docs/*.md"),
    ]:
        text = path.read_text(encoding="utf-8")
        for pattern in (r"\.\./shared", MACHINE_ROOT, r"\bseeds/", r"rules\.md"):
            if path.name == "test_attributions.py":
                continue
            for m in re.finditer(pattern, text):
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{path.relative_to(ROOT)}:{line}: {pattern}")
    assert not bad, "references a clone cannot follow:\n" + "\n".join(bad)


def test_markdown_cells_are_all_read():
    # the check reads every notebook's markdown: every registered dashboard's and the landing
    # page's (counted from the registry: a new dashboard is read too)
    from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK

    files = {t.file for t in notebook_texts()}
    assert files == {f"notebooks/{n}" for n in (INDEX_NOTEBOOK, *(d.notebook for d in DASHBOARDS))}
