"""memory-node replay: real rosbag2 recordings (the shared MCAP from a real camera, and bags this test
writes in both storages) into a real memory file, through the node's own input code; the memory it builds
is the one the live node builds from the same messages over DDS."""

import time
from pathlib import Path

import pytest

pytest.importorskip("memory_node.msg", reason="replay needs the colcon build (scripts/setup.sh)")

from cli_helpers import SHARED, S, T0  # noqa: E402

from memory_node.cli.replay import load_params, replay  # noqa: E402
from memory_node.core.store import MemoryStore  # noqa: E402
from memory_node.ros.bag import BagReader, BagWriter  # noqa: E402

CAMERA_BAG = SHARED / "ros2_bags" / "amber_soccer_goal" / "soccer_goal_12.mcap"
PARAMS = load_params("vega")


def _graph(t_ns, entities, relations, room="kitchen", complete=False):
    from geometry_msgs.msg import Point

    from memory_node.msg import Entity, Relation, SceneGraph
    from memory_node.ros.conversions import ns_to_stamp

    msg = SceneGraph(source="bag", room=room, complete=complete,
                     entities=[Entity(id=i, label=label, room=room, position=Point(x=x, y=1.0, z=0.8),
                                      states=list(states), confidence=1.0)
                               for i, label, x, states in entities],
                     relations=[Relation(subject=s, predicate=p, object=o) for s, p, o in relations])
    msg.header.stamp = ns_to_stamp(t_ns)
    msg.header.frame_id = "map"
    return msg


def experience():
    """(topic, message) in order: a kitchen seen twice (the mug moves to the shelf), a failed skill, a
    correction, an activity, and one utterance the node rejects (empty text)."""
    from memory_node.msg import Activity, SkillFeedback, Utterance
    from memory_node.ros.conversions import ns_to_stamp

    out = [("/scene_graph", _graph(T0, [("table_1", "table", 1.0, ()), ("mug_1", "mug", 1.1, ()),
                                        ("cabinet_1", "cabinet", 3.0, ("closed",))],
                                   [("mug_1", "on", "table_1")], complete=True)),
           ("/scene_graph", _graph(T0 + 5 * S, [("shelf_1", "shelf", 4.0, ()), ("mug_1", "mug", 4.1, ())],
                                   [("mug_1", "on", "shelf_1")]))]
    fb = SkillFeedback(robot="vega", skill="open", args=["cabinet_1"], target_id="cabinet_1", success=False,
                       status="blocked", message="the top drawer is locked")
    fb.header.stamp = ns_to_stamp(T0 + 6 * S)
    utt = Utterance(speaker="alex", text="forks go in the drawer")
    utt.header.stamp = ns_to_stamp(T0 + 7 * S)
    bad = Utterance(speaker="alex", text="   ")
    bad.header.stamp = ns_to_stamp(T0 + 8 * S)
    act = Activity(actor="alex", verb="wash", objects=["mug"], location="kitchen", text="alex washes the mug")
    act.header.stamp = ns_to_stamp(T0 + 9 * S)
    return out + [("/skill_feedback", fb), ("/user_utterance", utt), ("/user_utterance", bad), ("/activity", act)]


TYPES = {"/scene_graph": "memory_node/msg/SceneGraph", "/skill_feedback": "memory_node/msg/SkillFeedback",
         "/user_utterance": "memory_node/msg/Utterance", "/activity": "memory_node/msg/Activity",
         "/perception/unrelated": "memory_node/msg/Utterance"}


def write_bag(path, messages, storage="mcap"):
    """A recording as a recorder makes it: CDR bytes (rclpy's serialisation), log time = stamp + 1 ms."""
    from rclpy.serialization import serialize_message

    from memory_node.ros.conversions import stamp_to_ns

    with BagWriter(path, storage=storage) as bag:
        for topic in dict.fromkeys(t for t, _ in messages):
            bag.add_topic(topic, TYPES[topic])
        for topic, msg in messages:
            bag.write_cdr(topic, stamp_to_ns(msg.header.stamp) + 1_000_000, serialize_message(msg))
    return path


def snapshot(db):
    """What memory holds, without the random observation ids (provenance) two runs cannot share."""
    store = MemoryStore.open_reader(db)
    try:
        ents = sorted(store.entities(include_absent=True), key=lambda e: e.id)
        return {
            "entities": [e.model_dump(exclude={"provenance", "location"}) for e in ents],
            "locations": [(e.id, e.location and (e.location.predicate, e.location.object, e.location.since_ns))
                          for e in ents],
            "history": {e.id: [(v.valid_from_ns, v.valid_to_ns, v.entity.room, v.entity.position)
                               for v in store.history(e.id)] for e in ents},
            "relations": sorted((r.subject, r.predicate, r.object, r.since_ns, r.until_ns)
                                for r in store.relations()),
            "events": sorted((e.kind, e.stamp_ns, e.text, tuple(e.entity_ids)) for e in store.events(limit=1000)),
        }
    finally:
        store.close()


