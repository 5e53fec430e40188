"""Launch files: `ros2 launch` cannot be installed here (launch/launch_ros have no wheels), so these check
statically what a robot's `ros2 launch memory_node <robot>.launch.py` would rely on, and evaluate the
descriptions against small stand-ins for the launch classes they use (``evaluate``): which nodes they start,
with which parameters, for which arguments."""

import ast
import importlib.util
import os
import sys
import types
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
    # the memory node, RViz (rviz:=true) and perception (perception:=true), by what they run
    nodes = {_kw(c, "executable").value: c for c in _calls(tree, "Node")}
    assert set(nodes) == {"memory_node", "rviz2", "perception_node"}
    node, rviz, perception = nodes["memory_node"], nodes["rviz2"], nodes["perception_node"]
    assert _kw(rviz, "package").value == "rviz2"
    assert _kw(node, "package").value == "memory_node"
    assert _kw(node, "executable").value == "memory_node"
    assert _kw(node, "name").value == "memory_node"
    assert _kw(perception, "executable").value == "perception_node"
    declared = {c.args[0].value for c in _calls(tree, "DeclareLaunchArgument")}
    assert declared == {"robot", "namespace", "params_file", "database_path", "database_url", "site", "use_sim_time",
                        "rviz", "lifecycle", "perception", "perception_params_file"}
    assert "scripts/perception_node" in (ROOT / "CMakeLists.txt").read_text()
    assert (ROOT / "scripts" / "perception_node").stat().st_mode & 0o111
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
    declared = {c.args[0].value for c in _calls(tree, "DeclareLaunchArgument")}
    assert declared == {"scene", "scenario"}  # and robot, namespace, params_file, database_path from memory.launch
    # the parameters it passes are ones the bridge declares, and the executable is installed
    passed = {k.value for k in _kw(bridge, "parameters").elts[0].keys}
    pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")
    from memory_node.ros.genesis_bridge import PARAMETERS

    assert passed - {"use_sim_time"} <= set(PARAMETERS)
    assert "scripts/genesis_bridge" in (ROOT / "CMakeLists.txt").read_text()
    assert (ROOT / "scripts" / "genesis_bridge").stat().st_mode & 0o111


# ---- the descriptions evaluated against stand-ins of the launch API they use ------------------------------

class _Context:
    def __init__(self, configurations):
        self.launch_configurations = dict(configurations)


class _LaunchConfiguration:
    def __init__(self, name):
        self.name = name

    def perform(self, context):
        return context.launch_configurations[self.name]  # KeyError = an argument the file never declared


class _FindPackageShare:
    def __init__(self, package):
        self.package = package

    def perform(self, context):
        return f"/opt/ros/share/{self.package}"


