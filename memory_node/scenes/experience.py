"""A scripted experience over a real apartment, and the requests that test what memory made of it.

The demo needs a story in which the *latest* state differs from the first sighting (the mug moves into a
closed cabinet), a failure that only interaction reveals (a locked container) and a user statement; that is
what separates memory from a static map. Every id is chosen from the scene by rule and every expected
answer is computed from the scene plus the script, so the story survives a different apartment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from memory_node.core.models import (
    EntityObservation,
    IngestResult,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
    normalize_label,
)

from .virtualhome import SOURCE, VirtualHomeScene, room_graph

SECOND_NS = 1_000_000_000
TOUR_INTERVAL_NS = 5 * SECOND_NS
# a gap after the tour, so "as of" queries between the tour and the move have room to land
MOVE_DELAY_NS = 60 * SECOND_NS
EVENT_INTERVAL_NS = 10 * SECOND_NS

StepKind = Literal["scene_graph", "skill_feedback", "utterance"]
Payload = SceneGraphObservation | SkillFeedbackObservation | UtteranceObservation
_PAYLOAD_TYPES: dict[str, type] = {
    "scene_graph": SceneGraphObservation,
    "skill_feedback": SkillFeedbackObservation,
    "utterance": UtteranceObservation,
}

# Preferences, each checked against the scene (a missing or unsuitable id falls through to the rules).
PREFERRED_MUG = "mug_190"
PREFERRED_CONTAINER = "cabinet_399"
# Where people put a mug away, most likely first (the rules would otherwise happily pick a toilet).
STORAGE_LABELS = ("cabinet", "cupboard", "drawer", "closet", "shelf")
# Labels the locked-container story reads naturally for, most natural first.
LOCKABLE_LABELS = ("drawer", "cabinet", "washingmachine", "microwave", "garbagecan", "closet")
FRIDGE_LABEL = "fridge"
UNKNOWN_OBJECT = "unicorn"
ROBOT = "vega"
USER_UTTERANCE = "my mug is the blue one"


@dataclass(frozen=True)
class ExperienceStep:
    """One message the robot would have received, at the time it would have received it."""

    stamp_ns: int
    kind: StepKind
    payload: Payload

    def __post_init__(self) -> None:
        expected = _PAYLOAD_TYPES.get(self.kind)
        if expected is None or not isinstance(self.payload, expected):
            raise TypeError(f"step kind {self.kind!r} does not match payload {type(self.payload).__name__}")
        if self.payload.stamp_ns != self.stamp_ns:
            raise ValueError(f"step stamp {self.stamp_ns} differs from its payload's {self.payload.stamp_ns}")


@dataclass(frozen=True)
class DemoCast:
    """The ids the story is about, chosen once so the experience and the expectations agree."""

    mug: str
    mug_origin: RelationObservation
    container: str
    locked: str
    fridge: str
    person: str


@dataclass(frozen=True)
class DemoRequest:
    """A question (``ask``) or instruction (``plan``) and what a correct reply must contain.

    ``all_of``: ids the reply must mention; ``any_of``: at least one of them (several objects may be right,
    e.g. four wine glasses); ``answer_word``: a word the answer text must contain ("yes" to a yes/no
    question); ``expect_success=False``: memory must admit it does not know; ``asks_which``: the reply must
    ask which one is meant, naming every id in ``all_of`` (two mugs: memory never picks one silently).
    """

    kind: Literal["ask", "plan"]
    text: str
    expect_success: bool = True
    all_of: tuple[str, ...] = ()
    any_of: tuple[str, ...] = ()
    answer_word: str = ""
    note: str = ""
    asks_which: bool = False

    def check(self, success: bool, ids: Iterable[str], answer: str = "") -> bool:
        got = set(ids)
        if self.asks_which:
            return "which" in answer.lower() and all(i in got or i in answer for i in self.all_of)
        if not self.expect_success:
            # "I have not seen it" is a successful answer with nothing in it, or a refused request
            return not success or not got
        return (success and all(i in got for i in self.all_of)
                and (not self.any_of or any(i in got for i in self.any_of))
                and (not self.answer_word or self.answer_word in answer.lower().replace(",", " ").split()))


class ExperienceSink(Protocol):
    """What ``replay`` needs from memory (``MemoryStore`` has it) — lets a test count calls instead."""

    def ingest_scene_graph(self, graph: SceneGraphObservation) -> IngestResult: ...

    def ingest_skill_feedback(self, fb: SkillFeedbackObservation) -> IngestResult: ...

    def ingest_utterance(self, utt: UtteranceObservation) -> IngestResult: ...


# ---- choosing the cast ----------------------------------------------------------------------------


def _only(candidates: Sequence[EntityObservation], what: str) -> EntityObservation:
    if not candidates:
        raise ValueError(f"the scene has no {what}; the demo story needs one")
    return candidates[0]


def _by_id(entities: Iterable[EntityObservation]) -> list[EntityObservation]:
    return sorted(entities, key=lambda e: (len(e.id), e.id))


def _closed_container(e: EntityObservation) -> bool:
    """Something a mug can disappear into: it opens, holds things, is closed and is not itself carried."""
    a = e.attributes
    return (a.get("openable") == "true" and a.get("container") == "true" and "grabbable" not in a
            and "closed" in e.states)


def _pick_mug(scene: VirtualHomeScene) -> EntityObservation:
    """The user's mug must start somewhere memory records (on/in something) so the move is visible."""
    mugs = [m for m in _by_id(scene.with_label("mug")) if scene.location(m.id) is not None]
    preferred = [m for m in mugs if m.id == PREFERRED_MUG]
    return _only(preferred or mugs, "mug standing on or in something")


