"""Running the app: bind the socket, say where, hand it to uvicorn until Ctrl-C."""

from __future__ import annotations

import os
import socket
import sys
import threading
import webbrowser

from regelwerk.ingest.model.errors import InputError
from regelwerk.ingest.model.message import N_, msg


def listen(host: str, port: int) -> socket.socket:
    """A listening socket, or an error naming the address and why (port taken, no such host)."""
    try:
        return socket.create_server((host, port))
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise InputError(msg(N_("--host {host} --port {port}: cannot listen there ({reason})"),
                             host=host, port=str(port), reason=reason)) from None


#: Open files the server asks for (its soft limit raised up to the hard one): a home with the
#: whole archive peaks at about 310 descriptors under 50 clients (its index segments are separate
#: files, `index.search.incremental`), over macOS's default soft limit of 256.
OPEN_FILES = 4096


def raise_open_files(wanted: int = OPEN_FILES) -> int:
    """Raise this process's soft limit of open files towards `wanted` (never over the hard limit,
    never lower); the limit now. Where there is no such limit (Windows) nothing changes."""
    try:
        import resource
    except ImportError:
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # a platform that refuses: keep what there is
            pass
    return soft


def run(host: str, port: int, open_browser: bool = False) -> None:
    """Serve the app on `host`:`port` (0: a free port) and print the address on stderr first."""
    import uvicorn

    from regelwerk.cli.web.app import create_app

    raise_open_files()
    sock = listen(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    from regelwerk.cli.i18n import _

    print(_("regelwerk: serving on {url} (Ctrl-C stops)").format(url=url), file=sys.stderr, flush=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(create_app(), log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])
