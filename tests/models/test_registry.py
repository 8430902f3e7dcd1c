"""The dashboards' registry (``elo_explain.dashboards.DASHBOARDS``) and the views that name it."""

from pathlib import Path


def test_a_view_with_a_heading_names_its_registered_notebook_and_title():
    import importlib

    from elo_explain.dashboards import DASHBOARDS
    from elo_explain.interactive.view import DashboardView

    titles = {d.notebook: d.title for d in DASHBOARDS}
    headed = []
    for d in DASHBOARDS:
        module = importlib.import_module(
            "elo_explain.dashboards." + Path(d.notebook).stem.split("_", 1)[1]
        )
        for view in vars(module).values():
            if isinstance(view, type) and issubclass(view, DashboardView) and view.title:
                assert titles.get(view.notebook) == view.title, view
                headed.append(view.notebook)
    assert headed == ["11_plan.ipynb"]
