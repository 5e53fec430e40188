"""navigate_to on a Vega through its own navigation stack (the nav_stack option): the Vega backend (dexcontrol's
loopback for the base) sends the approach pose as a PoseStamped on the goal topic and waits for the verdict
on the status topic, over real DDS against a stand-in stack (team_navigation_stack.py); and the plan executor
node with that option runs a memory plan end to end."""

from __future__ import annotations

import json
import math
import threading
import time
import uuid

import pytest
from team_navigation_stack import TeamNavigationStack

from memory_node.core.models import Plan, Point, Pose, SkillCall

pytestmark = pytest.mark.usefixtures("vega_sdk")


@pytest.fixture
def rig(ros):
    """make(answer, status_type) -> (backend, stack, executor): the backend's own node spun on a thread,
    as the executor node's is."""
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    from memory_node.execution.executor import PlanExecutor
    from memory_node.execution.vega import VegaBackend, VegaConfig, connect, wheel_odometry
    from memory_node.planning.skills import SkillLibrary
    from memory_node.ros.navigation_stack import NavigationStackClient

    made = []
    node = rclpy.create_node(f"executor_{uuid.uuid4().hex[:8]}")
    spinner = SingleThreadedExecutor()
    spinner.add_node(node)
    threading.Thread(target=spinner.spin, daemon=True).start()
    dex = connect("vega_1_gripper", simulation=True)

    def make(answer="succeeded", status_type="string", answer_wait_s=5.0):
        ns = f"/n{uuid.uuid4().hex[:8]}"
        stack = TeamNavigationStack(f"stack_{ns[1:]}", f"{ns}/goal_pose", f"{ns}/navigation/status",
                                    f"{ns}/navigation/cancel", status_type, answer)
        made.append(stack)
        client = NavigationStackClient(node, f"{ns}/goal_pose", f"{ns}/navigation/status", status_type,
                                       f"{ns}/navigation/cancel")
        backend = VegaBackend(dex, wheel_odometry(dex), VegaConfig(nav_answer_wait_s=answer_wait_s), nav_stack=client)
        feedback = []
        executor = PlanExecutor(backend, feedback.append, step_timeout_s=20, timeouts={"navigate": 20},
                                library=SkillLibrary.for_robot("vega"))
        return executor, stack, feedback

    yield make
    for stack in made:
        stack.close()
    spinner.shutdown(timeout_sec=2.0)
    node.destroy_node()
    dex.shutdown()


GOAL = (2.0, -1.0, 0.7)


def _plan():
    return Plan(robot="vega", instruction="go to the desk", steps=[SkillCall(
        skill="navigate_to", args=["desk_1"], approach=Pose(position=Point(x=GOAL[0], y=GOAL[1], z=0.0), yaw=GOAL[2]))])


@pytest.mark.parametrize("status_type", ["string", "goal_status_array"])
def test_the_goal_goes_to_the_stack_and_its_verdict_ends_the_step(rig, status_type):
    executor, stack, feedback = rig("succeeded", status_type)
    run = executor.execute(_plan(), "p-stack")
    assert run.succeeded, run.reason
    goal = stack.goals[-1]
    assert goal.header.frame_id == "map"
    assert (goal.pose.position.x, goal.pose.position.y) == pytest.approx(GOAL[:2])
    assert 2 * math.atan2(goal.pose.orientation.z, goal.pose.orientation.w) == pytest.approx(GOAL[2])
    # the stack's stale "aborted" of an older goal (goal_status_array) was not taken for this one's: the
    # verdict the executor reports is the one stamped with this goal
    assert "says 'succeeded'" in feedback[-1].message and feedback[-1].success
    print(f"\nvega navigate via a navigation stack ({status_type}): {run.steps[0].seconds * 1000:.0f} ms a step")


