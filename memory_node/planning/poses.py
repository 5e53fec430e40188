"""Where a plan's arguments are, so a controller can execute it without looking the ids up again.

Every step gets the map-frame position of each argument as memory last saw it (the entity's centre,
metres; None, NaN in the ROS message, when memory has no position for it or when earlier steps of the same
plan put it in the robot's hand: it then moves with the robot). Every navigation step also gets an
approach pose: where the base should stand to work at the target, yaw (radians, counter-clockwise from
the map's x axis) facing it.

How the approach pose is chosen (memory has no occupancy grid, only what it saw: each entity's centre
and, when its source reported one, its box size, attribute ``size`` = "sx,sy,sz" metres):

- for an object or furniture, the robot stands at the outermost furniture the target rests on or in that
  stands in the base's way (the coffee table, not the rug under it; itself when it rests on nothing), ``STANDOFF_M`` from the edge of that furniture's footprint, at the point of the edge
  nearest to what it will handle there (the target, or the next step's object when that lies on the same
  furniture: the far end of a long counter is out of reach from its middle);
- the side is the one facing where the robot comes from (its last reported pose, or the previous
  navigation step's approach) when that is in the target's room, else the one facing the room's centre:
  furniture stands along walls, so the side facing the room is the one with floor in front of it;
- a candidate is kept only if the robot's disc (``ROBOT_RADIUS_M``) overlaps no footprint memory knows in
  that room (other furniture, things on the floor; not what stands higher than the base or is flat on the
  floor), trying spots further back and along the side, then the other sides;
- for a room, the free spot nearest its centre, heading the way the robot travels; for a person,
  ``PERSON_STANDOFF_M`` in front of them on the side the robot comes from, facing them;
- None when memory knows no position for the target or every candidate is blocked by what it knows.

The constants match the simulated Vega (``memory_node/sim/geometry.py``); a robot with another base
changes them here. A controller with a real map may still refine the pose: memory cannot see walls.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.models import Plan, Point, Pose, SkillCall
from .skills import SkillLibrary
from ..world.state import WorldState

STANDOFF_M = 0.45  # base origin to the target's edge when standing at it: arms reach ~0.6 m forward
ROBOT_RADIUS_M = 0.36  # Vega base: ~0.62 x 0.5 m footprint
PERSON_STANDOFF_M = 0.8  # a handover at arm's length, not in the person's face
REACH_M = 1.2  # farthest a thing handled at the furniture may be from the base
BLOCKING_BELOW_M = 1.8  # what is wholly above this (a wall cupboard) does not block the base...
BLOCKING_ABOVE_M = 0.05  # ...nor what is flatter than this (a rug)
_BACK = (0.0, 0.1, 0.2, 0.35)
_SHIFT = (0.0, 0.15, -0.15, 0.3, -0.3, 0.5, -0.5)
_SIDES = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))

Rect = tuple[float, float, float, float]  # xmin, ymin, xmax, ymax


def locate_steps(plan: Plan, world: WorldState, library: SkillLibrary) -> Plan:
    """Fill each step's ``arg_positions`` and, for navigation steps, ``approach`` (in place; returns the
    plan). ``world`` is memory as the plan was validated against; the steps' effects are dry-run on a copy
    so what the robot holds at each step is known."""
    state = world.copy()
    state.hands = library.hands
    at: tuple[float, float] | None = None
    at_room: str | None = world.robot_room
    if world.robot_pose is not None:
        at = (world.robot_pose.position.x, world.robot_pose.position.y)
    for i, step in enumerate(plan.steps):
        skill = library.skill(step.skill)
        step.arg_positions = [None if a in state.holding else _position(world, a) for a in step.args]
        step.approach = None
        if skill is not None and skill.role == "navigate" and step.args:
            step.approach = approach_pose(world, step.args[0], _focus(plan.steps, i, library), at, at_room)
            if step.approach is not None:
                at, at_room = (step.approach.position.x, step.approach.position.y), world.room_of(step.args[0])
        if skill is not None and len(skill.args) == len(step.args):
            binding = skill.bind(step.args)
            for eff in skill.effects:
                state.apply(eff, binding)
    return plan


def _position(world: WorldState, ent_id: str) -> Point | None:
    ent = world.entities.get(ent_id)
    return ent.position if ent is not None else None


def _focus(steps: Sequence[SkillCall], i: int, library: SkillLibrary) -> str:
    """What the plan handles after navigating at step ``i``: the first argument of the next step that is
    not a navigation ('' when it navigates again or ends)."""
    for step in steps[i + 1:]:
        skill = library.skill(step.skill)
        if skill is not None and skill.role == "navigate":
            return ""
        if step.args:
            return step.args[0]
    return ""


def size_of(attributes: dict[str, str]) -> tuple[float, float, float] | None:
    """The box size a source reported (``size`` = "sx,sy,sz", metres), None when absent or unusable."""
    try:
        size = tuple(float(v) for v in attributes.get("size", "").split(","))
    except ValueError:
        return None
    if len(size) != 3 or not all(math.isfinite(v) and v >= 0 for v in size):
        return None
    return size  # type: ignore[return-value]


def _footprint(world: WorldState, ent_id: str) -> Rect | None:
    ent = world.entities.get(ent_id)
    if ent is None or ent.position is None:
        return None
    sx, sy, _ = size_of(ent.attributes) or (0.0, 0.0, 0.0)
    p = ent.position
    return (p.x - sx / 2, p.y - sy / 2, p.x + sx / 2, p.y + sy / 2)


def _obstacles(world: WorldState, room: str | None, base: str) -> list[Rect]:
    """Footprints in ``room`` that would block the base: everything with a position and a size that
    reaches into the base's height, except ``base`` itself, what rests on or in it, rooms, people and
    what the robot holds."""
    out = []
    for ent in world.entities.values():
        if ent.id == base or ent.position is None or not ent.present or world.is_room(ent.id) or \
                world.is_person(ent.id) or ent.id in world.holding or world.room_of(ent.id) != room or \
                (not world.is_room(base) and base in world.chain(ent.id)):
            continue
        size = size_of(ent.attributes)
        if size is None:
            continue
        bottom, top = ent.position.z - size[2] / 2, ent.position.z + size[2] / 2
        if bottom >= BLOCKING_BELOW_M or top <= BLOCKING_ABOVE_M:
            continue
        rect = _footprint(world, ent.id)
        if rect is not None:
            out.append(rect)
    return out


def _blocks(world: WorldState, ent_id: str) -> bool:
    """Whether the entity stands in the base's way (a table does; a rug or a wall cupboard does not)."""
    ent = world.entities.get(ent_id)
    size = size_of(ent.attributes) if ent is not None else None
    if ent is None or ent.position is None or size is None:
        return False
    return ent.position.z - size[2] / 2 < BLOCKING_BELOW_M and ent.position.z + size[2] / 2 > BLOCKING_ABOVE_M


