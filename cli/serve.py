"""``regelwerk serve``: the rules in a browser and as JSON over HTTP (see ``cli/web``).

Thin: check the options and hand the app to uvicorn. FastAPI, uvicorn and Jinja2 load only
here, so the other commands start as fast as before.
"""

from __future__ import annotations

import typer


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback unless told)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="TCP port (0: any free port)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the start page in a web browser."),
) -> None:
    """Serve the rules as web pages and a JSON API (read-only) until Ctrl-C."""
    import os
    import socket
    import threading
    import webbrowser

    import uvicorn

    from regelwerk.cli.web.app import create_app
    from regelwerk.ingest.model.errors import InputError

    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise InputError(f"--host {host} --port {port}: cannot listen there ({reason})") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    typer.echo(f"regelwerk: serving on {url} (Ctrl-C stops)", err=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(create_app(), log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])


def register(app: typer.Typer) -> None:
    app.command(name="serve")(serve)