@pytest.mark.parametrize("storage", ["mcap", "sqlite3"])
def test_a_written_bag_replays_with_its_stamps_and_rejections(tmp_path, storage, cli):
    bag = write_bag(tmp_path / "run", experience() + [("/perception/unrelated", experience()[3][1])], storage)
    with BagReader(bag) as reader:  # the bag is a real rosbag2 folder with its definitions
        assert reader.topics["/scene_graph"] == ("memory_node/msg/SceneGraph", 2)
    db = tmp_path / "memory.db"
    code, out, _ = cli("replay", bag, "--db", db)
    assert code == 0, out
    assert "skipping /perception/unrelated: not an input of the node" in out
    assert "replayed 6 messages" in out and "1 rejected" in out
    assert "utterances: 2 messages, 1 rejected" in out and "utterance with empty text" in out
    store = MemoryStore.open_reader(db)
    mug = store.entity("mug_1")
    assert mug.location.object == "shelf_1" and mug.last_seen_ns == T0 + 5 * S  # header stamps, not log times
    assert [v.valid_from_ns for v in store.history("mug_1")] == [T0, T0 + 5 * S]
    assert {e.kind for e in store.events(limit=100)} >= {"skill", "utterance", "activity"}
    store.close()


def test_remap_and_topic_selection(tmp_path):
    messages = [("/perception/unrelated", _graph_as_utterance(T0))]
    bag = write_bag(tmp_path / "remapped", messages)
    report = replay(bag, tmp_path / "m.db", PARAMS, remaps={"/perception/unrelated": "user_utterance"},
                    log=lambda *a: None)
    assert report.messages == {"utterances": 1} and not report.rejected
    report = replay(bag, tmp_path / "m2.db", PARAMS, topics=["/nothing"], log=lambda *a: None)
    assert sum(report.messages.values()) == 0


def _graph_as_utterance(t_ns):
    from memory_node.msg import Utterance
    from memory_node.ros.conversions import ns_to_stamp

    u = Utterance(speaker="bob", text="the keys are in the bowl")
    u.header.stamp = ns_to_stamp(t_ns)
    return u


def test_a_broken_message_is_rejected_and_the_rest_replayed(tmp_path):
    from rclpy.serialization import serialize_message

    good = [_graph_as_utterance(T0 + i * S) for i in range(3)]
    with BagWriter(tmp_path / "broken", storage="sqlite3") as bag:
        bag.add_topic("/user_utterance", "memory_node/msg/Utterance")
        for i, msg in enumerate(good):
            data = serialize_message(msg)
            bag.write_cdr("/user_utterance", T0 + i * S, data[:9] if i == 1 else data)  # the 2nd cut short
    report = replay(tmp_path / "broken", tmp_path / "m.db", PARAMS, log=lambda *a: None)
    assert report.messages == {"utterances": 3} and report.rejected == {"utterances": 1}
    assert "could not be deserialised as memory_node/msg/Utterance" in report.errors[0]
    store = MemoryStore.open_reader(tmp_path / "m.db")
    assert sorted(e.stamp_ns for e in store.events(kind="utterance")) == [T0, T0 + 2 * S]
    store.close()


def test_what_is_not_a_recording_is_refused_before_a_database_is_made(cli, tmp_path, memory_db):
    (tmp_path / "empty_folder").mkdir()
    (tmp_path / "junk.mcap").write_bytes(b"not an mcap file")
    for not_a_bag in (memory_db, tmp_path / "empty_folder", tmp_path / "junk.mcap"):
        code, _, err = cli("replay", not_a_bag, "--db", tmp_path / "new.db")
        assert code == 2 and "not a" in err and str(not_a_bag) in err
        assert not (tmp_path / "new.db").exists()


