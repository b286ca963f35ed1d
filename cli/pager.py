"""Long output through a pager, as ``git log`` does: only on a terminal, only when taller than it.

The output is rendered once into a capture at the terminal's width; if it has more lines than
the screen, it goes through rich's pager (``$PAGER``, else ``less``; colours kept), otherwise
it is printed as is. Piped output and ``--json`` never page.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def paged(con: Console, render: Callable[[Console], None]) -> None:
    """Call `render` on `con`, through a pager when `con` is a terminal and it would scroll."""
    if not con.is_terminal or os.environ.get("REGELWERK_NO_PAGER"):
        render(con)
        return
    with con.capture() as capture:
        render(con)
    text = capture.get()
    if text.count("\n") < con.size.height:
        con.file.write(text)  # already rendered (and made safe): the captured text as is
        return
    from rich.pager import SystemPager

    os.environ.setdefault("LESS", "-R")  # let less show colours, as git sets LESS=FRX
    SystemPager().show(text)
