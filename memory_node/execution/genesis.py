"""The Genesis simulation as a backend: the simulated Vega of ``memory_node.sim`` behind the same interface
as the real robots, so a plan runs through the same executor (timeouts, e-stop, one feedback per step)
in simulation and on a robot.

It wraps a ``SimBridge`` (``memory_node.ros.genesis_bridge``): a step is the simulator's skill
(``SimWorld.execute``, with the plan's approach pose for navigation), after which the bridge publishes what
the head camera sees, as the live bridge does. The executor, not the bridge, publishes the feedback. The
simulator offers every skill of the Vega's library (navigate, open, close, pick, place, handover): what
fails there fails for the reason the simulated home gives (locked, out of reach, hands full).
"""

from __future__ import annotations

import threading
from typing import Any

from memory_node.execution.backend import StepContext, StepOutcome, StepRequest, finite_pose

# Said when memory knew no approach pose and the simulator looked the target up itself (as the bridge says)
NO_APPROACH = "the plan has no approach pose (memory did not know one): the simulator looked the target up"


class GenesisBackend:
    name = "genesis"

    def __init__(self, bridge: Any, look: bool = True, lock: threading.Lock | None = None) -> None:
        self.bridge = bridge
        self.robot = bridge.robot
        self.look = look
        self.lock = lock or threading.Lock()  # the simulator is driven from one thread at a time
        self._estop = False

    def capabilities(self) -> dict[str, str]:
        return {skill: "simulated (memory_node/sim/skills.py)" for skill in self.bridge.world.skills.skills}

    def run(self, step: StepRequest, ctx: StepContext) -> StepOutcome:
        navigate = step.role == "navigate"
        approach = step.approach if navigate and finite_pose(step.approach) else None
        with self.lock:
            ctx.check()
            outcome = self.bridge.world.execute(step.skill, list(step.args), focus=step.next_target if navigate else "",
                                                approach=approach)
            if self.look:
                self.bridge.look()
        message = outcome.message + (f" ({NO_APPROACH})" if navigate and approach is None else "")
        return StepOutcome(outcome.success, outcome.status, message, outcome.target_id)

    def halt(self) -> None:
        """A simulated skill is one atomic change of the simulator's state: nothing keeps moving."""

    def set_estop(self, engaged: bool) -> None:
        self._estop = engaged

    def close(self) -> None:
        pass
