"""Understanding people: utterance -> one typed request (``parse``), phrase -> memory's entities
(``grounding``). Pure Python; never imports rclpy, and nothing here answers or plans (``planning/`` does)."""

from .conversation import Conversation
from .parser import ParserUnavailable, parse
from .request import Anchor, Intent, Kind, ObjectRef, Request, TimeRef

__all__ = ["Anchor", "Conversation", "Intent", "Kind", "ObjectRef", "ParserUnavailable", "Request", "TimeRef", "parse"]
