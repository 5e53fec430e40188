"""Safe beside a real robot, through the real node over real DDS: parameters that change or refuse (rclpy's
parameter services, what `ros2 param set/get` call), one writer per database, the ready line, diagnostics
named with the namespace, plans a late controller still gets, and skill feedback that moves things."""

import subprocess
import time

import pytest
import rclpy
from rcl_interfaces.msg import ParameterType
from rclpy.parameter import Parameter
from rclpy.parameter_client import AsyncParameterClient
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

from memory_node.msg import Plan, SkillFeedback
from memory_node.ros.conversions import ns_to_stamp
from memory_node.ros.process import NodeProcess, node_command
from ros_messages import S, T0, entity, graph


def _wait(client, future, timeout=20.0):
    end = time.monotonic() + timeout
    while not future.done():
        assert time.monotonic() < end, "no answer from the node's parameter service"
        client.spin(0.05)
    return future.result()


@pytest.fixture
def params(start_node, tmp_path):
    node, client = start_node(database_path=tmp_path / "p" / "memory.db")
    pc = AsyncParameterClient(client.node, client.node_name)
    assert pc.wait_for_services(timeout_sec=20)

    def set_(name, value):
        (result,) = _wait(client, pc.set_parameters([Parameter(name, value=value)])).results
        return result

    def get(name):
        (value,) = _wait(client, pc.get_parameters([name])).values
        return value

    return node, client, set_, get


def test_param_set_refuses_out_of_range_wrong_type_and_read_only_with_a_reason(params):
    node, client, set_, get = params
    r = set_("frames.jpeg_quality", 500)
    assert not r.successful and "out of range" in r.reason
    r = set_("jpeg_quality", 500)  # no such parameter (the spelling): not "successful" either
    assert not r.successful
    r = set_("frames.jpeg_quality", "high")
    assert not r.successful and "type" in r.reason.lower()
    r = set_("qos.event_depth", 5)  # shapes subscriptions made at start-up
    assert not r.successful and "read-only" in r.reason
    r = set_("database_path", "/tmp/elsewhere.db")
    assert not r.successful and "read-only" in r.reason
    assert get("frames.jpeg_quality").integer_value == 85  # nothing of the refused sets stuck
    assert node.alive()


def test_a_runtime_parameter_takes_effect_and_an_integer_passes_for_a_double(params):
    node, client, set_, get = params
    assert client.ask("where is the mug?").success
    assert set_("limits.max_text_length", 10).successful
    refused = client.ask("where is the mug?")  # 17 characters
    assert not refused.success and "limits.max_text_length (10)" in refused.error
    assert set_("limits.max_text_length", 4000).successful
    assert client.ask("where is the mug?").success
    r = set_("association_radius", 2)  # an integer where a double is declared
    assert r.successful, r.reason
    value = get("association_radius")
    assert value.type == ParameterType.PARAMETER_DOUBLE and value.double_value == 2.0


def test_database_path_reads_back_the_file_in_use(params, tmp_path):
    _, _, _, get = params
    assert get("database_path").string_value == str(tmp_path / "p" / "memory.db")


def test_database_path_reads_back_the_default_when_none_was_given(ros, tmp_path):
    from memory_node.ros.client import MemoryClient

    ros_home = tmp_path / "ros_home"
    with open(tmp_path / "default.log", "w") as log, \
            NodeProcess("vega", log=log, namespace="default_db", env={"ROS_HOME": str(ros_home)}) as node:
        client = MemoryClient(node_name="/default_db/memory_node", namespace="/default_db", client_name="c_default")
        try:
            client.wait_for_node(timeout=30, alive=node.alive)
            pc = AsyncParameterClient(client.node, client.node_name)
            assert pc.wait_for_services(timeout_sec=20)
            (value,) = _wait(client, pc.get_parameters(["database_path"])).values
        finally:
            client.close()
    assert value.string_value == str(ros_home / "memory_node" / "vega.db")
    assert (ros_home / "memory_node" / "vega.db").is_file()


