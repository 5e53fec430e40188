"""Runs a plan's steps in order through one backend and reports each step's outcome.

Open-loop, like the plan: no replanning. A step that fails, times out, is cancelled or meets the e-stop
ends the plan; what it said is reported like a success, so memory keeps the failure and the next plan can
avoid it. Steps after the failure are not run and not reported (memory learns what happened, not what
was skipped). A plan for another robot is refused before any step. Each step runs on a worker thread so
the executor keeps its own deadline even when an SDK call hangs: at the deadline the step is aborted, the
backend halted, and the timeout reported.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from memory_node.core.models import Plan, SkillFeedbackObservation
from memory_node.execution.backend import (
    CANCELLED,
    ESTOP,
    SDK_ERROR,
    SUCCEEDED,
    TIMEOUT,
    Backend,
    StepAborted,
    StepContext,
    StepOutcome,
    StepRequest,
    sdk_words,
)
from memory_node.planning.skills import SkillLibrary

log = logging.getLogger(__name__)

# After an abort, how long a step's thread may take to notice it before the executor stops waiting
ABORT_GRACE_S = 2.0


@dataclass
class StepReport:
    index: int
    skill: str
    args: tuple[str, ...]
    outcome: StepOutcome
    seconds: float


@dataclass
class PlanRun:
    """What became of one plan: ``status`` is succeeded, failed (a step failed), refused (nothing run)."""

    plan_id: str
    robot: str
    instruction: str
    steps_total: int
    status: str = "running"
    reason: str = ""
    steps: list[StepReport] = field(default_factory=list)

    @property
    def succeeded(self) -> bool:
        return self.status == SUCCEEDED

    def summary(self) -> dict:
        return {"plan_id": self.plan_id, "robot": self.robot, "instruction": self.instruction,
                "status": self.status, "reason": self.reason, "steps_total": self.steps_total,
                "steps_run": len(self.steps), "steps_succeeded": sum(s.outcome.success for s in self.steps),
                "steps": [{"skill": s.skill, "args": list(s.args), "success": s.outcome.success,
                           "status": s.outcome.status, "message": s.outcome.message,
                           "seconds": round(s.seconds, 3)} for s in self.steps]}


class _Clock:
    """Feedback stamps: wall time, strictly increasing (memory orders events by them)."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            self._last = max(time.time_ns(), self._last + 1)
            return self._last


