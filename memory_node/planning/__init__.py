"""Plans: the skill library, the planner that turns a read request into skill calls over memory's world state,
the search over the library's preconditions and effects, pose placement and the validator. Pure Python; never
imports rclpy. Requests reach it through ``memory_node.requests``."""

from .skills import Skill, SkillLibrary, SkillLibraryError, default_library_path
from .validator import PlanValidator

__all__ = ["PlanValidator", "Skill", "SkillLibrary", "SkillLibraryError", "default_library_path"]
