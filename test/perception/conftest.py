"""Perception tests run on synthetic RGB-D frames of boxes with known geometry (memory_node.perception.synthetic).

Tests that lift need open3d (requirements-perception.txt): they are skipped where it is missing, unless
scripts/test.sh requires them (MEMORY_NODE_REQUIRE_PERCEPTION=1), where a broken install must fail."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # random_models.py: random-weight models for the detector tests


def _open3d_missing() -> str:
    if importlib.util.find_spec("open3d") is None:
        return "open3d is not installed (scripts/setup.sh installs requirements-perception.txt)"
    try:
        import open3d  # noqa: F401
    except (ImportError, OSError) as exc:  # e.g. libusb-1.0.so.0 missing
        return f"open3d does not import: {exc}"
    return ""


@pytest.fixture(scope="session")
def open3d_available() -> None:
    reason = _open3d_missing()
    if reason:
        if os.environ.get("MEMORY_NODE_REQUIRE_PERCEPTION") == "1":
            pytest.fail(f"perception tests required: {reason}")
        pytest.skip(reason)


def _detectors_missing() -> str:
    for module in ("ultralytics", "segment_anything", "torchvision"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (scripts/setup.sh installs requirements-detectors.txt)"
    try:
        import torchvision  # noqa: F401  (fails here when torch and torchvision do not match)
    except (ImportError, OSError, RuntimeError) as exc:
        return f"torchvision does not import: {exc}"
    return ""


@pytest.fixture(scope="session")
def detectors_available(tmp_path_factory) -> None:
    """The learned-detector tests need requirements-detectors.txt; scripts/test.sh requires them
    (MEMORY_NODE_REQUIRE_DETECTORS=1) unless the set-up left them out. ultralytics keeps its settings file
    in a temporary folder here, so the tests start from a first run's state and leave the user's alone."""
    reason = _detectors_missing()
    if reason:
        if os.environ.get("MEMORY_NODE_REQUIRE_DETECTORS") == "1":
            pytest.fail(f"detector tests required: {reason}")
        pytest.skip(reason)
    os.environ.setdefault("YOLO_CONFIG_DIR", str(tmp_path_factory.mktemp("ultralytics_config")))


@pytest.fixture(scope="session")
def yolo_seg_weights(detectors_available, tmp_path_factory) -> Path:
    """A YOLOv8n-seg checkpoint with random weights (built offline from ultralytics' own model config)."""
    from random_models import save_random_yolo

    return save_random_yolo("yolov8n-seg.yaml", tmp_path_factory.mktemp("yolo") / "yolov8n-seg-random.pt")


@pytest.fixture(scope="session")
def yolo_det_weights(detectors_available, tmp_path_factory) -> Path:
    """A YOLOv8n (boxes only) checkpoint with random weights."""
    from random_models import save_random_yolo

    return save_random_yolo("yolov8n.yaml", tmp_path_factory.mktemp("yolo") / "yolov8n-random.pt")


@pytest.fixture(scope="session")
def tiny_sam_checkpoint(detectors_available, tmp_path_factory) -> Path:
    """A random-weight state dict of a tiny SAM, registered in segment_anything's registry as ``TINY_SAM``."""
    from random_models import register_tiny_sam, save_tiny_sam

    register_tiny_sam()
    return save_tiny_sam(tmp_path_factory.mktemp("sam") / "sam_tiny_random.pth")