def _standing_base(world: WorldState, target: str) -> str:
    """What the robot stands at to reach ``target``: the outermost thing it rests on or in that blocks
    the base (the coffee table, not the rug under it), else the furniture memory's chain ends at, else
    the target itself."""
    base = ""
    for anc in [target, *world.chain(target)]:
        if anc == world.robot_id or world.is_room(anc):
            break
        if _blocks(world, anc):
            base = anc
    return base or world.furniture(target) or target


def _clear(x: float, y: float, obstacles: list[Rect]) -> bool:
    return all(math.hypot(max(r[0] - x, 0.0, x - r[2]), max(r[1] - y, 0.0, y - r[3])) > ROBOT_RADIUS_M
               for r in obstacles)


def _pose(x: float, y: float, yaw: float) -> Pose:
    return Pose(position=Point(x=x, y=y, z=0.0), yaw=math.atan2(math.sin(yaw), math.cos(yaw)), frame_id="map")


def approach_pose(world: WorldState, target: str, focus: str = "", at: tuple[float, float] | None = None,
                  at_room: str | None = None) -> Pose | None:
    """Where to stand to work at ``target`` (module docstring), coming from ``at`` (in room ``at_room``);
    ``focus``: what will be handled there next. None when memory cannot say."""
    ent = world.entities.get(target)
    if ent is None or ent.position is None or target in world.holding or target == world.robot_id:
        return None
    if world.is_room(target):
        return _room_spot(world, target, at)
    room = world.room_of(target)
    reference = at if at is not None and at_room is not None and at_room == room else _room_centre(world, room)
    if reference is None:
        reference = at
    if world.is_person(target):
        return _in_front(ent.position, reference, _obstacles(world, room, target))
    base = _standing_base(world, target)
    rect = _footprint(world, base)
    if rect is None:
        return None
    handled = focus if focus and focus != target and _standing_base(world, focus) == base and \
        _position(world, focus) is not None else target
    fp = _position(world, handled)
    assert fp is not None  # target has a position; a focus is only taken when it has one
    reach = REACH_M if handled != base else math.inf
    obstacles = _obstacles(world, room, base)
    cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    sides = list(_SIDES)
    if reference is not None:
        sides.sort(key=lambda n: -(n[0] * (reference[0] - cx) + n[1] * (reference[1] - cy)))
    for nx, ny in sides:
        # the point of this side's edge nearest the thing handled
        ex = rect[2] if nx > 0 else rect[0] if nx < 0 else min(max(fp.x, rect[0]), rect[2])
        ey = rect[3] if ny > 0 else rect[1] if ny < 0 else min(max(fp.y, rect[1]), rect[3])
        for back in _BACK:
            for shift in _SHIFT:
                x = ex + nx * (STANDOFF_M + back) - ny * shift
                y = ey + ny * (STANDOFF_M + back) + nx * shift
                if _clear(x, y, obstacles) and math.dist((x, y), (fp.x, fp.y)) <= reach:
                    return _pose(x, y, math.atan2(fp.y - y, fp.x - x))
    return None


