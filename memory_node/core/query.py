"""Typed memory queries behind ~/query: structured filters first, then the text.

Text over entities and events goes through the retrieval pipeline (core/retrieval.py: exact, lexical
FTS5, then semantic similarity as a fallback), after the structured filters; the structured part stays
first because "where is X now" is a lookup, not a similarity search. Without text, records come newest
first.

A since/until window asks what was observed in a span of event time rather than how memory stood at one
instant (``as_of``): entities seen in it (in the state they were seen in), events, frames and log entries
stamped in it, versions and relations that held during it.
"""

from __future__ import annotations

from .consolidation import knowledge as consolidated_knowledge
from .models import Entity, InvalidInput, KnowledgeKind, MemoryRecord, RoomSummary
from .rules import correction_records
from .store import ROOM_LABEL, MemoryStore

STORES = ("entities", "events", "frames", "history", "relations", "map", "rooms", "observations")
DEFAULT_LIMIT = 12
# Inferred knowledge (core/consolidation.py): strongest first rather than newest first.
KNOWLEDGE_STORES: dict[str, KnowledgeKind] = {"routines": "routine", "habits": "habit", "preferences": "preference"}
STORES = STORES + tuple(KNOWLEDGE_STORES)
STORES = STORES + ("rules", "facts")  # corrections and the rules they consolidate into (core/rules.py)
# stores a since/until window applies to (the others are summaries or derived knowledge: as_of only)
WINDOW_STORES = ("", "entities", "events", "frames", "history", "relations", "observations")


def describe_entity(e: Entity) -> str:
    where = f"{e.location.predicate} {e.location.object}" if e.location else "location unknown"
    bits = [f"{e.label} {e.id}", where]
    if e.room and e.room != e.id:
        bits.append(f"room {e.room}")
    if e.states:
        bits.append("states " + ",".join(e.states))
    if e.attributes:
        bits.append(", ".join(f"{k}={v}" for k, v in sorted(e.attributes.items())))
    if not e.present:
        bits.append("no longer seen")
    return "; ".join(bits)


def room_summaries(store: MemoryStore, as_of_ns: int | None = None) -> list[RoomSummary]:
    """Rooms (from scene graphs) with their entity counts and connectivity (``connected_to`` relations,
    taken in both directions)."""
    ents = store.entities(as_of_ns=as_of_ns)
    rooms = {e.id: e for e in ents if e.label == ROOM_LABEL}
    counts: dict[str, int] = {r: 0 for r in rooms}
    for e in ents:
        if e.room in counts and e.id != e.room:
            counts[e.room] += 1
    links: dict[str, set[str]] = {r: set() for r in rooms}
    for r in store.relations(as_of_ns=as_of_ns):
        if r.predicate == "connected_to":
            for a, b in ((r.subject, r.object), (r.object, r.subject)):
                if a in links:
                    links[a].add(b)
    return [RoomSummary(id=r.id, name=r.name, entity_count=counts[r.id], connected_to=sorted(links[r.id]),
                        last_seen_ns=r.last_seen_ns) for r in sorted(rooms.values(), key=lambda e: e.id)]


def _matches(text: str, needle: str) -> bool:
    return all(word in text.lower() for word in needle.lower().split())


def knowledge_records(store: MemoryStore, kind: str, text: str = "", entity_id: str = "",
                      as_of_ns: int | None = None) -> list[MemoryRecord]:
    """Routines, habits or preferences; ``entity_id`` names the actor or an object of their steps."""
    out = []
    for k in consolidated_knowledge(store, kind=KNOWLEDGE_STORES[kind], as_of_ns=as_of_ns):
        if entity_id and entity_id not in {k.actor, *k.steps, *(s.partition(" ")[2] for s in k.steps)}:
            continue
        if text and not _matches(k.text, text):
            continue
        out.append(MemoryRecord.of(k.kind, k.id, k.text, k, k.evidence_to_ns, score=k.confidence))
    return out