class _Record:
    """DeclareLaunchArgument, OpaqueFunction, Node: keep what they were given."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


class _LaunchDescription:
    def __init__(self, entities):
        self.entities = list(entities)


def _stub_modules():
    mods = {name: types.ModuleType(name) for name in
            ("launch", "launch.actions", "launch.substitutions", "launch_ros", "launch_ros.actions",
             "launch_ros.substitutions")}
    mods["launch"].LaunchDescription = _LaunchDescription
    mods["launch.actions"].DeclareLaunchArgument = type("DeclareLaunchArgument", (_Record,), {})
    mods["launch.actions"].OpaqueFunction = type("OpaqueFunction", (_Record,), {})
    mods["launch.actions"].Shutdown = type("Shutdown", (_Record,), {})
    mods["launch.substitutions"].LaunchConfiguration = _LaunchConfiguration
    mods["launch_ros.actions"].Node = type("Node", (_Record,), {})
    mods["launch_ros.substitutions"].FindPackageShare = _FindPackageShare
    return mods


def evaluate(monkeypatch, launch_file, **arguments):
    """The nodes ``ros2 launch memory_node <launch_file> name:=value ...`` would start: declared defaults,
    then the given arguments, then each OpaqueFunction in order. Returns {executable: node kwargs}."""
    for name, module in _stub_modules().items():
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location(f"launch_under_test_{launch_file}", LAUNCH / launch_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    description = module.generate_launch_description()
    configurations = {}
    for entity in description.entities:
        if type(entity).__name__ == "DeclareLaunchArgument":
            configurations[entity.args[0]] = entity.kwargs["default_value"]
    configurations.update(arguments)
    context = _Context(configurations)
    nodes = {}
    for entity in description.entities:
        if type(entity).__name__ == "OpaqueFunction":
            for action in entity.kwargs["function"](context):
                nodes[action.kwargs["executable"]] = action.kwargs
    return nodes


def _overrides(node):
    """The parameter dict after the params file (what the launch file itself sets)."""
    params_file, overrides = node["parameters"]
    return params_file, overrides


@pytest.fixture
def ros_home(tmp_path, monkeypatch):
    monkeypatch.setenv("ROS_HOME", str(tmp_path / "ros_home"))
    return tmp_path / "ros_home"


@pytest.fixture(autouse=True)
def rviz_installed(tmp_path, monkeypatch):
    """An ament prefix that holds rviz2 (RViz cannot be installed here): launch files look it up in the ament
    index before they start anything; ``monkeypatch.delenv`` in a test takes it away again."""
    prefix = tmp_path / "rviz_prefix"
    marker = prefix / "share" / "ament_index" / "resource_index" / "packages" / "rviz2"
    marker.parent.mkdir(parents=True)
    marker.write_text("")
    monkeypatch.setenv("AMENT_PREFIX_PATH", os.pathsep.join(filter(None, [str(prefix),
                                                                          os.environ.get("AMENT_PREFIX_PATH")])))
    return prefix


@pytest.mark.parametrize("robot", ["vega", "g1"])
def test_robot_launch_leaves_the_database_to_the_params_file(monkeypatch, ros_home, robot):
    nodes = evaluate(monkeypatch, f"{robot}.launch.py")
    params_file, overrides = _overrides(nodes["memory_node"])
    assert params_file == f"/opt/ros/share/memory_node/config/{robot}.yaml"
    assert overrides == {"use_sim_time": False}  # database '' in the params file: $ROS_HOME/memory_node/<robot>.db
    nodes = evaluate(monkeypatch, f"{robot}.launch.py", use_sim_time="true", database_path="/data/m.db")
    assert _overrides(nodes["memory_node"])[1] == {"use_sim_time": True, "database_path": "/data/m.db"}
    url = "postgresql://robots@site-db/memory"
    nodes = evaluate(monkeypatch, f"{robot}.launch.py", database_url=url, site="home")
    assert _overrides(nodes["memory_node"])[1] == {"use_sim_time": False, "database_url": url, "site": "home"}


@pytest.mark.parametrize("launch_file", ["vega.launch.py", "g1.launch.py", "sim.launch.py"])
def test_lifecycle_argument_makes_the_node_a_managed_one(monkeypatch, ros_home, launch_file):
    """lifecycle:=true starts the same executable with --lifecycle (a managed node, waiting for a lifecycle
    manager); the default keeps today's node, serving from start-up."""
    assert evaluate(monkeypatch, launch_file)["memory_node"]["arguments"] == []
    managed = evaluate(monkeypatch, launch_file, lifecycle="true")["memory_node"]
    assert managed["arguments"] == ["--lifecycle"]
    assert managed["executable"] == "memory_node" and managed["name"] == "memory_node"
    assert evaluate(monkeypatch, launch_file, lifecycle="False")["memory_node"]["arguments"] == []
    with pytest.raises(RuntimeError, match="lifecycle:=maybe is not a boolean"):
        evaluate(monkeypatch, launch_file, lifecycle="maybe")
    # the flag is one the executable reads
    assert '"--lifecycle" in rclpy.utilities.remove_ros_args' in (ROOT / "memory_node" / "ros" / "node.py").read_text()


def test_sim_launch_has_a_database_of_its_own(monkeypatch, ros_home):
    nodes = evaluate(monkeypatch, "sim.launch.py")
    params_file, overrides = _overrides(nodes["memory_node"])
    assert params_file.endswith("/config/vega.yaml")
    db = overrides["database_path"]
    assert db == str(ros_home / "memory_node" / "sim_small_home.db")
    assert Path(db).name != "vega.db"  # never the robot's own memory
    scene = evaluate(monkeypatch, "sim.launch.py", scene="TestScene1")
    assert _overrides(scene["memory_node"])[1]["database_path"] == str(ros_home / "memory_node" / "sim_TestScene1.db")
    mine = evaluate(monkeypatch, "sim.launch.py", scene="/homes/my_flat.yaml")
    assert _overrides(mine["memory_node"])[1]["database_path"] == str(ros_home / "memory_node" / "sim_my_flat.db")
    # a scenario starts from an empty memory: a fresh file each run, outside ROS_HOME
    first = _overrides(evaluate(monkeypatch, "sim.launch.py", scenario="moved_twice")["memory_node"])[1]
    second = _overrides(evaluate(monkeypatch, "sim.launch.py", scenario="moved_twice")["memory_node"])[1]
    assert first["database_path"] != second["database_path"]
    assert not first["database_path"].startswith(str(ros_home))
    assert not os.path.exists(first["database_path"])  # the node creates it
    # the user's choice wins
    given = evaluate(monkeypatch, "sim.launch.py", database_path="/data/sim.db", scenario="moved_twice")
    assert _overrides(given["memory_node"])[1]["database_path"] == "/data/sim.db"


