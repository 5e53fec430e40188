"""Launch files: `ros2 launch` cannot be installed here (launch/launch_ros have no wheels), so these check
statically what a robot's `ros2 launch memory_node <robot>.launch.py` would rely on."""

import ast
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = ROOT / "launch"


def _calls(tree, name):
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == name]


def _kw(call, key):
    return next(k.value for k in call.keywords if k.arg == key)


def test_shared_launch_description_starts_the_installed_node():
    tree = ast.parse((LAUNCH / "memory.launch.py").read_text())
    (node,) = _calls(tree, "Node")
    assert _kw(node, "package").value == "memory_node"
    assert _kw(node, "executable").value == "memory_node"
    assert _kw(node, "name").value == "memory_node"
    declared = {c.args[0].value for c in _calls(tree, "DeclareLaunchArgument")}
    assert declared == {"robot", "namespace", "params_file", "database_path", "use_sim_time"}
    # the executable the launch file names is the one CMake installs
    assert "install(PROGRAMS scripts/memory_node" in (ROOT / "CMakeLists.txt").read_text()
    assert (ROOT / "scripts" / "memory_node").stat().st_mode & 0o111


@pytest.mark.parametrize("robot", ["vega", "g1"])
def test_robot_launch_files_pick_their_params(robot):
    src = (LAUNCH / f"{robot}.launch.py").read_text()
    compile(src, f"{robot}.launch.py", "exec")
    assert f'generate_launch_description(robot="{robot}")' in src
    params = yaml.safe_load((ROOT / "config" / f"{robot}.yaml").read_text())["/**"]["ros__parameters"]
    assert params["robot"] == robot
    assert (ROOT / "config" / "skills" / f"{robot}.yaml").exists()


def test_params_files_declare_only_known_parameters():
    pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")
    from memory_node.ros.node import PARAMETERS

    def flatten(d, prefix=""):
        for k, v in d.items():
            if isinstance(v, dict):
                yield from flatten(v, f"{prefix}{k}.")
            else:
                yield f"{prefix}{k}", v

    for robot in ("vega", "g1"):
        params = dict(flatten(yaml.safe_load((ROOT / "config" / f"{robot}.yaml").read_text())["/**"]["ros__parameters"]))
        assert set(params) == set(PARAMETERS), robot
        for name, value in params.items():
            assert type(value) is type(PARAMETERS[name][0]), (robot, name)  # ROS parameter types are strict


def test_sim_launch_starts_the_node_and_the_bridge_with_declared_parameters():
    tree = ast.parse((LAUNCH / "sim.launch.py").read_text())
    (bridge,) = _calls(tree, "Node")
    assert _kw(bridge, "executable").value == "genesis_bridge"
    assert "generate_launch_description(robot=\"vega\")" in (LAUNCH / "sim.launch.py").read_text()
    declared = {c.args[0].value for c in _calls(tree, "DeclareLaunchArgument")}
    assert declared == {"scene", "scenario"}
    # the parameters it passes are ones the bridge declares, and the executable is installed
    passed = {k.value for k in _kw(bridge, "parameters").elts[0].keys}
    pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")
    from memory_node.ros.genesis_bridge import PARAMETERS

    assert passed - {"use_sim_time"} <= set(PARAMETERS)
    assert "scripts/genesis_bridge" in (ROOT / "CMakeLists.txt").read_text()
    assert (ROOT / "scripts" / "genesis_bridge").stat().st_mode & 0o111
