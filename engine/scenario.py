"""Scenario files: load, validate, list and find them.

A scenario is a TOML file (schema: data/scenarios/SCHEMA.md) with players, cards, ordered
actions and expected outcomes. Everything is validated when the file loads, so a typo fails
with the file, the field and what was expected, not halfway through a fight.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from regelwerk.engine.errors import ScenarioError, UnknownScenario
from regelwerk.engine.keywords import Keyword, UnknownKeywordAbility, parse_keyword
from regelwerk.engine.state import (
    CARD_TYPES,
    COLORS,
    EFFECT_KINDS,
    EFFECT_TARGETS,
    FINDABLE,
    GENERA,
    PAID_COSTS,
    TRIGGER_EVENTS,
    TRIGGER_ZONES,
    ZONES,
    ActivatedSpec,
    CardSpec,
    Effect,
    StaticSpec,
    TriggerSpec,
)
from regelwerk.ingest.model.errors import InvalidRuleNumber
from regelwerk.ingest.model.numbers import RuleNumber

ACTIONS: dict[str, frozenset[str]] = {
    "attack": frozenset({"attackers", "bands"}),
    "block": frozenset({"blocks"}),
    "damage": frozenset({"assign"}),
    "end_combat": frozenset(),
    "end_turn": frozenset(),
    "cast": frozenset({"card", "target", "bestow", "buyback", "prowl"}),
    "activate": frozenset({"source", "ability", "target"}),
    "expect": frozenset(),
}
_COMMON = frozenset({"do", "reject", "expect", "choices", "order", "comment"})
#: Expectations about one card as it is now, checked in this order (the runner reports them so).
PER_CARD_EXPECT_KEYS = (
    "zone",
    "marked",
    "counters",
    "pt",
    "has",
    "lacks",
    "tapped",
    "phased_out",
    "attached",
    "types",
)
#: Every expectation: about players, about what happened during the game, and per card.
EXPECT_KEYS = frozenset(
    {"life", "poison", "lost", "died", "deaths", "damage", "assigned_by", "blocked_by", "tokens"}
) | frozenset(PER_CARD_EXPECT_KEYS)
_TOP = frozenset({"id", "title", "source", "note", "players", "cards", "actions", "expect", "active"})
_CARD = frozenset(
    {
        "id",
        "name_de",
        "name_en",
        "genus",
        "forms_de",
        "owner",
        "controller",
        "types",
        "subtypes",
        "supertypes",
        "colors",
        "pt",
        "pt_cda",
        "keywords",
        "zone",
        "tapped",
        "sick",
        "counters",
        "damage",
        "token",
        "bestow",
        "enchanted",
        "triggers",
        "activated",
        "statics",
        "spell",
    }
)
_PT = re.compile(r"^(\d{1,3})/(\d{1,3})$")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True)
class PlayerSetup:
    id: str
    name: str
    life: int = 20
    poison: int = 0
    pronoun_de: str = ""
    pronoun_en: str = ""


@dataclass(frozen=True)
class CardSetup:
    id: str
    spec: CardSpec
    owner: str
    controller: str
    zone: str = "battlefield"
    tapped: bool = False
    sick: bool = False
    token: bool = False
    damage: int = 0
    counters: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Action:
    do: str
    index: int
    params: dict[str, Any]
    reject: str | None = None
    expect: dict[str, Any] = field(default_factory=dict)
    choices: dict[str, Any] = field(default_factory=dict)
    order: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    id: str
    title_de: str
    title_en: str
    source: str
    file: str
    players: tuple[PlayerSetup, ...]
    cards: tuple[CardSetup, ...]
    actions: tuple[Action, ...]
    expect: dict[str, Any]
    active: str
    note_de: str = ""
    note_en: str = ""
    note_rule: str = ""

    def title(self, lang: str) -> str:
        return self.title_de if lang == "de" else self.title_en


@dataclass(frozen=True)
class ScenarioInfo:
    id: str
    title_de: str
    title_en: str
    source: str
    file: str

    def to_dict(self) -> dict[str, str]:
        return {
            "id": self.id,
            "title_de": self.title_de,
            "title_en": self.title_en,
            "source": self.source,
            "file": self.file,
        }


# --- loading -------------------------------------------------------------------------------


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ScenarioError(str(p), "file", "a readable .toml file", exc.strerror or str(exc)) from None
    return parse_scenario(data, str(p))


def parse_scenario(data: bytes, file: str) -> Scenario:
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ScenarioError(file, f"byte {exc.start}", "UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"line (\d+)", msg)
        where = f"line {m.group(1)}" if m else "TOML"
        raise ScenarioError(file, where, f"valid TOML ({msg})") from None
    return _Loader(file).scenario(doc)


class _Loader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.card_ids: set[str] = set()
        self.player_ids: set[str] = set()

    def fail(self, where: str, expected: str, got: object = None) -> ScenarioError:
        return ScenarioError(self.file, where, expected, got)

    def _keys(self, table: dict[str, Any], allowed: frozenset[str], where: str) -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(
                    f"{where}.{key}" if where else key, f"one of the fields {', '.join(sorted(allowed))}", key
                )

    def _str(self, table: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
        value = table.get(key, default)
        if not isinstance(value, str) or not value:
            raise self.fail(f"{where}.{key}" if where else key, "a non-empty string", value)
        return value

    def scenario(self, doc: dict[str, Any]) -> Scenario:
        self._keys(doc, _TOP, "")
        sid = self._str(doc, "id", "")
        if not _ID.match(sid):
            raise self.fail("id", "lowercase letters, digits and '-' (like 'banding-tatzelwurm')", sid)
        title = doc.get("title")
        if not isinstance(title, dict):
            raise self.fail("title", "a table with 'de' and 'en'", title)
        players = self.players(doc.get("players"))
        cards = tuple(self.card(c, f"cards[{i}]") for i, c in enumerate(self._list(doc, "cards")))
        active = doc.get("active", players[0].id)
        if active not in self.player_ids:
            raise self.fail("active", f"a player id ({', '.join(sorted(self.player_ids))})", active)
        actions = tuple(self.action(a, i) for i, a in enumerate(self._list(doc, "actions")))
        expect = doc.get("expect", {})
        self.expectations(expect, "expect")
        if not expect and not any(a.reject or a.expect for a in actions):
            raise self.fail("expect", "at least one expected outcome or rejected action")
        note = doc.get("note", {})
        if not isinstance(note, dict):
            raise self.fail("note", "a table with 'de', 'en' and 'rule'", note)
        note_rule = note.get("rule", "")
        if note:
            self._rule(note_rule, "note.rule")
        return Scenario(
            id=sid,
            title_de=self._str(title, "de", "title"),
            title_en=self._str(title, "en", "title"),
            source=self._str(doc, "source", ""),
            file=self.file,
            players=players,
            cards=cards,
            actions=actions,
            expect=expect,
            active=active,
            note_de=note.get("de", ""),
            note_en=note.get("en", ""),
            note_rule=note_rule,
        )

    def _list(self, doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
        value = doc.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, f"an array of tables ([[{key}]])", value)
        return value

    def _rule(self, value: object, where: str) -> str:
        try:
            return str(RuleNumber.parse(str(value)))
        except InvalidRuleNumber:
            raise self.fail(where, "a rule number such as '702.9b'", value) from None

    def players(self, raw: object) -> tuple[PlayerSetup, ...]:
        if not isinstance(raw, list) or len(raw) != 2:
            raise self.fail(
                "players", "exactly two [[players]] tables (the engine plays two-player games)", raw
            )
        out = []
        for i, p in enumerate(raw):
            where = f"players[{i}]"
            self._keys(p, frozenset({"id", "name", "life", "poison", "pronoun_de", "pronoun_en"}), where)
            pid = self._str(p, "id", where)
            if pid in self.player_ids:
                raise self.fail(f"{where}.id", "a unique player id", pid)
            self.player_ids.add(pid)
            for key in ("life", "poison"):
                if key in p and not isinstance(p[key], int):
                    raise self.fail(f"{where}.{key}", "a whole number", p[key])
            out.append(
                PlayerSetup(
                    pid,
                    self._str(p, "name", where),
                    p.get("life", 20),
                    p.get("poison", 0),
                    p.get("pronoun_de", ""),
                    p.get("pronoun_en", ""),
                )
            )
        return tuple(out)

    def keywords(self, raw: object, where: str) -> tuple[Keyword, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            raise self.fail(where, "a list of keyword strings", raw)
        out = []
        for i, k in enumerate(raw):
            try:
                out.append(parse_keyword(str(k)))
            except UnknownKeywordAbility as exc:
                raise self.fail(f"{where}[{i}]", str(exc).split("; expected ", 1)[1], k) from None
        return tuple(out)

    def effect(self, raw: object, where: str) -> Effect:
        if not isinstance(raw, dict):
            raise self.fail(where, "an effect table with 'kind'", raw)
        allowed = frozenset(
            {
                "kind",
                "amount",
                "power",
                "toughness",
                "keywords",
                "target",
                "counter",
                "token",
                "count",
                "tapped_attacking",
                "life_from",
                "find",
            }
        )
        self._keys(raw, allowed, where)
        kind = raw.get("kind")
        if kind not in EFFECT_KINDS:
            raise self.fail(f"{where}.kind", f"one of {', '.join(EFFECT_KINDS)}", kind)
        target = raw.get("target", "none")
        if target not in EFFECT_TARGETS:
            raise self.fail(f"{where}.target", f"one of {', '.join(EFFECT_TARGETS)}", target)
        token = None
        if "token" in raw:
            token = self.spec(raw["token"], f"{where}.token")
        if kind == "create_tokens" and token is None:
            raise self.fail(f"{where}.token", "a token table for create_tokens")
        find = raw.get("find", "")
        if (kind == "search_library" or "find" in raw) and find not in FINDABLE:
            raise self.fail(
                f"{where}.find", f"what search_library finds, one of {', '.join(FINDABLE)}", raw.get("find")
            )
        for key in ("amount", "power", "toughness", "count"):
            if key in raw and not isinstance(raw[key], int):
                raise self.fail(f"{where}.{key}", "a whole number", raw[key])
        return Effect(
            kind=kind,
            amount=raw.get("amount", 0),
            power=raw.get("power", 0),
            toughness=raw.get("toughness", 0),
            keywords=self.keywords(raw.get("keywords"), f"{where}.keywords"),
            target=target,
            counter=raw.get("counter", ""),
            token=token,
            count=raw.get("count", 1),
            tapped_attacking=bool(raw.get("tapped_attacking", False)),
            life_from=raw.get("life_from", ""),
            find=find,
        )

    def spec(self, c: dict[str, Any], where: str) -> CardSpec:
        types = c.get("types", [])
        if not isinstance(types, list) or not types or any(t not in CARD_TYPES for t in types):
            raise self.fail(f"{where}.types", f"a list of card types from {', '.join(CARD_TYPES)}", types)
        for col in c.get("colors", []):
            if col not in COLORS:
                raise self.fail(f"{where}.colors", f"colors from {', '.join(COLORS)}", col)
        genus = c.get("genus", "m")
        if genus not in GENERA:
            raise self.fail(f"{where}.genus", f"one of {', '.join(GENERA)}", genus)
        power = toughness = None
        pt = c.get("pt")
        cda = c.get("pt_cda", "")
        if cda not in ("", "creatures_you_control"):
            raise self.fail(f"{where}.pt_cda", "'creatures_you_control'", cda)
        if pt is not None:
            if not isinstance(pt, str):
                raise self.fail(f"{where}.pt", "a string 'P/T' such as '6/4'", pt)
            m = _PT.match(pt)
            if pt == "*/*" and cda:
                pass
            elif not m:
                raise self.fail(
                    f"{where}.pt",
                    "'P/T' with whole numbers 0 or more, such as '6/4' (or '*/*' with pt_cda)",
                    pt,
                )
            else:
                power, toughness = int(m.group(1)), int(m.group(2))
            if "Creature" not in types:
                raise self.fail(f"{where}.pt", "no P/T on a card that isn't a creature", pt)
        elif "Creature" in types:
            raise self.fail(f"{where}.pt", "a P/T such as '2/2' for a creature")
        triggers = []
        for i, t in enumerate(c.get("triggers", [])):
            tw = f"{where}.triggers[{i}]"
            self._keys(
                t, frozenset({"id", "on", "effect", "subtype", "label_de", "label_en", "zone", "if_paid"}), tw
            )
            if t.get("on") not in TRIGGER_EVENTS:
                raise self.fail(f"{tw}.on", f"one of {', '.join(TRIGGER_EVENTS)}", t.get("on"))
            if t.get("zone", "battlefield") not in TRIGGER_ZONES:
                raise self.fail(f"{tw}.zone", f"one of {', '.join(TRIGGER_ZONES)}", t.get("zone"))
            if t.get("if_paid", "") not in ("", *PAID_COSTS):
                raise self.fail(f"{tw}.if_paid", f"one of {', '.join(PAID_COSTS)}", t.get("if_paid"))
            triggers.append(
                TriggerSpec(
                    self._str(t, "id", tw),
                    t["on"],
                    self.effect(t.get("effect"), f"{tw}.effect"),
                    t.get("subtype", ""),
                    t.get("label_de", ""),
                    t.get("label_en", ""),
                    t.get("zone", "battlefield"),
                    t.get("if_paid", ""),
                )
            )
        activated = []
        for i, a in enumerate(c.get("activated", [])):
            aw = f"{where}.activated[{i}]"
            self._keys(a, frozenset({"id", "effect", "tap", "from_hand"}), aw)
            activated.append(
                ActivatedSpec(
                    self._str(a, "id", aw),
                    self.effect(a.get("effect"), f"{aw}.effect"),
                    bool(a.get("tap", False)),
                    bool(a.get("from_hand", False)),
                )
            )
        statics = []
        for i, s in enumerate(c.get("statics", [])):
            sw = f"{where}.statics[{i}]"
            self._keys(s, frozenset({"kind", "keywords", "subtype", "amount"}), sw)
            if s.get("kind") not in ("grant", "max_blockers"):
                raise self.fail(f"{sw}.kind", "'grant' or 'max_blockers'", s.get("kind"))
            statics.append(
                StaticSpec(
                    s["kind"],
                    self.keywords(s.get("keywords"), f"{sw}.keywords"),
                    s.get("subtype", ""),
                    int(s.get("amount", 0)),
                )
            )
        spell = tuple(self.effect(e, f"{where}.spell[{i}]") for i, e in enumerate(c.get("spell", [])))
        enchanted = (
            self.effect(c["enchanted"] | {"kind": "pump"}, f"{where}.enchanted") if "enchanted" in c else None
        )
        forms = c.get("forms_de", {})
        if not isinstance(forms, dict) or any(k not in ("nom", "acc", "dat", "gen") for k in forms):
            raise self.fail(f"{where}.forms_de", "a table with keys nom, acc, dat, gen", forms)
        return CardSpec(
            name_de=self._str(c, "name_de", where),
            name_en=self._str(c, "name_en", where),
            types=tuple(types),
            subtypes=tuple(c.get("subtypes", [])),
            supertypes=tuple(c.get("supertypes", [])),
            colors=tuple(c.get("colors", [])),
            power=power,
            toughness=toughness,
            pt_cda=cda,
            keywords=self.keywords(c.get("keywords"), f"{where}.keywords"),
            triggers=tuple(triggers),
            activated=tuple(activated),
            statics=tuple(statics),
            spell=spell,
            enchanted=enchanted,
            bestow=bool(c.get("bestow", False)),
            genus=genus,
            forms_de=tuple(sorted(forms.items())),
        )

    def card(self, c: dict[str, Any], where: str) -> CardSetup:
        self._keys(c, _CARD, where)
        cid = self._str(c, "id", where)
        if not _ID.match(cid) or cid in self.card_ids or cid in self.player_ids:
            raise self.fail(f"{where}.id", "a unique lowercase id (letters, digits, '-')", cid)
        self.card_ids.add(cid)
        owner = self._str(c, "owner", where)
        if owner not in self.player_ids:
            raise self.fail(f"{where}.owner", f"a player id ({', '.join(sorted(self.player_ids))})", owner)
        controller = c.get("controller", owner)
        if controller not in self.player_ids:
            raise self.fail(f"{where}.controller", "a player id", controller)
        zone = c.get("zone", "battlefield")
        if zone not in ZONES:
            raise self.fail(f"{where}.zone", f"one of {', '.join(ZONES)}", zone)
        counters = c.get("counters", {})
        if not isinstance(counters, dict) or any(not isinstance(n, int) or n < 0 for n in counters.values()):
            raise self.fail(
                f"{where}.counters", 'a table of counter kinds to counts, such as {"+1/+1" = 2}', counters
            )
        return CardSetup(
            cid,
            self.spec(c, where),
            owner,
            controller,
            zone,
            bool(c.get("tapped", False)),
            bool(c.get("sick", False)),
            bool(c.get("token", False)),
            int(c.get("damage", 0)),
            tuple(sorted(counters.items())),
        )

    def _ref(self, value: object, where: str, players: bool = False) -> str:
        known = self.card_ids | (self.player_ids if players else set())
        if not isinstance(value, str) or value not in known:
            what = "a card or player id" if players else "a card id"
            close = difflib.get_close_matches(str(value), sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise self.fail(where, f"{what} defined in this file{hint}", value)
        return value

    def _token_or_ref(self, value: object, where: str, players: bool = False) -> str:
        """Token ids ("soldier-2") exist only once the game makes them; accept that form too."""
        if isinstance(value, str) and re.match(r"^[a-z0-9-]+-\d+$", value) and value not in self.card_ids:
            return value
        return self._ref(value, where, players)

    def action(self, a: dict[str, Any], i: int) -> Action:
        where = f"actions[{i}]"
        do = a.get("do")
        if do not in ACTIONS:
            raise self.fail(f"{where}.do", f"one of {', '.join(ACTIONS)}", do)
        self._keys(a, ACTIONS[do] | _COMMON, where)
        params = {k: v for k, v in a.items() if k in ACTIONS[do]}
        if do == "attack":
            attackers = params.get("attackers")
            if not isinstance(attackers, list) or not attackers:
                raise self.fail(f"{where}.attackers", "a non-empty list of card ids", attackers)
            for j, x in enumerate(attackers):
                self._ref(x, f"{where}.attackers[{j}]")
            for j, band in enumerate(params.get("bands", [])):
                if not isinstance(band, list):
                    raise self.fail(f"{where}.bands[{j}]", "a list of card ids", band)
                for k, x in enumerate(band):
                    self._ref(x, f"{where}.bands[{j}][{k}]")
        elif do == "block":
            blocks = params.get("blocks", {})
            if not isinstance(blocks, dict):
                raise self.fail(f"{where}.blocks", 'a table {blocker = "attacker"}', blocks)
            for b, att in blocks.items():
                self._ref(b, f"{where}.blocks.{b}")
                self._token_or_ref(att, f"{where}.blocks.{b}")
        elif do == "damage":
            for src, division in params.get("assign", {}).items():
                self._token_or_ref(src, f"{where}.assign.{src}")
                if not isinstance(division, dict):
                    raise self.fail(f"{where}.assign.{src}", "a table {target = amount}", division)
                for tgt, n in division.items():
                    self._token_or_ref(tgt, f"{where}.assign.{src}.{tgt}", players=True)
                    if not isinstance(n, int):
                        raise self.fail(f"{where}.assign.{src}.{tgt}", "a whole number", n)
        elif do == "cast":
            self._ref(params.get("card"), f"{where}.card")
            for flag in ("bestow", "buyback", "prowl"):
                if flag in params and not isinstance(params[flag], bool):
                    raise self.fail(f"{where}.{flag}", "true or false", params[flag])
        elif do == "activate":
            self._ref(params.get("source"), f"{where}.source")
        if "target" in params:
            self._token_or_ref(params["target"], f"{where}.target", players=True)
        choices = a.get("choices", {})
        if not isinstance(choices, dict):
            raise self.fail(f"{where}.choices", "a table {source = choice}", choices)
        for key, value in choices.items():
            self._token_or_ref(key.split(":", 1)[0], f"{where}.choices.{key}")
            for j, v in enumerate(value if isinstance(value, list) else [value]):
                self._token_or_ref(v, f"{where}.choices.{key}[{j}]", players=True)
        reject = self._rule(a["reject"], f"{where}.reject") if "reject" in a else None
        expect = a.get("expect", {})
        self.expectations(expect, f"{where}.expect")
        order = a.get("order", [])
        if not isinstance(order, list) or any(not isinstance(x, str) or ":" not in x for x in order):
            raise self.fail(f"{where}.order", "a list of trigger labels such as 'hero:battle cry'", order)
        return Action(do, i, params, reject, expect, choices, tuple(order))

    def expectations(self, e: object, where: str) -> None:
        if not isinstance(e, dict):
            raise self.fail(where, "a table of expected outcomes", e)
        self._keys(e, EXPECT_KEYS, where)
        for key, value in e.items():
            w = f"{where}.{key}"
            if key in ("lost", "died"):
                if not isinstance(value, list):
                    raise self.fail(w, "a list of ids", value)
                for j, x in enumerate(value):
                    self._token_or_ref(x, f"{w}[{j}]", players=key == "lost")
                continue
            if not isinstance(value, dict):
                raise self.fail(w, "a table keyed by card or player id", value)
            for k, v in value.items():
                self._token_or_ref(k, f"{w}.{k}", players=key in ("life", "poison", "tokens", "damage"))
                if key == "pt" and not (isinstance(v, str) and re.match(r"^-?\d+/-?\d+$", v)):
                    raise self.fail(f"{w}.{k}", "'P/T' such as '7/7'", v)
                if key == "zone" and v not in (*ZONES, "gone"):
                    raise self.fail(f"{w}.{k}", f"one of {', '.join(ZONES)}, gone", v)


# --- finding scenarios ---------------------------------------------------------------------


def _packaged() -> list[Any]:
    folder = resources.files("regelwerk.data").joinpath("scenarios")
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)


def list_scenarios() -> list[ScenarioInfo]:
    """Every packaged scenario, sorted by id."""
    out = []
    for f in _packaged():
        s = parse_scenario(f.read_bytes(), f"data/scenarios/{f.name}")
        out.append(ScenarioInfo(s.id, s.title_de, s.title_en, s.source, s.file))
    return sorted(out, key=lambda s: s.id)


def load_packaged() -> list[Scenario]:
    return sorted(
        (parse_scenario(f.read_bytes(), f"data/scenarios/{f.name}") for f in _packaged()), key=lambda s: s.id
    )


def resolve_scenario(ref: str) -> Scenario:
    """An id of a packaged scenario, or the path of a scenario file a user wrote."""
    path = Path(ref)
    if ref.endswith(".toml") or path.exists():
        return load_scenario(path)
    scenarios = load_packaged()
    for s in scenarios:
        if s.id == ref:
            return s
    raise UnknownScenario(ref, difflib.get_close_matches(ref, [s.id for s in scenarios], n=3))