def _label_rank(label: str, order: Sequence[str]) -> int:
    return next((k for k, word in enumerate(order) if word in label), len(order))


def _pick_container(scene: VirtualHomeScene, exclude: set[str]) -> EntityObservation:
    candidates = [e for e in _by_id(scene.entities.values())
                  if _closed_container(e) and e.id not in exclude and e.label != FRIDGE_LABEL]
    preferred = [e for e in candidates if e.id == PREFERRED_CONTAINER]
    ranked = sorted(candidates, key=lambda e: _label_rank(e.label, STORAGE_LABELS))
    return _only(preferred or ranked, "closed container for the mug")


def _pick_locked(scene: VirtualHomeScene, exclude: set[str]) -> EntityObservation:
    """A container whose label is unique, so "is the <label> locked?" has one right answer."""
    candidates = [e for e in _by_id(scene.entities.values())
                  if _closed_container(e) and e.id not in exclude and e.label != FRIDGE_LABEL]

    def rank(e: EntityObservation) -> tuple[bool, int]:
        return (len(scene.with_label(e.label)) > 1, _label_rank(e.label, LOCKABLE_LABELS))

    return _only(sorted(candidates, key=rank), "second closed container to be locked")


def choose_cast(scene: VirtualHomeScene) -> DemoCast:
    mug = _pick_mug(scene)
    fridge = _only(_by_id(scene.with_label(FRIDGE_LABEL)), "fridge")
    person = _only(_by_id(scene.with_label("person")), "person")
    container = _pick_container(scene, exclude={fridge.id})
    locked = _pick_locked(scene, exclude={fridge.id, container.id})
    origin = scene.location(mug.id)
    assert origin is not None  # _pick_mug only returns located mugs
    return DemoCast(mug=mug.id, mug_origin=origin, container=container.id, locked=locked.id,
                    fridge=fridge.id, person=person.id)


# ---- the experience -------------------------------------------------------------------------------


def _tour(scene: VirtualHomeScene, start_ns: int) -> list[ExperienceStep]:
    stamps = [start_ns + k * TOUR_INTERVAL_NS for k in range(len(scene.rooms))]
    return [ExperienceStep(t, "scene_graph", room_graph(scene, room, t))
            for room, t in zip(scene.rooms, stamps)]


def _mug_moved(scene: VirtualHomeScene, cast: DemoCast, stamp_ns: int) -> ExperienceStep:
    """A partial view: the robot saw the mug go into the container, not the whole room, so memory must not
    conclude anything about what else that room holds."""
    container = scene.entities[cast.container]
    # inside a closed container the mug is wherever the container is
    mug = scene.entities[cast.mug].model_copy(update={"room": container.room, "position": container.position})
    graph = SceneGraphObservation(
        stamp_ns=stamp_ns, source=SOURCE, room=container.room, complete=False,
        entities=[container.model_copy(update={"states": ["closed"]}), mug],
        relations=[RelationObservation(subject=cast.mug, predicate="in", object=cast.container)])
    return ExperienceStep(stamp_ns, "scene_graph", graph)


def _open_failed(scene: VirtualHomeScene, cast: DemoCast, stamp_ns: int) -> ExperienceStep:
    label = scene.entities[cast.locked].label
    fb = SkillFeedbackObservation(stamp_ns=stamp_ns, robot=ROBOT, skill="open", args=[cast.locked],
                                  target_id=cast.locked, success=False, status="EXECUTION_FAILURE",
                                  message=f"{label} is locked")
    return ExperienceStep(stamp_ns, "skill_feedback", fb)


