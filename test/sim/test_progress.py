"""The still-running lines printed during long steps (a cold Genesis build), and the order the demo runs
its scenarios in (results early: the small home before the apartment)."""

import threading
import time

import pytest

from memory_node.sim.progress import building_scene, still_running
from memory_node.sim.scenario import _scene_size, load_scenario, shipped_scenarios


def test_a_long_step_gets_a_line_every_period_with_its_elapsed_time():
    lines = []
    with still_running(lambda s: f"busy {s:.2f}", emit=lines.append, every=0.1):
        time.sleep(0.55)
    assert 3 <= len(lines) <= 6  # ~5 on a quiet machine; a loaded one may run the thread late
    elapsed = [float(line.split()[1]) for line in lines]
    assert elapsed == sorted(elapsed) and elapsed[0] >= 0.1


def test_a_short_step_prints_nothing_and_the_thread_is_gone_after_an_error():
    lines = []
    before = threading.active_count()
    with pytest.raises(RuntimeError):
        with still_running(lambda s: "busy", emit=lines.append, every=0.5):
            raise RuntimeError("the build failed")
    time.sleep(0.6)
    assert lines == []  # no line after the block ended, though its period has passed
    assert threading.active_count() == before


def test_the_scene_build_line_says_what_and_why():
    assert building_scene("TestScene1")(47.2) == \
        "still building scene TestScene1 (47 s; the first build compiles kernels, cached afterwards)"


def test_demo_runs_the_small_home_before_the_apartment():
    names = shipped_scenarios()
    scenes = [load_scenario(n).scene for n in names]
    assert "small_home" in scenes and "TestScene1" in scenes
    assert _scene_size("small_home") < _scene_size("TestScene1")
    assert scenes.index("TestScene1") > max(i for i, s in enumerate(scenes) if s == "small_home")
    # one scene's scenarios together (each scene is built once), by name within it
    assert scenes == sorted(scenes, key=scenes.index)
    small = [n for n, s in zip(names, scenes) if s == "small_home"]
    assert small == sorted(small)
