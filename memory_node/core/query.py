"""Typed memory queries behind ~/query: structured filters first, then a plain text filter.

Later retrieval stages (FTS5, embeddings) slot in after the structured filters; the structured part
stays first because "where is X now" is a lookup, not a similarity search.
"""

from __future__ import annotations

from .models import Entity, InvalidInput, MemoryRecord
from .store import MemoryStore

STORES = ("entities", "events", "frames", "history", "relations", "map")
DEFAULT_LIMIT = 12


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


def _matches(text: str, needle: str) -> bool:
    return all(word in text.lower() for word in needle.lower().split())


def query(store: MemoryStore, kind: str = "", text: str = "", room: str = "", entity_id: str = "",
          as_of_ns: int | None = None, limit: int = DEFAULT_LIMIT) -> list[MemoryRecord]:
    """Records of one store ('' = entities then events), newest first, at most ``limit``."""
    kind = kind.strip().lower()
    if kind and kind not in STORES:
        raise InvalidInput(f"unknown store {kind!r}; known: {', '.join(STORES)}")
    limit = max(1, min(int(limit) or DEFAULT_LIMIT, 1000))
    out: list[MemoryRecord] = []

    if kind in ("", "entities"):
        if entity_id:
            one = store.entity(entity_id, as_of_ns=as_of_ns)
            ents = [one] if one else []
        else:
            ents = store.entities(room=room or None, as_of_ns=as_of_ns)
        for e in ents:
            desc = describe_entity(e)
            if text and not _matches(f"{desc} {e.name}", text):
                continue
            out.append(MemoryRecord.of("entity", e.id, desc, e, e.last_seen_ns))
    if kind in ("", "events"):
        for ev in store.events(entity_id=entity_id or None, until_ns=as_of_ns, limit=limit * 4):
            if text and not _matches(ev.text, text):
                continue
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
    if kind == "map":
        info = store.map_info()
        if info is not None and (as_of_ns is None or info.stamp_ns <= as_of_ns):
            out.append(MemoryRecord.of("map", info.provenance, f"map {info.width}x{info.height} cells at "
                                       f"{info.resolution} m, {info.occupied_cells} occupied", info, info.stamp_ns))
    out.sort(key=lambda r: -r.stamp_ns)
    return out[:limit]
