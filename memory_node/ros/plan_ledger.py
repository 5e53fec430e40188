"""The plans a memory node has published on ``~/plans``, so skill feedback naming one is linked to it.

A controller echoes ``Plan.plan_id`` in ``SkillFeedback.plan_id``. The ledger lives in the node's process:
plans are answers, not experience, so they are not in the database, and after a restart feedback for a
plan of the previous run counts as unknown (stored all the same). Written by the ~/plan worker's thread,
read by the executor's, hence the lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

# far more plans than a controller has in flight; the oldest are forgotten first
MAX_PLANS = 1000


class PlanLedger:
    def __init__(self, max_plans: int = MAX_PLANS) -> None:
        self.max_plans = max_plans
        self._plans: OrderedDict[str, None] = OrderedDict()  # plan ids, oldest first
        self._lock = threading.Lock()
        self.published = 0
        self.linked = 0  # skill feedback for a plan in the ledger
        self.unknown = 0  # skill feedback naming a plan that is not

    def add(self, plan_id: str) -> None:
        with self._lock:
            self._plans[plan_id] = None
            while len(self._plans) > self.max_plans:
                self._plans.popitem(last=False)
            self.published += 1

    def knows(self, plan_id: str) -> bool:
        with self._lock:
            return plan_id in self._plans

    def count(self, known: bool | None) -> None:
        """One skill feedback stored: ``known`` as ``knows`` said, None when it named no plan."""
        if known is True:
            self.linked += 1
        elif known is False:
            self.unknown += 1

    def counts(self) -> dict[str, int]:
        """For /diagnostics."""
        return {"plans_published": self.published, "skill_feedback_plan_linked": self.linked,
                "skill_feedback_plan_unknown": self.unknown}
