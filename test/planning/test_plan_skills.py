from pathlib import Path

import pytest

from memory_node.planning.skills import (
    KNOWN_ROLES,
    Predicate,
    SkillLibrary,
    SkillLibraryError,
    default_library_path,
)

GOOD = """
robot: testbot
hands: 1
skills:
  - name: go
    role: navigate
    description: Go somewhere.
    args: [{name: target, type: place}]
    preconditions: []
    effects: [robot_at(target)]
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "lib.yaml"
    p.write_text(text)
    return p


@pytest.mark.parametrize("robot", ["vega", "g1"])
def test_real_libraries_load_with_roles_and_descriptions(robot: str) -> None:
    lib = SkillLibrary.load(default_library_path(robot))
    assert lib.robot == robot and lib.hands == 2
    for role in ("navigate", "open", "close", "pick", "place", "handover"):
        assert lib.by_role(role) is not None, role
    for skill in lib.skills:
        assert skill.role in KNOWN_ROLES and skill.description


def test_robot_specific_skill_names_come_from_yaml(vega: SkillLibrary, g1: SkillLibrary) -> None:
    assert vega.by_role("navigate").name == "navigate_to"
    assert g1.by_role("navigate").name == "walk_to"
    assert g1.by_role("pour").signature() == "pour(source, target)"
    assert vega.by_role("pour") is None
    assert vega.skill("place").signature() == "place(object, receptacle)"
    assert vega.skill("fly") is None


def test_predicates_parse_with_negation_and_literal_relation(vega: SkillLibrary) -> None:
    place = vega.skill("place")
    assert [str(p) for p in place.effects] == ["not holding(object)", "located(object, on, receptacle)"]
    assert Predicate.parse("not closed(container)").negated
    assert Predicate.parse("hand_free").args == ()


def test_minimal_library_loads(tmp_path: Path) -> None:
    lib = SkillLibrary.load(write(tmp_path, GOOD))
    assert lib.names() == ["go"]


@pytest.mark.parametrize("bad, message", [
    (GOOD.replace("role: navigate", "role: teleport"), "role 'teleport'"),
    (GOOD.replace("robot_at(target)", "robot_at(place)"), "not an argument"),
    (GOOD.replace("robot_at(target)", "flying(target)"), "unknown predicate 'flying'"),
    (GOOD.replace("robot_at(target)", "near(target)"), "cannot be an effect"),
    (GOOD.replace("type: place", "type: planet"), "skills.0.args.0.type"),
    (GOOD.replace("    description: Go somewhere.\n", ""), "description"),
    (GOOD.replace("[robot_at(target)]", "[located(target, on, target)]"), "quote"),
    (GOOD + GOOD.split("skills:\n")[1], "declared twice"),
    ("robot: x\nhands: 1\nskills: []\n", "at least one skill"),
    ("- just\n- a list\n", "must be a mapping"),
    ("robot: [unclosed\n", "not valid YAML"),
])
def test_malformed_library_is_a_clear_error(tmp_path: Path, bad: str, message: str) -> None:
    path = write(tmp_path, bad)
    with pytest.raises(SkillLibraryError) as err:
        SkillLibrary.load(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)


def test_missing_library_names_where_it_looked() -> None:
    with pytest.raises(SkillLibraryError, match="no skill library for robot 'spot'"):
        default_library_path("spot")
    with pytest.raises(SkillLibraryError):
        default_library_path("../etc/passwd")
