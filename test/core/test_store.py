"""MemoryStore on a real SQLite file: latest state, history, relation families, complete views, forget."""

import sqlite3

import pytest
from pydantic import ValidationError

from memory_node.core.models import (
    EntityObservation,
    FrameObservation,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
    merge_states,
)
from memory_node.core.store import SCHEMA_VERSION, MemoryStore

# the whole suite runs on SQLite and on PostgreSQL (test/conftest.py: store_backend)
pytestmark = pytest.mark.usefixtures("store_backend")

S = 1_000_000_000


def E(id, label, room="kitchen", **kw):
    return EntityObservation(id=id, label=label, room=room, **kw)


def R(s, p, o):
    return RelationObservation(subject=s, predicate=p, object=o)


def graph(t, entities, relations=(), room="kitchen", complete=False):
    return SceneGraphObservation(stamp_ns=t * S, room=room, complete=complete, entities=list(entities),
                                 relations=list(relations))


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "memory.db")
    yield s
    s.close()


def kitchen(t=10):
    return graph(t, [E("mug_1", "mug", attributes={"color": "blue"}), E("table_1", "table"),
                     E("cabinet_1", "cabinet", states=["closed"])], [R("mug_1", "on", "table_1")], complete=True)


def test_new_location_supersedes_old_and_keeps_attributes(store):
    store.ingest_scene_graph(kitchen())
    res = store.ingest_scene_graph(graph(20, [E("mug_1", "mug")], [R("mug_1", "inside", "cabinet_1")]))
    assert res.updated == 1 and res.added == 0
    mug = store.entity("mug_1")
    assert (mug.location.predicate, mug.location.object) == ("in", "cabinet_1")
    assert mug.attributes["color"] == "blue"  # a move does not erase colour
    # only one location holds now; the old one is closed at the time of the move
    current = [r for r in store.relations(subject="mug_1")]
    assert [(r.predicate, r.object) for r in current] == [("in", "cabinet_1")]
    past = store.relations(subject="mug_1", as_of_ns=15 * S)
    assert [(r.predicate, r.object) for r in past] == [("on", "table_1")]
    # the move is an observed change event
    moves = store.events(kind="change", entity_id="mug_1")
    assert len(moves) == 1 and "table_1" in moves[0].text and "cabinet_1" in moves[0].text


def test_as_of_returns_the_state_that_held_then(store):
    store.ingest_scene_graph(kitchen(10))
    store.ingest_scene_graph(graph(20, [E("mug_1", "mug")], [R("mug_1", "in", "cabinet_1")]))
    assert store.entity("mug_1", as_of_ns=5 * S) is None
    assert store.entity("mug_1", as_of_ns=15 * S).location.object == "table_1"
    assert store.entity("mug_1", as_of_ns=25 * S).location.object == "cabinet_1"
    hist = store.history("mug_1")
    assert [v.entity.location.object for v in hist] == ["table_1", "cabinet_1"]
    assert hist[0].valid_to_ns == 20 * S and hist[1].valid_to_ns is None


def test_repeated_observation_is_a_noop(store):
    store.ingest_scene_graph(kitchen(10))
    res = store.ingest_scene_graph(kitchen(11))
    assert res.added == 0 and res.updated == 0 and res.unchanged == 3
    assert len(store.history("mug_1")) == 1
    assert store.entity("mug_1").last_seen_ns == 11 * S


def test_older_observation_does_not_change_the_present(store):
    store.ingest_scene_graph(graph(20, [E("mug_1", "mug"), E("cabinet_1", "cabinet")],
                                   [R("mug_1", "in", "cabinet_1")]))
    store.ingest_scene_graph(graph(10, [E("mug_1", "mug"), E("table_1", "table")], [R("mug_1", "on", "table_1")]))
    assert store.entity("mug_1").location.object == "cabinet_1"


def test_state_families(store):
    assert merge_states(["closed", "locked"], ["open"]) == ["open", "unlocked"]
    assert merge_states(["closed"], ["on"]) == ["closed", "on"]
    store.ingest_scene_graph(kitchen(10))
    store.ingest_scene_graph(graph(20, [E("cabinet_1", "cabinet", states=["open"])]))
    assert store.entity("cabinet_1").states == ["open"]
    assert store.entity("cabinet_1", as_of_ns=15 * S).states == ["closed"]


