from memory_node.core.models import Plan, SkillCall
from memory_node.core.store import MemoryStore
from memory_node.planning.skills import SkillLibrary
from memory_node.planning.validator import PlanValidator
from memory_node.world.state import WorldState


def plan(*steps: tuple[str, list[str]], robot: str = "vega") -> Plan:
    return Plan(robot=robot, instruction="test", steps=[SkillCall(skill=s, args=a) for s, a in steps])


GOOD_STEPS = [("navigate_to", ["cabinet_1"]), ("open", ["cabinet_1"]), ("pick", ["mug_1"]),
              ("navigate_to", ["person_1"]), ("handover", ["mug_1"])]


def test_a_grounded_plan_in_order_is_valid(kitchen: MemoryStore, vega: SkillLibrary) -> None:
    assert PlanValidator(vega).validate(plan(*GOOD_STEPS), WorldState.from_store(kitchen)) == []


def test_skill_outside_the_library_is_caught(kitchen: MemoryStore, vega: SkillLibrary) -> None:
    bad = plan(*GOOD_STEPS[:3], ("teleport", ["person_1"]), GOOD_STEPS[4])
    problems = PlanValidator(vega).validate(bad, WorldState.from_store(kitchen))
    assert len(problems) == 1
    assert "step 4 teleport(person_1)" in problems[0] and "not in the vega" in problems[0]


def test_other_robots_skill_is_caught(kitchen: MemoryStore, vega: SkillLibrary) -> None:
    problems = PlanValidator(vega).validate(plan(("walk_to", ["cabinet_1"])), WorldState.from_store(kitchen))
    assert problems and "walk_to" in problems[0]


def test_invented_id_wrong_arity_and_room_as_object(kitchen: MemoryStore, vega: SkillLibrary) -> None:
    w = WorldState.from_store(kitchen)
    v = PlanValidator(vega)
    assert "not an id in memory" in v.validate(plan(("navigate_to", ["fridge_9"])), w)[0]
    assert "takes 1 argument(s), got 2" in v.validate(plan(("navigate_to", ["table_3", "mug_1"])), w)[0]
    assert "is a room" in v.validate(plan(("navigate_to", ["kitchen_201"]), ("pick", ["kitchen_201"])), w)[0]


def test_unsatisfied_preconditions_in_the_dry_run(kitchen: MemoryStore, vega: SkillLibrary) -> None:
    w = WorldState.from_store(kitchen)
    v = PlanValidator(vega)
    # picking from the closed cabinet without opening it
    problems = v.validate(plan(("navigate_to", ["cabinet_1"]), ("pick", ["mug_1"])), w)
    assert problems == ["step 2 pick(mug_1): precondition accessible(mug_1) is not satisfied"]
    # picking without going there, and handing over what is not held
    problems = v.validate(plan(("handover", ["mug_1"])), w)
    assert problems == ["step 1 handover(mug_1): precondition holding(mug_1) is not satisfied"]
    problems = v.validate(plan(("open", ["cabinet_1"])), w)
    assert problems == ["step 1 open(cabinet_1): precondition near(cabinet_1) is not satisfied"]


def test_hands_come_from_the_library(store: MemoryStore, mem, vega: SkillLibrary) -> None:
    mem.scene(1, [mem.ent("table_1", "table"), mem.ent("a", "cup"), mem.ent("b", "cup"), mem.ent("c", "cup")],
              [("a", "on", "table_1"), ("b", "on", "table_1"), ("c", "on", "table_1")])
    steps = [("navigate_to", ["table_1"]), ("pick", ["a"]), ("pick", ["b"]), ("pick", ["c"])]
    problems = PlanValidator(vega).validate(plan(*steps), WorldState.from_store(store))
    assert problems == ["step 4 pick(c): precondition hand_free is not satisfied"]


def test_repeating_a_known_failure_is_caught(kitchen: MemoryStore, mem, vega: SkillLibrary) -> None:
    mem.feedback(3_000_000_000, "open", ["cabinet_1"], success=False, message="door stuck")
    problems = PlanValidator(vega).validate(plan(*GOOD_STEPS), WorldState.from_store(kitchen))
    assert len(problems) == 1 and "repeats a known failure" in problems[0] and "door stuck" in problems[0]
    mem.feedback(4_000_000_000, "open", ["cabinet_1"], success=True)
    # the success clears the failure and leaves the cabinet open (memory records what it implies): the
    # plan needs no open step now, and one that opens it again is caught
    w = WorldState.from_store(kitchen)
    assert PlanValidator(vega).validate(plan(GOOD_STEPS[0], *GOOD_STEPS[2:]), w) == []
    assert PlanValidator(vega).validate(plan(*GOOD_STEPS), w) == [
        "step 2 open(cabinet_1): precondition not open(cabinet_1) is not satisfied"]


def test_plan_for_another_robot_is_caught(kitchen: MemoryStore, vega: SkillLibrary) -> None:
    problems = PlanValidator(vega).validate(plan(*GOOD_STEPS, robot="g1"), WorldState.from_store(kitchen))
    assert problems and "skill library is 'vega'" in problems[0]
