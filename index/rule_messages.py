"""The rules' sentences that callers recognise by identity, each defined once.

A rule note or error is a `Message` whose ``id`` is its English template. The web pages say
some of them in their own way (a note's rule number linked to the document it speaks of, a
seed's id as its title, the diff's "swap them" as a link to the swapped diff), so they must
know which message they hold: they compare its ``id`` with these names (through the facade),
never with a copy of the words. `lookup` and `changes` say them through the same names, so a
change of wording here changes both ends.

Constants only, outside ``rules/``: the facade re-exports it at import time, and ``regelwerk
search``, ``card`` and ``term`` load nothing of ``rules/`` (tests/test_search.py, test_cards.py).
"""

from __future__ import annotations

from regelwerk.ingest.model.message import N_

# -- notes on a rule whose number belongs to another document ------------------------------
#: No ingested document has the number asked for; the rule is `moved` in `where` (`then`:
#: `TODAY_IS`, what `moved` means today), named where it has a title (`SAME_RULE_NAMED`).
SAME_RULE_ELSEWHERE = N_("{number} is in no ingested document{scope}; the same rule is {moved} in "
                         "{where}{then}.")
SAME_RULE_NAMED = N_("{number} is in no ingested document{scope}; the same rule, {named}, is {moved} in "
                     "{where}{then}.")
#: A rule of an older document, and its number today (`NUMBER_TODAY_MEANS`: and what its own
#: number means today, `then` = `TODAY_IS`).
NUMBER_TODAY = N_("{number} in {where} is {title}; today that is {current}.")
NUMBER_TODAY_MEANS = N_("{number} in {where} is {title}, today {current}{then}.")
TODAY_IS = N_("; today {moved} is {today}")
#: The same number in another release is another rule (in a run of releases: `NUMBER_IN_RELEASES`).
NUMBER_IN_RELEASE = N_("{number} in the {version} rules is {title}{today}.")
NUMBER_IN_RELEASES = N_("{number} in the rules from {version} to {last} ({count} releases) is "
                        "{title}{today}.")
#: A rule of an older document that a later release removed.
REMOVED_IN = N_("{number} in {where} was removed in the {release} rules.")
#: A rule of an older document that linking cannot follow to the newest rules.
NOT_KNOWN_TODAY = N_("{number} in {where}: its number in the newest English rules is not known.")

# -- how a note names a document (``where``) and the scope of a lookup (``scope``) ---------
#: A CR release by its date.
RELEASE = N_("the {version} rules")
#: Another document (a seed) by its id and language codes.
DOCUMENT = N_("'{document}' ({language})")
#: A lookup narrowed to a language, or to a release and a language.
FOR_LANGUAGE = N_(" for language '{lang}'")
FOR_VERSION_AND_LANGUAGE = N_(" for version {version} and language '{lang}'")

# -- errors ----------------------------------------------------------------------------------
#: What a rule lookup expects of a word that names no rule (`InvalidRuleNumber`'s ``expected``).
RULE_OR_TERM = N_("a rule number such as '702.22' or '702.22j', or a keyword or game term "
                  "('Trampelschaden', 'banding'); try 'regelwerk term' or 'regelwerk search'")
#: A diff asked from a newer release to an older one.
NEWER_THAN = N_("{old!r} ({old_version}) is newer than {new!r} ({new_version}); swap them")
