"""Search: what a user types -> a whoosh query over both languages -> ranked, highlighted hits.

A query is read in this order:

1. empty -> no hits and a note (never an error);
2. a rule number in any form users type ("702.22j", "rule 702.22 j", "Regel 702.19") -> that
   rule wherever it lives: the number itself, sections whose *current* number it is (the
   German 702.19 for "702.22"), then its subrules;
3. query syntax (quotes, parentheses, AND/OR/NOT, wildcards) -> whoosh's parser, if the syntax
   is well formed; malformed syntax is dropped to plain words with a note, never an exception;
4. plain words -> every word analyzed for both languages, misspelt words corrected against
   the index vocabulary (same first letter, edit distance 1-2, so it stays fast), German
   words translated to English term names through the term tables (compounds split) and
   English keyword names to German ones, all OR-ed with title > context > text boosts.

A question whose hits hold a glossary entry it names is searched again with the entry's
definition (`feedback`). whoosh's best hits are then re-ranked by their own words (`rerank`)
and cut to snippets (`snippets`); with the optional extra ``regelwerk[semantic]`` a question's
best hits get a second opinion from sentence vectors first (`semantic`), without it from a
plain BM25 ranking (`fusion`: a German question's English reading in whoosh, an English
question's words in FTS5). The word tables, the
syntax check and the result records live in their own modules (`regelwerk.index.terms.words`,
`syntax`, `hits`); this one builds queries and runs them.

Tried for a question's first search and dropped in session 16 (dev MRR@10 German / English,
the whole dev split with ``dev2.tsv``: 0.648 / 0.736): the other forms of a question's
English verbs (42 irregular verbs and Porter's misses, made from the CR's words with
simplemma: "chosen" searching "choose", a German question's "deal" searching "dealt") as
clauses at a share of the word's weight and covering it in coordination: ``bench/tune.py
--only`` chose a share of 0.01 in nearly every fold (0.25-1.0 lower), cross-validated de
0.652 / 0.649 / 0.646 and en 0.738 with seeds 9 / 1 / 2, so within noise, and covering alone
(no clauses) 0.651 / 0.732. Nor did glossary entries the question names whole, looked up in
the whole glossary rather than among the first hits, whose cited rules join the candidates at
a share of the best score (0.1-0.5 moved nothing, 0.75 and 1.0 lowered German; 285 dev
questions before ``dev2.tsv``).

Tried in session 21 and dropped: the askers' words learned from the dev questions and their
answers (Berger and Lafferty 1999, retrieval as statistical translation), as the words a
question says where its answer says others ("beide": "the same player"). Each of the 825 dev
questions' English terms (a German one's translation, with its weights) beside the terms of
its first expected rule; for a question term q, a CR term t that the answers of q's questions
hold (p(t | q)) at least 3 times as often as the CR's rules do, in the answers of 2 distinct
rules or more, ranked by p log(p / background); a question's terms then searched their best 1
or 3 at w * p (w 0.05-0.4), like the lexicon's translations. Scored leave-one-round-out over
the blind rounds ``dev2.tsv`` to ``dev7.tsv`` (the table learned from every other dev row, w
and the top-k chosen on the other blind rounds), MRR@10 German / English pooled over the six:
0.506 -> 0.504 / 0.692 -> 0.691 (German per round -0.016, -0.026, +0.015, +0.010, +0.003,
+0.003); at no fixed grid point better than +0.006 / 0.000 (w 0.05). 5-fold over the whole
dev split: 0.580 -> 0.579 / 0.719 -> 0.719. IBM Model 1 (10 EM iterations, an empty question
word) in place of the counts: 0.506 -> 0.506 / 0.692 -> 0.686; the floor counted in distinct
sections rather than rules: 0.504 / 0.686 (5-fold 0.580 / 0.719 unchanged); the learned words
counted in coordination's coverage (0.25-1.0 of their idf) instead of searched: every point
lower (0.25, top 1: 0.503 / 0.690; 1.0, top 3: 0.444 / 0.625), off in every round's choice.
What a blind round misses by a word is said once; what the pairs teach is the words of the
older rounds' topics ("block": creature, attack, declare, 509), which another round's answers
do not share. (The code and ``bench/asked.py``: branch ``qtrans-tried``.)
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from whoosh import query as wq
from whoosh.query.qcore import QueryError

from regelwerk.index.search import concepts, rerank
from regelwerk.index.search.analysis import DE_STOP, split_compound, terms
from regelwerk.index.search.bounds import bound_query
from regelwerk.index.search.hits import Hit, SearchResult
from regelwerk.index.search.lexicon import lexicon
from regelwerk.index.search.members import Members, Place
from regelwerk.index.search.question import CLAUSE_MARK, Reading, language, read
from regelwerk.index.search.rerank import PHRASE_WORDS, QUESTION_TERMS
from regelwerk.index.search.snippets import snippet
from regelwerk.index.search.syntax import syntax_problem, uses_syntax, without_question_marks
from regelwerk.index.search.whoosh_index import TEMPLATED_SECTIONS, index_dir, load_vocabulary
from regelwerk.index.terms.names import both_names
from regelwerk.index.terms.words import synonym_table, translate_word
from regelwerk.ingest.model.errors import InputError, InvalidQuery, UnknownVersion
from regelwerk.ingest.model.fold import fold
from regelwerk.ingest.model.message import N_, Arg, msg
from regelwerk.ingest.model.numbers import RuleNumber

if TYPE_CHECKING:
    from regelwerk.index.linking.keyword_index import KeywordNames, Names
    from regelwerk.index.search.collect import TermCache
    from regelwerk.index.search.semantic import Vectors
    from regelwerk.index.store.corpus import Corpus

#: Field boosts: a word in a rule's own title counts most, then its context (the keyword
#: names of a keyword rule in both languages) and a section's term names (``name``: "Counters
#: / Marke" of 122, as much as a keyword rule's names; session 22, ``bench/names.py``), then
#: its text.
BOOSTS = {"title": 4.0, "ctx": 2.0, "name": 2.0, "text": 1.0, "sect": 0.0, "ex": 1.0}
#: ... but a question ("when can a player concede") is answered by a rule's text: a title
#: word ("Cast", "Play") says what a rule is about, not that it answers the question.
#: The titles of the sections a rule sits in (``sect``: "Untap Step" for 502.4) say what it
#: is about where its own words do not ("does anyone get priority during the untap step");
#: an example (``ex``) illustrates the rule with words of other rules. Tuned by
#: ``bench/tune.py`` (title 1.5 -> 0.25, ctx 0.5 -> 0.25, examples 0.5 as a field of their own);
#: its cross-validation then set the title and the examples to 0 in four folds of five, and
#: dropping both lifted every dev set or left it (German sets +0.005 to +0.027 MRR, English
#: +0.000 to +0.016, keyword set 0.904 -> 0.906): a question's words in a rule's own title
#: (which its subrules carry in ``sect``) or in its examples do not say it answers.
#: The keyword context (a keyword rule's names in both languages) 0.25 -> 1.0 in four folds of five.
#: A section's term names (``name``) say what a lookup names, not what answers a question: 0.
QUESTION_BOOSTS = {"title": 0.0, "ctx": 1.0, "name": 0.0, "text": 1.0, "sect": 1.0, "ex": 0.0}
#: BM25F's length normalisation (B) and term-frequency saturation (K1) for questions; keyword
#: lookups keep whoosh's defaults (0.75, 1.2). Tuned by ``bench/tune.py`` over B 0.3-0.9 and
#: K1 0.8-2.0: a little more length normalisation (0.9) helps, as a short rule that says one
#: thing answers a question better than a long one that mentions everything.
#: Per-field B for questions did not carry (session 16, the 285 dev questions before
#: ``dev2.tsv``, de / en from 0.709 / 0.767): section titles 0 (0.694 / 0.751) or 0.5 (0.704 /
#: 0.757), keyword context 0.3 (0.690 / 0.769), rule text 0.8 (0.699 / 0.765) or 1.0 (0.706 /
#: 0.758); nor did sharpening each term's clauses by its idf to a power (-0.25 to 1: de
#: 0.698-0.714, en 0.758-0.768, no trend).
QUESTION_BM25 = {"B": 0.9, "K1": 1.2}
#: Words that reach a field only through translation weigh less than the user's own words.
TRANSLATED = 0.6
#: Ordinary German words translated through ``words.tsv`` ("zehn" -> ten) weigh less again:
#: they say which rule answers a question, not what the question is about.
ORDINARY = 0.15
#: For a German sentence the best German section ranks at this share of the best English
#: hit's score (in the first page), the others in proportion; GERMAN_HITS of them are fetched.
GERMAN_SHARE = 0.75
GERMAN_HITS = 10
#: ... but only the German sections whose title the sentence names (German seeds explain
#: keywords: "Beutezug" says nothing to a question about drawing from an empty library);
#: the others keep their own score (bench/tune.py: 1 on, 0 off).
GERMAN_NAMED = 1.0
#: A query with a question word ("wann", "how many") or at least this many content words asks
#: a question (QUESTION_BOOSTS, glossary hits lead to their rules); shorter ones name a term.
ASKS_WORDS = 4
#: German words reach English text through the lexicon at this weight times their translation
#: probability raised to LEX_POWER (below 1 a second-best translation, p 0.2 for
#: "verrechnen" -> resolve beside p 0.6, still speaks; tuned on the dev set, see bench/tune.py).
LEXICON = 0.4
LEX_POWER = 1.0
#: A question's glossary hit hands this share of its score to each rule it cites (up to
#: GLOSSARY_CITES of them) and keeps GLOSSARY_KEEP of it: the rule is the answer. The share
#: is 0 since ``bench/tune.py``'s cross-validation chose 0 in every fold (the glossary's term
#: reaches the rules it cites through their ``sect`` field already); the cited rules still
#: join the hits, and the entry still goes behind them.
GLOSSARY_SHARE = 0.0
GLOSSARY_CITES = 2
GLOSSARY_KEEP = 0.5
#: A question's players' words also search the CR words the concept lexicon gives for them
#: (`concepts`: "fizzle" -> "doesn't resolve") at this weight (English questions; a German
#: question's concept words join its lexicon reading at CONCEPT_DE, times LEXICON), and count
#: this much of their idf toward the coordination factor's coverage (CONCEPT_COVER).
CONCEPT = 0.6
CONCEPT_DE = 1.0
CONCEPT_COVER = 0.5
#: How many whoosh hits the coordination re-ranking looks at. A deeper pool brings the
#: answers of the dev questions that miss the 40 (10 German, 3 English) back to the re-ranked
#: hits, but lifts others' neighbours as well: dev MRR@10 de 0.709/en 0.760 at 40 against
#: 0.697/0.756 (50), 0.699/0.749 (60), 0.692/0.756 (80), 0.700/0.757 (100), 0.701/0.762 (150)
#: and 0.699/0.758 (200); adding only the parent rules (or section openings) of the 40's
#: subrules from a pool of 200 moved nothing (0.710/0.760, as its first 40 alone), and the
#: re-ranking factors re-fitted on a pool of 100 do worse than on 40 (``bench/learn.py --pool
#: 100``, cross-validated: 0.693/0.744 against 0.700/0.753). Session 15. Nor did admitting
#: from a pool of 100 or 200 only the hits that hold at least 0.6-1.0 of the question's
#: idf-weighted terms (as coordination counts them) beside the 40: de 0.699-0.710, en
#: 0.765-0.766 against 0.709 / 0.767 (session 16, before ``dev2.tsv``).
RERANK = 40
#: A query term in more than this share of all texts is not searched in rule text when the
#: query has rarer terms too (see `SearchEngine._common`). For questions this helps ranking as
#: well (session 16, whole dev split de / en): 0.648 / 0.736 at 0.1 against 0.633 / 0.721
#: (0.07), 0.650 / 0.725 (0.15) and 0.639 / 0.706 (never skipped); searching such terms in rule
#: text at 0.1-0.5 of their weight did not carry either (285 questions before ``dev2.tsv``:
#: de 0.709 -> 0.709-0.694, en 0.767 -> 0.768-0.765).
COMMON = 0.1
#: Unions of up to this many clauses use whoosh's tree matcher (see `_union`).
TREE_UNION_MAX = 12
MAX_QUERY = 500
#: What a rule number inside a plain query adds to the score of that rule (and of each rule
#: that is it today): ``number`` and ``key`` are unscored fields, so each match weighs this.
NUMBER_BOOST = 8.0
#: How many whoosh documents' stored fields an engine keeps (`SearchEngine._stored`), and
#: how many entries its other look-up caches (term frequencies, rule numbers) keep.
STORED_CACHE = 8192
LOOKUPS_CACHE = 1 << 16

_WORD = re.compile(r"\w+")
#: What a search says about its query (as messages, so a German reader reads them in German).
SHORTENED = N_("query shortened to its first {n} characters")
#: What a query with nothing to search for is told (an InvalidQuery: bad input, exit 1, HTTP 400).
EMPTY_QUERY = N_("empty query: type a rule number, a keyword or a question")
NO_WORD = N_("query {text!r} has no word to search for: type a rule number, a keyword or a question")
NO_DOCUMENT = N_("no ingested document of {scope}language {lang!r}")
SYNTAX_IGNORED = N_("query syntax ignored ({problem}); searched for the words as plain terms")
_NUMBER = re.compile(r"(?<![\w.])([1-9]\d{2}\.\d+[a-z]?)(?![\w])", re.IGNORECASE)


def searchable(query: str) -> str:
    """The query as the engine reads it (a question mark is punctuation, `without_question_marks`;
    runs of spaces one), or InvalidQuery if it has no word to search for (empty, spaces,
    punctuation alone)."""
    text = " ".join(without_question_marks(query).split())
    if not _WORD.search(text):
        given = query.strip()
        raise InvalidQuery(msg(NO_WORD, text=given[:40]) if given else msg(EMPTY_QUERY))
    return text


class SearchEngine:
    """An open index plus what query building needs; reuse one for many queries."""

    #: A question's lists the learned order saw (`_ordered`: the code's, the phrasings', the
    #: fused one and the English reading's phrasings), for ``tools/learn_order.py``.
    last_lists: tuple[rerank.Ranked, rerank.Ranked, rerank.Ranked, rerank.Ranked] | None

    def __init__(self, library: Corpus) -> None:
        self.library = library
        folder = index_dir(library)
        from whoosh import index as whoosh_index

        self.index = whoosh_index.open_dir(str(folder))
        from regelwerk.index.search.segments import ScopedSearcher

        self.searcher = ScopedSearcher(self.index.reader(), fromindex=self.index)
        self.schema = self.index.schema
        self.members = Members(folder)
        self._folder = folder
        self._version: str | None = None
        self._all_versions = False
        self._vocab: dict[str, tuple[int, str]] | None = None
        self._buckets: dict[str, list[str]] = {}
        self._links: KeywordNames[Names] | None = None
        self._filters: dict[tuple[str | None, bool, str | None], Any] = {}
        self._analyzed: dict[str, dict[str, frozenset[str]]] = {}
        self._derivations: dict[str, frozenset[str]] = {}
        self._listing: dict[str, bool] = {}
        self._templates: dict[int, Counter[tuple[Any, str]]] = {}
        self._idfs: dict[tuple[str, str], float] = {}
        self._bm25 = (0.75, 1.2)  # the searcher's BM25F parameters (whoosh's defaults)
        self._whole: bool | None = None
        self._postings: TermCache | None = None
        self._frequencies: dict[tuple[str, str], int] = {}
        self._numbers: dict[str, list[int]] = {}
        self._fields: dict[int, dict[str, Any]] = {}
        self._places: dict[tuple[str | None, bool], dict[int, Place | None]] = {}
        self._vectors: Vectors | None = None
        self._reset()

    def close(self) -> None:
        self.searcher.close()
        self.members.close()

    # -- helpers ------------------------------------------------------------------------------
    @property
    def vocabulary(self) -> dict[str, tuple[int, str]]:
        if self._vocab is None:
            self._vocab = load_vocabulary(self._folder)
            buckets: dict[str, list[tuple[int, str]]] = {}
            for word, (count, _) in self._vocab.items():
                buckets.setdefault(word[0], []).append((-count, word))
            self._buckets = {k: [w for _, w in sorted(v)] for k, v in buckets.items()}
        return self._vocab

    def links(self) -> KeywordNames[Names]:
        """The keywords' names in both languages (read on the first word to translate: a
        small file beside linking's records, which a search never decodes)."""
        if self._links is None:
            from regelwerk.index.linking.keyword_index import keyword_names

            self._links = keyword_names(self.library)
        return self._links

    def _scope(self, version: str | None, all_versions: bool, lang: str | None) -> Any:
        """The whoosh document numbers a search may return (None: all), from the membership
        table: the newest release by default, one version, or every release."""
        if version is not None:
            self._check_version(version)
        self._version, self._all_versions = version, all_versions  # where `_placed` looks
        key = (version, all_versions, lang)
        if key not in self._filters:
            self._filters[key] = self.members.allowed(version, all_versions, lang)
        return self._filters[key]

    def _run(self, q: Any, limit: int, flt: Any) -> list[tuple[dict[str, Any], float]]:
        """whoosh's best `limit` hits of `q` within `flt` (stored fields and score), reading
        only the segments that hold the default scope in a plain search (``segments``).

        There a short query is also required to match ``scope:default`` unless those segments
        hold nothing else (`_whole_scope`); a long question's array union never is (`flt`
        holds the scope's units already): under whoosh's ``RequireMatcher`` its collection
        stops once the union's *best single clause* can no longer reach the 40th score, so a
        rule that matches several of the question's words, each weakly, is never read if it
        comes late in the index's order (here 702.19e, 730.2i, 801.13b, 901.12d). Until
        session 21 that stop was kept, as the weights had been tuned on its hits; the whole
        top 40 lifts the blind rounds' English, dev2.tsv to dev8.tsv pooled MRR@10 0.666 ->
        0.690 (dev4 0.616 -> 0.649, dev7 0.774 -> 0.841, dev8 0.513 -> 0.580; 7 dev questions
        up, 2 down: 730.2i, 702.19e, 801.13b and 901.12d were not among the 40 and are first
        now), German unchanged (0.482; the whole dev split 0.556), keyword set 0.945 unchanged.
        (When the stop was first kept, the whole top 40 changed 12 of 847 relevance and bench
        payloads, at MRR -0.004 to -0.013 per question set then.) Such a union, and a short query's tree of
        unions, is collected by ``collect``, which gives whoosh's hits without its matchers,
        when it can.
        """
        default = self._version is None and not self._all_versions
        array = getattr(q, "matcher_type", None) == wq.Or.ARRAY_MATCHER
        whole = not default or self._whole_scope()
        self.searcher.default_only = default
        try:
            found = self._collected(q, limit, flt, array) if whole else None
            if found is not None:
                return [(self._stored(d), sc) for sc, d in found]
            if default and not whole and not array:
                q = wq.Require(q, wq.Term("scope", "default"))
            results = self.searcher.search(q, limit=limit, filter=flt, optimize=False)
            return [(self._stored(r.docnum), r.score) for r in results]
        finally:
            self.searcher.default_only = False

    def _collected(self, q: Any, limit: int, flt: Any, array: bool) -> list[tuple[float, int]] | None:
        """``collect.top_hits`` of an `array` union of plain terms (the whole top `limit`, no
        early stop: see `_run`), ``collect.tree_hits`` of a tree of unions of them, or None
        where it does not model the search."""
        from regelwerk.index.search import collect

        terms = collect.clauses(q, wq.Or.ARRAY_MATCHER if array else wq.Or.DEFAULT_MATCHER)
        if terms is None:
            return None
        if self._postings is None:
            self._postings = collect.TermCache()
        try:
            if array:
                return collect.top_hits(self.searcher, terms, limit, flt, False, self._postings)
            return collect.tree_hits(self.searcher, terms, limit, flt, self._postings)
        except collect.Unmodelled:
            return None

    def _whole_scope(self) -> bool:
        """Are the default segments the default scope and nothing else (`ScopedSearcher.
        scope_is_whole`)? Then the scope needs no ``Require``: walking its posting list
        beside every match cost a short query a fifth of its time."""
        if self._whole is None:
            self._whole = self.searcher.scope_is_whole()
        return self._whole

    def _check_version(self, version: str) -> None:
        """Refuse a version no document has, as ``rule`` does (an empty filter would search all)."""
        known = self.members.versions()
        if version not in known:
            raise UnknownVersion(version, known)

    def indexed(self, word: str, langs: tuple[str, ...] = ("en", "de")) -> bool:
        """Does the index hold `word` (as analyzed) in a title or text field of `langs`?

        Answered from the term dictionary, so common words never load the spelling vocabulary
        or the translation tables (a cold ``search banding`` stays fast).
        """
        for lang in langs:
            for t in terms(lang, word):
                for field in ("title", "text"):
                    if self._df(f"{field}_{lang}", t):
                        return True
        return False

    def _df(self, field: str, term: str) -> int:
        """How many whoosh documents hold `term` in `field` (the index's term dictionary, read
        once per term: query building asks for the same words again and again)."""
        count: int = _remember(
            self._frequencies, (field, term), lambda: self.searcher.doc_frequency(field, term)
        )
        return count

    def correct(self, word: str) -> str | None:
        """The indexed word `word` is a typo of (same first letter, 1-2 edits), or None."""
        folded = fold(word)
        if len(folded) < 4 or folded.isdigit() or self.indexed(word):
            return None
        if not terms("en", word) or not terms("de", word):
            return None  # a stop word ("darf", "whether") is a word, not a typo of "dark"
        if folded in self.vocabulary or split_compound(folded) or self._named(word):
            return None
        if self.links().aliased(word) or folded in concepts.said_words():
            return None  # a players' word ("scoops", "geblinkt") is no typo of "stops", "geblockt"
        lex = lexicon()
        if lex is not None and (lex.knows(word) or lex.split(word)):
            return None  # a German word the lexicon translates ("Spontanzauber") is no typo
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        limit = 1 if len(folded) <= 5 else 2
        bucket = self._buckets.get(folded[0], [])
        found = process.extractOne(folded, bucket, scorer=OSA.distance, score_cutoff=limit)
        if found is None:
            return None
        return self.vocabulary[found[0]][1]

    def _synonyms(self, words: list[str], said: set[str]) -> set[str]:
        """English terms of the CR words for the query's words and two-word phrases."""
        table = synonym_table()
        if not table:
            return set()
        folded = [fold(w.lower()) for w in words]
        grams = [" ".join(folded[i : i + 2]) for i in range(len(folded) - 1)]
        out: set[str] = set()
        for piece in [*grams, *folded]:
            for name in table.get(piece, ()):
                out.update(terms("en", name))
                said.update(_WORD.findall(name))
        return out

    def _named(self, word: str) -> bool:
        """Do the term tables or the ordinary-word table know `word` as German?

        Such a word is not a typo even when the index lacks it: "Eile" is Haste, not a
        misspelt "exile", and the German text it names may simply not be ingested.
        """
        return bool(translate_word(word)) or bool(self.links().translate(word, "de"))

    def _german_only(self, word: str) -> bool:
        """Is `word`, in a keyword lookup, a German term's name that reads as English only by
        its stem? "Marke" (Counters) stems to the English "mark" (damage marked) and was
        searched as that; "Gift" is an English keyword's title too and stays English.

        Asked only of words the English analyzer changes ("mark" is English as typed), that
        the German text holds and whose English reading titles no English section (the term
        dictionary answers both), so a cold English lookup ("banding") never loads the term
        tables."""
        if fold(word.lower()) in terms("en", word) or not self.indexed(word, ("de",)):
            return False
        if any(self._df("title_en", t) for t in terms("en", word)):
            return False
        names = self.links()
        return bool(names.translate(word, "de")) and not names.translate(word, "en")

    def _translations(self, words: Iterable[str], said: set[str] | None = None) -> tuple[set[str], set[str]]:
        """English terms for German words and German terms for English words (term tables).

        The English names' own words go to `said` (see `rerank.derived_factor`).
        """
        lookup = self.links().translate
        to_en: set[str] = set()
        to_de: set[str] = set()
        words = list(words)
        grams = [" ".join(words[i : i + n]) for n in (3, 2) for i in range(len(words) - n + 1)]

        for word in [*grams, *words]:
            for src, sink in (("de", to_en), ("en", to_de)):
                dst = "en" if src == "de" else "de"
                # A compound the tables name as a whole ("Spielstein": token) is not also
                # read as its parts ("Spiel": battlefield).
                names = lookup(word, src)
                if not names and " " not in word:
                    names = [n for part in split_compound(fold(word)) for n in lookup(part, src)]
                for name in names:
                    sink.update(terms(dst, name))
                    if dst == "en" and said is not None:
                        said.update(fold(w) for w in _WORD.findall(name.lower()))
            for name in self.links().aliased(word):  # players' "SBA": the CR's own words too
                to_en.update(terms("en", name))
                if said is not None:
                    said.update(fold(w) for w in _WORD.findall(name))
        return to_en, to_de

    # -- search -------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        limit: int = 10,
        version: str | None = None,
        all_versions: bool = False,
        lang: str | None = None,
    ) -> SearchResult:
        """The best `limit` hits of `query` (InvalidQuery if it has nothing to search for)."""
        text = searchable(query)
        notes: list[Arg] = []
        self._reset()
        if len(text) > MAX_QUERY:  # cut at a word boundary, never inside a word
            text = text[: MAX_QUERY + 1].rsplit(" ", 1)[0]
            notes.append(msg(SHORTENED, n=str(len(text))))
        flt = self._scope(version, all_versions, lang)
        if flt is not None and not flt:  # whoosh reads an empty filter as "no filter"
            scope = msg(N_("version {version} in "), version=version) if version else ""
            return SearchResult.of(query, (), (msg(NO_DOCUMENT, scope=scope, lang=str(lang)),))
        try:
            number = str(RuleNumber.from_query(text))
        except InputError:
            number = None
        if number is not None:
            return SearchResult.of(query, tuple(self._by_number(number, flt, limit)), ())

        problem: Arg | None = syntax_problem(text) if uses_syntax(text) else None
        highlight: dict[str, set[str]] = {"en": set(), "de": set()}
        phrase: list[frozenset[str]] = []
        said: set[str] = set()
        scale: dict[str, float] = {}
        q: Any = None
        if uses_syntax(text) and problem is None:
            q = self._parsed(text, highlight, notes)
            if q is None:
                problem = msg(N_("the query parser could not read it"))
        if problem is not None:
            notes.append(msg(SYNTAX_IGNORED, problem=problem))
        if q is None:
            q = self._plain(text, highlight, notes, phrase, said, scale)
        if q is None:
            return SearchResult.of(query, (), (*notes, msg(N_("no searchable words in the query"))))
        try:
            results = self._run(q, max(limit, RERANK), flt)
        except QueryError as exc:  # e.g. a phrase the parser accepted but a field cannot run
            notes.append(msg(SYNTAX_IGNORED, problem=str(exc)))
            q = self._plain(text, highlight, notes, phrase, said, scale)
            if q is None:
                return SearchResult.of(query, (), notes)
            results = self._run(q, max(limit, RERANK), flt)
        q, found = self._glossary_feedback(q, self._placed(results), highlight["en"], flt, max(limit, RERANK))
        if self._german and lang is None:
            found += self._german_hits(q, found, version, all_versions)
        question = len(_WORD.findall(text)) >= QUESTION_TERMS
        ranked = self._coordinate(found, highlight, phrase, question, said, scale)
        ranked = self._answer_order(ranked, text, flt, lang, highlight)
        ranked = self._second_opinion(ranked, query, flt)
        hits = [self._hit(f, sc, highlight) for f, sc in ranked[:limit]]
        return SearchResult.of(query, tuple(hits), notes)

    def _glossary_feedback(
        self, q: Any, found: rerank.Ranked, wanted: set[str], flt: Any, limit: int
    ) -> tuple[Any, rerank.Ranked]:
        """`q` and its hits `found`, or, when a question's glossary hit has its head among the
        question's English terms `wanted`, `q` with its definition's words at `feedback.GLOSS`
        and the hits of that second search (`feedback`, imported here: a keyword lookup never
        needs it)."""
        if not self._asks:
            return q, found
        from regelwerk.index.search import feedback

        if not feedback.GLOSS:
            return q, found
        extra = feedback.glossed(found, wanted, self._analyze)
        if not extra:
            return q, found
        clauses = list(q.subqueries) if isinstance(q, wq.Or) else [q]
        self._term_clauses("en", sorted(extra), feedback.GLOSS, clauses, self._common("en", extra | wanted))
        q = _union(clauses)
        return q, self._placed(self._run(q, limit, flt))  # the first search's units: cached places

    def _answer_order(
        self, ranked: rerank.Ranked, text: str, flt: Any, lang: str | None, terms: dict[str, set[str]]
    ) -> rerank.Ranked:
        """What a question asks, applied to the re-ranked hits: rules about a named thing it
        does not name go down, glossary entries lead to their rules, "what happens" prefers
        consequences, question words their cues, and a German sentence keeps the German
        sections it names on the first page. `terms` are the query's terms per language."""
        wanted = {lang: {t for t in ts if self._known(lang, t)} for lang, ts in terms.items()}
        if self._asks and rerank.TOPIC != 1.0:
            idf = functools.partial(self._idf, "en")
            ranked = _rescored(ranked, lambda f: rerank.topic_factor(f, wanted["en"], self._analyze, idf))
        if self._asks and not self._german and rerank.TITLED != 1.0:
            rarest = rerank.rarest(wanted, self._idf)
            ranked = _rescored(ranked, lambda f: rerank.titled_factor(f, rarest, self._analyze))
        if self._asks and rerank.BOILERPLATE != 1.0:
            templated = self._templated(flt)
            ranked = _rescored(ranked, lambda f: rerank.BOILERPLATE if templated(f) else 1.0)
        if self._asks:
            ranked = self._glossary_to_rules(ranked, flt)
        if rerank.asks_consequence(text):
            ranked = _rescored(ranked, rerank.consequence_factor)
        if self._asks and (rerank.SUBRULE or rerank.OTHER_SUBRULE):
            ranked = _rescored(ranked, lambda f: rerank.generality_factor(f, self._lists))
        if self._intents:
            intents = self._intents
            ranked = _rescored(ranked, lambda f: rerank.intent_factor(f, intents))
        if self._german and lang is None:
            named = (lambda f: rerank.titled(f, wanted["de"], "de", self._analyze)) if GERMAN_NAMED else None
            ranked = rerank.interleave_language(ranked, "de", GERMAN_SHARE, named)
        return ranked

    def _second_opinion(self, ranked: rerank.Ranked, query: str, flt: Any) -> rerank.Ranked:
        """A question's best hits re-ordered by sentence vectors, where the optional extra is
        installed and not switched off (`semantic`; imported only for a question); without
        them a German question's fused with a plain search's (`_plain_opinion`)."""
        if not self._asks:
            return ranked
        from regelwerk.index.search import order, semantic

        if not semantic.enabled():
            code, english = ranked, ""
            if not self._german:
                ranked = self._fts_opinion(ranked, query, flt)
            else:
                english = semantic.english_text(query, self._reading)
                ranked = self._plain_opinion(ranked, english, flt)
            return self._ordered(code, ranked, query, english, flt)
        if self._vectors is None:
            self._vectors = semantic.Vectors(semantic.vectors_dir(self.library))
        code, english = ranked, semantic.english_text(query, self._reading) if self._german else ""
        ranked = semantic.rerank(ranked, query, self._reading, self._vectors, RERANK)
        return self._ordered(code, ranked, query, english, flt, order.VECTORS)

    def _ordered(
        self, code: rerank.Ranked, ranked: rerank.Ranked, query: str, english: str, flt: Any, mode: str = ""
    ) -> rerank.Ranked:
        """`ranked` (the code's ranking `code` with the plain opinion, or re-ordered by the
        sentence vectors: `mode` ``order.VECTORS``) fused with the phrasings' (`_asked_opinion`),
        then ordered by the learned model (`order`), which also sees a German question's
        `english` reading searched in the English phrasings; the lists are kept in
        ``last_lists`` for ``tools/learn_order.py``."""
        from regelwerk.index.search import fusion, order

        lang = "de" if self._german else "en"
        depth = max(int(fusion.ASKED["depth"]), order.HEAD)
        asked = self._asked_hits(query, lang, flt, depth)
        reading = self._asked_hits(english, "en", flt, order.HEAD) if english else []
        fused = self._asked_opinion(ranked, asked)
        self.last_lists = (code, asked, fused, reading)
        weights = order.WEIGHTS.get(lang + mode)
        return order.reorder(code, asked, fused, reading, weights) if weights else fused

    def _asked_hits(self, text: str, lang: str, flt: Any, depth: int) -> rerank.Ranked:
        """A plain BM25 search of `text`'s words over how players ask for each rule in `lang`
        (``members.ASKED``, `asked`), its first `depth` hits within `flt`: a German question
        meets German words there, where elsewhere it meets English rules only through the
        lexicon. The table holds the default scope: a search of another release gets none."""
        found: set[str] = set()
        for word in _WORD.findall(text):
            found |= self._analyze(lang, word.lower())
        hits = self.members.asked(lang, sorted(found), depth)
        return self._placed((self._stored(d), sc) for d, sc in hits if flt is None or d in flt)

    def _asked_opinion(self, ranked: rerank.Ranked, asked: rerank.Ranked) -> rerank.Ranked:
        """A question's best hits fused with the phrasings' first `fusion.ASKED` depth hits
        `asked` (`_asked_hits`)."""
        from regelwerk.index.search import fusion

        weight, depth = fusion.ASKED["weight"], int(fusion.ASKED["depth"])
        if not weight or not depth:
            return ranked
        return fusion.fuse(ranked, asked[:depth], weight, RERANK)

    def _fts_opinion(self, ranked: rerank.Ranked, query: str, flt: Any) -> rerank.Ranked:
        """An English question's best hits fused with FTS5's bm25 ranking of its words over
        the default scope's English titles and rule texts (`fusion`), those within `flt`."""
        from regelwerk.index.search import fusion

        weight, k, depth = fusion.ENGLISH["weight"], fusion.ENGLISH["k"], int(fusion.ENGLISH["depth"])
        if not weight or not depth:
            return ranked
        found = self.members.plain(_WORD.findall(query), depth)
        plain = [(self._stored(d), sc) for d, sc in found if flt is None or d in flt]
        return fusion.reciprocal(ranked, self._placed(plain), weight, k, RERANK)

    def _plain_opinion(self, ranked: rerank.Ranked, english: str, flt: Any) -> rerank.Ranked:
        """A German question's best hits fused with a plain BM25 search of its `english`
        reading over the English titles and rule texts (`fusion`), within `flt`."""
        from regelwerk.index.search import fusion

        if not fusion.WEIGHT or not fusion.DEPTH:
            return ranked
        found: set[str] = set()
        for word in _WORD.findall(english):
            found |= self._analyze("en", word.lower())
        q = _union([wq.Term(field, t) for t in sorted(found) for field in fusion.FIELDS])
        if q is None:
            return ranked
        from whoosh import scoring

        asked = self.searcher.weighting, self._bm25
        self.searcher.weighting, self._bm25 = scoring.BM25F(), (0.75, 1.2)
        try:
            plain = self._placed(self._run(q, fusion.DEPTH, flt))
        finally:
            self.searcher.weighting, self._bm25 = asked
        return fusion.fuse(ranked, plain, fusion.WEIGHT, RERANK)

    def _weigh(self) -> None:
        """BM25F with the question parameters for a question, whoosh's defaults otherwise."""
        from whoosh import scoring

        params = (QUESTION_BM25["B"], QUESTION_BM25["K1"]) if self._asks else (0.75, 1.2)
        if self._bm25 != params:
            self.searcher.weighting = scoring.BM25F(B=params[0], K1=params[1])
            self._bm25 = params

    def _reset(self) -> None:
        """Forget the last query's reading (intents, question, language, field boosts)."""
        self._intents: tuple[str, ...] = ()
        self._asks = False
        self.last_lists = None
        self._reading: Reading | None = None
        self._german = False
        self._boosts = BOOSTS
        self._weigh()

    def _german_hits(
        self, q: Any, found: rerank.Ranked, version: str | None, all_versions: bool
    ) -> rerank.Ranked:
        """The best German sections for a German sentence, if the mixed search missed them.

        The English side hears the whole sentence through the lexicon and outscores the few
        German sections; a German user still wants to see them (`rerank.interleave_language`).
        """
        flt = self._scope(version, all_versions, "de")
        if not flt:
            return []
        seen = {str(f.get("key")) for f, _ in found}
        placed = self._placed(self._run(q, GERMAN_HITS, flt))
        return [(f, sc) for f, sc in placed if str(f.get("key")) not in seen]

    def _coordinate(
        self,
        found: rerank.Ranked,
        wanted: dict[str, set[str]],
        phrase: list[frozenset[str]] | None = None,
        question: bool = False,
        said: set[str] | None = None,
        scale: dict[str, float] | None = None,
    ) -> rerank.Ranked:
        """Re-rank by what each hit's own words say (see `rerank`), best first.

        Only terms the index knows in a language count for it, weighed by their idf; both
        need the searcher, so they are looked up here and the re-ranking itself stays pure.
        """
        sizes = {lang: len(ts) for lang, ts in wanted.items()}
        single = max(sizes.values(), default=0) < 2
        if single and (not said or self._asks):
            return found
        known = {lang: {t for t in ts if self._known(lang, t)} for lang, ts in wanted.items()}
        if single:  # nothing to coordinate, but a name still names itself (see derived_factor)
            out = list(found)
        else:
            scales = scale or {}
            weight = {
                lang: {t: self._idf(lang, t) * scales.get(t, 1.0) for t in ts} for lang, ts in known.items()
            }
            derived = self._derived(known["en"]) if self._asks and rerank.DERIVED_COVER else None
            asked = rerank.GERMAN_COORDINATION if self._german else rerank.ENGLISH_COORDINATION
            coordination = asked if self._asks else None
            out = rerank.coordinate(found, known, weight, self._analyze, derived, coordination)
            if phrase:
                out = [(f, sc * rerank.phrase_factor(f, phrase, self._analyze, BOOSTS)) for f, sc in out]
        if said and not self._asks:
            out = [(f, sc * rerank.derived_factor(f, known["en"], said, self._analyze)) for f, sc in out]
        if not single and (question or max(len(ts) for ts in known.values()) >= QUESTION_TERMS):
            out = rerank.behind_cited_rules(out, rerank.names_query(known, self._analyze))
        out.sort(key=lambda x: -x[1])
        return out

    def _derived(self, wanted: Iterable[str]) -> dict[str, frozenset[str]]:
        """English rule-text terms derived from each `wanted` term: up to DERIVED_LETTERS
        letters longer ("own" -> "owner"); from the term dictionary, once per term and engine
        (see `rerank.DERIVED_COVER`)."""
        reader = self.searcher.reader()
        out: dict[str, frozenset[str]] = {}
        for t in wanted:
            found = self._derivations.get(t)
            if found is None:
                longer = reader.expand_prefix("text_en", t) if len(t) >= 3 else ()
                forms = {w.decode() if isinstance(w, bytes) else str(w) for w in longer}
                forms = {w for w in forms if 0 < len(w) - len(t) <= rerank.DERIVED_LETTERS}
                found = self._derivations[t] = frozenset(forms)
            if found:
                out[t] = found
        return out

    def _glossary_to_rules(self, ranked: rerank.Ranked, flt: Any) -> rerank.Ranked:
        """Glossary entries lead to their rules: a question's glossary hit hands its score
        (GLOSSARY_SHARE of it) to the rules it cites, found or not, and goes behind them."""
        scores: dict[str, float] = {}
        fields: dict[str, dict[str, Any]] = {}
        for f, sc in ranked:
            key = str(f.get("key"))
            fields[key] = f
            scores[key] = max(scores.get(key, 0.0), sc)
        for f, sc in ranked:
            if f.get("kind") != "glossary":
                continue
            cited = rerank.citations(str(f.get("text") or ""), None)
            for rn in cited[:GLOSSARY_CITES]:
                rule = self._rule_fields(str(rn), flt)
                if rule is None:
                    continue
                key = str(rule.get("key"))
                fields[key] = rule
                scores[key] = scores.get(key, 0.0) + GLOSSARY_SHARE * sc
            scores[str(f.get("key"))] = sc * GLOSSARY_KEEP
        return sorted(((fields[k], v) for k, v in scores.items()), key=lambda x: -x[1])

    def _templated(self, flt: Any) -> Callable[[dict[str, Any]], bool]:
        """A test: is a hit a keyword rule whose text another keyword rule of the scope repeats
        with only its name changed (`rerank.template`)? The scope's 701/702 templates are
        counted once per scope and engine, on the first question that asks, from the
        templates the index build stored (``Members.templates``): no stored field is read."""
        key = id(flt)
        counts = self._templates.get(key)
        if counts is None:
            counts = self._templates[key] = Counter(
                (language, template)
                for docnum, language, template in self.members.templates()
                if flt is None or docnum in flt
            )

        def templated(f: dict[str, Any]) -> bool:
            number = str(f.get("current") or f.get("number") or "")
            if f.get("kind") == "glossary" or not number.startswith(_TEMPLATED):
                return False
            return counts[(f.get("language"), _template(f))] > 1

        return templated

    def _lists(self, number: str) -> bool:
        """Does the rule `number` introduce a list of peers (its text ends in a colon)?"""
        found = self._listing.get(number)
        if found is None:
            texts = (self._stored(d).get("text") for d in self._numbered(number))
            found = self._listing[number] = any(str(t or "").rstrip().endswith(":") for t in texts)
        return found

    def _rule_fields(self, number: str, flt: Any) -> dict[str, Any] | None:
        """The stored fields of the rule `number` within the search's scope, or None.

        A rule that is only a heading ("701.21. Sacrifice", its text its title) says nothing a
        question could want: its first subrule ("701.21a To sacrifice a permanent, ...") stands
        for it, as the glossary's "See rule 701.21" means.
        """
        for docnum in self._numbered(number):
            if flt is None or docnum in flt:
                placed = self._placed([(dict(self._stored(docnum)), 0.0)])
                if placed:
                    f = placed[0][0]
                    heading = str(f.get("text") or "").strip() == str(f.get("title") or "").strip()
                    if heading and "." in number and number[-1].isdigit():
                        return self._rule_fields(number + "a", flt) or f
                    return f
        return None

    def _numbered(self, number: str) -> list[int]:
        """The whoosh documents of the rule `number`, in document order (looked up once)."""
        docs: list[int] = _remember(
            self._numbers, number, lambda: list(self.searcher.document_numbers(number=number))
        )
        return docs

    def _stored(self, docnum: int) -> dict[str, Any]:
        """A whoosh document's stored fields, kept for the hits that come back query after
        query (read only: callers copy before they add a placement)."""
        fields: dict[str, Any] = _remember(
            self._fields, docnum, lambda: self.searcher.stored_fields(docnum), STORED_CACHE
        )
        return fields

    def _idf(self, lang: str, term: str) -> float:
        """How rare `term` is in `lang`'s rule text (whoosh's idf; looked up once per term)."""
        field = f"text_{lang}"
        idf: float = _remember(self._idfs, (lang, term), lambda: float(self.searcher.idf(field, term)))
        return idf

    def _known(self, lang: str, term: str) -> bool:
        """Is `term` in `lang`'s title or text fields (not a word of the other language)?"""
        return any(self._df(f"{field}_{lang}", term) for field in ("title", "text"))

    def _term_clauses(
        self, lang: str, words: Iterable[str], weight: float, out: list[Any], common: set[str]
    ) -> None:
        """One clause per term and field; whoosh sums the scores of the clauses that match.

        A `common` term is matched in titles and keyword context only, not in rule text.
        """
        for t in words:
            for field, boost in self._boosts.items():
                if boost and (field not in ("text", "ex") or t not in common):
                    out.append(wq.Term(f"{field}_{lang}", t, boost=boost * weight))

    def _common(self, lang: str, words: set[str]) -> set[str]:
        """Terms in more than COMMON of all texts, when the query also has rarer ones.

        Their text postings are the longest and carry the least weight: skipping them cuts the
        slowest questions' time by a quarter (warm p95 8.5 -> 6.6 ms) for MRR 0.910 -> 0.906. A
        query of common words only keeps them all.
        """
        limit = COMMON * self.searcher.doc_count_all()
        found = {t for t in words if self._df(f"text_{lang}", t) > limit}
        return found if found != words else set()

    def _plain(
        self,
        text: str,
        highlight: dict[str, set[str]],
        notes: list[Arg],
        phrase: list[frozenset[str]],
        said: set[str] | None = None,
        scale: dict[str, float] | None = None,
    ) -> Any:
        said = set() if said is None else said
        scale = {} if scale is None else scale
        numbers = [n for n in _NUMBER.findall(text)]
        rest = _NUMBER.sub(" ", text)
        fixed = self._corrected(_WORD.findall(rest), notes)
        # the corrected words, with the punctuation that ends a clause after them (`read`)
        marks = [" ".join(CLAUSE_MARK.findall(gap)) for gap in _WORD.split(rest)[1:]]
        joined = " ".join(f"{w}{m}" for w, m in zip(fixed, marks, strict=True))
        en, de = set(terms("en", joined)), set(terms("de", joined))
        reading = read(
            joined, lambda w: self.indexed(w, ("en",)), DE_STOP, None, lambda w: self.indexed(w, ("de",))
        )
        self._intents = reading.intents
        self._reading = reading
        self._german = reading.lang == "de"
        self._asks = bool(reading.intents) or len(reading.words) >= ASKS_WORDS
        self._boosts = QUESTION_BOOSTS if self._asks else BOOSTS
        self._weigh()
        said.update(fold(w.lower()) for w in fixed)
        words = (fixed, en, de)
        cr = self._concepts(reading) if self._asks and (CONCEPT or CONCEPT_DE) else []
        if reading.lang == "de" and reading.english:
            for name in cr if CONCEPT_DE else ():
                reading.english[name] = max(reading.english.get(name, 0.0), CONCEPT_DE)
            clauses = self._german_clauses(reading, words, highlight, said, scale)
        else:
            clauses = self._word_clauses(reading.lang == "de", words, highlight, said)
            self._concept_clauses(cr, en, clauses, highlight, scale)
        ordered = [t for t in (self._analyze("en", w) for w in fixed) if t]
        if 1 < len(ordered) <= PHRASE_WORDS:
            phrase[:] = ordered
        clauses.extend(self._number_clauses(numbers))
        return _union(clauses)

    def _number_clauses(self, numbers: list[str]) -> list[Any]:
        """Rule numbers inside a plain query ("Schaden 510.1c") match the rule and the units
        that are it today (by their keys: the numbers today live in ``members``)."""
        clauses: list[Any] = []
        for n in numbers:
            try:
                norm = str(RuleNumber.parse(n))
            except InputError:
                continue
            clauses.append(wq.Term("number", norm, boost=NUMBER_BOOST))
            for _, key in self.members.today(norm, self._version, self._all_versions):
                clauses.append(wq.Term("key", key, boost=NUMBER_BOOST))
        return clauses

    def _concepts(self, reading: Reading) -> list[str]:
        """The CR phrases for the players' words of a question (`concepts`), German words
        matched by their lemma too."""
        lex = lexicon() if reading.lang == "de" else None
        return concepts.find(reading.words, reading.lang, lex.lemma if lex is not None else None)

    def _concept_clauses(
        self,
        cr: list[str],
        en: set[str],
        out: list[Any],
        highlight: dict[str, set[str]],
        scale: dict[str, float],
    ) -> None:
        """Clauses for an English question's concept words (CONCEPT), counted at CONCEPT_COVER."""
        found = {t for phrase in cr for t in terms("en", phrase)} - en - highlight["en"]
        if not CONCEPT or not found:
            return
        common = self._common("en", found | en)
        self._term_clauses("en", found, CONCEPT, out, common)
        highlight["en"] |= found
        scale.update({t: CONCEPT_COVER for t in found})

    def _german_clauses(
        self,
        reading: Reading,
        words: tuple[list[str], set[str], set[str]],
        highlight: dict[str, set[str]],
        said: set[str],
        scale: dict[str, float],
    ) -> list[Any]:
        """Clauses for a German sentence: its English side is the lexicon's weighted
        translation (`question.read`), not its German words run through the English analyzer
        ("die" is not "dies"); words the lexicon cannot translate keep their English reading
        if the English text knows them ("Mulligan", "Commander")."""
        fixed, en, de = words
        clauses: list[Any] = []
        kept = " ".join(w for w in reading.untranslated if self.indexed(w, ("en",)))
        en = set(terms("en", kept))
        weights: dict[str, float] = {}
        for lemma, w in reading.english.items():
            for t in terms("en", lemma):
                weights[t] = max(weights.get(t, 0.0), w)
            said.update(_WORD.findall(lemma))
        foreign = [w for w in fixed if not self.indexed(w, ("en",)) or self._named(w)]
        to_en, to_de = self._translations(foreign, said) if foreign else (set(), set())
        lex_en = {t: w for t, w in weights.items() if t not in en and t not in to_en}
        common = {
            lang: self._common(lang, every)
            for lang, every in (("en", en | to_en | set(lex_en)), ("de", de | to_de))
        }
        self._term_clauses("en", en, 1.0, clauses, common["en"])
        self._term_clauses("de", de, 1.0, clauses, common["de"])
        self._term_clauses("en", to_en - en, TRANSLATED, clauses, common["en"])
        self._term_clauses("de", to_de - de, TRANSLATED, clauses, common["de"])
        for t, w in lex_en.items():
            self._term_clauses("en", [t], LEXICON * w**LEX_POWER, clauses, common["en"])
        highlight["en"] |= en | to_en | set(lex_en)
        highlight["de"] |= de | to_de
        scale.update({t: w**LEX_POWER for t, w in lex_en.items()})
        return clauses

    def _word_clauses(
        self,
        german: bool,
        words: tuple[list[str], set[str], set[str]],
        highlight: dict[str, set[str]],
        said: set[str],
    ) -> list[Any]:
        """Clauses for English words, keywords and German words the lexicon cannot read.

        English words the English text knows need no translation: German sections carry the
        English keyword names in their context field already. In a German sentence, though, a
        German term that is also an English word ("Gift": poison, not the 2024 keyword) is
        read as German first, and its English reading only breaks ties.
        """
        fixed, en, de = words
        clauses: list[Any] = []
        foreign = [w for w in fixed if not self.indexed(w, ("en",)) or (german and self._named(w))]
        if not german and not self._asks:
            foreign += [w for w in fixed if w not in foreign and self._german_only(w)]
        both = " ".join(w for w in foreign if self.indexed(w, ("en",)))
        ambiguous = set(terms("en", both)) if german or both else set()
        en -= ambiguous
        to_en, to_de = self._translations(foreign, said) if foreign else (set(), set())
        ordinary = [name for w in foreign for name in translate_word(w)]
        said.update(fold(w) for name in ordinary for w in _WORD.findall(name.lower()))
        plain_en = {t for name in ordinary for t in terms("en", name)}
        plain_en -= en | to_en
        synonyms = self._synonyms(fixed, said) - en - to_en - plain_en
        common = {
            lang: self._common(lang, every)
            for lang, every in (("en", en | to_en | plain_en | ambiguous), ("de", de | to_de))
        }
        self._term_clauses("en", en, 1.0, clauses, common["en"])
        self._term_clauses("de", de, 1.0, clauses, common["de"])
        self._term_clauses("en", to_en - en, TRANSLATED, clauses, common["en"])
        self._term_clauses("de", to_de - de, TRANSLATED, clauses, common["de"])
        self._term_clauses("en", plain_en, ORDINARY, clauses, common["en"])
        self._term_clauses("en", ambiguous, ORDINARY, clauses, common["en"])
        self._term_clauses("en", synonyms, TRANSLATED, clauses, common["en"])
        highlight["en"] |= en | to_en | plain_en | synonyms
        highlight["de"] |= de | to_de
        return clauses

    def _corrected(self, words: list[str], notes: list[Arg]) -> list[str]:
        """`words` with each misspelt one replaced by its correction (and a note saying so).

        In a German query a word is only corrected into one the German side holds: "geht" is
        one edit from "get", and an English correction would turn a German verb into noise."""
        found = [self.correct(w) for w in words]
        if any(found) and language(words, lexicon(), lambda w: self.indexed(w, ("en",))) == "de":
            found = [b if b is None or self.indexed(b, ("de",)) else None for b in found]
        fixed: list[str] = []
        for w, better in zip(words, found, strict=True):
            if better is not None and fold(better) != fold(w):
                notes.append(msg(N_("searched for {better!r} instead of {word!r}"), better=better, word=w))
                fixed.append(better)
            else:
                fixed.append(w)
        return fixed

    def _parsed(self, text: str, highlight: dict[str, set[str]], notes: list[Arg]) -> Any:
        fields = [f"{f}_{lang}" for f in BOOSTS for lang in ("en", "de")]
        boosts = {f"{f}_{lang}": b for f, b in BOOSTS.items() for lang in ("en", "de")}
        from whoosh.qparser import MultifieldParser, OrGroup  # only queries with syntax need it
        from whoosh.qparser.plugins import FieldsPlugin

        parser = MultifieldParser(fields, self.schema, fieldboosts=boosts, group=OrGroup)
        parser.remove_plugin_class(FieldsPlugin)
        try:
            q = parser.parse(text)
        except Exception:
            return None
        if q is None or q is wq.NullQuery or isinstance(q, type(wq.NullQuery)):
            return None
        q = bound_query(q, self.searcher.reader(), notes)
        for fieldname, value in q.iter_all_terms():
            lang = str(fieldname).rsplit("_", 1)[-1]
            if lang in highlight:
                highlight[lang].add(value if isinstance(value, str) else value.decode())
        return q

    def _by_number(self, number: str, flt: Any, limit: int) -> list[Hit]:
        """The rule itself, then rules that are it today (moved numbers), then its subrules."""
        seen: set[int] = set()
        tiers: list[tuple[int, float, int, int, dict[str, Any]]] = []
        for tier in range(3):
            if tier == 1:  # the numbers today live in the membership table (``members``)
                docnums = [d for d, _ in self.members.today(number, self._version, self._all_versions)]
                found = [d for d in docnums if flt is None or d in flt]
            else:
                q = wq.Term("number" if tier == 0 else "numpath", number)
                top = None if tier == 0 else limit
                found = [r.docnum for r in self.searcher.search(q, limit=top, filter=flt, sortedby="order")]
            fresh = [(self._stored(d), float(d)) for d in found if d not in seen]
            seen.update(found)
            for f, docnum in self._placed(fresh):
                rank = rerank.version_rank(f.get("version"), f.get("language"))
                tiers.append((tier, -rank, int(f.get("position", 0)), int(docnum), f))
        tiers.sort(key=lambda t: t[:4])
        out = []
        for i, (tier, _, _, _, f) in enumerate(tiers[:limit]):
            score = round(3.0 - tier - i / 1000, 4)
            out.append(self._hit(f, score, {"en": set(), "de": set()}))
        return out

    # -- hits ---------------------------------------------------------------------------------
    def _hit(self, f: dict[str, Any], score: float, highlight: dict[str, set[str]]) -> Hit:
        lang = str(f.get("language", "en"))
        title = str(f.get("title") or "")
        return Hit(
            number=f.get("number"),
            current=f.get("current"),
            title=title,
            term=f.get("term"),
            language=lang,
            version=f.get("version"),
            document=str(f.get("document")),
            snippet=snippet(str(f.get("text") or ""), lang, highlight.get(lang, set()), self._analyze),
            score=float(score),
            names=tuple(both_names(str(f.get("term") or title), lang).items()),
        )

    def _placed(self, found: Iterable[tuple[dict[str, Any], float]]) -> rerank.Ranked:
        """Each hit's unit placed where the search looks: the document, version and position
        of its occurrence in the scope (see ``members``); ``key`` names that occurrence."""
        found = list(found)
        where = self._places.setdefault((self._version, self._all_versions), {})
        languages = {int(f["uid"]): str(f.get("language")) for f, _ in found if int(f["uid"]) not in where}
        if languages:  # a unit's place depends on the scope only: looked up once per scope
            if len(where) >= LOOKUPS_CACHE:
                where.clear()
            looked = self.members.place(list(languages), languages, self._version, self._all_versions)
            where.update((uid, looked.get(uid)) for uid in languages)
        out = []
        for f, sc in found:
            place = where.get(int(f["uid"]))
            if place is not None:
                doc, version, pos, today = place
                placed = {"document": doc, "version": version, "position": pos, "current": today}
                placed["key"] = f"{doc}#{pos}"
                out.append(({**f, **placed}, sc))
        return out

    def _analyze(self, lang: str, word: str) -> frozenset[str]:
        """`word`'s index terms in `lang`, cached: re-ranking and snippets ask for the words of
        every hit, and the same hits come back query after query.

        Tried (session 18): the build kept what its analyzers made of each indexed word in a
        table beside the units, read here on a miss. A cold German question analyzes ~500 of
        its hits' words (5-7 ms); a row read through sqlite3 costs 9 us against 14-20 us to
        analyze the word (306 words: 2.9 against 4.3-6.2 ms), a few ms a cold question for a
        table every build writes: left out (payloads were identical)."""
        cache = self._analyzed.get(lang)
        if cache is None:
            cache = self._analyzed[lang] = {}
        found = cache.get(word)
        if found is None:
            found = cache[word] = frozenset(terms(lang, word))
        return found


