"""Shared launch description: the memory node for one robot, with its params file.

Included by vega.launch.py and g1.launch.py; usable directly with robot:=vega|g1. sim.launch.py builds on
``declare_arguments``, ``memory_node`` and ``rviz`` with a database and clock of its own. ``rviz:=true`` also
starts RViz 2 on config/memory_node.rviz: memory's ~/markers (rooms, objects, labels, relation lines) over /map.

``perception:=true`` also starts the perception node (memory_node/ros/perception_node.py) with
``perception_params_file`` (default share/memory_node/config/perception.yaml): it turns camera, depth,
camera info and camera_pose into the scene graphs the memory node ingests, in the same namespace.
"""

import glob
import os
import sys

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction, Shutdown
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

CONFIG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "config")
TRUE_WORDS = ("true", "1", "yes", "on")
FALSE_WORDS = ("false", "0", "no", "off")


def boolean_argument(context, name: str, default: bool = False) -> bool:
    """The launch argument ``name`` as a boolean, the one parser every launch file of this package uses:
    true/false, 1/0, yes/no, on/off in any case ('' or undeclared = ``default``). Anything else stops the
    launch with an error naming the argument, rather than quietly meaning false."""
    raw = context.launch_configurations.get(name, "")
    value = raw.strip().lower()
    if not value:
        return default
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise RuntimeError(f"{name}:={raw} is not a boolean: use true or false (also 1/0, yes/no, on/off)")


def known_robots() -> list[str]:
    """Robots this package has a params file and a skill library for (config/<robot>.yaml and
    config/skills/<robot>.yaml, beside this launch file in the source tree and in share/memory_node)."""
    return sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(CONFIG, "skills", "*.yaml"))
                  if os.path.isfile(os.path.join(CONFIG, os.path.basename(p))))


def log_environment() -> dict:
    """Colour codes only when this launch prints to a terminal: launch gives nodes a pseudo-terminal
    (``emulate_tty``, which keeps their lines in order), so rcutils would colour a log that goes to a file or
    a pipe. A colour choice the user made (RCUTILS_COLORIZED_OUTPUT) is kept."""
    if "RCUTILS_COLORIZED_OUTPUT" in os.environ:
        return {}
    return {"RCUTILS_COLORIZED_OUTPUT": "1" if sys.stdout.isatty() else "0"}


def memory_node(context, default_database: str = "", use_sim_time: bool | None = None) -> Node:
    """The node action. ``default_database``: used when ``database_path`` is '' (else the params file's
    applies); ``use_sim_time``: fixed by the caller, None = the ``use_sim_time`` argument. When the node
    ends (a database another node holds, an unusable path), the whole launch ends with it rather than leave
    RViz, perception or the simulator running without memory."""
    robot = LaunchConfiguration("robot").perform(context)
    robots = known_robots()
    if robot not in robots:
        raise RuntimeError(f"robot:={robot} is not a robot this package knows: use one of {', '.join(robots)} "
                           f"(config/<robot>.yaml and config/skills/<robot>.yaml)")
    params_file = LaunchConfiguration("params_file").perform(context)
    if not params_file:
        share = FindPackageShare("memory_node").perform(context)
        params_file = f"{share}/config/{robot}.yaml"
    if use_sim_time is None:
        use_sim_time = boolean_argument(context, "use_sim_time")
    overrides: dict = {"use_sim_time": use_sim_time}
    db = LaunchConfiguration("database_path").perform(context) or default_database
    if db:
        overrides["database_path"] = db
    # a site memory several robots share (PostgreSQL); it replaces database_path
    for name in ("database_url", "site"):
        value = LaunchConfiguration(name).perform(context)
        if value:
            overrides[name] = value
    lifecycle = boolean_argument(context, "lifecycle")
    return Node(
        package="memory_node",
        executable="memory_node",
        name="memory_node",
        namespace=LaunchConfiguration("namespace"),
        parameters=[params_file, overrides],
        # a managed node waits, unconfigured, for a lifecycle manager's transitions (README: Lifecycle)
        arguments=["--lifecycle"] if lifecycle else [],
        output="screen",
        emulate_tty=True,
        additional_env=log_environment(),
        on_exit=Shutdown(reason="memory_node exited"),
    )


