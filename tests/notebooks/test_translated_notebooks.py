"""The translated notebooks (``notebooks/<lang>/``) run in a kernel and speak their language.

Executed as Voilà and JupyterLab execute them (nbclient, the ``python3`` kernel, the
notebook's own folder as working directory); the landing page widget's HTML is read from
the widget state nbclient stores in the executed notebook.
"""

import nbformat
import pytest
from nbclient import NotebookClient

from elo_explain.i18n import TRANSLATIONS
from harness import NOTEBOOKS

# the first dashboard's title in each document's words (terms.md: calculator)
TITLE = {
    "te": "చెస్ Elo కాలిక్యులేటర్",
    "uk": "Калькулятор рейтингу Elo для шахів",
    "el": "Υπολογιστής ELO για το σκάκι",
}


def _widget_html(nb) -> str:
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return "\n".join(
        m["state"].get("value", "") for m in state.values() if m["model_name"] == "HTMLModel"
    )


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("name", ["index.ipynb"])
def test_translated_notebook_runs_in_its_language(lang, name):
    path = NOTEBOOKS / lang / name
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{out.get('ename')}: {out.get('evalue')}"
    html = _widget_html(nb)
    assert f'<ol class="ee-index" lang="{lang}">' in html
    assert TITLE[lang] in html and "Chess Elo calculator" not in html
    # the language cell shows nothing
    setting = next(c for c in nb.cells if "language" in c.metadata.get("tags", []))
    assert setting.outputs == []