class PlanExecutor:
    """One backend, one plan at a time (``execute`` blocks; ``cancel``/``engage_estop`` from any thread).

    ``report`` receives every step's feedback as memory ingests it; ``step_timeout_s`` bounds a step,
    ``timeouts`` overrides it per skill role or name (navigation takes longer than a gripper)."""

    def __init__(self, backend: Backend, report: Callable[[SkillFeedbackObservation], None],
                 step_timeout_s: float = 30.0, timeouts: dict[str, float] | None = None,
                 library: SkillLibrary | None = None) -> None:
        self.backend = backend
        self.robot = backend.robot
        self.report = report
        self.step_timeout_s = float(step_timeout_s)
        self.timeouts = dict(timeouts or {})
        self.library = library
        self.clock = _Clock()
        self._lock = threading.Lock()  # one plan at a time
        self._state = threading.Lock()  # guards _ctx and _estop
        self._ctx: StepContext | None = None
        self._cancel_requested = False
        self._estop = False

    # ---- control from other threads ------------------------------------------------------------------

    @property
    def estopped(self) -> bool:
        return self._estop

    def cancel(self) -> bool:
        """Abort the running step (reported as cancelled) and halt the robot; False when none runs."""
        with self._state:
            ctx = self._ctx
            self._cancel_requested = ctx is not None
        if ctx is None:
            return False
        ctx.abort(CANCELLED, "cancelled by the operator")
        self._halt()
        return True

    def engage_estop(self) -> None:
        """E-stop: the backend's own e-stop first, then the running step aborted; plans are refused
        (their first step reported as an e-stop failure) until ``release_estop``."""
        with self._state:
            self._estop = True
            ctx = self._ctx
        try:
            self.backend.set_estop(True)
        finally:
            if ctx is not None:
                ctx.abort(ESTOP, "the e-stop was engaged")
            self._halt()

    def release_estop(self) -> None:
        self.backend.set_estop(False)
        with self._state:
            self._estop = False

    def _halt(self) -> None:
        try:
            self.backend.halt()
        except Exception as err:  # noqa: BLE001 - a halt that fails is logged; the step still ends
            log.error("halting the %s backend failed: %s", self.backend.name, err)

    # ---- running ---------------------------------------------------------------------------------------

    def execute(self, plan: Plan, plan_id: str) -> PlanRun:
        run = PlanRun(plan_id=plan_id, robot=plan.robot, instruction=plan.instruction, steps_total=len(plan.steps))
        if plan.robot and plan.robot != self.robot:
            run.status, run.reason = "refused", f"the plan is for {plan.robot}; this executor drives {self.robot}"
            return run
        if not plan.steps:
            run.status, run.reason = "refused", "the plan has no steps"
            return run
        with self._lock:
            self._cancel_requested = False
            for index, call in enumerate(plan.steps):
                request = self._request(plan, index, plan_id)
                started = time.monotonic()
                outcome = self._run_step(request)
                run.steps.append(StepReport(index, call.skill, request.args, outcome, time.monotonic() - started))
                self._report(run, index, request, outcome)
                if not outcome.success:
                    run.status, run.reason = "failed", f"step {index + 1} {call.skill}: {outcome.status}"
                    return run
            run.status = SUCCEEDED
            return run

    def _request(self, plan: Plan, index: int, plan_id: str = "") -> StepRequest:
        call = plan.steps[index]
        skill = self.library.skill(call.skill) if self.library is not None else None
        positions = tuple(None if p is None else (p.x, p.y, p.z) for p in call.arg_positions)
        approach = None if call.approach is None else (call.approach.position.x, call.approach.position.y,
                                                        call.approach.yaw)
        next_target = ""  # what the robot handles at the place it navigates to (none when it drives on)
        for later in plan.steps[index + 1:]:
            later_skill = self.library.skill(later.skill) if self.library is not None else None
            if later_skill is not None and later_skill.role == "navigate":
                break
            if later.args:
                next_target = later.args[0]
                break
        return StepRequest(skill=call.skill, args=tuple(call.args), role=skill.role if skill else "",
                           arg_positions=positions, approach=approach, next_target=next_target,
                           plan_id=plan_id, index=index + 1, text=call.text)

    def _timeout(self, request: StepRequest) -> float:
        return float(self.timeouts.get(request.skill, self.timeouts.get(request.role, self.step_timeout_s)))

    def _run_step(self, request: StepRequest) -> StepOutcome:
        timeout = self._timeout(request)
        ctx = StepContext(deadline=time.monotonic() + timeout)
        with self._state:
            if self._estop:
                return StepOutcome(False, ESTOP, "not started: the e-stop is engaged", _target(request))
            if self._cancel_requested:
                return StepOutcome(False, CANCELLED, "not started: the plan was cancelled", _target(request))
            self._ctx = ctx
        result: list[StepOutcome] = []

        def work() -> None:
            try:
                result.append(self.backend.run(request, ctx))
            except StepAborted as aborted:
                result.append(StepOutcome(False, aborted.status, aborted.message, _target(request)))
            except Exception as err:  # noqa: BLE001 - an SDK error is the step's failure, not the executor's
                log.exception("step %s failed in the %s backend", request.skill, self.backend.name)
                result.append(StepOutcome(False, SDK_ERROR, f"{type(err).__name__}: {sdk_words(str(err))}",
                                          _target(request)))

        worker = threading.Thread(target=work, name=f"step-{request.skill}", daemon=True)
        worker.start()
        try:
            worker.join(timeout)
            if worker.is_alive():  # past the deadline and the backend did not return: abort it
                ctx.abort(TIMEOUT, f"no result within the step's timeout of {timeout:.1f} s")
                self._halt()
                worker.join(ABORT_GRACE_S)
            elif ctx.aborted:
                worker.join(ABORT_GRACE_S)
        finally:
            with self._state:
                self._ctx = None
        if ctx.aborted:
            status, message = ctx._reason
            if result and result[0].success:  # finished just as the abort came: it did happen
                return result[0]
            return StepOutcome(False, status, message, _target(request))
        if not result:
            return StepOutcome(False, TIMEOUT, f"no result within the step's timeout of {timeout:.1f} s",
                               _target(request))
        return result[0]

    def _report(self, run: PlanRun, index: int, request: StepRequest, outcome: StepOutcome) -> None:
        message = f"plan {run.plan_id} step {index + 1}/{run.steps_total} ({self.backend.name}): {outcome.message}"
        fb = SkillFeedbackObservation(stamp_ns=self.clock(), robot=self.robot, skill=request.skill,
                                      args=list(request.args), target_id=outcome.target_id or _target(request),
                                      success=outcome.success, status=outcome.status, message=message,
                                      plan_id=run.plan_id, plan_step=index + 1)
        self.report(fb)


def _target(request: StepRequest) -> str:
    return request.args[0] if request.args else ""
