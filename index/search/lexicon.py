"""The German-English rules lexicon (``data/lexicon/*.tsv``), read lazily.

Built by ``tools/build_lexicon.py`` from the MTGJSON parallel corpus (German card text beside
the English) plus the term tables; see ``data/lexicon/README.md`` for source and counts. It
holds three things:

- ``translation``: German lemma (or term-table phrase) -> English lemma with a probability
  (IBM Model 1 and eflomal averaged, on the card corpus; 1.0 for term-table entries);
- ``form``: German surface form -> lemma, simplemma's dictionary for every lemma the
  lexicon translates, so a query word finds its lemma by one indexed lookup;
- ``meta``: the build's counts and date.

Everything is folded (`regelwerk.ingest.fold`: ü = ue = u, ß = ss) and lower case, but for the
few words whose umlaut spelling is another word than the bare one ("zählt": count, "zahlt":
pay): those are keyed by `umlaut_fold` too ("zählt", "zaehlt" -> "zählt"), so a word typed
with its umlaut reads as itself and one typed without reads as it always did (`Lexicon.key`). It ships as
sorted text tables, compiled once into an SQLite file under the home (`lexicon_tables`); that
file is opened read-only on the first German query and queried per word: nothing is parsed at
start, and a command that never translates never opens it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from regelwerk.index.terms.function_words import function_words
from regelwerk.ingest.model.fold import fold, umlaut_fold

if TYPE_CHECKING:
    import sqlite3
    from importlib.resources.abc import Traversable

#: Compound parts shorter than this are not split off ("ab", "an" would split anything).
MIN_PART = 3
#: Linking elements between compound parts ("Kampf-s-schritt" is not one, "Lebens-punkt" is).
LINKS = ("", "s", "es", "n", "en", "e")
_STOPS = function_words("de", "stop", folded=True)


@dataclass(frozen=True)
class Translation:
    en: str
    p: float
    #: "mtgjson" (learned), "terms" (term tables, glossary heads), "words" (words.tsv),
    #: "cr" (cr_words.tsv: the German for the CR's own words), "cards" (the names the cards'
    #: type, keyword and counter lines print in the English name's slot)
    source: str


class Lexicon:
    """Lookups in one compiled lexicon (a file's path, opened read-only, or an open database);
    cheap to keep for a whole process."""

    def __init__(self, source: str | sqlite3.Connection) -> None:
        import sqlite3  # not at import: `rule` and number searches never open the lexicon

        if isinstance(source, sqlite3.Connection):
            self._db = source
        else:
            uri = f"{Path(source).absolute().as_uri()}?mode=ro&immutable=1"
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        self._lemmas: dict[str, str] = {}
        self._keys: dict[str, str] = {}
        self._trans: dict[str, tuple[Translation, ...]] = {}
        self._splits: dict[str, tuple[str, ...]] = {}
        self._forms: dict[str, list[str]] | None = None
        self._starts: dict[str, tuple[int, ...]] | None = None

    def key(self, word: str) -> str:
        """A German word's key in the tables: its `umlaut_fold` if the word has an umlaut (or
        ae, oe, ue) and the tables hold that key (a form whose bare spelling is another word:
        "zählt", "ändere"), else its `fold`. A word typed without the umlaut is keyed as ever."""
        folded = fold(word)
        kept = umlaut_fold(word)
        if fold(kept) == kept:  # no umlaut in it: the common case, no lookup
            return folded
        found = self._keys.get(kept)
        if found is None:
            row = self._db.execute(
                "SELECT 1 FROM form WHERE form = ? UNION ALL SELECT 1 FROM translation WHERE de = ? LIMIT 1",
                (kept, kept),
            ).fetchone()
            found = self._keys[kept] = kept if row else folded
        return found

    def lemma(self, word: str) -> str:
        """The lemma of a German word, as the tables key it (itself when the lexicon knows no
        other)."""
        key = self.key(word)
        found = self._lemmas.get(key)
        if found is None:
            row = self._db.execute("SELECT lemma FROM form WHERE form = ?", (key,)).fetchone()
            found = self._lemmas[key] = row[0] if row else key
        return found

    def translations(self, lemma: str) -> tuple[Translation, ...]:
        """English translations of a folded German lemma or phrase, most probable first."""
        found = self._trans.get(lemma)
        if found is None:
            rows = self._db.execute(
                "SELECT en, p, source FROM translation WHERE de = ? ORDER BY p DESC, en", (lemma,)
            ).fetchall()
            found = self._trans[lemma] = tuple(Translation(en, float(p), src) for en, p, src in rows)
        return found

    def phrase_starts(self) -> dict[str, tuple[int, ...]]:
        """The first words of the lexicon's phrases ("ins" of "ins spiel kommen", "aus" of "aus
        dem spiel entfernen") with the lengths of the phrases each begins, longest first; read
        once: a query word that begins none needs no phrase lookup."""
        if self._starts is None:
            rows = self._db.execute("SELECT DISTINCT de FROM translation WHERE de LIKE '% %'").fetchall()
            lengths: dict[str, set[int]] = {}
            for (de,) in rows:
                words = de.split()
                lengths.setdefault(words[0], set()).add(len(words))
            self._starts = {w: tuple(sorted(n, reverse=True)) for w, n in lengths.items()}
        return self._starts

    def knows(self, word: str) -> bool:
        return bool(self.translations(self.lemma(word)))

    def split(self, word: str) -> tuple[str, ...]:
        """The lemmas of a German compound's parts, each one the lexicon translates, or ().

        "Kampfschadensschritt" -> (kampfschaden, schritt); fewest parts win, then the longer
        head. A word the lexicon knows whole is not split.
        """
        key = fold(word)
        found = self._splits.get(key)
        if found is None and self.knows(key):
            found = self._splits[key] = ()
        if found is None:
            best = self._split(key, 0)
            found = self._splits[key] = tuple(best) if best and len(best) > 1 else ()
        return found

    def _split(self, rest: str, depth: int) -> list[str] | None:
        if depth and self._part(rest):
            return [self._key(rest)]
        if depth > 3:
            return None
        best: list[str] | None = None
        for cut in range(len(rest) - MIN_PART, MIN_PART - 1, -1):
            head = rest[:cut]
            if not self._part(head, True):
                continue
            # a head read with its dropped e before a part that starts with e is a participle
            # ("Dröhn-ende": dröhnend, no "Drohne")
            elided = self._key(head, True) != self._key(head)
            for link in LINKS:
                if not rest[cut:].startswith(link) or len(rest) - cut - len(link) < MIN_PART:
                    continue
                if elided and rest[cut + len(link)] == "e":
                    continue
                tail = self._split(rest[cut + len(link) :], depth + 1)
                if tail and (best is None or len(tail) + 1 < len(best)):
                    best = [self._key(head, True), *tail]
            if best is not None and len(best) == 2:
                break
        return best

    def _part(self, word: str, head: bool = False) -> bool:
        """Can `word` be a compound's part? Not a function word the lexicon translates for
        questions ("nach": after, "zwischen": between): "Nachziehen" is no "after draw"."""
        return len(word) >= MIN_PART and word not in _STOPS and bool(self.translations(self._key(word, head)))

    def _key(self, part: str, head: bool = False) -> str:
        """A compound part's entry: the part itself if the lexicon translates it ("kampf":
        combat), else its lemma (a verb stem's lemma would read "kampf" as "kämpfen": fight);
        a `head` (a part before another) may also be a noun that drops its final e there
        ("Farb-paar": farbe), a last part never ("zug-leich" is no "leiche")."""
        if self.translations(part):
            return part
        lemma = self.lemma(part)
        if head and not self.translations(lemma) and self.translations(part + "e"):
            return part + "e"
        return lemma

    def correct(self, word: str) -> str | None:
        """The German form the lexicon knows that `word` is a typo of, or None.

        Same first letter, at least five letters, and one edit (two from nine letters on):
        German has many short words an edit apart ("Wort", "Wert"), so this is stricter than
        the index's own spelling correction. "Spielstien" -> spielstein, "Friedhoff" ->
        friedhof. The forms are read on the first typo only (a few thousand short strings).
        """
        key = fold(word)
        if len(key) < 5 or key.isdigit() or self.knows(key):
            return None
        if self._forms is None:
            rows = self._db.execute("SELECT form FROM form UNION SELECT de FROM translation").fetchall()
            self._forms = {}
            for (form,) in rows:
                if " " not in form and fold(form) == form:  # not the umlaut keys: `word` is folded
                    self._forms.setdefault(form[:1], []).append(form)
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        limit = 1 if len(key) < 9 else 2
        found = process.extractOne(key, self._forms.get(key[:1], []), scorer=OSA.distance, score_cutoff=limit)
        return None if found is None else str(found[0])

    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta").fetchall())


@functools.cache
def lexicon() -> Lexicon | None:
    """The shipped lexicon, or None if its tables are missing (then German is not translated):
    compiled into the home on first use, or in memory where the home cannot be written."""
    from regelwerk.index.store.home import home_dir

    return load(resources.files("regelwerk.data") / "lexicon", home_dir())


def load(folder: Traversable | Path, home: Path) -> Lexicon | None:
    """The lexicon of the tables in `folder`, compiled under `home` (`lexicon_tables.compiled`),
    or None if a table is missing."""
    import sqlite3

    from regelwerk.index.search import lexicon_tables

    data = lexicon_tables.read_tables(folder)
    if data is None:
        return None
    source = lexicon_tables.compiled(data, home)
    try:
        return Lexicon(source)
    except sqlite3.Error:  # the file went between the check and the open (pruned by another version)
        return Lexicon(lexicon_tables.compile_tables(data))


__all__ = ["Lexicon", "Translation", "lexicon", "load"]
