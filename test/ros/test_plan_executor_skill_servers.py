"""A team's own skill servers behind the plan executor, over real DDS: the memory node plans, the executor
(dexcontrol's loopback Vega for the base and the arm pose, wheel odometry) runs navigation on the SDK and
sends pick/open/close to real rclpy action and service servers standing in for the team's
(team_skill_server.py), and every outcome — success, a server's failure, a timeout, a cancel, an e-stop —
reaches memory on skill_feedback."""

from __future__ import annotations

import json
import queue
import time
import uuid

import pytest
from geometry_msgs.msg import Point
from rclpy.qos import QoSProfile, ReliabilityPolicy
from ros_messages import T0, entity, graph
from std_msgs.msg import String
from std_srvs.srv import SetBool, Trigger
from team_skill_server import TeamSkillServer

pytestmark = pytest.mark.usefixtures("vega_sdk")


def _at(id, label, x, y, z, size="", **attrs):
    e = entity(id, label, room="studio", **attrs)
    e.position = Point(x=x, y=y, z=z)
    if size:
        e.attribute_keys.append("size")
        e.attribute_values.append(size)
    return e


@pytest.fixture
def team(ros):
    server = TeamSkillServer(f"team_{uuid.uuid4().hex[:8]}")
    yield server
    server.close()


def _loop(start_node, tmp_path, team, servers: str, behaviours: dict[str, str]):
    from memory_node.ros.process import PlanExecutorProcess

    proc, client = start_node("vega")
    ns = client.node_name.rsplit("/", 1)[0]
    client.publish_scene_graph(graph(T0, [
        _at("studio", "room", 0.0, 0.0, 0.0),
        _at("desk_1", "desk", 0.3, 1.6, 0.4, size="1.2,0.6,0.8"),
        _at("stapler_1", "stapler", 0.5, 1.6, 0.85, size="0.15,0.05,0.05"),
        _at("locker_1", "cabinet", -1.2, 1.5, 0.6, size="0.6,0.5,1.2", states=["closed"]),
    ], [("stapler_1", "on", "desk_1")], room="studio"))
    client.sync()
    for name, how in behaviours.items():
        kind, _, behaviour = how.partition(" ")
        getattr(team, kind)(f"{ns}/team/{name}", behaviour or "succeed")
    skill_map = tmp_path / "skill_servers.yaml"
    skill_map.write_text("robot: vega\nservers:\n" + servers.replace("NS", ns))
    log = open(tmp_path / "executor.log", "w")
    executor = PlanExecutorProcess("vega", log=log, namespace=ns.strip("/"), memory_node=client.node_name,
                                   **{"pose_source": "wheel_odometry", "max_linear_speed": 0.8, "max_angular_speed": 1.0,
                                      "dexcontrol.simulation": True, "dexcontrol.profile": "vega_1_gripper",
                                      "skill_servers": str(skill_map)})
    results: queue.Queue[dict] = queue.Queue()
    client.node.create_subscription(String, f"{ns}/plan_executor/results", lambda m: results.put(json.loads(m.data)),
                                    QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE))
    estop = client.node.create_client(SetBool, f"{ns}/plan_executor/estop")
    cancel = client.node.create_client(Trigger, f"{ns}/plan_executor/cancel")
    deadline = time.monotonic() + 60
    while not estop.service_is_ready() or client.node.count_subscribers(f"{client.node_name}/plans") < 2:
        assert executor.alive(), (tmp_path / "executor.log").read_text()
        assert time.monotonic() < deadline, "the plan executor did not come up"
        client.spin(0.1)
    while results.empty():  # ~/plans is volatile: probe with refused plans until one reaches the executor
        assert time.monotonic() < deadline, "no plan reached the executor"
        assert client.plan("bring me the stapler", robot="g1").success
        client.spin(1.0)
    while not results.empty():
        assert results.get()["status"] == "refused"
    return client, results, estop, cancel, executor, log


@pytest.fixture
def loop(start_node, tmp_path, team, request):
    servers, behaviours = request.param
    client, results, estop, cancel, executor, log = _loop(start_node, tmp_path, team, servers, behaviours)
    yield client, results, estop, cancel
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


def _call(client, srv, request):
    future = srv.call_async(request)
    deadline = time.monotonic() + 10
    while not future.done():
        assert time.monotonic() < deadline
        client.spin(0.05)
    return future.result()


def _steps(result: dict) -> list[tuple[str, str]]:
    return [(s["skill"], s["status"]) for s in result["steps"]]


