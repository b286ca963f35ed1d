"""Render narration events as German or English sentences, judge style.

Templates live in ``messages.py``. A placeholder names a parameter and, for German, a case:
``{attacker:gen}`` renders "des Tatzelwurms", ``{player}`` renders "Susanne"; ``{n:pl:Punkt:Punkte}``
picks singular or plural. Lists of names become "A, B und C" / "A, B and C". Articles are
German grammar, not data: each card carries its genus ("m", "f", "n", "pl", or "name" for
proper names without article) and may override irregular forms (weak nouns like "Held").
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from regelwerk.engine.errors import IllegalAction
from regelwerk.engine.events import Event, Label, Ref, Share
from regelwerk.engine.messages import MESSAGES, keyword_de
from regelwerk.engine.rulebook import RuleBook
from regelwerk.engine.state import Game

LANGS = ("de", "en")

_ARTICLES = {
    "m": {"nom": "der", "acc": "den", "dat": "dem", "gen": "des"},
    "f": {"nom": "die", "acc": "die", "dat": "der", "gen": "der"},
    "n": {"nom": "das", "acc": "das", "dat": "dem", "gen": "des"},
    "pl": {"nom": "die", "acc": "die", "dat": "den", "gen": "der"},
}
_CASES = ("nom", "acc", "dat", "gen")
# After these words a German name's head noun is its first word ("Herold der Qualen").
_POSTMODIFIERS = (" der ", " des ", " aus ", " von ", " vom ", " am ", ", ")


@dataclass(frozen=True)
class Name:
    """How to say one card's or player's name in both languages."""

    de: str
    en: str
    genus: str = "name"
    forms_de: tuple[tuple[str, str], ...] = ()
    pronoun_de: str = ""
    pronoun_en: str = ""

    def german(self, case: str) -> str:
        forms = dict(self.forms_de)
        if self.genus == "name":
            if case == "gen":
                return forms.get("gen", f"von {self.de}")
            return self.de
        noun = forms.get(case) or (self._genitive() if case == "gen" else self.de)
        return f"{_ARTICLES[self.genus][case]} {noun}"

    def _genitive(self) -> str:
        if self.genus not in ("m", "n"):
            return self.de
        head, rest = self.de, ""
        for sep in _POSTMODIFIERS:
            if sep in self.de:
                i = self.de.index(sep)
                head, rest = self.de[:i], self.de[i:]
                break
        if head.endswith(("s", "ß", "x", "z")):
            return self.de
        return f"{head}s{rest}"


def names_of(game: Game) -> dict[str, Name]:
    """Names for every card and player; identical names get "(A)", "(B)" so a trace is clear."""
    out: dict[str, Name] = {
        p.id: Name(p.name, p.name, pronoun_de=p.pronoun_de, pronoun_en=p.pronoun_en)
        for p in game.players.values()
    }
    seen = Counter(c.spec.name_en for c in game.cards.values())
    index: Counter[str] = Counter()
    for c in game.cards.values():
        suffix = ""
        if c.token and seen[c.spec.name_en] > 1:
            suffix = f" {c.id.rsplit('-', 1)[-1]}"
        elif seen[c.spec.name_en] > 1:
            suffix = f" ({'ABCDEFGHIJ'[index[c.spec.name_en]]})"
            index[c.spec.name_en] += 1
        forms = tuple((k, v + suffix) for k, v in c.spec.forms_de)
        out[c.id] = Name(c.spec.name_de + suffix, c.spec.name_en + suffix, c.spec.genus, forms)
    return out


class _Formatter(string.Formatter):
    def __init__(self, lang: str, names: Mapping[str, Name]) -> None:
        self.lang = lang
        self.names = names

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Ref):
            return self._name(value, format_spec)
        if isinstance(value, Label):
            return value.de if self.lang == "de" else value.en
        if isinstance(value, Share):
            who = self._name(Ref(value.target), "acc")
            return f"{value.n} auf {who}" if self.lang == "de" else f"{value.n} to {who}"
        if isinstance(value, list | tuple) and all(isinstance(v, Ref | Label | Share) for v in value):
            return self._join([self.format_field(v, format_spec) for v in value])
        if isinstance(value, int) and format_spec.startswith("pl:"):
            _, one, many = format_spec.split(":")
            return f"{value} {one if value == 1 else many}"
        if isinstance(value, str) and format_spec == "kw":
            return keyword_de(value) if self.lang == "de" else value
        return super().format_field(value, format_spec)

    def _name(self, ref: Ref, spec: str) -> str:
        name = self.names.get(ref.id, Name(ref.id, ref.id))
        if spec.startswith("v:"):  # a German verb agreeing with the name: {card:v:fügt:fügen}
            _, one, many = spec.split(":")
            return many if name.genus == "pl" else one
        if spec == "pro":
            pronoun = name.pronoun_de if self.lang == "de" else name.pronoun_en
            return pronoun or (name.de if self.lang == "de" else name.en)
        if self.lang == "en":
            return f"{name.en}’s" if spec == "poss" else name.en
        case = spec.lower() if spec.lower() in _CASES else "nom"
        text = name.german(case)
        return text[0].upper() + text[1:] if spec[:1].isupper() else text

    def _join(self, parts: list[str]) -> str:
        if not parts:
            return "—"
        if len(parts) == 1:
            return parts[0]
        word = " und " if self.lang == "de" else " and "
        return ", ".join(parts[:-1]) + word + parts[-1]


def render(event: Event, lang: str, names: Mapping[str, Name]) -> str:
    """One sentence for one event; unknown keys are a bug and raise KeyError."""
    template = MESSAGES[event.key][0 if lang == "de" else 1]
    text: str = _Formatter(lang, names).format(template, **event.params)
    return text


def rule_title(rulebook: RuleBook, rule: str, lang: str) -> str | None:
    """German titles fall back to English: there is no German CR to take them from."""
    return rulebook.title(rule, lang) or (rulebook.title(rule, "en") if lang != "en" else None)


def illegal(game: Game, rule: str, key: str, **params: Any) -> IllegalAction:
    """Build the IllegalAction for a refused action, its message in English."""
    text = render(Event(rule, key, params), "en", names_of(game))
    return IllegalAction(rule, text, key, params)
