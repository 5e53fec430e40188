"""rosbag2 recordings (MCAP or sqlite3) read and written with ``rosbags``, without rosbag2 or rclpy.

rosbag2 itself has no wheels here; ``rosbags`` reads and writes its files in pure Python and deserialises
messages with types built from the definitions the bag itself carries, so a bag recorded with another
version of a message still reads. What it yields are ``rosbags`` dataclasses; ``to_ros`` copies one into
the generated ROS class of the same name (field by field, by name), which is what the node's conversions
and ``ros2_numpy`` take: a replayed message then goes through exactly the code a subscribed one does.

    python -m memory_node.ros.bag BAG [--topic /camera/image_raw]   # list what a bag holds
"""

from __future__ import annotations

import argparse
import array
import dataclasses
import importlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
STORAGES = ("mcap", "sqlite3")
# array.array type codes the generated ROS classes use for sequences of numbers (rosidl_generator_py)
_TYPECODES = {np.dtype(k): v for k, v in (("uint8", "B"), ("int8", "b"), ("uint16", "H"), ("int16", "h"),
                                          ("uint32", "I"), ("int32", "i"), ("uint64", "Q"), ("int64", "q"),
                                          ("float32", "f"), ("float64", "d"))}


@dataclass(frozen=True)
class BagMessage:
    topic: str
    msgtype: str      # as the bag names it, e.g. sensor_msgs/msg/Image (older bags: sensor_msgs/Image)
    log_time_ns: int  # when the recorder received it
    message: Any      # a rosbags dataclass; ``to_ros(message)`` for the ROS class; None when broken
    error: str = ""   # why it could not be deserialised (``messages(skip_broken=True)``)


def _msg_folder() -> Path | None:
    """This package's msg/ definitions: beside the sources, or in the installed share folder."""
    here = Path(__file__).resolve().parents[2] / "msg"
    if here.is_dir():
        return here
    try:
        from ament_index_python.packages import get_package_share_directory

        share = Path(get_package_share_directory("memory_node")) / "msg"
        return share if share.is_dir() else None
    except (ImportError, LookupError):
        return None


@lru_cache(maxsize=1)
def typestore():
    """ROS 2 Kilted's standard message types plus memory_node's own (from msg/), for writing bags and
    for reading one that carries no definitions of its own."""
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore

    store = get_typestore(Stores.ROS2_KILTED)
    folder = _msg_folder()
    if folder is not None:
        types: dict = {}
        for path in sorted(folder.glob("*.msg")):
            types.update(get_types_from_msg(path.read_text(), f"memory_node/msg/{path.stem}"))
        store.register(types)
    return store


class BagReader:
    """One recording: a rosbag2 folder (metadata.yaml + storage files) or a single .mcap / .db3 file."""

    def __init__(self, path: str | Path) -> None:
        """Raises ``FileNotFoundError`` for a missing path, ``ValueError`` for what is not a recording."""
        from rosbags.highlevel import AnyReader, AnyReaderError

        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"no bag at {self.path}")
        try:
            self._reader = AnyReader([self.path], default_typestore=typestore())
        except (AnyReaderError, FileNotFoundError) as err:  # e.g. a folder without metadata.yaml
            raise ValueError(f"{self.path}: not a rosbag2 recording (a bag folder, .mcap or .db3): {err}") \
                from None

    def __enter__(self) -> BagReader:
        from rosbags.highlevel import AnyReaderError

        try:
            self._reader.open()
        except AnyReaderError as err:
            raise ValueError(f"{self.path}: not a readable rosbag2 recording ({err})") from None
        return self

    def __exit__(self, *exc) -> None:
        self._reader.close()

    @property
    def topics(self) -> dict[str, tuple[str, int]]:
        """topic -> (message type, message count)."""
        return {c.topic: (c.msgtype, c.msgcount) for c in self._reader.connections}

    def messages(self, topics: Iterable[str] | None = None, skip_broken: bool = False) -> Iterator[BagMessage]:
        """In log-time order. A message that cannot be deserialised raises ``ValueError``, or with
        ``skip_broken`` comes out with ``message=None`` and the reason in ``error``."""
        wanted = set(topics) if topics is not None else None
        connections = [c for c in self._reader.connections if wanted is None or c.topic in wanted]
        if not connections:
            return
        for conn, log_time, raw in self._reader.messages(connections=connections):
            # A bare storage file has no metadata.yaml to say that rosbag2 compressed each message
            # (compression_mode: MESSAGE); a CDR payload never starts with zstd's magic number (its first
            # bytes are the encapsulation header 00 01 / 00 00), so the frame is recognised by it.
            if raw[:4] == _ZSTD_MAGIC:
                raw = _zstd().decompress(raw)
            try:
                msg = self._reader.deserialize(raw, _normalised(conn.msgtype))
            except Exception as err:  # noqa: BLE001 - rosbags raises several kinds for a broken payload
                why = f"could not be deserialised as {conn.msgtype}: {type(err).__name__}: {err}"
                if not skip_broken:
                    raise ValueError(f"{self.path}: message on {conn.topic} at {log_time} ns {why}") from None
                yield BagMessage(conn.topic, conn.msgtype, log_time, None, why)
                continue
            yield BagMessage(conn.topic, conn.msgtype, log_time, msg)


