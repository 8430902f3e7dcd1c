"""The dashboards' framework: a traitlets model and a widget view linked to it, one module per
concern (each name is imported from the module that defines it):

* :mod:`~elo_explain.interactive.traits` -- validated traits, the model's fields
  (``Whole``, ``Number``, ``Choice``, ``FieldError``, ``checked``);
* :mod:`~elo_explain.interactive.model` -- ``DashboardModel``, the state and the numbers;
* :mod:`~elo_explain.interactive.live` -- ``@depends``: what each output reads, and a
  notebook cell's output that follows the model;
* :mod:`~elo_explain.interactive.view` -- ``DashboardView``, the widgets linked to the model
  (sliders, boxes, presets; labels widened for a longer translation);
* :mod:`~elo_explain.interactive.link` -- the link to a view: the query string read into the
  model, and written back;
* :mod:`~elo_explain.interactive.figures` -- figures drawn once and redrawn cheaply, the key
  of a figure's stored first drawing;
* :mod:`~elo_explain.interactive.page` -- the page's CSS, number fields, HTML of values and
  tables;
* :mod:`~elo_explain.interactive.chess` -- what the two chess dashboards' views share;
* :mod:`~elo_explain.interactive.budget` -- each widget's byte budget (``set_budget`` for a
  paste box or an upload), which the published site's kernels enforce before anything parses
  a message (:mod:`elo_explain.server.published_kernel`; nowhere else).

The dashboards themselves are :mod:`elo_explain.dashboards` (one module each); the site's
server is :mod:`elo_explain.server`.
"""
