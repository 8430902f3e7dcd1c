"""The published site's gate under JupyterHub: the hub's OAuth first, then the site's rules.

A visitor's server is Voilà itself (``python -m elo_explain.server``, started by
``deploy/hub/singleuser.py``), not ``jupyterhub-singleuser``: no JupyterLab, no contents API,
the site's own kernel manager and template. Voilà asks one identity provider about every
request (``Voila.identity_provider_class``), so :class:`HubGate` does both jobs:

1. **Who**: the request must carry this server's hub cookie (``jupyterhub-user-<name>``, set on
   the path ``/user/<name>/`` by the OAuth callback, signed with this server's cookie secret)
   whose token the hub confirms has ``access:servers!server=<name>/``. Without it a page is
   redirected to the hub's OAuth (the hub then answers 403 to another visitor), anything else
   (a websocket, the kernel API, a shutdown beacon) is answered 403.
2. **What**: then :class:`elo_explain.server.gate.PublishedOnly`'s path and method rules, the
   kernel ceilings and the "busy" page, unchanged.

The OAuth callback (``<prefix>oauth_callback``) is jupyterhub's own handler
(``jupyterhub.singleuser.extension.JupyterHubOAuthCallbackHandler``), mounted by
:meth:`HubGate.get_handlers`, which Voilà adds to its handlers.
"""

from __future__ import annotations

import inspect
import os

from jupyterhub.services.auth import HubOAuth
from jupyterhub.singleuser.extension import JupyterHubOAuthCallbackHandler
from tornado import web
from tornado.httputil import url_concat
from traitlets import Instance, default

from elo_explain.server.gate import PublishedOnly, refuse


class HubGate(PublishedOnly):
    """:class:`PublishedOnly` behind the hub's OAuth (see module doc)."""

    hub_auth = Instance(HubOAuth)

    @default("hub_auth")
    def _default_hub_auth(self):
        return HubOAuth(parent=self)  # configured by the spawner's JUPYTERHUB_* environment

    def get_handlers(self):
        prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/")
        return [
            (prefix + "oauth_callback", JupyterHubOAuthCallbackHandler, {"hub_auth": self.hub_auth})
        ]

    async def get_user(self, handler: web.RequestHandler):
        if hasattr(handler, "_ee_hub_user"):
            return handler._ee_hub_user
        hub_user = await self.hub_auth.get_user(handler, sync=False)
        if hub_user is None or not self.hub_auth.check_scopes(
            self.hub_auth.access_scopes, hub_user
        ):
            if hub_user is not None:
                refuse(handler, 403, "Forbidden: this view belongs to another visitor")
            if handler.request.method in ("GET", "HEAD") and not _is_machine_request(handler):
                self._to_hub_login(handler)
            refuse(handler, 403, "Forbidden: open the site from its first page")
        user = super().get_user(handler)
        if inspect.isawaitable(user):
            user = await user
        handler._ee_hub_user = user
        return user

    def _to_hub_login(self, handler) -> None:
        """Redirect to the hub's OAuth, back here afterwards (raises :class:`web.Finish`)."""
        params = {}
        verifier = None
        if self.hub_auth.pkce_enabled:
            verifier, challenge, method = self.hub_auth.generate_pkce_code_challenge()
            params.update(code_challenge=challenge, code_challenge_method=method)
        params["state"] = self.hub_auth.set_state_cookie(
            handler, next_url=handler.request.uri, code_verifier=verifier
        )
        handler.current_user = None
        handler.redirect(url_concat(self.hub_auth.login_url, params))
        raise web.Finish()

    def validate_security(self, app, ssl_options=None):
        return  # the hub's OAuth is the security: no token or password of jupyter_server's


def _is_machine_request(handler) -> bool:
    """A websocket upgrade or an API call: no login page to redirect it to."""
    if handler.request.headers.get("Upgrade", "").lower() == "websocket":
        return True
    return "/api/" in handler.request.path
