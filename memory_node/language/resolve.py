"""Which remembered entity a phrase means ("the blue mug in the kitchen" -> mug_7), deterministically.

Memory stores normalised class labels (``wineglass``), free names, attributes and locations; people say
"wine glasses", "my blue mug", "the mug on the table in the kitchen". Matching words against those fields
is exact, explainable and fast, which matters because every answer and plan starts here. Embeddings may
later rank synonyms; they must not decide *where* something is (DESIGN.md section 7).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.models import Entity
from ..core.store import ROOM_LABEL
from ..core.text import norm, singular
from ..core.text import content_words as words

# Prepositions that introduce a location hint after the object phrase, by what they test: containment
# or support along the location chain, nearness to the anchor, or being what the anchor rests on.
CHAIN_WORDS = frozenset({"in", "on", "inside", "at", "from", "onto", "into"})
NEAR_WORDS = frozenset({"near", "by", "beside", "next", "nextto"})
UNDER_WORDS = frozenset({"under", "below", "beneath", "underneath"})
HINT_WORDS = CHAIN_WORDS | NEAR_WORDS | UNDER_WORDS
# Spoken multi-word prepositions, folded into one word before splitting.
_MULTIWORD_PREPS = ((re.compile(r"\bnext\s+to\b"), "beside"), (re.compile(r"\bclose\s+to\b"), "near"),
                    (re.compile(r"\bin\s+front\s+of\b"), "near"), (re.compile(r"\bon\s+top\s+of\b"), "on"),
                    (re.compile(r"\binside\s+of\b"), "in"))
NEAR_RADIUS_M = 1.0  # "the apple next to the lemon": within arm's reach of it, or on the same surface
UNDER_RADIUS_M = 0.5  # "the plate under the lemon": below it, horizontally within this distance

_LABEL_SCORE = 1.0
_NAME_SCORE = 2.0
_ID_SCORE = 3.0
_SPAN_BONUS = 0.5  # per extra word a match spans: "coffee mug" prefers label coffeemug over mug
_ATTRIBUTE_SCORE = 1.0
_HINT_SCORE = 2.0
_NEAR_SCORE = 1.0  # a nearby anchor adds up to this much more, the closer the better


@dataclass(frozen=True)
class Candidate:
    entity: Entity
    score: float
    reasons: tuple[str, ...]
    hint_holds: bool | None = None  # the location hint holds (None: the phrase had none)
    confidence: float = 1.0  # how sure the name match is, 0..1 (``names.CONFIDENCE``); hints do not change it
    how: str = "exact"  # exact, head noun, everyday name, wordnet synonym / kind / broader, part, similar, ...


def room_key(room_id: str) -> str:
    """``kitchen_201`` -> ``kitchen``: room ids often carry a number people never say."""
    return norm(re.sub(r"[_\-\s]*\d+$", "", room_id))


def split_hint(text: str) -> tuple[list[str], list[str]]:
    """Object words before the first location preposition, and the hint phrase after it."""
    head, _, hint = split_reference(text)
    return head, hint


def split_reference(text: str) -> tuple[list[str], str, list[str]]:
    """Object words, the first location preposition after them ("" when none) and the anchor words."""
    low = text.lower()
    for pattern, repl in _MULTIWORD_PREPS:
        low = pattern.sub(repl, low)
    ws = words(low)
    for i, w in enumerate(ws):
        if w in HINT_WORDS and i > 0:
            return ws[:i], w, ws[i + 1:]
    return ws, "", []


def _spans(ws: list[str]) -> list[tuple[int, int]]:
    """All contiguous word spans, longest first."""
    n = len(ws)
    return sorted(((i, j) for i in range(n) for j in range(i + 1, n + 1)), key=lambda s: (s[0] - s[1], -s[0]))


def _keys(ws: list[str]) -> set[str]:
    joined = norm("".join(ws))
    return {joined, singular(joined), norm("".join(ws[:-1])) + singular(norm(ws[-1]))} if ws else set()


def _match(ent: Entity, head: list[str]) -> tuple[float, set[int], str] | None:
    """Best identity match of an entity to the head words: score, word positions used, why."""
    label, name, ent_id = norm(ent.label), norm(ent.name), norm(ent.id)
    for i, j in _spans(head):
        keys = _keys(head[i:j])
        used = set(range(i, j))
        bonus = _SPAN_BONUS * (j - i - 1)
        if ent_id in keys:
            return _ID_SCORE + bonus, used, f"id {ent.id}"
        if name and name in keys:
            return _NAME_SCORE + bonus, used, f"name {ent.name!r}"
        if label in keys:
            return _LABEL_SCORE + bonus, used, f"label {ent.label}"
    return None


def _attribute_words(ent: Entity) -> set[str]:
    out: set[str] = set()
    for value in ent.attributes.values():
        out.add(norm(value))
        out.update(norm(w) for w in re.split(r"[\s_\-,/]+", value) if w)
    out.discard("")
    return out


def _chain(ent_id: str, by_id: dict[str, Entity]) -> list[str]:
    out, seen, cur = [], {ent_id}, by_id.get(ent_id)
    while cur is not None and cur.location is not None and cur.location.object not in seen:
        out.append(cur.location.object)
        seen.add(cur.location.object)
        cur = by_id.get(cur.location.object)
    return out


def resolve_rooms(text: str, entities: Iterable[Entity]) -> list[Entity]:
    """Rooms a phrase names ("the kitchen" -> kitchen_201), by name, id or id without its number."""
    keys = _keys(words(text))
    rooms = [e for e in entities if e.label == ROOM_LABEL]
    exact = [r for r in rooms if norm(r.id) in keys or (r.name and norm(r.name) in keys)]
    return exact or [r for r in rooms if room_key(r.id) in keys]


def rooms_said(text: str, entities: Iterable[Entity]) -> list[Entity]:
    """Rooms memory holds whose name appears anywhere in the words ("... the chair in the living room" ->
    livingroom_2), as written ("living room") or glued as ids are ("livingroom"); longest name first."""
    ws = words(text.lower())
    spans = {norm("".join(ws[i:j])) for i in range(len(ws)) for j in range(i + 1, min(len(ws), i + 3) + 1)}
    out = []
    for r in entities:
        if r.label != ROOM_LABEL:
            continue
        names = {norm(r.name)} if r.name else set()
        names.add(room_key(r.id))
        names.discard("")
        if names & spans:
            out.append(r)
    return out


def _anchor_ids(hint: list[str], entities: list[Entity]) -> set[str]:
    """What the hint phrase names: rooms first ("in the kitchen"), else the best-matching entities."""
    if not hint:
        return set()
    phrase = " ".join(hint)
    rooms = resolve_rooms(phrase, entities)
    if rooms:
        return {r.id for r in rooms}
    found = resolve_entities(phrase, entities)
    if not found:
        return set()
    top = found[0].score
    return {c.entity.id for c in found if c.score == top}


def _distance(a: Entity, b: Entity, horizontal: bool = False) -> float | None:
    if a.position is None or b.position is None:
        return None
    dz = 0.0 if horizontal else a.position.z - b.position.z
    return float(((a.position.x - b.position.x) ** 2 + (a.position.y - b.position.y) ** 2 + dz ** 2) ** 0.5)


class _HintTest:
    """Whether an entity stands in the hint's relation to the anchor, and how well (0..1 closeness)."""

    def __init__(self, prep: str, anchors: set[str], by_id: dict[str, Entity]) -> None:
        self.prep, self.anchors, self.by_id = prep, anchors, by_id

    def __call__(self, ent: Entity) -> tuple[bool, float, str]:
        if ent.id in self.anchors:
            return False, 0.0, ""  # "the apple next to the apple" is never the anchor itself
        if self.prep in NEAR_WORDS:
            return self._near(ent)
        if self.prep in UNDER_WORDS:
            return self._under(ent)
        where = set(_chain(ent.id, self.by_id)) | ({ent.room} if ent.room else set())
        hit = where & self.anchors
        return bool(hit), 1.0, f"located at {', '.join(sorted(hit))}"

    def _near(self, ent: Entity) -> tuple[bool, float, str]:
        best: tuple[bool, float, str] = (False, 0.0, "")
        support = ent.location.object if ent.location is not None else ""
        for a in sorted(self.anchors):
            anchor = self.by_id.get(a)
            if anchor is None:
                continue
            d = _distance(ent, anchor)
            if d is not None and d <= NEAR_RADIUS_M:
                closeness = 1.0 - d / NEAR_RADIUS_M
                if closeness >= best[1]:
                    best = (True, closeness, f"{d:.2f} m from {a}")
            elif d is None and support and anchor.location is not None and anchor.location.object == support:
                best = best if best[0] else (True, 0.0, f"on {support} with {a}")
        return best

    def _under(self, ent: Entity) -> tuple[bool, float, str]:
        for a in sorted(self.anchors):
            anchor = self.by_id.get(a)
            if anchor is None:
                continue
            if ent.id in _chain(a, self.by_id):  # the anchor rests on or in it
                return True, 1.0, f"{a} rests on it"
            d = _distance(ent, anchor, horizontal=True)
            if (d is not None and d <= UNDER_RADIUS_M and ent.position is not None and anchor.position is not None
                    and ent.position.z < anchor.position.z):
                return True, 1.0 - d / UNDER_RADIUS_M, f"below {a}"
        return False, 0.0, ""


