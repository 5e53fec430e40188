"""Going where the words said once the task is done (``Request.go_after``, read by ``language/going_after.py``):
"put the mug in the sink and then go to the bedroom", "bring me the juice and head back to the kitchen".

The place is a room or a thing memory knows, grounded as ``go`` grounds it; the drive is the plan's last step,
after any closing. A place memory cannot ground ("then go to the garage") is said in the plan's explanation and the
task is still planned: the task was the request, the go what follows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..answering.context import Reply
from ..world.phrasing import describe

if TYPE_CHECKING:  # the builder imports this module
    from .planner import _PlanBuilder


def go_said(b: _PlanBuilder) -> None:
    ref = b.ctx.request.go_after
    if ref is None:
        return
    from .planner import PlanningError  # noqa: PLC0415 - the builder's module imports this one

    try:
        target = b.place_to_go(ref)
    except (PlanningError, Reply) as e:
        why = e.answer.answer if isinstance(e, Reply) else str(e)
        b.notes.append(f"not gone to '{ref.text}' after: {why}")
        return
    navigate = b.library.by_role("navigate")
    last = b.plan.steps[-1] if b.plan.steps else None
    if navigate is None:
        b.notes.append(f"robot {b.library.robot} has no navigate skill: not gone to {describe(b.world, target)}")
        return
    if last is not None and last.skill == navigate.name and list(last.args) == [target]:
        return  # the task already ended there
    b._add("navigate", target)
    said = f"go to {describe(b.world, target)}"
    b.summary = f"{b.summary}; then {said}" if b.summary else said
