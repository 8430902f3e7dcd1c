"""JupyterHub serving the published dashboards to anonymous visitors (``make hub``).

Each visitor gets a temporary user (jupyterhub-tmpauthenticator: no login form) and a server of
their own that is the published site's Voilà on ``/user/<name>/`` (``singleuser.py``,
``hub_gate.py``: the hub's OAuth, then the same read-only rules as ``make publish``). The hub's
proxy (configurable-http-proxy, npm, installed under ``deploy/hub/node_modules``) routes each
visitor to their server; jupyterhub-idle-culler ends servers idle past ``EE_HUB_CULL_TIMEOUT``
and the temporary users with them. docs/publishing.md says when to use it.

Settings from the environment (``make hub`` and tests/site/test_hub.py set them):

EE_HUB_PORT (8000)            the public port on 127.0.0.1 (EE_HUB_IP for another address)
EE_HUB_API_PORT (8001)        the proxy's REST API port, loopback only
EE_HUB_HUB_PORT (8081)        the hub's own port, loopback only
EE_HUB_STATE (./.hub)         folder for the database, cookie secret and proxy's pid file
EE_HUB_MAX_SERVERS (40)       concurrent visitors' servers; past it the hub answers 429 "busy"
EE_HUB_CULL_TIMEOUT (600)     seconds of no activity before a visitor's server is ended
EE_HUB_CULL_EVERY (60)        how often the culler looks (a server goes within
                              CULL_TIMEOUT + CULL_EVERY + ACTIVITY of its last activity)
EE_HUB_ACTIVITY (60)          how often the hub reads the proxy's last activity of each route
EE_HUB_MEM (none)             memory ceiling of each visitor's server and its kernels together,
                              e.g. 1G (Spawner.mem_limit: a control group, visitors.py)
EE_HUB_CPUS (none)            CPU ceiling of each visitor's server, in cores, e.g. 0.5
                              (Spawner.cpu_limit: the same control group, throttled)
EE_HUB_VOILA_ARGS             extra Voilà arguments, split on spaces
"""

import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - JupyterHub's config loader defines it

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from visitors import VisitorAuthenticator, VisitorSpawner  # noqa: E402

STATE = Path(os.environ.get("EE_HUB_STATE", ".hub")).resolve()
STATE.mkdir(parents=True, exist_ok=True)


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


# -- where: loopback, the proxy and the hub -------------------------------------------------
c.JupyterHub.ip = os.environ.get("EE_HUB_IP", "127.0.0.1")
c.JupyterHub.port = env_int("EE_HUB_PORT", 8000)
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = env_int("EE_HUB_HUB_PORT", 8081)
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{env_int('EE_HUB_API_PORT', 8001)}"
c.ConfigurableHTTPProxy.command = [str(HERE / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "cookie_secret")
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

# -- who: a temporary user for every visitor, no login form ---------------------------------
c.JupyterHub.authenticator_class = VisitorAuthenticator
c.TmpAuthenticator.auto_login = True
c.Authenticator.allow_all = True
c.JupyterHub.implicit_spawn_seconds = 0.01  # the hub's home page goes straight to the server
c.JupyterHub.default_url = "/hub/spawn"

# -- what: the published site's Voilà as each visitor's server ------------------------------
c.JupyterHub.spawner_class = VisitorSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")
c.Spawner.cmd = [sys.executable, str(HERE / "singleuser.py")]
# no preheated pool per visitor: it would start a kernel for every page in every language
# (about 50) in each visitor's server; the hub's pool is the servers themselves
c.Spawner.args = [
    "--VoilaConfiguration.preheat_kernel=False",
    *os.environ.get("EE_HUB_VOILA_ARGS", "").split(),
]
c.Spawner.default_url = "/voila/render/index.ipynb"
c.Spawner.ip = "127.0.0.1"
# how often the hub looks whether each server still runs (a signal 0 to its pid): a server
# that died is noticed within this, its page then told "This view has stopped"
c.Spawner.poll_interval = 5
c.Spawner.http_timeout = 60
c.Spawner.start_timeout = 60
c.Spawner.env_keep = [
    "PATH",
    "PYTHONPATH",
    "LANG",
    "LC_ALL",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
    "PYTHONUNBUFFERED",
]
# a visitor's own server only: no access to the hub's API beyond its own activity
c.Spawner.oauth_client_allowed_scopes = []
c.Spawner.server_token_scopes = ["users:activity!user"]

# -- limits and culling ---------------------------------------------------------------------
# past the cap the hub answers 429, with the site's busy page (visitors.BusySpawnHandler)
if os.environ.get("EE_HUB_MEM"):
    mem = os.environ["EE_HUB_MEM"]  # bytes, or with a suffix K, M, G, T
    c.Spawner.mem_limit = int(mem) if mem.isdigit() else mem
if os.environ.get("EE_HUB_CPUS"):
    c.Spawner.cpu_limit = float(os.environ["EE_HUB_CPUS"])
c.JupyterHub.active_server_limit = env_int("EE_HUB_MAX_SERVERS", 40)
c.JupyterHub.concurrent_spawn_limit = env_int("EE_HUB_MAX_SERVERS", 40)
c.JupyterHub.last_activity_interval = env_int("EE_HUB_ACTIVITY", 60)
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": [
            "list:users",
            "read:users:activity",
            "read:servers",
            "delete:servers",
            "admin:users",
        ],
        "services": ["idle-culler"],
    }
]
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={env_int('EE_HUB_CULL_TIMEOUT', 600)}",
            f"--cull-every={env_int('EE_HUB_CULL_EVERY', 60)}",
            "--cull-users=True",  # the temporary user goes with its server
        ],
    }
]
