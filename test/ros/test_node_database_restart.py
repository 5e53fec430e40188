"""Issue 21: the site database restarts while a node writes and answers. Nothing is lost (messages that
arrive while it is away are buffered and written, in order, once it is back), /diagnostics says so, and
requests are answered "memory unavailable" at once instead of hanging."""

import time

import pytest
from ros_messages import S, T0, entity, graph


@pytest.fixture
def own_cluster():
    """A cluster of this test's own: it is stopped and started again mid-test."""
    from memory_node.core.storage.pg_cluster import ThrowawayCluster, find_pg_bin
    if find_pg_bin() is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    cluster = ThrowawayCluster().start()
    yield cluster
    cluster.stop()


def _diagnostics(proc_ns, timeout=15.0, want=lambda v: True):
    """The node's next /diagnostics values that satisfy ``want``."""
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray

    node = rclpy.create_node(f"diag_listener_{proc_ns}")
    got = []
    node.create_subscription(DiagnosticArray, "/diagnostics",
                             lambda m: got.extend(s for s in m.status if proc_ns in s.name), 10)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rclpy.spin_once(node, timeout_sec=0.2)
            for status in got:
                values = {kv.key: kv.value for kv in status.values}
                if want(values):
                    return status.message, values
            got.clear()
        raise AssertionError("no matching /diagnostics")
    finally:
        node.destroy_node()


def test_a_database_restart_loses_nothing(start_node, own_cluster):
    ns = "restart"
    _, client = start_node("vega", namespace=ns, database_url=own_cluster.url(), site="home")
    client.publish_scene_graph(graph(T0, [entity("mug_1", "mug"), entity("table_1", "table", x=1.0)],
                                     [("mug_1", "on", "table_1")]))
    client.sync()
    assert client.ask("where is the mug?").answer_ids[0] == f"{ns}/table_1"

    own_cluster.stop_server()
    sent = 20
    for k in range(sent):  # the mug moves while memory is away; the last place must win when it is back
        client.publish_scene_graph(graph(T0 + (k + 1) * S, [entity(f"cup_{k}", "cup", x=2.0 + k),
                                                            entity("sink_1", "sink", x=5.0)],
                                         [("mug_1", "in", "sink_1")] if k == sent - 1 else []))
    started = time.monotonic()
    away = client.ask("where is the mug?", timeout=10.0)
    assert time.monotonic() - started < 8.0  # answered, not hung
    assert not away.success and "memory unavailable" in away.error
    message, values = _diagnostics(ns, want=lambda v: v.get("buffered_messages") not in (None, "0"))
    assert values["memory_unavailable"] == "True" and "memory unavailable" in message
    assert not client.sync(timeout=1.0, check=False).reached  # not written yet: sync says so

    own_cluster.restart()
    assert client.sync(timeout=30.0).reached
    assert client.ask("where is the mug?").answer_ids[0] == f"{ns}/sink_1"
    found = client.query(store="entities", text="cup", limit=100)
    cups = {r.id for r in found.records}
    assert not found.error, found.error
    assert cups == {f"{ns}/cup_{k}" for k in range(sent)}
    _, values = _diagnostics(ns, want=lambda v: v.get("buffered_messages") == "0")
    assert values["memory_unavailable"] == "False" and int(values["buffered_total"]) >= sent
