"""Memory engine: typed records and the SQLite store. Pure Python; never imports rclpy."""

from .models import InvalidInput
from .store import MemoryStore

__all__ = ["InvalidInput", "MemoryStore"]