PICK_ACTION = "  pick: {action: NS/team/pick, timeout_s: 20, parameters: {arm: right, grasp: top}}\n"


@pytest.mark.parametrize("loop", [(PICK_ACTION, {"pick": "action"})], indirect=True)
def test_bring_me_runs_end_to_end_with_pick_on_the_teams_action_server(loop, team):
    client, results, estop, cancel = loop
    resp = client.plan("bring me the stapler")
    assert resp.success, resp.error
    skills = [s.skill for s in resp.plan.steps]
    assert "pick" in skills and skills[0] == "navigate_to"
    result = _next(client, results)
    # navigation and the handover on dexcontrol, the pick on the team's server: every step done
    assert result["status"] == "succeeded", result
    assert _steps(result) == [(s, "succeeded") for s in skills]
    pick = result["steps"][skills.index("pick")]
    assert pick["message"].startswith("action ") and "/team/pick: " in pick["message"]
    # the goal carried the plan's step as memory planned it, and the map's parameters
    got = [r for r in team.received if r.server.endswith("/team/pick")]
    assert len(got) == 1
    goal = got[0]
    assert goal.plan_id == result["plan_id"] and goal.step == skills.index("pick") + 1
    assert goal.skill == "pick" and goal.args == ["stapler_1"]
    assert goal.positions == [pytest.approx((0.5, 1.6, 0.85))]
    assert goal.parameters == {"arm": "right", "grasp": "top"}
    events = _skill_events(client, "stapler_1", 1)
    assert any("pick(stapler_1) succeeded" in t and result["plan_id"] in t for t in events), events
    print("\nskill servers, end to end: " + ", ".join(f"{s['skill']} {s['seconds']:.3f} s" for s in result["steps"]))


@pytest.mark.parametrize("loop", [(PICK_ACTION, {"pick": "action fail:no_grasp:the stapler slipped out of the gripper"})],
                         indirect=True)
def test_a_failure_the_server_reports_reaches_memory_with_its_status(loop, team):
    client, results, estop, cancel = loop
    assert client.plan("bring me the stapler").success
    result = _next(client, results)
    assert _steps(result)[-2:] == [("navigate_to", "succeeded"), ("pick", "no_grasp")]
    assert "slipped out of the gripper" in result["steps"][-1]["message"]
    assert "last feedback: approach (25%)" in result["steps"][-1]["message"]
    events = _skill_events(client, "stapler_1", 1)
    assert any("pick(stapler_1) failed (no_grasp)" in t and "slipped" in t for t in events), events


@pytest.mark.parametrize("loop", [("  pick: {action: NS/team/pick, timeout_s: 1.5}\n", {"pick": "action hang"})],
                         indirect=True)
def test_a_goal_past_its_timeout_is_cancelled_on_the_server_and_memory_hears_timeout(loop, team):
    client, results, estop, cancel = loop
    assert client.plan("bring me the stapler").success
    result = _next(client, results)
    assert _steps(result)[-1] == ("pick", "timeout")
    assert team.cancel_arrived.wait(10) and team.cancels[-1].endswith("/team/pick")
    assert any("pick(stapler_1) failed (timeout)" in t for t in _skill_events(client, "stapler_1", 1))


@pytest.mark.parametrize("loop", [(PICK_ACTION, {"pick": "action hang"})], indirect=True)
@pytest.mark.parametrize("how", ["cancel", "estop"])
def test_cancel_and_estop_cancel_the_running_goal_and_reach_memory(loop, team, how):
    client, results, estop, cancel = loop
    assert client.plan("bring me the stapler").success
    deadline = time.monotonic() + 60
    while not team.goal_arrived.is_set():  # the pick goal is running on the team's server
        assert time.monotonic() < deadline, "the pick goal never reached the server"
        client.spin(0.05)
    reply = _call(client, cancel, Trigger.Request()) if how == "cancel" else _call(client, estop, SetBool.Request(data=True))
    assert reply.success, reply.message
    result = _next(client, results)
    status = "cancelled" if how == "cancel" else "estop"
    assert _steps(result)[-1] == ("pick", status)
    assert team.cancel_arrived.wait(10) and team.cancels == [team.received[-1].server]
    assert any(f"pick(stapler_1) failed ({status})" in t for t in _skill_events(client, "stapler_1", 1))


OPEN_SERVICE = "  open: {service: NS/team/open}\n"


