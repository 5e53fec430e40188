"""Consolidation on a real MemoryStore: routines, habits and preferences from a real person's kitchen
activity (EPIC-KITCHENS-100, one participant) and from robot skill feedback; as-of never sees the future."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from memory_node.core import consolidation as cons
from memory_node.core.models import (
    ActivityObservation,
    EntityObservation,
    InvalidInput,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.query import query
from memory_node.core.store import SCHEMA_VERSION, MemoryStore

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000
T0 = 1_700_000_000 * S
DATA = Path(os.environ.get("EPIC_KITCHENS_DIR")
            or Path(__file__).resolve().parents[3] / "shared" / "data" / "epic_kitchens_100")
PARTICIPANT = "P23"  # the participant of the shared `epic` fixture (test/conftest.py)


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "memory.db")
    yield s
    s.close()


def _stamps(store: MemoryStore) -> dict[str, int]:
    return dict(store.storage.execute("SELECT id, stamp_ns FROM events").fetchall())


def _keys(store: MemoryStore) -> dict[str, str]:
    return {a.event_id: a.key for a in cons.load_actions(store)}


def act(t_s: float, verb: str, *objects: str, actor: str = "alex") -> ActivityObservation:
    return ActivityObservation(stamp_ns=T0 + int(t_s * S), actor=actor, verb=verb, objects=list(objects))


# ---- the write path -------------------------------------------------------------------------------


def test_activity_is_an_event_and_validated(store):
    r = store.ingest_activity(ActivityObservation(stamp_ns=T0, actor="alex", verb="Turn On", objects=[" tap ", ""],
                                                  location="kitchen_1", text="turns  on the tap"))
    (ev,) = store.events(kind="activity")
    assert ev.id == r.observation_id and ev.stamp_ns == T0
    assert ev.text == "alex: turns on the tap (in kitchen_1)"
    assert ev.data["verb"] == "turn-on" and ev.data["objects"] == ["tap"]
    assert [e.id for e in store.events(entity_id="tap")] == [ev.id]
    assert store.observation(ev.provenance)["kind"] == "activity"
    assert store.ingest_activity(act(1, "open", "fridge")).added == 1
    assert store.events(kind="activity")[0].text == "alex: open fridge"

    for bad in (dict(verb=""), dict(verb="   "), dict(verb="open", text="x" * 1001),
                dict(verb="open", objects=["o"] * 33), dict(verb="open", actor="a" * 129)):
        with pytest.raises(ValidationError):
            ActivityObservation(stamp_ns=T0, **bad)
    assert issubclass(InvalidInput, ValueError)


def test_schema_has_knowledge_tables(store):
    assert SCHEMA_VERSION >= 4
    assert store.storage.count("knowledge") == store.storage.count("consolidation_runs") == 0


# ---- a real participant ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def _epic_stores():
    built: dict[str, tuple] = {}
    yield built
    for store, _ in built.values():
        store.close()


@pytest.fixture
def epic(store_backend, _epic_stores, tmp_path_factory):
    """The shared ``epic`` fixture of test/conftest.py, once per backend: (store, observations)."""
    from memory_node.scenes.epic_kitchens import load_participant

    if store_backend not in _epic_stores:
        if not (DATA / "EPIC_100_validation.csv").is_file():
            pytest.skip(f"EPIC-KITCHENS-100 annotations not found at {DATA}")
        obs = load_participant(PARTICIPANT, DATA)
        store = MemoryStore(tmp_path_factory.mktemp("epic") / "memory.db")
        for o in obs:
            store.ingest_activity(o)
        _epic_stores[store_backend] = (store, obs)
    return _epic_stores[store_backend]


def test_routines_habits_preferences_from_a_real_participant(epic):
    store, obs = epic
    run = cons.run_consolidation(store)
    assert run is not None and run.events == len(obs)
    records = cons.knowledge(store)
    assert len(records) == run.records and run.records * 10 < len(obs)  # compression
    by_kind = {k: [r for r in records if r.kind == k] for k in cons.KNOWLEDGE_KINDS}
    assert len(by_kind["routine"]) >= 3 and len(by_kind["habit"]) >= 10 and by_kind["preference"]

    stamps, keys = _stamps(store), _keys(store)
    for k in records:
        assert k.actor == PARTICIPANT and k.support >= cons.DEFAULT_PARAMS.min_support and 0 < k.confidence <= 1
        assert k.evidence_ids and all(stamps[i] >= k.evidence_from_ns and stamps[i] <= k.evidence_to_ns
                                      for i in k.evidence_ids)
        if k.kind == "routine":
            assert {keys[i] for i in k.evidence_ids} <= set(k.steps) and len(k.steps) >= 3
        if k.kind == "habit" and k.data["level"] == "step":
            assert {keys[i] for i in k.evidence_ids} == set(k.steps)
            assert k.confidence == pytest.approx(k.support / k.data["of"], abs=1e-4)

    # this person turns the tap on, washes their hands, turns it off
    habit = next(k for k in by_kind["habit"] if k.steps == ["turn-on tap", "wash hand"])
    assert habit.support >= 10 and habit.confidence > 0.4 and len(habit.evidence_ids) == 2 * habit.support
    routine = next(k for k in by_kind["routine"] if k.steps == ["turn-on tap", "wash hand", "turn-off tap"])
    assert routine.support >= 5 and routine.sessions >= 2
    rubbish = next(k for k in by_kind["preference"] if k.steps[0] == "rubbish")
    assert rubbish.steps[1] == "bin" and rubbish.confidence == 1.0 and rubbish.data["preference"] == "receptacle"

    # stored: the next request is served from the knowledge table, and a second run has nothing to do
    assert cons.run_consolidation(store) is None
    assert [k.id for k in cons.knowledge(store, kind="habit", actor=PARTICIPANT)] == \
        [k.id for k in by_kind["habit"]]


def test_as_of_never_sees_later_evidence(epic):
    store, obs = epic
    cons.run_consolidation(store)
    now = cons.knowledge(store)
    stamps = _stamps(store)
    for t in (obs[len(obs) // 3].stamp_ns, obs[2 * len(obs) // 3].stamp_ns):
        past = cons.knowledge(store, as_of_ns=t)
        assert past, t
        assert all(stamps[i] <= t for k in past for i in k.evidence_ids)
        assert all(k.evidence_to_ns <= t for k in past)
        assert [k.model_dump() for k in past] == [k.model_dump() for k in sorted(
            cons.consolidate(store, until_ns=t), key=lambda k: (cons.KNOWLEDGE_KINDS.index(k.kind),
                                                                -k.support, -k.confidence, k.id))]
        # meaningful: knowledge as it is now does rest on evidence after t
        assert any(k.evidence_to_ns > t for k in now)
        assert {(k.id, k.support) for k in past} != {(k.id, k.support) for k in now}
    assert cons.knowledge(store, as_of_ns=obs[0].stamp_ns - 1) == []
    # as of a time after all evidence, the stored run is the answer
    assert cons.knowledge(store, as_of_ns=obs[-1].stamp_ns) == now
    # ~/query serves the same, as of a time too
    recs = query(store, "habits", entity_id=PARTICIPANT, as_of_ns=obs[len(obs) // 3].stamp_ns, limit=1000)
    assert recs and all(r.kind == "habit" and r.stamp_ns <= obs[len(obs) // 3].stamp_ns for r in recs)


def test_query_stores(epic):
    store, _ = epic
    routines = query(store, "routines", limit=3)
    assert len(routines) == 3 and all(r.kind == "routine" and r.data()["steps"] for r in routines)
    assert routines[0].data()["support"] >= routines[-1].data()["support"]
    taps = query(store, "habits", text="tap", limit=1000)
    assert taps and all("tap" in r.text for r in taps)
    assert query(store, "preferences", entity_id="bin")
    assert not query(store, "habits", entity_id="P99")
    with pytest.raises(InvalidInput, match="routines"):
        query(store, "nonsense")


# ---- the robot's own experience -------------------------------------------------------------------


def _two_mugs(store: MemoryStore) -> None:
    ents = [EntityObservation(id=i, label=lab, room="kitchen") for i, lab in
            (("mug_1", "mug"), ("mug_2", "mug"), ("cabinet_1", "cabinet"), ("table_1", "table"))]
    store.ingest_scene_graph(SceneGraphObservation(
        stamp_ns=T0, room="kitchen", entities=ents,
        relations=[RelationObservation(subject="mug_1", predicate="on", object="table_1")]))


def _skill(store: MemoryStore, t_s: float, skill: str, *args: str, success: bool = True) -> str:
    return store.ingest_skill_feedback(SkillFeedbackObservation(
        stamp_ns=T0 + int(t_s * S), robot="vega", skill=skill, args=list(args), target_id=args[0],
        success=success)).observation_id


def test_skill_feedback_habits_and_instance_preference(store):
    _two_mugs(store)
    t = 10
    for _ in range(3):
        _skill(store, t, "pick", "mug_1")
        _skill(store, t + 10, "place", "mug_1", "cabinet_1")
        t += 30
    _skill(store, t, "pick", "mug_2")
    failed = [_skill(store, t + 10 + i, "pick", "mug_2", success=False) for i in range(3)]
    records = cons.knowledge(store)
    assert all(f not in k.evidence_ids for k in records for f in failed)  # failures are not habits
    habit = next(k for k in records if k.kind == "habit" and k.steps == ["pick mug_1", "place mug_1"])
    assert habit.actor == "vega" and habit.support == 3 and habit.confidence == 1.0
    prefs = {k.data["preference"]: k for k in records if k.kind == "preference"}
    assert prefs["receptacle"].steps == ["mug", "cabinet_1"] and prefs["receptacle"].support == 3
    assert prefs["instance"].steps == ["mug", "mug_1"] and prefs["instance"].confidence == pytest.approx(6 / 7,
                                                                                                       abs=1e-4)


def test_runs_only_when_evidence_changes_and_forgetting_drops_knowledge(store):
    for i in range(4):  # four mornings: open fridge, take milk, close fridge
        for j, (verb, obj) in enumerate((("open", "fridge"), ("take", "milk"), ("close", "fridge"))):
            store.ingest_activity(act(i * 86400 + j * 5, verb, obj))
    first = cons.run_consolidation(store)
    assert first is not None and first.counts["routine"] == 1
    assert cons.run_consolidation(store) is None
    store.ingest_utterance(UtteranceObservation(stamp_ns=T0, speaker="alex", text="hello"))
    assert cons.run_consolidation(store) is None  # not evidence

    (routine,) = cons.knowledge(store, kind="routine")
    assert routine.steps == ["open fridge", "take milk", "close fridge"] and routine.support == 4
    assert routine.confidence == 1.0 and routine.sessions == 4

    # forgetting one morning: the next request recomputes, and no knowledge cites a forgotten event
    day = [e.id for e in store.events(kind="activity", until_ns=T0 + 10 * S)]
    learned = len(cons.knowledge(store))
    assert store.forget(ids=day) == 3 + learned  # the events and the knowledge resting on them
    (routine,) = cons.knowledge(store, kind="routine")
    assert routine.support == 3 and not set(day) & set(routine.evidence_ids)
    store.forget(everything=True)
    assert cons.knowledge(store) == []


def test_sessions_split_at_long_pauses_and_merge_repeats():
    acts = [cons.Action(str(i), T0 + t * S, "alex", v, (o,)) for i, (t, v, o) in enumerate(
        [(0, "wash", "plate"), (5, "wash", "plate"), (10, "put", "plate"), (10_000, "put", "plate")])]
    (a, b) = cons.sessions_of(acts, 600 * S)
    assert [s.key for s in a.steps] == ["wash plate", "put plate"] and len(a.steps[0].actions) == 2
    assert [s.key for s in b.steps] == ["put plate"]
