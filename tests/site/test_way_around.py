"""The way around the published site: every dashboard links back to the
landing page and to the topics before and after it, in the order the landing page lists them
(:func:`check_the_way_around`, in each dashboard's visit of ``test_every_reader.py``),
and the links lead there."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from elo_explain.dashboards import DASHBOARDS
from harness import READY, TIMEOUT, open_dashboard

NAV = re.compile(r'<nav class="ee-nav" aria-label="(Topics|Topics, end of page)">(.*?)</nav>', re.S)


def check_the_way_around(html: str, notebook: str) -> None:
    """The page's HTML (a dashboard's) links home and to its neighbours, above and below.
    Run in each dashboard's visit (``test_every_reader.py``)."""
    i = [d.notebook for d in DASHBOARDS].index(notebook)
    found = NAV.findall(html)
    assert [label for label, _ in found] == ["Topics", "Topics, end of page"], (
        "the links above and below the page, each landmark named apart"
    )
    navs = [links for _, links in found]
    links = dict(re.findall(r'<a class="ee-nav-(\w+)" href="([^"]+)"', navs[0]))
    assert links.pop("home") == "index.ipynb"
    expected = {}
    if i > 0:
        expected["prev"] = DASHBOARDS[i - 1].notebook
    if i + 1 < len(DASHBOARDS):
        expected["next"] = DASHBOARDS[i + 1].notebook
    assert links == expected
    assert navs[0] == navs[1]


def test_the_links_lead_there(page, voila_url):
    open_dashboard(page, voila_url, DASHBOARDS[0].notebook)
    page.locator("nav.ee-nav a.ee-nav-next").first.click()
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT)
    assert page.url.endswith("/voila/render/" + DASHBOARDS[1].notebook)
    page.locator("nav.ee-nav a.ee-nav-home").first.click()
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT)
    assert page.url.endswith("/voila/render/index.ipynb")
    expect(page.locator("nav.ee-nav")).to_have_count(0)  # the landing page is the way in
