"""Mine how German cards print each term of the term tables, from MTGJSON card files.

    python tools/cardterms.py ../shared/corpus/cards/mtgjson/            # write data/terms/evidence.tsv
    python tools/cardterms.py ../shared/corpus/cards/mtgjson/ --fill     # ... and fill empty `de` cells
    python tools/cardterms.py ../shared/corpus/cards/mtgjson/ --out /tmp/evidence.tsv   # a scratch copy

For every row of ``data/terms/keywords.tsv`` and ``core.tsv`` the English side picks the
printings that use the term: cards whose MTGJSON ``keywords`` name it (keyword abilities,
actions, ability words), else cards whose Oracle text contains it as a word. The German side of
those printings (printed text without reminder text and without the card's own name) is cut into
word n-grams (1 to 3 words). A German form is evidence for the term when it is typical of those
printings and rare elsewhere: Dice's coefficient of "the printing uses the term" and "the
German text contains the form" (2·both / (term printings + form printings)), with at least
`MIN_PRINTINGS` printings. Typical is not enough: the words that stand beside a term on the
cards ("aus deinem Friedhof zurück") are as typical as the term itself, so a form must also
translate into the term's English words by the rules lexicon (`translates`; the lexicon is
learned from the same cards by word alignment, ``tools/build_lexicon.py``, so build it first),
read as a question is read: a word's curated sense first (the aligner gives a term's neighbours
some of its weight: "zurück" hand 0.26 beside return), a separated verb as one word ("wirf ...
ab": abwerfen, discard; "wende Hellsicht 1 an": anwenden, apply, so "wende" is no Scry), and a
term of several words by two of them or by a word that is no term of its own ("Kreaturen
zugefügt" says creature, not Unblocked Creature). On the English side the words of a longer
term are that term's ("double strike" is no Double) and a keyword before "counter" names a
counter ("void counter"). Each sense gets its own forms: a German word the term tables give
another row says that row ("Marke" is Counters, not the keyword action Counter), a form that
says all of a neighbouring term and part of this one is the neighbour's ("aufgedeckt" is Face
Up, not Face Down), and a constant neighbour on the cards lends a word no weight where a
curated word says the term ("Arkane" beside "Kopplung" is no Splice).
A shorter form inside a longer one with (almost) the same printings
is dropped ("Kann" inside "Kann fliegen"). Each form keeps its evidence: printings, distinct
cards, sets, first and last year, one example card.

Eras: the form with the most printings in the newest years is ``current``; a form whose last
printing is older than the current form's first years is ``old`` (1995 "Kann fliegen", then
"Flugfähigkeit", today "Fliegend"); others are ``variant``.

``--fill`` writes the current form into an empty ``de`` cell of a keyword row when the evidence
is clear: MTGJSON tags the keyword on cards (so the keyword is not newer than the corpus: a
newer one keeps its cell and source), the form stands alone as a keyword line in at least half
of its printings (not a phrase around it), Dice >= `FILL_DICE`, at least `FILL_PRINTINGS`
printings, printed in or after `FILL_SINCE`. The cell gets ``source`` = ``cards`` and a note.
Human-typed cells are never changed; ``tests/test_card_evidence.py`` reports one that the
evidence contradicts.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from regelwerk.index.search.lexicon import Lexicon, Translation, lexicon
from regelwerk.index.search.question import CURATED_COMPANION, separated
from regelwerk.index.terms.function_words import function_words
from regelwerk.ingest.model.fold import fold
from regelwerk.ingest.model.stemming import stem

ROOT = Path(__file__).resolve().parents[1]
TERMS = ROOT / "data" / "terms"
EVIDENCE = TERMS / "evidence.tsv"
COLUMNS = (
    "en",
    "kind",
    "de",
    "era",
    "dice",
    "standalone",
    "printings",
    "cards",
    "sets",
    "first_year",
    "last_year",
    "example",
)

MIN_PRINTINGS = 3
MIN_DICE = 0.25
#: An older or rarer form is kept when nearly only the term's printings use it.
MIN_PRECISION = 0.9
MAX_FORMS = 4
#: An older form must have stopped this many years before the newest form's last printing.
OLD_GAP = 5
#: ... and be what a good share of the term's printings of its own years said.
OLD_SHARE = 0.25
FILL_DICE = 0.5
FILL_PRINTINGS = 8
FILL_SINCE = 2015
#: A shorter form is dropped when a longer one holding it covers this share of its printings.
SUBSUMED = 0.8
#: A form is evidence for a term only when one of its words translates into one of the term's
#: English words with at least this probability in the rules lexicon (``data/lexicon``):
#: "Friedhof" (graveyard 1.0) is; "deinem", "Bringe" (return 0.11) and "zurück", which merely
#: stand beside it on the cards, are not.
MIN_TRANSLATION = 0.25
#: A word stands beside a term when the English side of half its printings holds it
#: ("arcane" on the Splice cards: `said_words`).
BESIDE = 0.5

_REMINDER = re.compile(r"\([^()]*\)")
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+(?:-[A-Za-zÄÖÜäöüß]+)*")
#: A chunk of card text never begins or ends with one of these German function words (the
#: one function-word table's ``boundary`` words; "kann" is not one, so "Kann fliegen" stays).
_STOP = function_words("de", "boundary")
_PARTICLES = function_words("de", "particle")
_EN_STOP = function_words("en", "stop")


@dataclass
class Printing:
    card: str
    name_de: str
    set_code: str
    year: int
    grams: frozenset[str]
    segments: frozenset[str]  # n-grams that are a whole comma/line segment (a keyword line)


@dataclass
class Form:
    key: str  # lower-case n-gram
    surface: Counter[str] = field(default_factory=Counter)
    printings: list[int] = field(default_factory=list)


def grams(
    text: str, own_names: Iterable[str], lex: Lexicon | None = None
) -> tuple[frozenset[str], frozenset[str], dict[str, str]]:
    """Lower-case 1-3 word n-grams of a German card text, those that stand alone as a segment
    (a keyword line: "Fliegend", "Kann fliegen"), and the surface form of each.

    With the lexicon, a separated verb is one word ("wirf eine Karte ab": the word "wirf … ab",
    abwerfen, as `regelwerk.index.search.question.separable` reads a question): its particle
    is no form of its own, nor in an n-gram without its verb ("ab", "Karte ab"), and its stem
    is no form without its particle ("wende Hellsicht 1 an" is anwenden, apply, not "wende")."""
    for name in own_names:
        if name:
            text = text.replace(name, " ")
    text = _REMINDER.sub(" ", text)
    out: dict[str, str] = {}
    alone: set[str] = set()
    for line in re.split(r"[\n.,;:•—]", text):
        words = _WORD.findall(line)
        if 0 < len(words) <= 3:
            alone.add(" ".join(words).lower())
        verbs = {j: i for j, i, _ in separated(words, lex)} if lex is not None else {}
        particles = {i: j for j, i in verbs.items()}
        for n in (1, 2, 3):
            for i in range(len(words) - n + 1):
                chunk = words[i : i + n]
                if chunk[0].lower() in _STOP or chunk[-1].lower() in _STOP or min(map(len, chunk)) < 2:
                    continue  # "Rückblende R": a mana symbol's letter is not a word
                span = range(i, i + n)
                if any(k in particles and particles[k] not in span for k in span):
                    continue  # a particle without its verb
                if n == 1 and i in verbs:
                    chunk = [words[i], *(["…"] if verbs[i] > i + 1 else []), words[verbs[i]]]
                surface = " ".join(chunk)
                out.setdefault(surface.lower(), surface)
    return frozenset(out), frozenset(alone & set(out)), out


def load(
    paths: list[Path], lex: Lexicon | None = None
) -> tuple[list[Printing], list[tuple[frozenset[str], str]], Counter[str], dict[str, Counter[str]]]:
    """Every German printing with text: its n-grams; and per printing the English side."""
    sys.path.insert(0, str(ROOT.parent))
    from regelwerk.ingest import card_reader

    printings: list[Printing] = []
    english: list[tuple[frozenset[str], str]] = []  # (keywords folded, Oracle text lower)
    df: Counter[str] = Counter()
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    files = sorted(f for p in paths for f in ([p] if p.is_file() else p.rglob("*.json*")))
    for f in files:
        reader = card_reader(f)
        if reader is None:
            continue
        for card_set in reader.sets():
            for card in card_set.cards:
                for p in card.printings:
                    if not p.text_de or p.year is None:
                        continue
                    keys, alone, surface = grams(p.text_de, (p.name_de or "", card.name), lex)
                    printings.append(Printing(card.name, p.name_de or "", p.set_code, p.year, keys, alone))
                    english.append((frozenset(k.lower() for k in card.keywords), (card.text or "").lower()))
                    df.update(keys)
                    for k, s in surface.items():
                        surfaces[k][s] += 1
    return printings, english, df, surfaces


def uses(
    term: str,
    kind: str,
    english: list[tuple[frozenset[str], str]],
    longer: Iterable[str] = (),
    inside_only: list[int] | None = None,
) -> list[int]:
    """Indexes of printings whose English side uses the term: MTGJSON tags the keyword on the
    card, or the Oracle text says it ("gains flying", "without flying" count too). Inside a
    `longer` term's name the words are that term's ("double strike" is no use of Double), and
    a keyword's word before "counter" names a kind of counter ("a void counter", "suspect
    counters": no use of the ability word Void or the keyword action Suspect). The printings
    whose only uses are inside such a longer name go to `inside_only`: neither the term's nor
    against it, since the longer term's German may hold the term's word ("additional cost":
    "zusätzliche Kosten")."""
    low = term.lower()
    pattern = re.compile(_word_pattern(low))
    inside = [t.lower() for t in longer if t.lower() != low and re.search(_word_pattern(low), t.lower())]
    if kind != "core":
        inside.append(f"{low} counter")
    other = re.compile("|".join(map(_word_pattern, inside))) if inside else None
    out = []
    for i, (kw, text) in enumerate(english):
        if low in kw or pattern.search(other.sub("#", text) if other else text):
            out.append(i)
        elif inside_only is not None and other is not None and pattern.search(text):
            inside_only.append(i)
    return out


def _word_pattern(low: str) -> str:
    """A lower-case term as words of an English text, with the endings of its inflections."""
    return rf"(?<![\w-]){re.escape(low)}(?:s|es|ed|d)?(?![\w-])"


def english_words(term: str) -> tuple[str, ...]:
    """The lower-case words of an English term name ("Untap Step": untap, step)."""
    return tuple(w.lower() for w in re.findall(r"[A-Za-z]+", term))


def same_word(a: str, b: str) -> bool:
    """Two English words that differ at most in their ending ("fly"/"flying", "untap"/
    "untapped", "cycle"/"cycling"): the same English stem. A compound is another word
    ("land"/"landfall": "ein Land unter deiner Kontrolle" says no landfall)."""
    return stem(a, "en") == stem(b, "en")


def translates(
    form: str,
    term: tuple[str, ...],
    lex: Lexicon,
    general: frozenset[str] = frozenset(),
    named: Mapping[str, frozenset[str]] | None = None,
    row: str = "",
    specific: bool = False,
    beside: Callable[[str], bool] | None = None,
) -> bool:
    """Does a German form say the term: one of its words (or a compound's part, or the whole
    form as a lexicon phrase) translates into one of the term's English words?

    A separated verb ("wirf … ab", see `grams`) is read as the verb it is (abwerfen). A word
    with a curated translation (term tables, ``words.tsv``, the CR's and the cards' own words)
    says what that entry says; the corpus adds only strong alternatives (`CURATED_COMPANION`,
    as `regelwerk.index.search.question` reads a question), not the collocations the aligner
    gives some of a term's weight ("zurück": return, not hand 0.26, from "bringe ... auf deine
    Hand zurück"; "danach": after, not shuffle 0.44, from "mische danach"), and a learned
    translation only where no stronger one names a word `beside` the term on its cards
    ("Arkane": arcane 0.43, not splice 0.38, from "Splice onto Arcane"; `said_words`).
    A word the term tables give another row (`named`, see `german_names`) says that row's
    English words, not this `row`'s: an English word with two senses has a German word for
    each ("Marke" is Counters, the noun, so it says no Counter, the keyword action
    "neutralisieren"; "Kommandeur" is Commander, no Command zone; "Tappe" is Tap and Untap,
    no Untapped).

    A term of several words needs two of them, or one that is not a `general` term of its own
    (the English stems of the one-word term names): "Kreaturen zugefügt" says creature, not
    Unblocked Creature; "Hauptphase" says main and phase. A compound that nearly only the
    term's printings use (`specific`, see `forms_for`) names a kind of its general word, so that
    word will do ("Anfangshand", a kind of hand, on Opening Hand's cards alone; not
    "blockenden", which is the general word's own inflection)."""
    said = said_words(form, term, lex, named, row, beside)
    if len(set(term)) < 2:
        return bool(said)
    kind_of = specific and " " not in form and bool(lex.split(form) or _parts(form, lex))
    return len(said) >= 2 or (kind_of and bool(said)) or any(stem(w, "en") not in general for w in said)


def said_words(
    form: str,
    term: tuple[str, ...],
    lex: Lexicon,
    named: Mapping[str, frozenset[str]] | None = None,
    row: str = "",
    beside: Callable[[str], bool] | None = None,
) -> set[str]:
    """The words of `term` that the German `form` translates into (see `translates`).

    A learned translation into the term does not count where the word translates more strongly
    into a word that stands `beside` the term on its cards and a curated German word says the
    term already: the aligner shares the weight of two words that always stand together
    ("Arkane": arcane 0.43, splice 0.38, as every Splice card says "Splice onto Arcane", whose
    splice is "Kopplung"; "Einsatz" stays ante 0.48 beside play 0.59, "playing for ante", as
    no curated word says ante)."""
    words = form.split()
    keys = [
        form, " ".join([*words[:-1], lex.lemma(words[-1])]), *words, *(lex.lemma(w) for w in words),
        *(p for w in words for p in lex.split(w) or _parts(w, lex)),
    ]
    if " … " in form or (len(words) == 2 and words[1] in _PARTICLES):
        stem_, particle = words[0], words[-1]
        verbs = [v for v in (particle + lex.lemma(stem_), lex.lemma(particle + stem_)) if lex.knows(v)]
        keys = verbs[:1] or keys
    said: set[str] = set()
    for key in dict.fromkeys(keys):
        others = _named_elsewhere(key, lex, named or {}, row)
        found = _senses(lex.translations(fold(key)))
        for t in found:
            if t.p < MIN_TRANSLATION:
                continue
            if beside is not None and t.source == "mtgjson" and _curated(lex, t.en) and any(
                u.p > t.p and not any(same_word(u.en, w) for w in term) and beside(u.en) for u in found
            ):
                continue  # a neighbour's weight
            if any(same_word(t.en, o) for o in others):
                continue  # another row's word: that row's sense
            said.update(w for w in term if same_word(t.en, w))
    return said


def german_names(lex: Lexicon) -> dict[str, frozenset[str]]:
    """Folded German name, and its lemma -> the English names of the rows whose ``de``,
    ``de_variants`` or ``de_old`` cell it is ("marke", "marken": Counters; "spielen": Play,
    Activate, Cast)."""
    out: dict[str, set[str]] = defaultdict(set)
    for name in ("keywords.tsv", "core.tsv"):
        lines = (TERMS / name).read_text(encoding="utf-8").splitlines()
        for line in lines[1:]:
            cells = line.split("\t")
            for cell in "|".join(cells[3:6]).split("|"):
                if cell.strip():
                    out[fold(cell.strip())].add(cells[0])
                    out[fold(lex.lemma(cell.strip()))].add(cells[0])
    return {k: frozenset(v) for k, v in out.items()}


def term_words(
    form: str,
    specific: bool,
    *,
    en: str,
    lex: Lexicon,
    general: frozenset[str] = frozenset(),
    named: Mapping[str, frozenset[str]] | None = None,
    neighbours: Iterable[str] = (),
    beside: Callable[[str], bool] | None = None,
) -> int:
    """How many words of the term `en` the German `form` says (0: it is no form of it; see
    `translates`). A form that says only part of the term and the whole of a `neighbours`
    term of as many words is the neighbour's ("aufgedeckt" says face and up: Face Up, not
    Face Down; "Partie nicht gewinnen" says win and game: Win the Game, not Lose the Game)."""
    term = english_words(en)
    if not translates(form, term, lex, general, named, en, specific, beside):
        return 0
    said = said_words(form, term, lex, named, en, beside)
    if len(said) < len(set(content_words(en))):
        for other in neighbours:
            words = content_words(other)
            if said_words(form, words, lex, named, other) >= set(words):
                return 0
    return len(said)


def neighbours(en: str, names: Iterable[str]) -> list[str]:
    """The terms of as many words or more that share a word with `en`, a term of several
    words ("Face Up" beside "Face Down"; "Win the Game" beside "Lose the Game": function words
    are no words of a term here, "the" makes no neighbours)."""
    own = {stem(w, "en") for w in content_words(en)}
    if len(own) < 2:
        return []
    return [n for n in names if n != en and len(content_words(n)) >= len(content_words(en))
            and own & {stem(w, "en") for w in content_words(n)}]


def content_words(term: str) -> tuple[str, ...]:
    """The words of an English term name without its function words ("Lose the Game": lose,
    game), or all of them if it has no other."""
    words = english_words(term)
    return tuple(w for w in words if w not in _EN_STOP) or words


def _named_elsewhere(
    key: str, lex: Lexicon, named: Mapping[str, frozenset[str]], row: str
) -> tuple[str, ...]:
    """The English words of the rows other than `row` that the term tables name by the German
    `key` (as printed, else its lemma: "getappt" is Tapped's, "Tappe" the lemma tappen's, Tap
    and Untap's); none when `key` names `row` itself. A row whose words are a part of `row`'s
    name is no other sense: its German names are words of this term's ("Hauptphase", Main
    Phase, in Precombat Main Phase)."""
    rows = named.get(fold(key)) or named.get(fold(lex.lemma(key))) or frozenset()
    if not row or row in rows:
        return ()
    own = _stems(row)
    return tuple(w for r in rows if not _stems(r) < own for w in english_words(r))


def _beside(positive: list[int], stems: list[frozenset[str]]) -> Callable[[str], bool]:
    """Does an English word stand on at least `BESIDE` of the printings `positive`?"""

    @functools.cache
    def beside(word: str) -> bool:
        key = _english_stem(word)
        return sum(1 for i in positive if key in stems[i]) >= BESIDE * len(positive)

    return beside


@functools.cache
def _curated(lex: Lexicon, english: str) -> bool:
    """Does a curated translation (term tables, ``words.tsv``, the CR's and cards' words) say
    the English word?"""
    found = lex._db.execute(
        "SELECT 1 FROM translation WHERE en = ? AND source != 'mtgjson' LIMIT 1", (english,)
    ).fetchone()
    return found is not None


@functools.cache
def _english_stem(word: str) -> str:
    return stem(word, "en")


def _stems(term: str) -> frozenset[str]:
    return frozenset(stem(w, "en") for w in english_words(term))


def general_stems(names: Iterable[str]) -> frozenset[str]:
    """The English stems of the one-word term names ("creatur", "phase", "attack"): a word of a
    longer term that is a term of its own (`translates`)."""
    return frozenset(stem(n.lower(), "en") for n in names if len(english_words(n)) == 1)


def _parts(word: str, lex: Lexicon) -> list[str]:
    """A compound's parts where the lexicon knows it whole only weakly ("Loyalitätsfähigkeit":
    loyalty 0.70, and its parts loyalty and ability), as a question's word is read."""
    found = lex.translations(fold(word))
    return (lex._split(fold(word), 0) or []) if found and max(t.p for t in found) < 1.0 else []


def _senses(found: tuple[Translation, ...]) -> tuple[Translation, ...]:
    """A word's translations, the learned ones beside a curated one only when strong."""
    if any(t.source != "mtgjson" for t in found):
        return tuple(t for t in found if t.source != "mtgjson" or t.p >= CURATED_COMPANION)
    return found


def forms_for(
    positive: list[int],
    printings: list[Printing],
    df: Counter[str],
    surfaces: dict[str, Counter[str]],
    says: Callable[[str, bool], int] = lambda form, specific: 1,
    aside: Iterable[int] = (),
) -> list[dict[str, object]]:
    """The German forms typical of `positive` that `says` the term, with their evidence: the
    strongest forms by Dice, then older keyword-line forms that nearly only these printings
    use ("Kann fliegen"). `says` tells how many of the term's words a form says (0: it is no
    form of the term), and hears whether nearly only these printings use the form; printings
    `aside` (see `uses`) count neither for a form nor against it."""
    both: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    for i in positive:
        both.update(printings[i].grams)
        alone.update(printings[i].segments)
    df = df.copy()
    for i in aside:
        df.subtract(printings[i].grams)
    said = {k: says(k, n >= MIN_PRECISION * df[k]) for k, n in both.items() if n >= MIN_PRINTINGS}
    dice = {k: 2 * both[k] / (len(positive) + df[k]) for k, n in said.items() if n}
    main: list[str] = []
    # on a tie the keyword line first ("Stufe aufsteigen {2}", not its "aufsteigen")
    ranked = sorted(
        (k for k in dice if dice[k] >= MIN_DICE), key=lambda k: (-dice[k], -both[k], -alone[k], k)
    )
    for key in ranked:
        if _subsumed(key, main, both, alone):
            continue
        main = [k for k in main if not (_inside(k, key) and both[key] >= SUBSUMED * both[k])]
        main.append(key)
        if len(main) == MAX_FORMS:
            break
    out = [_evidence(k, dice[k], alone[k] / both[k], positive, printings, surfaces) | {"_said": said[k]}
           for k in main]
    if out:
        newest = max(int(str(f["last_year"])) for f in out)
        older = [
            k
            for k in dice
            if k not in main
            and both[k] >= 2 * MIN_PRINTINGS
            and both[k] >= MIN_PRECISION * df[k]
            and alone[k] >= 0.5 * both[k]
        ]
        for key in sorted(older, key=lambda k: (-both[k], k)):
            ev = _evidence(key, dice[key], alone[key] / both[key], positive, printings, surfaces)
            ev["_said"] = said[key]
            first, last = int(str(ev["first_year"])), int(str(ev["last_year"]))
            in_era = sum(1 for i in positive if first <= printings[i].year <= last)
            if (
                last <= newest - OLD_GAP
                and int(str(ev["printings"])) >= OLD_SHARE * in_era
                and not _subsumed(key, main, both, alone)
            ):
                out.append(ev)
                main.append(key)
    _eras(out)
    return out


def _inside(short: str, long: str) -> bool:
    """Is a form words of a longer one ("kann" in "kann fliegen"; "bonus" is no word of
    "bonuskosten": Kicker is printed "Bonus", its cost "Bonuskosten")?"""
    return f" {short} " in f" {long} "


def _subsumed(key: str, kept: list[str], both: Counter[str], alone: Counter[str]) -> bool:
    """A form inside a kept longer one with nearly its printings, or a kept form in a sentence."""
    if any(_inside(key, longer) and both[longer] >= SUBSUMED * both[key] for longer in kept if longer != key):
        return True
    return alone[key] < 0.5 * both[key] and any(
        shorter in key.split() or f" {shorter} " in f" {key} " for shorter in kept
    )


def _evidence(
    key: str,
    dice: float,
    standalone: float,
    positive: list[int],
    printings: list[Printing],
    surfaces: dict[str, Counter[str]],
) -> dict[str, object]:
    hits = [printings[i] for i in positive if key in printings[i].grams]
    years = [p.year for p in hits]
    newest = max(hits, key=lambda p: (p.year, p.set_code))
    return {
        "de": surfaces[key].most_common(1)[0][0],
        "dice": round(dice, 3),
        "standalone": round(standalone, 2),
        "printings": len(hits),
        "cards": len({p.card for p in hits}),
        "sets": len({p.set_code for p in hits}),
        "first_year": min(years),
        "last_year": max(years),
        "example": f"{newest.card} / {newest.name_de} ({newest.set_code} {newest.year})",
        "_recent": sum(1 for y in years if y >= max(years) - 3),
    }


def _eras(forms: list[dict[str, object]]) -> None:
    """current: of the forms still printed in the newest years, the one that says most of the
    term's words ("zusätzlichen Zug", not "nach diesem Zug", for Extra Turn), then the
    strongest; old: a form whose last printing is no later than the current form's first and
    `OLD_GAP` years before its last (1994-95 "Kann fliegen" before 1995-2022 "Fliegend"); the
    rest are variants."""
    if not forms:
        return
    latest = max(int(str(f["last_year"])) for f in forms)
    newest = [f for f in forms if int(str(f["last_year"])) >= latest - 2]
    current = max(newest, key=lambda f: (int(str(f.get("_said", 1))), float(str(f["dice"])),
                                         int(str(f.get("_recent", 0)))))
    first, last = int(str(current["first_year"])), int(str(current["last_year"]))
    for f in forms:
        end = int(str(f["last_year"]))
        if f is current:
            f["era"] = "current"
        elif end <= first and end <= last - OLD_GAP:
            f["era"] = "old"
        else:
            f["era"] = "variant"
        f.pop("_recent", None)
        f.pop("_said", None)


def rows() -> Iterator[tuple[str, str, str]]:
    """(en, kind, de) of every term-table row."""
    for name in ("keywords.tsv", "core.tsv"):
        lines = (TERMS / name).read_text(encoding="utf-8").splitlines()
        for line in lines[1:]:
            cells = line.split("\t")
            yield cells[0], cells[1], cells[3]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+", type=Path, help="MTGJSON files or folders of them")
    parser.add_argument("--fill", action="store_true", help="fill empty de cells of keyword rows")
    parser.add_argument("--out", type=Path, default=EVIDENCE,
                        help=f"where to write the table (default {EVIDENCE.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    lex = lexicon()
    if lex is None:
        parser.error("the rules lexicon (data/lexicon/*.tsv) is missing: "
                     "run tools/build_lexicon.py first")
    printings, english, df, surfaces = load(args.paths, lex)
    lines = ["\t".join(COLUMNS)]
    found: dict[tuple[str, str], list[dict[str, object]]] = {}
    tagged = {k for kw, _ in english for k in kw}
    names = sorted({en for en, _, _ in rows()})
    general = general_stems(names)
    named = german_names(lex)
    stems = [frozenset(map(_english_stem, re.findall(r"[a-z]+", text))) for _, text in english]
    for en, kind, _de in rows():
        aside: list[int] = []
        positive = uses(en, kind, english, names, aside)
        if len(positive) < MIN_PRINTINGS:
            continue
        says = functools.partial(term_words, en=en, lex=lex, general=general, named=named,
                                 neighbours=neighbours(en, names), beside=_beside(positive, stems))
        forms = forms_for(positive, printings, df, surfaces, says, aside)
        found[(en, kind)] = forms
        if forms and en.lower() in tagged:  # MTGJSON names it as a card's keyword
            forms[0]["_tagged"] = True
        for f in forms:
            lines.append("\t".join([en, kind] + [str(f[c]) for c in COLUMNS[2:]]))
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    terms = sum(1 for forms in found.values() if forms)
    print(f"{len(printings)} German printings, {terms} terms with evidence, {len(lines) - 1} forms "
          f"-> {args.out}")
    if args.fill:
        print(f"filled {fill(found)} empty de cells")
    return 0


def clear_form(forms: list[dict[str, object]]) -> dict[str, object] | None:
    """The current form when the evidence is clear enough to fill a table cell with it."""
    for f in forms:
        if (
            f["era"] == "current"
            and forms[0].get("_tagged")
            and float(str(f["standalone"])) >= 0.5
            and float(str(f["dice"])) >= FILL_DICE
            and int(str(f["printings"])) >= FILL_PRINTINGS
            and int(str(f["last_year"])) >= FILL_SINCE
        ):
            return f
    return None


def fill(found: dict[tuple[str, str], list[dict[str, object]]]) -> int:
    path = TERMS / "keywords.tsv"
    lines = path.read_text(encoding="utf-8").splitlines()
    filled = 0
    for i, line in enumerate(lines[1:], start=1):
        cells = line.split("\t")
        if cells[3] or cells[1] == "core":
            continue
        form = clear_form(found.get((cells[0], cells[1]), []))
        if form is None:
            continue
        cells[3] = str(form["de"])
        cells[6] = "cards"
        note = (
            f"from card evidence: {form['cards']} cards, {form['first_year']}-{form['last_year']}, "
            f"e.g. {form['example']}"
        )
        cells[7] = f"{cells[7]}; {note}" if cells[7] else note
        lines[i] = "\t".join(cells)
        filled += 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return filled


if __name__ == "__main__":
    raise SystemExit(main())
