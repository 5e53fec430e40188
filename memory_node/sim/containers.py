"""URDF for containers: a carcass of five panels, open at the front, and for those that open a door on a
revolute hinge.

A solid box would hide whatever is "in" it forever; a carcass lets the camera see inside when the door is
open (and the segmentation then reports the contents), and the closed door occludes them, so "a hidden
object is not seen until opened" falls out of rendering rather than being faked.

Local frame: the box centred at the origin, its front facing +x; the world places it with a yaw that turns
+x to the scene file's ``front`` side.
"""

from __future__ import annotations

import math
from pathlib import Path

from memory_node.sim.state import PANEL_M, inner_floor

DOOR_JOINT = "door_hinge"
DOOR_LIMIT = 1.9  # rad


def front_yaw(front: str) -> float:
    """Yaw that turns the local +x front to the scene's side."""
    return {"+x": 0.0, "+y": math.pi / 2, "-x": math.pi, "-y": -math.pi / 2}[front]


def local_size(size: tuple[float, float, float], front: str) -> tuple[float, float, float]:
    """World extents in the container's own frame (depth along x, width along y)."""
    return (size[1], size[0], size[2]) if front in ("+y", "-y") else size


def _box(xyz: tuple[float, float, float], size: tuple[float, float, float], rgba: str) -> str:
    o = " ".join(f"{v:.4f}" for v in xyz)
    s = " ".join(f"{max(v, 1e-3):.4f}" for v in size)
    geo = f'<origin xyz="{o}" rpy="0 0 0"/><geometry><box size="{s}"/></geometry>'
    return (f'    <visual>{geo}<material name="m"><color rgba="{rgba}"/></material></visual>\n'
            f"    <collision>{geo}</collision>\n")


def container_urdf(name: str, size: tuple[float, float, float], openable: bool,
                   rgb: tuple[float, float, float]) -> str:
    """URDF text of a carcass ``size`` (local depth, width, height) with a door if ``openable``."""
    dx, dy, dz = size
    p = PANEL_M
    rgba = " ".join(f"{c:.3f}" for c in rgb) + " 1"
    panels = [
        ((0, 0, -dz / 2 + p / 2), (dx, dy, p)),  # bottom
        ((0, 0, dz / 2 - p / 2), (dx, dy, p)),  # top
        ((-dx / 2 + p / 2, 0, 0), (p, dy, dz)),  # back
        ((0, -dy / 2 + p / 2, 0), (dx, p, dz)),  # right side
        ((0, dy / 2 - p / 2, 0), (dx, p, dz)),  # left side
    ]
    shelf = inner_floor(dz)
    if shelf > PANEL_M:
        panels.append(((0, 0, -dz / 2 + shelf - p / 2), (dx, dy, p)))
    body = "".join(_box(xyz, sz, rgba) for xyz, sz in panels)  # type: ignore[arg-type]
    inertia = '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>'
    out = [f'<?xml version="1.0"?>\n<robot name="{name}">',
           f'  <link name="carcass">\n{body}    <inertial><mass value="20"/>{inertia}</inertial>\n  </link>']
    if openable:
        # hinge on the front-right edge; the door spans the front towards +y. Turning about -z by a positive
        # angle swings it outwards (+x), so the joint range is [0, DOOR_LIMIT] with 0 closed.
        door = _box((p / 2, dy / 2, 0.0), (p, dy, dz), rgba)
        out += [
            (f'  <link name="door">\n{door}    <inertial><origin xyz="0 {dy / 2:.4f} 0"/><mass value="1"/>'
             f'{inertia}</inertial>\n  </link>'),
            (f'  <joint name="{DOOR_JOINT}" type="revolute"><parent link="carcass"/><child link="door"/>'
             f'<origin xyz="{dx / 2:.4f} {-dy / 2:.4f} 0" rpy="0 0 0"/><axis xyz="0 0 -1"/>'
             f'<limit lower="0" upper="{DOOR_LIMIT}" effort="100" velocity="2"/></joint>'),
        ]
    out.append("</robot>\n")
    return "\n".join(out)


def write_container_urdf(directory: Path, name: str, size: tuple[float, float, float], openable: bool,
                         rgb: tuple[float, float, float]) -> Path:
    """Write once per distinct content: Genesis caches processed meshes by file, so stable files keep
    warm builds warm."""
    text = container_urdf(name, size, openable, rgb)
    path = directory / f"{name}.urdf"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return path
