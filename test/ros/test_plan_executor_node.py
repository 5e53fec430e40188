"""The plan executor node over real DDS: the memory node plans, the executor (dexcontrol's loopback
simulation of a Vega, wheel odometry) runs the plan from ~/plans, and memory stores every step's outcome
from skill_feedback; the e-stop and a plan for another robot over ROS."""

from __future__ import annotations

import json
import queue
import time

import pytest
from geometry_msgs.msg import Point
from rclpy.qos import QoSProfile, ReliabilityPolicy
from ros_messages import T0, entity, graph
from std_msgs.msg import String
from std_srvs.srv import SetBool

pytestmark = pytest.mark.usefixtures("vega_sdk")


def _at(id, label, x, y, z, size="", **attrs):
    e = entity(id, label, room="studio", **attrs)
    e.position = Point(x=x, y=y, z=z)
    if size:
        e.attribute_keys.append("size")
        e.attribute_values.append(size)
    return e


@pytest.fixture
def loop(start_node, tmp_path, request):
    from memory_node.ros.process import PlanExecutorProcess

    overrides = getattr(request, "param", {})
    proc, client = start_node("vega")
    ns = client.node_name.rsplit("/", 1)[0]
    client.publish_scene_graph(graph(T0, [
        _at("studio", "room", 0.0, 0.0, 0.0),
        _at("desk_1", "desk", 0.3, 1.6, 0.4, size="1.2,0.6,0.8"),
        _at("stapler_1", "stapler", 0.5, 1.6, 0.85, size="0.15,0.05,0.05"),
        _at("locker_1", "cabinet", -1.2, 1.5, 0.6, size="0.6,0.5,1.2", states=["closed"]),
    ], [("stapler_1", "on", "desk_1")], room="studio"))
    client.sync()
    log = open(tmp_path / "executor.log", "w")
    executor = PlanExecutorProcess("vega", log=log, namespace=ns, memory_node=client.node_name,
                                   **{"pose_source": "wheel_odometry", "max_linear_speed": 0.8, "max_angular_speed": 1.0,
                                      "dexcontrol.simulation": True, "dexcontrol.profile": "vega_1_gripper",
                                      **overrides})
    results: queue.Queue[dict] = queue.Queue()
    client.node.create_subscription(String, f"{ns}/plan_executor/results", lambda m: results.put(json.loads(m.data)),
                                    QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE))
    estop = client.node.create_client(SetBool, f"{ns}/plan_executor/estop")
    deadline = time.monotonic() + 60
    # ready: its ~/estop answers and it subscribes to ~/plans next to this client
    while not estop.service_is_ready() or client.node.count_subscribers(f"{client.node_name}/plans") < 2:
        assert executor.alive(), (tmp_path / "executor.log").read_text()
        assert time.monotonic() < deadline, "the plan executor did not come up"
        client.spin(0.1)
    # ~/plans is volatile: a plan published before memory's publisher has matched the executor's subscription
    # is lost. Probe with plans for another robot (refused: nothing runs, nothing reaches memory) until one
    # comes back as a result.
    while results.empty():
        assert time.monotonic() < deadline, "no plan reached the executor"
        assert client.plan("bring me the stapler", robot="g1").success
        client.spin(1.0)
    while not results.empty():
        assert results.get()["status"] == "refused"
    yield client, results, estop
    executor.stop()
    log.close()


def _next(client, results, timeout=90.0) -> dict:
    deadline = time.monotonic() + timeout
    while results.empty():
        assert time.monotonic() < deadline, "no plan result"
        client.spin(0.05)
    return results.get()


