# ruff: noqa: E501  (one template per line reads better than wrapped sentences)
"""Narration templates, German and English, one entry per event key.

Placeholders: ``{card:Nom}`` / ``{card:acc}`` / ``{card:dat}`` / ``{card:gen}`` choose the
German case (capitalised spec = capitalised article at the start of a sentence);
``{player:pro}`` is the player's pronoun; ``{n:pl:Marke:Marken}`` picks the number's noun.
English ignores cases; ``{card:poss}`` is the possessive.
"""

from __future__ import annotations

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
}


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


def counters_de(kind: str, n: int) -> str:
    one, many = _COUNTERS_DE.get(kind, (f"{keyword_de(kind)}-Marke", f"{keyword_de(kind)}-Marken"))
    return f"eine {one}" if n == 1 else f"{n} {many}"


def counters_en(kind: str, n: int) -> str:
    noun = "counter" if n == 1 else "counters"
    return f"a {kind} {noun}" if n == 1 else f"{n} {kind} {noun}"


MESSAGES: dict[str, tuple[str, str]] = {
    # scenario frame
    "note": ("Hinweis: {text}", "Note: {text}"),
    "rejected": ("Nicht erlaubt: {reason}", "Not allowed: {reason}"),
    # triggers and the stack
    "trigger": (
        "Die Fähigkeit „{ability}“ {source:gen} löst aus.",
        "{source:poss} {ability} ability triggers.",
    ),
    "stack_order": (
        "{player} legt die ausgelösten Fähigkeiten so auf den Stapel, dass sie in dieser Reihenfolge verrechnet werden: {abilities}.",
        "{player} puts the triggered abilities on the stack so that they resolve in this order: {abilities}.",
    ),
    "resolves_trigger": (
        "Die Fähigkeit „{ability}“ {source:gen} wird verrechnet.",
        "{source:poss} {ability} ability resolves.",
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
        "{player} wirkt {card:acc} für die Göttergabe-Kosten: ein Aura-Zauberspruch mit {target:dat} als Ziel.",
        "{player} casts {card} bestowed: an Aura spell targeting {target}.",
    ),
    "activate": ("{player} aktiviert die Fähigkeit {card:gen}.", "{player} activates {card:poss} ability."),
    "activate_target": (
        "{player} aktiviert die Fähigkeit {card:gen} mit {target:dat} als Ziel.",
        "{player} activates {card:poss} ability, targeting {target}.",
    ),
    "discard_cost": ("{player} wirft {card:acc} als Kosten ab.", "{player} discards {card} as a cost."),
    # entering and leaving
    "enters": (
        "{card:Nom} {card:v:kommt:kommen} unter der Kontrolle von {player} ins Spiel.",
        "{card} enters the battlefield under {player:poss} control.",
    ),
    "spell_enters": (
        "{card:Nom} {card:v:wird:werden} verrechnet und kommt unter der Kontrolle von {player} ins Spiel.",
        "{card} resolves and enters the battlefield under {player:poss} control.",
    ),
    "token_created": (
        "{card:Nom} {card:v:kommt:kommen} als Spielstein unter der Kontrolle von {player} ins Spiel.",
        "{player} creates a {card} token.",
    ),
    "enters_attacking": (
        "{card:Nom} {card:v:kommt:kommen} angreifend ins Spiel und greift {player:acc} an, wurde aber nie als Angreifer deklariert; „Wann immer … angreift“ löst dafür nicht aus.",
        "{card} enters attacking {player}; it was never declared as an attacker, so “whenever … attacks” abilities don’t trigger for it.",
    ),
    "bestow_enters": (
        "{card:Nom} {card:v:wird:werden} als Aura verrechnet, kommt unter der Kontrolle von {player} ins Spiel und verzaubert {host:acc}.",
        "{card} resolves as an Aura and enters the battlefield under {player:poss} control, attached to {host}.",
    ),
    "bestow_fizzles": (
        "Das Ziel {card:gen} ist nicht mehr legal; {card:nom} hört auf, eine Göttergabe-Aura zu sein, und wird als Kreaturenzauber verrechnet.",
        "{card:poss} target is illegal; it stops being bestowed and resolves as a creature spell.",
    ),
    "bestow_unattached": (
        "{aura:Nom} {aura:v:ist:sind} nicht mehr angelegt, hört auf, eine Göttergabe-Aura zu sein, und ist wieder eine Kreatur.",
        "{aura} becomes unattached, stops being bestowed and is a creature again.",
    ),
    "persist_returns": (
        "{card:Nom} {card:v:kommt:kommen} durch Beharrlichkeit mit einer -1/-1-Marke unter der Kontrolle von {player} ins Spiel zurück – als neues Objekt.",
        "{card} returns to the battlefield under {player:poss} control with a -1/-1 counter on it, as a new object.",
    ),
    "persist_no": (
        "{card:Nom} {card:v:hatte:hatten} eine -1/-1-Marke, daher löst Beharrlichkeit nicht aus; {card:nom} {card:v:bleibt:bleiben} im Friedhof.",
        "{card} had a -1/-1 counter on it, so persist doesn’t trigger; it stays in the graveyard.",
    ),
    "persist_gone": (
        "{card:Nom} {card:v:ist:sind} nicht mehr im Friedhof; Beharrlichkeit bewirkt nichts.",
        "{card} is no longer in the graveyard; persist does nothing.",
    ),
    "bloodthirst_yes": (
        "Ein Gegner hat in diesem Zug Schaden erlitten, daher kommt {card:nom} mit {n:pl:+1/+1-Marke:+1/+1-Marken} ins Spiel (Blutdurst).",
        "An opponent was dealt damage this turn, so {card} enters with {n:pl:+1/+1 counter:+1/+1 counters} (bloodthirst).",
    ),
    "bloodthirst_no": (
        "Kein Gegner hat in diesem Zug Schaden erlitten, daher kommt {card:nom} ohne Blutdurst-Marken ins Spiel.",
        "No opponent was dealt damage this turn, so {card} enters without bloodthirst counters.",
    ),
    "destroyed": (
        "{card:Nom} {card:v:wird:werden} zerstört und auf den Friedhof von {owner} gelegt.",
        "{card} is destroyed and put into {owner:poss} graveyard.",
    ),
    "dies_damage": (
        "{card:Nom} {card:v:hat:haben} tödlichen Schaden ({damage} Schaden bei Widerstandskraft {toughness}) und wird zerstört.",
        "{card} has lethal damage marked ({damage} damage, toughness {toughness}) and is destroyed.",
    ),
    "dies_deathtouch": (
        "{card:Nom} {card:v:wurde:wurden} von einer Quelle mit Todesberührung verletzt und wird zerstört.",
        "{card} was dealt damage by a source with deathtouch and is destroyed.",
    ),
    "dies_toughness": (
        "{card:Nom} {card:v:hat:haben} Widerstandskraft {toughness} und kommt auf den Friedhof von {owner}.",
        "{card} has toughness {toughness} and is put into {owner:poss} graveyard.",
    ),
    "aura_unattached": (
        "{card:Nom} {card:v:ist:sind} an nichts angelegt und kommt auf den Friedhof von {owner}.",
        "{card} is attached to nothing and is put into {owner:poss} graveyard.",
    ),
    "spell_to_graveyard": (
        "{card:Nom} {card:v:kommt:kommen} nach der Verrechnung auf den Friedhof von {owner}.",
        "{card} is put into {owner:poss} graveyard as it finishes resolving.",
    ),
    "token_vanishes": (
        "{card:Nom} {card:v:ist:sind} ein Spielstein außerhalb des Spielfelds und hört auf zu existieren.",
        "{card} is a token outside the battlefield and ceases to exist.",
    ),
    "indestructible": (
        "{card:Nom} {card:v:ist:sind} unzerstörbar und wird nicht zerstört.",
        "{card} is indestructible and isn’t destroyed.",
    ),
    "indestructible_ignores": (
        "{card:Nom} {card:v:hat:haben} {damage} Schaden bei Widerstandskraft {toughness}, ist aber unzerstörbar und bleibt im Spiel.",
        "{card} has {damage} damage marked and toughness {toughness}, but it is indestructible and stays on the battlefield.",
    ),
    # phasing
    "phases_out": (
        "{card:Nom} {card:v:phast:phasen} aus: {card:nom} {card:v:bleibt:bleiben} im Spiel, wird aber so behandelt, als gäbe es {card:acc} nicht.",
        "{card} phases out: it stays on the battlefield but is treated as though it doesn’t exist.",
    ),
    "phases_out_indirectly": (
        "{card:Nom} {card:v:phast:phasen} zusammen mit {host:dat} indirekt aus.",
        "{card} phases out indirectly along with {host}.",
    ),
    "phases_in": (
        "{card:Nom} {card:v:phast:phasen} ein; das Spiel behandelt {card:acc} wieder als existent.",
        "{card} phases in; the game treats it as existing again.",
    ),
    "phases_in_indirectly": (
        "{card:Nom} {card:v:phast:phasen} zusammen mit {host:dat} ein.",
        "{card} phases in along with {host}.",
    ),
    # damage and life
    "combat_damage_player": (
        "{source:Nom} {source:v:fügt:fügen} {player} {n:pl:Kampfschadenspunkt:Kampfschadenspunkte} zu; {player} hat noch {life} Lebenspunkte.",
        "{source} deals {n} combat damage to {player}; {player} is at {life} life.",
    ),
    "damage_player": (
        "{source:Nom} {source:v:fügt:fügen} {player} {n:pl:Schadenspunkt:Schadenspunkte} zu; {player} hat noch {life} Lebenspunkte.",
        "{source} deals {n} damage to {player}; {player} is at {life} life.",
    ),
    "combat_damage_creature": (
        "{source:Nom} {source:v:fügt:fügen} {card:dat} {n:pl:Kampfschadenspunkt:Kampfschadenspunkte} zu (insgesamt {total} Schaden markiert).",
        "{source} deals {n} combat damage to {card} ({total} damage marked in total).",
    ),
    "damage_creature": (
        "{source:Nom} {source:v:fügt:fügen} {card:dat} {n:pl:Schadenspunkt:Schadenspunkte} zu (insgesamt {total} Schaden markiert).",
        "{source} deals {n} damage to {card} ({total} damage marked in total).",
    ),
    "deathtouch_marked": (
        "Da {source:nom} Todesberührung hat, ist dieser Schaden für {card:acc} tödlich.",
        "Because {source} has deathtouch, that damage is lethal to {card}.",
    ),
    "damage_prevented": (
        "{card:Nom} {card:v:hat:haben} {quality}: Die {n} Schadenspunkte {source:gen} werden verhindert.",
        "{card} has {quality}, so the {n} damage {source} would deal to it is prevented.",
    ),
    "gain_life": (
        "{player} erhält durch {source:acc} {n} Lebenspunkte dazu und hat jetzt {life}.",
        "{player} gains {n} life from {source} and is at {life}.",
    ),
    "lose_life": (
        "{player} verliert {n:pl:Lebenspunkt:Lebenspunkte} und hat jetzt {life}.",
        "{player} loses {n} life and is at {life}.",
    ),
    "poisoned": (
        "{player} erhält {n:pl:Giftmarke:Giftmarken} und hat jetzt {total}.",
        "{player} gets {n:pl:poison counter:poison counters} and now has {total}.",
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
        "Auf {card:dat} liegen +1/+1- und -1/-1-Marken; von jeder Sorte werden {n} entfernt.",
        "{card} has both +1/+1 and -1/-1 counters; {n} of each are removed.",
    ),
    "cant_block_effect": (
        "Bis zum Ende des Zuges können Kreaturen mit Stärke {n} oder weniger nicht blocken ({source:nom}).",
        "Until end of turn, creatures with power {n} or less can’t block ({source}).",
    ),
    "battle_cry": (
        "Schlachtruf {source:gen}: Jede andere angreifende Kreatur erhält +1/+0 bis zum Ende des Zuges: {cards:nom}.",
        "{source:poss} battle cry: each other attacking creature gets +1/+0 until end of turn: {cards}.",
    ),
    "battalion": (
        "{card:Nom} {card:v:greift:greifen} zusammen mit {n} anderen Kreaturen an, daher löst die Bataillon-Fähigkeit aus (Bataillon ist ein Fähigkeitswort ohne eigene Regeln).",
        "{card} and {n} other creatures attack, so its battalion ability triggers (battalion is an ability word with no rules meaning of its own).",
    ),
    "battalion_not": (
        "{card:Nom} {card:v:greift:greifen} nur mit {n} anderen Kreaturen an; Bataillon braucht mindestens zwei und löst nicht aus.",
        "{card} attacks with only {n} other creatures; battalion needs at least two, so it doesn’t trigger.",
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
        "{player} erhält eine weitere Giftmarke und hat jetzt {total}.",
        "{player} gets another poison counter and now has {total}.",
    ),
    "provoked": (
        "{source:Nom} {source:v:provoziert:provozieren} {target:acc}: {target:nom} {target:v:wird:werden} enttappt und muss {source:acc} blocken, falls möglich.",
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
        "{card:Nom} {card:v:hat:haben} Wachsamkeit und wird beim Angreifen nicht getappt.",
        "{card} has vigilance and doesn’t tap to attack.",
    ),
    "attackers_tap": (
        "Die angreifenden Kreaturen werden getappt: {cards:nom}.",
        "The attacking creatures become tapped: {cards}.",
    ),
    "no_blockers": ("{player} deklariert keine Blocker.", "{player} declares no blockers."),
    "blocks": ("{blocker:Nom} {blocker:v:blockt:blocken} {attacker:acc}.", "{blocker} blocks {attacker}."),
    "band_blocked": (
        "Weil {attacker:nom} in einem Bündnis angreift, blockt {blocker:nom} auch {cards:acc}.",
        "Because {attacker} attacks in a band, {blocker} also blocks {cards}.",
    ),
    "unblocked": ("Ungeblockt: {cards:nom}.", "Unblocked: {cards}."),
    "first_strike_step": (
        "Erstschlag oder Doppelschlag: {cards:nom} – deshalb gibt es zwei Kampfschadensschritte, und im ersten teilen nur diese Kreaturen Kampfschaden zu.",
        "First strike or double strike: {cards}; so there are two combat damage steps, and only these creatures deal combat damage in the first.",
    ),
    "second_damage_step": (
        "Zweiter Kampfschadensschritt: {cards:nom} teilen Kampfschaden zu.",
        "Second combat damage step: {cards} deal combat damage.",
    ),
    "no_damage_power": (
        "{card:Nom} {card:v:hat:haben} Stärke {n} und teilt keinen Kampfschaden zu.",
        "{card} has power {n} and assigns no combat damage.",
    ),
    "trample_no_blockers": (
        "{card:Nom} {card:v:ist:sind} geblockt, aber kein Blocker ist mehr da; mit Trampelschaden geht der ganze Schaden an den verteidigenden Spieler.",
        "{card} is blocked but no blockers remain; with trample all its damage goes to the defending player.",
    ),
    "blocked_no_blockers": (
        "{card:Nom} {card:v:bleibt:bleiben} geblockt, obwohl kein Blocker mehr da ist, und teilt keinen Kampfschaden zu.",
        "{card} remains blocked although no blockers remain, so it assigns no combat damage.",
    ),
    "blocking_nothing": (
        "{card:Nom} {card:v:blockt:blocken} keine Kreatur mehr und teilt keinen Kampfschaden zu.",
        "{card} is no longer blocking any creature and assigns no combat damage.",
    ),
    "assign_attacker": (
        "{chooser} verteilt den Kampfschaden {card:gen} frei auf die Blocker: {split}.",
        "{chooser} divides {card:poss} combat damage freely among its blockers: {split}.",
    ),
    "assign_trample": (
        "{chooser} weist den Blockern {card:gen} tödlichen Schaden zu und den Rest per Trampelschaden dem Spieler: {split}.",
        "{chooser} assigns lethal damage to {card:poss} blockers and the rest to the player with trample: {split}.",
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
        "Aufräumen: Der markierte Schaden wird entfernt ({cards:nom}), und {n:pl:Effekt:Effekte} „bis zum Ende des Zuges“ enden.",
        "Cleanup: marked damage is removed ({cards}) and {n} “until end of turn” effect(s) end.",
    ),
    "new_turn": (
        "Zug {turn}: {player} ist der aktive Spieler.",
        "Turn {turn}: {player} is the active player.",
    ),
    "untap": ("{player} enttappt {cards:acc}.", "{player} untaps {cards}."),
    # the end of the game
    "loses_life": (
        "{player} hat {life} Lebenspunkte und verliert das Spiel.",
        "{player} has {life} life and loses the game.",
    ),
    "loses_poison": (
        "{player} hat {poison} Giftmarken und verliert das Spiel.",
        "{player} has {poison} poison counters and loses the game.",
    ),
    "wins": ("{player} gewinnt das Spiel.", "{player} wins the game."),
    # refusals (IllegalAction)
    "not_on_battlefield": (
        "{card:Nom} {card:v:ist:sind} nicht im Spiel.",
        "{card} isn’t on the battlefield.",
    ),
    "phased_out_cant": (
        "{card:Nom} {card:v:ist:sind} ausgephast und wird so behandelt, als gäbe es {card:acc} nicht.",
        "{card} is phased out and is treated as though it doesn’t exist.",
    ),
    "not_a_creature": ("{card:Nom} {card:v:ist:sind} keine Kreatur.", "{card} isn’t a creature."),
    "attack_not_yours": (
        "{card:Nom} {card:v:wird:werden} nicht vom aktiven Spieler {player} kontrolliert.",
        "{card} isn’t controlled by the active player, {player}.",
    ),
    "attack_tapped": (
        "{card:Nom} {card:v:ist:sind} getappt und kann nicht angreifen.",
        "{card} is tapped and can’t attack.",
    ),
    "attack_sick": (
        "{card:Nom} {card:v:ist:sind} erst in diesem Zug unter die Kontrolle des Spielers gekommen und hat keine Eile.",
        "{card} hasn’t been under its controller’s control since the turn began and has no haste.",
    ),
    "attack_defender": (
        "{card:Nom} {card:v:hat:haben} Verteidiger und kann nicht angreifen.",
        "{card} has defender and can’t attack.",
    ),
    "band_not_attacking": (
        "{card:Nom} {card:v:greift:greifen} nicht an und kann keinem Bündnis angehören.",
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
        "{card:Nom} {card:v:ist:sind} getappt und kann nicht blocken.",
        "{card} is tapped and can’t block.",
    ),
    "block_not_attacking": (
        "{attacker:Nom} {attacker:v:greift:greifen} nicht an; {card:nom} {card:v:kann:können} {attacker:acc} nicht blocken.",
        "{attacker} isn’t attacking, so {card} can’t block it.",
    ),
    "block_flying": (
        "{attacker:Nom} {attacker:v:fliegt:fliegen} und kann nur von Kreaturen mit Flugfähigkeit oder Reichweite geblockt werden; {blocker:nom} {blocker:v:hat:haben} keine von beiden.",
        "{attacker} has flying and can’t be blocked except by creatures with flying or reach; {blocker} has neither.",
    ),
    "block_landwalk": (
        "{attacker:Nom} {attacker:v:hat:haben} {walk} und kann nicht geblockt werden, solange der verteidigende Spieler {land:acc} kontrolliert.",
        "{attacker} has {walk} and can’t be blocked while the defending player controls {land}.",
    ),
    "block_protection": (
        "{attacker:Nom} {attacker:v:hat:haben} {quality} und kann nicht von {blocker:dat} geblockt werden.",
        "{attacker} has {quality} and can’t be blocked by {blocker}.",
    ),
    "block_power_limit": (
        "Kreaturen mit Stärke {n} oder weniger können in diesem Zug nicht blocken ({source:nom}); {blocker:nom} {blocker:v:hat:haben} zu wenig Stärke.",
        "Creatures with power {n} or less can’t block this turn ({source}); {blocker} is one of them.",
    ),
    "too_many_blockers": (
        "{card:Nom} {card:v:kann:können} nicht von mehr als {n:pl:Kreatur:Kreaturen} geblockt werden.",
        "{card} can’t be blocked by more than {n} creature(s).",
    ),
    "provoke_ignored": (
        "{blocker:Nom} {blocker:v:wurde:wurden} provoziert und könnte {attacker:acc} blocken, also muss {blocker:nom} {attacker:acc} blocken.",
        "{blocker} was provoked and is able to block {attacker}, so it must block {attacker}.",
    ),
    "provoke_wrong_player": (
        "Provozieren {source:gen} kann nur eine Kreatur des verteidigenden Spielers wählen, nicht {target:acc}.",
        "{source:poss} provoke can target only a creature the defending player controls, not {target}.",
    ),
    "assign_to_player": (
        "{card:Nom} {card:v:darf:dürfen} {target} keinen Kampfschaden zuweisen: Das darf nur ein geblockter Angreifer mit Trampelschaden, dessen Beherrscher den Schaden verteilt.",
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
        "{card:Nom} {card:v:muss:müssen} genau {n} Kampfschaden zuweisen, nicht {total}.",
        "{card} must assign exactly {n} combat damage, not {total}.",
    ),
    "trample_not_lethal": (
        "{card:Nom} {card:v:darf:dürfen} dem Spieler erst Schaden zuweisen, wenn jedem Blocker tödlicher Schaden zugewiesen ist; {blocker:dat} sind nur {n} zugewiesen, nötig wären {need}.",
        "{card} can’t assign damage to the player until every blocker is assigned lethal damage; {blocker} gets only {n}, it needs {need}.",
    ),
    "target_missing": (
        "{source:Nom} {source:v:braucht:brauchen} ein legales Ziel im Spiel.",
        "{source} needs a legal target on the battlefield.",
    ),
    "target_not_creature": (
        "{target:Nom} {target:v:ist:sind} kein legales Ziel für {source:acc}; es muss eine Kreatur sein.",
        "{target} isn’t a legal target for {source}; it must be a creature.",
    ),
    "target_not_attacking": (
        "{target:Nom} {target:v:greift:greifen} nicht an und ist kein legales Ziel für {source:acc}.",
        "{target} isn’t attacking, so it isn’t a legal target for {source}.",
    ),
    "target_phased_out": (
        "{target:Nom} {target:v:ist:sind} ausgephast und kann nicht als Ziel gewählt werden.",
        "{target} is phased out and can’t be targeted.",
    ),
    "target_protection": (
        "{target:Nom} {target:v:hat:haben} {quality} und kann nicht Ziel {source:gen} sein.",
        "{target} has {quality} and can’t be the target of {source}.",
    ),
    "cast_not_in_hand": (
        "{card:Nom} {card:v:ist:sind} nicht auf der Hand und kann nicht gewirkt werden.",
        "{card} isn’t in hand and can’t be cast.",
    ),
    "cast_timing": (
        "{card:Nom} {card:v:kann:können} nur in der Hauptphase von {player} bei leerem Stapel gewirkt werden.",
        "{card} can be cast only in {player:poss} main phase while the stack is empty.",
    ),
    "no_bestow": ("{card:Nom} {card:v:hat:haben} keine Göttergabe.", "{card} doesn’t have bestow."),
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
        "{card:Nom} {card:v:ist:sind} erst in diesem Zug ins Spiel gekommen und kann keine Tap-Fähigkeit aktivieren.",
        "{card} came under its controller’s control this turn and can’t activate a tap ability.",
    ),
    "bolster_not_least": (
        "{card:Nom} {card:v:hat:haben} nicht die geringste Widerstandskraft ({least}); Kräftigung muss eine dieser Kreaturen wählen: {candidates:nom}.",
        "{card} doesn’t have the least toughness ({least}); bolster must choose one of {candidates}.",
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
