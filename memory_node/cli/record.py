"""Record what the memory node listens to (scene graphs, skill feedback, utterances, activities, camera,
depth, camera info, map, robot pose) into a new rosbag2 recording, with the QoS the node subscribes with,
until Ctrl-C or --duration. The messages are stored as received (serialised CDR, log time = arrival), with
their definitions, so ``memory-node replay`` or any rosbag2 reader reads the recording. Needs ROS (rclpy).

  memory-node record run1                       # the node's inputs at the root namespace, MCAP
  memory-node record run1 --namespace g1 --storage sqlite3 --duration 60
  memory-node record run1 --no-images           # events, map and poses only (small)
"""

from __future__ import annotations

import argparse

from memory_node.cli.common import CliError, need


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("out", help="new bag folder (must not exist)")
    p.add_argument("--namespace", default="", help="namespace of the node's topics (e.g. g1)")
    p.add_argument("--storage", default="mcap", choices=("mcap", "sqlite3"), help="rosbag2 storage plugin")
    p.add_argument("--duration", type=float, default=0.0, help="stop after this many seconds (0 = Ctrl-C)")
    p.add_argument("--no-images", action="store_true", help="leave out raw and compressed camera images")


def run(args: argparse.Namespace) -> int:
    need("rosbags", "record")
    from memory_node.ros.recorder import record  # rclpy is imported there, inside record()

    try:
        counts = record(args.out, namespace=args.namespace, storage=args.storage, duration=args.duration,
                        images=not args.no_images)
    except FileExistsError as err:
        raise CliError(str(err)) from None
    except ImportError as err:  # no rclpy or no generated messages
        raise CliError(f"record needs ROS 2 and the colcon build (scripts/setup.sh, then source "
                       f"scripts/env.sh): {err}") from None
    print(f"recorded {sum(counts.values())} messages into {args.out}"
          + (": " + ", ".join(f"{t} {n}" for t, n in sorted(counts.items())) if counts else ""))
    return 0
