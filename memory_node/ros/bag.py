"""Read ROS 2 messages from a rosbag2 MCAP file without rosbag2 (not installable from PyPI).

rosbag2 may compress each message with zstd (``compression_mode: MESSAGE``); the payload is then the
zstd frame of the CDR bytes. Messages are deserialized by rclpy itself, so what comes out is exactly
what a subscriber would have received.

    python -m memory_node.ros.bag BAG.mcap [--topic /camera/image_raw]   # list what a bag holds
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def _message_type(schema_name: str) -> Any:
    """'sensor_msgs/Image' or 'sensor_msgs/msg/Image' -> the Python message class (what
    rosidl_runtime_py's get_message does; that package has no wheel here)."""
    pkg, *_, name = schema_name.split("/")
    return getattr(importlib.import_module(f"{pkg}.msg"), name)


def read_messages(path: str | Path, topics: list[str] | None = None) -> Iterator[tuple[str, Any, int]]:
    """Yield (topic, message, log time in ns) in log-time order."""
    import zstandard
    from mcap.reader import make_reader
    from rclpy.serialization import deserialize_message

    decompressor = zstandard.ZstdDecompressor()
    types: dict[str, Any] = {}
    with open(path, "rb") as f:
        reader = make_reader(f)
        for schema, channel, message in reader.iter_messages(topics=topics, log_time_order=True):
            if channel.message_encoding != "cdr" or schema is None:
                continue
            if schema.name not in types:
                types[schema.name] = _message_type(schema.name)
            data = message.data
            if data[:4] == _ZSTD_MAGIC:
                data = decompressor.decompress(data)
            yield channel.topic, deserialize_message(data, types[schema.name]), message.log_time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="List the messages of a rosbag2 MCAP file")
    parser.add_argument("bag")
    parser.add_argument("--topic", action="append")
    args = parser.parse_args(argv)
    for topic, msg, t in read_messages(args.bag, args.topic):
        extra = f" {msg.width}x{msg.height} {msg.encoding}" if hasattr(msg, "encoding") else ""
        print(f"{t / 1e9:.6f} {topic} {type(msg).__name__}{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
