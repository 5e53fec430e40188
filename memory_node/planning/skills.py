"""Skill libraries: what a robot can do, written as data so the planner never hard-codes a robot.

A library is one YAML file per robot (``config/skills/<robot>.yaml``, format documented at the top of
those files). Preconditions and effects are small predicate strings over the symbolic world state
(``planning.world``); they are parsed and checked here, when the file loads, so a typo in a library is a
load error naming the file and the skill rather than a plan that silently validates wrong.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..core.models import HELD_BY_ROBOT, LOCATION_PREDICATES, RELEASED, STATE_FAMILIES
from ..core.yaml_model import load_yaml_model

# What the planner knows how to use. A skill's role says which planner step it fills, so two robots may
# name their skills differently (navigate_to / walk_to) and share one planner.
KNOWN_ROLES = ("navigate", "open", "close", "pick", "place", "handover", "pour")

ArgType = Literal["entity", "object", "receptacle", "place", "container", "person"]

STATE_PREDICATES = frozenset(s for family in STATE_FAMILIES for s in family)
# name -> number of arguments; "located" takes a literal relation in the middle (located(x, on, y)).
STRUCTURAL_PREDICATES: dict[str, int] = {
    "robot_at": 1,
    "near": 1,
    "hand_free": 0,
    "holding": 1,
    "accessible": 1,
    "located": 3,
}

_PRED_RE = re.compile(r"^(?P<neg>not\s+)?(?P<name>[a-z_][a-z0-9_]*)\s*(?:\((?P<args>[^()]*)\))?$")
log = logging.getLogger(__name__)
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class SkillLibraryError(ValueError):
    """A skill library file that cannot be used; the message names the file and what is wrong."""


class Predicate(BaseModel):
    """One parsed literal such as ``not closed(container)``; args are skill-argument names (or, for the
    relation slot of ``located``, a literal relation)."""

    model_config = ConfigDict(frozen=True)

    name: str
    args: tuple[str, ...] = ()
    negated: bool = False

    @classmethod
    def parse(cls, text: str) -> Predicate:
        m = _PRED_RE.match(text.strip())
        if not m:
            hint = " (in a YAML flow list, quote a literal that contains commas)" if text.count("(") != \
                text.count(")") else ""
            raise ValueError(f"cannot parse predicate {text!r}; expected e.g. 'near(container)' or "
                             f"'not closed(container)'{hint}")
        raw_args = m.group("args")
        args = tuple(a.strip() for a in raw_args.split(",")) if raw_args and raw_args.strip() else ()
        if any(not a for a in args):
            raise ValueError(f"empty argument in predicate {text!r}")
        return cls(name=m.group("name"), args=args, negated=bool(m.group("neg")))

    def __str__(self) -> str:
        inner = f"({', '.join(self.args)})" if self.args else ""
        return f"{'not ' if self.negated else ''}{self.name}{inner}"

    def ground(self, binding: Mapping[str, str]) -> str:
        """The literal with a step's ids in place of argument names, for messages a person reads."""
        args = [binding.get(a, a) if a in self.variables() else a for a in self.args]
        inner = f"({', '.join(args)})" if args else ""
        return f"{'not ' if self.negated else ''}{self.name}{inner}"

    def variables(self) -> tuple[str, ...]:
        """The arguments that must be bound to a step's ids (the relation slot of located is literal)."""
        if self.name == "located":
            return (self.args[0], self.args[2])
        return self.args


def _check_predicate(pred: Predicate, arg_names: set[str]) -> None:
    if pred.name in STRUCTURAL_PREDICATES:
        want = STRUCTURAL_PREDICATES[pred.name]
    elif pred.name in STATE_PREDICATES:
        want = 1
    else:
        known = sorted(STRUCTURAL_PREDICATES) + sorted(STATE_PREDICATES)
        raise ValueError(f"unknown predicate {pred.name!r} in {str(pred)!r}; known: {', '.join(known)}")
    if len(pred.args) != want:
        raise ValueError(f"{str(pred)!r}: {pred.name} takes {want} argument(s), got {len(pred.args)}")
    if pred.name == "located" and pred.args[1] not in LOCATION_PREDICATES:
        raise ValueError(f"{str(pred)!r}: relation must be one of {', '.join(LOCATION_PREDICATES)}")
    for var in pred.variables():
        if var not in arg_names:
            raise ValueError(f"{str(pred)!r} uses {var!r}, which is not an argument of this skill")


