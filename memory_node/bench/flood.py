"""A sane question's latency while hostile input floods the node's event topics, over real DDS.

    python -m memory_node.bench.flood [--seconds 30] [--rate 50]

A publisher thread sends, ``--rate`` times a second on each of scene_graph, user_utterance, skill_feedback and
activity, a message the node must refuse or clean (a 20 KB name, a 1 MB label, a graph over the attribute
limit, bidi and zero-width text, 300 skill arguments, an 8 KB verb); meanwhile the main thread asks "where is
the mug?" back to back, with a 1 MB ~/query text and a 1 MB question every 50 questions. Prints the
question's median / p99 / max latency, the messages sent and what /diagnostics counted, the node's resident
memory (now and peak), and how long SIGINT took to end the node.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

S = 1_000_000_000
T0 = 1_600_000_000 * S


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--rate", type=float, default=50.0, help="messages per second on each event topic")
    args = ap.parse_args(argv)

    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.node import Node
    from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy

    from geometry_msgs.msg import Point

    from memory_node.msg import Activity, Entity, Relation, SceneGraph, SkillFeedback, Utterance
    from memory_node.ros.client import MemoryClient
    from memory_node.ros.conversions import ns_to_stamp
    from memory_node.ros.process import NodeProcess

    rclpy.init()
    tmp = Path(tempfile.mkdtemp(prefix="memory_flood_"))
    ns = f"flood{int(time.time()) % 100000}"
    log = open(tmp / "node.log", "w")
    node = NodeProcess("vega", log=log, namespace=ns, database_path=str(tmp / "m.db"), diagnostics_period=0.5)
    client = MemoryClient(node_name=f"/{ns}/memory_node", namespace=f"/{ns}", client_name="flood_client")
    client.wait_for_node(timeout=60, alive=node.alive)

    def ent(id_, label, name="", **attrs):
        return Entity(id=id_, label=label, name=name, room="kitchen", position=Point(x=0.0, y=1.0, z=0.8),
                      attribute_keys=list(attrs), attribute_values=list(attrs.values()), confidence=1.0)

    kitchen = SceneGraph(source="flood", room="kitchen", entities=[ent("table_1", "table"), ent("mug_1", "mug")],
                         relations=[Relation(subject="mug_1", predicate="on", object="table_1")])
    kitchen.header.stamp = ns_to_stamp(T0)
    client.publish_scene_graph(kitchen)
    client.sync(timeout=30)

    hostile_graphs = [SceneGraph(source="flood", room="kitchen", entities=[e]) for e in (
        ent("odd_1", "cup", name="x" * 20_000), ent("odd_2", "cup" + "y" * 1_000_000),
        ent("odd_3", "cup", **{f"k{i}": "v" for i in range(65)}),
        ent("odd_4", "cup", name="\u202e\ufffd\U0001F984 odd \u200b"))]
    hostile = {
        "scene_graph": (SceneGraph, hostile_graphs),
        "user_utterance": (Utterance, [Utterance(speaker="\u202eflood", text="\u200b\ufeff\u202e"),
                                       Utterance(speaker="flood", text="the mug " * 1000)]),
        "skill_feedback": (SkillFeedback, [SkillFeedback(robot="vega", skill="open", args=["a"] * 300)]),
        "activity": (Activity, [Activity(actor="flood", verb="v" * 8000, objects=["mug"])]),
    }
    publisher = Node("flood_publisher", namespace=f"/{ns}")
    qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10, reliability=ReliabilityPolicy.RELIABLE)
    pubs = {topic: (publisher.create_publisher(t, topic, qos), msgs) for topic, (t, msgs) in hostile.items()}
    diag: list[dict[str, str]] = []
    client.node.create_subscription(DiagnosticArray, "/diagnostics", lambda m: diag.extend(
        {kv.key: kv.value for kv in s.values} for s in m.status if s.hardware_id == "vega"), 10)
    stop = threading.Event()
    sent = [0]

    def flood() -> None:
        period, k = 1.0 / args.rate, 0
        next_t = time.monotonic()
        while not stop.is_set():
            for pub, msgs in pubs.values():
                pub.publish(msgs[k % len(msgs)])
                sent[0] += 1
            k += 1
            next_t += period
            time.sleep(max(0.0, next_t - time.monotonic()))

    def rss() -> dict[str, str]:
        status = Path(f"/proc/{node.proc.pid}/status").read_text()
        return {k: v.strip() for k, v in (line.split(":", 1) for line in status.splitlines()) if k in ("VmRSS", "VmHWM")}

    client.ask("where is the mug?", timeout=30)
    before = rss()
    thread = threading.Thread(target=flood, daemon=True)
    thread.start()
    latencies: list[float] = []
    wrong = 0
    end = time.monotonic() + args.seconds
    hostile_requests = 0
    while time.monotonic() < end:
        t = time.perf_counter()
        answer = client.ask("where is the mug?", timeout=30)
        latencies.append(time.perf_counter() - t)
        wrong += int(not (answer.success and "table_1" in answer.answer_ids))
        if len(latencies) % 50 == 0:  # and now and then a 1 MB request (refused: over limits.max_text_length)
            client.query(store="entities", text="mug " * 250_000, timeout=30)
            client.ask("\u202e" + "where is the mug? " * 60_000, timeout=30)
            hostile_requests += 2
    stop.set()
    thread.join()
    client.spin(1.5)
    after = rss()
    started = time.monotonic()
    code = node.stop()
    stopped = time.monotonic() - started
    last = diag[-1] if diag else {}
    print(f"flood: {sent[0]} hostile messages in {args.seconds:.0f} s ({args.rate:g}/s on each of {len(pubs)} topics)")
    print(f"'where is the mug?' x{len(latencies)}: median {_pct(latencies, 0.5) * 1000:.1f} ms, "
          f"p99 {_pct(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms, wrong {wrong}")
    print("diagnostics: " + ", ".join(f"{k}={v}" for k, v in sorted(last.items())
                                      if k.startswith(("rejected_", "over_limits", "ingested_", "internal"))))
    print(f"{hostile_requests} requests of 1 MB among them; node RSS before the flood {before.get('VmRSS')}, "
          f"after {after.get('VmRSS')}, peak {after.get('VmHWM')}")
    print(f"SIGINT: exit {code} in {stopped * 1000:.0f} ms")
    publisher.destroy_node()
    client.close()
    log.close()
    rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