def test_sim_launch_names_one_bridge_node_and_passes_robot_and_memory(monkeypatch, ros_home):
    nodes = evaluate(monkeypatch, "sim.launch.py", namespace="/sim1")
    bridge = nodes["genesis_bridge"]
    assert bridge["name"] == "genesis_bridge"
    (params,) = bridge["parameters"]
    assert params == {"scene": "small_home", "memory_node": "/sim1/memory_node", "robot": "vega",
                      "use_sim_time": False, "perception_only": False}
    assert bridge["arguments"] == []
    assert float(bridge["sigterm_timeout"]) >= 20  # Genesis writes its kernel cache at exit (5-6 s here)
    assert evaluate(monkeypatch, "sim.launch.py", scenario="locked_cabinet")["genesis_bridge"]["arguments"] == \
        ["--scenario", "locked_cabinet"]
    # the bridge puts the memory client's endpoints on its own node, so launch's __node:=genesis_bridge
    # names one node (checked on the running process in test/ros/test_bridge_process.py)
    src = (ROOT / "memory_node" / "ros" / "genesis_bridge.py").read_text()
    assert "node=live" in src


def test_sim_launch_runs_on_wall_time_and_refuses_sim_time(monkeypatch, ros_home):
    nodes = evaluate(monkeypatch, "sim.launch.py")
    assert _overrides(nodes["memory_node"])[1]["use_sim_time"] is False
    assert nodes["genesis_bridge"]["parameters"][0]["use_sim_time"] is False
    with pytest.raises(RuntimeError, match="use_sim_time is not supported.*no /clock"):
        evaluate(monkeypatch, "sim.launch.py", use_sim_time="true")
    assert evaluate(monkeypatch, "sim.launch.py", use_sim_time="false")  # said explicitly: fine


def test_sim_launch_refuses_a_robot_it_cannot_simulate(monkeypatch, ros_home):
    with pytest.raises(RuntimeError, match=r"robot:=g1 cannot be simulated.*only vega.*g1.launch.py"):
        evaluate(monkeypatch, "sim.launch.py", robot="g1")


@pytest.mark.parametrize("launch_file", ["vega.launch.py", "g1.launch.py", "sim.launch.py"])
def test_rviz_argument_starts_rviz_on_the_shipped_memory_view(monkeypatch, ros_home, launch_file):
    assert "rviz2" not in evaluate(monkeypatch, launch_file)  # off unless asked for
    rviz = evaluate(monkeypatch, launch_file, rviz="true")["rviz2"]
    assert rviz["package"] == "rviz2"
    assert rviz["arguments"] == ["-d", "/opt/ros/share/memory_node/config/memory_node.rviz"]
    prefix = "/sim" if launch_file == "sim.launch.py" else ""  # the simulator's own namespace by default
    assert rviz["remappings"] == [("/memory_node/markers", f"{prefix}/memory_node/markers"), ("/map", f"{prefix}/map")]
    namespaced = evaluate(monkeypatch, launch_file, rviz="true", namespace="g1")["rviz2"]
    assert namespaced["remappings"] == [("/memory_node/markers", "/g1/memory_node/markers"), ("/map", "/g1/map")]
    # the config it loads is installed (config/ is) and shows the node's markers
    config = ROOT / "config" / "memory_node.rviz"
    assert "install(DIRECTORY launch config" in (ROOT / "CMakeLists.txt").read_text()
    displays = yaml.safe_load(config.read_text())["Visualization Manager"]["Displays"]
    topics = {d["Class"]: d["Topic"]["Value"] for d in displays if "Topic" in d}
    assert topics == {"rviz_default_plugins/MarkerArray": "/memory_node/markers", "rviz_default_plugins/Map": "/map"}


@pytest.mark.parametrize("robot", ["vega", "g1"])
def test_perception_starts_only_when_asked_with_its_params_file(monkeypatch, ros_home, robot):
    assert "perception_node" not in evaluate(monkeypatch, f"{robot}.launch.py")
    nodes = evaluate(monkeypatch, f"{robot}.launch.py", perception="true", namespace="/r1")
    perception = nodes["perception_node"]
    assert perception["name"] == "perception" and perception["namespace"].name == "namespace"
    params_file, overrides = perception["parameters"]
    assert params_file == "/opt/ros/share/memory_node/config/perception.yaml"
    assert overrides == {"use_sim_time": False}
    mine = evaluate(monkeypatch, f"{robot}.launch.py", perception="true", perception_params_file="/cfg/p.yaml")
    assert mine["perception_node"]["parameters"][0] == "/cfg/p.yaml"
    with pytest.raises(RuntimeError, match="perception:=maybe is not a boolean"):
        evaluate(monkeypatch, f"{robot}.launch.py", perception="maybe")