@pytest.mark.parametrize("loop", [(OPEN_SERVICE, {"open": "service fail:locked:the door does not move"})],
                         indirect=True)
def test_a_service_server_saying_locked_teaches_memory_the_lock(loop, team):
    client, results, estop, cancel = loop
    resp = client.plan("open the cabinet")
    assert resp.success, resp.error
    result = _next(client, results)
    assert _steps(result) == [("navigate_to", "succeeded"), ("open", "locked")]
    assert team.received[-1].args == ["locker_1"] and team.received[-1].step == 2
    assert any("open(locker_1) failed (locked)" in t for t in _skill_events(client, "locker_1", 2))
    cabinet = json.loads(client.query(store="entities", entity_id="locker_1").records[0].json)
    assert "locked" in cabinet["states"]


# ---- the backend alone (its node spun on a thread as the executor node's is), no memory node -------------

@pytest.fixture
def backend_on(ros, team):
    import threading

    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    from memory_node.execution.skill_servers import SkillServerMap
    from memory_node.ros.skill_server_backend import SkillServerBackend

    node = rclpy.create_node(f"executor_{uuid.uuid4().hex[:8]}")
    spinner = SingleThreadedExecutor()
    spinner.add_node(node)
    thread = threading.Thread(target=spinner.spin, daemon=True)
    thread.start()
    prefix = f"/b{uuid.uuid4().hex[:8]}"

    def make(servers: str):
        return SkillServerBackend(node, "vega", SkillServerMap.model_validate(
            {"robot": "vega", "servers": json.loads(servers.replace("NS", prefix))})), prefix

    yield make
    spinner.shutdown(timeout_sec=2.0)
    node.destroy_node()


def _step(skill, *args):
    from memory_node.execution.backend import StepRequest

    return StepRequest(skill, tuple(args), role=skill, arg_positions=tuple(None for _ in args), plan_id="p7", index=3)


def _ctx(seconds=30.0):  # a step's own deadline; generous, so a loaded machine's slow discovery is no timeout
    from memory_node.execution.backend import StepContext

    return StepContext(deadline=time.monotonic() + seconds)


def test_no_server_under_the_name_fails_the_step_as_no_server(backend_on):
    backend, _ = backend_on('{"pick": {"action": "NS/nobody/pick", "server_wait_s": 0.3}}')
    out = backend.run(_step("pick", "cup_1"), _ctx())
    assert not out.success and out.status == "no_server" and "/nobody/pick" in out.message


def test_a_rejected_goal_and_a_trigger_server_and_a_nan_position(backend_on, team):
    backend, ns = backend_on('{"pick": {"action": "NS/pick"}, "close": {"service": "NS/close", '
                             '"type": "std_srvs/srv/Trigger"}, "open": {"service": "NS/open"}}')
    team.action(f"{ns}/pick", "reject")
    team.trigger(f"{ns}/close", "fail:x:the gripper is jammed")
    team.service(f"{ns}/open")
    out = backend.run(_step("pick", "cup_1"), _ctx())
    assert (out.success, out.status) == (False, "rejected") and "rejected the goal" in out.message
    out = backend.run(_step("close", "drawer_1"), _ctx())
    assert (out.success, out.status) == (False, "failed") and out.message.endswith("the gripper is jammed")
    out = backend.run(_step("open", "drawer_1"), _ctx())
    assert out.success and out.status == "succeeded", out
    sent = team.received[-1]
    assert (sent.plan_id, sent.step, sent.args) == ("p7", 3, ["drawer_1"])
    assert all(v != v for v in sent.positions[0])  # NaN: memory knew no position
    assert all(v != v for v in sent.approach)  # NaN: not a navigation step


def test_a_service_call_past_the_deadline_says_it_cannot_be_cancelled(backend_on, team):
    from memory_node.execution.backend import StepAborted

    backend, ns = backend_on('{"open": {"service": "NS/open"}}')
    team.service(f"{ns}/open", "succeed")
    team.behaviour[f"{ns}/open"] = "succeed"
    # a service that never answers in time: the team server's node is busy (hold its only answer)
    import threading

    hold = threading.Event()
    original = team._serve

    def slow(name, req, resp):
        hold.wait(10)
        return original(name, req, resp)

    team._serve = slow
    with pytest.raises(StepAborted) as aborted:
        backend.run(_step("open", "drawer_1"), _ctx(0.5))
    hold.set()
    assert aborted.value.status == "timeout" and "cannot be cancelled" in aborted.value.message