def test_complete_graph_moves_missing_entities_to_history(store):
    store.ingest_scene_graph(kitchen(10))
    res = store.ingest_scene_graph(graph(20, [E("table_1", "table"), E("cabinet_1", "cabinet")], complete=True))
    assert res.removed == 1
    assert store.entity("mug_1").present is False
    assert "mug_1" not in {e.id for e in store.entities(label="mug")}
    assert store.entities(label="mug", include_absent=True)[0].id == "mug_1"
    assert store.entity("mug_1", as_of_ns=15 * S).present is True  # not oblivion: history keeps it
    # a partial view never removes anything
    res = store.ingest_scene_graph(graph(30, [E("table_1", "table")]))
    assert res.removed == 0 and store.entity("cabinet_1").present


def test_same_label_in_two_rooms_stays_distinct(store):
    store.ingest_scene_graph(graph(10, [E("mug_1", "mug")], room="kitchen"))
    store.ingest_scene_graph(graph(11, [E("mug_2", "mug", room="office")], room="office"))
    assert {e.id for e in store.entities(label="mug")} == {"mug_1", "mug_2"}
    assert [e.id for e in store.entities(label="mug", room="office")] == ["mug_2"]
    assert store.entity("office").label == "room"  # rooms become entities (environment memory)


def test_relation_to_unknown_entity_is_rejected_not_stored(store):
    res = store.ingest_scene_graph(graph(10, [E("mug_1", "mug")], [R("mug_1", "on", "ghost_9")]))
    assert res.rejected and "ghost_9" in res.rejected[0]
    assert store.entity("mug_1").location is None


def test_invalid_input_is_refused_by_the_model():
    with pytest.raises(ValidationError, match="finite"):
        EntityObservation(id="mug_1", label="mug", position={"x": float("nan"), "y": 0, "z": 0})
    with pytest.raises(ValidationError, match="unknown relation predicate"):
        RelationObservation(subject="a", predicate="teleported_to", object="b")
    with pytest.raises(ValidationError, match="id"):
        EntityObservation(id="", label="mug")


def test_failed_open_with_locked_message_marks_entity_locked(store):
    store.ingest_scene_graph(kitchen(10))
    res = store.ingest_skill_feedback(SkillFeedbackObservation(
        stamp_ns=20 * S, robot="vega", skill="open", args=["cabinet_1"], target_id="cabinet_1", success=False,
        status="EXECUTION_FAILURE", message="the cabinet is locked"))
    assert res.updated == 1
    assert "locked" in store.entity("cabinet_1").states
    ev = store.events(kind="skill", entity_id="cabinet_1")[0]
    assert ev.stamp_ns == 20 * S and "failed" in ev.text and ev.data["status"] == "EXECUTION_FAILURE"


def _feedback(t, skill, args, success, message="", status=""):
    return SkillFeedbackObservation(stamp_ns=t * S, robot="vega", skill=skill, args=args,
                                    target_id=args[0] if args else "", success=success,
                                    status=status or ("SUCCEEDED" if success else "FAILED"), message=message)


def test_a_locked_failure_leaves_an_unseen_door_locked_and_closed(store):
    # perception knows the cabinet opens but never saw its door either way
    store.ingest_scene_graph(graph(10, [E("cabinet_1", "cabinet", attributes={"openable": "true"})]))
    assert store.ingest_skill_feedback(_feedback(20, "open", ["cabinet_1"], False, "cabinet_1 is locked")).updated == 1
    assert store.entity("cabinet_1").states == ["closed", "locked"]


