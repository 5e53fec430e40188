"""memory_node: persistent, queryable robot memory for ROS 2.

When built with colcon, the generated interfaces live beside this file as ``memory_node.msg`` and
``memory_node.srv``; the engine (``memory_node.core``) and planners work without them.
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    """``memory_node.Memory`` (the engine as a Python library, memory_node/memory.py), imported on first use
    so that ``import memory_node.ros...`` does not pay for it."""
    if name == "Memory":
        from memory_node.memory import Memory

        return Memory
    raise AttributeError(f"module 'memory_node' has no attribute {name!r}")


__all__ = ["Memory", "__version__"]
