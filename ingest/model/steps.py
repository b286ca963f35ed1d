"""A build step's text with a count, for a progress display that shows the count as a bar."""

from __future__ import annotations


class Counted(str):
    """The text of a counted build step: ``Counted("sentence vectors", 256, 4031)`` reads
    "sentence vectors 256/4031" wherever a step's text is printed (``Library.building``'s
    lines), and a progress display reads `what`, `done` and `total` to show a bar of its own
    (the ``ingest`` command's)."""

    what: str
    done: int
    total: int

    def __new__(cls, what: str, done: int, total: int) -> Counted:
        text = super().__new__(cls, f"{what} {done}/{total}")
        text.what, text.done, text.total = what, done, total
        return text

    def __repr__(self) -> str:
        return f"Counted({self.what!r}, {self.done!r}, {self.total!r})"

    def __reduce__(self) -> tuple[type[Counted], tuple[str, int, int]]:
        return Counted, (self.what, self.done, self.total)


__all__ = ["Counted"]
