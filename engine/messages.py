# ruff: noqa: E501  (one template per line reads better than wrapped sentences)
"""Narration templates, German and English, one entry per event key.

Placeholders: ``{card:Nom}`` / ``{card:acc}`` / ``{card:dat}`` / ``{card:gen}`` choose the
German case (capitalised spec = capitalised article at the start of a sentence);
``{card:v:kommt:kommen}`` is a verb agreeing with the name (every verb whose subject is the
card needs one, not only the first); ``{card:pn}`` / ``{card:pa}`` are pronouns ("er", "ihn");
``{player:poss}`` is "Roberts" / "Robert’s"; ``{n:pl:Punkt:Punkte}`` and
``{n:wpl:eine Marke:Marken}`` pick the number's noun (the latter spells small numbers out).
English ignores cases; card names are singular there ("Grizzly Bears deals"), lists of two or
more are plural. The full list of specs is in ``narration._Formatter``.

Terminology follows data/terms/*.tsv: "Kampfschadensegment", "Spielstein", "Marke",
"verrechnen", "bleibende Karte", "Friedhof", "abwerfen", "durchsuchen".
"""

from __future__ import annotations

from regelwerk.engine.events import Label

_COLORS_DE = {
    "white": "Weiß",
    "blue": "Blau",
    "black": "Schwarz",
    "red": "Rot",
    "green": "Grün",
    "creatures": "Kreaturen",
    "everything": "allem",
}
_WALK_DE = {
    "swamp": "Sumpftarnung",
    "island": "Inseltarnung",
    "forest": "Waldtarnung",
    "mountain": "Gebirgstarnung",
    "plains": "Ebenentarnung",
}

KEYWORD_DE: dict[str, str] = {
    "deathtouch": "Todesberührung",
    "defender": "Verteidiger",
    "double strike": "Doppelschlag",
    "first strike": "Erstschlag",
    "flying": "Flugfähigkeit",
    "haste": "Eile",
    "indestructible": "Unzerstörbarkeit",
    "reach": "Reichweite",
    "trample": "Trampelschaden",
    "vigilance": "Wachsamkeit",
    "banding": "Bündnisfähigkeit",
    "phasing": "Phasing",
    "provoke": "Provozieren",
    "persist": "Beharrlichkeit",
    "battle cry": "Schlachtruf",
    "prowess": "Bravour",
    "bushido": "Bushido",
    "bloodthirst": "Blutdurst",
    "poisonous": "Gift",
    "buyback": "Rückkauf",
    "bestow": "Göttergabe",
    "prowl": "Beutezug",
}


def kw_label(name: str) -> Label:
    """A keyword as the trace names it: German and English, narrated as a keyword ability."""
    return Label(keyword_de(name), name, keyword=True)


def keyword_de(name: str) -> str:
    """German for a keyword string as the engine writes it ("protection from red", "bushido 1")."""
    if name in KEYWORD_DE:
        return KEYWORD_DE[name]
    if name.startswith("protection from "):
        q = name.removeprefix("protection from ")
        return f"Schutz vor {_COLORS_DE.get(q, q)}"
    if name.startswith("bands with other "):
        return f"Bündnis mit anderen {name.removeprefix('bands with other ')}"
    if name.endswith("walk") and name[:-4] in _WALK_DE:
        return _WALK_DE[name[:-4]]
    head, _, value = name.rpartition(" ")
    if head in KEYWORD_DE and value.isdigit():
        return f"{KEYWORD_DE[head]} {value}"
    return name


_COUNTERS_DE = {
    "+1/+1": ("+1/+1-Marke", "+1/+1-Marken"),
    "-1/-1": ("-1/-1-Marke", "-1/-1-Marken"),
    "charge": ("Ladungsmarke", "Ladungsmarken"),
    "poison": ("Giftmarke", "Giftmarken"),
}


def _keyword_counter_de(kind: str) -> tuple[str, str]:
    """A keyword counter as one German compound: "Flugfähigkeitsmarke", "Erstschlagmarke"."""
    word = keyword_de(kind)
    joint = "s" if word.endswith(("keit", "heit", "ung", "ion", "tät")) else ""
    return f"{word}{joint}marke", f"{word}{joint}marken"


def counters_de(kind: str, n: int) -> str:
    one, many = _COUNTERS_DE.get(kind) or _keyword_counter_de(kind)
    return f"eine {one}" if n == 1 else f"{n} {many}"


def counters_en(kind: str, n: int) -> str:
    noun = "counter" if n == 1 else "counters"
    return f"a {kind} {noun}" if n == 1 else f"{n} {kind} {noun}"


#: "solange der verteidigende Spieler einen Sumpf kontrolliert" (702.14c).
LAND_PHRASES = {
    "swamp": ("einen Sumpf", "a Swamp"),
    "island": ("eine Insel", "an Island"),
    "forest": ("einen Wald", "a Forest"),
    "mountain": ("ein Gebirge", "a Mountain"),
    "plains": ("eine Ebene", "a Plains"),
}


