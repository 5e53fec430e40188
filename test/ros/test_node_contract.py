"""The installed node in its own process, driven over real DDS only through the ROS contract."""

import math
import time

from geometry_msgs.msg import Point

from memory_node.msg import Entity, SceneGraph, SkillFeedback, Utterance
from memory_node.planning.skills import SkillLibrary, default_library_path
from memory_node.ros.conversions import ns_to_stamp
from ros_messages import S, T0, entity, graph



def publish_mug_story(client):
    """A mug seen on the table, later seen inside the closed cabinet."""
    client.pub_graph.publish(graph(T0, [entity("mug_1", "mug", color="blue"), entity("table_1", "table", x=1),
                                        entity("cabinet_1", "cabinet", x=2, states=["closed"])],
                                   [("mug_1", "on", "table_1")], complete=True))
    client.pub_graph.publish(graph(T0 + 60 * S, [entity("mug_1", "mug", x=2),
                                                 entity("cabinet_1", "cabinet", x=2, states=["closed"])],
                                   [("mug_1", "in", "cabinet_1")]))
    client.published["scene_graphs"] += 2
    client.sync(timeout=10)


def library_skills(robot):
    return set(SkillLibrary.load(default_library_path(robot)).names())


def check_mug_answers(client):
    r = client.ask("where is the mug?")
    assert r.success, r.error
    assert "cabinet_1" in r.answer_ids
    assert r.evidence_ids and 0 < r.confidence <= 1

    p = client.plan("bring me the mug")
    assert p.success, p.error
    steps = [(s.skill, list(s.args)) for s in p.plan.steps]
    assert p.plan.robot == "vega"
    assert set(s for s, _ in steps) <= library_skills("vega")
    i_open = steps.index(("open", ["cabinet_1"]))
    i_pick = next(i for i, (s, a) in enumerate(steps) if s == "pick" and a[0] == "mug_1")
    assert i_open < i_pick
    known = {e.id for e in client.scene_graph().graph.entities}
    assert all(a in known for _, args in steps for a in args), steps
    return steps


def test_client_contract_where_is_and_bring_survive_restart(start_node, tmp_path):
    db = tmp_path / "contract.db"
    node, client = start_node("vega", database_path=db)
    publish_mug_story(client)
    steps = check_mug_answers(client)
    client.spin(0.5)
    assert client.plans and [s.skill for s in client.plans[-1].steps] == [s for s, _ in steps]

    # as of before the move, the mug was on the table
    before = client.ask("where is the mug?", as_of_ns=T0 + 30 * S)
    assert "table_1" in before.answer_ids and "cabinet_1" not in before.answer_ids

    assert node.stop() == 0  # clean shutdown on SIGINT
    node2, client2 = start_node("vega", database_path=db)
    assert check_mug_answers(client2) == steps


def test_g1_plan_uses_the_g1_library(start_node):
    _, client = start_node("g1")
    publish_mug_story(client)
    p = client.plan("bring me the mug")
    assert p.success, p.error
    assert p.plan.robot == "g1"
    assert {s.skill for s in p.plan.steps} <= library_skills("g1")
    assert "navigate_to" not in {s.skill for s in p.plan.steps}
    # a vega node can also plan for g1 on request, and refuses an unknown robot
    assert client.plan("bring me the mug", robot="spot").success is False


def test_unknown_object_is_not_guessed(start_node):
    _, client = start_node()
    publish_mug_story(client)
    r = client.ask("where is the teapot?")
    assert not r.answer_ids and r.confidence == 0.0
    assert "teapot" in r.answer.lower()
    p = client.plan("bring me the teapot")
    assert not p.success and "teapot" in p.error