def test_successful_open_and_close_leave_the_door_state_they_imply(store):
    store.ingest_scene_graph(graph(10, [E("fridge_1", "fridge", attributes={"openable": "true"})]))
    res = store.ingest_skill_feedback(_feedback(20, "open", ["fridge_1"], True))
    fridge = store.entity("fridge_1")
    assert res.updated == 1 and fridge.states == ["open"]
    assert fridge.provenance == res.observation_id  # the skill event is the evidence
    store.ingest_skill_feedback(_feedback(30, "close", ["fridge_1"], True))
    assert store.entity("fridge_1").states == ["closed"]
    # the history keeps each state with its interval
    assert [v.entity.states for v in store.history("fridge_1")] == [[], ["open"], ["closed"]]
    # a failed close (not locked) says nothing about the door; neither does a skill without state effects
    assert store.ingest_skill_feedback(_feedback(40, "open", ["fridge_1"], False, "hands full")).updated == 0
    assert store.ingest_skill_feedback(_feedback(41, "pick", ["fridge_1"], True)).updated == 0
    assert store.entity("fridge_1").states == ["closed"]


def test_open_success_unlocks_and_older_feedback_does_not_change_the_present(store):
    store.ingest_scene_graph(kitchen(10))
    store.ingest_skill_feedback(_feedback(20, "open", ["cabinet_1"], False, "the cabinet is locked"))
    assert store.entity("cabinet_1").states == ["closed", "locked"]
    store.ingest_skill_feedback(_feedback(30, "open", ["cabinet_1"], True))  # someone unlocked it
    assert store.entity("cabinet_1").states == ["open", "unlocked"]
    # seen closed at 50; a success stamped 40 (delivered late) is older than what memory holds
    store.ingest_scene_graph(graph(50, [E("cabinet_1", "cabinet", states=["closed"])]))
    assert store.ingest_skill_feedback(_feedback(40, "open", ["cabinet_1"], True)).updated == 0
    assert "closed" in store.entity("cabinet_1").states
    # an unknown target is no error: the event is kept, no entity is made up
    res = store.ingest_skill_feedback(_feedback(60, "open", ["drawer_9"], True))
    assert res.updated == 0 and store.entity("drawer_9") is None


def test_skill_state_effects_come_from_the_robots_library(tmp_path):
    from memory_node.planning.skills import SkillLibrary
    g1 = SkillLibrary.for_robot("g1")
    assert g1.state_effects()["open"] == ((0, "open", False), (0, "closed", True))
    # a robot whose skill is named otherwise and acts on its second argument
    s = MemoryStore(tmp_path / "m.db", skill_state_effects={"swing_door": ((1, "open", False),),
                                                            "pour": ((1, "empty", True),)})
    s.ingest_scene_graph(graph(10, [E("oven_1", "oven", states=["closed"]), E("cup_1", "cup", states=["empty"])]))
    s.ingest_skill_feedback(_feedback(20, "swing_door", ["left_arm", "oven_1"], True))
    s.ingest_skill_feedback(_feedback(21, "open", ["oven_1"], False))  # not this library's skill
    s.ingest_skill_feedback(_feedback(22, "pour", ["juice_1", "cup_1"], True))
    assert s.entity("oven_1").states == ["open"] and s.entity("cup_1").states == []
    s.close()


def test_events_are_time_ordered_and_filterable(store):
    for i, text in enumerate(["forks go in the drawer", "my mug is the blue one"]):
        store.ingest_utterance(UtteranceObservation(stamp_ns=(100 + i) * S, speaker="alex", text=text))
    evs = store.events(kind="utterance")
    assert [e.stamp_ns for e in evs] == [101 * S, 100 * S]  # newest first
    assert store.events(kind="utterance", until_ns=100 * S)[0].text.endswith("forks go in the drawer")


def test_memory_survives_reopen(tmp_path, store_backend):
    path = tmp_path / "m.db"
    s = MemoryStore(path)
    s.ingest_scene_graph(kitchen(10))
    s.close()
    s2 = MemoryStore(path)
    assert s2.entity("mug_1").location.object == "table_1"
    if store_backend == "sqlite":
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    s2.close()


def test_newer_schema_is_refused(tmp_path, store_backend):
    path = tmp_path / "m.db"
    s = MemoryStore(path)
    if store_backend == "sqlite":
        s.close()
        con = sqlite3.connect(path)
        con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
        con.commit()
        con.close()
    else:  # a newer memory_node migrated the site database
        from memory_node.core.storage.postgres_schema import SCHEMA_VERSION as PG_SCHEMA_VERSION
        with s.transaction() as storage:
            storage.execute("INSERT INTO schema_version VALUES(?, 0)", (PG_SCHEMA_VERSION + 1,))
        s.close()
    with pytest.raises(RuntimeError, match="newer"):
        MemoryStore(path)