def _run_to_exit(tmp_path, name, robot=None, params_file=None, **overrides):
    """Start the installed node and wait for it to end by itself (it must refuse to start)."""
    cmd = node_command("vega", namespace=f"{name}_{time.monotonic_ns()}", **overrides)
    if robot is not None:  # after the params file's robot, as `-p robot:=...` on a command line
        cmd += ["-p", f"robot:={robot}"]
    if params_file is not None:  # a second params file, as a launch file's overrides are passed
        cmd += ["--params-file", str(params_file)]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=90)
    return done.returncode, done.stdout


def test_a_second_node_on_the_same_database_refuses_to_start(start_node, tmp_path):
    db = tmp_path / "shared.db"
    first, client = start_node(database_path=db)
    code, log = _run_to_exit(tmp_path, "second", database_path=str(db))
    assert code == 1
    assert "already open for writing by another process" in log and "Traceback" not in log
    assert first.alive() and client.ask("where is the mug?").success
    first.stop()  # the lock goes with the process: the file can be opened again at once
    _, again = start_node(database_path=db)
    assert again.ask("where is the mug?").success


@pytest.mark.parametrize("overrides,expected", [
    ({"robot": "spot"}, "robots with a skill library: g1, vega"),
    ({"frames.jpeg_quality": 500}, "frames.jpeg_quality: 500 is outside 1..100"),
    # (rcl itself drops a `-p` whose type differs from the params file's; a params file's value reaches the node)
    ({"params_file": "frames:\n      similarity_threshold: high"}, "frames.similarity_threshold: 'high' is a string"),
])
def test_bad_start_up_values_end_in_one_line(tmp_path, ros, overrides, expected):
    if "params_file" in overrides:
        path = tmp_path / "bad.yaml"
        path.write_text(f"/**:\n  ros__parameters:\n    {overrides['params_file']}\n")
        overrides = {"params_file": path}
    code, log = _run_to_exit(tmp_path, "bad", database_path=str(tmp_path / "bad.db"), **overrides)
    assert code == 1 and expected in log and "Traceback" not in log, log


def test_an_unusable_database_path_ends_in_one_line(tmp_path, ros):
    not_memory = tmp_path / "notes.db"
    not_memory.write_text("this is not a database\n" * 100)
    code, log = _run_to_exit(tmp_path, "notdb", database_path=str(not_memory))
    assert code == 1 and "is not a memory database" in log and "Traceback" not in log, log
    code, log = _run_to_exit(tmp_path, "dir", database_path=str(tmp_path))
    assert code == 1 and "Traceback" not in log and str(tmp_path) in log, log


def test_an_integer_for_a_double_is_taken_at_start_up(start_node, tmp_path):
    node, client = start_node(**{"frames.similarity_threshold": 3})
    assert node.alive() and client.ask("where is the mug?").success


