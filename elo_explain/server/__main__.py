"""The published site's server: Voilà, started as ``python -m elo_explain.server <Voilà's
arguments>`` (``make dashboard``, ``deploy/publish.py``, the tests' servers).

It is Voilà's own ``voila`` command with one import fewer. jsonschema (which jupyter_server's
event logging imports) imports ``rfc3987_syntax`` as it is imported, for its ``iri`` and
``iri-reference`` formats; that module compiles 39 Lark grammars as it is imported, 1.8 of
the 2.7 CPU-seconds of ``import voila.app`` (``benchmarks/SERVER_START.md``). No schema of
Jupyter's uses those formats. Marked as absent here, jsonschema goes without them (its own
``ImportError`` path). What would let it go: jsonschema importing it lazily
(python-jsonschema/jsonschema#1428).
"""

import sys

sys.modules.setdefault("rfc3987_syntax", None)  # import -> ImportError: jsonschema skips it

from voila.app import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