def _frame(t, value, room="kitchen"):
    return FrameObservation(stamp_ns=t * S, encoded=b"\xff\xd8fake", thumbnail=[float(value)] * 256, room=room)


def test_frame_gate_rejects_near_duplicates_but_admits_new_entities(store):
    assert store.ingest_frame(_frame(1, 100), visible=["mug_1"]).admitted
    assert not store.ingest_frame(_frame(2, 101), visible=["mug_1"]).admitted  # near-duplicate
    assert store.ingest_frame(_frame(3, 101), visible=["mug_1", "cabinet_1"]).admitted  # new entity
    assert store.ingest_frame(_frame(4, 160), visible=[]).admitted  # the view changed
    assert store.ingest_frame(_frame(5, 100, room="office")).admitted  # gate is per room
    frames = store.frames(room="kitchen")
    assert len(frames) == 3 and all(open(f.path, "rb").read() == b"\xff\xd8fake" for f in frames)
    assert [f.id for f in store.frames(entity_id="cabinet_1")] == [frames[1].id]


def test_forget_really_deletes(store, tmp_path):
    store.ingest_scene_graph(kitchen(10))
    store.ingest_scene_graph(graph(20, [E("mug_1", "mug")], [R("mug_1", "in", "cabinet_1")]))
    fr = store.ingest_frame(_frame(30, 50), visible=["mug_1"])
    path = store.frames()[0].path
    assert store.forget(ids=["mug_1", fr.observation_id]) == 2
    assert store.entity("mug_1") is None and store.history("mug_1") == []
    assert store.relations(subject="mug_1", as_of_ns=15 * S) == []
    assert not (tmp_path / path).exists()
    assert store.forget(ids=["nothing_here"]) == 0
    assert store.forget(everything=True) >= 3
    assert store.counts()["entities"] == 0
    with pytest.raises(ValueError, match="needs"):
        store.forget()


def P(x, y=0.0):
    return {"x": x, "y": y, "z": 0.8}


def test_entities_without_ids_are_associated_by_label_room_and_position(store):
    store.ingest_scene_graph(graph(10, [E("apple_1", "apple", position=P(1.0)), E("apple_2", "apple", position=P(3.0)),
                                        E("bowl_1", "bowl", position=P(1.0))]))
    # a detector's local ids: the apple near x=3.1 is apple_2, the one at x=8 is new; relations follow
    res = store.ingest_scene_graph(graph(20, [E("_:a", "apple", position=P(3.1)), E("_:b", "apple", position=P(8.0)),
                                              E("_:c", "bowl", position=P(1.2))],
                                         [R("_:a", "in", "_:c")]))
    assert res.added == 1
    assert store.entity("apple_2").location.object == "bowl_1"
    assert store.entity("apple_2").position.x == 3.1
    new = [e for e in store.entities(label="apple") if e.id not in ("apple_1", "apple_2")]
    assert len(new) == 1 and new[0].id.startswith("apple_") and new[0].position.x == 8.0
    # same label in another room is a different object, even at the same coordinates
    store.ingest_scene_graph(graph(30, [E("_:x", "bowl", room="office", position=P(1.0))], room="office"))
    assert len(store.entities(label="bowl")) == 2
    # without a position, the only one of its label in the room is taken
    store.ingest_scene_graph(graph(40, [E("_:y", "bowl", room="office", states=["dirty"])], room="office"))
    assert [e.states for e in store.entities(label="bowl", room="office")] == [["dirty"]]


