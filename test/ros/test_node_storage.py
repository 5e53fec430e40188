"""Storage safety through the real node: kill -9 in the middle of a stream of writes."""

import sqlite3

from memory_node.core.store import MemoryStore
from ros_messages import S, T0, entity, graph


def test_kill_9_mid_ingest_loses_at_most_the_message_in_flight(start_node, tmp_path):
    db = tmp_path / "crash.db"
    node, client = start_node(database_path=db)
    # every graph moves the mug onto a new table: graph i leaves the mug on table_i, with i versions
    n = 2000
    for i in range(n):
        client.pub_graph.publish(graph(T0 + i * S, [entity("mug_1", "mug"), entity(f"table_{i}", "table", x=i)],
                                       [("mug_1", "on", f"table_{i}")]))
        client.published["scene_graphs"] += 1
        if i % 20 == 19 and client.sync(timeout=0.0, check=False).scene_graphs >= 100:
            break  # the node is writing a backlog now
    node.kill()  # SIGKILL while messages are still arriving: no shutdown handler runs

    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    store = MemoryStore(db)
    committed = [o for o in store.db.execute(
        "SELECT stamp_ns FROM observations WHERE kind='scene_graph' ORDER BY stamp_ns")]
    k = len(committed)
    assert 0 < k < n, f"{k} of {n} graphs committed: the kill did not land mid-stream"
    # every committed message is whole and in order; nothing of an uncommitted one is visible
    assert [c[0] for c in committed] == [T0 + i * S for i in range(k)]
    mug = store.entity("mug_1")
    assert mug.location.object == f"table_{k - 1}"
    assert len(store.history("mug_1")) == k
    assert store.entity(f"table_{k}") is None
    store.close()

    # the node starts again on the same file and serves what was committed
    _, client2 = start_node(database_path=db)
    assert f"table_{k - 1}" in client2.ask("where is the mug?").answer_ids
