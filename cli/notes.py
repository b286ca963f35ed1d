"""The library's notes said in words: a document by its title, not its id, and a language by its
name, not its code.

A rule's notes name the document they speak of as the library knows it ("'rule-702-19-banding-de-en'
(de+en)", " for language 'de'"); a reader should read "the undated text “Bündnisfähigkeit /
Banding”" and " in German". The command line (`regelwerk.cli.i18n.messages_or_notes`) and the web
pages (`regelwerk.cli.web.site`) both say them so, through `in_words`; ``--json`` and the API keep
the ids and codes in ``messages``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from regelwerk.index.facade import rule_messages
from regelwerk.ingest.model.message import N_

#: How a reader is told the library's ways of naming a document or language by its id or code
#: (`rule_messages.DOCUMENT`, `rule_messages.FOR_LANGUAGE`, ...).
IN_LANGUAGE = {"de": N_(" in German"), "en": N_(" in English")}
IN_VERSION_LANGUAGE = {"de": N_(" in German in the {version} rules"),
                       "en": N_(" in English in the {version} rules")}
UNDATED = N_("the undated text “{title}”")


def said(part: dict[str, Any], titles: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A note's nested message with ids and codes in words: the seed "'rule-702-19-banding-de-en'
    (de+en)" by its title (the message's own ``title``, else `titles`: document id -> title),
    " for language 'de'" as " in German"; any other message as it is."""
    args = part.get("args", {})
    if part.get("id") == rule_messages.DOCUMENT:
        title = args.get("title") or (titles or {}).get(str(args.get("document")))
        return {"id": UNDATED, "args": {"title": title}} if title else part
    if part.get("id") == rule_messages.FOR_LANGUAGE and args.get("lang") in IN_LANGUAGE:
        return {"id": IN_LANGUAGE[args["lang"]], "args": {}}
    if part.get("id") == rule_messages.FOR_VERSION_AND_LANGUAGE and args.get("lang") in IN_VERSION_LANGUAGE:
        return {"id": IN_VERSION_LANGUAGE[args["lang"]], "args": {"version": args.get("version")}}
    return part


def in_words(note: Any, titles: Mapping[str, str] | None = None) -> Any:
    """A ``Message.to_dict()`` whose nested messages are said in words (`said`); a plain string
    as it is."""
    if not isinstance(note, dict):
        return note
    args = {k: said(v, titles) if isinstance(v, dict) else v for k, v in note.get("args", {}).items()}
    return {**note, "args": args}


#: A document's title is cut here (a seed glossary's title lists ten keywords).
TITLE_WIDTH = 52


def document_name(doc_id: str, titles: Mapping[str, str], version: str | None = None) -> str:
    """A document as a reader knows it: a release by its date, another by its title (`titles`:
    id -> title, cut at `TITLE_WIDTH`), its id only where it has no title. Where a rule, a hit or
    a term's table names its document: the seeds' ids ("rule-702-19-banding-de-en") are the
    library's, not a reader's."""
    if version:
        return version
    title = titles.get(doc_id)
    if not title:
        return doc_id
    return title if len(title) <= TITLE_WIDTH else title[: TITLE_WIDTH - 1].rstrip(" ,") + "…"


# -- a term's words and evidence, as `term` and the web's term page say them ---------------------
#: Whose word an alias is (``aliases.tsv``'s status): "Spielfeld: players' word".
ALIAS_STATUS = {
    "sense": N_("another sense of the word"), "player": N_("players' word"),
    "fan": N_("word of a fan translation"), "old_official": N_("older official word"),
    "literal": N_("literal translation of the English name"),
}
#: A German form the cards print for a term (``evidence.tsv``): its era and how it is shown.
EVIDENCE_ERA = {"current": N_("current"), "old": N_("old"), "variant": N_("variant")}
EVIDENCE_FORM = N_("{form} ({era}, {cards} cards, {first}-{last}, e.g. {example})")


def evidence_forms(evidence: list[dict[str, Any]], gettext: Callable[[str], str]) -> str:
    """A term's card evidence in one line, in the language of `gettext`."""
    return "; ".join(
        gettext(EVIDENCE_FORM).format(form=e["de"], era=gettext(EVIDENCE_ERA[e["era"]]), cards=e["cards"],
                                      first=e["first_year"], last=e["last_year"], example=e["example"])
        for e in evidence
    )


def senses(matches: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str | None]:
    """A ``term`` payload's matches as (shown in full, listed, the word said to be ambiguous):
    the best match in full, or every exact sense of an ambiguous word ("counter": Counter and
    Counters, the word named as its alias says it); the rest as a ranked list."""
    if not matches:
        return [], [], None
    full = [m for m in matches if m["score"] >= 100 and m["match"] in ("exact", "sense")] or matches[:1]
    rest = [m for m in matches if m not in full]
    if len(full) == 1:
        return full, rest, None
    return full, rest, next((m["alias"]["word"] for m in full if m.get("alias")), full[0]["matched"])
