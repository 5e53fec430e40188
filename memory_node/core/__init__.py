"""Memory engine: typed records and the SQLite store. Pure Python; never imports rclpy."""

from .models import InvalidInput, RejectedInput
from .store import MemoryStore

__all__ = ["InvalidInput", "MemoryStore", "RejectedInput"]
