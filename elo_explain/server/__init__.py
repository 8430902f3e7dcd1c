"""The published site's server side: code that Voilà loads by name from ``voila.json``, and the
one piece a page's kernel runs for the server's pool.

* :mod:`~elo_explain.server.gate` -- the identity provider that serves only the published
  pages (``Voila.identity_provider_class``);
* :mod:`~elo_explain.server.kernels` -- the kernel manager that bounds kernels per viewer and
  in all (``VoilaConfiguration.multi_kernel_manager_class``), and a page's token;
* :mod:`~elo_explain.server.channels` -- the kernel websocket that bounds what a page may
  send (``Voila.kernel_websocket_connection_class``);
* :mod:`~elo_explain.server.query` -- the preheated pool's request socket, for the pool's own
  kernels only (installed by the kernel manager in place of Voilà's);
* :mod:`~elo_explain.server.languages`, :mod:`~elo_explain.server.nav` -- the page template's
  Jinja filters: the language switch, the page's words, the links between topics
  (``VoilaExporter.filters``);
* :mod:`~elo_explain.server.preheat` -- runs in a page's kernel: the page's query string, for
  which a preheated kernel waits (the kernel's side of the pool).

Nothing here is imported by the dashboards except :mod:`~elo_explain.server.preheat`, which
imports nothing of Voilà or jupyter_server (a kernel must stay light).
"""

import sys


def without_rfc3987_syntax() -> None:
    """Mark ``rfc3987_syntax`` as absent, before jupyter_server is imported (the launcher,
    ``python -m elo_explain.server``, and the tests' processes call it; a kernel does not).

    jsonschema (which jupyter_server's event logging imports) imports it as it is imported,
    for its ``iri`` and ``iri-reference`` formats, and that module compiles 39 Lark grammars
    as it is imported: 1.8 of the 2.7 CPU-seconds of ``import voila.app``
    (``benchmarks/SERVER_START.md``), 1.3 CPU-s of each test process's collection. No schema
    of Jupyter's uses those formats; marked as absent, jsonschema goes without them (its own
    ``ImportError`` path). What would let it go: jsonschema importing it lazily
    (python-jsonschema/jsonschema#1428).
    """
    sys.modules.setdefault("rfc3987_syntax", None)  # import -> ImportError: jsonschema skips it