def test_event_time_is_the_header_stamp(start_node):
    _, client = start_node()
    publish_mug_story(client)
    fb = SkillFeedback(robot="vega", skill="open", args=["cabinet_1"], target_id="cabinet_1", success=False,
                       status="EXECUTION_FAILURE", message="cabinet is locked")
    fb.header.stamp = ns_to_stamp(T0 + 100 * S)
    client.pub_feedback.publish(fb)
    utt = Utterance(speaker="alex", text="my mug is the blue one")
    utt.header.stamp = ns_to_stamp(T0 + 110 * S)
    client.pub_utterance.publish(utt)
    client.published["skill_feedback"] += 1
    client.published["utterances"] += 1
    client.sync()
    recs = client.query(store="events", entity_id="cabinet_1").records
    failed = [r for r in recs if "failed" in r.text]
    assert failed and failed[0].stamp.sec == (T0 + 100 * S) // S
    said = client.query(store="events", text="blue").records
    assert said and said[0].stamp.sec == (T0 + 110 * S) // S
    # the failure is remembered on the entity, and the planner will not retry it
    assert "locked" in client.ask("is the cabinet locked?").answer.lower()
    p = client.plan("bring me the mug")
    assert not p.success and "locked" in p.error.lower()


def test_scene_graph_query_and_forget(start_node):
    _, client = start_node()
    publish_mug_story(client)
    now = client.scene_graph(room="kitchen").graph
    rels = {(r.subject, r.predicate, r.object) for r in now.relations}
    assert ("mug_1", "in", "cabinet_1") in rels and ("mug_1", "on", "table_1") not in rels
    past = client.scene_graph(room="kitchen", as_of_ns=T0 + 1 * S).graph
    assert ("mug_1", "on", "table_1") in {(r.subject, r.predicate, r.object) for r in past.relations}
    hist = client.query(store="history", entity_id="mug_1").records
    assert len(hist) == 2
    ents = client.query(store="entities", text="mug").records
    assert [r.id for r in ents] == ["mug_1"] and '"color":"blue"' in ents[0].json

    assert client.forget(ids=["mug_1"]).removed == 1
    assert not client.ask("where is the mug?").answer_ids
    bad = client.forget()
    assert bad.removed == 0 and bad.error


def test_bad_input_is_rejected_and_the_node_keeps_serving(start_node):
    node, client = start_node()
    nan = entity("ghost_1", "vase")
    nan.position = Point(x=math.nan, y=0.0, z=0.0)
    msgs = [
        # NaN position: that entity and its relation are rejected (2), the valid rest is kept
        graph(T0, [nan, entity("plate_1", "plate"), entity("table_1", "table")],
              [("plate_1", "on", "table_1"), ("ghost_1", "on", "table_1")]),
        # unknown relation predicate: that relation is rejected (1)
        graph(T0 + S, [entity("cup_1", "cup")], [("cup_1", "levitating_over", "table_1")]),
        # mismatched attribute arrays (1)
        SceneGraph(entities=[Entity(id="x_1", label="x", attribute_keys=["a", "b"], attribute_values=["1"])]),
    ]
    for m in msgs:
        client.pub_graph.publish(m)
    client.pub_utterance.publish(Utterance(speaker="alex", text="   "))
    client.published["scene_graphs"] += len(msgs)
    client.published["utterances"] += 1
    client.sync()
    assert node.alive()

    r = client.ask("where is the plate?")
    assert "table_1" in r.answer_ids
    assert not client.ask("where is the vase?").answer_ids
    cup = client.query(store="entities", entity_id="cup_1").records
    assert cup and '"location":null' in cup[0].json
    empty = client.ask("   ")
    assert not empty.success and empty.error
    huge = client.ask("where is the " + "very " * 2000 + "big mug?")
    assert not huge.success and "max_text_length" in huge.error
    assert not client.plan("").success
    assert not client.query(store="nonsense").records

    # diagnostics report the rejections
    from diagnostic_msgs.msg import DiagnosticArray

    seen = []
    sub = client.node.create_subscription(DiagnosticArray, "/diagnostics", seen.append, 10)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any(
            s.name == client.diagnostics_name and any(kv.key == "rejected_scene_graphs" and kv.value == "4"
                                                    for kv in s.values) for d in seen for s in d.status):
        client.spin(0.1)
    client.node.destroy_subscription(sub)
    status = [s for d in seen for s in d.status if s.name == client.diagnostics_name][-1]
    values = {kv.key: kv.value for kv in status.values}
    assert values["rejected_scene_graphs"] == "4" and values["rejected_utterances"] == "1"
    assert node.alive()
