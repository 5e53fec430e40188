"""Executor guarantees no real SDK can be made to show: a backend call that never returns."""

from __future__ import annotations

import threading
import time

from memory_node.core.models import Plan, SkillCall
from memory_node.execution.backend import CANCELLED, ESTOP, StepOutcome
from memory_node.execution.executor import PlanExecutor
from memory_node.world.state import INTERRUPTED_STATUSES


class HungBackend:
    """Its first step blocks without looking at the step's context, as a hung SDK call would."""

    name = "hung"
    robot = "vega"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.halts = 0

    def capabilities(self):
        return {}

    def run(self, step, ctx):
        if step.skill == "navigate_to":
            self.release.wait(30)
        return StepOutcome(True, "succeeded", "done", step.args[0])

    def halt(self):
        self.halts += 1

    def set_estop(self, engaged):
        pass

    def close(self):
        pass


def test_a_hung_backend_call_times_out_on_the_executors_own_clock_and_the_robot_is_halted():
    backend = HungBackend()
    feedback = []
    ex = PlanExecutor(backend, feedback.append, step_timeout_s=0.5)
    started = time.monotonic()
    run = ex.execute(Plan(robot="vega", instruction="x", steps=[SkillCall(skill="navigate_to", args=["a"]),
                                                                SkillCall(skill="pick", args=["b"])]), "p")
    took = time.monotonic() - started
    backend.release.set()
    assert [s.outcome.status for s in run.steps] == ["timeout"] and backend.halts == 1
    assert took < 0.5 + 2.0 + 1.0  # the timeout plus the abort grace, not the 30 s the call hangs
    assert feedback[0].status == "timeout" and "plan p step 1/2" in feedback[0].message


def test_the_executors_interruptions_are_what_planning_ignores_as_failures():
    assert {CANCELLED, ESTOP} == set(INTERRUPTED_STATUSES)
