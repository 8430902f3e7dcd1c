"""Voilà 0.5.13: ``TemplateStaticFileHandler`` answers a path not of the form
``<template>/static/<file>`` with an uncaught exception (HTTP 500 and a traceback).

Standalone reproduction (Voilà 0.5.13, tornado 6; no kernel, no notebook): a tornado app that
serves only Voilà's ``/voila/templates/(.*)`` route. Both ``parse_url_path`` and
``get_absolute_path`` unpack ``path.split("/", 2)`` into three names and ``assert`` the
middle one is ``static``: a shorter path (``lab/conf.json``), a path that ``normpath`` makes
shorter (``lab/static/../../etc/passwd``, sent percent-encoded) or one with another middle
part raises ``ValueError``/``AssertionError``, which tornado logs as "Uncaught exception" and
answers 500. Nothing is served (the roots are checked later), but anyone can fill the log.

Run: ``python docs/upstream/voila_template_static_path.py``; exits 1 while a malformed path
is a 500, 0 once each is a 404.
"""

import asyncio
import io
import logging
import sys

from tornado import httpclient, httpserver, testing, web
from voila.static_file_handler import TemplateStaticFileHandler

PATHS = ("lab/static/..%2F..%2Fetc%2Fpasswd", "lab/conf.json", "%2Fetc%2Fpasswd", "lab")


async def main() -> int:
    app = web.Application([(r"/voila/templates/(.*)", TemplateStaticFileHandler)])
    sock, port = testing.bind_unused_port()
    server = httpserver.HTTPServer(app)
    server.add_sockets([sock])
    log = io.StringIO()
    logging.getLogger("tornado.application").addHandler(logging.StreamHandler(log))
    client = httpclient.AsyncHTTPClient()
    failed = 0
    for path in PATHS:
        r = await client.fetch(f"http://127.0.0.1:{port}/voila/templates/{path}", raise_error=False)
        print(f"GET /voila/templates/{path}: HTTP {r.code}")
        failed += r.code >= 500
    server.stop()
    errors = sorted(
        {
            line.split(":")[0]
            for line in log.getvalue().splitlines()
            if line.startswith(("ValueError", "AssertionError"))
        }
    )
    if failed:
        print(
            f"BUG: {failed} of {len(PATHS)} malformed paths raised in the handler "
            f"({', '.join(errors)}: 'Uncaught exception' tracebacks in the log)"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
