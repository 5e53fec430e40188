"""The memory node and the Genesis bridge: a simulated Dexmate Vega in a household scene, on a workstation.

    ros2 launch memory_node sim.launch.py [scene:=small_home] [scenario:=moved_twice] [namespace:=...]

The bridge publishes the simulated robot's camera, depth, pose, map, scene graphs and skill feedback on the
memory node's inputs and executes the plans the node publishes on ``~/plans``, open-loop. With ``scenario``
set it plays that scenario (config/scenarios) instead, prints its table and exits. Without ``ros2 launch``
(this package's CI machines): ``scripts/sim.sh`` runs the same two executables.
"""

import importlib.util
import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

_spec = importlib.util.spec_from_file_location(
    "memory_node_memory_launch", os.path.join(os.path.dirname(os.path.abspath(__file__)), "memory.launch.py"))
_memory_launch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_memory_launch)


def _bridge(context, *args, **kwargs):
    namespace = LaunchConfiguration("namespace").perform(context).strip("/")
    memory_fqn = f"/{namespace}/memory_node" if namespace else "/memory_node"
    scenario = LaunchConfiguration("scenario").perform(context)
    return [Node(
        package="memory_node",
        executable="genesis_bridge",
        name="genesis_bridge",
        namespace=LaunchConfiguration("namespace"),
        parameters=[{"scene": LaunchConfiguration("scene").perform(context), "memory_node": memory_fqn,
                     "use_sim_time": False}],
        arguments=["--scenario", scenario] if scenario else [],
        output="screen",
        emulate_tty=True,
    )]


def generate_launch_description() -> LaunchDescription:
    memory = _memory_launch.generate_launch_description(robot="vega")
    return LaunchDescription([
        *memory.entities,
        DeclareLaunchArgument("scene", default_value="small_home",
                              description="scene under config/sim/scenes, or a path to a scene file"),
        DeclareLaunchArgument("scenario", default_value="",
                              description="scenario under config/scenarios to play, then exit; '' = run live"),
        OpaqueFunction(function=_bridge),
    ])
