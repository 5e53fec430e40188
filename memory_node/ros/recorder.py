"""Record the memory node's input topics into a rosbag2 recording (``memory-node record``): one small node
with a raw subscription per input, the node's QoS, CDR written as received with the definitions."""

from __future__ import annotations

import signal
import threading
import time
from collections import Counter
from pathlib import Path

SENSOR_INPUTS = ("images", "compressed_images", "depth", "camera_info", "poses")


def _qos(name: str):
    """What the node subscribes with (ros/node.py), so the recorder hears what the node hears."""
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    if name == "maps":
        return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1, reliability=ReliabilityPolicy.RELIABLE,
                          durability=DurabilityPolicy.TRANSIENT_LOCAL)
    if name in SENSOR_INPUTS:
        return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10, reliability=ReliabilityPolicy.BEST_EFFORT)
    return QoSProfile(history=HistoryPolicy.KEEP_ALL, depth=1, reliability=ReliabilityPolicy.RELIABLE)


def record(out: str | Path, namespace: str = "", storage: str = "mcap", duration: float = 0.0,
           images: bool = True, stop: threading.Event | None = None, log=print) -> Counter:
    """Record until ``stop`` is set, ``duration`` s passed, or SIGINT/SIGTERM; returns messages per topic."""
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.signals import SignalHandlerOptions

    from memory_node.ros.bag import BagWriter, _ros_class
    from memory_node.ros.ingest import INPUT_TOPICS

    if Path(out).exists():
        raise FileExistsError(f"{out} exists already; a recording goes into a new folder")
    stop = stop or threading.Event()
    counts: Counter = Counter()
    ns = f"/{namespace.strip('/')}" if namespace.strip("/") else ""
    own_context = not rclpy.ok()
    if own_context:
        rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    previous = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGINT, signal.SIGTERM)} \
        if threading.current_thread() is threading.main_thread() else {}
    node = rclpy.create_node("memory_node_recorder", use_global_arguments=False)
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    try:
        with BagWriter(out, storage=storage) as bag:
            for name, (rel, msgtype) in INPUT_TOPICS.items():
                if not images and name in ("images", "compressed_images"):
                    continue
                topic = f"{ns}/{rel}"
                bag.add_topic(topic, msgtype)

                def write(data: bytes, topic: str = topic) -> None:
                    bag.write_cdr(topic, node.get_clock().now().nanoseconds, data)
                    counts[topic] += 1

                node.create_subscription(_ros_class(msgtype), topic, write, _qos(name), raw=True)
            log(f"recording the memory node's inputs under {ns or '/'} into {out} ({storage}); Ctrl-C stops")
            deadline = time.monotonic() + duration if duration > 0 else None
            while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
                executor.spin_once(timeout_sec=0.1)
    finally:
        executor.shutdown(timeout_sec=0)
        node.destroy_node()
        for s, handler in previous.items():
            signal.signal(s, handler)
        if own_context:
            rclpy.try_shutdown()
    return counts
