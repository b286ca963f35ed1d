"""``main()`` makes only the click command the command line names (``cli.app._invoked``); what
a user sees must not change: help, errors and answers are those of the whole app."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from regelwerk.cli.app import _invoked


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (["rule", "702.19"], {}, "rule"),
        (["--lang", "de", "term", "Bündnis"], {}, "term"),
        (["--lang=de", "search", "x"], {}, "search"),
        (["example", "list"], {}, "example"),
        (["serach", "x"], {}, "serach"),  # not a command: main() then makes them all
        (["--help"], {}, None),
        (["--version"], {}, None),
        (["--lang", "de"], {}, None),
        ([], {}, None),
        (["rule", "702.19"], {"_REGELWERK_COMPLETE": "complete_bash"}, None),
    ],
)
def test_the_invoked_command(argv: list[str], env: dict[str, str], expected: str | None) -> None:
    assert _invoked(argv, env) == expected


def _run(entry: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``regelwerk ARGS`` through `entry` (``main``, or ``app``: the whole app) in a fresh process."""
    code = f"import sys\nsys.argv[0] = 'regelwerk'\nfrom regelwerk.cli.app import {entry}\n{entry}()"
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)


@pytest.mark.parametrize(
    "args",
    [["rule", "--help"], ["--lang", "de", "term", "--help"], ["example", "list", "--help"],
     ["serach", "banding"], ["rule", "702.19", "--lang", "xx"], ["--help"]],
)
def test_main_answers_as_the_whole_app(args: list[str]) -> None:
    whole, alone = _run("app", *args), _run("main", *args)
    assert (alone.returncode, alone.stdout, alone.stderr) == (whole.returncode, whole.stdout, whole.stderr)
    assert alone.stdout + alone.stderr  # something was said


def test_main_collects_garbage_rarely() -> None:
    """A command's process runs the cyclic collector every GC_THRESHOLD objects, not Python's 700."""
    code = ("import atexit, gc, sys\nsys.argv[0] = 'regelwerk'\n"
            "atexit.register(lambda: print('threshold', gc.get_threshold()[0]))\n"
            "from regelwerk.cli.app import main\nmain()")
    done = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True)
    from regelwerk.cli.app import GC_THRESHOLD

    assert f"threshold {GC_THRESHOLD}" in done.stdout
    assert GC_THRESHOLD > 700
