"""Shared launch description: the memory node for one robot, with its params file.

Included by vega.launch.py and g1.launch.py; usable directly with robot:=vega|g1. sim.launch.py builds on
``declare_arguments``, ``memory_node`` and ``rviz`` with a database and clock of its own. ``rviz:=true`` also
starts RViz 2 on config/memory_node.rviz: memory's ~/markers (rooms, objects, labels, relation lines) over /map.

``declare_arguments`` and ``memory_node`` with a database and clock of its own.

``perception:=true`` also starts the perception node (memory_node/ros/perception_node.py) with
``perception_params_file`` (default share/memory_node/config/perception.yaml): it turns camera, depth,
camera info and camera_pose into the scene graphs the memory node ingests, in the same namespace.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

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


def memory_node(context, default_database: str = "", use_sim_time: bool | None = None) -> Node:
    """The node action. ``default_database``: used when ``database_path`` is '' (else the params file's
    applies); ``use_sim_time``: fixed by the caller, None = the ``use_sim_time`` argument."""
    robot = LaunchConfiguration("robot").perform(context)
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
    )


def rviz(context) -> list:
    """RViz 2 on the shipped view of memory when ``rviz`` is true (the config names the root-namespace topics;
    the remaps point them into the node's namespace)."""
    if not boolean_argument(context, "rviz"):
        return []
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
    )


def _node(context, *args, **kwargs):
    return [memory_node(context), *rviz(context)] + \
        ([perception_node(context)] if perception_enabled(context) else [])


def declare_arguments(robot: str, robots: str = "vega or g1",
                      database_default: str = "the params file's (default $ROS_HOME/memory_node/<robot>.db)") -> list:
    return [
        DeclareLaunchArgument("robot", default_value=robot, description=robots),
        DeclareLaunchArgument("namespace", default_value="", description="namespace of the node and its topics"),
        DeclareLaunchArgument("params_file", default_value="",
                              description="parameters YAML; '' = share/memory_node/config/<robot>.yaml"),
        DeclareLaunchArgument("database_path", default_value="",
                              description=f"SQLite memory file; '' = {database_default}"),
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
