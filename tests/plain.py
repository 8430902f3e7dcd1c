"""Helpers for the tests that need nothing but the package: no kernel, browser or server
(``tests/rules`` runs with the package's own dependencies alone)."""

from __future__ import annotations

import warnings


def no_warnings(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, with any warning raised as an error (a test of extreme
    inputs must see no overflow or invalid-value warning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args, **kwargs)
