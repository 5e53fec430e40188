"""One Genesis build of the small scene per test session (a build costs seconds even with warm caches);
each test starts from the scene file's initial state through ``SimWorld.reset``."""

from __future__ import annotations

import importlib.util
import os

import pytest

from memory_node.sim.scene_spec import shipped_scene


def _genesis_missing() -> str:
    for module in ("genesis", "dexmate_urdf"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (scripts/setup.sh installs requirements-sim.txt)"
    return ""


@pytest.fixture(scope="session")
def sim_world():
    reason = _genesis_missing()
    if reason:
        if os.environ.get("MEMORY_NODE_REQUIRE_SIM") == "1":  # scripts/test.sh: a broken install must fail
            pytest.fail(f"simulation tests required: {reason}")
        pytest.skip(reason)
    from memory_node.sim.world import SimWorld

    return SimWorld(shipped_scene("small_home"))


@pytest.fixture
def world(sim_world):
    sim_world.reset()
    return sim_world