def test_sim_launch_with_perception_feeds_memory_only_through_the_perception_node(monkeypatch, ros_home):
    nodes = evaluate(monkeypatch, "sim.launch.py", perception="true", scene="TestScene1")
    assert nodes["genesis_bridge"]["parameters"][0]["perception_only"] is True
    _, overrides = nodes["perception_node"]["parameters"]
    assert overrides["rooms_file"] == "/opt/ros/share/memory_node/config/sim/scenes/TestScene1.yaml"
    assert overrides["instance_ids"] is True and overrides["association.confirm_after"] == 1


def test_perception_params_file_declares_only_known_parameters():
    pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")
    from memory_node.ros.perception_node import PARAMETERS

    params = yaml.safe_load((ROOT / "config" / "perception.yaml").read_text())["/**"]["ros__parameters"]
    assert set(params) == set(PARAMETERS)
    for name, value in params.items():
        assert type(value) is type(PARAMETERS[name][0]), name


# ---- boolean arguments: one parser for every launch file ---------------------------------------------------

_SPELLINGS = [("true", True), ("TRUE", True), ("1", True), ("yes", True), ("On", True), (" true ", True),
              ("false", False), ("False", False), ("0", False), ("no", False), ("OFF", False)]


def _switched_on(nodes, argument):
    """Whether ``argument`` took effect in the nodes a description starts."""
    if argument == "lifecycle":
        return nodes["memory_node"]["arguments"] == ["--lifecycle"]
    if argument == "use_sim_time":
        return _overrides(nodes["memory_node"])[1]["use_sim_time"]
    return {"rviz": "rviz2", "perception": "perception_node"}[argument] in nodes


@pytest.mark.parametrize("launch_file", ["vega.launch.py", "g1.launch.py", "sim.launch.py"])
@pytest.mark.parametrize("argument", ["lifecycle", "rviz", "perception", "use_sim_time"])
@pytest.mark.parametrize("spelling,expected", _SPELLINGS)
def test_boolean_arguments_accept_the_same_spellings_in_every_launch_file(monkeypatch, ros_home, launch_file,
                                                                          argument, spelling, expected):
    if launch_file == "sim.launch.py" and argument == "use_sim_time":
        if expected:  # refused on purpose (nothing publishes /clock), in every spelling of true
            with pytest.raises(RuntimeError, match="use_sim_time is not supported"):
                evaluate(monkeypatch, launch_file, use_sim_time=spelling)
        else:
            assert _overrides(evaluate(monkeypatch, launch_file, use_sim_time=spelling)["memory_node"])[1] == \
                {"use_sim_time": False, "database_path": str(ros_home / "memory_node" / "sim_small_home.db")}
        return
    assert _switched_on(evaluate(monkeypatch, launch_file, **{argument: spelling}), argument) is expected


@pytest.mark.parametrize("launch_file", ["vega.launch.py", "g1.launch.py", "sim.launch.py"])
@pytest.mark.parametrize("argument", ["lifecycle", "rviz", "perception", "use_sim_time"])
@pytest.mark.parametrize("bad", ["maybe", "2", "ture", "y"])
def test_a_boolean_argument_that_is_none_stops_the_launch_naming_it(monkeypatch, ros_home, launch_file,
                                                                    argument, bad):
    with pytest.raises(RuntimeError, match=rf"^{argument}:={bad} is not a boolean: use true or false"):
        evaluate(monkeypatch, launch_file, **{argument: bad})


def test_launch_files_parse_booleans_only_through_the_shared_helper():
    """No launch file reads an argument's text as a boolean itself (three ad-hoc parsers disagreed before):
    the only case folding is in ``boolean_argument``."""
    for path in LAUNCH.glob("*.launch.py"):
        tree = ast.parse(path.read_text())
        helper = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "boolean_argument"
                  for n in ast.walk(f)}
        folding = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                   and n.attr in ("lower", "casefold") and id(n) not in helper]
        assert folding == [], f"{path.name}: lines {folding}"


# ---- safe beside a real robot: launch edges -------------------------------------------------------------

