"""The texts a reader sees, as plain text for tests that read them (no kernel, no browser).

- :func:`notebook_texts` -- every markdown cell of ``notebooks/*.ipynb``;
- :func:`dashboard_texts` -- every string literal of ``elo_explain/dashboards/*.py`` (an
  f-string's replacement fields shown as ``{…}``: a value computed on the page, never a
  number typed into the text), docstrings included;
- :func:`readme_texts` -- ``README.md`` and ``docs/*.md``, paragraph by paragraph;

each as :class:`Text` records (where it is, and the text), and :func:`sentences` to split a
text into sentences the way a reader reads them.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = "{…}"


class Text(NamedTuple):
    where: str  # "notebooks/06_elo_vs_glicko.ipynb, markdown cell 13"
    file: str  # "notebooks/06_elo_vs_glicko.ipynb"
    text: str


def notebook_texts() -> list[Text]:
    out = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        rel = path.relative_to(ROOT).as_posix()
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                source = cell["source"]
                text = "".join(source) if isinstance(source, list) else source
                out.append(Text(f"{rel}, markdown cell {i}", rel, text))
    return out


def _literal(node) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else PLACEHOLDER for v in node.values)
    return None


def dashboard_texts() -> list[Text]:
    out = []
    for path in sorted((ROOT / "elo_explain" / "dashboards").glob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inner = {
            id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values
        }
        for node in ast.walk(tree):
            text = None if id(node) in inner else _literal(node)
            if text and text.strip():
                out.append(Text(f"{rel}, line {node.lineno}", rel, text))
    return out


def readme_texts() -> list[Text]:
    """The README and the manual (``docs/*.md``), paragraph by paragraph."""
    out = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        rel, line = path.relative_to(ROOT).as_posix(), 1
        for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            if block.strip() and not block.lstrip().startswith("```"):
                out.append(Text(f"{rel}, line {line}", rel, block))
            line += block.count("\n") + 2
    return out


def all_texts() -> list[Text]:
    return notebook_texts() + dashboard_texts() + readme_texts()


# a sentence ends at . ! ? (not a decimal point, not "e.g.", "i.e.", "vs.", "cf.") followed
# by a space and a capital, a quote, a bracket or markdown emphasis; lines, list items and
# headings are separate sentences too
_END = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)(?<!\bcf\.)(?<=[.!?])\s+(?=[A-Z\"“(*_`])")
_BREAK = re.compile(r"\n\s*\n|\n\s*[-*•] |\n#+ |\n\|")


def sentences(text: str) -> list[str]:
    """``text`` split into sentences (whitespace collapsed, markdown emphasis kept)."""
    out = []
    for part in _BREAK.split(text):
        part = re.sub(r"\s+", " ", part).strip()
        out += [s.strip() for s in _END.split(part) if s.strip()]
    return out
