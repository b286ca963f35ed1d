"""The interface language: which one the reader asked for, and its gettext catalog.

Labels, messages and ``--help`` are English in the code and German in
``cli/locale/de/LC_MESSAGES/regelwerk.mo`` (compiled from the ``.po`` beside it by
``tools/i18n.py``, which uses Babel; at run time only the stdlib ``gettext`` loads, so ``rule``
stays fast). The language is decided once per process, before typer builds the help:
``--lang de`` on the command line, else ``REGELWERK_LANG``, else a German locale
(``LC_ALL``/``LC_MESSAGES``/``LANG`` = ``de_*``). English is the default; ``--lang both``
(German beside English) leaves the interface to the environment.

Code marks a user-facing string with ``_()`` (``ngettext`` for counts); a string that must be
defined before the language is known (a typer help text) is marked with ``N_()`` and
translated when the command tree is localised (`localize`).
"""

from __future__ import annotations

import functools
import gettext
import os
import sys
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

DOMAIN = "regelwerk"
#: Interface languages with a catalog (English is the source language and needs none).
INTERFACE = ("en", "de")
#: What ``--lang`` accepts: the reader's language, or both side by side.
READER = ("en", "de", "both")
#: Locale variables in the order gettext itself consults them.
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")

_state: dict[str, str] = {}


def detect(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The interface language for this command line and environment ("en" or "de")."""
    asked = _lang_option(argv)
    if asked in INTERFACE:
        return asked
    env = environ.get("REGELWERK_LANG", "").strip().lower()
    if env in INTERFACE:
        return env
    for var in LOCALE_VARS:
        value = environ.get(var, "")
        if value:  # the first variable that is set decides, as in gettext
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def _lang_option(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang X`` / ``--lang=X`` before a ``--`` (None if absent)."""
    found = None
    args = list(argv)
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found.strip().lower() if found else None


def use(lang: str) -> None:
    """Set the interface language for the rest of the process."""
    _state["lang"] = lang if lang in INTERFACE else "en"


def current() -> str:
    """The interface language; decided from ``sys.argv`` and the environment on first use."""
    if "lang" not in _state:
        use(detect(sys.argv[1:], os.environ))
    return _state["lang"]


@functools.cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (NullTranslations for English or a missing catalog)."""
    if lang == "en":
        return gettext.NullTranslations()
    entry = resources.files("regelwerk.cli") / "locale"
    with resources.as_file(entry) as localedir:
        return gettext.translation(DOMAIN, localedir=str(localedir), languages=[lang], fallback=True)


def _(message: str) -> str:
    """`message` in the interface language."""
    return catalog(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the interface language, told apart from the same English word elsewhere by
    `context` (a column header "rules" may be shortened where the word may not)."""
    return catalog(current()).pgettext(context, message)


def N_(message: str) -> str:
    """Mark `message` for extraction only; it is translated where it is shown."""
    return message


def localize(command: Any, lang: str | None = None) -> Any:
    """Translate a click command tree's help texts in place (typer builds them in English).

    Walks groups and their subcommands: ``help``, ``short_help``, ``epilog`` and every
    parameter's ``help``. Returns the command, for chaining.
    """
    t = catalog(lang or current())
    seen: set[int] = set()

    def walk(cmd: Any) -> None:
        if id(cmd) in seen:
            return
        seen.add(id(cmd))
        for attr in ("help", "short_help", "epilog", "options_metavar", "subcommand_metavar"):
            text = getattr(cmd, attr, None)
            if isinstance(text, str) and text:
                setattr(cmd, attr, _lookup(t, text))
        help_option = _help_option(cmd)
        for param in (*getattr(cmd, "params", ()), *([help_option] if help_option else [])):
            text = getattr(param, "help", None)
            if isinstance(text, str) and text:
                param.help = _lookup(t, text)
        for sub in getattr(cmd, "commands", {}).values():
            walk(sub)

    walk(command)
    return command


def _help_option(cmd: Any) -> Any:
    """The command's ``--help`` option, which click makes (and caches) on first use with an
    English help text of its own; made here so that its text is translated too."""
    from types import SimpleNamespace

    getter = getattr(cmd, "get_help_option", None)
    if getter is None:
        return None
    names = getattr(cmd, "context_settings", {}).get("help_option_names", ["--help"])
    return getter(SimpleNamespace(help_option_names=names))


def _lookup(t: gettext.NullTranslations, text: str) -> str:
    """A help text's translation; docstrings are looked up by their cleaned form."""
    import inspect

    clean = inspect.cleandoc(text)
    translated = t.gettext(clean)
    return text if translated == clean else translated


def install_for_typer(lang: str | None = None) -> None:
    """Let typer's own words ("Options", "Commands", "required") follow the language.

    typer looks them up with the stdlib's module-level ``gettext`` (``typer.core._``), which
    reads the process locale; pointing that name at our catalog makes them follow ``--lang``
    without touching the environment. Our catalog carries German for them (tools/i18n.py).
    """
    import typer.core
    from typer._click.core import Context
    from typer._click.formatting import HelpFormatter

    t = catalog(lang or current())
    typer.core._ = t.gettext  # type: ignore[attr-defined]

    class Formatter(HelpFormatter):
        """click writes a fixed English "Usage: " before each usage line; this one asks the
        catalog (the same for every command, so it is set on click's Context class)."""

        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, t.gettext("Usage: ") if prefix is None else prefix)

    Context.formatter_class = Formatter


