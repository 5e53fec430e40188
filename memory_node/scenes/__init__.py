"""Real scenes and scripted experience for demos, tests and the bench (pure Python, no ROS).

``virtualhome`` turns VirtualHome apartments into scene-graph observations; ``experience`` scripts what
the robot lives through in one of them and which requests should then be answered how.
"""

from .experience import (
    DemoCast,
    DemoRequest,
    ExperienceStep,
    choose_cast,
    demo_experience,
    demo_requests,
    move_stamp_ns,
    replay,
)
from .virtualhome import VirtualHomeScene, convert, default_scene_path, load_scene, room_graphs, trim_graph

__all__ = [
    "DemoCast",
    "DemoRequest",
    "ExperienceStep",
    "VirtualHomeScene",
    "choose_cast",
    "convert",
    "default_scene_path",
    "demo_experience",
    "demo_requests",
    "load_scene",
    "move_stamp_ns",
    "replay",
    "room_graphs",
    "trim_graph",
]