def test_retention_keeps_the_newest_frames_per_room_and_drops_old_ones(store):
    for t in range(1, 6):
        store.ingest_frame(_frame(t, 40 * t), visible=[])
    store.ingest_frame(_frame(6, 100, room="office"))
    paths = {f.id: f.path for f in store.frames(limit=100)}
    assert store.apply_retention(frames_per_room=2) == 3
    kept = store.frames(limit=100)
    assert sorted(f.stamp_ns // S for f in kept) == [4, 5, 6]
    assert all(open(f.path, "rb") for f in kept)
    gone = set(paths) - {f.id for f in kept}
    import os
    assert not any(os.path.exists(paths[i]) for i in gone)
    # age is measured back from the newest observation (event time), not the wall clock
    assert store.apply_retention(max_frame_age_ns=int(1.5 * S)) == 1
    assert sorted(f.stamp_ns // S for f in store.frames()) == [5, 6]
    assert store.apply_retention() == 0


def test_rooms_with_their_entities_and_connectivity(store):
    from memory_node.core.query import query, room_summaries

    store.ingest_scene_graph(kitchen(10))
    store.ingest_scene_graph(graph(11, [E("sofa_1", "sofa", room="livingroom")], room="livingroom"))
    store.ingest_scene_graph(graph(12, [], [R("kitchen", "adjacent_to", "livingroom")], room="kitchen"))
    rooms = {r.id: r for r in room_summaries(store)}
    assert rooms["kitchen"].entity_count == 3 and rooms["livingroom"].entity_count == 1
    assert rooms["kitchen"].connected_to == ["livingroom"] and rooms["livingroom"].connected_to == ["kitchen"]
    assert room_summaries(store, as_of_ns=11 * S)[0].connected_to == []
    recs = query(store, kind="rooms", room="livingroom")
    assert [r.id for r in recs] == ["livingroom"] and "connected to kitchen" in recs[0].text


def test_forget_takes_what_was_learned_from_forgotten_events(store):
    from memory_node.core.rules import facts, placement_for, rules

    for i, text in enumerate(["put the fork in the drawer", "the spoons go in the drawer"]):
        store.ingest_utterance(UtteranceObservation(stamp_ns=(10 + i) * S, speaker="alex", text=text))
    assert len(facts(store)) == 2 and rules(store)
    assert placement_for(store, "knife") is not None  # the cutlery rule generalises
    first = store.events(kind="utterance")[-1].id
    assert store.forget(ids=[first]) >= 3  # the event, its fact, the rule it supported
    assert [f.subject for f in facts(store)] == ["spoons"] or len(facts(store)) == 1
    assert rules(store) == [] and placement_for(store, "knife", similar=False) is None
    # a guess from similar objects may remain, but it cites only what was not forgotten
    guess = placement_for(store, "knife")
    assert guess is None or first not in guess.support_event_ids
    store.ingest_utterance(UtteranceObservation(stamp_ns=20 * S, speaker="alex", text="forks go in the drawer"))
    assert rules(store)
    store.forget(everything=True)
    assert facts(store) == [] and rules(store) == []


def test_a_scene_graph_costs_statements_per_change_not_per_entity(tmp_path):
    # on a database server every statement waited for a round trip: re-observing a room cost two per entity
    # (bench/fleet_bench.py). Its entities are read together and its unchanged ones written together.
    store = MemoryStore(tmp_path / "memory.db")
    storage = store.storage
    run, run_many = storage.execute, storage.executemany
    statements: list[str] = []
    storage.execute = lambda sql, args=(): (statements.append(sql), run(sql, args))[1]
    storage.executemany = lambda sql, rows: (statements.append(sql), run_many(sql, rows))[1]

    def room(t, n):
        ents = [E("table_1", "table")] + [E(f"cup_{i}", "cup") for i in range(n)]
        rels = [R(f"cup_{i}", "on", "table_1") for i in range(n)] + [R("cup_0", "next_to", "cup_1")]
        return graph(t, ents, rels, complete=True)

    cost = {}
    for n in (5, 40):
        store.ingest_scene_graph(room(2 * n, n))
        statements.clear()
        result = store.ingest_scene_graph(room(2 * n + 1, n))  # nothing changed
        assert result.unchanged == n + 1 and result.updated == result.added == 0
        cost[n] = list(statements)
    assert len(cost[40]) == len(cost[5])
    assert sum(s.lstrip().upper().startswith("SELECT") for s in cost[40]) <= 3
    assert all(e.last_seen_ns == 81 * S for e in store.entities(label="cup"))
    store.close()
