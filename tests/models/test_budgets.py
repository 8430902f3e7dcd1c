"""Every input of a published kernel has a byte budget, checked in the kernel before anything
parses it: the widget messages a page sends, as ipykernel hands them to the widgets
(``Widget._handle_msg``), without a browser. The guard is installed here as the published
site's kernels install it (``elo_explain.server.published_kernel``); nowhere else.

The issue's abuse: updates of 3.8 MB to a text box (435 of them in 45 s grew a kernel from
120 to 1,607 MiB: the calculator split each whole text before it counted its rows).
"""

from __future__ import annotations

import contextlib
import io

import matplotlib
import pytest

matplotlib.use("Agg")

from elo_explain.dashboards.calibrate import MAX_UPLOAD_BYTES, CalibrateModel, CalibrateView  # noqa: E402
from elo_explain.dashboards.chess_calculator import CalculatorModel, CalculatorView  # noqa: E402
from elo_explain.interactive.budget import refused  # noqa: E402
from elo_explain.server.published_kernel import install_budget, uninstall_budget  # noqa: E402

ABUSE = 3_800_000  # bytes of one update in the issue


@pytest.fixture(autouse=True, scope="module")
def _as_in_a_published_kernel():
    install_budget()
    yield
    uninstall_budget()


def quiet(fn, *args, **kw):
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args, **kw)


def update(state: dict, buffers=(), paths=()) -> dict:
    """A page's update message to a widget, as ipykernel hands it over (``buffers`` at
    ``paths`` in the state)."""
    return {
        "content": {
            "data": {"method": "update", "state": state, "buffer_paths": [list(p) for p in paths]}
        },
        "buffers": [memoryview(b) for b in buffers],
    }


def test_a_3_8_mb_text_is_refused_before_the_calculator_reads_it():
    view = quiet(CalculatorView, CalculatorModel(), query="")
    view.model.mode = "games"
    box = view.controls.get("games_text", view.games_text)
    before, error = box.value, view.games_error.value
    text = "1600 win, " * (ABUSE // 10)
    for _ in range(435):
        box._handle_msg(update({"value": text}))
    assert refused(box) == 435
    assert box.value == before and view.games_error.value == error  # nothing was parsed
    assert view.model.opponents == [1400, 1600, 1550]
    # a text within the budget but longer than 100 rows can be: the length is checked before
    # the text is split (100 rows of "1600 win, " are 1,000 characters; this is 5,000)
    box._handle_msg(update({"value": "1600 win, " * 500}))
    assert box.value.startswith("1600 win") and refused(box) == 435
    assert "at most 100 games can be listed" in view.games_error.value
    assert view.model.opponents == [1400, 1600, 1550]


def test_calibrate_takes_a_file_up_to_its_limit_and_no_more():
    view = quiet(CalibrateView, CalibrateModel(), query="")
    rows = b"rating,opponent,score\n" + b"1700,1500,1\n" * ((MAX_UPLOAD_BYTES - 100) // 12)
    assert len(rows) <= MAX_UPLOAD_BYTES
    quiet(view.paste._handle_msg, update({"value": rows.decode()}))
    assert len(view.paste.value) == len(rows) and refused(view.paste) == 0
    # an upload's bytes are a buffer: a 3.8 MB file is refused, the 2 MB one is read
    for content in (b"x" * ABUSE, rows):
        quiet(
            view.upload._handle_msg,
            update(
                {
                    "value": [
                        {
                            "name": "me.csv",
                            "type": "text/csv",
                            "size": len(content),
                            "last_modified": 1735689600000,
                        }
                    ]
                },
                [content],
                [("value", 0, "content")],
            ),
        )
    assert refused(view.upload) == 1
    rows_read = (len(rows) - 22) // 12
    assert f"{rows_read} rows read, 0 rejected" in view.report.value, view.report.value[:300]
