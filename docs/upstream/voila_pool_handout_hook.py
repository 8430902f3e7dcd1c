"""Voilà 0.5.13: a kernel manager cannot learn, through any documented hook, that the
preheated pool gave one of its kernels to a request.

Standalone reproduction (Voilà 0.5.13, jupyter_server 2.x; no kernel is started). With
``preheat_kernel``, Voilà builds its kernel manager as a *subclass* of the configured
``VoilaConfiguration.multi_kernel_manager_class`` (``voila_kernel_manager_factory``), and that
subclass's ``get_rendered_notebook`` (which pops a kernel from the pool and hands it to the
page's request) neither calls ``super()`` nor any hook. So the configured class -- the one
place a deployment may put its own rules -- cannot override the method (Voilà's subclass
shadows it), and has no trait or method Voilà calls when the kernel changes hands. The only
way left is to shadow Voilà's method on the instance.

Run: ``python docs/upstream/voila_pool_handout_hook.py``; exits 1 while no hook exists, 0
once Voilà's manager has one (a configurable callable or a method it calls on hand-out).
"""

import inspect
import sys

HOOK_WORDS = ("hook", "callback", "handed", "taken", "assign", "on_")


def main() -> int:
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    class Deployment(AsyncMappingKernelManager):
        """A deployment's kernel manager that wants to see the hand-out."""

        taken = []

        async def get_rendered_notebook(self, *args, **kwargs):  # the natural override
            result = await super().get_rendered_notebook(*args, **kwargs)
            self.taken.append(result[2])
            return result

    managers = voila_kernel_manager_factory(Deployment, preheat_kernel=True, default_pool_size=1)
    used = managers.get_rendered_notebook
    print(
        f"Voilà's manager: {managers.__name__}({Deployment.__name__}); "
        f"get_rendered_notebook comes from {used.__qualname__}"
    )
    shadowed = used is not Deployment.get_rendered_notebook
    calls_super = "super()" in inspect.getsource(used)
    traits = managers.class_trait_names(config=True)
    hooks = sorted(n for n in traits if any(w in n for w in HOOK_WORDS))
    print(
        f"the deployment's override is shadowed: {shadowed}; Voilà's calls super(): "
        f"{calls_super}; hook traits: {hooks or 'none'}"
    )
    if shadowed and not calls_super and not hooks:
        print("GAP: no documented way to see a pooled kernel handed to a request")
        return 1
    return 0


if __name__ == "__main__":
    sys.modules.setdefault("rfc3987_syntax", None)  # faster import only
    sys.exit(main())
