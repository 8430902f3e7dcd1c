"""The published site's server: Voilà, started as ``python -m elo_explain.server <Voilà's
arguments>`` (``make dashboard``, ``deploy/publish.py``, the tests' servers).

It is Voilà's own ``voila`` command with one import fewer
(:func:`elo_explain.server.without_rfc3987_syntax`, ``benchmarks/SERVER_START.md``).
"""

import sys

from elo_explain.server import without_rfc3987_syntax

without_rfc3987_syntax()

from voila.app import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
