"""The Genesis bridge as its installed executable, before any simulation runs: what launch sees of it.

No scene is built here (that takes minutes; test/sim covers the simulation): the bridge is checked while
it starts and then stopped by SIGINT in the middle of importing Genesis or building its scene.
"""

import importlib.util
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import rclpy
from rcl_interfaces.srv import GetParameters

EXIT_TIMEOUT_S = 60.0
BAD_OUTPUT = ("Traceback", "KeyboardInterrupt", "RCLError", "terminate called")


def _bridge_command(*ros_args):
    from ament_index_python.packages import get_package_prefix

    exe = Path(get_package_prefix("memory_node")) / "lib" / "memory_node" / "genesis_bridge"
    return [str(exe), "--ros-args", *ros_args]


def test_a_robot_it_cannot_simulate_is_refused_with_a_clear_error():
    proc = subprocess.run(_bridge_command("-p", "robot:=spot", "-r", f"__ns:=/t{uuid.uuid4().hex[:8]}"),
                          capture_output=True, text=True, timeout=EXIT_TIMEOUT_S)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 2, output
    assert "robot 'spot' cannot be simulated: the bridge simulates only vega, g1" in output
    assert not any(bad in output for bad in BAD_OUTPUT), output


def test_a_memory_node_in_the_root_namespace_is_refused_it_is_a_robots():
    """Beside a robot on one domain, a simulator feeding /memory_node wrote into the robot's memory and ran
    its plans; the default is the simulator's own /sim/memory_node."""
    proc = subprocess.run(_bridge_command("-p", "memory_node:=/memory_node", "-r", f"__ns:=/t{uuid.uuid4().hex[:8]}"),
                          capture_output=True, text=True, timeout=EXIT_TIMEOUT_S)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 2, output
    assert "memory_node:=/memory_node is in the root namespace, where a robot's memory node runs" in output
    assert "default /sim/memory_node" in output
    assert not any(bad in output for bad in BAD_OUTPUT), output


def test_a_bad_parameter_type_is_one_line():
    proc = subprocess.run(_bridge_command("-p", "camera_rate:=fast", "-r", f"__ns:=/t{uuid.uuid4().hex[:8]}"),
                          capture_output=True, text=True, timeout=EXIT_TIMEOUT_S)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 2, output
    assert "parameter camera_rate: 'fast' is a string, camera_rate takes a double" in output
    assert not any(bad in output for bad in BAD_OUTPUT), output


@pytest.mark.skipif(importlib.util.find_spec("genesis") is None, reason="Genesis not installed")
def test_launch_naming_leaves_one_bridge_node_with_its_parameters_and_sigint_stops_the_build(ros, tmp_path):
    ns = f"t{uuid.uuid4().hex[:8]}"
    # what launch's Node(name="genesis_bridge", namespace=ns) passes: global __node and __ns remaps
    cmd = _bridge_command("-r", "__node:=genesis_bridge", "-r", f"__ns:=/{ns}", "-p", "scene:=small_home",
                          "-p", f"memory_node:=/{ns}/memory_node")
    log_path = tmp_path / "bridge.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    probe = rclpy.create_node(f"probe_{uuid.uuid4().hex[:6]}")
    try:
        deadline = time.monotonic() + 60
        names = []
        while time.monotonic() < deadline and proc.poll() is None:
            names = [n for n, node_ns in probe.get_node_names_and_namespaces() if node_ns == f"/{ns}"]
            if names:
                break
            time.sleep(0.1)
        assert names == ["genesis_bridge"], (names, log_path.read_text())
        # `ros2 param get /<ns>/genesis_bridge scene`: answered by the one node of that name
        client = probe.create_client(GetParameters, f"/{ns}/genesis_bridge/get_parameters")
        assert client.wait_for_service(timeout_sec=30), log_path.read_text()
        for _ in range(3):
            future = client.call_async(GetParameters.Request(names=["scene", "robot"]))
            rclpy.spin_until_future_complete(probe, future, timeout_sec=10)
            assert future.done(), "parameter service did not answer"
            assert [v.string_value for v in future.result().values] == ["small_home", "vega"]
        assert proc.poll() is None, log_path.read_text()  # still importing Genesis / building the scene
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=EXIT_TIMEOUT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        probe.destroy_node()
    output = log_path.read_text()
    assert rc == 0, output
    assert "building scene small_home" in output
    assert "SIGINT before the simulation was up: exiting" in output, output
    assert not any(bad in output for bad in BAD_OUTPUT), output
