"""How fast ``memory-node replay`` ingests scene graphs: a rosbag2 (MCAP) recording of the VirtualHome
TestScene1 rooms seen again and again (``--passes`` times 4 complete room graphs, ~84 entities each), replayed
``--runs`` times into fresh databases; prints the median ingest time and graphs per second.

    python -m memory_node.bench.replay_bench [--passes 50] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

NS = 1_000_000_000


def write_bag(path: Path, passes: int) -> int:
    from rclpy.serialization import serialize_message

    from memory_node.core.models import SceneGraphObservation
    from memory_node.ros.bag import BagWriter
    from memory_node.ros.conversions import observation_to_msg
    from memory_node.scenes.virtualhome import load_scene

    scene = load_scene()
    t = 1_700_000_000 * NS
    n = 0
    with BagWriter(path) as bag:
        bag.add_topic("/scene_graph", "memory_node/msg/SceneGraph")
        for _ in range(passes):
            for room in scene.rooms:
                members = {e.id for e in scene.in_room(room)}
                graph = SceneGraphObservation(stamp_ns=t, source="virtualhome", room=room, complete=True,
                                              entities=scene.in_room(room),
                                              relations=[r for r in scene.relations if r.subject in members])
                bag.write_cdr("/scene_graph", t, serialize_message(observation_to_msg(graph)))
                t += NS // 10
                n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    from memory_node.cli.replay import load_params, replay

    with tempfile.TemporaryDirectory(prefix="replay_bench_") as tmp:
        n = write_bag(Path(tmp) / "bag", args.passes)
        seconds = []
        for i in range(args.runs):
            report = replay(Path(tmp) / "bag", Path(tmp) / f"memory_{i}.db", load_params("vega"), log=lambda *a: None)
            assert sum(report.messages.values()) == n and not report.rejected, report.errors[:3]
            seconds.append(report.seconds)
            print(f"run {i + 1}: {n} scene graphs in {report.seconds:.2f} s")
    median = statistics.median(seconds)
    print(f"median {median:.2f} s for {n} scene graphs: {n / median:.1f} graphs/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
