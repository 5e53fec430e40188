"""The gate every plan passes before it leaves the node.

A controller executes plans open-loop, so a step it cannot run (unknown skill, invented id, unmet
precondition, a call memory already saw fail) costs a real failure on the robot. Checking here, against
the robot's own library and a dry run over what memory believes, turns those into a refusal with reasons.
"""

from __future__ import annotations

from ..core.models import Plan, SkillCall
from .affordances import not_container, not_graspable, not_receptacle, too_big_for
from ..world.phrasing import describe
from .skills import Skill, SkillArg, SkillLibrary
from ..world.state import WorldState


def _call_text(step: SkillCall) -> str:
    return f"{step.skill}({', '.join(step.args)})"


class PlanValidator:
    def __init__(self, library: SkillLibrary) -> None:
        self.library = library

    def validate(self, plan: Plan, world: WorldState) -> list[str]:
        """Problems with the plan, in step order; an empty list means the plan may be executed.

        The dry run applies each step's effects to a copy of ``world`` (with the library's hand count),
        and keeps going after a problem so one refusal lists everything wrong with the plan.
        """
        problems: list[str] = []
        if plan.robot and plan.robot != self.library.robot:
            problems.append(f"plan is for robot {plan.robot!r} but the skill library is "
                            f"{self.library.robot!r}")
        state = world.copy()
        state.hands = self.library.hands
        for i, step in enumerate(plan.steps, start=1):
            where = f"step {i} {_call_text(step)}"
            skill = self.library.skill(step.skill)
            if skill is None:
                problems.append(f"{where}: skill {step.skill!r} is not in the {self.library.robot} library "
                                f"({', '.join(self.library.names())})")
                continue
            structural = self._check_args(skill, step, state)
            problems += [f"{where}: {p}" for p in structural]
            if structural:
                continue  # without grounded arguments its conditions mean nothing
            failure = state.known_failure(step.skill, step.args)
            if failure is not None:
                problems.append(f"{where}: repeats a known failure: {failure.reason()}")
            binding = skill.bind(step.args)
            for pre in skill.preconditions:
                if not state.holds(pre, binding):
                    problems.append(f"{where}: precondition {pre.ground(binding)} is not satisfied")
            for eff in skill.effects:
                state.apply(eff, binding)
        return problems

    @staticmethod
    def _check_args(skill: Skill, step: SkillCall, world: WorldState) -> list[str]:
        if len(step.args) != len(skill.args):
            return [f"{skill.signature()} takes {len(skill.args)} argument(s), got {len(step.args)}"]
        problems = []
        for spec, value in zip(skill.args, step.args, strict=True):
            problem = _arg_problem(spec, value, world)
            if problem:
                problems.append(problem)
        if not problems:
            held = [v for spec, v in zip(skill.args, step.args, strict=True) if spec.type == "object"]
            onto = [v for spec, v in zip(skill.args, step.args, strict=True) if spec.type == "receptacle"]
            if held and onto:
                why = too_big_for(world, held[0], onto[0])
                if why:
                    problems.append(f"{describe(world, held[0])} cannot go on or in {describe(world, onto[0])}: {why}")
        return problems


def _arg_problem(spec: SkillArg, value: str, world: WorldState) -> str:
    if not world.known(value):
        return f"argument {spec.name}={value!r} is not an id in memory"
    if spec.type == "place":
        return ""
    if spec.type == "person":
        return "" if world.is_person(value) else f"argument {spec.name}={value!r} is not a person"
    why = {"object": not_graspable, "receptacle": not_receptacle, "container": not_container}.get(
        spec.type, lambda w, v: "")(world, value)
    if why:
        return f"{describe(world, value)} cannot be the {spec.name} of {spec.type} type: {why}"
    if world.is_room(value) and spec.type != "receptacle":
        return f"argument {spec.name}={value!r} is a room, not a {spec.type}"
    return ""
