"""Closing what the words said to close once the task is done (``Request.close_after``, read by
``language/closing.py``): "put the milk in the fridge and close it", "open the microwave, put the lime in, shut
the microwave".

"It" (or a bare "the door") is the last thing the plan opened; a thing named is grounded as a place is, preferring
one the plan opened. The close goes right after the last step that used the thing, where the robot stands (the
plan is validated with it there); where that does not hold (hands full, a library whose close needs more), it is
planned after everything else. A thing already closed, or one the plan never opened and memory holds closed, is
left and said so; a closing that cannot be planned (a thing no close skill takes) is said in the plan's explanation,
and the task is still planned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..answering.context import Reply
from ..core.models import SkillCall
from ..language.request import ObjectRef
from ..world.phrasing import describe, step_text
from .validator import PlanValidator

if TYPE_CHECKING:  # the builder imports this module
    from .planner import _PlanBuilder


def close_said(b: _PlanBuilder) -> None:
    done: list[str] = []
    for ref in b.ctx.request.close_after:
        target = _target(b, ref)
        if target is None:
            continue
        if "open" not in b.state.states.get(target, set()):
            if "closed" in b.state.states.get(target, set()) and target not in _opened(b):
                b.notes.append(f"{describe(b.world, target)} is closed already")
            continue
        if not _close_where_used(b, target):
            from .planner import PlanningError  # noqa: PLC0415 - the builder's module imports this one

            try:
                b._achieve(lambda s: "closed" in s.states.get(target, set()), [target],
                           f"close {describe(b.world, target)}")
            except PlanningError as e:
                # the task itself can be done; the closing it cannot is said in the plan, not a reason to refuse
                b.notes.append(f"not closed: {e}")
                continue
        done.append(f"close {describe(b.world, target)}")
    if done:
        b.summary = f"{b.summary}; then {' and '.join(done)}" if b.summary else "; ".join(done)


def _steps(b: _PlanBuilder, role: str) -> list[SkillCall]:
    """The plan's steps of the library's skill for ``role``, in order."""
    skill = b.library.by_role(role)
    return [s for s in b.plan.steps if skill is not None and s.skill == skill.name]


def _opened(b: _PlanBuilder) -> list[str]:
    """What the plan opened, in order."""
    return [s.args[0] for s in _steps(b, "open") if s.args]


def _put_into(b: _PlanBuilder) -> str | None:
    """What the plan's last place step put the thing in or on."""
    return next((s.args[-1] for s in reversed(_steps(b, "place")) if len(s.args) > 1), None)


def _target(b: _PlanBuilder, ref: ObjectRef) -> str | None:
    opened = _opened(b)
    if ref.pronoun:
        if opened:
            return opened[-1]
        into = _put_into(b)
        if into is not None and "open" in b.state.states.get(into, set()):
            return into  # "put the mug in the fridge and close it": the fridge memory holds open
        b.notes.append(f"nothing was opened for '{ref.text}' to mean, so nothing is closed")
        return None
    try:
        found = b.grounder.ground(ref, "all")
        ids = [c.entity.id for c in found.candidates]
    except Exception:  # noqa: BLE001 - a phrase that cannot be grounded is handled below, by the planner's grounding
        ids = []
    mine = [o for o in reversed(opened) if o in ids]
    if mine:
        return mine[0]  # "shut the microwave": the one the plan opened, of several
    from .planner import PlanningError  # noqa: PLC0415

    try:
        return b._target(ref)
    except (PlanningError, Reply) as e:
        why = e.answer.answer if isinstance(e, Reply) else str(e)
        b.notes.append(f"not closed, '{ref.text}': {why}")
        return None


def _close_where_used(b: _PlanBuilder, target: str) -> bool:
    """Insert the close right after the last step that used ``target`` when the plan stays valid so."""
    skill = b.library.by_role("close")
    if skill is None or len(skill.args) != 1:
        return False
    last = max((i for i, s in enumerate(b.plan.steps) if target in s.args), default=None)
    if last is None:
        return False
    step = SkillCall(skill=skill.name, args=[target], text=step_text(b.world, "close", (target,)))
    b.plan.steps.insert(last + 1, step)
    if PlanValidator(b.library).validate(b.plan, b.world):
        del b.plan.steps[last + 1]
        return False
    binding = skill.bind([target])
    for eff in skill.effects:
        b.state.apply(eff, binding)
    return True
