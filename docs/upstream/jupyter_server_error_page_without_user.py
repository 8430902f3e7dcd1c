"""jupyter_server 2.x: an error page before the request has a user raises instead of rendering.

Standalone reproduction (jupyter_server 2.21.1, no extension, no kernel): jupyter_server's own
``ServerApp``, served in-process.

* ``PROPFIND /login``: tornado answers an unsupported method 405 *before* ``prepare``, so
  no user is set yet;
* an ``IdentityProvider`` whose ``get_user`` refuses a request (``raise HTTPError(404)``,
  the way a provider says "not for you") does so *inside* ``prepare``, before
  ``prepare`` sets the user.

Either way ``JupyterHandler.write_error`` renders its template, whose namespace asks
``self.logged_in`` -> ``self.current_user`` -> ``get_current_user()``, which raises
``RuntimeError`` ("Calling ... get_current_user() directly is deprecated") when
``prepare`` has not set ``_jupyter_current_user``: the response is empty and the log has an
"Uncaught exception in write_error" traceback.

Run: ``python docs/upstream/jupyter_server_error_page_without_user.py``; exits 1 while either
error page fails, 0 once both render.
"""

import asyncio
import io
import logging
import os
import sys
import tempfile

from jupyter_server.auth.identity import IdentityProvider
from tornado import httpclient, web


class RefusingProvider(IdentityProvider):
    """Refuses ``GET /login`` (a provider's way of saying "no such page for you")."""

    def get_user(self, handler):
        if handler.request.path.startswith("/login") and handler.request.method == "GET":
            raise web.HTTPError(404)
        return super().get_user(handler)


async def main() -> int:
    from jupyter_server.serverapp import ServerApp

    os.chdir(tempfile.mkdtemp())  # no voila.json / jupyter config of the current folder
    app = ServerApp()
    app.initialize(
        argv=[
            "--ServerApp.token=",
            "--ServerApp.open_browser=False",
            f"--ServerApp.root_dir={tempfile.mkdtemp()}",
            f"--ServerApp.identity_provider_class={__name__}.RefusingProvider",
        ],
        find_extensions=False,
    )
    app.http_server.listen(0, "127.0.0.1")
    port = next(iter(app.http_server._sockets.values())).getsockname()[1]
    log = io.StringIO()
    logging.getLogger("ServerApp").addHandler(logging.StreamHandler(log))
    logging.getLogger("tornado.application").addHandler(logging.StreamHandler(log))
    failed = 0
    client = httpclient.AsyncHTTPClient()
    for method, path, why in (
        ("PROPFIND", "/login", "a method the handler has not"),
        ("GET", "/login", "the identity provider refuses it"),
    ):
        before = log.getvalue().count("Uncaught exception in write_error")
        r = await client.fetch(
            f"http://127.0.0.1:{port}{path}",
            method=method,
            raise_error=False,
            allow_nonstandard_methods=True,
        )
        broke = log.getvalue().count("Uncaught exception in write_error") > before
        print(
            f"{method} {path} ({why}): HTTP {r.code}, {len(r.body)} bytes of body"
            + (", write_error raised RuntimeError" if broke else "")
        )
        failed += broke or not r.body
    app.http_server.stop()
    if failed:
        print("BUG: jupyter_server's error page needs a user that prepare() has not set yet")
        return 1
    return 0


if __name__ == "__main__":
    sys.modules.setdefault("rfc3987_syntax", None)  # faster import only; no effect on the bug
    sys.exit(asyncio.run(main()))
