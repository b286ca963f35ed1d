"""User-facing sentences as data: an English template and its arguments.

Lower layers (index, engine) must not know the interface language, yet what they tell the
user ("702.19 in the 2011-02-04 rules is Banding; today that is 702.22.") should read German
to a German reader. So they return a `Message`: its ``id`` is the English template, which is
also the key in the CLI's gettext catalog (``cli/locale``), and ``str()`` gives the English
sentence for ``--json`` and logs. An argument may itself be a Message ("the {version} rules"),
translated the same way. `N_` marks a template for extraction (``tools/i18n.py``) and returns
it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

Arg = Union[str, "Message"]


def N_(template: str) -> str:
    """Mark `template` for the message catalog; it is translated where it is shown."""
    return template


@dataclass(frozen=True)
class Message:
    """One sentence: ``Message(N_("{number} is {title}."), (("number", "702.19"), ...))``."""

    id: str
    args: tuple[tuple[str, Arg], ...] = ()

    def __str__(self) -> str:
        return self.id.format(**{k: str(v) for k, v in self.args})

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id,
                "args": {k: v.to_dict() if isinstance(v, Message) else v for k, v in self.args}}


def msg(template: str, **args: Arg) -> Message:
    return Message(template, tuple(args.items()))
