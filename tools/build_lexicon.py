"""Build the German-English rules lexicon (``data/lexicon/``) from the MTGJSON parallel corpus.

Not part of the installed package: run it from the repository root when the corpus or the
term tables change, then commit the result::

    python tools/build_lexicon.py MTGJSON_DIR CR_TXT

with ``MTGJSON_DIR`` = ``../shared/corpus/cards/mtgjson`` (147 sets with German printings) and
``CR_TXT`` = ``../shared/corpus/en/MagicCompRules-20260417.txt`` (the English vocabulary).

Why: a German question ("Was passiert mit Marken, wenn eine Kreatur die Zone wechselt") has
to reach English rule text, and the hand-made term tables know a few hundred words. German
cards print the same rules text as English ones, so ~34,000 printings are a parallel corpus
of exactly our language. This aligns it at the word level and keeps what the evidence says:

1. every card printing with German ``text``/``type`` (``foreignData``) is paired with its
   English text, line by line when both have the same number of lines; the card's own name
   is cut out of both sides (it aligns with nothing), and identical pairs count once;
2. both sides are tokenised and lemmatised with simplemma (German lemmas umlaut-folded, see
   ``regelwerk.ingest.fold``); stop words are dropped on both sides;
3. two aligners learn t(en | de) and t(de | en), and their tables are averaged (`train`):
   IBM Model 1 (EM, an empty word on the source side), and eflomal (Bayesian IBM1 + HMM +
   fertility, ``pip install eflomal``, a build-time tool), its two directions joined by
   grow-diag-final-and and the links counted; an entry German lemma -> English lemma is
   kept when t(en|de) >= MIN_P, the reverse t(de|en) >= MIN_REVERSE (both directions agree,
   which keeps precision), the German lemma occurs at least MIN_COUNT times, and the English
   lemma is a word of the Comprehensive Rules (translating into words no rule uses finds
   nothing);
4. the term tables (``data/terms/*.tsv``: the CR glossary heads and keywords with their
   German names, and the ordinary words of ``words.tsv``) are added as high-confidence
   entries (p = 1 for each English word of the name);
5. the names of types, keywords and counters that German printings put in the same slot of a
   type line, keyword line or counter line as the English ones (``card_slots``: "Kreatur —
   Elf, Krieger" / "Creature — Elf Warrior") are added as curated entries (source "cards",
   `add_slot_entries`) for German words no term table translates;
6. the forms of every German lemma kept are stored as a form table (the lemma the cards'
   own words were given first, then simplemma's dictionary forms, then for a word with
   neither the forms its last part lends, `head_forms`), so the runtime looks a query word's
   lemma up instead of loading simplemma's dictionary (three seconds) in a command that
   should start in a fifth of one. A curated phrase ending in a verb is keyed verb first too
   (`german_keys`: "ins Spiel kommen", "kommt ins Spiel").

The result is three sorted text tables (``meta.tsv``, ``translations.tsv``, ``forms.tsv``,
`regelwerk.index.search.lexicon_tables`: a rebuild's diff shows what it changed), which the
runtime compiles once into an SQLite file under the home (indexed lookups, nothing to parse at
start); ``README.md`` says source, command, date and counts.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "lexicon"

MIN_P = 0.08
MIN_REVERSE = 0.02
MIN_COUNT = 3
MAX_PER_WORD = 5
#: A German function word's learned translation is kept only at this probability both ways.
MARKER_P = 0.3
ITERATIONS = 8
#: A word's sense that only a phrase of the tables gives it counts this much alone
#: (`phrase_senses`: "Spiel" alone is the game, "im Spiel" the battlefield).
PHRASE_SENSE = 0.4
#: A line pair's content words' lemmas: (German, English).
Pairs = list[tuple[list[str], list[str]]]
#: (de, en) -> (p, source, p learned from the corpus or None)
Entries = dict[tuple[str, str], tuple[float, str, float | None]]

_WORD = re.compile(r"[^\W\d_]+")


def _stops() -> tuple[frozenset[str], frozenset[str]]:
    """German (folded) and English stop words: the search analyzers' own (one function-word table)."""
    from regelwerk.index.terms.function_words import function_words

    return function_words("de", "stop", folded=True), function_words("en", "stop")


def _markers() -> frozenset[str]:
    """German function words that are no stop words ("beim", "zuerst", "mehr", folded): only
    curated entries translate them; what the cards print beside them is no translation."""
    from regelwerk.index.terms.function_words import function_words

    return function_words("de", "marker", folded=True)


def german_keys(written: str, folding: Callable[[str], str] | None = None) -> list[str]:
    """The lexicon keys of a German name or phrase as a table writes it: its folded words, and
    for a phrase ending in a verb (an infinitive: German capitalises nouns, so a last word
    written in lower case ending in "n" is one) also the verb first, as a main clause orders
    it ("ins Spiel kommen" -> "kommen ins spiel": "die Kreatur kommt ins Spiel"; the reader
    matches each word by its lemma, so the infinitive stands for every form). `folding` is
    `fold` unless told (`umlaut_keys` reads the tables by `umlaut_fold`)."""
    from regelwerk.ingest.model.fold import fold as default

    fold = folding or default
    words = _WORD.findall(written)
    keys = [" ".join(fold(w.lower()) for w in words)] if words else []
    last = words[-1] if words else ""
    if len(words) >= 2 and last.islower() and last.endswith("n") and default(last) not in _stops()[0]:
        keys.append(" ".join(fold(w.lower()) for w in (words[-1], *words[:-1])))
    return keys


