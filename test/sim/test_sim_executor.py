"""A shipped scenario's plans through the plan executor with the Genesis backend: the scenario's experience
goes into a memory node over ROS (the bridge), its plan requests are planned by that node, run step by step
by ``PlanExecutor`` in the simulator, reported to memory on skill_feedback, and graded on the simulator's
final state as the scenario runner grades them."""

from __future__ import annotations

import json

import pytest

from memory_node.execution.executor import PlanExecutor
from memory_node.execution.genesis import GenesisBackend
from memory_node.planning.skills import SkillLibrary
from memory_node.sim.scenario import grade_plan, load_scenario

pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")


def test_locked_cabinet_plans_run_through_the_executor_and_reach_memory(world, start_node):
    from memory_node.ros import conversions as conv
    from memory_node.ros.genesis_bridge import SimBridge
    from memory_node.ros.sim_scenario import SYNC_TIMEOUT_S, StateFacts, play_experience

    scenario = load_scenario("locked_cabinet")
    _, client = start_node("vega")
    bridge = SimBridge(world, client, robot="vega")
    bridge.publish_map()
    play_experience(scenario, bridge)
    client.sync(timeout=SYNC_TIMEOUT_S)
    executor = PlanExecutor(GenesisBackend(bridge), client.publish_skill_feedback,
                            library=SkillLibrary.for_robot("vega"))
    graded = []
    for k, req in enumerate(r for r in scenario.requests if r.plan is not None):
        resp = client.plan(req.plan, robot=scenario.robot)
        steps = [(s.skill, list(s.args)) for s in resp.plan.steps] if resp.success else []
        run = executor.execute(conv.plan_from_msg(resp.plan), f"lc{k}") if resp.success else None
        client.sync(timeout=SYNC_TIMEOUT_S)
        all_ok = run is not None and run.succeeded
        why = grade_plan(req.expect, None if resp.success else resp.error, steps, all_ok, StateFacts(world))
        graded.append((req.plan, why, run.summary() if run else None))
    print("\n" + "\n".join(f"{plan}: {'PASS' if not why else why} "
                           f"{'' if s is None else [(x['skill'], x['status'], x['seconds']) for x in s['steps']]}"
                           for plan, why, s in graded))
    assert [why for _, why, _ in graded] == [[], [], []]
    # the refused request ran nothing; the two executed plans ran every step
    assert graded[0][2] is None and all(s["steps_run"] == s["steps_total"] for _, _, s in graded[1:])
    # memory holds the executor's feedback: the fridge opened in plan lc1, the apple placed in it
    events = [json.loads(r.json) for r in client.query(store="events", entity_id="fridge_289", limit=50).records]
    said = [e["text"] for e in events if e["kind"] == "skill"]
    assert any("open(fridge_289) succeeded" in t and "plan lc1 step" in t for t in said), said
    fridge = json.loads(client.query(store="entities", entity_id="fridge_289").records[0].json)
    assert "open" in fridge["states"]