def resolve_entities(text: str, entities: Iterable[Entity], include_rooms: bool = False,
                     boosts: dict[str, tuple[float, str]] | None = None) -> list[Candidate]:
    """Entities the phrase may mean, best first; empty when no label, name or id matches.

    Ranking: identity match (id > name > label, longer phrases first), then attribute values named in the
    text ("blue"), then what memory knows about the speaker's things (``boosts``: id -> (score, why), e.g.
    "my mug" from a possession fact), then a location hint that holds ("in the kitchen", "on the table",
    "next to the lemon", "under the lemon"), then present before absent, then most recently seen.
    """
    pool = list(entities)
    if "'" in text:
        # "grandpa's mug" is a possessive, "Werther's" part of a name (label werthers...): read it both
        # ways and keep each entity's better reading
        best: dict[str, Candidate] = {}
        for reading in (resolve_entities(text.replace("'", ""), pool, include_rooms, boosts),
                        resolve_entities(re.sub(r"'s?\b", "", text), pool, include_rooms, boosts)):
            for c in reading:
                if c.entity.id not in best or c.score > best[c.entity.id].score:
                    best[c.entity.id] = c
        return sorted(best.values(), key=_rank)
    by_id = {e.id: e for e in pool}
    head, prep, hint = split_reference(text)
    if not head:
        return []
    anchors = _anchor_ids(hint, pool)
    if hint and not anchors:
        # the "hint" may be part of the name itself ("cup of tea", "bottle of wine"): match it all
        head, prep, hint = head + [prep] + hint, "", []
    test = _HintTest(prep, anchors, by_id) if anchors else None
    ranked: list[Candidate] = []
    for ent in pool:
        if ent.label == ROOM_LABEL and not include_rooms:
            continue
        m = _match(ent, head)
        if m is None:
            continue
        score, used, why = m
        reasons = [why]
        modifiers = {norm(w) for k, w in enumerate(head) if k not in used}
        attrs = _attribute_words(ent) & modifiers
        if attrs:
            score += _ATTRIBUTE_SCORE * len(attrs)
            reasons.append(f"attributes {', '.join(sorted(attrs))}")
        if boosts and ent.id in boosts:
            extra, boost_why = boosts[ent.id]
            score += extra
            reasons.append(boost_why)
        holds: bool | None = None
        if test is not None:
            holds, closeness, hint_why = test(ent)
            if holds:
                score += _HINT_SCORE + (_NEAR_SCORE * closeness if prep in NEAR_WORDS | UNDER_WORDS else 0.0)
                reasons.append(hint_why)
        ranked.append(Candidate(entity=ent, score=score, reasons=tuple(reasons), hint_holds=holds))
    ranked.sort(key=_rank)
    return ranked


def _rank(c: Candidate) -> tuple[float, bool, int, str]:
    return (-c.score, not c.entity.present, -c.entity.last_seen_ns, c.entity.id)
