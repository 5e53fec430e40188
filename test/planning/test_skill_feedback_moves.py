"""Successful skill feedback moves things in memory as the robot's skill library says its skills do: the
moves are derived from each skill's declared effects, so a library with its own skill names needs no code."""

import yaml

from memory_node.core.models import (HELD_BY_ROBOT, RELEASED, EntityObservation, RelationObservation,
                                     SceneGraphObservation, SkillFeedbackObservation)
from memory_node.core.store import MemoryStore
from memory_node.requests.dispatch import answer_question
from memory_node.planning.skills import SkillLibrary, default_library_path
from memory_node.world.state import WorldState

S = 1_000_000_000

# a robot of someone else's, with names none of the shipped libraries use
OTHER_ROBOT = {
    "robot": "tidy", "hands": 1,
    "skills": [
        {"name": "goto", "role": "navigate", "args": [{"name": "where", "type": "place"}],
         "preconditions": [], "effects": ["robot_at(where)"]},
        {"name": "grasp", "role": "pick", "args": [{"name": "thing", "type": "object"}],
         "preconditions": ["hand_free"], "effects": ["holding(thing)"]},
        {"name": "put_into", "role": "place",
         "args": [{"name": "thing", "type": "object"}, {"name": "box", "type": "receptacle"}],
         "preconditions": ["holding(thing)"], "effects": ["not holding(thing)", "located(thing, in, box)"]},
        {"name": "give", "role": "handover", "args": [{"name": "thing", "type": "object"}],
         "preconditions": ["holding(thing)"], "effects": ["not holding(thing)"]},
    ],
}


def _library(tmp_path, spec):
    spec = {**spec, "skills": [{"description": s["name"], **s} for s in spec["skills"]]}
    path = tmp_path / "lib.yaml"
    path.write_text(yaml.safe_dump(spec))
    return SkillLibrary.load(path)


def _store(tmp_path, library):
    store = MemoryStore(tmp_path / "m.db", skill_state_effects=library.state_effects(),
                        skill_location_effects=library.location_effects())
    ents = [EntityObservation(id=i, label=label, room="kitchen", states=states) for i, label, states in
            [("kitchen", "room", []), ("table_1", "table", []), ("plate_1", "plate", []),
             ("cabinet_1", "cabinet", ["closed"]), ("tray_1", "tray", [])]]
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=S, room="kitchen", entities=ents, relations=[
        RelationObservation(subject="plate_1", predicate="on", object="table_1")]))
    return store


def _fb(t, skill, *args, success=True):
    return SkillFeedbackObservation(stamp_ns=t * S, robot="r", skill=skill, args=list(args), success=success,
                                    status="" if success else "EXECUTION_FAILURE")


def test_location_effects_come_from_the_declared_effects(tmp_path):
    vega = SkillLibrary.load(default_library_path("vega")).location_effects()
    assert vega["pick"] == ((0, "held_by", HELD_BY_ROBOT),)
    assert vega["place"] == ((0, "on", 1),)  # not holding + located: the place wins, no release
    assert vega["handover"] == ((0, "", RELEASED),)
    assert "navigate_to" not in vega and "open" not in vega
    other = _library(tmp_path, OTHER_ROBOT).location_effects()
    assert other == {"grasp": ((0, "held_by", HELD_BY_ROBOT),), "put_into": ((0, "in", 1),),
                     "give": ((0, "", RELEASED),)}


def test_another_robots_skills_move_things_by_their_effects(tmp_path):
    store = _store(tmp_path, _library(tmp_path, OTHER_ROBOT))
    try:
        store.ingest_skill_feedback(_fb(2, "grasp", "plate_1"))
        assert store.entity("plate_1").location.predicate == "held_by"
        assert "plate_1" in WorldState.from_store(store).holding  # the planner sees it in the hand
        store.ingest_skill_feedback(_fb(3, "put_into", "plate_1", "tray_1"))
        loc = store.entity("plate_1").location
        assert (loc.predicate, loc.object) == ("in", "tray_1")
        # the old places stay in history, with their ends
        assert [v.entity.location.object if v.entity.location else None for v in store.history("plate_1")] == \
            ["table_1", "robot", "tray_1"]
    finally:
        store.close()


def test_pick_place_handover_and_a_failure_in_the_answers(tmp_path):
    store = _store(tmp_path, SkillLibrary.load(default_library_path("vega")))
    try:
        store.ingest_skill_feedback(_fb(2, "pick", "plate_1", success=False))
        assert "table_1" in answer_question(store, "where is the plate?").answer_ids
        store.ingest_skill_feedback(_fb(3, "pick", "plate_1"))
        assert "held by" in answer_question(store, "where is the plate?").answer
        store.ingest_skill_feedback(_fb(4, "place", "plate_1", "cabinet_1"))
        assert store.entity("plate_1").location.predicate == "in"  # a thing that opens is put in, not on
        store.ingest_skill_feedback(_fb(5, "pick", "plate_1"))
        store.ingest_skill_feedback(_fb(6, "handover", "plate_1"))
        assert store.entity("plate_1").location is None
        assert store.relations(subject="plate_1") == []
        assert "plate_1" not in WorldState.from_store(store).holding
        # feedback older than what memory last saw moves nothing: the later sighting stands
        store.ingest_scene_graph(SceneGraphObservation(stamp_ns=10 * S, room="kitchen", entities=[
            EntityObservation(id="plate_1", label="plate", room="kitchen")], relations=[
            RelationObservation(subject="plate_1", predicate="on", object="table_1")]))
        store.ingest_skill_feedback(_fb(9, "pick", "plate_1"))
        assert store.entity("plate_1").location.object == "table_1"
    finally:
        store.close()
