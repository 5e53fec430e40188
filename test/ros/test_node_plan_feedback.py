"""Plan ids over real DDS: the id memory puts in a plan (in ~/plan's answer and on the latched ~/plans) is the
one a controller echoes in skill_feedback, and memory's skill event names that plan; feedback naming a plan
memory never published is stored all the same, flagged and counted, and the node goes on."""

from __future__ import annotations

import json
import time

from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from ros_messages import T0, entity, graph
from test_node_fuzz import diagnostics

from memory_node.msg import Plan, SkillFeedback


def _feedback(skill, args, plan_id="", step=0, success=True):
    return SkillFeedback(robot="vega", skill=skill, args=list(args), target_id=args[0] if args else "",
                         success=success, status="SUCCESS" if success else "EXECUTION_FAILURE",
                         message="controller says so", plan_id=plan_id, step=step)


def _skill_events(client) -> list[dict]:
    records = client.query(store="events", limit=100).records
    return [json.loads(r.json) for r in records if json.loads(r.json).get("kind") == "skill"]


def test_feedback_is_linked_to_the_plan_memory_published(start_node):
    proc, client = start_node("vega")
    client.publish_scene_graph(graph(T0, [entity("kitchen", "room"), entity("counter_1", "counter", x=1.0),
                                          entity("mug_1", "mug", x=1.1)], [("mug_1", "on", "counter_1")]))
    client.sync()
    resp = client.plan("bring me the mug")
    assert resp.success, resp.error
    plan = resp.plan
    assert plan.plan_id and plan.header.stamp.sec > 0

    # a controller that subscribes after the plan was made still gets it, with the same id and stamp
    got: list[Plan] = []
    latched = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    client.node.create_subscription(Plan, f"{client.node_name}/plans", got.append, latched)
    deadline = time.monotonic() + 20
    while not got:
        assert time.monotonic() < deadline, "the latched plan did not reach a late subscriber"
        client.spin(0.05)
    assert (got[-1].plan_id, got[-1].header.stamp) == (plan.plan_id, plan.header.stamp)

    step1 = plan.steps[0]
    client.publish_skill_feedback(_feedback(step1.skill, step1.args, plan.plan_id, step=1))
    client.publish_skill_feedback(_feedback("navigate_to", ["counter_1"], "a-plan-memory-never-made", step=2))
    client.publish_skill_feedback(_feedback("navigate_to", ["counter_1"]))
    client.sync()

    by_plan = {e["data"]["plan_id"]: e for e in _skill_events(client)}
    assert set(by_plan) == {plan.plan_id, "a-plan-memory-never-made", ""}
    linked = by_plan[plan.plan_id]["data"]
    assert (linked["skill"], linked["args"], linked["plan_step"], linked["plan_known"]) == \
        (step1.skill, list(step1.args), 1, True)
    assert by_plan["a-plan-memory-never-made"]["data"]["plan_known"] is False
    assert by_plan[""]["data"]["plan_known"] is None
    status = diagnostics(client)
    assert (status["plans_published"], status["skill_feedback_plan_linked"],
            status["skill_feedback_plan_unknown"], status["rejected_skill_feedback"]) == ("1", "1", "1", "0")
    assert proc.alive() and client.ask("where is the mug?").success
