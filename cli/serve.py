"""``regelwerk serve``: the rules in a browser and as JSON over HTTP (see ``cli/web``).

Thin: take the options and start the server. FastAPI, uvicorn and Jinja2 load only here, so
the other commands start as fast as before.
"""

from __future__ import annotations

import typer


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback unless told)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="TCP port (0: any free port)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the start page in a web browser."),
) -> None:
    """Serve the rules as web pages and a JSON API (read-only) until Ctrl-C."""
    from regelwerk.cli.web.server import run

    run(host, port, open_browser)


def register(app: typer.Typer) -> None:
    app.command(name="serve")(serve)
