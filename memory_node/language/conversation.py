"""What each speaker referred to last, so "bring it to me" after "where is my mug?" means that mug.

Kept by the node (one per node, shared by ~/ask and ~/plan) and passed to every request; not in the
database: it is dialogue state, not experience, and a restart forgets it as a person would expect.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

MAX_SPEAKERS = 256  # oldest forgotten first: a node serving a household never comes near it


class Conversation:
    """Per speaker: the entity ids the previous request was about (its objects, in order), and the request."""

    def __init__(self, max_speakers: int = MAX_SPEAKERS) -> None:
        self._last: OrderedDict[str, list[str]] = OrderedDict()
        self._requests: OrderedDict[str, Any] = OrderedDict()  # speaker -> the previous Request (see followup.py)
        # speaker -> (request, phrase, entity id) the robot asked "do you mean ...?" about
        self._pending: OrderedDict[str, tuple[Any, str, str]] = OrderedDict()
        self._max = max_speakers
        self._lock = threading.Lock()  # ~/ask and ~/plan may be served on different threads (LLM mode)

    def last(self, speaker: str) -> list[str]:
        with self._lock:
            return list(self._last.get(speaker, []))

    def last_request(self, speaker: str) -> Any:
        """The speaker's previous request (a ``Request``), or None."""
        with self._lock:
            return self._requests.get(speaker)

    def remember_request(self, speaker: str, request: Any) -> None:
        """Keep ``request`` so that "the blue one" / "no, the other one" next can finish or correct it."""
        with self._lock:
            self._requests[speaker] = request
            self._requests.move_to_end(speaker)
            while len(self._requests) > self._max:
                self._requests.popitem(last=False)

    def expect_confirmation(self, speaker: str, request: Any, phrase: str, entity_id: str) -> None:
        """The robot asked whether ``phrase`` in ``request`` means ``entity_id``; a "yes" next confirms it."""
        with self._lock:
            self._pending[speaker] = (request, phrase, entity_id)
            self._pending.move_to_end(speaker)
            while len(self._pending) > self._max:
                self._pending.popitem(last=False)

    def take_confirmation(self, speaker: str) -> tuple[Any, str, str] | None:
        """The open "do you mean ...?" of ``speaker``, forgotten once taken (one answer answers it)."""
        with self._lock:
            return self._pending.pop(speaker, None)

    def remember(self, speaker: str, entity_ids: list[str]) -> None:
        ids = [i for i in dict.fromkeys(entity_ids) if i]
        if not ids:
            return
        with self._lock:
            self._last[speaker] = ids
            self._last.move_to_end(speaker)
            while len(self._last) > self._max:
                self._last.popitem(last=False)