def _normalised(msgtype: str) -> str:
    """Older rosbag2 MCAP files name schemas 'sensor_msgs/Image'; rosbags registers 'sensor_msgs/msg/Image'."""
    parts = msgtype.split("/")
    return f"{parts[0]}/msg/{parts[1]}" if len(parts) == 2 else msgtype


def _zstd():
    """The zstd module rosbags itself uses (the standard library's from Python 3.14, else its backport)."""
    try:
        from compression import zstd
    except ImportError:
        from backports import zstd
    return zstd


def _ros_class(msgtype: str):
    """'sensor_msgs/msg/Image' or 'sensor_msgs/Image' -> the generated Python class (what
    rosidl_runtime_py's get_message does; that package has no wheel here)."""
    pkg, *_, name = msgtype.split("/")
    return getattr(importlib.import_module(f"{pkg}.msg"), name)


def to_ros(msg: Any, cls=None):
    """A rosbags message -> the generated ROS message class of the same type, field by field.

    Fields the installed definition lacks are skipped (the bag may be older or newer); number arrays
    become the ``array.array`` the generated setters take without checking each element."""
    cls = cls or _ros_class(msg.__msgtype__)
    out = cls()
    ros_fields = out.get_fields_and_field_types()
    for f in dataclasses.fields(msg):
        if f.name not in ros_fields:
            continue
        value = getattr(msg, f.name)
        current = getattr(out, f.name)
        if dataclasses.is_dataclass(value):
            value = to_ros(value, type(current))
        elif isinstance(value, list) and value and dataclasses.is_dataclass(value[0]):
            value = [to_ros(v) for v in value]
        elif isinstance(value, np.ndarray):
            if isinstance(current, np.ndarray):  # fixed-size array: numpy on both sides
                value = value.astype(current.dtype)
            elif value.dtype in _TYPECODES:
                value = array.array(_TYPECODES[value.dtype], value.tobytes())
            else:
                value = value.tolist()
        setattr(out, f.name, value)
    return out


def read_messages(path: str | Path, topics: list[str] | None = None) -> Iterator[tuple[str, Any, int]]:
    """Yield (topic, ROS message, log time in ns) in log-time order, e.g. to republish a recording."""
    with BagReader(path) as bag:
        for m in bag.messages(topics):
            yield m.topic, to_ros(m.message), m.log_time_ns


class BagWriter:
    """A new rosbag2 recording (a folder; ``storage`` mcap or sqlite3) of CDR messages.

    ``write_cdr`` takes serialised messages (what a recorder's raw subscription receives), ``write``
    rosbags messages; both need the topic and its type added by ``add_topic`` first. The bag carries the
    message definitions (ROS 2 Kilted's and memory_node's msg/), so any rosbag2 reader can read it."""

    def __init__(self, path: str | Path, storage: str = "mcap") -> None:
        from rosbags.rosbag2 import StoragePlugin, Writer

        if storage not in STORAGES:
            raise ValueError(f"storage {storage!r}: one of {', '.join(STORAGES)}")
        plugin = StoragePlugin.MCAP if storage == "mcap" else StoragePlugin.SQLITE3
        self._writer = Writer(Path(path), version=Writer.VERSION_LATEST, storage_plugin=plugin)
        self._connections: dict[str, Any] = {}

    def __enter__(self) -> BagWriter:
        self._writer.open()
        return self

    def __exit__(self, *exc) -> None:
        self._writer.close()

    def add_topic(self, topic: str, msgtype: str, qos: Iterable = ()) -> None:
        if topic not in self._connections:
            self._connections[topic] = self._writer.add_connection(
                topic, msgtype, typestore=typestore(), offered_qos_profiles=list(qos))

    def write_cdr(self, topic: str, log_time_ns: int, data: bytes) -> None:
        self._writer.write(self._connections[topic], int(log_time_ns), data)

    def write(self, topic: str, log_time_ns: int, msg: Any) -> None:
        conn = self._connections[topic]
        self.write_cdr(topic, log_time_ns, bytes(typestore().serialize_cdr(msg, conn.msgtype)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="List the messages of a rosbag2 recording (MCAP or sqlite3)")
    parser.add_argument("bag")
    parser.add_argument("--topic", action="append")
    args = parser.parse_args(argv)
    with BagReader(args.bag) as bag:
        for m in bag.messages(args.topic):
            msg = m.message
            extra = f" {msg.width}x{msg.height} {msg.encoding}" if hasattr(msg, "encoding") else ""
            print(f"{m.log_time_ns / 1e9:.6f} {m.topic} {m.msgtype}{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