def message(data: Any, lang: str | None = None) -> str:
    """A ``Message.to_dict()`` (``{"id": template, "args": {...}}``) in the interface language
    (or `lang`: a web page's); arguments that are messages themselves are translated too. A
    plain string is shown as it is."""
    if isinstance(data, str):
        return data
    args = {k: message(v, lang) if isinstance(v, dict) else str(v) for k, v in data.get("args", {}).items()}
    return catalog(lang or current()).gettext(str(data["id"])).format(**args)


def text(found: Any, lang: str | None = None) -> str:
    """A `Message` (or a plain string) in the interface language (or `lang`)."""
    to_dict = getattr(found, "to_dict", None)
    return message(to_dict(), lang) if callable(to_dict) else str(found)


def error(exc: BaseException, lang: str | None = None) -> str:
    """An error's sentence in the interface language (or `lang`): its `Message` where it
    carries one."""
    found = getattr(exc, "message", None)
    return text(found, lang) if found is not None else str(exc)


#: click's own usage messages (typer vendors click without gettext), as templates whose German
#: the catalog carries; `usage_message` recognises a message by its template and translates it.
CLICK_MESSAGES = (
    N_("No such option: {option}"),
    N_("No such option: {option} (Possible options: {options})"),
    N_("Missing argument {name}."),
    N_("Missing option {name}."),
    N_("Missing parameter: {name}"),
    N_("Invalid value for {name}: {problem}"),
    N_("Invalid value: {problem}"),
    N_("Got unexpected extra argument ({args})"),
    N_("Got unexpected extra arguments ({args})"),
    N_("Option {name} requires an argument."),
    N_("Option {name} requires {n} arguments."),
    N_("Option {name} does not take a value."),
    N_("Argument {name} takes {n} values."),
    N_("{value!r} is not a valid {kind}."),
    N_("{value!r} is not one of {choices}."),
)


@functools.cache
def _click_patterns() -> tuple[tuple[Any, str], ...]:
    import re

    out = []
    for template in CLICK_MESSAGES:
        parts = re.split(r"(\{\w+(?:!r)?\})", template)
        regex = "".join(
            f"(?P<{p.strip('{}').removesuffix('!r')}>.+?)" if p.startswith("{") else re.escape(p)
            for p in parts
        )
        out.append((re.compile(f"^{regex}$", re.DOTALL), template))
    return tuple(out)


def usage_message(english: str) -> str:
    """click's English usage message in the interface language (as it is when unknown).

    An argument quoted with ``!r`` in the template keeps its quotes, so the German template
    quotes it the same way."""
    if current() == "en":
        return english
    extra = english.partition("Got unexpected extra argument(s) (")[2]
    if extra:  # click says "argument(s)"; German needs the number
        english = f"Got unexpected extra argument{'s' * (' ' in extra)} ({extra}"
    for pattern, template in _click_patterns():
        m = pattern.match(english)
        if m:
            args = {k: v for k, v in m.groupdict().items()}
            german = _(template).replace("!r}", "}")
            return german.format(**{k: usage_message(v) if k == "problem" else v for k, v in args.items()})
    return english


def messages_or_notes(
    data: dict[str, Any], lang: str | None = None, wording: Mapping[str, str] | None = None
) -> list[str]:
    """The notes of a facade payload in the interface language (or `lang`: a web page's), from
    its ``messages`` if it has them, their document ids and language codes in words
    (`regelwerk.cli.notes`); `wording` maps a message's id to the one to say instead (a page's
    words for a note that speaks of a command-line option)."""
    found = data.get("messages")
    if found and len(found) == len(data.get("notes", ())):
        from regelwerk.cli.notes import in_words

        say = wording or {}
        said = [{**m, "id": say.get(str(m.get("id")), m.get("id"))} if isinstance(m, dict) else m
                for m in found]
        return [message(in_words(m), lang) for m in said]
    return [str(n) for n in data.get("notes", ())]
