"""The node's ``~/markers``: memory as RViz draws it (config/memory_node.rviz shows these namespaces).

``rooms``: a flat translucent box per room (the area around what is in it, core/top_down.py) and ``room_labels``
its name; ``entity``: a sphere per present object with a position; ``label``: its name above it;
``relations``: one line list from each object to what it is in / on / near. Pure: no node, no rclpy.
"""

from __future__ import annotations

from builtin_interfaces.msg import Time
from geometry_msgs.msg import Point
from visualization_msgs.msg import Marker, MarkerArray

from memory_node.core.store import MemoryStore
from memory_node.core.top_down import top_down_view

FRAME = "map"
ROOM_HEIGHT_M = 0.02


def _marker(ns: str, i: int, mtype: int, stamp: Time, rgba: tuple[float, float, float, float]) -> Marker:
    m = Marker(ns=ns, id=i, type=mtype, action=Marker.ADD)
    m.header.frame_id = FRAME
    m.header.stamp = stamp
    m.pose.orientation.w = 1.0
    m.color.r, m.color.g, m.color.b, m.color.a = rgba
    return m


def memory_markers(store: MemoryStore, stamp: Time) -> MarkerArray:
    view = top_down_view(store)
    out = MarkerArray(markers=[Marker(action=Marker.DELETEALL)])
    for i, room in enumerate(view.rooms):
        box = _marker("rooms", i, Marker.CUBE, stamp, (0.3, 0.5, 0.9, 0.15))
        (box.pose.position.x, box.pose.position.y), box.pose.position.z = room.centre, 0.0
        box.scale.x, box.scale.y, box.scale.z = room.x_max - room.x_min, room.y_max - room.y_min, ROOM_HEIGHT_M
        label = _marker("room_labels", i, Marker.TEXT_VIEW_FACING, stamp, (0.2, 0.3, 0.8, 1.0))
        (label.pose.position.x, label.pose.position.y), label.pose.position.z = room.centre, 0.5
        label.scale.z = 0.3
        label.text = room.name
        out.markers += [box, label]
    for i, e in enumerate(view.objects):
        p = e.position
        sphere = _marker("entity", i, Marker.SPHERE, stamp, (0.0, 0.8, 0.0, 1.0))
        sphere.pose.position.x, sphere.pose.position.y, sphere.pose.position.z = p.x, p.y, p.z
        sphere.scale.x = sphere.scale.y = sphere.scale.z = 0.1
        label = _marker("label", i, Marker.TEXT_VIEW_FACING, stamp, (1.0, 1.0, 1.0, 1.0))
        label.pose.position.x, label.pose.position.y, label.pose.position.z = p.x, p.y, p.z + 0.15
        label.scale.x = label.scale.y = label.scale.z = 0.1
        label.text = e.name or e.id
        out.markers += [sphere, label]
    if view.relations:
        lines = _marker("relations", 0, Marker.LINE_LIST, stamp, (1.0, 0.6, 0.0, 0.8))
        lines.scale.x = 0.02  # line width, metres
        for r in view.relations:
            lines.points += [Point(x=r.start[0], y=r.start[1], z=r.start[2]),
                             Point(x=r.end[0], y=r.end[1], z=r.end[2])]
        out.markers.append(lines)
    return out
