"""The shape of the house, checked: small functions in the layers that carry the data flow."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 60


def test_no_function_over_60_lines_in_the_package() -> None:
    """Long functions hide several concepts; declarative tables live in module constants."""
    long = []
    for top in ("ingest", "index", "cli", "engine"):
        for path in sorted((ROOT / top).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > MAX_LINES:
                        long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, "split these functions:\n" + "\n".join(long)


def test_readme_layout_names_every_module() -> None:
    """The README's layout section is the map of the tree: every module has its place there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    missing = [
        path.relative_to(ROOT).as_posix()
        for top in ("ingest", "index", "cli", "engine", "tools")
        for path in sorted((ROOT / top).rglob("*.py"))
        if path.name != "__init__.py" and f"`{path.stem}`" not in layout and f"`{path.stem}/`" not in layout
    ]
    assert not missing, f"the README's layout section does not name: {', '.join(missing)}"


def test_every_index_part_is_under_the_import_contracts() -> None:
    """A new ``index/`` subpackage must be below the facade and out of the CLI's reach too."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    parts = {f"regelwerk.index.{p.parent.name}" for p in (ROOT / "index").glob("*/__init__.py")}
    below = next(c for c in contracts if c["name"].startswith("below the facade"))
    cli = next(c for c in contracts if c["name"].startswith("cli calls only the facade"))
    assert parts == set(below["source_modules"])
    assert parts <= set(cli["forbidden_modules"])
