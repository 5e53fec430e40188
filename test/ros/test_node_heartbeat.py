"""~/heartbeat over real DDS: a client sees the node ready, then notices within the heartbeat's timeout
that the node was killed, while the service call it made meanwhile stays unanswered (what left a long-lived
`ros2 service call` hanging for ever)."""

from __future__ import annotations

import time
import uuid

from rclpy.duration import Duration
from rclpy.event_handler import SubscriptionEventCallbacks
from rclpy.qos import DurabilityPolicy, LivelinessPolicy, QoSProfile, ReliabilityPolicy

from memory_node.msg import Heartbeat
from memory_node.ros.heartbeat import LEASE_PERIODS, HeartbeatWatch
from memory_node.srv import Ask


def _spin_until(client, done, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what
        client.spin(0.05)


def test_a_client_sees_ready_and_notices_a_killed_node_within_the_timeout(start_node, tmp_path):
    proc, client = start_node("vega", heartbeat_period=1.0)
    watch = client.heartbeat
    _spin_until(client, lambda: watch.ready, 30, "no heartbeat from a node whose services answer")
    first = watch.last
    assert first.node == client.node_name and first.robot == "vega" and first.active
    assert first.database == str(tmp_path / "memory.db") and first.period_s == 1.0
    assert watch.timeout() == LEASE_PERIODS * 1.0
    # it keeps beating, from one process (one start stamp)
    _spin_until(client, lambda: watch.last.sequence >= first.sequence + 2, 30, "heartbeats stopped")
    assert watch.restarts == 0 and watch.alive()
    assert client.ask("where is the mug?").success

    # a client that subscribes later gets the latest heartbeat at once (transient local): that is "ready"
    late = HeartbeatWatch(client.node, client.node_name)
    _spin_until(client, lambda: late.ready, 10, "a late subscriber got no latched heartbeat")
    assert late.last.started == first.started

    # DDS's own liveliness lease says the same to a client that takes the event (asking a lease of its own,
    # at least the node's, or DDS does not track the writer's)
    alive_counts: list[int] = []
    leased = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                        liveliness=LivelinessPolicy.AUTOMATIC, liveliness_lease_duration=Duration(seconds=10))
    client.node.create_subscription(
        Heartbeat, f"{client.node_name}/heartbeat", lambda _m: None, leased,
        event_callbacks=SubscriptionEventCallbacks(liveliness=lambda e: alive_counts.append(e.alive_count)))
    _spin_until(client, lambda: alive_counts and alive_counts[-1] == 1, 10, "no liveliness for the heartbeat")

    proc.kill()  # SIGKILL, as a crash: no goodbye on any topic
    killed_at = time.monotonic()
    pending = client.clients["ask"].call_async(Ask.Request(question=f"where is the {uuid.uuid4().hex[:6]}?"))
    _spin_until(client, lambda: not watch.alive(), 30, "the client never noticed the node was gone")
    noticed = time.monotonic() - killed_at
    # the last heartbeat came at most a period before the kill: silence passes the timeout within it
    assert noticed <= watch.timeout() + 1.0, noticed
    assert not pending.done()  # the call alone would have waited for ever
    client.clients["ask"].remove_pending_request(pending)
    _spin_until(client, lambda: alive_counts[-1] == 0, 30, "DDS liveliness never reported the writer lost")
    print(f"\nkill -9 noticed after {noticed:.2f} s (heartbeat timeout {watch.timeout():.1f} s)")