class SkillArg(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    type: ArgType

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME_RE.match(v):
            raise ValueError(f"argument name {v!r} must be lower-case letters, digits and _")
        return v


class Skill(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    role: str
    description: str
    args: list[SkillArg] = Field(default_factory=list)
    preconditions: list[Predicate] = Field(default_factory=list)
    effects: list[Predicate] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME_RE.match(v):
            raise ValueError(f"skill name {v!r} must be lower-case letters, digits and _")
        return v

    @field_validator("role")
    @classmethod
    def _role(cls, v: str) -> str:
        if v not in KNOWN_ROLES:
            raise ValueError(f"role {v!r} is not one the planner uses; known: {', '.join(KNOWN_ROLES)}")
        return v

    @field_validator("description")
    @classmethod
    def _description(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v:
            raise ValueError("description must not be empty")
        return v

    @field_validator("preconditions", "effects", mode="before")
    @classmethod
    def _parse(cls, v: Any) -> Any:
        if v is None:
            return []
        if not isinstance(v, list):
            raise ValueError("must be a list of predicate strings")
        for p in v:
            if not isinstance(p, (str, Predicate)):
                raise ValueError(f"predicate {p!r} is not a string (quote literals that contain commas)")
        return [Predicate.parse(p) if isinstance(p, str) else p for p in v]

    @model_validator(mode="after")
    def _consistent(self) -> Skill:
        names = [a.name for a in self.args]
        if len(set(names)) != len(names):
            raise ValueError(f"skill {self.name!r} repeats an argument name")
        for pred in (*self.preconditions, *self.effects):
            _check_predicate(pred, set(names))
        for eff in self.effects:
            if eff.name in ("near", "accessible", "hand_free"):
                raise ValueError(f"{str(eff)!r}: {eff.name} is derived from the state and cannot be an "
                                 "effect")
        return self

    def signature(self) -> str:
        return f"{self.name}({', '.join(a.name for a in self.args)})"

    def bind(self, values: Sequence[str]) -> dict[str, str]:
        """Argument name -> value of one call (the caller checked the count), what literals are read with."""
        return {a.name: v for a, v in zip(self.args, values, strict=True)}


class SkillLibrary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    robot: str
    hands: int = Field(ge=0)
    description: str = ""
    skills: list[Skill]

    @model_validator(mode="after")
    def _unique(self) -> SkillLibrary:
        seen: set[str] = set()
        for s in self.skills:
            if s.name in seen:
                raise ValueError(f"skill {s.name!r} is declared twice")
            seen.add(s.name)
        if not self.skills:
            raise ValueError("a skill library needs at least one skill")
        return self

    @classmethod
    def load(cls, path: str | Path) -> SkillLibrary:
        return load_yaml_model(cls, path, "skill library", "robot, hands and skills", SkillLibraryError)

    @classmethod
    def for_robot(cls, robot: str) -> SkillLibrary:
        return cls.load(default_library_path(robot))

    def skill(self, name: str) -> Skill | None:
        return next((s for s in self.skills if s.name == name), None)

    def by_role(self, role: str) -> Skill | None:
        """The first skill declared for a role, or None when this robot cannot do it."""
        return next((s for s in self.skills if s.role == role), None)

    def names(self) -> list[str]:
        return [s.name for s in self.skills]

    def state_effects(self) -> dict[str, tuple[tuple[int, str, bool], ...]]:
        """What each skill's success leaves true, as memory records it from skill feedback (core.models
        .SkillStateEffects): skill name -> (argument index, state, negated) for every state effect
        (``open(container)``, ``not closed(container)``); structural effects (robot_at, holding, located)
        are left to observation."""
        out: dict[str, tuple[tuple[int, str, bool], ...]] = {}
        for skill in self.skills:
            names = [a.name for a in skill.args]
            effects = tuple((names.index(e.args[0]), e.name, e.negated) for e in skill.effects
                            if e.name in STATE_PREDICATES)
            if effects:
                out[skill.name] = effects
        return out

    def location_effects(self) -> dict[str, tuple[tuple[int, str, int | str], ...]]:
        """Where each skill's success leaves the things it handled, as memory records it from skill
        feedback (core.models.SkillLocationEffects): ``holding(x)`` puts x in the robot's hand,
        ``located(x, on, y)`` puts it on y, ``not holding(x)`` with no place declared lets it go (a
        handover). Derived from the library, so a robot's own skill names need no code here."""
        out = {}
        for skill in self.skills:
            effects = _location_effects(skill)
            if effects:
                out[skill.name] = effects
        return out



def _location_effects(skill: Skill) -> tuple[tuple[int, str, int | str], ...]:
    names = [a.name for a in skill.args]
    located = {e.args[0] for e in skill.effects if e.name == "located" and not e.negated}
    out: list[tuple[int, str, int | str]] = []
    for e in skill.effects:
        if e.name == "located" and not e.negated:
            out.append((names.index(e.args[0]), e.args[1], names.index(e.args[2])))
        elif e.name == "holding" and not e.negated:
            out.append((names.index(e.args[0]), "held_by", HELD_BY_ROBOT))
        elif e.name == "holding" and e.args[0] not in located:
            out.append((names.index(e.args[0]), "", RELEASED))
    return tuple(out)


def _library_folders() -> list[Path]:
    """The installed share directory when ament knows the package, else the source tree (tests and
    ``pip install -e .`` run without an ament install)."""
    candidates: list[Path] = []
    try:
        from ament_index_python.packages import get_package_share_directory

        candidates.append(Path(get_package_share_directory("memory_node")) / "config" / "skills")
    except (ImportError, LookupError, OSError):
        pass  # no ament (pip install, tests) or not installed there: AMENT_PREFIX_PATH unset raises OSError
    candidates.append(Path(__file__).resolve().parents[2] / "config" / "skills")
    return candidates


def known_robots() -> list[str]:
    """The robots a skill library ships for ("g1", "vega"), for a reply naming them."""
    return sorted({p.stem for folder in _library_folders() if folder.is_dir() for p in folder.glob("*.yaml")
                   if _NAME_RE.match(p.stem)})


def default_library_path(robot: str) -> Path:
    """Where ``<robot>.yaml`` lives (see ``_library_folders``). The error names the robots that exist, never
    the folders searched: it is said to whoever sent the request."""
    if not _NAME_RE.match(robot) or len(robot) > 64:  # a file name, so a name, not a path or a megabyte
        raise SkillLibraryError(f"no skill library for robot {robot[:64]!r}; robots: {', '.join(known_robots())}")
    candidates = _library_folders()
    for folder in candidates:
        path = folder / f"{robot}.yaml"
        if path.is_file():
            return path
    log.debug("no %s.yaml in %s", robot, ", ".join(map(str, candidates)))
    raise SkillLibraryError(f"no skill library for robot {robot!r}; robots: {', '.join(known_robots())}")