def _skill_events(client, entity_id, wanted: int, timeout=20.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while True:
        texts = sorted(r.text for r in client.query(store="events", entity_id=entity_id, limit=100).records
                       if json.loads(r.json).get("kind") == "skill")
        if len(texts) >= wanted or time.monotonic() > deadline:
            return texts
        client.spin(0.1)


def _call(client, srv, value: bool):
    future = srv.call_async(SetBool.Request(data=value))
    deadline = time.monotonic() + 10
    while not future.done():
        assert time.monotonic() < deadline
        client.spin(0.05)
    return future.result()


def test_a_plan_runs_through_the_executor_and_memory_learns_each_step(loop):
    client, results, estop = loop
    resp = client.plan("bring me the stapler")
    assert resp.success, resp.error
    assert [s.skill for s in resp.plan.steps][:2] == ["navigate_to", "pick"]
    result = _next(client, results)
    # the Vega drives to memory's approach pose; dexcontrol has no grasping: the plan stops at pick
    assert result["status"] == "failed" and result["robot"] == "vega"
    assert [(s["skill"], s["status"]) for s in result["steps"]] == [("navigate_to", "succeeded"),
                                                                    ("pick", "not_offered")]
    assert result["steps_total"] == len(resp.plan.steps)
    print(f"\nexecutor over ROS: navigate_to {result['steps'][0]['seconds']:.2f} s "
          f"({result['steps'][0]['message']}), pick {result['steps'][1]['seconds']:.3f} s")
    # the executor ran the plan under memory's id, and memory links each step's event to that plan
    assert result["plan_id"] == resp.plan.plan_id
    events = _skill_events(client, "stapler_1", 1)
    assert any("pick(stapler_1) failed (not_offered)" in t and result["plan_id"] in t for t in events), events
    steps = {(d["data"]["skill"], d["data"]["plan_id"], d["data"]["plan_step"], d["data"]["plan_known"])
             for d in (json.loads(r.json) for r in client.query(store="events", limit=100).records)
             if d.get("kind") == "skill"}
    assert steps == {("navigate_to", resp.plan.plan_id, 1, True), ("pick", resp.plan.plan_id, 2, True)}, steps
    assert any("navigate_to(desk_1) succeeded" in t for t in _skill_events(client, "desk_1", 1))


def test_under_estop_the_first_step_is_refused_memory_hears_it_and_no_lock_is_learned(loop):
    client, results, estop = loop
    assert _call(client, estop, True).success
    resp = client.plan("open the cabinet")
    assert resp.success, resp.error
    result = _next(client, results)
    assert [(s["skill"], s["status"]) for s in result["steps"]] == [("navigate_to", "estop")]
    events = _skill_events(client, "locker_1", 1)
    assert any("navigate_to(locker_1) failed (estop)" in t for t in events), events
    # an e-stop is not a lock: memory still has the cabinet closed and not locked
    cabinet = json.loads(client.query(store="entities", entity_id="locker_1").records[0].json)
    assert "locked" not in cabinet["states"] and "closed" in cabinet["states"]
    assert _call(client, estop, False).success
    # released: the next plan moves again (dexcontrol refuses open, and says so)
    resp = client.plan("open the cabinet")
    assert resp.success, resp.error
    result = _next(client, results)
    assert [(s["skill"], s["status"]) for s in result["steps"]] == [("navigate_to", "succeeded"),
                                                                    ("open", "not_offered")]


def test_a_plan_for_another_robot_is_refused_and_nothing_reaches_memory(loop):
    client, results, estop = loop
    resp = client.plan("bring me the stapler", robot="g1")
    assert resp.success, resp.error
    result = _next(client, results)
    assert result["status"] == "refused" and "g1" in result["reason"] and result["steps_run"] == 0
    assert _skill_events(client, "stapler_1", 1, timeout=1.0) == []


@pytest.mark.parametrize("loop", [{"navigate_timeout_s": 0.3, "max_linear_speed": 0.05}], indirect=True)
def test_a_step_past_its_timeout_reaches_memory_as_a_timeout(loop):
    client, results, estop = loop
    assert client.plan("bring me the stapler").success
    result = _next(client, results)
    assert [(s["skill"], s["status"]) for s in result["steps"]] == [("navigate_to", "timeout")]
    assert any("navigate_to(desk_1) failed (timeout)" in t for t in _skill_events(client, "desk_1", 1))
