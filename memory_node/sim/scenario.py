"""Scenario scripts: an experience phase the simulated robot lives through, then requests with graders.

A scenario is a YAML file (``config/scenarios/*.yaml``) that names a scene (``config/sim/scenes``) and
lists, in order, what happens while memory listens, then what is asked. The research this package follows
evaluates memory exactly so: a scripted experience, then requests whose plans run open-loop in the
simulator, graded on the final simulator state. Format::

    name: moved_twice
    description: one line
    scene: small_home               # config/sim/scenes/<scene>.yaml, or a path
    robot: vega
    experience:                     # in order
      - tour: [kitchen_1, livingroom_1]        # visit rooms, looking at each piece of furniture in them
      - look: [table_1]                        # go to these and look
      - move: {object: mug_1, to: table_2, relation: on}   # a person moves it while the robot is away
      - set_state: {object: cabinet_1, state: locked}      # the world changes, unseen
      - say: {text: "my mug is the blue one", speaker: alice}
      - do: {skill: open, args: [cabinet_1]}   # the robot tries a skill; memory hears the outcome
      - activity: {actor: alice, verb: pour, objects: [juice_1, cup_1]}
    requests:
      - ask: where is the mug?
        expect: {answer_ids: [table_2]}        # and/or answer_contains: [...], not_known: true
      - plan: bring me the mug
        expect: {holding: mug_1}               # over the final simulator state, after open-loop execution
      - plan: bring me the shampoo
        expect: {refused: locked}              # the plan must be refused, its reason containing this

Plan graders (all given must hold): ``refused``, ``holding``, ``located: [object, on|in, parent]``,
``open`` / ``closed`` (ids), ``handed_over`` (id), ``executed`` (every step succeeded), ``not_skill``
(a skill-and-target pair the plan must not contain, e.g. ``[open, cabinet_1]``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..core.resources import config_path

SCENARIO_DIR = Path("scenarios")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MoveStep(_Strict):
    object: str
    to: str
    relation: Literal["on", "in"] = "on"


class StateStep(_Strict):
    object: str
    state: str


class SayStep(_Strict):
    text: str
    speaker: str = "user"


class DoStep(_Strict):
    skill: str
    args: list[str] = Field(default_factory=list)


class ActivityStep(_Strict):
    actor: str = "user"
    verb: str
    objects: list[str] = Field(default_factory=list)
    location: str = ""


class ExperienceStep(_Strict):
    """Exactly one of the fields."""

    tour: list[str] | None = None
    look: list[str] | None = None
    move: MoveStep | None = None
    set_state: StateStep | None = None
    say: SayStep | None = None
    do: DoStep | None = None
    activity: ActivityStep | None = None

    @model_validator(mode="after")
    def _one(self) -> ExperienceStep:
        given = [k for k, v in self if v is not None]
        if len(given) != 1:
            raise ValueError(f"an experience step has exactly one of tour/look/move/set_state/say/do/activity, "
                             f"got {given or 'none'}")
        return self

    @property
    def kind(self) -> str:
        return next(k for k, v in self if v is not None)


class Expect(_Strict):
    # questions
    answer_ids: list[str] = Field(default_factory=list)
    answer_contains: list[str] = Field(default_factory=list)
    not_known: bool = False
    # plans
    refused: str | None = None
    holding: str | None = None
    located: tuple[str, Literal["on", "in"], str] | None = None
    open: str | None = None
    closed: str | None = None
    handed_over: str | None = None
    executed: bool | None = None
    not_skill: tuple[str, str] | None = None


class Request(_Strict):
    ask: str | None = None
    plan: str | None = None
    robot: str = ""
    expect: Expect

    @model_validator(mode="after")
    def _one(self) -> Request:
        if (self.ask is None) == (self.plan is None):
            raise ValueError("a request has exactly one of ask / plan")
        if self.ask is not None and any(v is not None for v in (self.expect.refused, self.expect.holding,
                                                                 self.expect.located, self.expect.handed_over)):
            raise ValueError("a question is graded on its answer (answer_ids, answer_contains, not_known)")
        return self

    @property
    def text(self) -> str:
        return self.ask if self.ask is not None else str(self.plan)


class Scenario(_Strict):
    name: str
    description: str = ""
    scene: str
    robot: str = "vega"
    experience: list[ExperienceStep]
    requests: list[Request] = Field(min_length=1)


def scenario_path(name: str) -> Path:
    """A shipped scenario by name (``config/scenarios/<name>.yaml``) or a path to a user's file."""
    p = Path(name)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        return p
    return config_path(SCENARIO_DIR / f"{name}.yaml")


