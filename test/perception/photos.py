"""Real photographs that installed packages ship (nothing is downloaded): ultralytics' ``bus.jpg`` and
``zidane.jpg``, scikit-image's ``coffee.png``. Found by path without importing those packages."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from memory_node.perception.camera import CameraIntrinsics, CameraPose, RgbdFrame

PHOTOS = {"bus": ("ultralytics", "assets/bus.jpg"), "zidane": ("ultralytics", "assets/zidane.jpg"),
          "coffee": ("skimage", "data/coffee.png")}


def photo_path(name: str) -> Path:
    package, rel = PHOTOS[name]
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"{package} is not installed: no {rel}")
    path = Path(list(spec.submodule_search_locations)[0]) / rel
    if not path.is_file():
        pytest.skip(f"{package} has no {rel}")
    return path


def photo_frame(name: str, width: int = 320, height: int = 240, depth_m: float = 2.0) -> RgbdFrame:
    """The photo resized to a camera's size, as an RGB-D frame on a flat depth (detectors read colour only)."""
    import cv2

    bgr = cv2.imread(str(photo_path(name)))
    rgb = np.ascontiguousarray(cv2.resize(bgr, (width, height), interpolation=cv2.INTER_AREA)[:, :, ::-1])
    return RgbdFrame(rgb=rgb, depth_m=np.full((height, width), depth_m, np.float32),
                     intrinsics=CameraIntrinsics.from_fov(width, height, 60.0),
                     pose=CameraPose(position=np.zeros(3), rotation=np.eye(3)), stamp_ns=1)
