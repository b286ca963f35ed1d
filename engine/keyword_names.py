"""Keyword names in the narration: English as the engine writes them, German from the term table.

German keyword names come from ``data/terms/keywords.tsv`` only (read through the packaged
``regelwerk.data`` resources, not through ``regelwerk.index``): the engine and the reference
then never disagree. The table's ``de`` is the keyword as cards print it ("Fliegend"); running
text uses the noun of an adjective keyword where the table lists one ("erhält
Flugfähigkeit", "Unzerstörbarkeit"). Qualified forms ("Schutz vor", "Bündnis mit anderen",
"Sumpftarnung") are the table's variants that extend the name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from regelwerk.engine.catalog import has_phrase, phrase
from regelwerk.engine.events import Label

#: The term-table row of each keyword the engine implements that is not its own name.
_ROWS = {"protection from": "protection", "bands with other": "banding"}


@dataclass(frozen=True)
class GermanName:
    de: str
    variants: tuple[str, ...]

    @property
    def noun(self) -> str:
        """The name in running text: an adjective keyword's noun variant ("Flugfähigkeit")."""
        return next((v for v in self.variants if v.endswith("keit")), self.de)

    def extended(self) -> str:
        """The variant that extends the name, or its first part, by a word ("Schutz vor";
        "Bündnis mit anderen" of "Bündnisfähigkeit")."""
        return next((v for v in self.variants if " " in v and self.de.startswith(v.split()[0])), self.de)


@cache
def _table() -> dict[str, GermanName]:
    """English keyword name (lowercase) -> its German names, from data/terms/keywords.tsv."""
    text = resources.files("regelwerk.data").joinpath("terms", "keywords.tsv").read_text(encoding="utf-8")
    lines = text.splitlines()
    header = lines[0].split("\t")
    col = {name: i for i, name in enumerate(header)}
    out: dict[str, GermanName] = {}
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) < len(header) or not cells[col["de"]]:
            continue
        variants = tuple(v for v in cells[col["de_variants"]].split("|") if v)
        out.setdefault(cells[col["en"]].lower(), GermanName(cells[col["de"]], variants))
    return out


def german(name: str) -> GermanName | None:
    return _table().get(_ROWS.get(name, name))


def keyword_de(name: str) -> str:
    """German for a keyword string as the engine writes it ("protection from red", "bushido 1")."""
    found = german(name)
    if found is not None:
        return found.noun
    for prefix in ("protection from ", "bands with other "):
        if name.startswith(prefix):
            quality = name[len(prefix) :]
            base = german(prefix.strip())
            q = phrase("qualities", quality, "de") if has_phrase("qualities", quality) else quality
            return f"{base.extended()} {q}" if base else name
    if name.endswith("walk"):
        return _landwalk(name[:-4]) or name
    head, _, value = name.rpartition(" ")
    found = german(head)
    if found is not None and value.isdigit():
        return f"{found.noun} {value}"
    return name


def _landwalk(land: str) -> str | None:
    """ "Sumpftarnung": the table's landwalk variant that starts with the land's German stem."""
    row = german("landwalk")
    if row is None or not has_phrase("lands", land):
        return None
    stem = str(phrase("lands", land, "de"))[:4].lower()
    return next((v for v in row.variants if v.lower().startswith(stem)), None)


def kw_label(name: str) -> Label:
    """A keyword as the trace names it: German and English, narrated as a keyword ability."""
    return Label(keyword_de(name), name, keyword=True)


def counters_label(kind: str, n: int) -> Label:
    """ "eine +1/+1-Marke" / "a +1/+1 counter", "zwei Fliegend-Marken" / "two flying counters"."""
    return Label(_counters(kind, n, "de"), _counters(kind, n, "en"))


def _counters(kind: str, n: int, lang: str) -> str:
    """A keyword counter is named as German cards print it, the keyword line's form and
    "-Marke" ("Fliegend-Marke", Luminous Broodmoth, IKO); small numbers are words."""
    if has_phrase("counters", kind):
        one, many = phrase("counters", kind, lang)
    else:
        row = german(kind) if lang == "de" else None
        word = row.de if row is not None else (keyword_de(kind) if lang == "de" else kind)
        one, many = (t.format(keyword=word) for t in phrase("words", "keyword_counter", lang))
    if n == 1:
        return str(phrase("words", "counter_one", lang)).format(name=one)
    words = phrase("words", "numbers", lang)
    count = words[n] if 0 <= n < len(words) else str(n)
    return str(phrase("words", "counter_many", lang)).format(n=count, names=many)
