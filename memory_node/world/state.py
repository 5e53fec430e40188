"""The symbolic world a plan is checked against, read out of memory once per request.

Planning and validation need the same facts (where things are, what is closed, what the robot holds, what
failed before) and need to change them hypothetically while dry-running a plan; reading them into a plain
value object keeps the store untouched and lets a dry run work on a cheap copy.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from pydantic import ValidationError

from ..core.models import ROBOT_ID, STATE_IMPLIES, Entity, Point, Pose, SkillFeedbackObservation, state_family
from ..core.store import ROOM_LABEL, MemoryStore

if TYPE_CHECKING:  # a literal of the skill library; planning imports this module, not the reverse
    from ..planning.skills import Predicate

PERSON_LABELS = frozenset({"person", "character"})
DEFAULT_ROBOT_ID = ROBOT_ID  # what memory calls the robot in held_by relations (skill feedback)
# Skill events are few compared with observations; reading this many covers any realistic history.
_MAX_SKILL_EVENTS = 100_000


# Statuses of a step the robot's operator or safety system stopped (the plan executor's, execution/backend.py):
# they say nothing about the target, so they neither make a failure worth not repeating nor clear one.
INTERRUPTED_STATUSES = frozenset({"cancelled", "estop"})
# A failure whose reason is a condition of the target itself (locked, out of reach, broken) holds whatever else
# the call carried: a shelf the arm cannot reach is out of reach for the radio as for the mug that failed. A
# reason about the thing carried ("slipped", "too heavy") or none stays tied to the exact call.
_TARGET_CONDITION = re.compile(
    r"\b(?:locked|jammed|stuck|blocked|broken|unreachable|out of (?:reach|range)|(?:can ?not|can't|could ?not|"
    r"couldn't|unable to) (?:reach|get to|access)|too (?:high|far|low)|inaccessible|no access)\b", re.I)


@dataclass(frozen=True)
class KnownFailure:
    """A skill call on a target that failed and has not succeeded since: worth not repeating."""

    skill: str
    target: str
    args: tuple[str, ...]
    event_id: str
    stamp_ns: int
    status: str = ""
    message: str = ""

    def reason(self) -> str:
        why = self.message or self.status or "failed"
        return f"{self.skill} on {self.target} failed before ({why}, event {self.event_id})"

    @property
    def about_target(self) -> bool:
        """The reason is a condition of the target (``_TARGET_CONDITION``), so any call on it would repeat it."""
        return bool(_TARGET_CONDITION.search(f"{self.status} {self.message}"))


@dataclass
class WorldState:
    entities: dict[str, Entity] = field(default_factory=dict)
    locations: dict[str, tuple[str, str]] = field(default_factory=dict)  # subject -> (predicate, object)
    location_provenance: dict[str, str] = field(default_factory=dict)
    states: dict[str, set[str]] = field(default_factory=dict)
    robot_id: str = DEFAULT_ROBOT_ID
    robot_at: str | None = None
    robot_room: str | None = None
    robot_pose: Pose | None = None  # the robot's last reported pose (map frame), where a plan starts from
    holding: set[str] = field(default_factory=set)
    hands: int = 2
    failures: dict[tuple[str, str], KnownFailure] = field(default_factory=dict)
    as_of_ns: int | None = None
    speaker: str = ""  # who made the request ("" = unknown): whose "my" it is

    # ---- building --------------------------------------------------------------------------------

    @classmethod
    def from_store(cls, store: MemoryStore, as_of_ns: int | None = None, hands: int = 2,
                   speaker: str = "") -> WorldState:
        """Memory as it stood at ``as_of_ns`` (now when None). The robot's own state (meta ``robot``) is
        only known for now, so a past world has the robot nowhere and empty-handed."""
        world = cls(hands=hands, as_of_ns=as_of_ns, speaker=speaker)
        for ent in store.entities(as_of_ns=as_of_ns, include_absent=True):
            world.entities[ent.id] = ent
            world.states[ent.id] = set(ent.states)
            if ent.location is not None:
                world.locations[ent.id] = (ent.location.predicate, ent.location.object)
                world.location_provenance[ent.id] = ent.location.provenance
        if as_of_ns is None:
            world._apply_robot_meta(store.get_meta("robot"))
        world.failures = known_failures(store, as_of_ns)
        return world

    def _apply_robot_meta(self, meta: Mapping[str, object] | None) -> None:
        # no robot record yet (nothing published a pose) still leaves what skill feedback put in its hand
        meta = meta or {}
        self.robot_id = str(meta.get("id") or DEFAULT_ROBOT_ID)
        self.robot_at = str(meta["at"]) if meta.get("at") else None
        self.robot_room = str(meta["room"]) if meta.get("room") else None
        pose = meta.get("pose")
        if isinstance(pose, Mapping):
            try:
                self.robot_pose = Pose(position=Point(x=float(pose["x"]), y=float(pose["y"]), z=0.0),
                                       yaw=float(pose.get("yaw", 0.0)))
            except (KeyError, TypeError, ValueError):  # a malformed record only loses the start pose
                self.robot_pose = None
        held = meta.get("holding") or []
        if isinstance(held, str):
            held = [held]
        for obj in held if isinstance(held, list) else []:
            self.holding.add(str(obj))
        # memory may also say the robot holds something; either source is enough
        for subject, (pred, obj) in self.locations.items():
            if pred == "held_by" and obj == self.robot_id:
                self.holding.add(subject)
        for obj in self.holding:
            self.locations[obj] = ("held_by", self.robot_id)
        if self.robot_room is None and self.robot_at:
            self.robot_room = self.room_of(self.robot_at)

    def copy(self) -> WorldState:
        """A world to dry-run in: the facts a step can change are copied; entity records and failures,
        which no step changes, are shared (a deep copy of hundreds of entities per request is waste)."""
        # state sets are replaced, never mutated, when a step changes them (``_apply_state``), so the
        # copy may share them: a planner's search copies the world once per node it expands
        return replace(self, locations=dict(self.locations),
                       location_provenance=dict(self.location_provenance),
                       states=dict(self.states), holding=set(self.holding))

    # ---- reading ---------------------------------------------------------------------------------

    def known(self, ent_id: str) -> bool:
        return ent_id in self.entities

    def is_room(self, ent_id: str) -> bool:
        ent = self.entities.get(ent_id)
        return ent is not None and ent.label == ROOM_LABEL

    def is_person(self, ent_id: str) -> bool:
        ent = self.entities.get(ent_id)
        return ent is not None and ent.label in PERSON_LABELS

    def chain(self, ent_id: str) -> list[str]:
        """What ent_id is on/in, then what that is on/in, ... outward (rooms included, cycles cut)."""
        out: list[str] = []
        seen = {ent_id}
        cur = ent_id
        while cur in self.locations:
            nxt = self.locations[cur][1]
            if nxt in seen:
                break
            out.append(nxt)
            seen.add(nxt)
            cur = nxt
        return out

    def furniture(self, ent_id: str) -> str | None:
        """The outermost non-room thing ent_id rests on or in (itself if it rests on nothing): where a
        robot has to go to reach it. None for a room, or for something in the robot's hands."""
        if self.is_room(ent_id) or ent_id in self.holding or ent_id == self.robot_id:
            return None
        outer = ent_id
        for anc in self.chain(ent_id):
            if anc == self.robot_id or self.is_room(anc):
                break
            outer = anc
        return outer

    def holder_labels(self) -> frozenset[str]:
        """The labels of the things memory saw other things on or in (a place one goes to, not picks up)."""
        return frozenset(self.entities[h].label for _, h in self.locations.values() if h in self.entities)

    def room_of(self, ent_id: str) -> str | None:
        if self.is_room(ent_id):
            return ent_id
        for anc in self.chain(ent_id):
            if self.is_room(anc):
                return anc
        ent = self.entities.get(ent_id)
        return (ent.room or None) if ent is not None else None

    def shut(self, ent_id: str) -> bool:
        """Whether ent_id's door may be shut: memory knows it closed or locked (a lock holds a closed door),
        or it is a thing with a door (attribute ``openable``) whose door memory never saw either way. A
        perception stage knows a fridge opens but cannot see whether it is open: opening it first costs a
        step when it was open, reaching through a closed door fails the plan."""
        states = self.states.get(ent_id, set())
        if states & {"closed", "locked"}:
            return True
        if "open" in states:
            return False
        ent = self.entities.get(ent_id)
        return ent is not None and str(ent.attributes.get("openable", "")).lower() in ("true", "yes", "1")

    def closed_containers(self, ent_id: str) -> list[str]:
        """Containers enclosing ent_id (an `in` link on its location chain) that may be shut (``shut``),
        outermost first: the order they must be opened."""
        found, cur, seen = [], ent_id, {ent_id}
        while cur in self.locations:
            pred, outer = self.locations[cur]
            if outer in seen:
                break
            # only what encloses it: a folder lying *on* a closed (even locked) cabinet is in reach
            if pred == "in" and self.shut(outer):
                found.append(outer)
            seen.add(outer)
            cur = outer
        return list(reversed(found))

    def persons(self) -> list[Entity]:
        """People memory knows, present ones first, most recently seen first."""
        people = [e for e in self.entities.values() if e.label in PERSON_LABELS]
        return sorted(people, key=lambda e: (not e.present, -e.last_seen_ns, e.id))

    def known_failure(self, skill: str, args: list[str] | tuple[str, ...]) -> KnownFailure | None:
        """The failure a call would repeat: same skill and, when the failed call's arguments are known,
        the same arguments (placing a mug elsewhere does not repeat a failed place of it on a full shelf),
        or any call on the same target when the reason was the target's own condition (a locked drawer, a
        shelf out of reach: ``KnownFailure.about_target``)."""
        for failure in self.failures.values():
            if failure.skill != skill:
                continue
            if failure.about_target and failure.target in tuple(args):
                return failure
            if tuple(args) == failure.args if failure.args else failure.target in args:
                return failure
        return None

    # ---- symbolic semantics (what the library's predicate strings mean) --------------------------

    def holds(self, pred: Predicate, binding: Mapping[str, str]) -> bool:
        value = self._holds_positive(pred, binding)
        return not value if pred.negated else value

    def _holds_positive(self, pred: Predicate, b: Mapping[str, str]) -> bool:
        name = pred.name
        if name == "hand_free":
            return len(self.holding) < self.hands
        if name == "located":
            return self.locations.get(b[pred.args[0]]) == (pred.args[1], b[pred.args[2]])
        x = b[pred.args[0]]
        if name == "robot_at":
            return self.robot_at == x
        if name == "holding":
            return x in self.holding
        if name == "near":
            if x in self.holding or x == self.robot_at:
                return True
            if self.robot_at is None:
                return False
            here = self.furniture(self.robot_at)
            return here is not None and here == self.furniture(x)
        if name == "accessible":
            return not self.closed_containers(x)
        return name in self.states.get(x, set())  # a recorded state such as open/closed/locked

    def apply(self, pred: Predicate, binding: Mapping[str, str]) -> None:
        name = pred.name
        if name == "located":
            subject, obj = binding[pred.args[0]], binding[pred.args[2]]
            if pred.negated:
                if self.locations.get(subject) == (pred.args[1], obj):
                    del self.locations[subject]
            else:
                self.locations[subject] = (pred.args[1], obj)
            return
        x = binding[pred.args[0]]
        if name == "robot_at":
            if pred.negated:
                if self.robot_at == x:
                    self.robot_at = None
            else:
                self.robot_at = x
                self.robot_room = self.room_of(x) or self.robot_room
        elif name == "holding":
            if pred.negated:
                self.holding.discard(x)
                if self.locations.get(x) == ("held_by", self.robot_id):
                    del self.locations[x]
            else:
                self.holding.add(x)
                self.locations[x] = ("held_by", self.robot_id)
        else:
            self._apply_state(x, name, pred.negated)

    def _apply_state(self, ent_id: str, state: str, negated: bool) -> None:
        states = set(self.states.get(ent_id, ()))  # a new set: copies of this world share the old one
        if negated:
            states.discard(state)
        else:
            for implied in (state, STATE_IMPLIES.get(state)):
                if implied is not None:
                    states.difference_update(state_family(implied))
            states.add(state)
        self.states[ent_id] = states


