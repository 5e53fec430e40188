"""memory_node: persistent, queryable robot memory for ROS 2.

When built with colcon, the generated interfaces live beside this file as ``memory_node.msg`` and
``memory_node.srv``; the engine (``memory_node.core``) and planners work without them.
"""

__version__ = "0.1.0"
