"""Render narration events as German or English sentences, judge style.

Templates live in the narration catalogs
(``catalog.py``, data/narration/*.toml). A placeholder names a parameter and, for German, a case:
``{attacker:gen}`` renders "des Tatzelwurms", ``{player}`` renders "Susanne"; ``{n:pl:Punkt:Punkte}``
picks singular or plural. Lists of names become "A, B und C" / "A, B and C". Articles are
German grammar, not data: each card carries its genus ("m", "f", "n", "pl", or "name" for
proper names without article) and may override irregular forms (weak nouns like "Held").
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from regelwerk.engine.catalog import message, phrase, title_glosses
from regelwerk.engine.errors import IllegalAction
from regelwerk.engine.events import Event, Label, Ref, Share
from regelwerk.engine.keyword_names import keyword_de
from regelwerk.engine.model import CardSpec
from regelwerk.engine.rulebook import RuleBook
from regelwerk.engine.state import Game
from regelwerk.ingest.model.fold import compact

LANGS = ("de", "en")

_ARTICLES = {
    "m": {"nom": "der", "acc": "den", "dat": "dem", "gen": "des"},
    "f": {"nom": "die", "acc": "die", "dat": "der", "gen": "der"},
    "n": {"nom": "das", "acc": "das", "dat": "dem", "gen": "des"},
    "pl": {"nom": "die", "acc": "die", "dat": "den", "gen": "der"},
}
#: Personal pronouns by genus: {card:pn} "er", {card:pa} "ihn", {card:pd} "ihm".
_PRONOUNS = {
    "m": {"pn": "er", "pa": "ihn", "pd": "ihm"},
    "f": {"pn": "sie", "pa": "sie", "pd": "ihr"},
    "n": {"pn": "es", "pa": "es", "pd": "ihm"},
    "pl": {"pn": "sie", "pa": "sie", "pd": "ihnen"},
}
_CASES = ("nom", "acc", "dat", "gen")
_DATIVE = {"er": "ihm", "sie": "ihr"}


def _von(dative: str) -> str:
    """ "von" before a dative: "von dem" contracts to "vom" (Duden: vom + masculine/neuter)."""
    return "vom " + dative[4:] if dative.startswith("dem ") else f"von {dative}"


# A player's possessive determiner before a feminine noun in nominative or accusative
# ("seine Bibliothek"), and its English counterpart.
_OWN_DE = {"er": "seine", "sie": "ihre"}
_OWN_EN = {"he": "his", "she": "her", "they": "their"}
# After these words a German name's head noun is its first word ("Herold der Qualen").
_POSTMODIFIERS = (" der ", " des ", " aus ", " von ", " vom ", " am ", ", ")


def number_word(n: int, lang: str) -> str:
    """Small numbers in prose are words ("zwei andere Kreaturen"); larger ones stay digits."""
    words = phrase("words", "numbers", lang)
    return words[n] if 0 <= n < len(words) else str(n)


@dataclass(frozen=True)
class Name:
    """How to say one card's or player's name in both languages.

    ``suffix`` tells identical names apart ("(A)", "1"); it follows the declined German form,
    so the genitive is "des Mönchs 1", not "des Mönch 1s".
    """

    de: str
    en: str
    genus: str = "name"
    forms_de: tuple[tuple[str, str], ...] = ()
    pronoun_de: str = ""
    pronoun_en: str = ""
    suffix: str = ""
    genitive: str = ""  # a spell named without article keeps it in the genitive: "des Kenterns"

    @property
    def full_de(self) -> str:
        return self.de + self.suffix

    @property
    def full_en(self) -> str:
        return self.en.replace("'", "’") + self.suffix

    def german(self, case: str) -> str:
        forms = dict(self.forms_de)
        if self.genus == "name" and case == "gen" and self.genitive:
            return Name(self.de, self.en, self.genitive, self.forms_de, suffix=self.suffix).german("gen")
        if self.genus == "name":
            # a proper name with a declined part: "mit Dromoka der Ewigen", "von Dromoka der Ewigen"
            dat = forms.get("dat") if not self.genitive else None
            if case == "gen":
                return forms["gen"] + self.suffix if "gen" in forms else f"von {dat or self.de}{self.suffix}"
            return f"{dat}{self.suffix}" if case == "dat" and dat else self.full_de
        noun = forms.get(case) or (self._genitive() if case == "gen" else self.de)
        return f"{_ARTICLES[self.genus][case]} {noun}{self.suffix}"

    def german_possessive(self) -> str:
        """A name before a noun: "Roberts Friedhof", "Klaus’ Friedhof"; others take the genitive."""
        if self.genus != "name":
            return self.german("gen")
        return f"{self.full_de}’" if self.full_de.endswith(("s", "ß", "x", "z")) else f"{self.full_de}s"

    def english_possessive(self) -> str:
        """ "Robert’s", but "Kitchen Finks’" for a name ending in s."""
        full = self.full_en
        return f"{full}’" if full.endswith("s") else f"{full}’s"

    def pronoun(self, spec: str) -> str:
        """{card:pn}/{card:pa}/{card:pd}: "er"/"ihn"/"ihm"; proper names repeat themselves."""
        if self.genus in _PRONOUNS:
            return _PRONOUNS[self.genus][spec]
        return self.german("dat" if spec == "pd" else "nom")

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


_TOKEN_ID = re.compile(r"-(\d+)$")


def names_of(game: Game) -> dict[str, Name]:
    """Names for every card and player; identical names get "(A)", "(B)" (tokens their number)
    so a trace is clear."""
    out: dict[str, Name] = {
        p.id: Name(p.name, p.name, pronoun_de=p.pronoun_de, pronoun_en=p.pronoun_en)
        for p in game.players.values()
    }
    seen = Counter(c.spec.name_en for c in game.cards.values())
    index: Counter[str] = Counter()
    for c in game.cards.values():
        suffix = ""
        serial = _TOKEN_ID.search(c.id)
        if c.token and serial and seen[c.spec.name_en] > 1:
            suffix = f" {serial.group(1)}"
        elif seen[c.spec.name_en] > 1:
            suffix = f" ({'ABCDEFGHIJ'[index[c.spec.name_en]]})"
            index[c.spec.name_en] += 1
        genus = _genus(c.spec)
        article = c.spec.genus if genus != c.spec.genus else ""
        out[c.id] = Name(
            c.spec.name_de, c.spec.name_en, genus, _forms(c.spec), suffix=suffix, genitive=article
        )
    return out


def _genus(spec: CardSpec) -> str:
    """Instants and sorceries are named without article in German ("Robert wirkt Kentern",
    "Kentern wird verrechnet"), as card text and judges do, except in the genitive ("die
    Rückkaufkosten des Kenterns", "die Fähigkeit der Traumatischen Visionen"); other cards by
    their genus."""
    if "Instant" in spec.types or "Sorcery" in spec.types:
        return "name"
    return spec.genus


def _forms(spec: CardSpec) -> tuple[tuple[str, str], ...]:
    return tuple((case, spec.form_de(case)) for case in _CASES if spec.form_de(case))


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Formatter(string.Formatter):
    """Format specs (after the colon):

    - cards and players: ``nom``/``acc``/``dat``/``gen`` (German case; capitalised ``Nom``
      starts a sentence), ``poss`` ("Roberts" / "Robert’s"), ``their`` ("seine Bibliothek" /
      "his library", from the player's pronoun), ``pn``/``pa``/``pd`` (German
      pronouns), ``pro`` (a player's pronoun), ``prd`` (a player's dative pronoun, "ihm"), ``von``
      (German "von" with the dative, "vom Tatzelwurm"), ``v:one:many`` (a verb agreeing with the name:
      German plural names and English lists of two or more take ``many``; on a list, ``n:one:many``
      counts its items instead of following grammar; ``or`` joins with "oder"), ``indef``
      (English "a Soldier"), ``title`` (after "wirkt": an instant or sorcery without article,
      "wirkt Kentern", any other card in the accusative, "wirkt die Küchenhutzel"), ``base``
      (the bare name for compounds, "Soldat-Spielstein") and
      ``tag`` (" (Soldat 1)" when names repeat);
    - numbers: ``pl:one:many`` ("1 Punkt", "3 Punkte"), ``wpl:one:many`` (one is the whole
      singular phrase, others become "zwei Punkte"), ``w`` (number word), ``v:one:many``;
    - labels: ``ability`` (English "persist ability" / "ability “gain 2 life”"), ``q`` (quoted).
    """

    def __init__(self, lang: str, names: Mapping[str, Name]) -> None:
        self.lang = lang
        self.names = names

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Ref):
            return self._name(value, format_spec)
        if isinstance(value, Label):
            return self._label(value, format_spec)
        if isinstance(value, Share):
            who = self._name(Ref(value.target), "acc")
            return str(phrase("words", "share", self.lang)).format(n=value.n, target=who)
        if isinstance(value, list | tuple) and all(isinstance(v, Ref | Label | Share) for v in value):
            if format_spec.startswith("v:"):  # grammatical number: "die Grizzlybären haben"
                _, one, many = format_spec.split(":")
                return many if self._plural(value) else one
            if format_spec.startswith("n:"):  # how many: "als Angreifer" for one or more
                _, one, many = format_spec.split(":")
                return many if len(value) != 1 else one
            word = "or" if format_spec == "or" else "and"
            parts = [self.format_field(v, "" if word == "or" else format_spec.lower()) for v in value]
            text = self._join(parts, word)
            return _capitalize(text) if format_spec[:1].isupper() else text
        if isinstance(value, int) and not isinstance(value, bool):
            return self._number(value, format_spec)
        if isinstance(value, str) and format_spec == "kw":
            return keyword_de(value) if self.lang == "de" else value
        return str(super().format_field(value, format_spec))

    def _plural(self, value: list[Any] | tuple[Any, ...]) -> bool:
        if len(value) != 1:
            return True
        only = value[0]
        if self.lang != "de" or not isinstance(only, Ref):
            return False
        return self.names.get(only.id, Name("", "")).genus == "pl"

    def _number(self, value: int, spec: str) -> str:
        if spec.startswith(("pl:", "wpl:", "v:")):
            kind, one, many = spec.split(":")
            if kind == "v":
                return one if value == 1 else many
            if kind == "pl":
                return f"{value} {one if value == 1 else many}"
            return one if value == 1 else f"{number_word(value, self.lang)} {many}"
        if spec == "w":
            return number_word(value, self.lang)
        return str(super().format_field(value, spec))

    def _label(self, label: Label, spec: str) -> str:
        text = label.de if self.lang == "de" else label.en
        if self.lang == "en":
            text = text.replace("'", "’")
            if spec == "ability":
                return f"{text} ability" if label.keyword else f"ability “{text}”"
            if spec == "q":
                return text if label.keyword else f"“{text}”"
            return text
        return f"„{text}“" if spec == "q" else text

    def _name(self, ref: Ref, spec: str) -> str:
        name = self.names.get(ref.id, Name(ref.id, ref.id))
        if spec.startswith("v:"):  # a verb agreeing with the name: {card:v:fügt:fügen}
            _, one, many = spec.split(":")
            return many if self.lang == "de" and name.genus == "pl" else one
        if spec == "pro":
            pronoun = name.pronoun_de if self.lang == "de" else name.pronoun_en
            return pronoun or (name.full_de if self.lang == "de" else name.full_en)
        if spec == "their":  # a player's own thing: "seine Bibliothek", "her library"
            pronoun = name.pronoun_de if self.lang == "de" else name.pronoun_en
            table = _OWN_DE if self.lang == "de" else _OWN_EN
            if pronoun in table:
                return table[pronoun]
            return name.german_possessive() if self.lang == "de" else name.english_possessive()
        if self.lang == "en":
            if spec == "poss":
                return name.english_possessive()
            if spec in ("pn", "pa", "pd", "Pn", "Pa", "Pd"):
                return "it" if spec.islower() else "It"
            if spec == "indef":
                base = name.en.replace("'", "’")
                return f"{'an' if base[:1].lower() in 'aeiou' else 'a'} {base}"
            if spec == "base":
                return name.en.replace("'", "’")
            if spec == "tag":
                return f" ({name.full_en})" if name.suffix else ""
            return name.full_en
        if spec == "poss":
            return name.german_possessive()
        if spec == "von":  # "vom Tatzelwurm", "von der Heldin", "von Tajic"
            return _von(name.german("dat"))
        if spec == "prd":  # a player's dative pronoun: "die ihm gehören"
            return _DATIVE.get(name.pronoun_de, name.full_de)
        if spec == "base":  # the bare name, for compounds: "Soldat-Spielstein"
            return name.de
        if spec == "title":  # after "wirkt": a spell card bare ("wirkt Kentern"), a permanent
            return name.german("acc")  # spell with its article ("wirkt den Himmlischen Archon")
        if spec == "tag":  # which one, when names repeat: " (Soldat 1)"
            return f" ({name.full_de})" if name.suffix else ""
        if spec.lower() in ("pn", "pa", "pd"):
            text = name.pronoun(spec.lower())
        elif spec == "indef":
            text = name.german("nom")
        else:
            case = spec.lower() if spec.lower() in _CASES else "nom"
            text = name.german(case)
        return _capitalize(text) if spec[:1].isupper() else text

    def _join(self, parts: list[str], word_key: str = "and") -> str:
        if not parts:
            return str(phrase("words", "none", self.lang))
        if len(parts) == 1:
            return parts[0]
        word = str(phrase("words", word_key, self.lang))
        return ", ".join(parts[:-1]) + word + parts[-1]


def _close_appositions(text: str, names: Mapping[str, Name], lang: str) -> str:
    """A name with a comma ("Tajic, Schwert der Legion") is an apposition: mid-sentence it is
    closed by a second comma before the sentence goes on ("Tajic, Schwert der Legion, greift an"),
    also before "und" ("Herr Meier, unser Nachbar, und seine Frau")."""
    for name in names.values():
        full = name.full_de if lang == "de" else name.full_en
        if ", " in full:
            text = re.sub(re.escape(full) + r"(?= [^\s(–-])", full + ",", text)
    return text


def render(event: Event, lang: str, names: Mapping[str, Name]) -> str:
    """One sentence for one event; unknown keys are a bug and raise KeyError."""
    template = message(event.key, lang)
    text: str = _Formatter(lang, names).format(template, **event.params)
    return _capitalize(_close_appositions(text, names, lang))


def rule_title(rulebook: RuleBook, rule: str, lang: str) -> str | None:
    """The title a step cites. English: the CR's. German: the English title with the official
    German name of the same heading or term beside it ("Banding · Bündnisfähigkeit"), since the CR a
    judge looks things up in is English; where no official German name is known, the English
    title with a German gloss marked as such ("Casting Spells, dt. etwa „Zaubersprüche wirken“",
    ``data/narration/glosses.tsv``), never an invented name. A title is a heading, so it starts
    with a capital even where the term table names a verb ("Resolve · Verrechnen")."""
    if lang == "en":
        title = rulebook.title(rule, lang)
        return _capitalize(title) if title else None
    en, de = rulebook.names(rule)
    if de:
        de = _capitalize(de)
        if en and compact(en) != compact(de):  # "Phasing" is Phasing in both
            return str(phrase("titles", "both", lang)).format(en=en, de=de)
        return de
    if en:
        gloss = title_glosses().get(en)
        return str(phrase("titles", "gloss", lang)).format(en=en, gloss=gloss) if gloss else en
    title = rulebook.title(rule, lang)  # a German document's own heading, if any
    return _capitalize(title) if title else None


def illegal(game: Game, rule: str, key: str, also: tuple[str, ...] = (), **params: Any) -> IllegalAction:
    """Build the IllegalAction for a refused action, its message in English; ``rule`` is the
    most specific rule that forbids it, ``also`` more general ones that forbid it too."""
    text = render(Event(rule, key, params), "en", names_of(game))
    return IllegalAction(rule, text, key, params, also)
