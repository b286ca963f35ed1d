"""Output for a pipe or a file: what rich prints there, without loading rich's console.

Piped output has no terminal to style for, so a rich console prints the bare text, word-wrapped
to its width. `PlainConsole` does that itself for the plain strings the renderers print (with
``markup=False``, or text without a ``[``, or styled parts through `output.styled`); importing
``rich.console`` (its themes, markup, text and segment machinery) costs a cold ``rule`` about
as much as its whole lookup. Wrapping is rich's own (``rich._wrap.divide_line`` and
``rich.cells``, which load none of that), followed by the same trimming rich's ``Text.wrap``
does, so the bytes are the same; a test compares both on every rule of a CR. Anything else (a
table, markup, tabs, an unknown option or method) goes to a real rich console made on first
need, with the same settings, so nothing is ever printed differently.
"""

from __future__ import annotations

import itertools
import re
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

_TRAILING_SPACE = re.compile(r"\s+$")
#: print() options whose effect a plain console reproduces (styles show nowhere without a terminal).
_PLAIN_OPTIONS = frozenset({"style", "markup", "highlight", "soft_wrap", "end"})


class PlainConsole:
    """The subset of ``rich.console.Console`` the renderers use, for output that is not a terminal."""

    is_terminal = False

    def __init__(self, file: IO[str], width: int, make_rich: Any) -> None:
        self.file = file
        self.width = width
        self._make_rich = make_rich  # () -> the rich console to fall back to
        self._rich: Console | None = None

    @property
    def rich(self) -> Console:
        """The real rich console (same stream, width and settings), made on first need."""
        if self._rich is None:
            self._rich = self._make_rich()
        return self._rich

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rich, name)  # anything not reproduced here is rich's to do

    def print(self, *objects: Any, **options: Any) -> None:
        text = self._plain(objects, options)
        if text is None:
            self.rich.print(*objects, **options)
            return
        from regelwerk.cli.output import safe_text

        text = safe_text(text)
        if not options.get("soft_wrap"):
            text = "\n".join(wrap(text, self.width))
        self.file.write(text + options.get("end", "\n"))

    @staticmethod
    def _plain(objects: tuple[Any, ...], options: dict[str, Any]) -> str | None:
        """The one string to print as it is, or None when rich must do it."""
        if len(objects) != 1 or not isinstance(objects[0], str) or not options.keys() <= _PLAIN_OPTIONS:
            return None
        text: str = objects[0]
        if "\t" in text or (options.get("markup", True) and "[" in text):
            return None
        return text


def wrap(text: str, width: int) -> list[str]:
    """`text`'s lines word-wrapped to `width` cells exactly as rich's ``Text.wrap`` does
    (``overflow="fold"``, no justification): break offsets from rich's ``divide_line``, then
    trailing whitespace trimmed only as far as a line is too long, then cropped to `width`."""
    from rich._wrap import divide_line
    from rich.cells import cell_len, set_cell_size

    out: list[str] = []
    for line in text.split("\n"):
        offsets = [0, *divide_line(line, width, fold=True), len(line)]
        for start, end in itertools.pairwise(offsets):
            piece = line[start:end]
            excess = len(piece) - width
            if excess > 0:
                space = _TRAILING_SPACE.search(piece)
                if space is not None:
                    piece = piece[: len(piece) - min(len(space.group(0)), excess)]
            if cell_len(piece) > width:
                piece = set_cell_size(piece, width)
            out.append(piece)
    return out