def _room_centre(world: WorldState, room: str | None) -> tuple[float, float] | None:
    ent = world.entities.get(room) if room else None
    return (ent.position.x, ent.position.y) if ent is not None and ent.position is not None else None


def _room_spot(world: WorldState, room: str, at: tuple[float, float] | None) -> Pose | None:
    """The spot nearest the room's centre clear of what memory knows there, on rings 0.1 m apart."""
    centre = _room_centre(world, room)
    assert centre is not None  # the caller checked the room has a position
    obstacles = _obstacles(world, room, room)
    for k in range(31):
        d = k * 0.1
        n = max(1, int(2 * math.pi * d / 0.1))
        for j in range(n):
            a = 2 * math.pi * j / n
            x, y = centre[0] + d * math.cos(a), centre[1] + d * math.sin(a)
            if _clear(x, y, obstacles):
                heading = math.atan2(y - at[1], x - at[0]) if at is not None and math.dist(at, (x, y)) > 1e-6 \
                    else 0.0
                return _pose(x, y, heading)
    return None


def _in_front(person: Point, reference: tuple[float, float] | None, obstacles: list[Rect]) -> Pose | None:
    """``PERSON_STANDOFF_M`` from the person towards ``reference``, else around them, facing them."""
    start = math.atan2(reference[1] - person.y, reference[0] - person.x) if reference is not None else 0.0
    for k in range(12):
        a = start + (1 if k % 2 else -1) * ((k + 1) // 2) * math.pi / 6
        x, y = person.x + PERSON_STANDOFF_M * math.cos(a), person.y + PERSON_STANDOFF_M * math.sin(a)
        if _clear(x, y, obstacles):
            return _pose(x, y, math.atan2(person.y - y, person.x - x))
    return None