def known_failures(store: MemoryStore, as_of_ns: int | None = None) -> dict[tuple[str, str], KnownFailure]:
    """(skill, target) pairs whose latest outcome up to ``as_of_ns`` is a failure.

    One explicit failure is enough to remember (a locked drawer does not unlock by retrying); a later
    success of the same skill on the same target clears it. The target is the feedback's target_id, else
    its first argument. A step that was cancelled or met the e-stop (``INTERRUPTED_STATUSES``) is no
    evidence either way: an e-stop on the way to a cabinet must not make the cabinet unreachable.
    """
    events = store.events(kind="skill", until_ns=as_of_ns, limit=_MAX_SKILL_EVENTS)
    failures: dict[tuple[str, str], KnownFailure] = {}
    for ev in reversed(events):  # oldest first, so the latest outcome wins
        try:
            fb = SkillFeedbackObservation.model_validate(ev.data)
        except ValidationError:
            continue
        target = fb.target_id or (fb.args[0] if fb.args else "")
        if not target or (not fb.success and fb.status in INTERRUPTED_STATUSES):
            continue
        key = (fb.skill, target)
        if fb.success:
            failures.pop(key, None)
        else:
            failures[key] = KnownFailure(skill=fb.skill, target=target, args=tuple(fb.args), event_id=ev.id,
                                         stamp_ns=ev.stamp_ns, status=fb.status, message=fb.message)
    return failures