MESSAGES: dict[str, tuple[str, str]] = {
    # scenario frame
    "note": ("Hinweis: {text}", "Note: {text}"),
    "rejected": ("Nicht erlaubt: {reason}", "Not allowed: {reason}"),
    # triggers and the stack
    "trigger": (
        "Die Fähigkeit „{ability}“ {source:gen} löst aus.",
        "{source:poss} {ability:ability} triggers.",
    ),
    "trigger_condition_false": (
        "Die Fähigkeit „{ability}“ {source:gen} löst nicht aus: {condition}.",
        "{source:poss} {ability:ability} doesn’t trigger: {condition}.",
    ),
    "stack_order": (
        "{player} legt die ausgelösten Fähigkeiten so auf den Stapel, dass sie in dieser Reihenfolge verrechnet werden: {abilities:q}.",
        "{player} puts the triggered abilities on the stack so that they resolve in this order: {abilities:q}.",
    ),
    "resolves_trigger": (
        "Die Fähigkeit „{ability}“ {source:gen} wird verrechnet.",
        "{source:poss} {ability:ability} resolves.",
    ),
    "resolves_spell": ("{card:Nom} {card:v:wird:werden} verrechnet.", "{card} resolves."),
    "resolves_ability": (
        "Die aktivierte Fähigkeit {source:gen} wird verrechnet.",
        "{source:poss} activated ability resolves.",
    ),
    # casting and activating
    "cast": ("{player} wirkt {card:acc}.", "{player} casts {card}."),
    "cast_target": (
        "{player} wirkt {card:acc} mit {target:dat} als Ziel.",
        "{player} casts {card}, targeting {target}.",
    ),
    "cast_bestow": (
        "{player} wirkt {card:acc} für die Göttergabe-Kosten als Aura-Zauberspruch mit {target:dat} als Ziel.",
        "{player} casts {card} bestowed, as an Aura spell targeting {target}.",
    ),
    "cast_buyback": (
        "{player} bezahlt beim Wirken die Rückkaufkosten {card:gen}.",
        "{player} pays {card:poss} buyback cost as it is cast.",
    ),
    "cast_prowl": (
        "{player} wirkt {card:acc} für die Beutezugkosten: In diesem Zug {source:v:hat:haben} {source:nom} unter der Kontrolle von {player} einem Spieler Kampfschaden zugefügt und {source:v:teilt:teilen} einen Kreaturentyp mit {card:dat}.",
        "{player} casts {card} for its prowl cost: this turn {source}, under {player:poss} control and sharing a creature type with it, dealt combat damage to a player.",
    ),
    "activate": ("{player} aktiviert die Fähigkeit {card:gen}.", "{player} activates {card:poss} ability."),
    "activate_target": (
        "{player} aktiviert die Fähigkeit {card:gen} mit {target:dat} als Ziel.",
        "{player} activates {card:poss} ability, targeting {target}.",
    ),
    "discard_cost": ("{player} wirft {card:acc} als Kosten ab.", "{player} discards {card} as a cost."),
    # entering and leaving
    "enters": (
        "{card:Nom} {card:v:kommt:kommen} unter {player:poss} Kontrolle ins Spiel.",
        "{card} enters the battlefield under {player:poss} control.",
    ),
    "spell_enters": (
        "{card:Nom} {card:v:wird:werden} verrechnet und {card:v:kommt:kommen} unter {player:poss} Kontrolle ins Spiel.",
        "{card} resolves and enters the battlefield under {player:poss} control.",
    ),
    "token_created": (
        "{card:Nom} {card:v:kommt:kommen} als Spielstein unter {player:poss} Kontrolle ins Spiel.",
        "{player} creates {card:indef} token{card:tag}.",
    ),
    "enters_attacking": (
        "{card:Nom} {card:v:kommt:kommen} angreifend ins Spiel und {card:v:greift:greifen} {player:acc} an, {card:v:wurde:wurden} aber nie als Angreifer deklariert; „Immer wenn … angreift“ löst dafür nicht aus.",
        "{card} enters attacking {player}; it was never declared as an attacker, so “whenever … attacks” abilities don’t trigger for it.",
    ),
    "bestow_enters": (
        "{card:Nom} {card:v:wird:werden} als Aura verrechnet, {card:v:kommt:kommen} unter {player:poss} Kontrolle ins Spiel und {card:v:verzaubert:verzaubern} {host:acc}.",
        "{card} resolves as an Aura and enters the battlefield under {player:poss} control, attached to {host}.",
    ),
    "bestow_fizzles": (
        "Das Ziel {card:gen} ist nicht mehr legal; {card:nom} {card:v:hört:hören} auf, eine Göttergabe-Aura zu sein, und {card:v:wird:werden} als Kreaturenzauber verrechnet.",
        "{card:poss} target is illegal; it stops being bestowed and resolves as a creature spell.",
    ),
    "bestow_unattached": (
        "{aura:Nom} {aura:v:ist:sind} nicht mehr angelegt, {aura:v:hört:hören} auf, eine Göttergabe-Aura zu sein, und {aura:v:ist wieder eine Kreatur:sind wieder Kreaturen}.",
        "{aura} becomes unattached, stops being bestowed and is a creature again.",
    ),
    "persist_returns": (
        "{card:Nom} {card:v:kommt:kommen} durch Beharrlichkeit mit einer -1/-1-Marke unter {player:poss} Kontrolle ins Spiel zurück – als neues Objekt.",
        "{card} returns to the battlefield under {player:poss} control with a -1/-1 counter on it, as a new object.",
    ),
    "persist_no": (
        "Auf {card:dat} lag eine -1/-1-Marke, daher löst Beharrlichkeit nicht aus; {card:pn} {card:v:bleibt:bleiben} auf dem Friedhof.",
        "{card} had a -1/-1 counter on it, so persist doesn’t trigger; it stays in the graveyard.",
    ),
    "persist_gone": (
        "{card:Nom} {card:v:ist:sind} nicht mehr auf dem Friedhof; Beharrlichkeit bewirkt nichts.",
        "{card} is no longer in the graveyard; persist does nothing.",
    ),
    "bloodthirst_yes": (
        "Ein Gegner hat in diesem Zug Schaden erlitten, daher {card:v:kommt:kommen} {card:nom} mit {n:wpl:einer +1/+1-Marke:+1/+1-Marken} ins Spiel (Blutdurst).",
        "An opponent was dealt damage this turn, so {card} enters with {n:wpl:a +1/+1 counter:+1/+1 counters} (bloodthirst).",
    ),
    "bloodthirst_no": (
        "Kein Gegner hat in diesem Zug Schaden erlitten, daher {card:v:kommt:kommen} {card:nom} ohne +1/+1-Marken ins Spiel (Blutdurst).",
        "No opponent was dealt damage this turn, so {card} enters without +1/+1 counters (bloodthirst).",
    ),
    "destroyed": (
        "{card:Nom} {card:v:wird:werden} zerstört und auf {owner:poss} Friedhof gelegt.",
        "{card} is destroyed and put into {owner:poss} graveyard.",
    ),
    "dies_damage": (
        "{card:Nom} {card:v:hat:haben} tödlichen Schaden ({damage:pl:Schadenspunkt:Schadenspunkte} bei Widerstandskraft {toughness}) und {card:v:wird:werden} zerstört.",
        "{card} has lethal damage marked ({damage} damage, toughness {toughness}) and is destroyed.",
    ),
    "dies_deathtouch": (
        "{card:Nom} {card:v:hat:haben} Schaden von einer Quelle mit Todesberührung erlitten und {card:v:wird:werden} zerstört.",
        "{card} was dealt damage by a source with deathtouch and is destroyed.",
    ),
    "dies_toughness": (
        "{card:Nom} {card:v:hat:haben} Widerstandskraft {toughness} und {card:v:kommt:kommen} auf {owner:poss} Friedhof.",
        "{card} has toughness {toughness} and is put into {owner:poss} graveyard.",
    ),
    "aura_unattached": (
        "{card:Nom} {card:v:ist:sind} an nichts angelegt und {card:v:kommt:kommen} auf {owner:poss} Friedhof.",
        "{card} is attached to nothing and is put into {owner:poss} graveyard.",
    ),
    "spell_to_graveyard": (
        "{card:Nom} {card:v:kommt:kommen} nach der Verrechnung auf {owner:poss} Friedhof.",
        "{card} is put into {owner:poss} graveyard as it finishes resolving.",
    ),
    "buyback_to_hand": (
        "Die Rückkaufkosten wurden bezahlt, daher {card:v:kommt:kommen} {card:nom} nach der Verrechnung statt auf den Friedhof zurück auf {owner:poss} Hand.",
        "The buyback cost was paid, so {card} is put into {owner:poss} hand instead of into {owner:poss} graveyard as it finishes resolving.",
    ),
    "return_to_hand": (
        "{card:Nom} {card:v:kommt:kommen} auf {owner:poss} Hand zurück.",
        "{card} returns to {owner:poss} hand.",
    ),
    "token_vanishes": (
        "{card:Nom} {card:v:ist ein Spielstein:sind Spielsteine} außerhalb des Spiels und {card:v:hört:hören} auf zu existieren.",
        "{card} is a token outside the battlefield and ceases to exist.",
    ),
    "indestructible": (
        "{card:Nom} {card:v:ist:sind} unzerstörbar und {card:v:wird:werden} nicht zerstört.",
        "{card} is indestructible and isn’t destroyed.",
    ),
    "indestructible_ignores": (
        "{card:Nom} {card:v:hat:haben} {damage:pl:Schadenspunkt:Schadenspunkte} bei Widerstandskraft {toughness}, {card:v:ist:sind} aber unzerstörbar und {card:v:bleibt:bleiben} im Spiel.",
        "{card} has {damage} damage marked and toughness {toughness}, but it is indestructible and stays on the battlefield.",
    ),
    # library and hand
    "draw": (
        "{player} zieht {n:wpl:eine Karte:Karten}: {cards:acc}.",
        "{player} draws {n:wpl:a card:cards}: {cards}.",
    ),
    "draw_empty": (
        "{player} kann keine Karte ziehen: {player:their} Bibliothek ist leer.",
        "{player} can’t draw a card: {player:their} library is empty.",
    ),
    "search_found": (
        "{player} durchsucht {player:their} Bibliothek nach {what}, zeigt {card:acc} offen vor und nimmt {card:pa} auf die Hand; danach wird die Bibliothek gemischt.",
        "{player} searches {player:their} library for {what}, reveals {card}, puts it into {player:their} hand, then shuffles.",
    ),
    "search_nothing": (
        "{player} durchsucht {player:their} Bibliothek nach {what}, findet nichts und mischt die Bibliothek.",
        "{player} searches {player:their} library for {what}, finds none and shuffles.",
    ),
    # phasing
    "phases_out": (
        "{card:Nom} {card:v:phast:phasen} aus: {card:Pn} {card:v:bleibt:bleiben} im Spiel, {card:v:wird:werden} aber so behandelt, als gäbe es {card:pa} nicht.",
        "{card} phases out: it stays on the battlefield but is treated as though it doesn’t exist.",
    ),
    "phases_out_indirectly": (
        "{card:Nom} {card:v:phast:phasen} zusammen mit {host:dat} indirekt aus.",
        "{card} phases out indirectly along with {host}.",
    ),
    "phases_in": (
        "{card:Nom} {card:v:phast:phasen} ein und {card:v:existiert:existieren} für das Spiel wieder.",
        "{card} phases in; the game treats it as existing again.",
    ),
    "phases_in_indirectly": (
        "{card:Nom} {card:v:phast:phasen} zusammen mit {host:dat} ein.",
        "{card} phases in along with {host}.",
    ),
    # damage and life
    "combat_damage_player": (
        "{source:Nom} {source:v:fügt:fügen} {player} {n:pl:Punkt:Punkte} Kampfschaden zu; {player} hat jetzt {life:pl:Lebenspunkt:Lebenspunkte}.",
        "{source} deals {n} combat damage to {player}; {player} is at {life} life.",
    ),
    "damage_player": (
        "{source:Nom} {source:v:fügt:fügen} {player} {n:pl:Schadenspunkt:Schadenspunkte} zu; {player} hat jetzt {life:pl:Lebenspunkt:Lebenspunkte}.",
        "{source} deals {n} damage to {player}; {player} is at {life} life.",
    ),
    "combat_damage_creature": (
        "{source:Nom} {source:v:fügt:fügen} {card:dat} {n:pl:Punkt:Punkte} Kampfschaden zu (markierter Schaden insgesamt: {total}).",
        "{source} deals {n} combat damage to {card} ({total} damage marked in total).",
    ),
    "damage_creature": (
        "{source:Nom} {source:v:fügt:fügen} {card:dat} {n:pl:Schadenspunkt:Schadenspunkte} zu (markierter Schaden insgesamt: {total}).",
        "{source} deals {n} damage to {card} ({total} damage marked in total).",
    ),
    "deathtouch_marked": (
        "Da {source:nom} Todesberührung {source:v:hat:haben}, ist dieser Schaden für {card:acc} tödlich.",
        "Because {source} has deathtouch, that damage is lethal to {card}.",
    ),
    "damage_prevented": (
        "{card:Nom} {card:v:hat:haben} {quality}: Der Schaden {source:gen} ({n:pl:Punkt:Punkte}) wird verhindert.",
        "{card} has {quality}, so the {n} damage {source} would deal to it is prevented.",
    ),
    "gain_life": (
        "{player} erhält durch {source:acc} {n:pl:Lebenspunkt:Lebenspunkte} dazu und hat jetzt {life}.",
        "{player} gains {n} life from {source} and is at {life}.",
    ),
    "lose_life": (
        "{player} verliert {n:pl:Lebenspunkt:Lebenspunkte} und hat jetzt {life}.",
        "{player} loses {n} life and is at {life}.",
    ),
    "poisoned": (
        "{player} erhält {n:wpl:eine Giftmarke:Giftmarken} und hat jetzt {total:pl:Giftmarke:Giftmarken}.",
        "{player} gets {n:wpl:a poison counter:poison counters} and now has {total:pl:poison counter:poison counters}.",
    ),
    # effects and keyword actions
    "pump": (
        "{card:Nom} {card:v:erhält:erhalten} {power}/{toughness} bis zum Ende des Zuges.",
        "{card} gets {power}/{toughness} until end of turn.",
    ),
    "pump_keywords": (
        "{card:Nom} {card:v:erhält:erhalten} {power}/{toughness} und {keywords} bis zum Ende des Zuges.",
        "{card} gets {power}/{toughness} and gains {keywords} until end of turn.",
    ),
    "grant": (
        "{card:Nom} {card:v:erhält:erhalten} {keywords} bis zum Ende des Zuges.",
        "{card} gains {keywords} until end of turn.",
    ),
    "counters_added": ("{card:Nom} {card:v:erhält:erhalten} {what}.", "{card} gets {what}."),
    "counters_cancel": (
        "Auf {card:dat} liegen +1/+1- und -1/-1-Marken; {n:wpl:eine Marke:Marken} jeder Sorte {n:v:wird:werden} entfernt.",
        "{card} has both +1/+1 and -1/-1 counters; {n:w} of each kind {n:v:is:are} removed.",
    ),
    "cant_block_effect": (
        "Bis zum Ende des Zuges können Kreaturen mit Stärke {n} oder weniger nicht blocken ({source:nom}).",
        "Until end of turn, creatures with power {n} or less can’t block ({source}).",
    ),
    "battle_cry": (
        "Schlachtruf {source:gen}: Jede andere angreifende Kreatur erhält +1/+0 bis zum Ende des Zuges ({cards:nom}).",
        "{source:poss} battle cry: each other attacking creature gets +1/+0 until end of turn ({cards}).",
    ),
    "battalion": (
        "{card:Nom} {card:v:greift:greifen} zusammen mit {n:wpl:einer anderen Kreatur:anderen Kreaturen} an, daher löst Bataillon aus (ein Fähigkeitswort ohne eigene Regelbedeutung).",
        "{card} and {n:wpl:one other creature:other creatures} attack, so its battalion ability triggers (battalion is an ability word with no rules meaning of its own).",
    ),
    "battalion_not": (
        "Außer {card:dat} {n:v:greift:greifen} nur {n:wpl:eine andere Kreatur:andere Kreaturen} an; Bataillon braucht mindestens zwei und löst nicht aus.",
        "Only {n:wpl:one other creature attacks:other creatures attack} with {card}; battalion needs at least two, so it doesn’t trigger.",
    ),
    "battalion_alone": (
        "{card:Nom} {card:v:greift:greifen} allein an; Bataillon löst nicht aus.",
        "{card} attacks alone, so battalion doesn’t trigger.",
    ),
    "bolster": (
        "{player} wendet Kräftigung {n} an und wählt {card:acc}, eine Kreatur mit der geringsten Widerstandskraft ({least}).",
        "{player} bolsters {n}, choosing {card}, a creature with the least toughness ({least}).",
    ),
    "bolster_nothing": (
        "{player} kontrolliert keine Kreatur; Kräftigung bewirkt nichts.",
        "{player} controls no creatures; bolster does nothing.",
    ),
    "populate": (
        "{player} führt Bevölkern durch und kopiert {card:acc}.",
        "{player} populates, copying {card}.",
    ),
    "populate_nothing": (
        "{player} kontrolliert keinen Kreaturenspielstein; Bevölkern erzeugt nichts.",
        "{player} controls no creature token, so populate creates nothing.",
    ),
    "proliferate": (
        "{player} führt Wucherung durch und wählt {chosen:acc}: Jede gewählte bleibende Karte und jeder gewählte Spieler erhält eine weitere Marke jeder Sorte, die dort bereits liegt.",
        "{player} proliferates, choosing {chosen}: each gets one more counter of each kind already there.",
    ),
    "proliferate_poison": (
        "{player} erhält eine weitere Giftmarke und hat jetzt {total:pl:Giftmarke:Giftmarken}.",
        "{player} gets another poison counter and now has {total:pl:poison counter:poison counters}.",
    ),
    "provoked": (
        "{source:Nom} {source:v:provoziert:provozieren} {target:acc}: {target:Pn} {target:v:wird:werden} enttappt und {target:v:muss:müssen} {source:acc} blocken, falls möglich.",
        "{source} provokes {target}: it untaps and must block {source} if able.",
    ),
    "provoke_declined": (
        "Für Provozieren {source:gen} wird kein Ziel gewählt.",
        "No target is chosen for {source:poss} provoke.",
    ),
    # combat
    "declare_attackers": (
        "{player} greift {defender:acc} mit {cards:dat} an.",
        "{player} attacks {defender} with {cards}.",
    ),
    "band_announced": (
        "{player} sagt an, dass {cards:nom} ein Bündnis bilden.",
        "{player} announces that {cards} form a band.",
    ),
    "vigilance": (
        "{card:Nom} {card:v:hat:haben} Wachsamkeit und {card:v:wird:werden} beim Angreifen nicht getappt.",
        "{card} has vigilance and doesn’t tap to attack.",
    ),
    "attackers_tap": (
        "{player} tappt {cards:acc} als {cards:n:Angreifer:Angreifer}.",
        "{player} taps {cards} as {cards:n:an attacker:attackers}.",
    ),
    "no_blockers": ("{player} deklariert keine Blocker.", "{player} declares no blockers."),
    "blocks": ("{blocker:Nom} {blocker:v:blockt:blocken} {attacker:acc}.", "{blocker} blocks {attacker}."),
    "band_blocked": (
        "Weil {attacker:nom} in einem Bündnis {attacker:v:angreift:angreifen}, {blocker:v:blockt:blocken} {blocker:nom} auch {cards:acc}.",
        "Because {attacker} attacks in a band, {blocker} also blocks {cards}.",
    ),
    "unblocked": ("Ungeblockt: {cards:nom}.", "Unblocked: {cards}."),
    "first_strike_step": (
        "Da {cards:nom} Erstschlag oder Doppelschlag {cards:v:hat:haben}, gibt es zwei Kampfschadensegmente; im ersten fügen nur Kreaturen mit Erstschlag oder Doppelschlag Kampfschaden zu.",
        "{cards} {cards:v:has:have} first strike or double strike, so there are two combat damage steps; only creatures with first strike or double strike deal combat damage in the first.",
    ),
    "second_damage_step": (
        "Zweites Kampfschadensegment: {cards:Nom} {cards:v:fügt:fügen} Kampfschaden zu.",
        "Second combat damage step: {cards} {cards:v:deals:deal} combat damage.",
    ),
    "second_damage_step_none": (
        "Zweites Kampfschadensegment: Keine Kreatur fügt mehr Kampfschaden zu.",
        "Second combat damage step: no creature deals combat damage.",
    ),
    "no_damage_power": (
        "{card:Nom} {card:v:hat:haben} Stärke {n} und {card:v:weist:weisen} keinen Kampfschaden zu.",
        "{card} has power {n} and assigns no combat damage.",
    ),
    "trample_no_blockers": (
        "{card:Nom} {card:v:ist:sind} geblockt, aber kein Blocker ist mehr da; wegen Trampelschaden geht der gesamte Schaden an {player:acc}.",
        "{card} is blocked but no blockers remain; because of trample, all its damage is assigned to {player}.",
    ),
    "blocked_no_blockers": (
        "{card:Nom} {card:v:bleibt:bleiben} geblockt, obwohl kein Blocker mehr da ist, und {card:v:weist:weisen} keinen Kampfschaden zu.",
        "{card} remains blocked although no blockers remain, so it assigns no combat damage.",
    ),
    "blocking_nothing": (
        "{card:Nom} {card:v:blockt:blocken} keine Kreatur mehr und {card:v:weist:weisen} keinen Kampfschaden zu.",
        "{card} is no longer blocking any creature and assigns no combat damage.",
    ),
    "assign_attacker": (
        "{chooser} verteilt den Kampfschaden {card:gen} frei auf die Blocker: {split}.",
        "{chooser} divides {card:poss} combat damage freely among its blockers: {split}.",
    ),
    "assign_trample": (
        "{chooser} weist den Blockern {card:gen} tödlichen Schaden zu und den Rest wegen Trampelschaden {player:dat}: {split}.",
        "{chooser} assigns lethal damage to {card:poss} blockers and, because of trample, the rest to {player}: {split}.",
    ),
    "assign_blocker": (
        "{chooser} verteilt den Kampfschaden {card:gen} frei auf die geblockten Kreaturen: {split}.",
        "{chooser} divides {card:poss} combat damage freely among the creatures it blocks: {split}.",
    ),
    "assign_banding_defender": (
        "{chooser} kontrolliert einen Blocker mit Bündnisfähigkeit, daher verteilt {chooser:pro} – nicht {controller} – den Kampfschaden {card:gen}: {split}.",
        "{chooser} controls a blocker with banding, so {chooser:pro} – not {controller} – divides {card:poss} combat damage: {split}.",
    ),
    "assign_banding_attacker": (
        "{card:Nom} {card:v:blockt:blocken} eine Kreatur mit Bündnisfähigkeit, daher verteilt {chooser} – nicht {controller} – den Kampfschaden {card:gen}: {split}.",
        "{card} is blocking a creature with banding, so {chooser} – not {controller} – divides its combat damage: {split}.",
    ),
    "combat_ends": (
        "Der Kampf endet; alle Kreaturen werden aus dem Kampf entfernt.",
        "Combat ends; all creatures are removed from combat.",
    ),
    "cleanup": (
        "Aufräumen: Der markierte Schaden wird entfernt ({cards:nom}), und {n:pl:Effekt:Effekte} „bis zum Ende des Zuges“ {n:v:endet:enden}.",
        "Cleanup: marked damage is removed ({cards}) and {n:pl:“until end of turn” effect:“until end of turn” effects} {n:v:ends:end}.",
    ),
    "cleanup_damage": (
        "Aufräumen: Der markierte Schaden wird entfernt ({cards:nom}).",
        "Cleanup: marked damage is removed ({cards}).",
    ),
    "cleanup_effects": (
        "Aufräumen: {n:pl:Effekt:Effekte} „bis zum Ende des Zuges“ {n:v:endet:enden}.",
        "Cleanup: {n:pl:“until end of turn” effect:“until end of turn” effects} {n:v:ends:end}.",
    ),
    "cleanup_nothing": (
        "Aufräumen: Es ist kein Schaden markiert, und kein Effekt „bis zum Ende des Zuges“ endet.",
        "Cleanup: no damage is marked and no “until end of turn” effect ends.",
    ),
    "new_turn": (
        "Zug {turn}: {player} ist der aktive Spieler.",
        "Turn {turn}: {player} is the active player.",
    ),
    "untap": ("{player} enttappt {cards:acc}.", "{player} untaps {cards}."),
    # the end of the game
    "loses_life": (
        "{player} hat {life:pl:Lebenspunkt:Lebenspunkte} und verliert das Spiel.",
        "{player} has {life} life and loses the game.",
    ),
    "loses_poison": (
        "{player} hat {poison:pl:Giftmarke:Giftmarken} und verliert das Spiel.",
        "{player} has {poison:pl:poison counter:poison counters} and loses the game.",
    ),
    "wins": ("{player} gewinnt das Spiel.", "{player} wins the game."),
    # refusals (IllegalAction)
    "not_on_battlefield": (
        "{card:Nom} {card:v:ist:sind} nicht im Spiel.",
        "{card} isn’t on the battlefield.",
    ),
    "phased_out_cant": (
        "{card:Nom} {card:v:ist:sind} ausgephast und {card:v:wird:werden} so behandelt, als gäbe es {card:pa} nicht.",
        "{card} is phased out and is treated as though it doesn’t exist.",
    ),
    "not_a_creature": (
        "{card:Nom} {card:v:ist keine Kreatur:sind keine Kreaturen}.",
        "{card} isn’t a creature.",
    ),
    "attack_not_yours": (
        "{card:Nom} {card:v:wird:werden} nicht vom aktiven Spieler {player} kontrolliert.",
        "{card} isn’t controlled by the active player, {player}.",
    ),
    "attack_tapped": (
        "{card:Nom} {card:v:ist:sind} getappt und {card:v:kann:können} nicht angreifen.",
        "{card} is tapped and can’t attack.",
    ),
    "attack_sick": (
        "{card:Nom} {card:v:steht:stehen} erst seit diesem Zug unter der Kontrolle des Spielers und {card:v:hat:haben} keine Eile.",
        "{card} hasn’t been under its controller’s control since the turn began and has no haste.",
    ),
    "attack_defender": (
        "{card:Nom} {card:v:hat:haben} Verteidiger und {card:v:kann:können} nicht angreifen.",
        "{card} has defender and can’t attack.",
    ),
    "band_not_attacking": (
        "{card:Nom} {card:v:greift:greifen} nicht an und {card:v:kann:können} keinem Bündnis angehören.",
        "{card} isn’t attacking and can’t be in a band.",
    ),
    "band_twice": (
        "{card:Nom} {card:v:kann:können} nur einem Bündnis angehören.",
        "{card} can be in only one band.",
    ),
    "band_no_banding": (
        "Im Bündnis aus {cards:dat} hat keine Kreatur Bündnisfähigkeit.",
        "No creature in the band of {cards} has banding.",
    ),
    "band_too_many_without": (
        "Ein Bündnis darf höchstens eine Kreatur ohne Bündnisfähigkeit enthalten, hier sind es {cards:nom}.",
        "A band may include at most one creature without banding, not {cards}.",
    ),
    "block_not_yours": (
        "{card:Nom} {card:v:wird:werden} nicht vom verteidigenden Spieler {player} kontrolliert.",
        "{card} isn’t controlled by the defending player, {player}.",
    ),
    "block_tapped": (
        "{card:Nom} {card:v:ist:sind} getappt und {card:v:kann:können} nicht blocken.",
        "{card} is tapped and can’t block.",
    ),
    "block_not_attacking": (
        "{attacker:Nom} {attacker:v:greift:greifen} nicht an; {card:nom} {card:v:kann:können} {attacker:pa} nicht blocken.",
        "{attacker} isn’t attacking, so {card} can’t block it.",
    ),
    "block_flying": (
        "{attacker:Nom} {attacker:v:hat:haben} Flugfähigkeit und {attacker:v:kann:können} nur von Kreaturen mit Flugfähigkeit oder Reichweite geblockt werden; {blocker:nom} {blocker:v:hat:haben} keine von beiden.",
        "{attacker} has flying and can’t be blocked except by creatures with flying or reach; {blocker} has neither.",
    ),
    "block_landwalk": (
        "{attacker:Nom} {attacker:v:hat:haben} {walk} und {attacker:v:kann:können} nicht geblockt werden, solange der verteidigende Spieler {land} kontrolliert.",
        "{attacker} has {walk} and can’t be blocked as long as the defending player controls {land}.",
    ),
    "block_protection": (
        "{attacker:Nom} {attacker:v:hat:haben} {quality} und {attacker:v:kann:können} nicht von {blocker:dat} geblockt werden.",
        "{attacker} has {quality} and can’t be blocked by {blocker}.",
    ),
    "block_power_limit": (
        "Kreaturen mit Stärke {n} oder weniger können in diesem Zug nicht blocken ({source:nom}); {blocker:nom} {blocker:v:hat:haben} zu wenig Stärke.",
        "Creatures with power {n} or less can’t block this turn ({source}); {blocker} is one of them.",
    ),
    "too_many_blockers": (
        "{card:Nom} {card:v:kann:können} nicht von mehr als {n:wpl:einer Kreatur:Kreaturen} geblockt werden.",
        "{card} can’t be blocked by more than {n:wpl:one creature:creatures}.",
    ),
    "provoke_ignored": (
        "{blocker:Nom} {blocker:v:wurde:wurden} von {attacker:dat} provoziert und {blocker:v:kann:können} {attacker:pa} blocken, also {blocker:v:muss:müssen} {blocker:pn} das auch tun.",
        "{blocker} was provoked by {attacker} and is able to block it, so it must do so.",
    ),
    "provoke_wrong_player": (
        "Provozieren {source:gen} kann nur eine Kreatur des verteidigenden Spielers wählen, nicht {target:acc}.",
        "{source:poss} provoke can target only a creature the defending player controls, not {target}.",
    ),
    "assign_to_player": (
        "{card:Nom} {card:v:darf:dürfen} {target:dat} keinen Kampfschaden zuweisen: Das darf nur ein geblockter Angreifer mit Trampelschaden, dessen Beherrscher den Schaden verteilt.",
        "{card} can’t assign combat damage to {target}: only a blocked attacker with trample whose controller divides its damage may.",
    ),
    "assign_wrong_target": (
        "{target:Nom} {target:v:kann:können} keinen Kampfschaden {card:gen} zugewiesen bekommen.",
        "{target} can’t be assigned {card:poss} combat damage.",
    ),
    "assign_negative": (
        "Schaden kann nicht negativ zugewiesen werden ({card:nom}).",
        "Combat damage can’t be negative ({card}).",
    ),
    "assign_total": (
        "{card:Nom} {card:v:muss:müssen} genau {n:pl:Punkt:Punkte} Kampfschaden zuweisen, nicht {total}.",
        "{card} must assign exactly {n} combat damage, not {total}.",
    ),
    "trample_not_lethal": (
        "{card:Nom} {card:v:darf:dürfen} {player:dat} erst Schaden zuweisen, wenn jedem Blocker tödlicher Schaden zugewiesen ist; {blocker:dat} {n:v:ist:sind} {n:pl:Schadenspunkt:Schadenspunkte} zugewiesen, tödlich {need:v:wäre:wären} {need}.",
        "{card} can’t assign damage to {player} until each blocker is assigned lethal damage; {blocker} is assigned {n}, but lethal damage would be {need}.",
    ),
    "target_missing": (
        "{source:Nom} {source:v:braucht:brauchen} ein legales Ziel im Spiel.",
        "{source} needs a legal target on the battlefield.",
    ),
    "target_not_creature": (
        "{target:Nom} {target:v:ist kein legales Ziel:sind kein legales Ziel} für {source:acc}; es muss eine Kreatur sein.",
        "{target} isn’t a legal target for {source}; it must be a creature.",
    ),
    "target_not_permanent": (
        "{target:Nom} {target:v:ist kein legales Ziel:sind kein legales Ziel} für {source:acc}; es muss eine bleibende Karte sein.",
        "{target} isn’t a legal target for {source}; it must be a permanent.",
    ),
    "target_not_attacking": (
        "{target:Nom} {target:v:greift:greifen} nicht an und {target:v:kann:können} daher nicht Ziel {source:gen} sein.",
        "{target} isn’t attacking, so it isn’t a legal target for {source}.",
    ),
    "target_phased_out": (
        "{target:Nom} {target:v:ist:sind} ausgephast und {target:v:kann:können} nicht als Ziel gewählt werden.",
        "{target} is phased out and can’t be targeted.",
    ),
    "target_protection": (
        "{target:Nom} {target:v:hat:haben} {quality} und {target:v:kann:können} nicht Ziel {source:gen} sein.",
        "{target} has {quality} and can’t be the target of {source}.",
    ),
    "cast_not_in_hand": (
        "{card:Nom} {card:v:ist:sind} nicht auf der Hand und {card:v:kann:können} nicht gewirkt werden.",
        "{card} isn’t in hand and can’t be cast.",
    ),
    "cast_timing": (
        "{card:Nom} {card:v:kann:können} nur in {player:poss} Hauptphase bei leerem Stapel gewirkt werden.",
        "{card} can be cast only in {player:poss} main phase while the stack is empty.",
    ),
    "no_bestow": ("{card:Nom} {card:v:hat:haben} keine Göttergabe.", "{card} doesn’t have bestow."),
    "no_buyback": ("{card:Nom} {card:v:hat:haben} keinen Rückkauf.", "{card} doesn’t have buyback."),
    "no_prowl": ("{card:Nom} {card:v:hat:haben} keinen Beutezug.", "{card} doesn’t have prowl."),
    "prowl_unavailable": (
        "{player} kann {card:acc} nicht für die Beutezugkosten wirken: In diesem Zug hat keine Quelle unter der Kontrolle von {player}, die einen Kreaturentyp mit {card:dat} teilt, einem Spieler Kampfschaden zugefügt.",
        "{player} can’t cast {card} for its prowl cost: no source under {player:poss} control that shares a creature type with it dealt combat damage to a player this turn.",
    ),
    "one_alternative_cost": (
        "Für einen Zauberspruch kann nur eine alternative Methode des Wirkens oder nur ein Satz alternativer Kosten gewählt werden, nicht {ways}.",
        "A spell can be cast with only one alternative method or alternative cost, not {ways}.",
    ),
    "no_such_ability": (
        "{card:Nom} {card:v:hat:haben} keine aktivierte Fähigkeit „{ability}“.",
        "{card} has no activated ability “{ability}”.",
    ),
    "activate_not_in_hand": ("{card:Nom} {card:v:ist:sind} nicht auf der Hand.", "{card} isn’t in hand."),
    "already_tapped": (
        "{card:Nom} {card:v:ist:sind} schon getappt; nur ungetappte bleibende Karten können getappt werden.",
        "{card} is already tapped; only untapped permanents can be tapped.",
    ),
    "tap_sick": (
        "{card:Nom} {card:v:ist:sind} erst in diesem Zug ins Spiel gekommen und {card:v:kann:können} keine Tap-Fähigkeit aktivieren.",
        "{card} came under its controller’s control this turn and can’t activate a tap ability.",
    ),
    "search_wrong_card": (
        "{card:Nom} in {player:poss} Bibliothek {card:v:passt:passen} nicht zur Suche nach {what}.",
        "{card} in {player:poss} library doesn’t match the search for {what}.",
    ),
    "bolster_not_least": (
        "{card:Nom} {card:v:hat:haben} nicht die geringste Widerstandskraft ({least}); Kräftigung muss eine Kreatur mit der geringsten Widerstandskraft wählen: {candidates:acc}.",
        "{card} doesn’t have the least toughness ({least}); bolster must choose a creature with the least toughness: {candidates}.",
    ),
    "populate_not_token": (
        "{card:Nom} {card:v:ist:sind} kein Kreaturenspielstein unter der eigenen Kontrolle.",
        "{card} isn’t a creature token you control.",
    ),
    "proliferate_no_counters": (
        "Auf {thing:dat} liegen keine Marken; Wucherung kann {thing:acc} nicht wählen.",
        "{thing} has no counters, so proliferate can’t choose it.",
    ),
}
