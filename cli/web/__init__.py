"""The web face: ``regelwerk serve`` (FastAPI app, Jinja2 templates, a few lines of JS)."""