def test_ready_line_and_diagnostics_named_with_the_namespace(start_node, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray

    node, client = start_node(namespace="robot_a")
    seen = []
    sub = client.node.create_subscription(DiagnosticArray, "/diagnostics", seen.append, 10)
    end = time.monotonic() + 20
    while time.monotonic() < end and not any(s.name == "robot_a/memory_node: memory" for d in seen for s in d.status):
        client.spin(0.1)
    client.node.destroy_subscription(sub)
    assert any(s.name == "robot_a/memory_node: memory" for d in seen for s in d.status)
    log = (tmp_path / "node_0.log").read_text()
    assert "memory_node ready: serving ask/plan/query/scene_graph/forget/sync on /robot_a/memory_node/" in log
    assert "\x1b[" not in log  # no colour codes when the output is not a terminal


def _kitchen(client, t):
    client.pub_graph.publish(graph(t, [entity("kitchen", "room"), entity("table_1", "table", x=1),
                                       entity("plate_1", "plate", x=1), entity("cabinet_1", "cabinet", x=2,
                                                                                 states=["closed"])],
                                   [("plate_1", "on", "table_1")]))
    client.published["scene_graphs"] += 1
    client.sync(timeout=10)


def _feedback(client, t, skill, args, success=True):
    msg = SkillFeedback(robot="vega", skill=skill, args=args, target_id=args[0], success=success,
                        status="SUCCESS" if success else "EXECUTION_FAILURE")
    msg.header.stamp = ns_to_stamp(t)
    client.pub_feedback.publish(msg)
    client.published["skill_feedback"] += 1
    client.sync(timeout=10)


def test_skill_feedback_moves_things_and_the_next_answer_says_so(start_node):
    _, client = start_node()
    _kitchen(client, T0)
    assert "table_1" in client.ask("where is the plate?").answer_ids
    _feedback(client, T0 + 5 * S, "pick", ["plate_1"], success=False)
    assert "table_1" in client.ask("where is the plate?").answer_ids  # a failure moves nothing
    _feedback(client, T0 + 10 * S, "pick", ["plate_1"])
    held = client.ask("where is the plate?")
    assert "held by" in held.answer and "table_1" not in held.answer_ids, held.answer
    _feedback(client, T0 + 20 * S, "place", ["plate_1", "cabinet_1"])
    placed = client.ask("where is the plate?")
    assert "cabinet_1" in placed.answer_ids and " in the cabinet" in placed.answer, placed.answer
    _feedback(client, T0 + 30 * S, "pick", ["plate_1"])
    _feedback(client, T0 + 40 * S, "handover", ["plate_1"])
    gone = client.ask("where is the plate?")
    assert "cabinet_1" not in gone.answer_ids and "held by" not in gone.answer, gone.answer
    moves = client.query(store="events", entity_id="plate_1", limit=50).records
    assert sum("pick succeeded" in r.text for r in moves) == 2
    assert any("handover succeeded" in r.text for r in moves)


def test_a_controller_that_joins_late_still_gets_the_latest_plan(start_node):
    _, client = start_node()
    _kitchen(client, T0)
    made = client.plan("bring me the plate")
    assert made.success, made.error
    # a controller that starts after the plan was made: reliable + transient local gets it
    late = []
    qos = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    client.node.create_subscription(Plan, f"{client.node_name}/plans", late.append, qos)
    end = time.monotonic() + 10
    while time.monotonic() < end and not late:
        client.spin(0.05)
    assert late and [s.skill for s in late[-1].steps] == [s.skill for s in made.plan.steps]
    (info,) = client.node.get_publishers_info_by_topic(f"{client.node_name}/plans")
    assert info.qos_profile.durability == DurabilityPolicy.TRANSIENT_LOCAL
    assert info.qos_profile.reliability == ReliabilityPolicy.RELIABLE
    # a volatile subscriber with depth 10, as the Genesis bridge's PlanFollower (it must not re-run an old
    # plan) and this client subscribe, still matches and got it live
    assert [p.header.stamp for p in client.plans] == [made.plan.header.stamp]


def test_perception_takes_an_integer_for_a_double_and_refuses_run_time_sets(ros, tmp_path):
    """`-p lifting.depth_edge_steps:=0` (declared a double) ended the perception node in a traceback."""
    import uuid

    from rclpy.node import Node

    from memory_node.ros.process import PerceptionProcess

    ns = f"p{uuid.uuid4().hex[:8]}"
    probe = Node(f"probe_{ns}")

    class _Spin:  # what _wait needs of a client
        def spin(self, seconds):
            rclpy.spin_once(probe, timeout_sec=seconds)

    try:
        with open(tmp_path / "perception.log", "w") as log, \
                PerceptionProcess(log=log, namespace=ns, **{"lifting.depth_edge_steps": 0}) as proc:
            pc = AsyncParameterClient(probe, f"/{ns}/perception")
            # the parameter services exist from the node's first line, but answer only once it spins, after its
            # set-up (the detector, open3d: seconds on a loaded machine): wait for the line it logs then
            end = time.monotonic() + 180
            while "perception: detector" not in (tmp_path / "perception.log").read_text() \
                    or not pc.wait_for_services(timeout_sec=0.5):
                assert proc.alive(), (tmp_path / "perception.log").read_text()
                assert time.monotonic() < end, "the perception node did not start"
                time.sleep(0.2)
            (value,) = _wait(_Spin(), pc.get_parameters(["lifting.depth_edge_steps"])).values
            assert value.type == ParameterType.PARAMETER_DOUBLE and value.double_value == 0.0
            (result,) = _wait(_Spin(), pc.set_parameters([Parameter("lifting.depth_edge_steps", value=2.0)])).results
            assert not result.successful and "read-only" in result.reason
            assert proc.alive()
    finally:
        probe.destroy_node()
    assert "Traceback" not in (tmp_path / "perception.log").read_text()
