"""memory-node record: the node's input topics over real DDS into a rosbag2 recording that replays."""

import subprocess
import sys
import time
import uuid

import pytest

pytest.importorskip("memory_node.msg", reason="record needs the colcon build (scripts/setup.sh)")

from cli_helpers import S, T0  # noqa: E402

from memory_node.cli.replay import load_params, replay  # noqa: E402
from memory_node.core.store import MemoryStore  # noqa: E402
from memory_node.ros.bag import BagReader  # noqa: E402


def test_recorded_inputs_replay_into_memory(ros, tmp_path, storage="mcap"):  # sqlite3: see test_replay.py
    import rclpy
    from rclpy.qos import QoSProfile, ReliabilityPolicy

    from memory_node.msg import Utterance
    from memory_node.ros.conversions import ns_to_stamp

    ns = f"rec{uuid.uuid4().hex[:6]}"
    out = tmp_path / "recording"
    # in tmp_path, not the checkout: the installed package (with its generated messages) is imported
    recorder = subprocess.Popen([sys.executable, "-m", "memory_node.cli", "record", str(out), "--namespace", ns,
                                 "--storage", storage, "--duration", "5"], cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
    node = rclpy.create_node(f"publisher_{ns}")
    pub = node.create_publisher(Utterance, f"/{ns}/user_utterance",
                                QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
    try:
        deadline = time.monotonic() + 60
        while pub.get_subscription_count() == 0 and time.monotonic() < deadline and recorder.poll() is None:
            rclpy.spin_once(node, timeout_sec=0.1)
        assert pub.get_subscription_count() == 1, f"the recorder never subscribed: {recorder.communicate()[0]}"
        for i in range(3):
            msg = Utterance(speaker="alex", text=f"note {i}: the keys are in the bowl")
            msg.header.stamp = ns_to_stamp(T0 + i * S)
            pub.publish(msg)
        output, _ = recorder.communicate(timeout=60)
    finally:
        node.destroy_node()
        if recorder.poll() is None:
            recorder.kill()
    assert recorder.returncode == 0, output
    assert f"recorded 3 messages into {out}: /{ns}/user_utterance 3" in output
    with BagReader(out) as bag:
        assert bag.topics[f"/{ns}/user_utterance"] == ("memory_node/msg/Utterance", 3)
        assert f"/{ns}/scene_graph" in bag.topics  # every input has its topic, even one nothing was sent on
    report = replay(out, tmp_path / "memory.db", load_params("vega"), log=lambda *a: None)
    assert report.messages == {"utterances": 3} and not report.rejected
    store = MemoryStore.open_reader(tmp_path / "memory.db")
    assert sorted(e.stamp_ns for e in store.events(kind="utterance")) == [T0, T0 + S, T0 + 2 * S]
    store.close()