def printings(folder: Path) -> Iterator[tuple[str, str, str, str]]:
    """``(English name, German name, English text, German text)`` of every German printing,
    type lines included (as a second pair with empty names). The set files are read by
    `printings.german_printings`, the one reader of the tools."""
    from printings import german_printings

    for _, card, f in german_printings(folder):
        if card.get("text") and f.get("text"):
            yield str(card.get("name", "")), str(f.get("name", "")), str(card["text"]), str(f["text"])
        if card.get("type") and f.get("type"):
            yield "", "", str(card["type"]), str(f["type"])


def sentence_pairs(folder: Path) -> list[tuple[str, str]]:
    """Aligned (English, German) lines (`printings.line_pairs`; the whole texts where their
    lines differ in number), names cut out, each distinct pair once."""
    from printings import line_pairs

    seen: set[tuple[str, str]] = set()
    out = []
    for en_name, de_name, en, de in printings(folder):
        for name in {en_name, *en_name.split(" // ")} - {""}:
            en = en.replace(name, " ")
        for name in {de_name, *de_name.split(" // ")} - {""}:
            de = de.replace(name, " ")
        for pair in line_pairs(en, de) or [(en, de)]:
            if pair not in seen:
                seen.add(pair)
                out.append(pair)
    return out


@functools.cache
def _simplemma() -> object:
    import simplemma

    return simplemma


@functools.cache
def lemma(word: str, lang: str) -> str:
    from regelwerk.ingest.model.fold import fold

    found: str = _simplemma().lemmatize(word, lang=lang)  # type: ignore[attr-defined]
    return fold(found.lower()) if lang == "de" else found.lower()


def lemmas(text: str, lang: str, stop: frozenset[str]) -> list[str]:
    from regelwerk.ingest.model.fold import fold

    out = []
    for w in _WORD.findall(text):
        low = w.lower()
        if len(low) < 2 or fold(low) in stop:
            continue
        lem = lemma(low if lang == "en" else w, lang)
        if lem not in stop and len(lem) >= 2:
            out.append(lem)
    return out


