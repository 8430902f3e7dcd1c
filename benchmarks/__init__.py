"""Benchmarks of elo-explain against plain-Python baselines; run ``python -m benchmarks``.

Every module in this package that defines ``run(repeats: int) -> list[dict]`` is a
benchmark (found automatically, so new modules need no registration). Each row is a dict:

``benchmark``        short name of what is measured
``work``             the workload, e.g. "10,000 players x 10 games"
``ours_seconds``     median time of elo-explain over ``repeats`` runs
``baseline``         what it is compared with (or ``None``)
``baseline_seconds`` median time of the baseline (or ``None``)
``note``             anything a reader must know (agreement of results, caveats)

``python -m benchmarks`` runs them all in one process, one after the other, and writes
``benchmarks/RESULTS.md`` with a Markdown table (speed-up = baseline / ours).

Times are CPU seconds of this process (``time.process_time``), not wall time, so that other
work on a shared machine does not inflate one side of a comparison; every computation timed
here is single-threaded. In a comparison the two sides alternate, run after run.
"""

from __future__ import annotations

import statistics
import time

__all__ = ["median_time", "compare"]

clock = time.process_time


def _once(fn, setup):
    arg = setup() if setup is not None else None
    t0 = clock()
    if setup is not None:
        fn(arg)
    else:
        fn()
    return clock() - t0


def median_time(fn, repeats: int, setup=None) -> float:
    """Median CPU time (seconds) of ``fn()`` (or ``fn(setup())``, setup not timed)."""
    return statistics.median(_once(fn, setup) for _ in range(repeats))


def compare(ours, baseline, repeats: int, *, baseline_setup=None) -> tuple[float, float]:
    """Median CPU times of ``ours()`` and ``baseline(...)``, run alternately ``repeats`` times."""
    a, b = [], []
    for _ in range(repeats):
        a.append(_once(ours, None))
        b.append(_once(baseline, baseline_setup))
    return statistics.median(a), statistics.median(b)
