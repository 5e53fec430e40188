"""Request understanding, planning and plan validation over memory. Pure Python; never imports rclpy."""

from .dispatch import answer_question
from .llm import LlmAccount, LlmConfig, LlmPlanner, LlmStats, llm_answer_question, llm_plan_request
from .dispatch import plan_request
from ..language.resolve import Candidate, resolve_entities, resolve_rooms
from .skills import Skill, SkillLibrary, SkillLibraryError, default_library_path
from .validator import PlanValidator
from .world import KnownFailure, WorldState

__all__ = [
    "Candidate",
    "KnownFailure",
    "LlmAccount",
    "LlmConfig",
    "LlmPlanner",
    "LlmStats",
    "PlanValidator",
    "Skill",
    "SkillLibrary",
    "SkillLibraryError",
    "WorldState",
    "answer_question",
    "default_library_path",
    "llm_answer_question",
    "llm_plan_request",
    "plan_request",
    "resolve_entities",
    "resolve_rooms",
]