def ibm1(pairs: list[tuple[list[str], list[str]]], iterations: int) -> dict[str, dict[str, float]]:
    """t(target | source) by IBM Model 1 EM; each pair is (source words, target words).

    The source side gets an empty word (None) so target words with no counterpart ("you",
    reminder text) need not attach to a real word.
    """
    t: dict[str | None, dict[str, float]] = defaultdict(dict)
    targets = {w for _, tgt in pairs for w in tgt}
    uniform = 1.0 / max(1, len(targets))
    for src, tgt in pairs:
        for s in [None, *src]:
            row = t[s]
            for w in tgt:
                row[w] = uniform
    for it in range(iterations):
        count: dict[str | None, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for src, tgt in pairs:
            srcs = [None, *src]
            rows = [t[s] for s in srcs]
            for w in set(tgt):
                n = tgt.count(w)
                probs = [row[w] for row in rows]
                z = sum(probs)
                for s, p in zip(srcs, probs, strict=True):
                    count[s][w] += n * p / z
        for s, row in count.items():
            total = sum(row.values())
            t[s] = {w: c / total for w, c in row.items()}
        print(f"  EM iteration {it + 1}/{iterations}", file=sys.stderr)
    return {s: row for s, row in t.items() if s is not None}


#: Neighbours a symmetrised alignment grows into: the four beside a link and the four diagonal.
_NEIGHBOURS = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def grow_diag_final_and(
    forward: set[tuple[int, int]], backward: set[tuple[int, int]]
) -> set[tuple[int, int]]:
    """One alignment from the two directions' (Koehn et al. 2005, "grow-diag-final-and").

    Starts from the links both directions found (precise), grows into neighbouring links
    either found that join a still unaligned word, then adds a link either found whose two
    words are both unaligned. Links are (source position, target position).
    """
    union = forward | backward
    links = forward & backward
    src = {i for i, _ in links}
    tgt = {j for _, j in links}
    grown = True
    while grown:
        grown = False
        for i, j in sorted(links):
            for di, dj in _NEIGHBOURS:
                link = (i + di, j + dj)
                if link in union and link not in links and (link[0] not in src or link[1] not in tgt):
                    links.add(link)
                    src.add(link[0])
                    tgt.add(link[1])
                    grown = True
    for link in sorted(forward - links) + sorted(backward - links):
        if link[0] not in src and link[1] not in tgt:
            links.add(link)
            src.add(link[0])
            tgt.add(link[1])
    return links


def _pharaoh(line: str) -> set[tuple[int, int]]:
    """Links of one line of Pharaoh format ("0-1 2-3")."""
    return {(int(a), int(b)) for a, b in (x.split("-") for x in line.split())}


def eflomal_links(pairs: Pairs, work: Path) -> list[set[tuple[int, int]]]:
    """Symmetrised word alignments of each (German, English) pair by eflomal (Östling and
    Tiedemann 2016: Bayesian IBM1 + HMM + fertility, sampled), in both directions, joined by
    `grow_diag_final_and`. A build-time tool only (the `dev` extra); the runtime never imports it."""
    from eflomal import Aligner

    fwd, rev = work / "links.fwd", work / "links.rev"
    Aligner().align(
        [" ".join(g) for g, _ in pairs],
        [" ".join(e) for _, e in pairs],
        links_filename_fwd=str(fwd),
        links_filename_rev=str(rev),
        quiet=True,
    )
    both = zip(fwd.read_text().splitlines(), rev.read_text().splitlines(), strict=True)
    return [grow_diag_final_and(_pharaoh(f), _pharaoh(r)) for f, r in both]


def link_tables(
    pairs: Pairs, links: list[set[tuple[int, int]]]
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """(t(en | de), t(de | en)) counted from the alignment: the links of a German lemma to an
    English one over every occurrence of the German lemma (an unaligned occurrence counts
    towards no English word, so a word the cards rarely link keeps low probabilities)."""
    joint: Counter[tuple[str, str]] = Counter()
    de_n: Counter[str] = Counter()
    en_n: Counter[str] = Counter()
    for (g, e), found in zip(pairs, links, strict=True):
        de_n.update(g)
        en_n.update(e)
        for i, j in found:
            joint[(g[i], e[j])] += 1
    forward: dict[str, dict[str, float]] = defaultdict(dict)
    backward: dict[str, dict[str, float]] = defaultdict(dict)
    for (g, e), n in joint.items():
        forward[g][e] = n / de_n[g]
        backward[e][g] = n / en_n[e]
    return dict(forward), dict(backward)


def cr_vocabulary(cr: Path) -> set[str]:
    text = cr.read_text(encoding="utf-8-sig")
    return {lemma(w.lower(), "en") for w in set(_WORD.findall(text))}


def term_entries(terms: Path, folding: Callable[[str], str] | None = None) -> Iterator[tuple[str, str, str]]:
    """``(German phrase, English lemma, source)`` from the term tables: each German name
    (official, variant, old) gives every content word of its English name; its words keyed by
    `folding` (`fold` unless told)."""
    from regelwerk.ingest.model.fold import fold as default

    fold = folding or default
    de_stop, en_stop = _stops()
    for name in ("core.tsv", "keywords.tsv"):
        rows = (terms / name).read_text(encoding="utf-8").splitlines()
        head = rows[0].split("\t")
        for line in rows[1:]:
            cells = dict(zip(head, line.split("\t"), strict=False))
            german = [cells.get("de", "")]
            german += cells.get("de_variants", "").split("|") + cells.get("de_old", "").split("|")
            english = [w for w in lemmas(cells["en"], "en", en_stop)]
            for key in (k for de in german for k in german_keys(de, fold)):
                for en in dict.fromkeys(english):
                    yield key, en, "terms"
    yield from _alias_entries(terms, fold)
    for line in (terms / "words.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("de\t") or "\t" not in line:
            continue
        de_forms, en_words = line.split("\t", 1)
        english = [lemmas(e, "en", en_stop) for e in en_words.split("|")]
        for form in de_forms.split("|"):
            de = " ".join(fold(w.lower()) for w in _WORD.findall(form))
            for words in english[:1]:  # the first English word is the translation; the rest are forms
                for en in words:
                    yield de, en, "words"
    del de_stop


def _alias_entries(terms: Path, folding: Callable[[str], str]) -> Iterator[tuple[str, str, str]]:
    """``(German word, English lemma, "terms")`` for the German words people say for a term
    (``aliases.tsv``: players' "Spielfeld", the old official "Startphase")."""
    en_stop = _stops()[1]
    rows = (terms / "aliases.tsv").read_text(encoding="utf-8").splitlines()
    for line in rows:
        cells = line.split("\t")
        if line.startswith("#") or len(cells) < 3 or cells[1] != "de":
            continue
        for key in german_keys(cells[0], folding):
            for en in dict.fromkeys(lemmas(cells[2], "en", en_stop)):
                yield key, en, "terms"


def cr_entries(terms: Path, folding: Callable[[str], str] | None = None) -> Iterator[tuple[str, str]]:
    """``(German word, English lemma)`` from ``cr_words.tsv``: the German for the CR's own
    words that neither the cards nor the term tables translate ("Ausnahme" -> exception,
    "Zahlung" -> payment), written from the CR's vocabulary, not from questions. A table
    without the file gives none."""
    path = terms / "cr_words.tsv"
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = line.split("\t")
        if line.startswith("#") or len(cells) != 3 or cells[0] == "en":
            continue
        for form in cells[2].split("|"):
            for key in german_keys(form, folding):
                yield key, cells[0]


def add_cr_entries(entries: Entries, terms: Path) -> int:
    """Add `cr_entries` as source "cr" (p = 1; search weighs them by ``question.CR_WORDS``)
    for the German words no curated table translates: a word of words.tsv or the term tables
    keeps its senses ("entscheiden": choose, not also decide; on the dev questions adding
    senses to those words cost 0.701 against 0.704), a learned pair becomes curated and keeps
    its probability in ``learned``."""
    added = 0
    curated = {de for (de, _), (_, src, _) in entries.items() if src != "mtgjson"}
    for de, en in cr_entries(terms):
        old = entries.get((de, en))
        if de not in curated and (old is None or old[1] == "mtgjson"):
            entries[(de, en)] = (1.0, "cr", old[2] if old else None)
            added += 1
    return added


def slot_entries(mtgjson: Path, vocab: set[str]) -> list[tuple[str, str]]:
    """``(German key, English lemma)`` of the rules concepts' names the cards print slot by
    slot (`card_slots`: type lines, keyword lines, counters; "Kreatur — Elf, Krieger" /
    "Creature — Elf Warrior", "Verursacht Trampelschaden" / "Trample", "Ladungsmarke" /
    "charge counter"): each German name's keys (`german_keys`) with every content word of its
    English name that the Comprehensive Rules use."""
    from card_slots import slot_names, slots

    en_stop = _stops()[1]
    out: dict[tuple[str, str], None] = {}
    for _, de, en in sorted(slot_names(slots(mtgjson))):
        for key in german_keys(de):
            for word in lemmas(en, "en", en_stop):
                if word in vocab:
                    out[(key, word)] = None
    return list(out)


def add_slot_entries(entries: Entries, pairs: Iterable[tuple[str, str]]) -> tuple[int, int]:
    """Add `slot_entries` as source "cards" (p = 1, curated strength: the card prints the pair
    in the same slot of its type or keyword line) for the German keys no term table or
    ``words.tsv`` translates (those keep their senses: "Welt" is world by the term tables,
    plane by the cards' type lines, and stays as the tables say); a learned pair becomes
    curated with its probability kept in ``learned``, a ``cr_words.tsv`` pair likewise. Returns
    (entries added, learned or cr entries promoted)."""
    curated = {de for (de, _), (_, src, _) in entries.items() if src in ("terms", "words")}
    added = promoted = 0
    for de, en in pairs:
        if de in curated:
            continue
        old = entries.get((de, en))
        if old is None:
            added += 1
        else:
            promoted += 1
        entries[(de, en)] = (1.0, "cards", old[2] if old else None)
    return added, promoted


def phrase_senses(entries: Entries) -> list[tuple[str, str]]:
    """The senses a word has only inside a phrase of the tables, each demoted to PHRASE_SENSE.

    "Spiel" is the battlefield in "im Spiel", "ins Spiel kommen", "das Spiel verlassen" and
    the game elsewhere ("verliert das Spiel"); "kommen" is "enter" in "ins Spiel kommen" and
    vague elsewhere. A term-table sense that the word's curated phrases carry is demoted when
    the ordinary-word table gives the word another sense ("spiel": game); a sense learned from
    the cards when an idiom of three or more words carries it ("kommen"; "schicken" in "ins
    Exil schicken"; not "fliegen", whose two-word "kann fliegen" is the keyword itself). The
    reader tries phrases first, so inside one the sense keeps its full weight. The phrases of
    ``cr_words.tsv`` ("kommen ins spiel", "an der reihe") demote nothing: that tier only adds.
    """
    by_word: dict[str, dict[str, str]] = defaultdict(dict)
    for (de, en), (_, src, _) in entries.items():
        by_word[de][en] = src
    carried: dict[str, set[str]] = defaultdict(set)  # word -> senses its curated phrases carry
    idiom: dict[str, set[str]] = defaultdict(set)  # the same, from phrases of 3+ words
    for phrase, senses in by_word.items():
        if " " in phrase and any(src not in ("mtgjson", "cr") for src in senses.values()):
            for word in set(phrase.split()):
                carried[word] |= set(senses)
                if len(phrase.split()) >= 3:
                    idiom[word] |= set(senses)
    demoted = []
    for word, own in by_word.items():
        ordinary = {en for en, src in own.items() if src == "words"}
        for en, src in own.items():
            learned = src == "mtgjson" and en in idiom[word]
            if learned or (src == "terms" and en in carried[word] and ordinary - {en}):
                demoted.append((word, en))
    for key in demoted:
        p, src, learned = entries[key]
        entries[key] = (round(p * PHRASE_SENSE, 4), src, learned)
    return demoted


#: The weak verb's endings whose forms a phrase's last verb is keyed by too when the form table
#: cannot lead them back to it (`inflected_phrases`: "entfernt", "entfernte", "entfernten").
WEAK_ENDINGS = ("t", "te", "ten")


def inflected_phrases(entries: Entries, forms: dict[str, str]) -> int:
    """Key the curated phrases ending in a verb by that verb's forms the reader cannot lead back
    to it; return how many keys were added.

    The reader matches a phrase's words as typed or by their lemma (the form table), but a form
    the lexicon translates on its own is its own lemma: "entfernt" (remove, an entry of its
    own) is not read as "entfernen", so "wird aus dem Spiel entfernt" missed "aus dem Spiel
    entfernen" (exile) and read remove, game and battlefield. Such a form (simplemma's forms of
    the verb and the weak forms, `WEAK_ENDINGS`, that are an entry of their own and that the form
    table does not read as the verb) keys the phrase too, with the phrase's translations; a form
    the form table reads as the verb ("kommt", "gelegt") needs nothing. Only the last word, where
    a passive, a perfect or a subordinate clause puts the verb ("aus dem Spiel entfernt wurde")."""
    own = {de for de, _ in entries if " " not in de}
    added: Entries = {}
    for (de, en), value in entries.items():
        words = de.split()
        verb = words[-1]
        if len(words) < 2 or value[1] == "mtgjson" or not verb.endswith("n"):
            continue
        stem = verb[:-2] if verb.endswith("en") else verb[:-1]
        for form in (*_dictionary_forms().get(verb, ()), *(stem + e for e in WEAK_ENDINGS)):
            if form in own and forms.get(form, form) != verb:
                key = (" ".join((*words[:-1], form)), en)
                if key not in entries:
                    added[key] = value
    entries.update(added)
    return len(added)


def umlaut_keys(
    entries: Entries, forms: dict[str, str], terms: Path, printed: Counter[str]
) -> tuple[int, int]:
    """Key by `umlaut_fold` the German words whose umlaut spelling folding merges with another
    word ("zählt": count, folded "zahlt": pay; "ändere": change, folded "andere": other); return
    how many entries and forms were added.

    The curated tables are read again keyed by `umlaut_fold` (the same rows: `term_entries`,
    `cr_entries` below them as in `add_cr_entries`); a word written there with an umlaut is
    an umlaut lemma U. Where U's bare spelling is another word (simplemma lists it with other
    lemmas) and U's folded key holds senses U's rows do not give (that word's), U becomes an
    entry of its own with its rows' senses ("zählen": count). A sense of the folded key is
    that other word's when a row with another umlaut spelling gives it, or when it was learned
    from the cards or given by a row written without umlauts (``words.tsv`` writes many folded:
    "andern" is ändern, "zahlen" is zahlen) and the cards print the bare spellings of U and its
    forms at least as often as the umlaut ones (`printed`: each word's count in the German card
    text, by `umlaut_fold`; "zahle", "zahlt", "Zahl" 191 times against "zähle", "zählt" 121;
    "lösen"'s learned unattach and "auswahlen"'s choose are their own: the cards print no
    "losen", no "auswahlen"). Then each of U's forms
    (simplemma's, with the umlaut) that today reads other senses than U's (its folded key is
    another word: "ändere" is "andere", "zählt" is "zahlt") is a form of U's entry, or of U's
    folded key where that has U's senses ("ändere" -> "andern": change). The folded rows stay
    as they are, so a word typed without its umlaut reads as it always did, and a word without
    such a collision gets no second key; a sense only U's rows gave the folded key is U's alone
    (without ``words.tsv``, cr_words' "zählen" would give "zahlen" count)."""
    from regelwerk.ingest.model.fold import fold, umlaut_fold

    def umlauted(key: str) -> bool:
        return " " not in key and fold(key) != key

    own: dict[str, dict[str, str]] = defaultdict(dict)
    given_by: dict[tuple[str, str], set[str]] = defaultdict(set)  # a folded row -> its umlaut keys
    rows = zip(term_entries(terms), term_entries(terms, umlaut_fold), strict=True)
    for (folded, en, _), (key, _, source) in rows:
        given_by[(folded, en)].add(key)
        if umlauted(key):
            own[key].setdefault(en, source)
    curated = set(own)
    for (folded, en), (key, _) in zip(cr_entries(terms), cr_entries(terms, umlaut_fold), strict=True):
        given_by[(folded, en)].add(key)
        if umlauted(key) and key not in curated:
            own[key].setdefault(en, "cr")
    senses: dict[str, set[str]] = defaultdict(set)
    for de, en in entries:
        senses[de].add(en)
    lemmas_of, forms_of_lemma = _umlaut_dictionary(own)

    def others(word: str) -> set[str]:
        """The senses of `word`'s folded key that another word gives it."""
        folded = fold(word)
        family = (word, *forms_of_lemma.get(word, ()))
        bare_printed = sum(printed[f.translate(_BARE)] for f in family) >= sum(printed[f] for f in family)
        out = set()
        for en in senses.get(folded, ()):
            by = given_by.get((folded, en), set())
            if any(umlauted(k) and k != word for k in by) or (bare_printed and by != {word}):
                out.add(en)
        return out

    def other_word(word: str) -> bool:  # is the bare spelling a word with other lemmas?
        bare = word.translate(_BARE)
        return bare in lemmas_of and not lemmas_of[bare] & lemmas_of.get(word, {word})

    new_forms: dict[str, str] = {}
    added = 0
    for word, mine in sorted(own.items()):
        folded = fold(word)
        target = word if other_word(word) and others(word) - set(mine) else folded
        if target == word:
            for en, source in mine.items():
                old = entries.get((folded, en))
                entries[(word, en)] = (1.0, source, old[2] if old else None)
                added += 1
                if old and old[1] != "mtgjson" and given_by.get((folded, en)) == {word}:
                    # only U's rows gave the folded key this sense: the bare spelling is the
                    # other word and reads as it did without them (a learned pair stays learned)
                    if old[2] is None:
                        del entries[(folded, en)]
                    else:
                        entries[(folded, en)] = (old[2], "mtgjson", old[2])
        for form in forms_of_lemma.get(word, ()):
            if form in own or form == target or not umlauted(form) or not other_word(form):
                continue  # a word of the tables keeps its own key ("Stärke": power, not strengthen)
            key = fold(form)
            reading = senses.get(key) or senses.get(forms.get(key, key), set())
            if reading and reading != (set(mine) if target == word else senses.get(target, set())):
                new_forms[form] = target
    forms.update(new_forms)
    return added, len(new_forms)


def _umlaut_dictionary(words: Iterable[str]) -> tuple[dict[str, set[str]], dict[str, tuple[str, ...]]]:
    """simplemma's German dictionary by `umlaut_fold`, for `words` and their bare spellings:
    each such word -> its lemmas (a lemma is its own), and each of `words` -> the forms whose
    lemma it is, or whose lemma's lemma ("gezählten" -> "gezählt" -> "zählen")."""
    from regelwerk.ingest.model.fold import umlaut_fold

    mine = set(words)
    pairs = [(umlaut_fold(f.lower()), umlaut_fold(lm.lower())) for f, lm in _raw_dictionary()]
    direct: dict[str, set[str]] = defaultdict(set)
    for f, lm in pairs:
        if lm in mine:
            direct[lm].add(f)
    hop = {f: lm for lm, fs in direct.items() for f in fs if f != lm}
    forms = {lm: set(fs) for lm, fs in direct.items()}
    for f, lm in pairs:
        if lm in hop:
            forms[hop[lm]].add(f)
    wanted = mine | {f for fs in forms.values() for f in fs}
    wanted |= {w.translate(_BARE) for w in wanted}
    lemmas_of: dict[str, set[str]] = defaultdict(set)
    for f, lm in pairs:
        if f in wanted:
            lemmas_of[f].add(lm)
        if lm in wanted:
            lemmas_of[lm].add(lm)
    return dict(lemmas_of), {lm: tuple(sorted(fs - {lm})) for lm, fs in forms.items()}


#: The umlauts made bare ("zählt" -> "zahlt"), as a keyboard without them writes them.
_BARE = str.maketrans("äöü", "aou")


@functools.cache
def _raw_dictionary() -> tuple[tuple[str, str], ...]:
    """simplemma's German dictionary as it is: (form, lemma), the words with letters only."""
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    return tuple((f, lm) for f, lm in DefaultDictionaryFactory().get_dictionary("de").items()
                 if _WORD.fullmatch(f) and _WORD.fullmatch(lm))


def corpus_forms(texts: Iterable[str]) -> dict[str, str]:
    """Folded surface form -> the lemma the training gave it most often in `texts`.

    simplemma's answer depends on the case a word is written in ("Wählen" is the noun Wahl,
    "wählen" the verb) and a query's case says little; the lemma the card text itself gave
    a form is the one its translations were learned under, so the query reads it the same way.
    """
    from regelwerk.ingest.model.fold import fold

    seen: Counter[tuple[str, str]] = Counter()
    for text in texts:
        for w in _WORD.findall(text):
            if len(w) >= 2:
                seen[(fold(w.lower()), lemma(w, "de"))] += 1
    best: dict[str, tuple[int, str]] = {}
    for (form, lem), n in seen.items():
        if (n, lem) > best.get(form, (0, "")):
            best[form] = (n, lem)
    return {form: lem for form, (_, lem) in best.items()}


def forms_of(lemmas_kept: set[str], seen: dict[str, str]) -> dict[str, str]:
    """Folded surface form -> folded lemma, for `lemmas_kept`: first the lemma the card corpus
    gave the form (`corpus_forms`), then simplemma's German dictionary for forms the cards
    never print."""
    out = {f: lem for f, lem in seen.items() if lem in lemmas_kept and f != lem and _WORD.fullmatch(f)}
    for f, key in _dictionary():
        if key in lemmas_kept:
            out.setdefault(f, key)
    return out


@functools.cache
def _dictionary() -> tuple[tuple[str, str], ...]:
    """simplemma's German dictionary, folded: (form, lemma) for each form that is not its lemma."""
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    from regelwerk.ingest.model.fold import fold

    dictionary = DefaultDictionaryFactory().get_dictionary("de")
    pairs = ((fold(form.lower()), fold(lem.lower())) for form, lem in dictionary.items())
    return tuple((f, key) for f, key in pairs if f != key and _WORD.fullmatch(f))


@functools.cache
def _dictionary_forms() -> dict[str, tuple[str, ...]]:
    """`_dictionary` turned round: folded lemma -> its other folded forms."""
    out: dict[str, list[str]] = defaultdict(list)
    for f, key in _dictionary():
        out[key].append(f)
    return {key: tuple(found) for key, found in out.items()}


#: Endings by which a word's last part lends its forms (`head_forms`: "Unterregel" ->
#: "Unterregeln" as "Regel" -> "Regeln"; folded, "Hände" is "hande", so "Kartenhände" too): the
#: declension's endings only, no verb's past ("-te") and no form that changes the part's stem.
HEAD_ENDINGS = frozenset({"e", "em", "en", "er", "es", "n", "ns", "s", "ern", "nen"})
#: A lending last part has at least this many letters, and the part before it at least HEAD_REST.
MIN_HEAD = 4
HEAD_REST = 3


def head_forms(words: set[str], forms: dict[str, str]) -> dict[str, str]:
    """Forms for the table's German words that have none (a compound or derived word simplemma
    does not list: "Unterregel", "nichtaktiv", "Kartenhülle"), lent by their longest last part
    that simplemma does list ("Regel": "Regeln"; "aktiv": "aktiven"), by its regular endings
    only (`HEAD_ENDINGS`). A German compound inflects as its last part does."""
    have = set(forms.values())
    out: dict[str, str] = {}
    for word in sorted(w for w in words - have if " " not in w):
        for cut in range(HEAD_REST, len(word) - MIN_HEAD + 1):
            head = word[cut:]
            endings = [f[len(head) :] for f in _dictionary_forms().get(head, ()) if f.startswith(head)]
            lent = [e for e in endings if e in HEAD_ENDINGS]
            if lent:
                for e in lent:
                    out.setdefault(word + e, word)
                break
    return {f: w for f, w in out.items() if f not in forms}


def train(
    pairs: Pairs, aligner: str, cache: Path | None
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """(t(en | de), t(de | en)) by `aligner`, read from `cache` when it holds them.

    "ibm1": IBM Model 1's own tables; "eflomal": counted from symmetrised alignments
    (`eflomal_links`); "both" (the default): the mean of the two, so a translation is strong
    only where both models see it. Word order is what they differ in: IBM1 ignores it,
    eflomal's HMM and fertility model it; each one's slips are mostly not the other's.
    """
    if cache is not None and cache.exists():
        forward, backward = json.loads(cache.read_text(encoding="utf-8"))
        return forward, backward
    tables = []
    if aligner in ("eflomal", "both"):
        with tempfile.TemporaryDirectory() as work:
            tables.append(link_tables(pairs, eflomal_links(pairs, Path(work))))
    if aligner in ("ibm1", "both"):
        tables.append((ibm1(pairs, ITERATIONS), ibm1([(e, g) for g, e in pairs], ITERATIONS)))
    forward, backward = (_mean([t[k] for t in tables]) for k in (0, 1))
    if cache is not None:
        cache.write_text(json.dumps([forward, backward]), encoding="utf-8")
    return forward, backward


def learned_from(table: Path) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """(t(en | de), t(de | en)) that give back the learned entries of a built ``translations.tsv``
    (its ``learned`` column; `learned_entries`): each row's learned p forward, 1.0 backward.

    Why: eflomal seeds its sampler from /dev/urandom and cannot be told a seed, so a new
    training moves a thousand learned p near the cut-offs; a change to the curated side (a term
    table, ``words.tsv``) then cannot be told apart from the re-roll. Every learned pair a
    built table holds passed the thresholds when it was trained, and only `learned_entries`
    reads the trained tables, so these give back the same learned side exactly (the rows no
    curated entry replaced, and the ``learned`` column of those it did).
    """
    forward: dict[str, dict[str, float]] = defaultdict(dict)
    backward: dict[str, dict[str, float]] = defaultdict(dict)
    for line in table.read_text(encoding="utf-8").splitlines():
        if line.startswith(("#", "de\t")) or not line.strip():
            continue
        de, en, _p, _source, learned, _count = line.split("\t")
        if learned:
            forward[de][en] = float(learned)
            backward[en][de] = 1.0
    return dict(forward), dict(backward)


def _mean(tables: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """The entry-wise mean of translation tables (a pair one table lacks counts 0 there)."""
    out: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for table in tables:
        for source, row in table.items():
            for target, p in row.items():
                out[source][target] += p / len(tables)
    return {source: dict(row) for source, row in out.items()}


def learned_entries(
    forward: dict[str, dict[str, float]],
    backward: dict[str, dict[str, float]],
    de_count: Counter[str],
    vocab: set[str],
) -> Entries:
    """The corpus's entries: for each German lemma seen MIN_COUNT times, its English lemmas of
    the rules' vocabulary with t(en|de) >= MIN_P and t(de|en) >= MIN_REVERSE, at most
    MAX_PER_WORD. A German function word (`_markers`: "beim", "dürfen", "gleichzeitig") keeps
    only a translation both directions hold strongly (MARKER_P): what the cards print beside
    "beim" is no translation of it, but "gleichzeitig" is "simultaneously"."""
    entries: Entries = {}
    markers = _markers()
    for g, row in forward.items():
        if de_count[g] < MIN_COUNT:
            continue
        floor, reverse = (MARKER_P, MARKER_P) if g in markers else (MIN_P, MIN_REVERSE)
        kept = 0
        for e, p in sorted(row.items(), key=lambda x: -x[1]):
            if p < floor or kept >= MAX_PER_WORD:
                break
            if e in vocab and backward.get(e, {}).get(g, 0.0) >= reverse:
                entries[(g, e)] = (round(p, 4), "mtgjson", round(p, 4))
                kept += 1
    return entries


def build(
    mtgjson: Path, cr: Path, terms: Path, out: Path, cache: Path | None = None, aligner: str = "both",
    learned: Path | None = None,
) -> dict[str, int]:
    de_stop, en_stop = _stops()
    raw = sentence_pairs(mtgjson)
    print(f"{len(raw)} distinct line pairs", file=sys.stderr)
    pairs = []
    de_count: Counter[str] = Counter()
    for en, de in raw:
        e = lemmas(en, "en", en_stop)
        g = lemmas(de, "de", de_stop)
        if e and g and len(e) <= 60 and len(g) <= 60:
            pairs.append((g, e))
            de_count.update(g)
    print(f"{len(pairs)} pairs after lemmatising", file=sys.stderr)
    forward, backward = learned_from(learned) if learned is not None else train(pairs, aligner, cache)
    vocab = cr_vocabulary(cr)
    entries = learned_entries(forward, backward, de_count, vocab)
    model = len(entries)
    for de, en, source in term_entries(terms):
        learned = entries.get((de, en), (0.0, "", None))[2]
        entries[(de, en)] = (1.0, source, learned)
    cr = add_cr_entries(entries, terms)
    demoted = phrase_senses(entries)
    print(f"{len(demoted)} phrase senses demoted: {demoted}", file=sys.stderr)
    slot_added, slot_promoted = add_slot_entries(entries, slot_entries(mtgjson, vocab))
    german_words = {w for de, _ in entries for w in de.split()}
    forms = forms_of(german_words, corpus_forms(de for _, de in raw))
    lent = head_forms(german_words, forms)
    forms.update(lent)
    inflected = inflected_phrases(entries, forms)
    from regelwerk.ingest.model.fold import umlaut_fold

    printed = Counter(umlaut_fold(w.lower()) for _, de in raw for w in _WORD.findall(de))
    umlaut_entries, umlaut_forms = umlaut_keys(entries, forms, terms, printed)
    counts = {
        "line_pairs": len(raw),
        "training_pairs": len(pairs),
        "model_entries": model,
        "entries": len(entries),
        "german_lemmas": len({de for de, _ in entries}),
        "forms": len(forms),
        "phrase_senses": len(demoted),
        "cr_entries": cr,
        "slot_entries": slot_added,
        "slot_promoted": slot_promoted,
        "lent_forms": len(lent),
        "inflected_phrases": inflected,
        "umlaut_entries": umlaut_entries,
        "umlaut_forms": umlaut_forms,
    }
    meta = {
        **{k: str(v) for k, v in counts.items()},
        "built": dt.date.today().isoformat(),
        "aligner": aligner,
    }
    from regelwerk.index.search.lexicon_tables import write_tables

    rows = ((de, en, p, src, lp, de_count.get(de, 0)) for (de, en), (p, src, lp) in entries.items())
    write_tables(out, meta, rows, forms)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mtgjson", type=Path, help="folder of MTGJSON set files (*.json.xz)")
    ap.add_argument("cr", type=Path, help="a Comprehensive Rules .txt (the English vocabulary)")
    ap.add_argument("--terms", type=Path, default=ROOT / "data" / "terms")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--cache", type=Path, help="keep the trained tables here and reuse them (tuning)")
    ap.add_argument(
        "--aligner",
        choices=("both", "eflomal", "ibm1"),
        default="both",
        help="word aligner(s) (default both)",
    )
    ap.add_argument(
        "--learned-from",
        type=Path,
        metavar="TSV",
        help="take the learned side from a built translations.tsv (data/lexicon/translations.tsv) "
        "instead of training: a curated change without eflomal's re-roll (see learned_from)",
    )
    args = ap.parse_args(argv)
    if args.learned_from is not None and not args.learned_from.is_file():
        ap.error(f"--learned-from {args.learned_from}: no such file (a built translations.tsv was expected)")
    counts = build(args.mtgjson, args.cr, args.terms, args.out, args.cache, args.aligner, args.learned_from)
    print(json.dumps(counts, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
