"""What every backend implements, and what a step sees while it runs.

A backend runs one plan step at a time on a worker thread of the executor; ``halt`` and ``set_estop`` come
from another thread (cancel, timeout, e-stop) and must stop the robot's motion at once. A backend never
fakes a skill it cannot do: ``not_offered`` is the failure it reports instead, so memory records that the
skill was refused, not done.
"""

from __future__ import annotations

import math
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Protocol

# Statuses a step ends with (SkillFeedback.status). Memory reads a failure whose status or message says
# "locked" as a locked container (core/store.py), so these never contain that word.
SUCCEEDED = "succeeded"
NOT_OFFERED = "not_offered"
TIMEOUT = "timeout"
CANCELLED = "cancelled"
ESTOP = "estop"
SDK_ERROR = "sdk_error"
BAD_ARGUMENTS = "bad_arguments"
NO_POSE = "no_pose"
NOT_REACHED = "not_reached"
NO_SERVER = "no_server"  # a team's skill server did not answer (not running, wrong name)
REJECTED = "rejected"  # a team's skill server refused the goal


@dataclass(frozen=True)
class StepRequest:
    """One plan step as a backend needs it. ``role`` is the skill's role in the robot's skill library
    (navigate, pick, ...; '' when the library does not know the skill); positions are in the map frame,
    None where memory did not know them; ``approach`` is (x, y, yaw) or None."""

    skill: str
    args: tuple[str, ...]
    role: str = ""
    arg_positions: tuple[tuple[float, float, float] | None, ...] = ()
    approach: tuple[float, float, float] | None = None
    next_target: str = ""  # what the plan handles after this step (a simulator stands where that is in reach)
    plan_id: str = ""  # which plan and step this is (1-based), for a skill server's logs
    index: int = 0
    text: str = ""  # the plan's human-readable step


@dataclass(frozen=True)
class StepOutcome:
    success: bool
    status: str
    message: str
    target_id: str = ""


def not_offered(step: StepRequest, backend: str, why: str) -> StepOutcome:
    return StepOutcome(False, NOT_OFFERED, f"{step.skill} is not offered by the {backend} backend: {why}",
                       step.args[0] if step.args else "")


_BLOCKED = re.compile(r"\bblocked\b", re.IGNORECASE)


def sdk_words(text: str) -> str:
    """An SDK's error text as feedback: one line, and without "blocked" (dexcontrol's e-stop errors say
    "write ... blocked", which memory would read as a locked target)."""
    return _BLOCKED.sub("refused", " ".join(str(text).split()))[:500]


class StepAborted(Exception):
    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class StepContext:
    """The running step's deadline and abort flag. Backends call ``check``/``wait`` in their loops; the
    executor calls ``abort`` from its own thread (cancel, e-stop, timeout)."""

    deadline: float  # time.monotonic() value
    _abort: threading.Event = field(default_factory=threading.Event)
    _reason: tuple[str, str] = (CANCELLED, "cancelled")

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def abort(self, status: str, message: str) -> None:
        self._reason = (status, message)
        self._abort.set()

    @property
    def aborted(self) -> bool:
        return self._abort.is_set()

    def check(self) -> None:
        if self._abort.is_set():
            raise StepAborted(*self._reason)
        if time.monotonic() >= self.deadline:
            raise StepAborted(TIMEOUT, "the step ran past its timeout")

    def wait(self, seconds: float) -> None:
        """Sleep, waking at once on abort; then ``check``."""
        self._abort.wait(max(0.0, min(seconds, self.remaining())))
        self.check()


class Backend(Protocol):
    name: str
    robot: str

    def capabilities(self) -> dict[str, str]:
        """Role or skill -> what it does on this backend ('not offered: ...' where it refuses)."""
        ...

    def run(self, step: StepRequest, ctx: StepContext) -> StepOutcome: ...

    def halt(self) -> None:
        """Stop all motion now (any thread)."""
        ...

    def set_estop(self, engaged: bool) -> None: ...

    def close(self) -> None: ...


def finite_pose(pose: tuple[float, float, float] | None) -> bool:
    return pose is not None and all(math.isfinite(v) for v in pose)