def entity_record(e: Entity) -> MemoryRecord:
    """An entity as ~/query returns it (``record.typed()`` gives ``e`` back)."""
    return MemoryRecord.of("entity", e.id, describe_entity(e), e, e.last_seen_ns)


def query(store: MemoryStore, kind: str = "", text: str = "", room: str = "", entity_id: str = "",
          as_of_ns: int | None = None, limit: int = DEFAULT_LIMIT, *, since_ns: int | None = None,
          until_ns: int | None = None) -> list[MemoryRecord]:
    """Records of one store ('' = entities then events), newest first, at most ``limit``; with ``text``,
    entities and events come best match first. ``since_ns``/``until_ns`` (either may be None) restrict
    it to what was observed in that window (module docstring); they exclude ``as_of_ns``."""
    kind = kind.strip().lower()
    if kind and kind not in STORES:
        raise InvalidInput(f"unknown store {kind!r}; known: {', '.join(STORES)}")
    limit = max(1, min(int(limit) or DEFAULT_LIMIT, 1000))
    if kind == "observations":  # the log: as_of is the window's end
        if as_of_ns is not None and (since_ns is not None or until_ns is not None):
            raise InvalidInput("give as_of or a since/until window, not both")
        until_ns = as_of_ns if as_of_ns is not None else until_ns
    elif as_of_ns is not None and (since_ns is not None or until_ns is not None):
        raise InvalidInput("give as_of or a since/until window, not both")
    if since_ns is not None or until_ns is not None or kind == "observations":
        return _window_query(store, kind, text, room, entity_id, since_ns, until_ns, limit)
    if kind in KNOWLEDGE_STORES:
        return knowledge_records(store, kind, text=text, entity_id=entity_id, as_of_ns=as_of_ns)[:limit]
    if text.strip() and kind in ("", "entities", "events"):
        # ranked by how the text matched (exact, lexical, semantic), not by time; see core/retrieval.py
        from .retrieval import retriever_for  # imported here: retrieval builds on describe_entity

        return retriever_for(store).search(text, kind=kind or None, room=room or None,
                                           entity_id=entity_id or None, as_of_ns=as_of_ns, limit=limit)
    out: list[MemoryRecord] = []

    if kind in ("", "entities"):
        if entity_id:
            one = store.entity(entity_id, as_of_ns=as_of_ns)
            ents = [one] if one else []
        else:
            ents = store.entities(room=room or None, as_of_ns=as_of_ns)
        out += [entity_record(e) for e in ents]
    if kind in ("", "events"):
        for ev in store.events(entity_id=entity_id or None, until_ns=as_of_ns, limit=limit * 4):
            if room and room not in ev.entity_ids:
                continue
            out.append(MemoryRecord.of("event", ev.id, ev.text, ev, ev.stamp_ns))
    if kind == "frames":
        for f in store.frames(room=room or None, entity_id=entity_id or None, until_ns=as_of_ns,
                              limit=limit):
            out.append(MemoryRecord.of("frame", f.id, f"frame in {f.room or 'unknown room'}: {f.path}", f,
                                       f.stamp_ns))
    if kind == "history":
        if not entity_id:
            raise InvalidInput("store 'history' needs entity_id")
        for v in reversed(store.history(entity_id)):
            if as_of_ns is not None and v.valid_from_ns > as_of_ns:
                continue
            out.append(MemoryRecord.of("entity_version", f"{entity_id}@{v.valid_from_ns}",
                                       describe_entity(v.entity), v, v.valid_from_ns))
    if kind == "relations":
        for r in store.relations(subject=entity_id or None, as_of_ns=as_of_ns, room=room or None):
            line = f"{r.subject} {r.predicate} {r.object}"
            if text and not _matches(line, text):
                continue
            out.append(MemoryRecord.of("relation", f"{r.subject}:{r.predicate}:{r.object}", line, r,
                                       r.since_ns))
    if kind == "rooms":
        for info in room_summaries(store, as_of_ns=as_of_ns):
            if room and info.id != room:
                continue
            text_line = (f"room {info.id}: {info.entity_count} entities"
                         + (f", connected to {', '.join(info.connected_to)}" if info.connected_to else ""))
            out.append(MemoryRecord.of("room", info.id, text_line, info, info.last_seen_ns))
    if kind == "map":
        info = store.map_info()
        if info is not None and (as_of_ns is None or info.stamp_ns <= as_of_ns):
            out.append(MemoryRecord.of("map", info.provenance, f"map {info.width}x{info.height} cells at "
                                       f"{info.resolution} m, {info.occupied_cells} occupied", info, info.stamp_ns))
    if kind in ("rules", "facts"):
        out += [r for r in correction_records(store, kind, as_of_ns=as_of_ns, entity_id=entity_id)
                if not text or _matches(r.text, text)]
    out.sort(key=lambda r: -r.stamp_ns)
    return out[:limit]


