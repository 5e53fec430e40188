from memory_node.core.store import MemoryStore
from memory_node.planning.skills import Predicate
from memory_node.world.state import WorldState


def test_world_reads_locations_states_and_chain(kitchen: MemoryStore) -> None:
    w = WorldState.from_store(kitchen)
    assert w.locations["mug_1"] == ("in", "cabinet_1")
    assert w.states["cabinet_1"] == {"closed"}
    assert w.chain("mug_1") == ["cabinet_1", "kitchen_201"]
    assert w.furniture("mug_1") == "cabinet_1"
    assert w.furniture("kitchen_201") is None
    assert w.room_of("mug_1") == "kitchen_201"
    assert w.closed_containers("mug_1") == ["cabinet_1"]
    assert w.is_room("kitchen_201") and w.is_person("person_1")
    assert w.location_provenance["mug_1"].startswith("sg-")
    assert w.robot_at is None and w.holding == set()


def test_world_as_of_a_past_time(kitchen: MemoryStore, mem) -> None:
    w = WorldState.from_store(kitchen, as_of_ns=mem.T_BETWEEN)
    assert w.locations["mug_1"] == ("on", "table_3")
    assert w.furniture("mug_1") == "table_3"
    assert w.closed_containers("mug_1") == []


def test_robot_state_from_meta(kitchen: MemoryStore) -> None:
    kitchen.set_meta("robot", {"room": "kitchen_201", "at": "table_3", "holding": ["mug_1"]})
    w = WorldState.from_store(kitchen)
    assert (w.robot_at, w.robot_room, w.holding) == ("table_3", "kitchen_201", {"mug_1"})
    assert w.locations["mug_1"] == ("held_by", "robot")
    assert w.holds(Predicate.parse("near(mug_1)"), {"mug_1": "mug_1"})
    # the robot's current state says nothing about the past
    assert WorldState.from_store(kitchen, as_of_ns=1).robot_at is None


def test_failure_is_known_until_a_later_success(kitchen: MemoryStore, mem) -> None:
    mem.feedback(3_000_000_000, "open", ["cabinet_1"], success=False, message="handle did not move")
    mem.feedback(3_100_000_000, "pick", ["mug_1"], success=False)
    mem.feedback(3_200_000_000, "pick", ["mug_1"], success=True)
    w = WorldState.from_store(kitchen)
    assert set(w.failures) == {("open", "cabinet_1")}
    failure = w.known_failure("open", ["cabinet_1"])
    assert failure is not None and "handle did not move" in failure.reason()
    assert w.known_failure("close", ["cabinet_1"]) is None
    # before the pick succeeded, its failure was still standing
    assert ("pick", "mug_1") in WorldState.from_store(kitchen, as_of_ns=3_150_000_000).failures


def test_a_cancelled_or_estopped_step_is_no_known_failure(kitchen: MemoryStore, mem) -> None:
    mem.feedback(3_000_000_000, "open", ["cabinet_1"], success=False, status="timeout")
    mem.feedback(3_100_000_000, "navigate_to", ["table_3"], success=False, status="estop")
    mem.feedback(3_200_000_000, "open", ["cabinet_1"], success=False, status="cancelled")
    w = WorldState.from_store(kitchen)
    # the interrupted open neither clears the earlier timeout nor counts itself
    assert set(w.failures) == {("open", "cabinet_1")} and w.failures[("open", "cabinet_1")].status == "timeout"


def test_dry_run_semantics_on_a_copy(kitchen: MemoryStore) -> None:
    w = WorldState.from_store(kitchen)
    s = w.copy()
    b = {"c": "cabinet_1", "o": "mug_1"}
    near, accessible = Predicate.parse("near(o)"), Predicate.parse("accessible(o)")
    assert not s.holds(near, b) and not s.holds(accessible, b)
    s.apply(Predicate.parse("robot_at(c)"), b)
    s.apply(Predicate.parse("open(c)"), b)
    assert s.holds(near, b) and s.holds(accessible, b)
    assert s.holds(Predicate.parse("not closed(c)"), b)
    s.apply(Predicate.parse("holding(o)"), b)
    assert s.holds(Predicate.parse("hand_free"), b)  # two hands, one used
    assert w.states["cabinet_1"] == {"closed"} and w.robot_at is None  # the original is untouched


def test_only_enclosing_containers_block(store, mem) -> None:
    mem.scene(1, [mem.ent("cabinet_1", "cabinet", states=["closed", "locked"]), mem.ent("folder_1", "folder"),
                  mem.ent("shelf_1", "shelf"), mem.ent("cup_1", "cup")],
              [("folder_1", "on", "cabinet_1"), ("shelf_1", "in", "cabinet_1"), ("cup_1", "on", "shelf_1")])
    w = WorldState.from_store(store)
    assert w.closed_containers("folder_1") == []  # lying on top of it
    assert w.closed_containers("cup_1") == ["cabinet_1"]  # on a shelf inside it


def test_shut_covers_closed_locked_and_doors_never_seen(store: MemoryStore, mem) -> None:
    opens = {"openable": "true"}
    mem.scene(1, [mem.ent("fridge_1", "fridge", attributes=opens), mem.ent("box_1", "box", states=["locked"]),
                  mem.ent("oven_1", "oven", attributes=opens, states=["open"]), mem.ent("shelf_1", "shelf"),
                  mem.ent("egg_1", "egg"), mem.ent("pan_1", "pan"), mem.ent("jar_1", "jar")],
              [("egg_1", "in", "fridge_1"), ("pan_1", "in", "oven_1"), ("jar_1", "in", "shelf_1")])
    w = WorldState.from_store(store)
    assert w.shut("fridge_1") and w.shut("box_1")  # unknown door of a thing that opens; a lock holds it shut
    assert not w.shut("oven_1") and not w.shut("shelf_1")  # seen open; nothing says the shelf has a door
    assert w.closed_containers("egg_1") == ["fridge_1"]
    assert w.closed_containers("pan_1") == [] and w.closed_containers("jar_1") == []
    assert not w.holds(Predicate.parse("accessible(x)"), {"x": "egg_1"})
