"""Benchmarks of elo-explain against plain-Python baselines; run ``python -m benchmarks``.

Every module in this package that defines ``run(repeats: int) -> list[dict]`` is a
benchmark (found automatically, so new modules need no registration). Each row is a dict:

``benchmark``        short name of what is measured
``work``             the workload, e.g. "10,000 players x 10 games"
``ours_seconds``     median wall time of elo-explain over ``repeats`` runs
``baseline``         what it is compared with (or ``None``)
``baseline_seconds`` median wall time of the baseline (or ``None``)
``note``             anything a reader must know (agreement of results, caveats)

``python -m benchmarks`` runs them all in one process, one after the other, and writes
``benchmarks/RESULTS.md`` with a Markdown table (speed-up = baseline / ours).
"""

from __future__ import annotations

import statistics
import time

__all__ = ["median_time"]


def median_time(fn, repeats: int, setup=None) -> float:
    """Median wall time (seconds) of ``fn(setup())`` over ``repeats`` runs (setup not timed)."""
    times = []
    for _ in range(repeats):
        arg = setup() if setup is not None else None
        t0 = time.perf_counter()
        fn(arg) if setup is not None else fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)
