"""Scenario files: every shipped one parses and refers to its scene's ids; the graders pass and fail on the
right final states. (Runs without Genesis: scenarios and graders are plain data.)"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from pydantic import ValidationError

from memory_node.sim.scenario import Expect, Scenario, grade_answer, grade_plan, load_scenario, shipped_scenarios
from memory_node.sim.scene_spec import load_scene_spec, shipped_scene


@dataclass
class Facts:
    parents: dict[str, tuple[str, str]] = field(default_factory=dict)
    hands: set[str] = field(default_factory=set)
    states: dict[str, set[str]] = field(default_factory=dict)
    given: set[str] = field(default_factory=set)

    def parent_of(self, obj: str) -> tuple[str, str] | None:
        return self.parents.get(obj)

    def held(self) -> set[str]:
        return self.hands

    def states_of(self, ent: str) -> set[str]:
        return self.states.get(ent, set())

    def handed_over(self) -> set[str]:
        return self.given


def test_shipped_scenarios_parse_and_name_real_ids() -> None:
    names = shipped_scenarios()
    assert len(names) >= 5
    for name in names:
        sc = load_scenario(name)
        spec = load_scene_spec(shipped_scene(sc.scene))
        ids = {r.id for r in spec.rooms} | {f.id for f in spec.furniture} | {o.id for o in spec.objects}
        used = set()
        for step in sc.experience:
            if step.tour:
                used |= set(step.tour)
            if step.look:
                used |= set(step.look)
            if step.move:
                used |= {step.move.object, step.move.to}
            if step.set_state:
                used.add(step.set_state.object)
            if step.do:
                used |= set(step.do.args)
        for req in sc.requests:
            e = req.expect
            used |= set(e.answer_ids) | {x for x in (e.holding, e.open, e.closed, e.handed_over) if x}
            if e.located:
                used |= {e.located[0], e.located[2]}
        assert used <= ids, f"{name}: unknown ids {sorted(used - ids)}"


def test_scenario_steps_have_exactly_one_action() -> None:
    base = {"name": "x", "scene": "s", "requests": [{"ask": "where is the mug", "expect": {}}]}
    Scenario.model_validate({**base, "experience": [{"tour": ["kitchen"]}]})
    with pytest.raises(ValidationError, match="exactly one"):
        Scenario.model_validate({**base, "experience": [{"tour": ["k"], "say": {"text": "hi"}}]})
    with pytest.raises(ValidationError, match="exactly one of ask / plan"):
        Scenario.model_validate({**base, "experience": [], "requests": [{"ask": "a", "plan": "b", "expect": {}}]})
    with pytest.raises(ValidationError, match="graded on its answer"):
        Scenario.model_validate({**base, "experience": [], "requests": [{"ask": "a", "expect": {"holding": "m"}}]})


def test_answer_grader() -> None:
    e = Expect(answer_ids=["table_2"], answer_contains=["table"])
    assert grade_answer(e, "The mug is on the table (table_2).", ["table_2", "kitchen"], 1.0) == []
    assert grade_answer(e, "The mug is on the counter.", ["counter_1"], 1.0) == \
        ["answer_ids lacks table_2", "answer lacks 'table'"]
    assert grade_answer(Expect(not_known=True), "I have not seen a unicorn.", [], 0.0) == []
    assert grade_answer(Expect(not_known=True), "It is on the table.", ["t"], 0.9)


def test_plan_grader_reads_the_final_state() -> None:
    facts = Facts(parents={"apple_1": ("on", "plate_1")}, hands={"mug_1"}, states={"fridge_1": {"open"}},
                  given={"cup_1"})
    steps = [("navigate_to", ["fridge_1"]), ("open", ["fridge_1"])]
    assert grade_plan(Expect(holding="mug_1", located=("apple_1", "on", "plate_1"), open="fridge_1",
                             handed_over="cup_1", executed=True), None, steps, True, facts) == []
    bad = grade_plan(Expect(holding="cup_1", located=("apple_1", "in", "plate_1"), closed="fridge_1",
                            executed=True, not_skill=("open", "fridge_1")), None, steps, False, facts)
    assert len(bad) == 5
    assert grade_plan(Expect(refused="locked"), "the cabinet (cabinet_1) is locked", [], False, facts) == []
    assert grade_plan(Expect(refused="locked"), None, steps, True, facts)
    assert grade_plan(Expect(holding="mug_1"), "no memory of mug", [], False, facts) == ["refused: no memory of mug"]
