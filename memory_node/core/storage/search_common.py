"""What retrieval asks both backends the same way: the filters on entities and events, and the event queries
whose SQL needs nothing of either dialect (the backends' own search modules mix this in)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .records import marks


def entity_filters(room: str | None, entity_id: str | None) -> tuple[str, list]:
    where, args = ["e.present = 1"], []
    if room:
        where.append("e.room = ?")
        args.append(room)
    if entity_id:
        where.append("e.id = ?")
        args.append(entity_id)
    return " AND ".join(where), args


def event_filters(room: str | None, entity_id: str | None, as_of_ns: int | None) -> tuple[str, list]:
    where: list[str] = ["1 = 1"]
    args: list[object] = []
    if as_of_ns is not None:
        where.append("v.stamp_ns <= ?")
        args.append(as_of_ns)
    for linked in (room, entity_id):
        if linked:
            where.append("v.id IN (SELECT event_id FROM event_entities WHERE entity_id = ?)")
            args.append(linked)
    return " AND ".join(where), args


class GroupSearch:
    """The exact stage's groups one at a time (a backend whose queries cost no round trip to a server)."""

    exact_group: Any
    named_phrases: Any

    def exact_stage(self, view: Any, room: str | None, entity_id: str | None, labels: Sequence[str],
                    terms: Sequence[str], limit: int) -> dict[str, str]:
        """``exact_groups`` of each label, then of each (label, name) whose name, normalised as labels are, is
        one of the labels."""
        groups = [(label, None) for label in labels] + self.named_phrases(view, room, entity_id, labels)
        return self.exact_groups(view, room, entity_id, groups, terms, limit)

    def exact_groups(self, view: Any, room: str | None, entity_id: str | None,
                     groups: Sequence[tuple[str, str | None]], terms: Sequence[str], limit: int) -> dict[str, str]:
        """id -> JSON of the ``exact_group`` of each (label, name) in turn (an entity in several groups keeps
        the place of its first)."""
        rows: dict[str, str] = {}
        for label, name in groups:
            rows.update(self.exact_group(view, room, entity_id, label, name, terms, limit))
        return rows


class EventSearch:
    """The event queries both backends run as written."""

    execute: Any

    def events_newest(self, room: str | None, entity_id: str | None, as_of_ns: int | None, limit: int) -> list[str]:
        where, args = event_filters(room, entity_id, as_of_ns)
        return [r[0] for r in self.execute(f"SELECT v.data FROM events v WHERE {where} "
                                           "ORDER BY v.stamp_ns DESC, v.rowid DESC LIMIT ?", [*args, limit])]

    def events_naming(self, ids: Sequence[str], room: str | None, entity_id: str | None,
                      as_of_ns: int | None) -> list[str]:
        """Events with one of the ids, or that involve an entity with one of them."""
        where, args = event_filters(room, entity_id, as_of_ns)
        m = marks(ids)
        return [r[0] for r in self.execute(
            f"SELECT v.data FROM events v WHERE {where} AND (v.id IN ({m}) OR v.id IN "
            f"(SELECT event_id FROM event_entities WHERE entity_id IN ({m}))) "
            "ORDER BY v.stamp_ns DESC LIMIT 1000", [*args, *ids, *ids])]