def test_the_stacks_failure_silence_and_a_cancel_reach_the_step(rig):
    executor, stack, feedback = rig("aborted")
    run = executor.execute(_plan(), "p-abort")
    assert [s.outcome.status for s in run.steps] == ["not_reached"] and "'aborted'" in feedback[-1].message

    executor, stack, feedback = rig("silent", answer_wait_s=0.5)
    run = executor.execute(_plan(), "p-silent")
    assert [s.outcome.status for s in run.steps] == ["no_server"] and len(stack.goals) == 1

    executor, stack, feedback = rig("hang")
    done = []
    worker = threading.Thread(target=lambda: done.append(executor.execute(_plan(), "p-cancel")))
    worker.start()
    assert stack.goal_arrived.wait(20)
    assert executor.cancel()
    worker.join(20)
    assert [s.outcome.status for s in done[0].steps] == ["cancelled"]
    assert stack.cancelled.wait(10)  # the stack was told to drop the goal


def test_the_executor_node_with_the_navigation_stack_runs_a_memory_plan(start_node, tmp_path, ros):
    """Memory plans "bring me the stapler"; the executor node sends both navigation goals to the stand-in
    stack (goal and status topic names from its parameters) and memory hears every step."""
    from geometry_msgs.msg import Point as PointMsg
    from ros_messages import T0, entity, graph
    from std_msgs.msg import String

    from memory_node.ros.process import PlanExecutorProcess

    proc, client = start_node("vega")
    ns = client.node_name.rsplit("/", 1)[0]
    things = []
    for id, label, x, y, z in [("studio", "room", 0, 0, 0), ("desk_1", "desk", 0.3, 1.6, 0.4),
                               ("stapler_1", "stapler", 0.5, 1.6, 0.85)]:
        e = entity(id, label, room="studio")
        e.position = PointMsg(x=float(x), y=float(y), z=float(z))
        things.append(e)
    client.publish_scene_graph(graph(T0, things, [("stapler_1", "on", "desk_1")], room="studio"))
    client.sync()
    stack = TeamNavigationStack(f"stack_{uuid.uuid4().hex[:8]}", f"{ns}/goal_pose", f"{ns}/navigation/status",
                                f"{ns}/navigation/cancel")
    log = open(tmp_path / "executor.log", "w")
    executor = PlanExecutorProcess("vega", log=log, namespace=ns.strip("/"), memory_node=client.node_name,
                                   **{"pose_source": "wheel_odometry", "dexcontrol.simulation": True,
                                      "dexcontrol.profile": "vega_1_gripper", "navigation": "navigation_stack",
                                      "nav_stack.goal_topic": f"{ns}/goal_pose",
                                      "nav_stack.status_topic": f"{ns}/navigation/status",
                                      "nav_stack.cancel_topic": f"{ns}/navigation/cancel"})
    try:
        results = []
        client.node.create_subscription(String, f"{ns}/plan_executor/results", lambda m: results.append(
            json.loads(m.data)), 10)
        deadline = time.monotonic() + 90
        while client.node.count_subscribers(f"{client.node_name}/plans") < 2 or not results:
            assert executor.alive(), (tmp_path / "executor.log").read_text()
            assert time.monotonic() < deadline, "the plan executor did not come up"
            if client.node.count_subscribers(f"{client.node_name}/plans") >= 2:
                assert client.plan("bring me the stapler", robot="g1").success  # refused: probes the topic
            client.spin(1.0)
        results.clear()
        resp = client.plan("bring me the stapler")
        assert resp.success, resp.error
        while not results:
            assert time.monotonic() < deadline, (tmp_path / "executor.log").read_text()
            client.spin(0.1)
        steps = [(s["skill"], s["status"]) for s in results[0]["steps"]]
        navigations = [s for s in resp.plan.steps if s.skill == "navigate_to"]
        assert steps[0] == ("navigate_to", "succeeded") and len(stack.goals) >= 1
        first = stack.goals[0].pose.position
        assert (first.x, first.y) == pytest.approx((navigations[0].approach.position.x,
                                                    navigations[0].approach.position.y))
        texts = [r.text for r in client.query(store="events", entity_id="desk_1", limit=20).records]
        wait = time.monotonic() + 20
        while not any("navigate_to(desk_1) succeeded" in t for t in texts) and time.monotonic() < wait:
            client.spin(0.1)
            texts = [r.text for r in client.query(store="events", entity_id="desk_1", limit=20).records]
        assert any("navigate_to(desk_1) succeeded" in t and "navigation stack" in t for t in texts), texts
    finally:
        executor.stop()
        stack.close()
        log.close()