@pytest.mark.parametrize("launch_file", ["vega.launch.py", "g1.launch.py", "sim.launch.py"])
def test_an_unknown_robot_stops_the_launch_naming_the_robots_there_are(monkeypatch, ros_home, launch_file):
    with pytest.raises(RuntimeError, match=r"robot:=spot is not a robot this package knows: use one of g1, vega"
                       if launch_file != "sim.launch.py" else r"robot:=spot cannot be simulated"):
        evaluate(monkeypatch, launch_file, robot="spot")


@pytest.mark.parametrize("launch_file", ["vega.launch.py", "g1.launch.py", "sim.launch.py"])
def test_rviz_without_rviz2_stops_the_launch_before_any_node_starts(monkeypatch, ros_home, launch_file,
                                                                     tmp_path):
    monkeypatch.setenv("AMENT_PREFIX_PATH", str(tmp_path / "no_rviz_here"))
    with pytest.raises(RuntimeError, match="rviz:=true but RViz 2 is not installed"):
        evaluate(monkeypatch, launch_file, rviz="true")  # raised inside the one OpaqueFunction: no node returned
    assert "memory_node" in evaluate(monkeypatch, launch_file)  # without rviz it starts


@pytest.mark.parametrize("launch_file", ["vega.launch.py", "g1.launch.py", "sim.launch.py"])
def test_the_launch_ends_when_one_of_its_nodes_ends(monkeypatch, ros_home, launch_file):
    """A memory node that refuses to start (a database another node holds, an unusable path) ends the launch:
    RViz, perception or the simulator are not left running without memory."""
    nodes = evaluate(monkeypatch, launch_file, perception="true", rviz="true")
    for executable in ("memory_node", "perception_node") + (("genesis_bridge",) if launch_file == "sim.launch.py"
                                                            else ()):
        assert type(nodes[executable]["on_exit"]).__name__ == "Shutdown", executable
    assert "on_exit" not in nodes["rviz2"]  # closing RViz's window does not stop the robot's memory


def _fqn(node, context_namespace):
    ns = context_namespace.strip("/")
    return f"/{ns}/{node['name']}" if ns else f"/{node['name']}"


def test_a_simulator_beside_a_robot_never_shares_its_memory_or_its_plans(monkeypatch, ros_home):
    robot = evaluate(monkeypatch, "vega.launch.py")
    sim = evaluate(monkeypatch, "sim.launch.py")
    robot_fqn = _fqn(robot["memory_node"], "")
    sim_ns = sim["memory_node"]["namespace"].perform(_Context({"namespace": "sim"}))
    sim_fqn = _fqn(sim["memory_node"], sim_ns)
    assert robot_fqn == "/memory_node" and sim_fqn == "/sim/memory_node"
    # the bridge feeds and follows the simulator's memory only: its topics and the plans it executes
    assert sim["genesis_bridge"]["parameters"][0]["memory_node"] == sim_fqn
    assert f"{sim_fqn}/plans" != f"{robot_fqn}/plans"
    # different files: the robot's is the params file's default, $ROS_HOME/memory_node/vega.db
    assert _overrides(sim["memory_node"])[1]["database_path"] == str(ros_home / "memory_node" / "sim_small_home.db")
    assert "database_path" not in _overrides(robot["memory_node"])[1]
    # and what would make them share is refused
    for namespace in ("", "/"):
        with pytest.raises(RuntimeError, match="root namespace, where a robot's memory node runs"):
            evaluate(monkeypatch, "sim.launch.py", namespace=namespace)
    for robot_db in ("vega.db", "g1.db"):
        with pytest.raises(RuntimeError, match="is a robot's own memory"):
            evaluate(monkeypatch, "sim.launch.py", database_path=str(ros_home / "memory_node" / robot_db))


@pytest.mark.parametrize("launch_file", ["vega.launch.py", "sim.launch.py"])
def test_no_colour_codes_unless_the_launch_prints_to_a_terminal(monkeypatch, ros_home, launch_file):
    monkeypatch.delenv("RCUTILS_COLORIZED_OUTPUT", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    nodes = evaluate(monkeypatch, launch_file, perception="true")
    for executable in ("memory_node", "perception_node"):
        assert nodes[executable]["additional_env"] == {"RCUTILS_COLORIZED_OUTPUT": "0"}
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert evaluate(monkeypatch, launch_file)["memory_node"]["additional_env"] == {"RCUTILS_COLORIZED_OUTPUT": "1"}
    monkeypatch.setenv("RCUTILS_COLORIZED_OUTPUT", "1")  # the user's choice stands
    assert evaluate(monkeypatch, launch_file)["memory_node"]["additional_env"] == {}