def rviz(context) -> list:
    """RViz 2 on the shipped view of memory when ``rviz`` is true (the config names the root-namespace topics;
    the remaps point them into the node's namespace)."""
    if not boolean_argument(context, "rviz"):
        return []
    if not rviz_installed():  # checked before any node starts: launch would otherwise fail half-started
        raise RuntimeError("rviz:=true but RViz 2 is not installed (no rviz2 package in AMENT_PREFIX_PATH): "
                           "install it (apt install ros-$ROS_DISTRO-rviz2) or leave rviz out")
    share = FindPackageShare("memory_node").perform(context)
    namespace = LaunchConfiguration("namespace").perform(context).strip("/")
    prefix = f"/{namespace}" if namespace else ""
    return [Node(
        package="rviz2",
        executable="rviz2",
        name="memory_rviz",
        arguments=["-d", f"{share}/config/memory_node.rviz"],
        remappings=[("/memory_node/markers", f"{prefix}/memory_node/markers"), ("/map", f"{prefix}/map")],
        output="screen",
    )]


def rviz_installed() -> bool:
    try:
        from ament_index_python.packages import PackageNotFoundError, get_package_prefix
    except ImportError:
        return False
    try:
        get_package_prefix("rviz2")
        return True
    except (PackageNotFoundError, LookupError, ValueError):
        return False


def perception_enabled(context) -> bool:
    return boolean_argument(context, "perception")


def perception_node(context, overrides: dict | None = None, use_sim_time: bool | None = None) -> Node:
    """The perception node action: its params file, then ``overrides`` (the simulator's)."""
    params_file = LaunchConfiguration("perception_params_file").perform(context)
    if not params_file:
        params_file = f"{FindPackageShare('memory_node').perform(context)}/config/perception.yaml"
    if use_sim_time is None:
        use_sim_time = boolean_argument(context, "use_sim_time")
    return Node(
        package="memory_node",
        executable="perception_node",
        name="perception",
        namespace=LaunchConfiguration("namespace"),
        parameters=[params_file, {"use_sim_time": use_sim_time, **(overrides or {})}],
        output="screen",
        emulate_tty=True,
        additional_env=log_environment(),
        on_exit=Shutdown(reason="perception node exited"),
    )


def _node(context, *args, **kwargs):
    # everything that can refuse is checked before the first action is returned: nothing starts half-way
    memory = memory_node(context)
    viewer = rviz(context)
    return [memory, *viewer] + ([perception_node(context)] if perception_enabled(context) else [])


def declare_arguments(robot: str, robots: str = "vega or g1",
                      database_default: str = "the params file's (default $ROS_HOME/memory_node/<robot>.db)",
                      namespace: str = "") -> list:
    return [
        DeclareLaunchArgument("robot", default_value=robot, description=robots),
        DeclareLaunchArgument("namespace", default_value=namespace, description="namespace of the node and its topics"),
        DeclareLaunchArgument("params_file", default_value="",
                              description="parameters YAML; '' = share/memory_node/config/<robot>.yaml"),
        DeclareLaunchArgument("database_path", default_value="",
                              description=f"SQLite memory file; '' = {database_default}"),
        DeclareLaunchArgument("database_url", default_value="",
                              description="a site memory several robots share: postgresql://user@host/db "
                                          "(replaces database_path); '' = the robot's own SQLite file"),
        DeclareLaunchArgument("site", default_value="", description="site name recorded on what this robot writes"),
        DeclareLaunchArgument("rviz", default_value="false",
                              description="true: also start RViz 2 showing memory (config/memory_node.rviz)"),
        DeclareLaunchArgument("lifecycle", default_value="false",
                              description="true = a managed (lifecycle) node: unconfigured until a lifecycle "
                                          "manager configures and activates it; false = serving at start-up"),
        DeclareLaunchArgument("perception", default_value="false",
                              description="also start the perception node (camera + depth + pose -> scene graphs)"),
        DeclareLaunchArgument("perception_params_file", default_value="",
                              description="perception parameters; '' = share/memory_node/config/perception.yaml"),
    ]


def generate_launch_description(robot: str = "vega") -> LaunchDescription:
    return LaunchDescription([
        *declare_arguments(robot),
        DeclareLaunchArgument("use_sim_time", default_value="false", description="use /clock"),
        OpaqueFunction(function=_node),
    ])
