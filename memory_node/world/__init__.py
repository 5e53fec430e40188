"""What requests read out of memory: the symbolic world state (``state``) shared by answers, plans and
validation, and the wording that names a thing the same way everywhere (``phrasing``)."""

from .state import KnownFailure, WorldState

__all__ = ["KnownFailure", "WorldState"]
