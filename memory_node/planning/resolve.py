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

# Words that carry no identity: articles, possessives of the speaker, fillers.
FILLER_WORDS = frozenset({
    "the", "a", "an", "my", "your", "our", "his", "her", "their", "its", "this", "that", "these", "those",
    "some", "any", "me", "us", "please", "now", "currently", "right", "again", "today", "one",
})
# Prepositions that introduce a location hint after the object phrase.
HINT_WORDS = frozenset({"in", "on", "inside", "at", "from", "near", "under", "by", "onto", "into"})

_LABEL_SCORE = 1.0
_NAME_SCORE = 2.0
_ID_SCORE = 3.0
_SPAN_BONUS = 0.5  # per extra word a match spans: "coffee mug" prefers label coffeemug over mug
_ATTRIBUTE_SCORE = 1.0
_HINT_SCORE = 2.0


@dataclass(frozen=True)
class Candidate:
    entity: Entity
    score: float
    reasons: tuple[str, ...]


def norm(text: str) -> str:
    """Letters and digits only, lower case: compares labels, names, ids and words on one footing."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def singular(word: str) -> str:
    """Strip a regular English plural; good enough for object nouns, and callers also try the raw form."""
    for suffix, repl in (("ies", "y"), ("ives", "ife"), ("lves", "lf"), ("sses", "ss"), ("ches", "ch"),
                         ("shes", "sh"), ("xes", "x"), ("zes", "z"), ("oes", "o")):
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            return word[: -len(suffix)] + repl
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """Lower-case words without possessive 's and without filler words."""
    out = []
    for raw in re.findall(r"[a-z0-9_'\-]+", text.lower()):
        w = re.sub(r"'s$|'$", "", raw).replace("'", "")
        if w and w not in FILLER_WORDS:
            out.append(w)
    return out


def room_key(room_id: str) -> str:
    """``kitchen_201`` -> ``kitchen``: room ids often carry a number people never say."""
    return norm(re.sub(r"[_\-\s]*\d+$", "", room_id))


def split_hint(text: str) -> tuple[list[str], list[str]]:
    """Object words before the first location preposition, and the hint phrase after it."""
    ws = words(text)
    for i, w in enumerate(ws):
        if w in HINT_WORDS and i > 0:
            return ws[:i], ws[i + 1:]
    return ws, []


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


def _hint_ids(hint: list[str], entities: list[Entity]) -> set[str]:
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


def resolve_entities(text: str, entities: Iterable[Entity], include_rooms: bool = False) -> list[Candidate]:
    """Entities the phrase may mean, best first; empty when no label, name or id matches.

    Ranking: identity match (id > name > label, longer phrases first), then attribute values named in the
    text ("blue"), then a location hint that holds ("in the kitchen", "on the table"), then present before
    absent, then most recently seen.
    """
    pool = list(entities)
    by_id = {e.id: e for e in pool}
    head, hint = split_hint(text)
    if not head:
        return []
    hint_ids = _hint_ids(hint, pool)
    if hint and not hint_ids:
        # the "hint" may be part of the name itself ("cup of tea", "bottle of wine"): match it all
        head, hint = head + hint, []
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
        if hint_ids:
            where = set(_chain(ent.id, by_id)) | ({ent.room} if ent.room else set())
            if where & hint_ids:
                score += _HINT_SCORE
                reasons.append(f"located at {', '.join(sorted(where & hint_ids))}")
        ranked.append(Candidate(entity=ent, score=score, reasons=tuple(reasons)))
    ranked.sort(key=lambda c: (-c.score, not c.entity.present, -c.entity.last_seen_ns, c.entity.id))
    return ranked
