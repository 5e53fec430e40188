"""The simulator's ground truth as plain data: where every thing is, what holds it, which doors are open,
what the robot holds.

Small objects are kinematic (moved, never simulated): a grader and the scene graph then read exactly what
the skills did, and nothing drifts or explodes out of a box it overlaps (VirtualHome boxes overlap a lot).
Genesis renders and steps what this state says; the skill checks (``skills.py``) read and change it.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Literal

from memory_node.sim.geometry import free_spot, rect_around
from memory_node.sim.scene_spec import Rect, SceneSpec, Vec2

PANEL_M = 0.03  # wall thickness of a container's carcass (containers.py builds the same)
# Tall containers (a fridge, a closet) get one shelf at this height above their bottom, where things put
# "in" them stand: the head camera sees it through the open door, and a hand reaches it.
SHELF_MIN_HEIGHT_M = 1.2
SHELF_HEIGHT_M = 0.9


def inner_floor(height: float) -> float:
    """Height above a container's bottom of the panel that things inside stand on."""
    return SHELF_HEIGHT_M if height > SHELF_MIN_HEIGHT_M else PANEL_M
HANDS = ("right", "left")
PERSON_ID = "user"  # who takes a handed-over object; memory calls the user this too (scenes.virtualhome)


@dataclass
class ContainerState:
    openable: bool
    closed: bool
    locked: bool

    def states(self, with_lock: bool = True) -> list[str]:
        """As memory words them: open or closed, and locked (``with_lock``: a lock cannot be seen)."""
        return ["closed" if self.closed else "open"] + (["locked"] if with_lock and self.locked else [])


@dataclass
class Body:
    """One furniture piece or small object. ``center`` is the box centre in the map frame."""

    id: str
    label: str
    kind: Literal["furniture", "object"]
    center: list[float]
    size: tuple[float, float, float]
    color: str
    room: str
    name: str = ""
    parent: str | None = None
    relation: str | None = None  # on | in | held_by
    front: str = "+x"
    container: ContainerState | None = None

    def footprint(self) -> Rect:
        return rect_around(self.center[0], self.center[1], self.size[0], self.size[1])

    @property
    def top(self) -> float:
        return self.center[2] + self.size[2] / 2

    @property
    def bottom(self) -> float:
        return self.center[2] - self.size[2] / 2


@dataclass
class RobotState:
    x: float
    y: float
    yaw: float
    held: dict[str, str] = field(default_factory=dict)  # hand -> object id


