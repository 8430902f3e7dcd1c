"""What a real viewer's page sends its kernel: the figures the websocket limits are set from.

``elo_explain.server.channels.GuardedConnection`` limits each page's kernel websocket
(message size, message rate, comm opens) before the kernel does any work. The limits must be
ones a real viewer never meets, so this script measures real pages: headless Chromium on every
published page, against a local ``voila`` with the published configuration, with a viewer
who is faster and busier than any real one -- every slider held on an arrow key (30 steps as
fast as the browser repeats them), every number box typed into key by key, every toggle
clicked, 10's games box typed game by game, 08's paste box given a paste and its upload fed a
file, both just under the 2 MB limit -- while Playwright records every frame the page sends.

Writes ``benchmarks/TRAFFIC.md``: per page, frames sent, the largest frame, the most frames
in any one second, and the comms the page opened.

    .venv/bin/python benchmarks/page_traffic.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from elo_explain.dashboards import INDEX_NOTEBOOK  # noqa: E402
from elo_explain.dashboards.index import published  # noqa: E402
from elo_explain.server.channels import split_v1  # noqa: E402
from harness import READY, launch_chromium, start_voila, stop  # noqa: E402

OUT = Path(__file__).resolve().parent / "TRAFFIC.md"
TIMEOUT_MS = 120_000


def _kind(frame) -> tuple[str, str | None]:
    split = split_v1(frame if isinstance(frame, bytes) else frame.encode())
    if split is None:
        return "?", None
    _channel, parts = split
    header = json.loads(parts[0])
    target = json.loads(parts[3]).get("target_name") if header["msg_type"] == "comm_open" else None
    return header["msg_type"], target


def _busiest_second(times: list[float]) -> int:
    best, j = 0, 0
    for i, t in enumerate(times):
        while times[j] < t - 1.0:
            j += 1
        best = max(best, i - j + 1)
    return best


def _act(page, notebook: str, folder: Path) -> None:
    """Everything a very busy viewer does on the page, as fast as the browser allows."""
    if notebook == "10_new_to_fide.ipynb":
        box = page.locator(".ee-ready textarea").first
        box.fill("")
        box.press_sequentially("1600 1, 1700 0.5, 1800 0.5, 1500 1, 1650 0, 1900 1, 2000 0")
    if notebook == "08_calibrate.ipynb":
        rows = "rating,opponent,score\n" + "".join(
            f"{1500 + i % 400},{1600 - i % 300},1\n" for i in range(150_000)
        )
        data = rows[: rows.rfind("\n", 0, 1_990_000) + 1]  # just under 2 MB
        # a paste: the text arrives at once, with one input event (Playwright's fill() types
        # a multi-line text into a textarea in a way that takes minutes for 2 MB)
        page.locator(".ee-paste textarea").evaluate(
            "(box, text) => { box.value = text; box.dispatchEvent(new Event('input', "
            "{bubbles: true})); box.dispatchEvent(new Event('change', {bubbles: true})); }",
            data,
        )
        page.locator(".ee-fit-pasted").click()
        with page.expect_file_chooser() as chooser:  # FileUpload's input is not in the page
            page.locator("button.ee-upload").click()
        chooser.value.set_files(
            files=[{"name": "results.csv", "mimeType": "text/csv", "buffer": data.encode()}]
        )
        page.locator(".ee-upload-report").get_by_text("results.csv").first.wait_for(
            timeout=TIMEOUT_MS
        )
    for handle in page.locator(".ee-ready .noUi-handle").all():
        try:
            handle.focus(timeout=2000)
            for _ in range(30):
                handle.press("ArrowRight")
        except Exception:  # noqa: BLE001 - a hidden slider (another mode)
            continue
    for field in page.locator(
        ".ee-ready .ee-field input[type=text], .ee-ready input.ee-field"
    ).all():
        try:
            field.fill("", timeout=2000)
            field.press_sequentially("1234")
            field.press("Enter")
        except Exception:  # noqa: BLE001
            continue
    for button in page.locator(".ee-ready .widget-toggle-button").all()[:12]:
        try:
            button.click(timeout=2000)
        except Exception:  # noqa: BLE001
            continue


def measure(voila_base: str, notebooks: list[str]) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = launch_chromium(p)
        for notebook in notebooks:
            context = browser.new_context(viewport={"width": 1280, "height": 1000})
            page = context.new_page()
            sent: list[tuple[float, int, str, str | None]] = []

            def on_socket(ws):
                if "/channels" in ws.url:
                    ws.on(
                        "framesent",
                        lambda payload: sent.append(
                            (time.monotonic(), len(payload), *_kind(payload))
                        ),
                    )

            page.on("websocket", on_socket)
            page.goto(
                f"{voila_base}/voila/render/{notebook}", wait_until="commit", timeout=TIMEOUT_MS
            )
            page.wait_for_selector(READY, state="visible", timeout=TIMEOUT_MS)
            _act(page, notebook, Path(tmp))
            context.close()
            times = sorted(t for t, *_ in sent)
            rows.append(
                {
                    "notebook": notebook,
                    "frames": len(sent),
                    "largest": max((n for _, n, *_ in sent), default=0),
                    "per_second": _busiest_second(times) if times else 0,
                    "comm_opens": sorted({f"{t}" for _, _, k, t in sent if k == "comm_open"}),
                    "opens": sum(k == "comm_open" for _, _, k, _ in sent),
                    "types": sorted({k for _, _, k, _ in sent}),
                }
            )
            print(rows[-1], flush=True)
        browser.close()
    return rows


def main() -> None:
    proc, base = start_voila()
    try:
        rows = measure(base, [INDEX_NOTEBOOK, *(d.notebook for d in published())])
    finally:
        stop(proc)
    from elo_explain.server.channels import GuardedConnection

    limit = {name: t.default() for name, t in GuardedConnection.class_traits().items()}
    lines = [
        "# What a real viewer's page sends its kernel",
        "",
        "Written by `benchmarks/page_traffic.py` (headless Chromium, published configuration, "
        "a viewer busier than any real one: every slider held on an arrow key for 30 steps, "
        "every number box typed key by key, toggles clicked, 10's games typed game by game, "
        "08's paste box given 1.99 MB at once and the same as a file uploaded).",
        "",
        "| page | frames sent | largest frame | most frames in 1 s | comms opened (target) |",
        "|---|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['notebook']} | {r['frames']} | {r['largest']:,} B | {r['per_second']} "
            f"| {r['opens']} ({', '.join(r['comm_opens']) or '-'}) |"
        )
    largest = max(r["largest"] for r in rows)
    busiest = max(r["per_second"] for r in rows)
    opens = max(r["opens"] for r in rows)
    lines += [
        "",
        f"Busiest page: largest frame {largest:,} B, {busiest} frames in one second, {opens} "
        "comm opens. The limits (`GuardedConnection`): "
        f"{limit['max_message_bytes']:,} B a message, a burst of {limit['message_burst']} then "
        f"{limit['message_rate']:g} a second, {limit['max_comm_opens']} comm opens "
        f"({', '.join(limit['comm_targets'])}).",
        "",
    ]
    OUT.write_text("\n".join(lines))
    print(OUT.read_text())


if __name__ == "__main__":
    main()
