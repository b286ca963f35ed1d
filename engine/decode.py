"""From scenario bytes to the typed model, every failure one line: ``FILE: FIELD: got ...; expected ...``.

Three passes, each with its own kind of error: ``tomllib`` (the line of a syntax error, or a
nesting too deep to read), ``msgspec.convert`` into ``model.ScenarioFile`` (types, allowed
values, unknown and missing fields; its error names the path, and this module turns that path
back into the field name and the value that was there), then the checks a single field cannot
make (ids that must name a card or player of the same file, a creature without P/T).
"""

from __future__ import annotations

import difflib
import re
import tomllib
import types
from collections.abc import Iterator
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
import msgspec.inspect as mi

from regelwerk.engine.errors import ScenarioError
from regelwerk.engine.keywords import Keyword, UnknownKeywordAbility, parse_keyword
from regelwerk.engine.model import (
    Activate,
    Attack,
    Block,
    CardLookup,
    CardSpec,
    Cast,
    CreateTokens,
    DamageStep,
    Effect,
    Expect,
    ScenarioFile,
)
from regelwerk.ingest.model.errors import InvalidRuleNumber
from regelwerk.ingest.model.numbers import RuleNumber

#: A scenario is a page of TOML; anything much larger is not one.
MAX_BYTES = 1_000_000
_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>.*)`)?$", re.S)
_SEGMENT = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_TOKEN_ID = re.compile(r"^[a-z0-9-]+-\d+$")


def read_toml(data: bytes, file: str) -> dict[str, Any]:
    if len(data) > MAX_BYTES:
        raise ScenarioError(file, "file", f"a scenario of at most {MAX_BYTES} bytes", f"{len(data)} bytes")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ScenarioError(file, f"byte {exc.start}", "UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"line (\d+)", msg)
        raise ScenarioError(file, f"line {m.group(1)}" if m else "TOML", f"valid TOML ({msg})") from None
    except ValueError as exc:  # tomllib's int() on a number of thousands of digits
        raise ScenarioError(file, "TOML", "numbers of a few digits", str(exc).split(":")[0]) from None
    except RecursionError:
        raise ScenarioError(
            file,
            "TOML",
            "arrays and tables nested a few levels deep, not hundreds",
            "nesting too deep to read",
        ) from None


def _dec_hook(tp: type, value: object) -> object:
    """Keyword strings become ``Keyword``s; an unknown one names what the engine knows."""
    if tp is Keyword:
        if not isinstance(value, str):
            raise ValueError(f"got {value!r}; expected a keyword string such as 'flying'")
        try:
            return parse_keyword(value)
        except UnknownKeywordAbility as exc:
            raise ValueError(f"got {value!r}; expected {str(exc).split('; expected ', 1)[1]}") from None
    raise NotImplementedError(tp)


def convert(doc: dict[str, Any], file: str) -> ScenarioFile:
    try:
        return msgspec.convert(doc, ScenarioFile, strict=True, dec_hook=_dec_hook)
    except msgspec.ValidationError as exc:
        raise translate(str(exc), doc, file) from None


def fill_cards(doc: dict[str, Any], lookup: CardLookup | None, file: str) -> dict[str, Any]:
    """``card = "Craw Wurm"`` entries take their printed fields from the card lookup (default:
    the shipped card table); fields the scenario writes itself win."""
    cards = doc.get("cards")
    if not isinstance(cards, list) or not any(isinstance(c, dict) and "card" in c for c in cards):
        return doc
    if lookup is None:
        from regelwerk.engine.cards import shipped_cards

        lookup = shipped_cards()
    filled = []
    for i, entry in enumerate(cards):
        if isinstance(entry, dict) and "card" in entry:
            name = entry["card"]
            facts = lookup.card_fields(name) if isinstance(name, str) and name.strip() else None
            if facts is None:
                near = lookup.nearest(name) if isinstance(name, str) else []
                hint = f"; nearest: {', '.join(near)}" if near else ""
                expected = f"a card name (English or German) of {lookup.describe()}{hint}"
                raise ScenarioError(file, f"cards[{i}].card", expected, name)
            entry = {**facts, **entry}
        filled.append(entry)
    return {**doc, "cards": filled}


# --- msgspec's error, back to the field and the value -------------------------------------------


def translate(message: str, doc: dict[str, Any], file: str) -> ScenarioError:
    m = _AT.match(message)
    msg, path = (m.group("msg"), m.group("path") or "") if m else (message, "")
    where, tp, raw = _walk(ScenarioFile, doc, _segments(path))
    missing = re.match(r"Object missing required field `(.+)`", msg)
    unknown = re.match(r"Object contains unknown field `(.+)`", msg)
    if missing or unknown:
        name = (missing or unknown).group(1)  # type: ignore[union-attr]
        fields = _field_types(_unwrap(tp, raw))
        label = f"{where}.{name}" if where else name
        if unknown:
            return ScenarioError(file, label, f"one of the fields {', '.join(sorted(fields))}", name)
        return ScenarioError(file, label, _expected(fields.get(name, Any)))
    if msg.startswith("got ") and "; expected " in msg:  # our own decode hook's words
        return ScenarioError(file, where or "file", msg.split("; expected ", 1)[1], raw)
    return ScenarioError(file, where or "file", _expected(tp), raw)


def _segments(path: str) -> list[str | int | None]:
    out: list[str | int | None] = []
    for name, index in _SEGMENT.findall(path):
        out.append(name if name else None if index == "..." else int(index))
    return out


def _walk(tp: Any, raw: Any, segments: list[str | int | None]) -> tuple[str, Any, Any]:
    """Follow msgspec's path through the type and the raw value together."""
    where = ""
    for seg in segments:
        tp = _unwrap(tp, raw)
        if isinstance(seg, int):
            where += f"[{seg}]"
            tp = _args(tp)[0] if _args(tp) else Any
            raw = raw[seg] if isinstance(raw, list) and seg < len(raw) else None
        elif seg is None:  # a table's value; msgspec doesn't say which key, so find it
            value_tp = _args(tp)[1] if len(_args(tp)) == 2 else Any
            key = next((k for k, v in _items(raw) if not _fits(v, value_tp)), "?")
            where += f".{key}"
            tp, raw = value_tp, raw.get(key) if isinstance(raw, dict) else None
        else:
            where += f".{seg}" if where else seg
            tp = _field_types(tp).get(seg, Any)
            raw = raw.get(seg) if isinstance(raw, dict) else None
    return where, tp, raw


def _items(raw: Any) -> Iterator[tuple[str, Any]]:
    return iter(raw.items()) if isinstance(raw, dict) else iter(())


def _fits(value: Any, tp: Any) -> bool:
    try:
        msgspec.convert(value, tp, strict=True, dec_hook=_dec_hook)
    except (msgspec.ValidationError, TypeError, ValueError):
        return False
    return True


def _args(tp: Any) -> tuple[Any, ...]:
    args = get_args(tp)
    return tuple(a for a in args if a is not Ellipsis)


def _unwrap(tp: Any, raw: Any) -> Any:
    """Strip ``Annotated`` and ``| None``; pick a tagged union's member by the raw tag."""
    while True:
        if get_origin(tp) is Annotated:
            tp = get_args(tp)[0]
            continue
        if get_origin(tp) in (Union, types.UnionType):
            members = [a for a in get_args(tp) if a is not type(None)]
            chosen = _choose(members, raw)
            if chosen is None:
                return tp
            tp = chosen
            continue
        return tp


def _choose(members: list[Any], raw: Any) -> Any:
    if len(members) == 1:
        return members[0]
    structs = [m for m in members if isinstance(m, type) and issubclass(m, msgspec.Struct)]
    if structs and len(structs) == len(members):
        tag_field = structs[0].__struct_config__.tag_field
        tag = raw.get(tag_field) if isinstance(raw, dict) else None
        return next((s for s in structs if s.__struct_config__.tag == tag), None)
    wanted = list if isinstance(raw, list) else dict if isinstance(raw, dict) else None
    for m in members:
        if (get_origin(m) in (tuple, list) and wanted is list) or (get_origin(m) is dict and wanted is dict):
            return m
    return next((m for m in members if get_origin(m) is None), members[0])


def _field_types(tp: Any) -> dict[str, Any]:
    """A struct's fields and their types; a tagged union offers its tag field."""
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return {f.name: f.type for f in msgspec.structs.fields(tp)}
    if get_origin(tp) in (Union, types.UnionType):
        structs = [m for m in get_args(tp) if isinstance(m, type) and issubclass(m, msgspec.Struct)]
        if structs and structs[0].__struct_config__.tag_field:
            tags = tuple(str(s.__struct_config__.tag) for s in structs)
            return {str(structs[0].__struct_config__.tag_field): Literal[tags]}
    return {}


def _expected(tp: Any) -> str:
    try:
        info = mi.type_info(tp)
    except (TypeError, ValueError):
        return "a valid value"
    return _describe(info)


def _describe(info: mi.Type) -> str:
    if isinstance(info, mi.Metadata):
        extra = info.extra or {}
        return str(extra["expected"]) if "expected" in extra else _describe(info.type)
    simple = {
        mi.IntType: "a whole number",
        mi.StrType: "a string",
        mi.BoolType: "true or false",
        mi.FloatType: "a number",
        mi.NoneType: "nothing",
        mi.CustomType: "a keyword such as 'flying'",
    }
    for kind, text in simple.items():
        if isinstance(info, kind):
            return text
    if isinstance(info, mi.LiteralType):
        return "one of " + ", ".join(str(v) for v in info.values if v != "")
    if isinstance(info, mi.ListType | mi.VarTupleType):
        return f"a list of {_plural(info.item_type)}"
    if isinstance(info, mi.DictType):
        return f"a table {{id = value}} whose values are {_plural(info.value_type)}"
    if isinstance(info, mi.StructType):
        return "a table with the fields " + ", ".join(f.name for f in info.fields)
    if isinstance(info, mi.UnionType):
        structs = [t for t in info.types if isinstance(t, mi.StructType)]
        if structs and structs[0].tag_field:
            tags = ", ".join(str(s.tag) for s in structs)
            return f"a table whose '{structs[0].tag_field}' is one of {tags}"
        return " or ".join(_describe(t) for t in info.types if not isinstance(t, mi.NoneType))
    return "a valid value"


def _plural(info: mi.Type) -> str:
    text = _describe(info)
    for one, many in (
        ("a whole number", "whole numbers"),
        ("a string", "strings"),
        ("a keyword", "keywords"),
    ):
        if text.startswith(one):
            return many + text[len(one) :]
    if text.startswith("a table"):
        return "tables" + text[len("a table") :]
    return f"({text})"


# --- what one field cannot check ---------------------------------------------------------------


class References:
    """Cross-field checks after decoding: every id names something in this file."""

    def __init__(self, file: str, s: ScenarioFile) -> None:
        self.file = file
        self.s = s
        self.players = [p.id for p in s.players]
        self.cards = [c.id for c in s.cards]

    def fail(self, where: str, expected: str, got: object = None) -> ScenarioError:
        return ScenarioError(self.file, where, expected, got)

    def check(self) -> None:
        self._players()
        for i, c in enumerate(self.s.cards):
            self._card(i)
            self._spec(c, f"cards[{i}]")
        if self.s.active:
            self.player(self.s.active, "active")
        if self.s.note is not None and (self.s.note.de or self.s.note.en or self.s.note.rule):
            self.rule(self.s.note.rule, "note.rule")
        for i, a in enumerate(self.s.actions):
            ActionRefs(self, i).check(a)
        self.expect(self.s.expect, "expect")
        if not self.s.expect.given() and not any(a.reject or a.expect.given() for a in self.s.actions):
            raise self.fail("expect", "at least one expected outcome or rejected action")

    def _players(self) -> None:
        seen: set[str] = set()
        for i, p in enumerate(self.s.players):
            if p.id in seen:
                raise self.fail(f"players[{i}].id", "a unique player id", p.id)
            seen.add(p.id)
        if self.s.format == "two_player" and len(self.s.players) != 2:
            raise self.fail(
                "format", "'free_for_all' for a game of more than two players (806)", "two_player"
            )
        seats = [p.seat for p in self.s.players if p.seat is not None]
        if seats and sorted(seats) != list(range(1, len(self.s.players) + 1)):
            raise self.fail("players", "seats 1 to N, each once, on every player (or on none)", seats)

    def _card(self, i: int) -> None:
        c = self.s.cards[i]
        if c.id in self.cards[:i] or c.id in self.players:
            raise self.fail(f"cards[{i}].id", "a unique lowercase id (letters, digits, '-')", c.id)
        self.player(c.owner, f"cards[{i}].owner")
        if c.controller:
            self.player(c.controller, f"cards[{i}].controller")

    def _spec(self, spec: CardSpec, where: str) -> None:
        creature = "Creature" in spec.types
        if spec.pt is None and creature:
            raise self.fail(f"{where}.pt", "a P/T such as '2/2' for a creature")
        if spec.pt is not None and not creature:
            raise self.fail(f"{where}.pt", "no P/T on a card that isn't a creature", spec.pt)
        if spec.pt == "*/*" and not spec.pt_cda:
            raise self.fail(f"{where}.pt", "'*/*' only with pt_cda", spec.pt)
        effects: list[tuple[str, Effect]] = [(f"spell[{i}]", e) for i, e in enumerate(spec.spell)]
        effects += [(f"triggers[{i}].effect", t.effect) for i, t in enumerate(spec.triggers)]
        effects += [(f"activated[{i}].effect", a.effect) for i, a in enumerate(spec.activated)]
        for w, e in effects:
            if isinstance(e, CreateTokens):
                self._spec(e.token, f"{where}.{w}.token")

    def player(self, value: str, where: str) -> str:
        if value not in self.players:
            raise self.fail(where, f"a player id ({', '.join(self.players)})", value)
        return value

    def ref(self, value: object, where: str, players: bool = False, tokens: bool = True) -> None:
        """A card id of this file (or a player's); token ids ("soldier-2") exist only once the
        game makes them, so that form is accepted too."""
        known = self.cards + (self.players if players else [])
        if isinstance(value, str) and (value in known or (tokens and _TOKEN_ID.match(value))):
            return
        what = "a card or player id" if players else "a card id"
        close = difflib.get_close_matches(str(value), known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise self.fail(where, f"{what} defined in this file{hint}", value)

    def rule(self, value: str, where: str) -> str:
        try:
            return str(RuleNumber.parse(value))
        except InvalidRuleNumber:
            raise self.fail(where, "a rule number such as '702.9b'", value) from None

    def expect(self, e: Expect, where: str) -> None:
        for key in ("lost", "died"):
            for j, x in enumerate(getattr(e, key) or ()):
                self.ref(x, f"{where}.{key}[{j}]", players=key == "lost")
        for key in e.given():
            value = getattr(e, key)
            if not isinstance(value, dict):
                continue
            for k in value:
                if key in ("life", "poison", "tokens"):
                    self.player(k, f"{where}.{key}.{k}")
                else:
                    self.ref(k, f"{where}.{key}.{k}", players=key == "damage")


class ActionRefs:
    """The references of one action, by its kind."""

    def __init__(self, refs: References, index: int) -> None:
        self.r = refs
        self.w = f"actions[{index}]"

    def check(self, a: Any) -> None:
        handler = _ACTION_REFS.get(type(a))
        if handler is not None:
            handler(self, a)
        for key, value in a.choices.items():
            self.r.ref(key.split(":", 1)[0], f"{self.w}.choices.{key}")
            for j, v in enumerate((value,) if isinstance(value, str) else value):
                self.r.ref(v, f"{self.w}.choices.{key}[{j}]", players=True)
        for j, rule in enumerate(a.rejects):
            self.r.rule(rule, f"{self.w}.reject" + (f"[{j}]" if not isinstance(a.reject, str) else ""))
        for j, label in enumerate(a.order):
            if ":" not in label:
                raise self.r.fail(f"{self.w}.order[{j}]", "a trigger label such as 'hero:battle cry'", label)
        if a.by:
            self.r.player(a.by, f"{self.w}.by")
        self.r.expect(a.expect, f"{self.w}.expect")

    def attack(self, a: Attack) -> None:
        for j, x in enumerate(a.attackers):
            self.r.ref(x, f"{self.w}.attackers[{j}]", tokens=False)
        for j, band in enumerate(a.bands):
            for k, x in enumerate(band):
                self.r.ref(x, f"{self.w}.bands[{j}][{k}]", tokens=False)
        for attacker, target in a.targets.items():
            self.r.ref(attacker, f"{self.w}.targets.{attacker}")
            self.r.ref(target, f"{self.w}.targets.{attacker}", players=True)

    def block(self, a: Block) -> None:
        for b, att in a.blocks.items():
            self.r.ref(b, f"{self.w}.blocks.{b}", tokens=False)
            self.r.ref(att, f"{self.w}.blocks.{b}")

    def damage(self, a: DamageStep) -> None:
        for src, division in a.assign.items():
            self.r.ref(src, f"{self.w}.assign.{src}")
            for tgt in division:
                self.r.ref(tgt, f"{self.w}.assign.{src}.{tgt}", players=True)

    def cast(self, a: Cast) -> None:
        self.r.ref(a.card, f"{self.w}.card", tokens=False)
        if a.target is not None:
            self.r.ref(a.target, f"{self.w}.target", players=True)

    def activate(self, a: Activate) -> None:
        self.r.ref(a.source, f"{self.w}.source", tokens=False)
        if a.target is not None:
            self.r.ref(a.target, f"{self.w}.target", players=True)


_ACTION_REFS: dict[type, Any] = {
    Attack: ActionRefs.attack,
    Block: ActionRefs.block,
    DamageStep: ActionRefs.damage,
    Cast: ActionRefs.cast,
    Activate: ActionRefs.activate,
}
