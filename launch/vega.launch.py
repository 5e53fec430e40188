"""Memory node for a Dexmate Vega.

    ros2 launch memory_node vega.launch.py [namespace:=...] [database_path:=...] [use_sim_time:=true] [rviz:=true]
"""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "memory_node_memory_launch", os.path.join(os.path.dirname(os.path.abspath(__file__)), "memory.launch.py"))
_memory_launch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_memory_launch)


def generate_launch_description():
    return _memory_launch.generate_launch_description(robot="vega")
