"""The one typed record model shared by the store, the planners, the ROS services and the bench.

Times are integer nanoseconds since the epoch (``*_ns``): ROS header stamps convert to them exactly, so
replayed experience keeps its own timeline and equal stamps compare equal.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

# Relation families: members of one family cannot hold at once for the same subject, so a new one
# supersedes the old (which stays in history with its validity interval).
LOCATION_PREDICATES = ("on", "in", "held_by", "at")
PREDICATE_SYNONYMS = {
    "inside": "in",
    "inside_of": "in",
    "on_top_of": "on",
    "ontop": "on",
    "holds_rh": "held_by",
    "holds_lh": "held_by",
    "close": "near",
    "close_to": "near",
    "beside": "next_to",
    "below": "under",
    "over": "above",
    "adjacent_to": "connected_to",
    "connects_to": "connected_to",
    "leads_to": "connected_to",
}
SPATIAL_PREDICATES = ("near", "next_to", "under", "above", "facing", "between", "behind", "in_front_of")
# Environment: which rooms/places open onto which (a doorway, a corridor). Symmetric.
CONNECTIVITY_PREDICATES = ("connected_to",)
KNOWN_PREDICATES = frozenset(LOCATION_PREDICATES + SPATIAL_PREDICATES + CONNECTIVITY_PREDICATES)

# State families: a new state replaces the other members of its family and leaves other families alone
# ("locked" therefore stays until an "unlocked" or "open" is observed).
STATE_FAMILIES: tuple[tuple[str, ...], ...] = (
    ("open", "closed"),
    ("locked", "unlocked"),
    ("on", "off"),
    ("clean", "dirty"),
    ("plugged_in", "plugged_out"),
    ("full", "empty"),
)
# Observing the first state implies the second (an open door is not locked).
STATE_IMPLIES = {"open": "unlocked"}
# A skill that failed because its target is locked says the target is shut too (a lock holds a closed door).
LOCKED_STATES = ("locked", "closed")

# What a successful skill leaves true of its arguments, so memory records it where no camera can tell (a
# perception stage cannot see whether a door is open): skill name -> (argument index, state, negated)
# triples, a negated one removing the state. A robot's skill library says this (planning.skills
# .SkillLibrary.state_effects, handed to the store by ros/ingest.open_store); the defaults are the open and
# close of the shipped libraries (config/skills/vega.yaml, g1.yaml).
SkillStateEffects = Mapping[str, tuple[tuple[int, str, bool], ...]]
DEFAULT_SKILL_STATE_EFFECTS: SkillStateEffects = {
    "open": ((0, "open", False), (0, "closed", True)),
    "close": ((0, "closed", False), (0, "open", True)),
}

# Where a successful skill leaves a thing, from the skill library's structural effects (planning.skills
# .SkillLibrary.location_effects): skill name -> (argument index of the thing, relation, where), where is
# the index of the argument it now is on/in, HELD_BY_ROBOT (``holding(x)``: in the robot's hand) or
# RELEASED (``not holding(x)`` with nowhere declared, e.g. a handover: it left the robot's hand and is no
# longer where memory last had it). No defaults: a store told nothing moves nothing on feedback.
HELD_BY_ROBOT = "held_by_robot"
RELEASED = "released"
ROBOT_ID = "robot"  # the robot as memory's relations name it (planning.world reads held_by ROBOT_ID)
SkillLocationEffects = Mapping[str, tuple[tuple[int, str, int | str], ...]]

_ID_RE = re.compile(r"^[A-Za-z0-9_.:/\-]{1,128}$")


class InvalidInput(ValueError):
    """Raised for input memory refuses; the message says what was wrong and is safe to log."""


class RejectedInput(InvalidInput):
    """A strict ingest refused a message because part of it would have been dropped (a relation to an
    entity memory does not know, say); nothing of the message was stored. ``reasons`` lists each part."""

    def __init__(self, reasons: list[str]):
        self.reasons = list(reasons)
        super().__init__("; ".join(self.reasons))


def normalize_predicate(predicate: str) -> str:
    """Lower-case, snake-case and map synonyms; raise InvalidInput for a predicate memory does not know."""
    p = re.sub(r"[\s\-]+", "_", predicate.strip().lower())
    p = PREDICATE_SYNONYMS.get(p, p)
    if p not in KNOWN_PREDICATES:
        raise InvalidInput(
            f"unknown relation predicate {predicate!r}; known: {', '.join(sorted(KNOWN_PREDICATES))}"
        )
    return p


def normalize_label(label: str) -> str:
    """Canonical class label: lower case, no spaces or underscores ("Wine glass" -> "wineglass")."""
    return re.sub(r"[\s_\-]+", "", label.strip().lower())


def normalize_state(state: str) -> str:
    return re.sub(r"[\s\-]+", "_", state.strip().lower())


def state_family(state: str) -> tuple[str, ...]:
    for family in STATE_FAMILIES:
        if state in family:
            return family
    return (state,)


def merge_states(old: list[str], observed: list[str]) -> list[str]:
    """Apply observed states over old ones, family by family."""
    result = list(old)
    for raw in observed:
        s = normalize_state(raw)
        if not s:
            continue
        for implied in (s, STATE_IMPLIES.get(s)):
            if implied is None:
                continue
            fam = state_family(implied)
            result = [r for r in result if r not in fam]
            # an implied state is recorded only when its family was already being tracked
            if implied == s or any(r in fam for r in old):
                result.append(implied)
    return sorted(set(result))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")

    def to_json(self) -> str:
        return self.model_dump_json()


class Point(_Model):
    x: float
    y: float
    z: float

    @field_validator("x", "y", "z")
    @classmethod
    def _finite(cls, v: float) -> float:
        if not math.isfinite(v):
            raise ValueError("position must be finite (got NaN or inf)")
        return v

    def distance(self, other: Point) -> float:
        return math.dist((self.x, self.y, self.z), (other.x, other.y, other.z))


class Pose(_Model):
    position: Point
    yaw: float = 0.0
    frame_id: str = "map"


LOCAL_ID_PREFIX = "_:"


def is_local_id(entity_id: str) -> bool:
    """``_:...`` ids name an entity within one message only (a detector's track, say): memory associates
    it with what it already knows by label, room and position."""
    return entity_id.startswith(LOCAL_ID_PREFIX)


def _check_id(v: str) -> str:
    if not _ID_RE.match(v):
        raise ValueError(f"id {v[:40]!r} must be 1-128 characters of letters, digits and _ . : / -")
    return v


class _EntityFields(_Model):
    """What an entity is and looks like: reported by observations, remembered by ``Entity``."""

    id: str
    label: str
    name: str = ""
    room: str = ""
    position: Point | None = None
    attributes: dict[str, str] = Field(default_factory=dict)
    states: list[str] = Field(default_factory=list)
    confidence: float = 1.0
    # the label as the source gave it ("coffee_table"); ``label`` is its normalised key ("coffeetable"),
    # which lookups compare. Kept so a caller can see what normalisation did ("" in records made before).
    raw_label: str = ""


class EntityObservation(_EntityFields):
    """One entity as a perception source reported it (validated: memory refuses bad ids and values)."""

    _id = field_validator("id")(lambda cls, v: _check_id(v))

    @model_validator(mode="before")
    @classmethod
    def _keep_raw_label(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("raw_label") and isinstance(data.get("label"), str):
            data = {**data, "raw_label": data["label"].strip()}
        return data

    @field_validator("label")
    @classmethod
    def _label(cls, v: str) -> str:
        v = normalize_label(v)
        if not v:
            raise ValueError("entity label must not be empty")
        return v

    @field_validator("confidence")
    @classmethod
    def _confidence(cls, v: float) -> float:
        if not math.isfinite(v) or v < 0.0 or v > 1.0:
            raise ValueError(f"confidence must be in [0, 1], got {v}")
        return v or 1.0


class RelationObservation(_Model):
    subject: str
    predicate: str
    object: str

    @field_validator("predicate")
    @classmethod
    def _predicate(cls, v: str) -> str:
        return normalize_predicate(v)

    _ids = field_validator("subject", "object")(lambda cls, v: _check_id(v))


class SceneGraphObservation(_Model):
    stamp_ns: int
    source: str = ""
    room: str = ""
    complete: bool = False
    entities: list[EntityObservation] = Field(default_factory=list)
    relations: list[RelationObservation] = Field(default_factory=list)
    # what the converter had to drop (invalid entities/relations), kept so ingest can count and report it
    rejected: list[str] = Field(default_factory=list)


class SkillFeedbackObservation(_Model):
    stamp_ns: int
    robot: str = ""
    skill: str
    args: list[str] = Field(default_factory=list)
    target_id: str = ""
    success: bool
    status: str = ""
    message: str = ""
    # the plan this step was part of (its plan_id as memory published it) and the step's 1-based index; the
    # node sets plan_known: True = a plan it published, False = an id it never published (stored anyway),
    # None = not checked (no plan id, or ingested without the node, e.g. `memory-node replay`)
    plan_id: str = ""
    plan_step: int = Field(default=0, ge=0)
    plan_known: bool | None = None


class UtteranceObservation(_Model):
    stamp_ns: int
    speaker: str = ""
    text: str


MAX_ACTIVITY_TEXT = 1000
MAX_ACTIVITY_OBJECTS = 32


class ActivityObservation(_Model):
    """What a person (or robot) was seen doing: ``actor`` ``verb`` ``objects`` at ``location``.

    Objects are class labels ("fridge") or entity ids ("mug_1"); ``text`` is how it was said ("open the
    fridge"). Verbs are lower-case with hyphens for particles ("turn on" -> ``turn-on``)."""

    stamp_ns: int
    actor: str = ""
    verb: str
    objects: list[str] = Field(default_factory=list)
    location: str = ""
    text: str = ""

    @field_validator("verb")
    @classmethod
    def _verb(cls, v: str) -> str:
        v = re.sub(r"[\s_]+", "-", v.strip().lower())
        if not v:
            raise ValueError("activity verb must not be empty")
        if len(v) > 64:
            raise ValueError(f"activity verb longer than 64 characters: {v[:20]!r}...")
        return v

    @field_validator("actor", "location")
    @classmethod
    def _short(cls, v: str) -> str:
        v = v.strip()
        if len(v) > 128:
            raise ValueError(f"longer than 128 characters: {v[:20]!r}...")
        return v

    @field_validator("objects")
    @classmethod
    def _objects(cls, v: list[str]) -> list[str]:
        out = [o.strip() for o in v if o.strip()]
        if len(out) > MAX_ACTIVITY_OBJECTS or any(len(o) > 128 for o in out):
            raise ValueError(f"at most {MAX_ACTIVITY_OBJECTS} objects of at most 128 characters each")
        return out

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        v = " ".join(v.split())
        if len(v) > MAX_ACTIVITY_TEXT:
            raise ValueError(f"activity text longer than {MAX_ACTIVITY_TEXT} characters")
        return v


class FrameObservation(_Model):
    """A camera frame already encoded (JPEG/PNG bytes) with what is known about where it was taken."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
    stamp_ns: int
    encoded: bytes
    format: Literal["jpg", "png"] = "jpg"
    thumbnail: list[float] = Field(default_factory=list)  # small grey image for the admission gate
    width: int = 0
    height: int = 0
    room: str = ""
    pose: Pose | None = None
    frame_id: str = ""


# ---- stored records -------------------------------------------------------------------------------


class Relation(_Model):
    subject: str
    predicate: str
    object: str
    since_ns: int
    until_ns: int | None = None
    provenance: str = ""


class Entity(_EntityFields):
    """Latest known state of one entity. ``present`` is False once a complete view of its room lacked it."""

    location: Relation | None = None
    first_seen_ns: int
    last_seen_ns: int
    present: bool = True
    provenance: str = ""
    # who made this version, in a memory several robots share ('' in a robot's own memory)
    robot: str = ""
    site: str = ""


class SeenInterval(_Model):
    """An entity was observed throughout [``from_ns``, ``to_ns``]: consecutive sightings no further apart
    than the store's ``sighting_gap`` (a sighting is an observation of the entity or of where it is)."""

    entity_id: str
    from_ns: int
    to_ns: int


class ObservationRecord(_Model):
    """One ingested message as the observation log keeps it: its kind, event time, source and a summary
    (what it carried, not the message itself)."""

    id: str
    kind: str
    stamp_ns: int
    source: str = ""
    summary: dict[str, Any] = Field(default_factory=dict)
    robot: str = ""  # the robot (and site) whose message it was, in a memory several robots share
    site: str = ""


class EntityVersion(_Model):
    """One state of an entity and the interval it held: the entity's history."""

    entity: Entity
    valid_from_ns: int
    valid_to_ns: int | None = None


EventKind = Literal["skill", "utterance", "change", "map", "activity"]


class Event(_Model):
    id: str
    kind: EventKind
    stamp_ns: int
    text: str
    entity_ids: list[str] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)
    provenance: str = ""
    robot: str = ""  # who made it, in a memory several robots share
    site: str = ""


KnowledgeKind = Literal["routine", "habit", "preference"]


class Knowledge(_Model):
    """Something consolidated from repeated experience (never observed directly): a routine (ordered
    steps that recur), a habit ("after X, usually Y") or a preference (where a category goes, which
    instance someone uses). ``evidence_ids`` are the events it rests on, all stamped inside
    [``evidence_from_ns``, ``evidence_to_ns``]; ``confidence`` is a frequency, ``support`` a count."""

    id: str
    kind: KnowledgeKind
    actor: str = ""
    steps: list[str] = Field(default_factory=list)  # routine: its steps; habit: [X, Y]; preference: [what, choice]
    text: str
    confidence: float
    support: int
    sessions: int = 0
    evidence_ids: list[str] = Field(default_factory=list)
    evidence_from_ns: int
    evidence_to_ns: int
    data: dict[str, Any] = Field(default_factory=dict)


class Frame(_Model):
    id: str
    stamp_ns: int
    room: str = ""
    path: str
    width: int = 0
    height: int = 0
    pose: Pose | None = None
    entity_ids: list[str] = Field(default_factory=list)
    provenance: str = ""
    robot: str = ""  # whose camera, in a memory several robots share
    site: str = ""


class MapInfo(_Model):
    """What memory keeps of an occupancy map: its geometry and how much of it is known and occupied."""

    stamp_ns: int
    frame_id: str = "map"
    width: int
    height: int
    resolution: float
    origin_x: float
    origin_y: float
    known_cells: int
    occupied_cells: int
    provenance: str = ""


class RoomSummary(_Model):
    """Environment memory of one room: what it holds and where it leads."""

    id: str
    name: str = ""
    entity_count: int
    connected_to: list[str]
    last_seen_ns: int


# ---- what utterances taught (core/corrections.py parses, core/rules.py keeps) --------------------

FactKind = Literal["placement", "possession", "preference"]


class Fact(_Model):
    """One thing an utterance stated; see ``core/corrections.py`` for the kinds."""

    id: str
    kind: FactKind
    subject: str
    subject_key: str
    predicate: str
    target: str
    target_id: str = ""
    negated: bool = False
    owner: str = ""
    speaker: str = ""
    correction: bool = False
    stamp_ns: int
    event_id: str
    valid_from_ns: int
    valid_to_ns: int | None = None

    def text(self) -> str:
        if self.kind == "placement":
            where = f"{self.predicate} {self.target}" + (f" ({self.target_id})" if self.target_id else "")
            return f"{self.subject} {'does not go' if self.negated else 'goes'} {where}"
        if self.kind == "possession":
            which = f"the {self.target} one" if self.target else "this one"
            return f"{self.owner}'s {self.subject} is {which}" + (f" ({self.target_id})" if self.target_id else "")
        verb = "does not prefer" if self.negated else "prefers"
        return f"{self.owner} {verb} the {(self.target + ' ') if self.target else ''}{self.subject}"


class Rule(_Model):
    """One version of "things of this category go there"."""

    id: str
    category: str  # category key (core/categories.py)
    category_name: str
    predicate: str
    receptacle: str
    receptacle_id: str = ""
    support_event_ids: list[str] = Field(default_factory=list)
    support_fact_ids: list[str] = Field(default_factory=list)
    confidence: float
    valid_from_ns: int
    valid_to_ns: int | None = None
    superseded_by: str = ""

    def text(self) -> str:
        n = len(self.support_fact_ids)
        return (f"{self.category_name} -> {self.predicate} {self.receptacle}"
                + (f" ({self.receptacle_id})" if self.receptacle_id else "")
                + f"; {n} supporting corrections, confidence {self.confidence:.2f}")


class PlacementAnswer(_Model):
    """Where a label goes and why: which level of its chain answered, from a fact or a rule; or, when none
    covers it, the facts about the most similar objects (``similar``: ``category`` is then the label's key,
    ``category_name`` "things like the X and the Y", ``record_id`` the most similar voting fact)."""

    label: str
    receptacle: str
    receptacle_id: str = ""
    predicate: str
    support_event_ids: list[str]
    confidence: float
    source: Literal["fact", "rule", "similar"]
    category: str
    category_name: str
    record_id: str  # the fact or rule version that answered


class IngestResult(_Model):
    """What one message did to memory: the observation id (provenance) and counts of what changed."""

    observation_id: str
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    rejected: list[str] = Field(default_factory=list)
    admitted: bool = True

    @property
    def ok(self) -> bool:
        """True when nothing of the message was dropped."""
        return not self.rejected


class MemoryRecord(_Model):
    """Generic record for ~/query: kind + one-line text + the full typed record as JSON."""

    id: str
    kind: str
    text: str
    json_data: str
    stamp_ns: int
    score: float = 1.0

    @classmethod
    def of(cls, kind: str, rec_id: str, text: str, model: BaseModel, stamp_ns: int, score: float = 1.0):
        return cls(id=rec_id, kind=kind, text=text, json_data=model.model_dump_json(), stamp_ns=stamp_ns,
                   score=score)

    def data(self) -> dict[str, Any]:
        return json.loads(self.json_data)

    def typed(self) -> BaseModel:
        """The record as its own typed model: an ``entity`` record gives the same ``Entity`` that
        ``MemoryStore.entity`` returns, an ``event`` an ``Event``, and so on (``RECORD_MODELS``)."""
        model = RECORD_MODELS.get(self.kind)
        if model is None:
            raise InvalidInput(f"no typed model for records of kind {self.kind!r}")
        return model.model_validate_json(self.json_data)


# ---- requests -------------------------------------------------------------------------------------


class SkillCall(_Model):
    skill: str
    args: list[str] = Field(default_factory=list)  # memory ids, in the library's argument order
    text: str = ""
    # Where the arguments are, so a controller needs no second lookup (map frame, metres / radians; filled
    # by ``planning.poses``): one entry per arg, None when memory does not know (NaN in the ROS message)
    arg_positions: list[Point | None] = Field(default_factory=list)
    # navigation steps: where the base should stand to work at the target, yaw facing it; None otherwise
    approach: Pose | None = None


class Plan(_Model):
    robot: str
    instruction: str
    steps: list[SkillCall] = Field(default_factory=list)
    evidence_ids: list[str] = Field(default_factory=list)
    explanation: str = ""


class Answer(_Model):
    success: bool
    answer: str = ""
    answer_ids: list[str] = Field(default_factory=list)
    evidence_ids: list[str] = Field(default_factory=list)
    confidence: float = 0.0
    error: str = ""


class PlanResult(_Model):
    success: bool
    plan: Plan | None = None
    error: str = ""


# what MemoryRecord.typed() parses each record kind of ~/query into
RECORD_MODELS: dict[str, type[BaseModel]] = {
    "entity": Entity, "event": Event, "frame": Frame, "entity_version": EntityVersion, "relation": Relation,
    "room": RoomSummary, "map": MapInfo, "routine": Knowledge, "habit": Knowledge, "preference": Knowledge,
    "rule": Rule, "fact": Fact, "observation": ObservationRecord,
}
