"""Memory seen from above: rooms as areas, objects as points, relations as lines between them.

One layout for both pictures of memory, the PNG of ``memory-node export --png`` (cli/picture.py) and the
node's RViz markers (ros/markers.py), so a person sees the same map in both. Memory stores no room outlines
(a room is an entity, usually without a position), so a room's area is the box around what is in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .models import Entity, Relation
from .store import ROOM_LABEL, MemoryStore

ROOM_MARGIN_M = 0.3  # around a room's objects, so one on the box's edge is drawn inside it


@dataclass(frozen=True)
class RoomArea:
    id: str
    name: str
    x_min: float
    y_min: float
    x_max: float
    y_max: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x_min + self.x_max) / 2.0, (self.y_min + self.y_max) / 2.0


@dataclass(frozen=True)
class PlacedRelation:
    relation: Relation
    start: tuple[float, float, float]
    end: tuple[float, float, float]


@dataclass
class TopDownView:
    rooms: list[RoomArea] = field(default_factory=list)
    objects: list[Entity] = field(default_factory=list)  # present, with a position, rooms excluded
    relations: list[PlacedRelation] = field(default_factory=list)  # both ends placed
    unplaced: int = 0  # present objects memory knows no position of (not drawn)

    def bounds(self) -> tuple[float, float, float, float] | None:
        xs = [v for r in self.rooms for v in (r.x_min, r.x_max)] + [e.position.x for e in self.objects]
        ys = [v for r in self.rooms for v in (r.y_min, r.y_max)] + [e.position.y for e in self.objects]
        return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def top_down_view(store: MemoryStore, as_of_ns: int | None = None) -> TopDownView:
    """What memory holds now (or as of a time), laid out on the map's x/y plane."""
    entities = store.entities(as_of_ns=as_of_ns)
    rooms = {e.id: e for e in entities if e.label == ROOM_LABEL}
    objects = [e for e in entities if e.label != ROOM_LABEL]
    placed = sorted((e for e in objects if e.position is not None), key=lambda e: e.id)
    by_id = {e.id: e for e in placed}
    view = TopDownView(objects=placed, unplaced=len(objects) - len(placed))

    members: dict[str, list[Entity]] = {}
    for e in placed:
        if e.room:
            members.setdefault(e.room, []).append(e)
    for room_id in sorted(set(rooms) | set(members)):
        inside = members.get(room_id, [])
        room = rooms.get(room_id)
        points = [(e.position.x, e.position.y) for e in inside]
        if room is not None and room.position is not None:
            points.append((room.position.x, room.position.y))
        if not points:
            continue
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        view.rooms.append(RoomArea(id=room_id, name=(room.name if room and room.name else room_id),
                                   x_min=min(xs) - ROOM_MARGIN_M, y_min=min(ys) - ROOM_MARGIN_M,
                                   x_max=max(xs) + ROOM_MARGIN_M, y_max=max(ys) + ROOM_MARGIN_M))

    for r in store.relations(as_of_ns=as_of_ns):
        a, b = by_id.get(r.subject), by_id.get(r.object)
        if a is not None and b is not None:
            view.relations.append(PlacedRelation(r, (a.position.x, a.position.y, a.position.z),
                                                 (b.position.x, b.position.y, b.position.z)))
    return view
