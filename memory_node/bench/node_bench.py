"""Benchmark of the node over real DDS: start-up, write path, request latency. Prints a table.

    scripts/bench.sh [--runs 5] [--robot vega]

What it measures, each as a median over runs (machines are noisy):
- start-up: process start until every service answers and every input topic is matched, on an empty
  database and on one holding the demo apartment;
- scene-graph write path: all room graphs of the shipped VirtualHome apartment published back to back,
  repeated, until ``~/sync`` says they were ingested (messages/s and entities/s);
- frame write path: 640x480 rgb8 images, every one different (so the admission gate admits them);
- ``~/ask`` and ``~/plan`` round-trip latency, median and p99, without an LLM.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

SECOND_NS = 1_000_000_000


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="memory_node benchmark over ROS")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--robot", default="vega")
    parser.add_argument("--graph-rounds", type=int, default=20, help="times the apartment's room graphs are sent")
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args(argv)

    import rclpy
    from sensor_msgs.msg import Image

    from memory_node.core.store import MemoryStore
    from memory_node.ros.client import MemoryClient
    from memory_node.ros.conversions import ns_to_stamp
    from memory_node.ros.process import NodeProcess
    from memory_node.scenes.experience import demo_experience, replay
    from memory_node.scenes.virtualhome import load_scene, room_graphs

    rclpy.init()
    tmp = Path(tempfile.mkdtemp(prefix="memory_bench_"))
    scene = load_scene()
    rows: list[tuple[str, str]] = []
    running: list[NodeProcess] = []
    client = MemoryClient(client_name="memory_bench")
    log = open(tmp / "node.log", "w")

    def start(db: Path) -> tuple[NodeProcess, float]:
        t0 = time.perf_counter()
        node = NodeProcess(args.robot, log=log, database_path=str(db))
        running.append(node)
        client.wait_for_node(timeout=60, alive=node.alive)
        return node, time.perf_counter() - t0

    try:
        # start-up
        populated = tmp / "populated.db"
        store = MemoryStore(populated)
        replay(demo_experience(scene, 1_700_000_000 * SECOND_NS), store)
        store.close()
        empty_times, full_times = [], []
        for i in range(args.runs):
            node, dt = start(tmp / f"empty_{i}.db")
            empty_times.append(dt)
            node.stop()
            node, dt = start(populated)
            full_times.append(dt)
            node.stop()
        rows.append(("start-up, empty database (s)", f"{statistics.median(empty_times):.2f}"))
        rows.append(("start-up, demo apartment in memory (s)", f"{statistics.median(full_times):.2f}"))

        # write path: scene graphs
        node, _ = start(tmp / "write.db")
        graphs = room_graphs(scene, 1_700_000_000 * SECOND_NS)
        entities_per_round = sum(len(g.entities) for g in graphs)
        rates, ent_rates = [], []
        t_ns = 1_700_000_000 * SECOND_NS
        for _ in range(args.runs):
            t0 = time.perf_counter()
            for _ in range(args.graph_rounds):
                for g in graphs:
                    t_ns += SECOND_NS // 10
                    client.publish_scene_graph(g.model_copy(update={"stamp_ns": t_ns}))
                client.sync(timeout=120)  # bounded in-flight: one apartment at a time
            dt = time.perf_counter() - t0
            rates.append(args.graph_rounds * len(graphs) / dt)
            ent_rates.append(args.graph_rounds * entities_per_round / dt)
        rows.append((f"scene graphs ingested/s ({entities_per_round // len(graphs)} entities avg, complete)",
                     f"{statistics.median(rates):.0f}"))
        rows.append(("entity observations ingested/s", f"{statistics.median(ent_rates):.0f}"))

        # write path: frames, every one different so each is decoded, JPEG-encoded and admitted.
        pub = client.node.create_publisher(Image, "camera/image_raw", 10)
        while pub.get_subscription_count() == 0:
            client.spin(0.05)
        rng = np.random.default_rng(0)
        base = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
        sent = 0

        def frame() -> Image:
            nonlocal sent
            img = Image(height=480, width=640, encoding="rgb8", step=640 * 3)
            img.header.stamp = ns_to_stamp(t_ns + sent)
            img.data = np.roll(base, sent * 7, axis=1).tobytes()
            sent += 1
            client.published["images"] += 1
            return img

        one_by_one, kept_30hz = [], []
        for _ in range(args.runs):
            # capacity: one frame in flight at a time
            t0 = time.perf_counter()
            for _ in range(args.frames):
                pub.publish(frame())
                client.sync(timeout=10)
            one_by_one.append(args.frames / (time.perf_counter() - t0))
            # a 30 Hz camera: what share of its frames the node processes (best effort may drop some)
            before = client.sync(timeout=10).images
            t0 = time.perf_counter()
            for i in range(args.frames):
                pub.publish(frame())
                time.sleep(max(0.0, t0 + (i + 1) / 30.0 - time.perf_counter()))
            after = client.sync(timeout=5, check=False).images
            client.published["images"] = after  # dropped frames never arrive; do not wait for them
            kept_30hz.append((after - before) / args.frames)
        rows.append(("640x480 rgb8 frames processed/s, one in flight", f"{statistics.median(one_by_one):.0f}"))
        rows.append(("share of a 30 Hz 640x480 camera's frames processed", f"{statistics.median(kept_30hz):.0%}"))

        # read path
        for kind, call in (("ask 'where is the mug?'", lambda: client.ask("where is the mug?")),
                           ("plan 'bring me the mug'", lambda: client.plan("bring me the mug"))):
            lat = []
            for _ in range(args.requests):
                t0 = time.perf_counter()
                call()
                lat.append((time.perf_counter() - t0) * 1000)
            rows.append((f"~/{kind} latency ms (median / p99)",
                         f"{statistics.median(lat):.1f} / {_pct(lat, 0.99):.1f}"))
        node.stop()
    finally:
        for n in running:
            n.stop()
        client.close()
        log.close()
        if rclpy.ok():
            rclpy.shutdown()

    w = max(len(k) for k, _ in rows)
    print(f"memory_node benchmark ({args.runs} runs, robot {args.robot}, VirtualHome {scene.name})")
    for k, v in rows:
        print(f"  {k.ljust(w)}  {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
