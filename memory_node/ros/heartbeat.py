"""``~/heartbeat``: how a client of the memory node knows it is up, and notices when it is gone.

A service call to a node that was killed is never answered (DDS does not fail it), so a long-lived client
that waits without a deadline hangs for ever. The node publishes a ``memory_node/Heartbeat`` the moment its
services answer and every ``heartbeat_period`` seconds after; the topic is transient local (a client that
subscribes later gets the latest at once, so the first one doubles as "ready") and declares a DDS liveliness
lease of ``LEASE_PERIODS`` periods, so a client may also take DDS's ``liveliness_changed`` event. A client
with a :class:`HeartbeatWatch` asks ``alive()`` before and while it waits on a call (docs/operators.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rclpy.duration import Duration
from rclpy.qos import DurabilityPolicy, HistoryPolicy, LivelinessPolicy, QoSProfile, ReliabilityPolicy

from memory_node.msg import Heartbeat

# periods without a heartbeat after which a client takes the node as gone: one late heartbeat on a loaded
# machine is not a death, three in a row are
LEASE_PERIODS = 3.0


def heartbeat_qos(period_s: float) -> QoSProfile:
    """The node's side: latched (depth 1), reliable, with a liveliness lease of ``LEASE_PERIODS`` periods."""
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1, reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL, liveliness=LivelinessPolicy.AUTOMATIC,
                      liveliness_lease_duration=Duration(seconds=LEASE_PERIODS * period_s))


# a client's side: transient local to get the latest heartbeat at once; it asks no lease of its own, so it
# matches whatever period the node runs with
CLIENT_QOS = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1, reliability=ReliabilityPolicy.RELIABLE,
                        durability=DurabilityPolicy.TRANSIENT_LOCAL)


class HeartbeatWatch:
    """A client's view of one memory node's heartbeat: ``ready`` once one arrived, ``alive()`` while the
    last arrived within ``LEASE_PERIODS`` of the node's own period (or ``timeout_s``), ``restarts`` counts
    changes of the node's ``started`` stamp. Times are taken on the client's monotonic clock at arrival, so the
    two machines' clocks need not agree."""

    def __init__(self, node, node_name: str = "/memory_node", timeout_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.node_name = "/" + node_name.strip("/")
        self.timeout_s = timeout_s
        self.clock = clock
        self.last: Heartbeat | None = None
        self.last_at: float | None = None
        self.restarts = 0
        self.subscription = node.create_subscription(Heartbeat, f"{self.node_name}/heartbeat", self._on_heartbeat,
                                                     CLIENT_QOS)

    def _on_heartbeat(self, msg: Heartbeat) -> None:
        if self.last is not None and (msg.started.sec, msg.started.nanosec) != \
                (self.last.started.sec, self.last.started.nanosec):
            self.restarts += 1
        self.last, self.last_at = msg, self.clock()

    @property
    def ready(self) -> bool:
        return self.last is not None

    def timeout(self) -> float:
        """Seconds of silence after which the node is taken as gone."""
        if self.timeout_s is not None:
            return self.timeout_s
        period = self.last.period_s if self.last is not None and self.last.period_s > 0 else 1.0
        return LEASE_PERIODS * period

    def silence(self) -> float:
        """Seconds since the last heartbeat arrived (infinite before the first)."""
        return float("inf") if self.last_at is None else self.clock() - self.last_at

    def alive(self) -> bool:
        return self.silence() <= self.timeout()
