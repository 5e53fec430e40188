"""Rooms of the map: which room a lifted object, or the camera, stands in.

An occupancy grid says what is free or occupied, not which room is which; that takes a room layout drawn on
the map (as nav2 users do for zones and keep-out areas). A layout is a YAML file whose ``rooms`` list
gives, per room, an id, a name and its floor as axis-aligned rectangles in the map frame, the format of the
simulator's scene files (``config/sim/scenes/*.yaml``), so a scene file is itself a layout::

    rooms:
      - {id: kitchen_201, name: kitchen, floor: [[-3.86, -9.25, 1.14, -1.75]]}
      - {id: livingroom_319, name: livingroom, floor: [[1.14, -11.75, 8.64, -4.25], ...]}

An object's room is the room whose floor holds its centre; one just outside every floor (furniture against
a wall sticks out of a room's rectangle by centimetres) takes the nearest floor within ``snap`` metres.
Without a layout, perception reports the robot's current room as every object's (a ``room`` parameter).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from memory_node.core.models import InvalidInput

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Room:
    id: str
    name: str
    floor: tuple[Rect, ...]

    def distance(self, x: float, y: float) -> float:
        """0 inside the floor, else the distance to its nearest rectangle."""
        return min(max(r[0] - x, 0.0, x - r[2]) ** 2 + max(r[1] - y, 0.0, y - r[3]) ** 2 for r in self.floor) ** 0.5

    def centre(self) -> tuple[float, float]:
        """Area-weighted centroid of the floor."""
        areas = [(r[2] - r[0]) * (r[3] - r[1]) for r in self.floor]
        total = sum(areas)
        return (sum(a * (r[0] + r[2]) / 2 for a, r in zip(areas, self.floor)) / total,
                sum(a * (r[1] + r[3]) / 2 for a, r in zip(areas, self.floor)) / total)


class RoomMap:
    def __init__(self, rooms: list[Room], snap: float = 0.5) -> None:
        if not rooms:
            raise InvalidInput("a room layout needs at least one room")
        ids = [r.id for r in rooms]
        if len(set(ids)) != len(ids):
            raise InvalidInput(f"room ids must be unique, got {ids}")
        self.rooms = {r.id: r for r in rooms}
        self.snap = snap

    @classmethod
    def load(cls, path: str | Path, snap: float = 0.5) -> RoomMap:
        """Read a layout (or a scene file) and check it; InvalidInput names the file and what is wrong."""
        path = Path(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as err:
            raise InvalidInput(f"room layout {path}: cannot read it ({err})") from None
        entries = data.get("rooms") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise InvalidInput(f"room layout {path}: needs a 'rooms' list (id, name, floor rectangles)")
        rooms = []
        for i, e in enumerate(entries):
            try:
                floor = tuple(tuple(float(v) for v in r) for r in e["floor"])
                if not floor or any(len(r) != 4 or r[2] <= r[0] or r[3] <= r[1] for r in floor):
                    raise ValueError("floor rectangles are [xmin, ymin, xmax, ymax] with xmin<xmax, ymin<ymax")
                rooms.append(Room(id=str(e["id"]), name=str(e.get("name") or e["id"]), floor=floor))  # type: ignore[arg-type]
            except (KeyError, TypeError, ValueError) as err:
                raise InvalidInput(f"room layout {path}: room {i} is invalid ({err})") from None
        return cls(rooms, snap=snap)

    def room_at(self, x: float, y: float) -> str:
        """The id of the room holding (x, y), or of the nearest one within ``snap``; '' when none is."""
        best, best_d = "", self.snap
        for r in self.rooms.values():
            d = r.distance(x, y)
            if d == 0.0:
                return r.id
            if d <= best_d:
                best, best_d = r.id, d
        return best
