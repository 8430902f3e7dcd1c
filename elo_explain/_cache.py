"""Results every page computes the same way, kept on disk and shared by every kernel.

A seeded simulation or the parse of the bundled games gives every viewer the same result,
yet every kernel of the published site (one per viewer, and one more in the preheated pool
behind each) would compute it again. :func:`disk_cached` keeps the result of a pure function
of plain arguments in a cache folder: the first kernel computes and stores it, the others
load it (``benchmarks/CAPACITY.md`` measures what a page view costs).

The key is the function's module and name, its arguments' ``repr`` and a hash of the
module's source, so an edit to the code computes afresh; the file is written to a temporary
name and renamed, so a kernel never reads half a file. The folder is ``$ELO_EXPLAIN_CACHE``,
else ``$XDG_CACHE_HOME/elo-explain`` (``~/.cache/elo-explain``); when it cannot be written
the result is simply computed. Only this server's own processes write there (the files are
pickles: never point the variable at a folder others can write).

>>> import tempfile, os
>>> os.environ["ELO_EXPLAIN_CACHE"] = tempfile.mkdtemp()
>>> calls = []
>>> @disk_cached
... def square(x):
...     calls.append(x)
...     return x * x
>>> square(7), square(7), calls          # the second call reads the file
(49, 49, [7])
>>> del os.environ["ELO_EXPLAIN_CACHE"]
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import pickle
import sys
import tempfile
from pathlib import Path

__all__ = ["disk_cached", "cache_dir", "load", "store", "package_hash"]


def cache_dir() -> Path:
    """The cache folder (see the module's docstring)."""
    explicit = os.environ.get("ELO_EXPLAIN_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "elo-explain"


@functools.cache
def _source_hash(module_name: str) -> str:
    try:
        source = inspect.getsource(sys.modules[module_name])
    except (OSError, TypeError, KeyError):
        source = ""
    return hashlib.sha256(source.encode()).hexdigest()[:16]


@functools.cache
def package_hash() -> str:
    """A hash of every source file and compiled catalog of the package (what any figure or
    result may depend on: a changed translation changes a figure's words)."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for path in sorted([*here.rglob("*.py"), *here.rglob("*.mo")]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def load(name: str) -> bytes | None:
    """The bytes stored under ``name``, or ``None`` (not there, or not readable)."""
    try:
        return (cache_dir() / name).read_bytes()
    except OSError:
        return None


def store(name: str, data: bytes, *, keep: int | None = None) -> None:
    """Store ``data`` under ``name``, written to a temporary name and renamed (a kernel never
    reads half a file); nothing when the folder cannot be written. With ``keep``, the folder
    holds at most ``keep`` files with the same prefix (``name`` up to its last ``-``): a bound
    on what varying inputs can add; the oldest make room for the new one (refused instead,
    the files of an earlier version of the package, never read again, filled the folder for
    good and no figure was stored any more).

    >>> import tempfile, time
    >>> os.environ["ELO_EXPLAIN_CACHE"] = folder = tempfile.mkdtemp()
    >>> for i in range(4):
    ...     store(f"figure-{i}", b"pixels", keep=3); t = time.time() - 10 + i
    ...     os.utime(os.path.join(folder, f"figure-{i}"), (t, t))
    >>> sorted(os.listdir(folder)), load("figure-3")
    (['figure-1', 'figure-2', 'figure-3'], b'pixels')
    >>> del os.environ["ELO_EXPLAIN_CACHE"]
    """
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if keep is not None:
            prefix = name.rsplit("-", 1)[0] + "-"
            kept = []
            for path in folder.glob(prefix + "*"):
                try:
                    kept.append((path.stat().st_mtime, path))
                except OSError:
                    pass  # removed meanwhile by another kernel
            for _, path in sorted(kept)[: max(0, len(kept) - keep + 1)]:
                path.unlink(missing_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, delete=False) as f:
            f.write(data)
        os.replace(f.name, folder / name)
    except OSError:
        pass  # a folder we cannot write: computed each time


def disk_cached(fn):
    """Decorator: keep ``fn``'s results on disk, keyed by its arguments and its module's code."""

    @functools.wraps(fn)
    def cached(*args, **kwargs):
        key = repr(
            (
                fn.__module__,
                fn.__qualname__,
                args,
                sorted(kwargs.items()),
                _source_hash(fn.__module__),
            )
        )
        name = f"{fn.__module__}.{fn.__qualname__}-{hashlib.sha256(key.encode()).hexdigest()[:24]}.pickle"
        data = load(name)
        if data is not None:
            try:
                return pickle.loads(data)
            except (EOFError, pickle.UnpicklingError, AttributeError, ImportError):
                pass
        result = fn(*args, **kwargs)
        store(name, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        return result

    return cached
