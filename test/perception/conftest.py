"""Perception tests run on synthetic RGB-D frames of boxes with known geometry (memory_node.perception.synthetic).

Tests that lift need open3d (requirements-perception.txt): they are skipped where it is missing, unless
scripts/test.sh requires them (MEMORY_NODE_REQUIRE_PERCEPTION=1), where a broken install must fail."""

from __future__ import annotations

import importlib.util
import os

import pytest


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
