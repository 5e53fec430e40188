"""Shared launch description: the memory node for one robot, with its params file.

Included by vega.launch.py and g1.launch.py; usable directly with robot:=vega|g1.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def _node(context, *args, **kwargs):
    robot = LaunchConfiguration("robot").perform(context)
    params_file = LaunchConfiguration("params_file").perform(context)
    if not params_file:
        share = FindPackageShare("memory_node").perform(context)
        params_file = f"{share}/config/{robot}.yaml"
    overrides = {"use_sim_time": LaunchConfiguration("use_sim_time").perform(context).lower() == "true"}
    db = LaunchConfiguration("database_path").perform(context)
    if db:
        overrides["database_path"] = db
    return [Node(
        package="memory_node",
        executable="memory_node",
        name="memory_node",
        namespace=LaunchConfiguration("namespace"),
        parameters=[params_file, overrides],
        output="screen",
        emulate_tty=True,
    )]


def generate_launch_description(robot: str = "vega") -> LaunchDescription:
    return LaunchDescription([
        DeclareLaunchArgument("robot", default_value=robot, description="vega or g1"),
        DeclareLaunchArgument("namespace", default_value="", description="namespace of the node and its topics"),
        DeclareLaunchArgument("params_file", default_value="",
                              description="parameters YAML; '' = share/memory_node/config/<robot>.yaml"),
        DeclareLaunchArgument("database_path", default_value="",
                              description="SQLite memory file; '' = the params file's (default "
                                          "$ROS_HOME/memory_node/<robot>.db)"),
        DeclareLaunchArgument("use_sim_time", default_value="false", description="use /clock"),
        OpaqueFunction(function=_node),
    ])
