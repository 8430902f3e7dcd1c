"""The landing page lists every published dashboard, one line each."""

from harness import NOTEBOOKS, assert_clean, open_dashboard
from elo_explain.dashboards import DASHBOARDS
from elo_explain.dashboards.index import published


def test_published_notebooks_exist_and_are_listed():
    names = {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    assert "index.ipynb" in names
    # every notebook in notebooks/ is a published dashboard (nothing unlisted is served)
    assert names - {"index.ipynb"} == {d.notebook for d in published()}
    assert {d.notebook for d in published()} <= {d.notebook for d in DASHBOARDS}


def test_landing_page_links_every_dashboard(page, voila_url):
    open_dashboard(page, voila_url, "index.ipynb")
    text = assert_clean(page, "index.ipynb")
    assert "elo-explain" in text
    links = page.locator("ol.ee-index a")
    assert links.count() == len(published())
    for d in published():
        assert page.locator(f'ol.ee-index a[href="{d.notebook}"]').inner_text() == d.title
