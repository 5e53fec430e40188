"""The way in: a request's words are read (``memory_node.language``), then routed here to an answer
(``memory_node.answering``) or a plan (``memory_node.planning``), with follow-ups, ask-backs and
confirmations kept per conversation. Pure Python; never imports rclpy."""

from .dispatch import answer_question, plan_request

__all__ = ["answer_question", "plan_request"]