#: Rule numbers of the sections whose templates the index stores (``TEMPLATED_SECTIONS``).
_TEMPLATED = tuple(f"{section}." for section in TEMPLATED_SECTIONS)


def _template(f: dict[str, Any]) -> str:
    return rerank.template(str(f.get("text") or ""), str(f.get("title") or ""))


def _remember(cache: dict[Any, Any], key: Any, make: Callable[[], Any], bound: int = LOOKUPS_CACHE) -> Any:
    """`cache[key]`, made by `make` if missing; a full cache starts again (the index under an
    engine never changes, so an entry is never stale, only possibly unused)."""
    found = cache.get(key)
    if found is None:
        if len(cache) >= bound:
            cache.clear()
        found = cache[key] = make()
    return found



def _rescored(ranked: rerank.Ranked, factor: Callable[[dict[str, Any]], float]) -> rerank.Ranked:
    """`ranked` with each score times `factor` of its hit, best first."""
    return sorted(((f, sc * factor(f)) for f, sc in ranked), key=lambda x: -x[1])


def _union(clauses: list[Any]) -> Any:
    """An Or that whoosh evaluates the fast way for its size.

    whoosh picks its pre-loading array matcher for every union on an index under 5,000
    documents; for a short query a tree of union matchers is twice as fast (warm p50 1.5 ->
    0.8 ms), for a long question with dozens of clauses the array matcher stays faster.
    """
    if not clauses:
        return None
    q = wq.Or(clauses)
    q.matcher_type = wq.Or.DEFAULT_MATCHER if len(clauses) <= TREE_UNION_MAX else wq.Or.ARRAY_MATCHER
    return q


def search(
    library: Corpus,
    query: str,
    *,
    limit: int = 10,
    version: str | None = None,
    all_versions: bool = False,
    lang: str | None = None,
) -> SearchResult:
    """One-off search (the CLI); keep a SearchEngine for many queries."""
    engine = SearchEngine(library)
    try:
        return engine.search(query, limit=limit, version=version, all_versions=all_versions, lang=lang)
    finally:
        engine.close()
