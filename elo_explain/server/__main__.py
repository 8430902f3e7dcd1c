"""The published site's server: Voilà, started as ``python -m elo_explain.server <Voilà's
arguments>`` (``make dashboard``, ``deploy/publish.py``, the tests' servers).

It is Voilà's own ``voila`` command with one import fewer: Python imports this package
(:mod:`elo_explain.server`) first, and the package marks jsonschema's ``rfc3987_syntax`` as
absent (its docstring says why; ``benchmarks/SERVER_START.md``).
"""

import sys

from voila.app import main

if __name__ == "__main__":
    sys.exit(main())
