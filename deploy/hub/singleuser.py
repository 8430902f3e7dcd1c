"""A visitor's server under JupyterHub: the published site's Voilà on the hub's prefix.

JupyterHub's spawner starts this with its ``JUPYTERHUB_*`` environment (the server's URL, its
prefix ``/user/<name>/``, the OAuth client); it runs ``python -m elo_explain.server`` from the
repository (``voila.json``: the template, the languages, the kernel rules) with
:class:`hub_gate.HubGate` as the identity provider. Extra arguments go to Voilà.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def main(argv: list[str]) -> None:
    url = urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
    prefix = os.environ["JUPYTERHUB_SERVICE_PREFIX"]
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HERE), os.environ.get("PYTHONPATH")) if p
    )
    # a page's shared and reopen links: the hub's user-redirect, anyone's own server
    os.environ["EE_SHARE_BASE"] = os.environ.get("JUPYTERHUB_BASE_URL", "/") + "hub/user-redirect/"
    os.chdir(ROOT)  # voila.json is read from the working directory
    cmd = [
        sys.executable,
        "-m",
        "elo_explain.server",
        "notebooks",
        f"--port={url.port}",
        f"--Voila.ip={url.hostname}",
        "--Voila.port_retries=0",
        "--no-browser",
        f"--Voila.base_url={prefix}",
        "--Voila.identity_provider_class=hub_gate.HubGate",
        *argv,
    ]
    os.execv(sys.executable, cmd)


if __name__ == "__main__":
    main(sys.argv[1:])
