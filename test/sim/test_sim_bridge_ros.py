"""The Genesis bridge through the real memory node over DDS: a shipped scenario end to end (experience,
requests over ~/ask and ~/plan, open-loop execution, grading on the simulator's state), and the sensor
topics the bridge publishes arriving at the node."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")


@pytest.fixture
def bridge(world, start_node):
    from memory_node.ros.genesis_bridge import SimBridge

    node, client = start_node("vega")
    b = SimBridge(world, client)
    b.publish_map()
    return b


def test_moved_twice_scenario_end_to_end(bridge) -> None:
    from memory_node.ros.sim_scenario import run_scenario
    from memory_node.sim.scenario import load_scenario

    report = run_scenario(load_scenario("moved_twice"), bridge)
    failed = [(o.request, o.reply, o.executed, o.why) for o in report.outcomes if not o.passed]
    assert not failed, failed
    # the plan really ran in the simulator: the mug left the coffee table with the person
    mug = bridge.world.state.bodies["mug_431"]
    assert (mug.relation, mug.parent) == ("held_by", "user")
    # and memory heard every skill: the last feedback is the handover
    events = bridge.memory.query(store="events", entity_id="mug_431").records
    assert any("handover(mug_431) succeeded" in e.text for e in events)


def test_sensor_topics_reach_the_node(bridge) -> None:
    bridge.execute("navigate_to", ["kitchentable_226"], look=False)
    graph = bridge.look()
    assert "kitchentable_226" in {e.id for e in graph.entities}
    resp = bridge.memory.sync(timeout=10)
    assert resp.reached
    bridge.memory.spin(0.5)  # best-effort camera topics: give them a moment
    counts = bridge.memory.sync(timeout=10, check=False)
    assert counts.images >= 1
    seen = bridge.memory.query(store="entities", entity_id="kitchentable_226").records
    assert seen, "the scene graph the bridge published is in memory"
    frames = bridge.memory.query(store="frames").records
    assert frames, "the camera image became a memory frame"


def test_a_failed_skill_is_published_and_remembered(bridge) -> None:
    bridge.execute("navigate_to", ["cabinet_399"], look=False)
    outcome = bridge.execute("open", ["cabinet_399"])
    assert not outcome.success and outcome.status == "locked"
    bridge.memory.sync(timeout=10)
    answer = bridge.memory.ask("is the cabinet locked?")
    assert answer.answer.lower().startswith("yes")


def test_open_loop_execution_stops_at_the_first_failure(bridge) -> None:
    """A plan with an invented id (what a hostile or broken planner could send on ~/plans) fails at that
    step with a reason; nothing after it runs, and memory hears the failure."""
    steps = [("navigate_to", ["coffeetable_355"]), ("pick", ["unicorn_1"]), ("pick", ["apple_421"])]
    done = bridge.execute_plan(steps)
    assert [o.success for o in done] == [True, False]
    assert done[-1].status == "not_found"
    assert bridge.world.state.holding() == []  # the apple was never picked
    bridge.memory.sync(timeout=10)
    events = bridge.memory.query(store="events", text="unicorn_1").records
    assert any("failed" in e.text for e in events)


def test_live_mode_executes_the_plans_the_node_publishes(bridge) -> None:
    """Live mode: ~/plan on the node publishes the plan on ~/plans; the bridge's follower runs it in the
    simulator without being asked, and memory hears the outcome."""
    import logging
    import threading
    import time

    from memory_node.ros.genesis_bridge import PlanFollower

    bridge.execute("navigate_to", ["coffeetable_355"], look=False)
    bridge.look()
    # requests are served beside ingestion (their own worker and connection): what was published is waited
    # for, as the contract's clients do, before asking about it
    bridge.memory.sync(timeout=30)
    follower = PlanFollower(bridge, bridge.memory.node_name, threading.Lock(), logging.getLogger("test"))
    try:
        plan = bridge.memory.plan("bring me the cellphone")
        assert plan.success, plan.error
        deadline = time.monotonic() + 20
        while not follower.results and time.monotonic() < deadline:
            bridge.memory.spin(0.1)
        (instruction, done), = follower.results
        assert instruction == "bring me the cellphone" and all(o.success for o in done)
        assert len(done) == len(plan.plan.steps)
        assert bridge.world.state.bodies["cellphone_433"].parent == "user"
        # memory links each step's outcome to the plan it published (plan_id echoed in skill_feedback)
        bridge.memory.sync(timeout=30)
        events = [json.loads(r.json) for r in bridge.memory.query(store="events", limit=200).records]
        steps = sorted(e["data"]["plan_step"] for e in events if e["kind"] == "skill"
                       and e["data"]["plan_id"] == plan.plan.plan_id and e["data"]["plan_known"])
        assert steps == list(range(1, len(done) + 1)), steps
    finally:
        follower.stop()


def test_plans_run_from_their_approach_poses(bridge) -> None:
    """The bridge drives to the plan's approach poses (memory's) instead of looking the ids up again; a
    navigation step whose pose is NaN falls back to the simulator's own lookup, and its feedback says so."""
    import math

    from memory_node.ros.genesis_bridge import NO_APPROACH, plan_steps

    bridge.execute("navigate_to", ["coffeetable_355"], look=False)
    bridge.look(around=True)  # memory sees the whole living room
    bridge.memory.sync(timeout=10)
    resp = bridge.memory.plan("go to the cabinet")
    assert resp.success, resp.error
    steps, approaches = plan_steps(resp.plan)
    assert steps == [("navigate_to", ["cabinet_399"])] and approaches[0] is not None
    (done,) = bridge.execute_plan(steps, approaches)
    assert done.success and "approach pose" in done.message, done.message
    r = bridge.world.state.robot
    x, y, yaw = approaches[0]
    assert math.dist((r.x, r.y), (x, y)) <= 0.5 and r.yaw == yaw
    (fallback,) = bridge.execute_plan([("navigate_to", ["coffeetable_355"])], [None])
    assert fallback.success and NO_APPROACH in fallback.message
