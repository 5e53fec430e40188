"""Issue-4 requests over real DDS: possession, spatial references, as-of "before I moved it", counts,
usability, and the G1 drink path — published as messages, asked over ~/ask and ~/plan."""

from ros_messages import S, T0, entity, graph

from memory_node.core.models import ActivityObservation, SkillFeedbackObservation, UtteranceObservation


def publish_kitchen(client) -> None:
    client.publish_scene_graph(graph(T0, [
        entity("table_1", "table"), entity("counter_1", "counter", x=3.0),
        entity("lemon_1", "lemon", x=0.1), entity("apple_1", "apple", x=0.3), entity("apple_2", "apple", x=3.0),
        entity("cup_1", "cup", x=3.1, color="red"), entity("cup_2", "cup", x=3.2, color="blue"),
        entity("juice_1", "orange juice", x=2.9), entity("milk_1", "milk", x=2.8),
        entity("cabinet_1", "cabinet", x=5.0, states=["closed"]), entity("book_1", "book", x=0.5),
        entity("shelf_1", "shelf", x=6.0),
    ], [("lemon_1", "on", "table_1"), ("apple_1", "on", "table_1"), ("apple_2", "on", "counter_1"),
        ("cup_1", "on", "counter_1"), ("cup_2", "on", "counter_1"), ("juice_1", "on", "counter_1"),
        ("milk_1", "on", "counter_1"), ("book_1", "on", "table_1")]))
    client.publish_utterance(UtteranceObservation(stamp_ns=T0 + 10 * S, speaker="alice",
                                                  text="My cup is the blue one."))
    client.publish_skill_feedback(SkillFeedbackObservation(
        stamp_ns=T0 + 20 * S, robot="g1", skill="open", args=["cabinet_1"], target_id="cabinet_1", success=False,
        status="FAILED", message="the cabinet is locked"))
    client.publish_scene_graph(graph(T0 + 30 * S, [entity("book_1", "book", x=6.0)], [("book_1", "on", "shelf_1")]))
    for k, what in enumerate(("milk_1", "juice_1")):
        client.publish_activity(ActivityObservation(stamp_ns=T0 + (40 + k) * S, actor="alice", verb="pour",
                                                    objects=[what, "cup_2"]))
    client.publish_utterance(UtteranceObservation(stamp_ns=T0 + 50 * S, speaker="alice", text="thank you"))
    client.sync()


def test_questions_over_ask(start_node):
    _, client = start_node("g1")
    publish_kitchen(client)
    assert client.ask("which cup is mine?").answer_ids == ["cup_2"]
    assert client.ask("which apple is next to the lemon?").answer_ids == ["apple_1"]
    assert client.ask("where was the book before I moved it?").answer_ids[0] == "table_1"
    assert client.ask("where is the book?").answer_ids[0] == "shelf_1"
    assert sorted(client.ask("how many apples are there?").answer_ids) == ["apple_1", "apple_2"]
    usable = client.ask("is the cabinet usable?")
    assert usable.answer.startswith("No") and "locked" in usable.answer
    after = client.ask("what happened after you opened the cabinet?")
    assert "book_1 moved" in after.answer and after.evidence_ids
    unknown = client.ask("which teapot is mine?")
    assert unknown.confidence == 0.0 and not unknown.answer_ids


def test_plans_over_plan_for_both_robots(start_node):
    _, client = start_node("g1")
    publish_kitchen(client)
    drink = client.plan("make me a drink")
    assert drink.success, drink.error
    pours = [list(s.args) for s in drink.plan.steps if s.skill == "pour"]
    assert pours == [["milk_1", "cup_2"], ["juice_1", "cup_2"]]
    vega = client.plan("bring me my cup", robot="vega")
    assert vega.success and ["cup_2"] in [list(s.args) for s in vega.plan.steps if s.skill == "pick"]
    # vega has no pour skill: it invents no pouring, it brings a drink it can carry and says why
    brought = client.plan("make me a drink", robot="vega")
    assert brought.success and not any(s.skill == "pour" for s in brought.plan.steps), brought.error
    assert "cannot pour" in brought.plan.explanation


def test_the_speaker_field_says_whose_cup(start_node):
    _, client = start_node("vega")
    publish_kitchen(client)
    client.publish_utterance(UtteranceObservation(stamp_ns=T0 + 60 * S, speaker="bob", text="My cup is the red one."))
    client.sync()
    assert client.ask("which cup is mine?", speaker="alice").answer_ids == ["cup_2"]
    assert client.ask("which cup is mine?").answer_ids == ["cup_1"]  # bob spoke last
    bob = client.plan("bring me my cup", speaker="bob")
    assert bob.success and ["cup_1"] in [list(s.args) for s in bob.plan.steps if s.skill == "pick"]
