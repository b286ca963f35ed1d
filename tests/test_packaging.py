"""The wheel is the namespaced package the design asks for: regelwerk.<folder>, data included,
no bare top-level `cli` or `index`, no tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    src = tmp_path_factory.mktemp("src")
    # Build from a copy, so the build/ tree of the developer's strict editable install is untouched.
    shutil.copytree(
        ROOT, src / "regelwerk",
        ignore=shutil.ignore_patterns("build", "*.egg-info", ".git", "__pycache__", ".*_cache"),
    )
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(out), str(src / "regelwerk")],
        capture_output=True, text=True, timeout=300,
    )
    if proc.returncode != 0:
        pytest.fail(f"pip wheel failed: {proc.stderr[-2000:]}")
    (wheel,) = out.glob("regelwerk-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def test_everything_is_under_the_regelwerk_namespace(wheel_names: set[str]) -> None:
    tops = {name.split("/")[0] for name in wheel_names}
    assert tops == {"regelwerk", next(t for t in tops if t.endswith(".dist-info"))}
    assert "regelwerk/__init__.py" not in wheel_names  # a namespace package
    for sub in ("ingest", "index", "cli", "engine", "data"):
        assert f"regelwerk/{sub}/__init__.py" in wheel_names
        assert f"regelwerk/{sub}/py.typed" in wheel_names
    assert "regelwerk/__main__.py" in wheel_names
    assert not any(
        name.startswith(("regelwerk/tests/", "regelwerk/bench/", "regelwerk/tools/")) for name in wheel_names
    )


def test_every_module_of_the_source_tree_is_in_the_wheel(wheel_names: set[str]) -> None:
    """A subpackage missing from pyproject's ``packages`` would work in the checkout and vanish
    from the wheel: compare the installed modules with the source tree."""
    for top in ("ingest", "index", "cli", "engine"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            name = "regelwerk/" + path.relative_to(ROOT).as_posix()
            assert name in wheel_names, f"{name} is not in the wheel; list its package in pyproject.toml"


def test_shipped_data_is_in_the_wheel(wheel_names: set[str]) -> None:
    data = ROOT / "data"
    for folder, pattern in (("seeds", "*.txt"), ("terms", "*.tsv"), ("scenarios", "*.toml"),
                            ("lexicon", "*.tsv")):
        files = sorted(p.name for p in (data / folder).glob(pattern))
        assert files, folder
        for name in files:
            assert f"regelwerk/data/{folder}/{name}" in wheel_names


def test_web_templates_and_static_files_are_in_the_wheel(wheel_names: set[str]) -> None:
    """``regelwerk serve`` reads its templates, CSS, JS and interface text from the package."""
    web = ROOT / "cli" / "web"
    shipped = {".html", ".css", ".js", ".png", ".svg", ".toml"}
    files = [p for p in web.rglob("*") if p.is_file() and p.suffix in shipped]
    assert len(files) >= 10
    for path in files:
        name = "regelwerk/" + path.relative_to(ROOT).as_posix()
        assert name in wheel_names, f"{name} is not in the wheel; list it in pyproject's package-data"
