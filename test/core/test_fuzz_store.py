"""Fuzzing the store's write path with hypothesis: odd but well-typed input (what the conversion layer lets
through) never crashes ingest, never corrupts the SQLite file and never touches what was stored before;
whatever is refused is refused with InvalidInput or listed, with a reason, in ``IngestResult.rejected``.

The budget is small for CI (``EXAMPLES`` below, seconds each); ``scripts/fuzz.sh --examples 1000``
(``python -m memory_node.bench.fuzz``) runs the same properties with a larger one.
"""

import os
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_node.core.models import (
    KNOWN_PREDICATES,
    PREDICATE_SYNONYMS,
    ActivityObservation,
    EntityObservation,
    FrameObservation,
    InvalidInput,
    Point,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.store import MemoryStore

S = 1_000_000_000
# examples per property: small for CI; bench/fuzz.py raises it for the figures
EXAMPLES = int(os.environ.get("MEMORY_NODE_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# ids the fuzzer draws from a small pool (so relations hit entities, rooms and each other), plus local ids;
# the sentinel's ids (upper case) are never drawn, so what it stored must stay exactly as it was
ID_POOL = ["mug_1", "table_1", "kitchen", "bedroom", "fridge_2", "a", "x.y:z/1", "room", "-", "_:t1", "_:t2"]
ids = st.sampled_from(ID_POOL)
# huge texts are short ones repeated: generating thousands of random characters costs more than the test
huge_text = st.tuples(st.text(min_size=1, max_size=8), st.integers(200, 800)).map(lambda t: t[0] * t[1])
odd_text = st.one_of(st.text(max_size=40), huge_text,
                     st.sampled_from(["", " ", "\x00", "'; DROP TABLE entities; --", "🙂" * 50, "\u202e" + "x",
                                      "NaN", "put the fork in the drawer", "no, the cups go on the shelf",
                                      "my mug is the blue one", "I prefer the red cup", "the mug goes in the mug"]))
finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
stamps = st.integers(min_value=1, max_value=2**62 - 1)


def entity_obs(draw_id=ids):
    return st.builds(
        EntityObservation, id=draw_id, label=st.sampled_from(["mug", "Wine glass", "room", "table", "x" * 200]),
        name=odd_text, room=st.one_of(ids, st.just("")),
        position=st.one_of(st.none(), st.builds(Point, x=finite, y=finite, z=finite)),
        attributes=st.dictionaries(st.text(min_size=1, max_size=10), odd_text, max_size=3),
        states=st.lists(st.sampled_from(["open", "closed", "locked", "unlocked", "on", "off", "", " Dirty ",
                                         "weird state"]), max_size=4),
        confidence=st.floats(min_value=0, max_value=1))


predicates = st.sampled_from(sorted(KNOWN_PREDICATES) + sorted(PREDICATE_SYNONYMS))
relation_obs = st.builds(RelationObservation, subject=st.one_of(ids, st.just("unknown_9")), predicate=predicates,
                         object=st.one_of(ids, st.just("unknown_9")))
graphs = st.builds(SceneGraphObservation, stamp_ns=stamps, source=odd_text, room=st.one_of(ids, st.just("")),
                   complete=st.booleans(), entities=st.lists(entity_obs(), max_size=8),
                   relations=st.lists(relation_obs, max_size=8))
feedback = st.builds(SkillFeedbackObservation, stamp_ns=stamps, robot=odd_text, skill=odd_text,
                     args=st.lists(st.one_of(ids, odd_text), max_size=3), target_id=st.one_of(ids, st.just("")),
                     success=st.booleans(), status=odd_text, message=st.one_of(odd_text, st.just("it is locked")))
utterances = st.builds(UtteranceObservation, stamp_ns=stamps, speaker=odd_text, text=odd_text)


@st.composite
def activities(draw):
    """Activities the model accepts (its own validation is tested with the conversions)."""
    try:
        return ActivityObservation(stamp_ns=draw(stamps), actor=draw(odd_text), verb=draw(odd_text),
                                   objects=draw(st.lists(odd_text, max_size=3)), location=draw(odd_text),
                                   text=draw(odd_text))
    except ValueError:
        return ActivityObservation(stamp_ns=draw(stamps), verb="open", objects=["fridge"])


frames = st.builds(FrameObservation, stamp_ns=stamps, encoded=st.binary(max_size=64),
                   format=st.sampled_from(["jpg", "png"]), room=st.one_of(ids, st.just("")),
                   thumbnail=st.one_of(st.just([]), st.lists(st.floats(0, 255), min_size=256, max_size=256)))
inputs = st.lists(st.one_of(graphs, feedback, utterances, activities(), frames), min_size=1, max_size=6)


def sentinel(store: MemoryStore) -> dict:
    """What a robot stored before the fuzzer arrives, and a snapshot of it to compare with later."""
    store.ingest_scene_graph(SceneGraphObservation(
        stamp_ns=1 * S, room="HALL", complete=True,
        entities=[EntityObservation(id="KEYS_1", label="keys", room="HALL", position=Point(x=1, y=2, z=0.5)),
                  EntityObservation(id="BOWL_1", label="bowl", room="HALL")],
        relations=[RelationObservation(subject="KEYS_1", predicate="in", object="BOWL_1")]))
    store.ingest_utterance(UtteranceObservation(stamp_ns=2 * S, speaker="ANNA", text="the keys go in the bowl"))
    return snapshot(store)


def snapshot(store: MemoryStore, obs_ids: tuple[str, ...] | None = None) -> dict:
    db = store.db
    if obs_ids is None:  # the sentinel's own observations: everything stored so far
        obs_ids = tuple(r[0] for r in db.execute("SELECT id FROM observations"))
    marks = ",".join("?" * len(obs_ids))
    return {
        "obs_ids": obs_ids,
        "versions": db.execute("SELECT entity_id, valid_from_ns, valid_to_ns, data FROM entity_versions WHERE "
                               "entity_id IN ('HALL', 'KEYS_1', 'BOWL_1') ORDER BY entity_id, valid_from_ns"
                               ).fetchall(),
        "relations": db.execute("SELECT * FROM relations WHERE subject='KEYS_1'").fetchall(),
        "observations": db.execute(f"SELECT * FROM observations WHERE id IN ({marks}) ORDER BY id", obs_ids
                                   ).fetchall(),
        "events": db.execute(f"SELECT data FROM events WHERE json_extract(data, '$.provenance') IN ({marks}) "
                             "ORDER BY id", obs_ids).fetchall(),
        "facts": db.execute("SELECT * FROM facts WHERE speaker='ANNA'").fetchall(),
    }


def assert_sound(store: MemoryStore, before: dict) -> None:
    db = store.db
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    now = snapshot(store, before["obs_ids"])
    # the fuzzer never names the sentinel's entities: its state, history and evidence are exactly as they were
    assert now == before
    # every stored entity row still parses, and the latest state is the newest version
    for ent_id, data in db.execute("SELECT id, data FROM entities"):
        assert store.entity(ent_id).id == ent_id
        assert db.execute("SELECT COUNT(*) FROM entity_versions WHERE entity_id=? AND valid_to_ns IS NULL",
                          (ent_id,)).fetchone()[0] == 1, ent_id


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "fuzz.db", frame_dir=tmp_path / "frames")
    yield s
    s.close()


def ingest(store: MemoryStore, item):
    if isinstance(item, SceneGraphObservation):
        return store.ingest_scene_graph(item)
    if isinstance(item, SkillFeedbackObservation):
        return store.ingest_skill_feedback(item)
    if isinstance(item, UtteranceObservation):
        return store.ingest_utterance(item)
    if isinstance(item, ActivityObservation):
        return store.ingest_activity(item)
    return store.ingest_frame(item, visible=["mug_1"])


@FUZZ
@given(batch=inputs)
def test_odd_input_never_crashes_ingest_nor_harms_memory(store, batch):
    before = getattr(store, "_fuzz_sentinel", None) or sentinel(store)
    store._fuzz_sentinel = before
    for item in batch:
        try:
            result = ingest(store, item)
        except InvalidInput as err:  # the documented refusal, with a reason
            assert str(err)
            continue
        assert all(reason for reason in result.rejected)
    assert_sound(store, before)


def _expected_rejections(store: MemoryStore, graph: SceneGraphObservation) -> int:
    """Relations the store must refuse in a graph without local ids: to itself, or to an entity neither the
    graph (its entities and the rooms it names, which the store creates) nor memory has."""
    present = {e.id for e in graph.entities} | {r for r in {graph.room, *(e.room for e in graph.entities)} if r}
    known = lambda i: i in present or store.entity(i) is not None  # noqa: E731
    return sum(1 for r in graph.relations if r.subject == r.object or not (known(r.subject) and known(r.object)))


@FUZZ
@given(graph=graphs.filter(lambda g: not any(e.id.startswith("_:") for e in g.entities)))
def test_every_refused_relation_is_counted_with_its_reason(store, graph):
    expected = _expected_rejections(store, graph)
    observations = store.counts()["observations"]
    try:
        result = store.ingest_scene_graph(graph)
    except InvalidInput as err:  # a field over its limit (core/limits.py): the whole graph refused, said why
        assert "over limits." in str(err)
        assert store.counts()["observations"] == observations
        return
    assert len(result.rejected) == expected, result.rejected
    for reason in result.rejected:
        assert "itself" in reason or "unknown entity" in reason
    # and every relation not refused is in memory (open, or closed by a later one of its family)
    for r in graph.relations:
        if r.subject != r.object and store.entity(r.subject) and store.entity(r.object):
            assert store.db.execute("SELECT 1 FROM relations WHERE subject=? AND predicate=? AND object=?",
                                    (r.subject, r.predicate, r.object)).fetchone() \
                or r.predicate in ("on", "in", "held_by", "at"), r  # a later location in one message wins
    assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@settings(max_examples=max(1, EXAMPLES // 2), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=inputs)
def test_memory_written_by_odd_input_reopens_and_reads(tmp_path_factory, batch):
    """What odd input left behind is still a readable memory after the process is gone."""
    path = tmp_path_factory.mktemp("fuzz") / "m.db"
    store = MemoryStore(path)
    before = sentinel(store)
    for item in batch:
        try:
            ingest(store, item)
        except InvalidInput:
            pass
    store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    again = MemoryStore(path)
    assert_sound(again, before)
    again.entities(), again.relations(), again.events(limit=1000), again.frames(limit=1000)
    again.close()
