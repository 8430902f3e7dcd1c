"""Run every benchmark module in this package and write ``benchmarks/RESULTS.md``.

    python -m benchmarks                  # all, 5 repeats each, writes RESULTS.md
    python -m benchmarks elo_games -r 3   # only some modules
    python -m benchmarks --no-write       # print the table only

A benchmark module is any module of the package defining ``run(repeats) -> list[dict]``
(see ``benchmarks/__init__.py`` for the row format); modules are run in name order.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib
import os
import pkgutil
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def discover() -> list[str]:
    """Names of the benchmark modules (those defining ``run``), sorted."""
    names = []
    for info in pkgutil.iter_modules([str(HERE)]):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        if callable(getattr(module, "run", None)):
            names.append(info.name)
    return sorted(names)


def _seconds(x) -> str:
    if x is None:
        return "—"
    return f"{x * 1000:.3g} ms" if x < 1 else f"{x:.3g} s"


def table(rows: list[dict]) -> str:
    """The rows as a Markdown table with the speed-up baseline / ours."""
    lines = [
        "| Benchmark | Work | elo-explain | Baseline | Baseline time | Speed-up | Note |",
        "|---|---|---:|---|---:|---:|---|",
    ]
    for r in rows:
        base = r.get("baseline_seconds")
        ratio = f"**{base / r['ours_seconds']:,.0f} ×**" if base else "—"
        lines.append(
            f"| {r['benchmark']} | {r['work']} | {_seconds(r['ours_seconds'])} | "
            f"{r.get('baseline') or '—'} | {_seconds(base)} | {ratio} | {r.get('note', '')} |"
        )
    return "\n".join(lines)


def environment() -> str:
    import numpy

    load = ""
    if hasattr(os, "getloadavg"):
        load = f", load average {os.getloadavg()[0]:.1f} at the end"
    return (
        f"Python {platform.python_version()}, numpy {numpy.__version__}, "
        f"{platform.machine()} with {os.cpu_count()} CPUs ({platform.system()}){load}"
    )


READING = """\
How to read this: a speed-up is only as large as the Python work the baseline does per
element. The `glicko2` package runs several Python-level loops per player (v, Δ, the
Illinois iteration), so vectorizing across players gains a lot. A plain Elo loop does one
`10 ** x` and four arithmetic operations per game (250 to 1,100 ns a game here), while numpy
still pays one transcendental function per game: `np.exp` costs 6 to 10 ns per float64
element on this CPU (AVX2; numpy's fast float64 exp needs AVX-512), `np.power` 23 ns, simple
arithmetic 0.4 to 0.6 ns per pass, plus a fixed cost per call. 100 × would need 2.5 to 11 ns
per game in all, so for Elo it is out of reach here; rated round by round (5,000 games per
call) fixed costs dominate. Numbers vary with the machine and its load; both sides of a row
are always measured in the same run.
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("modules", nargs="*", help="benchmark modules to run (default: all)")
    parser.add_argument(
        "-r",
        "--repeats",
        type=int,
        default=5,
        help="timed repeats per measurement; the median is reported",
    )
    parser.add_argument("--no-write", action="store_true", help="do not write RESULTS.md")
    args = parser.parse_args(argv)
    available = discover()
    chosen = args.modules or available
    unknown = [m for m in chosen if m not in available]
    if unknown:
        parser.error(
            f"unknown benchmark module(s) {', '.join(unknown)}; available: {', '.join(available)}"
        )
    rows = []
    for name in chosen:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        rows.extend(importlib.import_module(f"benchmarks.{name}").run(args.repeats))
    text = table(rows)
    print(text)
    if not args.no_write and not args.modules:
        doc = (
            "# Benchmark results\n\n"
            "Written by `python -m benchmarks` (also `make bench`); do not edit by hand.\n"
            "Each time is the median CPU time (`time.process_time`, single-threaded work) of "
            f"{args.repeats} runs; elo-explain and its baseline run alternately in the same "
            "process on the same inputs. Speed-up = baseline time / elo-explain time. The "
            "goal for the Glicko-2 rating period at 10,000 players is at least 30 × the "
            "`glicko2` package, with the readable step-by-step code.\n\n"
            f"{text}\n\n{READING}\n"
            f"Measured {_dt.datetime.now().strftime('%Y-%m-%d %H:%M')} on {environment()}.\n"
        )
        (HERE / "RESULTS.md").write_text(doc, encoding="utf-8")
        print(f"wrote {HERE / 'RESULTS.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