def load_scenario(name_or_path: str) -> Scenario:
    path = scenario_path(name_or_path)
    if not path.is_file():
        raise FileNotFoundError(f"no scenario {name_or_path!r} (looked for {path})")
    return Scenario.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def shipped_scenarios() -> list[str]:
    """Names, smallest scene first (then by name): the demo builds each scene once, in this order, so a
    first run shows results after the small home's build instead of after the apartment's minutes."""
    scenes = {p.stem: load_scenario(p.stem).scene for p in config_path(SCENARIO_DIR).glob("*.yaml")}
    sizes = {scene: _scene_size(scene) for scene in set(scenes.values())}
    return sorted(scenes, key=lambda name: (sizes[scenes[name]], scenes[name], name))


def _scene_size(scene: str) -> int:
    """Bodies of a scene (what its Genesis build grows with)."""
    from .scene_spec import load_scene_spec, shipped_scene

    spec = load_scene_spec(Path(scene) if Path(scene).suffix in (".yaml", ".yml") else shipped_scene(scene))
    return len(spec.furniture) + len(spec.objects)


# ---- grading ---------------------------------------------------------------------------------------


class SimFacts(Protocol):
    """What graders read from the simulator's final state."""

    def parent_of(self, obj: str) -> tuple[str, str] | None: ...  # (on|in, parent id)
    def held(self) -> set[str]: ...
    def states_of(self, ent: str) -> set[str]: ...
    def handed_over(self) -> set[str]: ...


class Outcome(BaseModel):
    """One graded request: what memory said or planned, what happened, and whether that passes."""

    request: str
    kind: Literal["ask", "plan"]
    passed: bool
    reply: str  # the answer, or the plan's steps / refusal
    executed: str = ""  # for plans: what the simulator did ("6/6 steps", "failed at step 3: ...")
    why: list[str] = Field(default_factory=list)  # the grader's checks that failed
    seconds: float = 0.0


def grade_answer(expect: Expect, answer: str, answer_ids: list[str], confidence: float) -> list[str]:
    """Failed checks for a question (empty: pass)."""
    bad = [f"answer_ids lacks {i}" for i in expect.answer_ids if i not in answer_ids]
    bad += [f"answer lacks {s!r}" for s in expect.answer_contains if s.lower() not in answer.lower()]
    if expect.not_known and confidence > 0.0:
        bad.append(f"expected 'not known', got confidence {confidence:.2f}")
    return bad


def grade_plan(expect: Expect, refused: str | None, steps: list[tuple[str, list[str]]], all_ok: bool,
               facts: SimFacts) -> list[str]:
    """Failed checks for a plan (empty: pass). ``refused`` is the refusal reason, None when planned."""
    if expect.refused is not None:
        if refused is None:
            return [f"expected a refusal ({expect.refused!r}), got a plan of {len(steps)} steps"]
        return [] if expect.refused.lower() in refused.lower() else [f"refusal {refused!r} lacks {expect.refused!r}"]
    if refused is not None:
        return [f"refused: {refused}"]
    bad = []
    if expect.executed is not None and all_ok != expect.executed:
        bad.append("not every step succeeded" if expect.executed else "expected a step to fail")
    if expect.not_skill is not None and [expect.not_skill[0], expect.not_skill[1]] in \
            [[s, a[0] if a else ""] for s, a in steps]:
        bad.append(f"plan contains {expect.not_skill[0]}({expect.not_skill[1]})")
    if expect.holding is not None and expect.holding not in facts.held():
        bad.append(f"robot does not hold {expect.holding}")
    if expect.handed_over is not None and expect.handed_over not in facts.handed_over():
        bad.append(f"{expect.handed_over} was not handed over")
    if expect.located is not None:
        obj, rel, parent = expect.located
        got = facts.parent_of(obj)
        if got != (rel, parent):
            bad.append(f"{obj} is {got[0] + ' ' + got[1] if got else 'nowhere known'}, not {rel} {parent}")
    for state, ent in (("open", expect.open), ("closed", expect.closed)):
        if ent is not None and state not in facts.states_of(ent):
            bad.append(f"{ent} is not {state}")
    return bad
