"""The optional LLM client: an OpenAI-compatible model reads a request and calls memory's tools, with the
deterministic path (``memory_node.requests``) as its fallback and every plan checked by the validator."""

from .client import LlmAccount, LlmConfig, LlmPlanner, LlmStats, llm_answer_question, llm_plan_request

__all__ = ["LlmAccount", "LlmConfig", "LlmPlanner", "LlmStats", "llm_answer_question", "llm_plan_request"]
