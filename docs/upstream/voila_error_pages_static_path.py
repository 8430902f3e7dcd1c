"""Voilà 0.5.13: the error pages of the jupyter_server handlers Voilà mounts fail to render.

Standalone reproduction (Voilà 0.5.13, jupyter_server 2.x; no kernel, no notebook): Voilà's
own application settings (``Voila.init_settings``) and routes (``Voila.init_handlers``),
served in-process. Voilà gives jupyter_server's handlers (its themes, kernels and websocket
handlers) jupyter_server's Jinja templates (``jinja2_env``) but no ``static_path``; those
templates call ``static_url(...)``, which tornado refuses without it. So an error page of
such a handler (here: an unknown theme, ``GET /voila/api/themes/x``) is an empty response
and an "Uncaught exception in write_error" traceback in the server's log.

Run: ``python docs/upstream/voila_error_pages_static_path.py``; exits 1 while the error page
fails, 0 once it renders. ``--fixed`` adds the proposed fix (``static_path``) to the settings.
"""

import asyncio
import io
import logging
import os
import sys
import tempfile

from tornado import httpclient, httpserver, testing, web


async def main(fixed: bool) -> int:
    from voila.app import Voila

    os.chdir(tempfile.mkdtemp())  # no voila.json / jupyter config of the current folder
    voila = Voila()
    voila.initialize([tempfile.mkdtemp(), "--no-browser", "--port=0"])
    settings = voila.init_settings()
    if fixed:
        from jupyter_server import DEFAULT_STATIC_FILES_PATH

        settings["static_path"] = DEFAULT_STATIC_FILES_PATH
    app = web.Application(**settings)
    app.add_handlers(".*$", voila.init_handlers())
    sock, port = testing.bind_unused_port()
    server = httpserver.HTTPServer(app)
    server.add_sockets([sock])
    log = io.StringIO()
    logging.getLogger("tornado.application").addHandler(logging.StreamHandler(log))
    r = await httpclient.AsyncHTTPClient().fetch(
        f"http://127.0.0.1:{port}/voila/api/themes/x", raise_error=False
    )
    server.stop()
    print(f"GET /voila/api/themes/x: HTTP {r.code}, {len(r.body)} bytes of body: {r.body[:60]!r}")
    if "static_path" in log.getvalue() or not r.body:
        print("BUG: the error page did not render; the server logged:")
        print("    " + "\n    ".join(log.getvalue().strip().splitlines()[-2:]))
        return 1
    return 0


if __name__ == "__main__":
    sys.modules.setdefault("rfc3987_syntax", None)  # faster import only; no effect on the bug
    sys.exit(asyncio.run(main("--fixed" in sys.argv)))
