"""Viewers' kernels forked from a process that has already imported what every page needs.

A kernel started the usual way (``python -m ipykernel_launcher``) spends most of its start
importing the same modules every page needs: ipykernel and IPython, numpy, matplotlib (about
0.6 CPU-seconds of the 0.8 a page's imports take, ``benchmarks/FORKS.md``). The published
site starts its kernels with :class:`ForkedKernel` instead (``KernelProvisionerFactory.
default_provisioner_name`` in ``voila.json``): one process per server, started with the
server's first kernel, imports :data:`PRELOAD` once and then forks a kernel for each request.
A forked kernel shares those modules' memory with its siblings until it writes to it.

What the fork keeps as a kernel started the usual way has it:

* **its own session and process group** (``setsid``), so the server's signals (an interrupt,
  a shutdown, a kill) reach the kernel and whatever it started, as jupyter_client sends them;
* **its environment and folder**: exactly those the server would have given the new process
  (Voilà's ``QUERY_STRING``, the pool's ``ELO_QUERY_TOKEN``, ...), its command line's
  options, standard input from ``/dev/null`` and its output to the server's;
* **nothing of the fork server's**: its descriptors are closed, its signal handlers reset;
  no random state is shared (Python's ``random`` seeds itself anew in a fork; numpy's
  ``random`` is not preloaded, so each kernel seeds its own as it imports it);
* **its command line and environment as the system shows them** (``ps``,
  ``/proc/<pid>/cmdline`` and ``environ``): those it would have been started with
  (``python -m ipykernel_launcher -f <its connection file> ...``);
* **its life bound to its parent's**: a kernel exits when the fork server does
  (ipykernel's parent poller), and the fork server when the server does (its socket closes).

A fork server that does not answer within :attr:`ForkedKernel.answer_timeout` (60 s) is
killed (its kernels end with it) and the next one is started.

Only modules that do nothing at import when IPython runs are preloaded (``ipywidgets`` and
the dashboards register with IPython's shell as they are imported, so each kernel imports
them itself, 0.1 s). Where a fork is not possible (another kernel command than this
interpreter's ``ipykernel_launcher``, no ``pidfd_open``, the fork server failed twice) the
kernel is started the usual way and the server's log says why.

>>> _kernel_args([sys.executable, "-Xfrozen_modules=off", "-m", "ipykernel_launcher",
...               "-f", "k.json"])[1:]
(('-Xfrozen_modules=off',), ['-f', 'k.json'])
>>> _kernel_args(["/usr/bin/R", "--slave"]) is None
True
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import select
import signal
import socket
import subprocess
import sys
from typing import Any

from jupyter_client.provisioning import LocalProvisioner
from traitlets import Float

__all__ = ["ForkedKernel", "PRELOAD"]

#: What the fork server imports once for all its kernels: what every page's kernel imports
#: and that does nothing at import when an IPython shell runs.
PRELOAD = (
    "numpy",
    "matplotlib",
    "matplotlib.pyplot",
    "matplotlib.backends.backend_agg",
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "IPython.core.completer",
    "babel.core",
    "PIL.Image",
)

_MAX_REQUEST = 1 << 20  # a request's bytes (an environment, a folder, the arguments)


def _framed(message: bytes) -> bytes:
    """A message on the fork server's socket: its length (4 bytes), then itself."""
    return len(message).to_bytes(4, "big") + message


def _kernel_args(cmd: list[str]) -> tuple[str, tuple[str, ...], list[str]] | None:
    """``(interpreter, its options, the kernel's arguments)`` of a kernel command that runs
    this interpreter's ``ipykernel_launcher``, or None for any other command."""
    if len(cmd) < 3 or os.path.realpath(cmd[0]) != os.path.realpath(sys.executable):
        return None
    for i in range(1, len(cmd) - 1):
        if cmd[i] == "-m":
            if cmd[i + 1] != "ipykernel_launcher":
                return None
            options = tuple(cmd[1:i])
            if not all(o.startswith("-X") for o in options):
                return None
            return cmd[0], options, list(cmd[i + 2 :])
    return None