def _user_says(scene: VirtualHomeScene, cast: DemoCast, stamp_ns: int) -> ExperienceStep:
    speaker = scene.entities[cast.person].name or cast.person
    return ExperienceStep(stamp_ns, "utterance", UtteranceObservation(stamp_ns=stamp_ns, speaker=speaker,
                                                                       text=USER_UTTERANCE))


def demo_experience(scene: VirtualHomeScene, start_ns: int) -> list[ExperienceStep]:
    """Tour every room, then the mug moves, an open fails, the user speaks — in time order."""
    cast = choose_cast(scene)
    steps = _tour(scene, start_ns)
    t = steps[-1].stamp_ns + MOVE_DELAY_NS if steps else start_ns
    steps.append(_mug_moved(scene, cast, t))
    steps.append(_open_failed(scene, cast, t + EVENT_INTERVAL_NS))
    steps.append(_user_says(scene, cast, t + 2 * EVENT_INTERVAL_NS))
    return steps


def move_stamp_ns(steps: Sequence[ExperienceStep]) -> int:
    """When the mug moved: the first partial graph. Lets a demo ask "as of just before" without knowing
    the script's timing."""
    return next(s.stamp_ns for s in steps if isinstance(s.payload, SceneGraphObservation)
                and not s.payload.complete)


def replay(steps: Iterable[ExperienceStep], sink: ExperienceSink) -> list[IngestResult]:
    results = []
    for step in steps:
        p = step.payload
        if isinstance(p, SceneGraphObservation):
            results.append(sink.ingest_scene_graph(p))
        elif isinstance(p, SkillFeedbackObservation):
            results.append(sink.ingest_skill_feedback(p))
        else:
            results.append(sink.ingest_utterance(p))
    return results


# ---- the requests ---------------------------------------------------------------------------------


def _locations_of(scene: VirtualHomeScene, label: str) -> tuple[str, ...]:
    rels = (scene.location(e.id) for e in _by_id(scene.with_label(label)))
    return tuple(dict.fromkeys(r.object for r in rels if r is not None))


def demo_requests(scene: VirtualHomeScene) -> list[DemoRequest]:
    """What the demo asks after ``demo_experience``; expectations follow from the scene and the script."""
    cast = choose_cast(scene)
    fridge_closed = "closed" in scene.entities[cast.fridge].states
    # with several fridges, any one in the same state answers the question the same way
    fridges = tuple(f.id for f in _by_id(scene.with_label(FRIDGE_LABEL))
                    if ("closed" in f.states) == fridge_closed)
    locked_label = scene.entities[cast.locked].label
    if scene.with_label(normalize_label(UNKNOWN_OBJECT)):
        raise ValueError(f"the scene has a {UNKNOWN_OBJECT}; pick another unknown object")
    mugs = tuple(e.id for e in _by_id(scene.with_label("mug")))
    # "the one in the cabinet": the answer to "which one?" names the mug by where it went
    which = f"the one in the {scene.entities[cast.container].label}"
    where_mug = [DemoRequest("ask", "where is the mug?", all_of=(cast.container,),
                             note=f"the latest location, not {cast.mug_origin.object} where the tour saw it")]
    bring_mug = [DemoRequest("plan", "bring me the mug", all_of=(cast.mug, cast.container, cast.person),
                             note=f"open {cast.container} first, then bring {cast.mug} to {cast.person}")]
    if len(mugs) > 1:
        where_mug = [DemoRequest("ask", "where is the mug?", all_of=mugs, asks_which=True,
                                 note=f"{len(mugs)} mugs: memory asks which, naming each"),
                     DemoRequest("ask", which, all_of=(cast.container,),
                                 note=f"the answer to which one: {cast.mug}, moved there after the tour")]
        bring_mug = [DemoRequest("plan", "bring me the mug", all_of=mugs, asks_which=True,
                                 note="refused until it is clear which mug"),
                     DemoRequest("plan", which, all_of=(cast.mug, cast.container, cast.person),
                                 note=f"open {cast.container} first, then bring {cast.mug} to {cast.person}")]
    return [
        *where_mug,
        DemoRequest("ask", "where is a wine glass?", any_of=_locations_of(scene, "wineglass"),
                    note="any wine glass will do: its support counts"),
        DemoRequest("ask", "is the fridge closed?", any_of=fridges,
                    answer_word="yes" if fridge_closed else "no"),
        DemoRequest("ask", f"where is the {UNKNOWN_OBJECT}?", expect_success=False,
                    note="never observed: memory must say it does not know"),
        DemoRequest("ask", f"is the {locked_label} locked?", all_of=(cast.locked,), answer_word="yes",
                    note="only the failed open says so"),
        *bring_mug,
    ]
