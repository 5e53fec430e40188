"""Which plan skills go to a team's own skill servers, and the backend that routes them there.

Neither robot SDK grasps or opens things (docs/execution.md): a team provides pick, place, open and close as
its own ROS 2 action or service servers. The executor reads a *skill-server map* per robot
(``config/execution/skill_servers/<robot>.yaml``): for each skill of the robot's skill library (by name, or
by role), the server's name, its type and the parameters sent with every call. ``RoutedBackend`` sends
those skills to the skill-server backend (``memory_node/ros/skill_server_backend.py``, the only part that
speaks ROS) and every other skill to the robot's SDK backend.

The map is its own file rather than a section of ``config/skills/<robot>.yaml``: that file is the planner's
(what a plan may contain), read strictly; this one is the executor's (how a step is carried out), and a
team changes it without touching what the planner plans.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from memory_node.core.yaml_model import load_yaml_model
from memory_node.execution.backend import Backend, StepContext, StepOutcome, StepRequest, not_offered

log = logging.getLogger(__name__)

ACTION_TYPE = "memory_node/action/RunSkill"
SERVICE_TYPE = "memory_node/srv/RunSkill"
TRIGGER_TYPE = "std_srvs/srv/Trigger"  # for a server that takes no arguments (e.g. "close the gripper")
ACTION_TYPES = (ACTION_TYPE,)
SERVICE_TYPES = (SERVICE_TYPE, TRIGGER_TYPE)

# A ROS name: absolute or relative, tokens of letters, digits and _ (no ~ or substitutions: the server is
# someone else's, never this node's private name)
_ROS_NAME = re.compile(r"^/?[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*$")


class SkillServerMapError(ValueError):
    pass


class SkillServer(BaseModel):
    """One skill's server: exactly one of ``action`` or ``service``; ``type`` defaults to this package's
    RunSkill action or service; ``timeout_s`` overrides the executor's step timeout for this skill;
    ``server_wait_s`` is how long a step waits for the server to appear before failing with no_server."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: str = ""
    service: str = ""
    type: str = ""
    timeout_s: float | None = Field(default=None, gt=0)
    server_wait_s: float = Field(default=5.0, gt=0)
    parameters: dict[str, str | int | float | bool] = Field(default_factory=dict)

    @field_validator("action", "service")
    @classmethod
    def _name(cls, v: str) -> str:
        if v and not _ROS_NAME.match(v):
            raise ValueError(f"{v!r} is not a ROS name (letters, digits, _ and /)")
        return v

    @model_validator(mode="after")
    def _one_server(self) -> SkillServer:
        if bool(self.action) == bool(self.service):
            raise ValueError("give exactly one of action or service")
        kind, allowed = ("action", ACTION_TYPES) if self.action else ("service", SERVICE_TYPES)
        if self.type and self.type not in allowed:
            raise ValueError(f"{kind} type {self.type!r} is not supported; one of {', '.join(allowed)}")
        return self

    @property
    def kind(self) -> str:
        return "action" if self.action else "service"

    @property
    def name(self) -> str:
        return self.action or self.service

    @property
    def interface(self) -> str:
        return self.type or (ACTION_TYPE if self.action else SERVICE_TYPE)


class SkillServerMap(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    robot: str
    servers: dict[str, SkillServer]

    @classmethod
    def load(cls, path: str | Path) -> SkillServerMap:
        return load_yaml_model(cls, path, "skill-server map", "robot and servers", SkillServerMapError)

    def check(self, robot: str, skills: dict[str, str]) -> None:
        """Refuse a map for another robot, or one naming a skill the library does not have (a typo would
        otherwise leave the skill on the SDK backend without a word). ``skills``: name -> role."""
        if self.robot != robot:
            raise SkillServerMapError(f"the skill-server map is for {self.robot}, the executor drives {robot}")
        known = set(skills) | set(skills.values())
        unknown = sorted(set(self.servers) - known)
        if unknown:
            raise SkillServerMapError(f"the skill-server map names {', '.join(unknown)}, not a skill or role of "
                                      f"the {robot} skill library ({', '.join(sorted(known))})")

    def timeouts(self) -> dict[str, float]:
        return {skill: s.timeout_s for skill, s in self.servers.items() if s.timeout_s is not None}

    def for_step(self, step: StepRequest) -> SkillServer | None:
        """The server of a step: by skill name first, then by role."""
        return self.servers.get(step.skill) or (self.servers.get(step.role) if step.role else None)


class NoSdkBackend:
    """The SDK side of a robot driven only through its team's skill servers: every skill that the map does
    not send to a server is refused."""

    name = "no_sdk"

    def __init__(self, robot: str) -> None:
        self.robot = robot

    def capabilities(self) -> dict[str, str]:
        return {}

    def run(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        return not_offered(step, "skill_servers", "the skill-server map sends it to no server and no robot SDK "
                                                  "backend is configured")

    def halt(self) -> None:
        pass

    def set_estop(self, engaged: bool) -> None:
        pass

    def close(self) -> None:
        pass


class RoutedBackend:
    """The robot's SDK backend, with the skills of a skill-server map sent to the skill-server backend
    instead. Halt, e-stop and close reach both: a cancel or an e-stop must stop a skill server's motion as
    well as the base's."""

    def __init__(self, primary: Backend, servers: Backend, skill_map: SkillServerMap) -> None:
        self.primary = primary
        self.servers = servers
        self.skill_map = skill_map
        self.robot = primary.robot
        self.name = f"{primary.name}+{servers.name}"

    def _backend(self, step: StepRequest) -> Backend:
        return self.servers if self.skill_map.for_step(step) is not None else self.primary

    def capabilities(self) -> dict[str, str]:
        caps = dict(self.primary.capabilities())
        for skill, server in self.skill_map.servers.items():
            caps[skill] = f"{server.kind} {server.name} ({server.interface})"
        return caps

    def run(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        return self._backend(step).run(step, ctx)

    def _each(self, what: str, *args: Any) -> None:
        errors = []
        for backend in (self.primary, self.servers):
            try:
                getattr(backend, what)(*args)
            except Exception as err:  # noqa: BLE001 - the other backend must still be reached
                errors.append(err)
                log.error("%s of the %s backend failed: %s", what, backend.name, err)
        if errors:
            raise errors[0]

    def halt(self) -> None:
        self._each("halt")

    def set_estop(self, engaged: bool) -> None:
        self._each("set_estop", engaged)

    def close(self) -> None:
        self._each("close")


__all__ = ["ACTION_TYPE", "SERVICE_TYPE", "TRIGGER_TYPE", "NoSdkBackend", "RoutedBackend", "SkillServer", "SkillServerMap",
           "SkillServerMapError"]
