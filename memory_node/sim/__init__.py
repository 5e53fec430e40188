"""Simulation core of the Genesis bridge: a household scene with a simulated Dexmate Vega.

Kept free of ROS (the bridge node in ``memory_node/ros`` wraps it) and importable without Genesis: the scene
format, the kinematic world state and the skill checks are plain Python, and only ``world.SimWorld`` imports
``genesis`` (lazily, because importing it costs ~12 s on these machines). See ``memory_node/sim/README.md``.
"""

from __future__ import annotations

from memory_node.sim.scene_spec import SceneSpec, load_scene_spec
from memory_node.sim.skills import SkillOutcome

__all__ = ["SceneSpec", "SkillOutcome", "load_scene_spec"]
