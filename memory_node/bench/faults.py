"""kill -9 and respawn the node, again and again, while one long-lived client keeps asking: the figures.

    scripts/faults.sh --cycles 10       # = python -m memory_node.bench.faults --cycles 10

Each cycle: the node is killed with SIGKILL (no shutdown handler runs) in the middle of a stream of scene
graphs, respawned under the same name on the same file, and the client that lived through it asks
"where are the keys?" as soon as a fresh client sees the new node's services. Printed: how many first
questions were answered, how long they took (a request lost in DDS service matching waits out one
attempt's timeout before the client sends it again), how many needed a retry, and whether memory
kept every graph the node had committed (at most the one in flight is lost).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from pathlib import Path

SECOND_NS = 1_000_000_000
T0_NS = 1_700_000_000 * SECOND_NS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="memory_node kill -9 / respawn figures")
    parser.add_argument("--cycles", type=int, default=10)
    parser.add_argument("--request-timeout", type=float, default=None,
                        help="seconds per attempt of the client (default: the client's own)")
    parser.add_argument("--attempts", type=int, default=None, help="attempts per call (default: the client's)")
    args = parser.parse_args(argv)

    import rclpy

    from memory_node.core.models import EntityObservation, Point, RelationObservation, SceneGraphObservation
    from memory_node.core.store import MemoryStore
    from memory_node.ros import client as client_module
    from memory_node.ros.client import REQUEST_TIMEOUT_S, MemoryClient
    from memory_node.ros.process import NodeProcess

    if args.attempts:
        client_module.ATTEMPTS = args.attempts
    rclpy.init()
    tmp = Path(tempfile.mkdtemp(prefix="memory_faults_"))
    db = tmp / "faults.db"
    ns = f"faults{uuid.uuid4().hex[:6]}"
    name = f"/{ns}/memory_node"
    timeout = args.request_timeout or REQUEST_TIMEOUT_S
    log = open(tmp / "node.log", "w")
    client = MemoryClient(node_name=name, namespace=f"/{ns}", client_name="long_lived", request_timeout=timeout)
    first_answers: list[float] = []
    answered = retried = graphs_sent = 0
    node = NodeProcess(log=log, namespace=ns, database_path=str(db))
    try:
        client.wait_for_node(timeout=120, alive=node.alive)
        client.publish_scene_graph(SceneGraphObservation(
            stamp_ns=T0_NS, room="hall", entities=[EntityObservation(id="keys_1", label="keys", room="hall"),
                                                   EntityObservation(id="bowl_1", label="bowl", room="hall")],
            relations=[RelationObservation(subject="keys_1", predicate="in", object="bowl_1")]))
        client.sync(timeout=30)
        for cycle in range(args.cycles):
            for _ in range(50):  # a stream in flight when the kill lands
                graphs_sent += 1
                client.publish_scene_graph(SceneGraphObservation(
                    stamp_ns=T0_NS + graphs_sent * SECOND_NS, room="hall",
                    entities=[EntityObservation(id="cup_1", label="cup", room="hall",
                                                position=Point(x=graphs_sent, y=0.0, z=1.0))]))
            node.kill()
            node = NodeProcess(log=log, namespace=ns, database_path=str(db))
            fresh = MemoryClient(node_name=name, namespace=f"/{ns}", client_name=f"fresh_{cycle}")
            fresh.wait_for_node(timeout=120, alive=node.alive)
            fresh.close()
            client.reset_counts()
            t0 = time.monotonic()
            try:
                ok = "keys_1" in client.ask("where are the keys?").evidence_ids
            except TimeoutError:
                ok = False
            took = time.monotonic() - t0
            answered += ok
            retried += took >= timeout
            first_answers.append(took)
            print(f"  cycle {cycle + 1}: first answer after the respawn in {took:.2f} s", flush=True)
        node.stop()
    finally:
        node.stop()
        client.close()
        log.close()
        rclpy.shutdown()
    store = MemoryStore(db)
    committed = len(store.observations(kind="scene_graph", limit=2**31)) - 1
    intact = store.storage.integrity_ok() and \
        store.entity("keys_1").location.object == "bowl_1"
    store.close()
    print(f"memory_node faults: {args.cycles} kill -9 / respawn cycles, one long-lived client "
          f"(request timeout {timeout:g} s, {client_module.ATTEMPTS} attempts)")
    print(f"  first question after each respawn answered: {answered}/{args.cycles}; needed a retry: {retried}")
    print(f"  its latency s: median {statistics.median(first_answers):.2f}, max {max(first_answers):.2f}")
    print(f"  graphs committed {committed} of {graphs_sent} sent (the rest were in flight at a kill); "
          f"file sound and the keys kept: {intact}")
    return 0 if answered == args.cycles and intact else 1


if __name__ == "__main__":
    raise SystemExit(main())