class _Forked:
    """The forked kernel's process, as a ``subprocess.Popen`` is to jupyter_client's
    ``LocalProvisioner``: ``poll``, ``wait``, ``send_signal``, ``kill``, ``terminate``.
    It is not this process's child: its end is read from a pidfd, which names this process
    and no later one with the same number."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, pidfd: int):
        self.pid = pid
        self._pidfd = pidfd
        self.returncode: int | None = None

    def _ended(self, timeout: float | None) -> bool:
        # poll(), not select(): a busy server's descriptors go past select's 1024
        watch = select.poll()
        watch.register(self._pidfd, select.POLLIN)
        return bool(watch.poll(None if timeout is None else int(timeout * 1000)))

    def poll(self) -> int | None:
        if self.returncode is None and self._pidfd >= 0 and self._ended(0):
            self.returncode = 0  # ended; its status is its parent's (the fork server)
            os.close(self._pidfd)
            self._pidfd = -1
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and self._pidfd >= 0 and not self._ended(timeout):
            raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout)
        return self.poll() or 0

    def send_signal(self, signum: int) -> None:
        if self._pidfd >= 0:
            try:
                signal.pidfd_send_signal(self._pidfd, signum)
            except ProcessLookupError:  # ended
                pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def __del__(self):
        if self._pidfd >= 0:
            os.close(self._pidfd)


class _ForkServer:
    """One fork server: its process and this side of its socket."""

    def __init__(self, python: str, options: tuple[str, ...], timeout: float):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours.settimeout(timeout)
        self.sock = ours
        self.proc = subprocess.Popen(
            [
                python,
                *options,
                "-m",
                "elo_explain.server.forks",
                str(theirs.fileno()),
                "." * TITLE_ROOM,
            ],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            close_fds=True,
            env={**os.environ, "ELO_FORKS_ROOM": "." * ENVIRON_ROOM},
        )
        theirs.close()

    def fork(self, cmd: list[str], env: dict[str, str], cwd: str) -> _Forked:
        request = json.dumps({"cmd": cmd, "env": env, "cwd": cwd}).encode()
        if len(request) > _MAX_REQUEST:
            raise OSError(f"a kernel's request of {len(request)} bytes")
        try:
            self.sock.sendall(_framed(request))
            data, fds, _flags, _addr = socket.recv_fds(self.sock, 4096, 1)
            while 4 <= len(data) < 4 + int.from_bytes(data[:4], "big") and len(data) < 4096:
                more = self.sock.recv(4096)
                if not more:
                    break
                data += more
        except TimeoutError:  # stuck: a late answer would be taken for the next request's
            self.proc.kill()
            self.proc.wait()
            raise OSError(
                f"the fork server did not answer within {self.sock.gettimeout():g} s"
            ) from None
        if len(data) < 4 or len(data) != 4 + int.from_bytes(data[:4], "big"):
            for fd in fds:
                os.close(fd)
            raise OSError("the fork server closed its socket")
        reply = json.loads(data[4:].decode())
        if "error" in reply or not fds:
            for fd in fds:
                os.close(fd)
            raise OSError(reply.get("error", "no pidfd"))
        return _Forked(reply["pid"], fds[0])

    def alive(self) -> bool:
        return self.proc.poll() is None


_servers: dict[tuple[str, tuple[str, ...]], _ForkServer] = {}
_failed: dict[tuple[str, tuple[str, ...]], str] = {}  # no fork server for these: why
# one thread asks the fork servers, one request at a time (a fork takes milliseconds; the
# first waits for the fork server's imports): the event loop's own executor is not held up
_ASKING = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="forks")


def _fork(cmd: list[str], env: dict[str, str], cwd: str, timeout: float) -> _Forked:
    """A kernel forked by this interpreter's fork server (started on first use, and anew
    once if it has ended; after a second failure, no more fork servers for it)."""
    python, options, _args = _kernel_args(cmd)
    key = (python, options)
    if key in _failed:
        raise OSError(_failed[key])
    for attempt in (1, 2):
        server = _servers.get(key)
        if server is None or not server.alive():
            if server is not None:
                server.sock.close()
            server = _servers[key] = _ForkServer(python, options, timeout)
        try:
            return server.fork(cmd, env, cwd)
        except (OSError, ValueError) as exc:
            if server.alive():  # it refused this one (a fork failed): the next may do
                raise OSError(f"the fork server could not fork a kernel: {exc}") from exc
            if attempt == 2:
                _failed[key] = f"the fork server ended twice ({exc}): no more forks"
                raise OSError(_failed[key]) from exc
    raise AssertionError("unreachable")


class ForkedKernel(LocalProvisioner):
    """jupyter_client's local provisioner, with its kernel forked from this interpreter's
    fork server (the module's docstring) instead of started as a new program."""

    answer_timeout = Float(
        60.0,
        config=True,
        help=(
            "Seconds the fork server may take to answer (its first answer waits for its imports: "
            "about 1 s); one that takes longer is killed and a new one forks the kernel (if that "
            "fails too, the kernel is started as a program)."
        ),
    )

    async def launch_kernel(self, cmd: list[str], **kwargs: Any):
        if not hasattr(os, "pidfd_open") or _kernel_args(cmd) is None:
            self.log.info("Kernel started as a new process (not a fork): %s", cmd[:3])
            return await super().launch_kernel(cmd, **kwargs)
        env = {str(k): str(v) for k, v in (kwargs.get("env") or os.environ).items()}
        cwd = str(kwargs.get("cwd") or os.getcwd())
        try:
            self.process = await asyncio.get_running_loop().run_in_executor(
                _ASKING, _fork, list(cmd), env, cwd, self.answer_timeout
            )
        except OSError as exc:
            self.log.warning("Kernel started as a new process: %s", exc)
            return await super().launch_kernel(cmd, **kwargs)
        self.pid = self.pgid = self.process.pid  # its own session: setsid before the reply
        self.cwd = cwd
        return self.connection_info


# --- the fork server ------------------------------------------------------------------------


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


#: Room for a kernel's command line and environment in its process's argument and environment
#: areas (the fork server's own, padded): ``ps`` and ``/proc/<pid>/cmdline`` and ``environ``
#: show each kernel's own (:func:`_show_as`).
TITLE_ROOM = 1024
ENVIRON_ROOM = 64 * 1024


def _areas() -> tuple[int, int, int, int] | None:
    """This process's argument and environment areas: ``arg_start, arg_end, env_start,
    env_end`` (``/proc/self/stat``, fields 48-51)."""
    try:
        with open("/proc/self/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return tuple(int(f) for f in fields[45:49])
    except (OSError, ValueError):
        return None


def _show_as(cmd: list[str], env: dict[str, str] | None = None) -> None:
    """What ``ps``, ``/proc/<pid>/cmdline`` and ``/proc/<pid>/environ`` show of this process:
    ``cmd`` and ``env`` written over its argument and environment areas, as ``setproctitle``
    does (the areas are the fork server's, :data:`TITLE_ROOM` and :data:`ENVIRON_ROOM` long).
    The command line's last byte is left non-zero, so Linux reads it up to its first zero;
    what does not fit is cut (an environment at a variable's end)."""
    import ctypes

    areas = _areas()
    if areas is None:
        return
    arg_start, arg_end, env_start, env_end = areas
    room = arg_end - arg_start
    if room >= 2:
        title = " ".join(cmd).encode()[: room - 2]
        ctypes.memmove(arg_start, title + b"\0" * (room - len(title) - 1) + b".", room)
    room = env_end - env_start
    if env is not None and room >= 2:
        block = b""
        for key, value in env.items():
            entry = f"{key}={value}".encode() + b"\0"
            if len(block) + len(entry) >= room:
                break
            block += entry
        ctypes.memmove(env_start, block + b"\0" * (room - len(block)), room)


def _child(
    sock: socket.socket,
    ready: int,
    cmd: list[str],
    args: list[str],
    env: dict[str, str],
    cwd: str,
    parent: int,
) -> None:
    """In the forked process: become the kernel, and never return to the fork server's
    loop (``os._exit``)."""
    code = 1
    try:
        os.setsid()
        os.write(ready, b".")
        os.close(ready)
        sock.close()
        os.closerange(
            3, os.sysconf("SC_OPEN_MAX")
        )  # the fork server's pidfds and sockets: none is the kernel's
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        os.environ["JPY_PARENT_PID"] = str(parent)
        _show_as(cmd, dict(os.environ))
        sys.argv = ["ipykernel_launcher", *args]
        from ipykernel.kernelapp import IPKernelApp

        # ipykernel's parent poller ends the kernel when the fork server ends
        IPKernelApp.launch_instance(argv=args, parent_handle=parent)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported, then this process ends, whatever it was
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - ending anyway
                pass
        os._exit(code)


def serve(fd: int) -> None:
    """The fork server's loop on the socket ``fd``: a request (4 bytes of length, then JSON:
    ``args``, ``env``, ``cwd``) gets a kernel forked and a reply (JSON ``pid``, with the
    kernel's pidfd) once the kernel has its own session. Ends when the server closes its
    end."""
    sock = socket.socket(fileno=fd)
    me = os.getpid()
    children: dict[int, int] = {}  # pidfd -> pid: reaped as they end
    watch = select.poll()  # (not select(): past 1,024 kernels)
    watch.register(sock.fileno(), select.POLLIN)
    while True:
        waiting = {fd for fd, _event in watch.poll()}
        for pidfd in waiting & children.keys():
            pid = children.pop(pidfd)
            watch.unregister(pidfd)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
            os.close(pidfd)
        if sock.fileno() not in waiting:
            continue
        try:
            size = int.from_bytes(_recv_exact(sock, 4), "big")
            if size > _MAX_REQUEST:
                return
            request = json.loads(_recv_exact(sock, size))
            cmd = [str(w) for w in request["cmd"]]
            args = _kernel_args(cmd)[2]  # the kernel's own arguments, after the launcher's
            env, cwd = dict(request["env"]), str(request["cwd"])
        except (EOFError, OSError, ValueError, KeyError, TypeError):
            return  # the server is gone (or spoke nonsense): so are we
        del request
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError as exc:
            os.close(read)
            os.close(write)
            sock.sendall(_framed(json.dumps({"error": f"fork: {exc}"}).encode()))
            continue
        if pid == 0:
            os.close(read)
            _child(sock, write, cmd, args, env, cwd, me)
        os.close(write)
        os.read(read, 1)  # its own session now (or it ended)
        os.close(read)
        pidfd = os.pidfd_open(pid)  # not reaped yet: this is the child, whatever happened
        children[pidfd] = pid
        watch.register(pidfd, select.POLLIN)
        socket.send_fds(sock, [_framed(json.dumps({"pid": pid}).encode())], [pidfd])
        del cmd, args, env


def main(fd: int) -> None:
    """Import :data:`PRELOAD` as a kernel would, then serve."""
    import importlib

    # as ipykernel_launcher does: the folder is the kernel's, added by IPython's own init
    if sys.path and (sys.path[0] in ("", os.getcwd())):
        del sys.path[0]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's Ctrl-C is the server's
    os.environ.pop("ELO_FORKS_ROOM", None)
    _show_as([sys.executable, "-m", "elo_explain.server.forks"], dict(os.environ))
    # as ipykernel's init_gui_pylab sets it, before matplotlib reads it at import
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    os.environ["JPY_PARENT_PID"] = str(os.getpid())  # read by ipykernel at import
    os.close(os.pidfd_open(os.getpid()))  # Linux 5.3 or later: else this ends here
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # a kernel imports it itself, as it would anyway
    serve(fd)


if __name__ == "__main__":
    main(int(sys.argv[1]))
