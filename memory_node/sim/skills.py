"""The simulated robot's skills (``config/skills/<robot>.yaml``, by role: the G1's ``walk_to`` is the Vega's
``navigate_to``) executed against the world state, with real checks.

A skill fails for the reason the world gives — locked, not near, hands full, inside a closed container,
no free spot — and says so in ``status``/``message``: memory learns from these failures (a "locked" in
either is remembered as a locked container, see ``core/store.py``). What the robot's body does is
delegated to an ``Actuator`` (the Genesis world), so the checks are the same whatever renders them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from memory_node.core.models import SkillFeedbackObservation
from memory_node.planning.skills import SkillLibrary, SkillLibraryError
from memory_node.sim.geometry import (
    ROBOT_RADIUS_M,
    STANDOFF_M,
    OccupancyGrid,
    approach_pose,
    nearest_free_pose,
    rect_distance,
)
from memory_node.sim.scene_spec import SIDE_NORMALS
from memory_node.sim.state import HANDS, PERSON_ID, Body, WorldState

ROBOT_ID = "vega"
# How far from the base origin the robot works: a piece of furniture within NEAR_FURNITURE_M of the base;
# an object when the furniture holding it is near and the object within REACH_M (arm ~0.6 m plus torso
# lean and the second arm). The skill library's near(x) means "at the same furniture"; REACH_M keeps that
# true for ordinary tables and still fails for the far end of a long one.
NEAR_FURNITURE_M = STANDOFF_M + 0.35
REACH_M = 1.5
OPEN_ANGLE = 1.6  # rad, door swung out ~90 degrees
# A plan's approach pose comes from memory, which cannot see walls: a base controller's local planner
# would stand at the nearest free spot this close to it, and give up beyond.
APPROACH_SLACK_M = 0.5


@dataclass(frozen=True)
class SkillOutcome:
    """What one skill call did; ``feedback`` turns it into what the bridge publishes on skill_feedback."""

    skill: str
    args: tuple[str, ...]
    success: bool
    status: str
    message: str
    target_id: str = ""
    duration_s: float = 0.0

    def feedback(self, stamp_ns: int, robot: str = ROBOT_ID, plan_id: str = "",
                 plan_step: int = 0) -> SkillFeedbackObservation:
        return SkillFeedbackObservation(stamp_ns=stamp_ns, robot=robot, skill=self.skill, args=list(self.args),
                                        target_id=self.target_id, success=self.success, status=self.status,
                                        message=self.message, plan_id=plan_id, plan_step=plan_step)


class Actuator(Protocol):
    """What the simulated body must do for a skill (the Genesis world implements it)."""

    def move_base(self, x: float, y: float, yaw: float) -> None: ...
    def move_object(self, obj_id: str, center: Sequence[float]) -> None: ...
    def set_door(self, container_id: str, open_: bool) -> None: ...
    def hand_position(self, hand: str) -> tuple[float, float, float]: ...
    def settle(self) -> None: ...


@dataclass
class _Failure(Exception):
    status: str
    message: str
    target_id: str = ""


@dataclass
class SkillExecutor:
    """Runs skills by name; unknown skills and malformed arguments fail like any other check."""

    state: WorldState
    grid: OccupancyGrid
    actuator: Actuator
    hands: int = len(HANDS)
    robot: str = ROBOT_ID
    _skills: dict[str, Callable[[list[str]], tuple[str, str]]] = field(init=False)
    _focus: str = field(init=False, default="")
    _approach: tuple[float, float, float] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self._skills = {"navigate_to": self.navigate_to, "open": self.open, "close": self.close,
                        "pick": self.pick, "place": self.place, "handover": self.handover}
        # the robot's own names for the same roles (a role the simulator cannot do, e.g. pour, stays unknown)
        by_role = {"navigate": "navigate_to", "open": "open", "close": "close", "pick": "pick", "place": "place",
                   "handover": "handover"}
        try:
            library = SkillLibrary.for_robot(self.robot)
        except SkillLibraryError:
            library = None
        for skill in library.skills if library is not None else ():
            if skill.role in by_role and skill.name not in self._skills:
                self._skills[skill.name] = self._skills[by_role[skill.role]]

    @property
    def skills(self) -> list[str]:
        return list(self._skills)

    def execute(self, skill: str, args: Sequence[str], focus: str = "",
                approach: tuple[float, float, float] | None = None) -> SkillOutcome:
        """Run ``skill``. navigate_to only: ``approach`` is the plan's pose (x, y, yaw in the map frame) to
        drive to, as a controller executing memory's plan does; without one the simulator looks the target
        up itself and stands at it, ``focus`` being what the robot will handle next there, so it stands
        where that is in reach (a long counter's microwave is not within reach of the counter's middle)."""
        args = [str(a) for a in args]
        target = args[0] if args else ""
        fn = self._skills.get(skill)
        self._focus = focus
        self._approach = approach
        try:
            if fn is None:
                raise _Failure("unknown_skill", f"the simulated {self.robot} has no skill {skill!r}; it has "
                                                f"{', '.join(self._skills)}")
            message, target = fn(args)
        except _Failure as f:
            return SkillOutcome(skill, tuple(args), False, f.status, f.message, f.target_id or target)
        self.actuator.settle()
        return SkillOutcome(skill, tuple(args), True, "succeeded", message, target)

    # ---- checks --------------------------------------------------------------------------------------

    def _args(self, args: list[str], names: tuple[str, ...]) -> list[str]:
        if len(args) != len(names):
            raise _Failure("bad_arguments", f"expected {len(names)} argument(s) ({', '.join(names)}), got {len(args)}")
        return args

    def _body(self, body_id: str) -> Body:
        body = self.state.bodies.get(body_id)
        if body is None:
            raise _Failure("not_found", f"there is no {body_id} in this home", body_id)
        return body

    def _near(self, body: Body) -> bool:
        r = self.state.robot
        if body.kind == "object":
            if self.state.hand_of(body.id):
                return True
            holder = self.state.outermost(body.id)
            if holder.id != body.id and rect_distance(r.x, r.y, holder.footprint()) > NEAR_FURNITURE_M:
                return False
            return math.dist((r.x, r.y), body.center[:2]) <= REACH_M
        return rect_distance(r.x, r.y, body.footprint()) <= NEAR_FURNITURE_M

    def _require_near(self, body: Body) -> None:
        if not self._near(body):
            r = self.state.robot
            d = math.dist((r.x, r.y), body.center[:2])
            raise _Failure("not_near", f"{body.id} is out of reach ({d:.1f} m from the robot); navigate to it first",
                           body.id)

    def _require_hand_free(self, what: str) -> str:
        free = [h for h in HANDS[: self.hands] if h not in self.state.robot.held]
        if not free:
            raise _Failure("hands_full", f"both hands are full ({', '.join(self.state.holding())}); cannot {what}")
        return free[0]

    # ---- skills --------------------------------------------------------------------------------------

    def navigate_to(self, args: list[str]) -> tuple[str, str]:
        (target,) = self._args(args, ("target",))
        if self._approach is not None and target not in self.state.rooms:
            self._body(target)  # a target the home does not have fails as ever, pose or not
        if self._approach is not None and not self.state.hand_of(target):
            return self._stand_at(target, self._approach)
        if target in self.state.rooms:
            room = self.state.rooms[target]
            cx, cy = room.centre()
            spot = None
            for rect in sorted(room.floor, key=lambda r: math.dist((cx, cy), ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2))):
                spot = nearest_free_pose(self.grid, cx, cy, inside=rect)
                if spot is not None:
                    break
            if spot is None:
                raise _Failure("unreachable", f"no free place to stand in {target}", target)
            self._move(spot[0], spot[1], self.state.robot.yaw)
            return f"at the centre of {target}", target
        body = self._body(target)
        if self.state.hand_of(target):
            return f"already holding {target}", target
        base = self.state.outermost(target)
        if base.id == target or base.kind != "furniture":
            base = body
        focus = self.state.bodies.get(self._focus)
        if focus is not None and focus.id != target and self.state.outermost(focus.id).id == base.id \
                and not self.state.hand_of(focus.id):
            body = focus  # stand where the next thing to handle is in reach
        reach = REACH_M - 0.3 if body.kind == "object" else math.inf
        pose = approach_pose(self.grid, base.footprint(), (body.center[0], body.center[1]), _sides(base),
                             reach=reach)
        if pose is None:
            raise _Failure("unreachable", f"no collision-free place to stand at {base.id}", target)
        self._move(*pose)
        return f"standing at {base.id}, facing {target}", target

    def _stand_at(self, target: str, pose: tuple[float, float, float]) -> tuple[str, str]:
        """Drive to the plan's approach pose; where the map says it is blocked, to the nearest free spot
        within ``APPROACH_SLACK_M``, still facing the way the pose faces; else the step fails."""
        x, y, yaw = pose
        if not all(math.isfinite(v) for v in pose):
            raise _Failure("bad_arguments", f"the approach pose for {target} is not finite: {pose}", target)
        if not self.grid.disc_free(x, y, ROBOT_RADIUS_M):
            spot = nearest_free_pose(self.grid, x, y, max_dist=APPROACH_SLACK_M)
            if spot is None:
                raise _Failure("unreachable", f"the plan's approach pose ({x:.2f}, {y:.2f}) at {target} is "
                                              f"blocked and no free place is within {APPROACH_SLACK_M} m", target)
            x, y = spot
        self._move(x, y, yaw)
        return f"standing at ({x:.2f}, {y:.2f}), the plan's approach pose for {target}", target

    def open(self, args: list[str]) -> tuple[str, str]:
        return self._swing_door(args, opening=True)

    def close(self, args: list[str]) -> tuple[str, str]:
        return self._swing_door(args, opening=False)

    def _swing_door(self, args: list[str], opening: bool) -> tuple[str, str]:
        """open/close: near, a free hand, and for opening not locked; already there is a success."""
        (cid,) = self._args(args, ("container",))
        body = self._container(cid)
        self._require_near(body)
        self._require_hand_free(f"{'open' if opening else 'close'} {cid}")
        c = body.container
        assert c is not None
        if opening and c.locked:
            raise _Failure("locked", f"{cid} is locked and does not open", cid)
        if c.closed != opening:
            return f"{cid} was already {'open' if opening else 'closed'}", cid
        c.closed = not opening
        self.actuator.set_door(cid, opening)
        return f"{'opened' if opening else 'closed'} {cid}", cid

    def pick(self, args: list[str]) -> tuple[str, str]:
        (oid,) = self._args(args, ("object",))
        obj = self._body(oid)
        if obj.kind != "object":
            raise _Failure("not_graspable", f"{oid} is a {obj.label} fixed in the home, not something to pick", oid)
        if self.state.hand_of(oid):
            raise _Failure("already_holding", f"already holding {oid}", oid)
        if obj.relation == "held_by":
            raise _Failure("not_found", f"{oid} is not here: {obj.parent} has it", oid)
        self._require_near(obj)
        hand = self._require_hand_free(f"pick {oid}")
        blocker = self.state.enclosing_closed(oid)
        if blocker is not None:
            raise _Failure("not_reachable", f"{oid} is inside {blocker.id}, which is closed; open it first", oid)
        self.state.robot.held[hand] = oid
        obj.parent, obj.relation, obj.room = ROBOT_ID, "held_by", self.state.robot_room()
        self.actuator.move_object(oid, self.actuator.hand_position(hand))
        return f"holding {oid} in the {hand} hand", oid

    def place(self, args: list[str]) -> tuple[str, str]:
        oid, rid = self._args(args, ("object", "receptacle"))
        obj = self._body(oid)
        hand = self.state.hand_of(oid)
        if hand is None:
            raise _Failure("not_holding", f"not holding {oid}; pick it first", oid)
        holder = self._body(rid)
        if holder.kind != "furniture":
            raise _Failure("not_a_receptacle", f"{rid} is a small object; place things on furniture", rid)
        self._require_near(holder)
        blocker = self.state.enclosing_closed(rid)
        if blocker is not None:
            raise _Failure("not_reachable", f"{rid} is inside {blocker.id}, which is closed", rid)
        relation = "in" if holder.container is not None else "on"
        if holder.container is not None and holder.container.closed:
            raise _Failure("closed", f"{rid} is closed; open it before placing {oid} in it", rid)
        r = self.state.robot
        spot = self.state.spot_for(obj, holder, relation, (r.x, r.y))
        if spot is None:
            raise _Failure("occupied", f"no free spot for {oid} {relation} {rid}: it is full", rid)
        del r.held[hand]
        obj.parent, obj.relation, obj.center = rid, relation, list(spot)
        obj.room = self.state.outermost(rid).room
        self.actuator.move_object(oid, spot)
        return f"placed {oid} {relation} {rid}", oid

    def handover(self, args: list[str]) -> tuple[str, str]:
        (oid,) = self._args(args, ("object",))
        self._body(oid)
        hand = self.state.hand_of(oid)
        if hand is None:
            raise _Failure("not_holding", f"not holding {oid}; pick it first", oid)
        del self.state.robot.held[hand]
        obj = self.state.bodies[oid]
        obj.parent, obj.relation = PERSON_ID, "held_by"
        # the person takes it away: out of sight, so it is not rendered floating in front of the robot
        obj.center = [obj.center[0], obj.center[1], -5.0]
        self.actuator.move_object(oid, obj.center)
        return f"handed {oid} to the {PERSON_ID}", oid

    # ---- body ----------------------------------------------------------------------------------------

    def _container(self, cid: str) -> Body:
        body = self._body(cid)
        if body.container is None or not body.container.openable:
            raise _Failure("not_openable", f"{cid} is a {body.label} without a door to open or close", cid)
        return body

    def _move(self, x: float, y: float, yaw: float) -> None:
        r = self.state.robot
        r.x, r.y, r.yaw = x, y, yaw
        self.actuator.move_base(x, y, yaw)
        room = self.state.robot_room()
        for hand, oid in r.held.items():
            self.state.bodies[oid].room = room
            self.actuator.move_object(oid, self.actuator.hand_position(hand))


def _sides(body: Body) -> list[str]:
    """The body's front first, then the other sides (long ones before short: more room to stand)."""
    rest = [s for s in SIDE_NORMALS if s != body.front]
    rest.sort(key=lambda s: -(body.size[1] if s in ("+x", "-x") else body.size[0]))
    return [body.front, *rest]