def test_rate_plays_at_recorded_speed(tmp_path):
    msgs = [("/user_utterance", _graph_as_utterance(T0 + i * S // 4)) for i in range(5)]  # 1 s of recording
    bag = write_bag(tmp_path / "timed", msgs)
    fast = replay(bag, tmp_path / "fast.db", PARAMS, log=lambda *a: None)
    t = time.perf_counter()
    timed = replay(bag, tmp_path / "timed.db", PARAMS, rate=2.0, log=lambda *a: None)
    assert time.perf_counter() - t >= 0.5  # 1 s recorded at twice the speed
    assert fast.seconds < 0.5 and timed.messages == fast.messages == {"utterances": 5}


def test_the_shared_camera_mcap_replays_into_frames(tmp_path):
    if not CAMERA_BAG.exists():
        pytest.skip(f"shared bag not found at {CAMERA_BAG}")
    db = tmp_path / "camera.db"
    report = replay(CAMERA_BAG, db, PARAMS, log=lambda *a: None)
    assert report.messages == {"images": 2} and not report.rejected, report.errors
    store = MemoryStore.open_reader(db)
    frames = store.frames()
    assert 1 <= len(frames) == report.frames_admitted <= 2
    assert frames[-1].stamp_ns == 8_297_777_777 and frames[-1].width == 640  # the camera's own stamp
    assert all(Path(f.path).is_file() for f in frames)  # the JPEG files beside the database
    store.close()


def test_replay_builds_the_memory_the_live_node_builds(start_node, tmp_path):
    """The same messages: published to the real node over DDS, and replayed from a bag into another file."""
    live_db = tmp_path / "live.db"
    node, client = start_node(database_path=live_db)
    for topic, msg in experience():
        {"/scene_graph": client.publish_scene_graph, "/skill_feedback": client.publish_skill_feedback,
         "/user_utterance": client.publish_utterance, "/activity": client.publish_activity}[topic](msg)
    client.sync(timeout=30)
    node.stop()
    replay_db = tmp_path / "replayed.db"
    replay(write_bag(tmp_path / "same", experience()), replay_db, PARAMS, log=lambda *a: None)
    live, replayed = snapshot(live_db), snapshot(replay_db)
    assert live["entities"] and live["events"]
    assert replayed == live


def test_memory_opened_for_a_robot_records_what_its_skills_leave(tmp_path):
    """open_store (the node's and replay's) hands the robot's skill library to memory: a successful skill
    leaves the states its effects name, under that library's skill names."""
    from memory_node.core.models import EntityObservation, SceneGraphObservation, SkillFeedbackObservation
    from memory_node.ros.ingest import open_store

    assert "pour" in open_store(tmp_path / "g1.db", {**PARAMS, "robot": "g1"}).skill_state_effects
    lib = tmp_path / "door_bot.yaml"
    lib.write_text("robot: door_bot\nhands: 1\nskills:\n"
                   "  - {name: swing_open, role: open, description: Open a door., "
                   "args: [{name: door, type: container}], preconditions: [], effects: [open(door)]}\n")
    store = open_store(tmp_path / "m.db", {**PARAMS, "skill_library": str(lib)})
    store.ingest_scene_graph(SceneGraphObservation(stamp_ns=T0, entities=[
        EntityObservation(id="door_1", label="door", attributes={"openable": "true"})]))
    for skill in ("open", "swing_open"):  # only the library's own name counts
        store.ingest_skill_feedback(SkillFeedbackObservation(stamp_ns=T0 + S, robot="door_bot", skill=skill,
                                                             args=["door_1"], success=True))
        assert store.entity("door_1").states == ([] if skill == "open" else ["open"])
    store.close()


def test_a_bag_recorded_before_skill_feedback_named_its_plan_replays(tmp_path, cli):
    """Recordings carry their own message definitions: one made before SkillFeedback had plan_id and step
    still replays, as feedback that names no plan."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore

    current = (Path(__file__).resolve().parents[2] / "msg" / "SkillFeedback.msg").read_text().splitlines()
    old = "\n".join(line for line in current if not line.startswith(("string plan_id", "uint32 step")))
    assert old.count("\n") == len(current) - 3  # the two fields this test leaves out are still the last ones
    store = get_typestore(Stores.ROS2_KILTED)
    store.register(get_types_from_msg(old, "memory_node/msg/SkillFeedback"))
    types = store.types
    msg = types["memory_node/msg/SkillFeedback"](
        header=types["std_msgs/msg/Header"](stamp=types["builtin_interfaces/msg/Time"](sec=T0 // S, nanosec=0),
                                            frame_id=""),
        robot="vega", skill="open", args=["fridge_1"], target_id="fridge_1", success=True, status="SUCCESS",
        message="opened")
    with Writer(tmp_path / "old", version=Writer.VERSION_LATEST, storage_plugin=StoragePlugin.MCAP) as bag:
        conn = bag.add_connection("/skill_feedback", "memory_node/msg/SkillFeedback", typestore=store)
        bag.write(conn, T0, bytes(store.serialize_cdr(msg, "memory_node/msg/SkillFeedback")))
    db = tmp_path / "memory.db"
    code, out, _ = cli("replay", tmp_path / "old", "--db", db)
    assert code == 0 and "replayed 1 messages" in out and "0 rejected" in out, out
    reader = MemoryStore.open_reader(db)
    (event,) = reader.events(limit=10)
    reader.close()
    assert event.kind == "skill" and (event.data["skill"], event.data["plan_id"], event.data["plan_step"]) == \
        ("open", "", 0)
