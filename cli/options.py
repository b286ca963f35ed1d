"""The one options helper: every read command takes ``--json`` and ``--lang`` from here.

``--lang`` has one meaning everywhere: **the language the reader reads**, ``de`` or ``en``.
Each command shows what it has in that language: ``rule`` the rule's text from a document in
that language, ``search`` the hits in that language, ``term`` its labels and explanations,
``example run`` its narration, ``example list`` the scenario titles. Not given, each command
shows what suits both readers: ``search`` and ``example list`` both languages, ``rule`` the
newest (English) release, ``term`` English labels, ``example run`` German narration (the worked
examples come from German rules material). Interface text in the reader's language hangs on the
same value.
"""

from __future__ import annotations

from typing import Annotated

import typer

#: The languages a reader can choose.
LANGUAGES = ("en", "de")

LANG_HELP = (
    "The language you read: de or en. Rule text, hits, labels and narration are shown in it "
    "where regelwerk has them."
)


def _check_lang(value: str | None) -> str | None:
    if value is not None and value not in LANGUAGES:
        from regelwerk.cli.i18n import _

        raise typer.BadParameter(_("{value!r} is not supported; use 'en' or 'de'").format(value=value))
    return value


JsonOption = Annotated[
    bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")
]
LangOption = Annotated[
    str | None, typer.Option("--lang", help=LANG_HELP, callback=_check_lang, show_default=False)
]


def _check_lang_both(value: str | None) -> str | None:
    if value is not None and value not in (*LANGUAGES, "both"):
        from regelwerk.cli.i18n import _

        problem = _("{value!r} is not supported; use 'en', 'de' or 'both'")
        raise typer.BadParameter(problem.format(value=value))
    return value


#: ``--lang`` of commands that can also show both languages side by side (``rule``).
LangBothOption = Annotated[
    str | None,
    typer.Option(
        "--lang", callback=_check_lang_both, show_default=False,
        help=LANG_HELP + " both: German and English side by side where both exist.",
    ),
]