def _window_query(store: MemoryStore, kind: str, text: str, room: str, entity_id: str, since_ns: int | None,
                  until_ns: int | None, limit: int) -> list[MemoryRecord]:
    """``query`` over [since_ns, until_ns]: what was observed then, newest first."""
    if kind not in WINDOW_STORES:
        known = ", ".join(k or "''" for k in WINDOW_STORES)
        raise InvalidInput(f"store {kind!r} has no since/until window (it takes as_of); windowed stores: {known}")
    if since_ns is not None and until_ns is not None and since_ns > until_ns:
        raise InvalidInput(f"since ({since_ns} ns) is after until ({until_ns} ns)")
    window = {"since_ns": since_ns, "until_ns": until_ns}
    lo = since_ns if since_ns is not None else -(2**62)
    hi = until_ns if until_ns is not None else 2**62
    out: list[MemoryRecord] = []
    if kind in ("", "entities"):
        ents = store.observed(**window, room=room or None, entity_id=entity_id or None)
        out += [entity_record(e) for e in ents if not text or _matches(describe_entity(e), text)]
    if kind in ("", "events"):
        for ev in store.events(entity_id=entity_id or None, limit=limit * 4, **window):
            if (room and room not in ev.entity_ids) or (text and not _matches(ev.text, text)):
                continue
            out.append(MemoryRecord.of("event", ev.id, ev.text, ev, ev.stamp_ns))
    if kind == "frames":
        for f in store.frames(room=room or None, entity_id=entity_id or None, limit=limit, **window):
            out.append(MemoryRecord.of("frame", f.id, f"frame in {f.room or 'unknown room'}: {f.path}", f,
                                       f.stamp_ns))
    if kind == "history":
        if not entity_id:
            raise InvalidInput("store 'history' needs entity_id")
        for v in reversed(store.history(entity_id)):
            if v.valid_from_ns > hi or (v.valid_to_ns is not None and v.valid_to_ns <= lo):
                continue
            out.append(MemoryRecord.of("entity_version", f"{entity_id}@{v.valid_from_ns}",
                                       describe_entity(v.entity), v, v.valid_from_ns))
    if kind == "relations":
        for r in store.relations(subject=entity_id or None, room=room or None, **window):
            line = f"{r.subject} {r.predicate} {r.object}"
            if text and not _matches(line, text):
                continue
            out.append(MemoryRecord.of("relation", f"{r.subject}:{r.predicate}:{r.object}@{r.since_ns}", line,
                                       r, r.since_ns))
    if kind == "observations":
        for o in store.observations(**window, limit=limit if not text else limit * 4):
            line = f"{o.kind} from {o.source or 'unknown source'}: " + ", ".join(
                f"{k}={v}" for k, v in sorted(o.summary.items()))
            if text and not _matches(line, text):
                continue
            out.append(MemoryRecord.of("observation", o.id, line, o, o.stamp_ns))
    out.sort(key=lambda r: -r.stamp_ns)
    return out[:limit]