class WorldState:
    """Ground truth of one scene; built from a ``SceneSpec``, changed only by skills."""

    def __init__(self, spec: SceneSpec) -> None:
        self.spec = spec
        self.rooms = {r.id: r for r in spec.rooms}
        self.bodies: dict[str, Body] = {}
        for f in spec.furniture:
            c = f.container
            self.bodies[f.id] = Body(
                id=f.id, label=f.label, name=f.name, kind="furniture", center=list(f.center), size=f.size,
                color=f.color, room=f.room, parent=f.parent, relation=f.relation, front=f.front,
                container=ContainerState(c.openable, c.closed, c.locked) if c else None)
        for o in spec.objects:
            parent = self.bodies.get(o.parent) if o.parent else None
            room = self.outermost(parent.id).room if parent else (spec.room_at(o.at[0], o.at[1]) or "")  # type: ignore[index]
            body = Body(id=o.id, label=o.label, name=o.name, kind="object", center=[0.0, 0.0, 0.0], size=o.size,
                        color=o.color, room=room, parent=o.parent, relation=o.relation)
            self.bodies[o.id] = body
            body.center = list(self._initial_center(body, o.at))
        self.robot = RobotState(spec.robot.x, spec.robot.y, spec.robot.yaw)

    # ---- lookups -------------------------------------------------------------------------------------

    def furniture(self) -> list[Body]:
        return [b for b in self.bodies.values() if b.kind == "furniture"]

    def objects(self) -> list[Body]:
        return [b for b in self.bodies.values() if b.kind == "object"]

    def chain(self, body_id: str) -> list[Body]:
        """The body and what holds it, innermost first (stops at a person's hand or a cycle)."""
        out = [self.bodies[body_id]]
        while out[-1].parent in self.bodies and all(b.id != out[-1].parent for b in out):
            out.append(self.bodies[out[-1].parent])  # type: ignore[index]
        return out

    def outermost(self, body_id: str) -> Body:
        return self.chain(body_id)[-1]

    def enclosing_closed(self, body_id: str) -> Body | None:
        """The closed container that hides and blocks ``body_id`` (itself excluded), if any."""
        chain = self.chain(body_id)
        for inner, holder in itertools.pairwise(chain):
            if inner.relation == "in" and holder.container is not None and holder.container.closed:
                return holder
        return None

    def holding(self) -> list[str]:
        return list(self.robot.held.values())

    def hand_of(self, obj_id: str) -> str | None:
        return next((h for h, o in self.robot.held.items() if o == obj_id), None)

    def robot_room(self) -> str:
        return self.spec.room_at(self.robot.x, self.robot.y) or ""

    def occupants(self, holder_id: str, relation: str) -> list[Body]:
        return [b for b in self.bodies.values() if b.parent == holder_id and b.relation == relation]

    # ---- surfaces ------------------------------------------------------------------------------------

    def surface(self, holder: Body, relation: str) -> tuple[Rect, float, float]:
        """(rectangle, floor z, headroom) of where things go ``on`` or ``in`` ``holder``."""
        if relation == "in" and holder.container is not None:
            x0, y0, x1, y1 = holder.footprint()
            p = PANEL_M
            rect = (x0 + p, y0 + p, x1 - p, y1 - p)
            floor = inner_floor(holder.size[2])
            return rect, holder.bottom + floor, holder.size[2] - floor - p
        return holder.footprint(), holder.top, math.inf

    def spot_for(self, obj: Body, holder: Body, relation: str, prefer: Vec2) -> tuple[float, float, float] | None:
        """Centre where ``obj`` fits ``relation`` ``holder`` without touching what is there; None if full."""
        rect, floor, headroom = self.surface(holder, relation)
        if obj.size[2] > headroom:
            return None
        others = [b.footprint() for b in self.occupants(holder.id, relation) if b.id != obj.id]
        xy = free_spot(rect, others, (obj.size[0], obj.size[1]), prefer)
        return None if xy is None else (xy[0], xy[1], floor + obj.size[2] / 2)

    def _initial_center(self, obj: Body, at: tuple[float, ...] | None) -> tuple[float, float, float]:
        """Where an object starts: an exact ``at: [x, y, z]`` is kept (inner shelves; lifted onto a
        container's floor if below it); ``at: [x, y]`` is a preference, moved to the nearest free spot when
        something placed before stands there (VirtualHome puts fruit inside bowls); no ``at``: the free
        spot nearest the surface's centre."""
        holder = self.bodies.get(obj.parent) if obj.parent else None
        if holder is None:
            assert at is not None and len(at) == 3  # the spec validator guarantees it
            return (at[0], at[1], at[2])
        relation = obj.relation or "on"
        rect, floor, _ = self.surface(holder, relation)
        if at is not None and len(at) == 3:
            return (at[0], at[1], max(at[2], floor + obj.size[2] / 2))
        prefer = (at[0], at[1]) if at is not None else ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)
        spot = self.spot_for(obj, holder, relation, prefer)
        if spot is not None:
            return spot
        if at is not None:
            # full surface: keep the author's spot, clamped onto the surface, even if it overlaps
            x = min(max(at[0], rect[0] + obj.size[0] / 2), rect[2] - obj.size[0] / 2)
            y = min(max(at[1], rect[1] + obj.size[1] / 2), rect[3] - obj.size[1] / 2)
            return (x, y, floor + obj.size[2] / 2)
        raise ValueError(f"object {obj.id} does not fit {relation} {holder.id}: give it at: [x, y]")

    # ---- grading -------------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything a grader may ask about, as plain JSON-able data."""
        entities: dict[str, Any] = {}
        for b in self.bodies.values():
            states = []
            if b.container is not None and b.container.openable:
                states = b.container.states()
            entities[b.id] = {
                "label": b.label, "kind": b.kind, "room": self.outermost(b.id).room if b.parent in self.bodies
                else b.room, "position": [round(c, 4) for c in b.center], "parent": b.parent,
                "relation": b.relation, "states": states}
        return {"robot": {"x": self.robot.x, "y": self.robot.y, "yaw": self.robot.yaw, "room": self.robot_room(),
                          "holding": self.holding()},
                "entities": entities}
