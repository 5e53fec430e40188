"""Phrase -> entities with an explicit outcome (unique / ambiguous / all / none), on a real SQLite store."""

from pathlib import Path

import pytest

from memory_node.core.models import (
    EntityObservation,
    Point,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
)
from memory_node.core.store import MemoryStore
from memory_node.language import Conversation, ObjectRef, parse
from memory_node.language.grounding import Grounder
from memory_node.world.state import WorldState

pytest.importorskip("spacy")
T = 1_700_000_000 * 1_000_000_000


def _ent(i: str, label: str, room: str = "kitchen_1", **kw: object) -> EntityObservation:
    return EntityObservation(id=i, label=label, room=room, **kw)


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    s = MemoryStore(tmp_path / "m.db")
    ents = [
        EntityObservation(id="kitchen_1", label="room", name="kitchen", room="kitchen_1"),
        EntityObservation(id="livingroom_2", label="room", name="living room", room="livingroom_2"),
        _ent("counter_1", "kitchencounter", attributes={"surface": "true"}),
        _ent("table_1", "kitchentable", attributes={"surface": "true"}, position=Point(x=0, y=0, z=0.8)),
        _ent("stand_1", "tvstand", room="livingroom_2", attributes={"surface": "true"}),
        _ent("remote_1", "remotecontrol", room="livingroom_2", attributes={"grabbable": "true"}),
        _ent("phone_1", "cellphone", attributes={"grabbable": "true"}),
        _ent("mug_1", "mug", attributes={"grabbable": "true", "color": "blue"}),
        _ent("mug_2", "mug", room="livingroom_2", attributes={"grabbable": "true", "color": "red"}),
        _ent("apple_1", "apple", attributes={"grabbable": "true"}, position=Point(x=0.1, y=0, z=0.85)),
        _ent("apple_2", "apple", attributes={"grabbable": "true"}, position=Point(x=0.2, y=0, z=0.85)),
        _ent("drawer_1", "drawer", states=["closed"], attributes={"openable": "true"}),
        _ent("drawer_2", "drawer", states=["closed"], attributes={"openable": "true"}),
    ]
    rels = [("counter_1", "in", "kitchen_1"), ("table_1", "in", "kitchen_1"), ("stand_1", "in", "livingroom_2"),
            ("remote_1", "on", "stand_1"), ("phone_1", "on", "counter_1"), ("mug_1", "on", "table_1"),
            ("mug_2", "on", "stand_1"), ("apple_1", "on", "table_1"), ("apple_2", "on", "table_1"),
            ("drawer_1", "in", "kitchen_1"), ("drawer_2", "in", "kitchen_1")]
    s.ingest_scene_graph(SceneGraphObservation(stamp_ns=T, source="test", entities=ents, relations=[
        RelationObservation(subject=a, predicate=p, object=b) for a, p, b in rels]))
    s.ingest_skill_feedback(SkillFeedbackObservation(stamp_ns=T + 10, robot="vega", skill="open", args=["drawer_1"],
                                                     target_id="drawer_1", success=False, status="FAILED",
                                                     message="the drawer is locked"))
    yield s
    s.close()


def ground(store: MemoryStore, text: str, conversation: Conversation | None = None, speaker: str = "") -> object:
    """The grounding of the first object of a parsed request."""
    world = WorldState.from_store(store, speaker=speaker)
    ref = parse(text).objects[0]
    return Grounder(store, world, speaker=speaker, conversation=conversation).ground(ref)


def test_everyday_names_and_head_nouns_reach_glued_labels(store: MemoryStore) -> None:
    assert ground(store, "where is the remote?").ids == ["remote_1"]  # everyday name
    assert ground(store, "where's my phone?").ids == ["phone_1"]  # head noun of cell phone
    table = ground(store, "what is on the table?")
    assert table.status == "unique" and table.ids[0] == "table_1"  # head noun; not the tv stand


def test_ambiguous_until_something_tells_them_apart(store: MemoryStore) -> None:
    both = ground(store, "where is the mug?")
    assert both.status == "ambiguous" and set(both.ids) == {"mug_1", "mug_2"}
    assert ground(store, "where is the red mug?").ids == ["mug_2"]
    assert ground(store, "where is the mug in the kitchen?").ids[0] == "mug_1"
    assert ground(store, "where is the mug on the tv stand?").ids[0] == "mug_2"
    none = ground(store, "where is the green mug?")
    assert none.status == "none" and "green" in none.problem


def test_alike_things_in_one_place_are_interchangeable(store: MemoryStore) -> None:
    g = ground(store, "bring me the apple")
    assert g.status == "unique" and g.ids[0] in ("apple_1", "apple_2")


def test_any_takes_a_usable_one(store: MemoryStore) -> None:
    g = ground(store, "open a drawer")
    assert g.status == "unique" and g.ids[0] == "drawer_2"  # drawer_1 failed to open: locked


def test_unplaced_anchor_is_said_not_folded(store: MemoryStore) -> None:
    g = ground(store, "where is the mug on the piano?")
    assert g.status == "none" and "piano" in g.problem


def test_unknown_thing_is_none(store: MemoryStore) -> None:
    g = ground(store, "where are my keys?")
    assert g.status == "none" and g.candidates == []


def test_pronoun_is_the_same_speakers_previous_thing(store: MemoryStore) -> None:
    conv = Conversation()
    conv.remember("alice", ["mug_2"])
    assert ground(store, "bring it to me", conv, speaker="alice").ids == ["mug_2"]
    assert ground(store, "bring it to me", conv, speaker="bob").status == "none"


def test_purpose_finds_things_by_use(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "p.db")
    s.ingest_scene_graph(SceneGraphObservation(stamp_ns=T, source="test", entities=[
        _ent("juice_1", "juice"), _ent("sink_1", "sink"), _ent("book_1", "book")]))
    world = WorldState.from_store(s)
    g = Grounder(s, world).ground(ObjectRef(text="something to drink", head="something", purpose="drink"))
    assert g.ids == ["juice_1"]
    s.close()


def test_contents_name_their_packaging_and_plural_labels_stay_plural(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "p.db")
    try:
        s.ingest_scene_graph(SceneGraphObservation(stamp_ns=T, source="test", entities=[
            EntityObservation(id="bathroom_1", label="room", name="bathroom", room="bathroom_1"),
            _ent("lotion_1", "lotionbottle", room="bathroom_1", attributes={"grabbable": "true"}),
            _ent("specs_1", "glasses", room="bathroom_1", attributes={"grabbable": "true"}),
            _ent("glass_1", "waterglass", room="bathroom_1", attributes={"grabbable": "true"}),
        ]))
        assert ground(s, "where is the lotion?").ids == ["lotion_1"]  # "lotion bottle" is lotion
        assert ground(s, "where is my glass?").ids == ["glass_1"]  # not the spectacles
        assert "specs_1" in ground(s, "where are my glasses?").ids
    finally:
        s.close()


def test_a_thing_named_for_the_use_comes_before_one_whose_head_noun_is(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "u.db")
    try:
        s.ingest_scene_graph(SceneGraphObservation(stamp_ns=T, source="test", entities=[
            EntityObservation(id="kitchen_1", label="room", name="kitchen", room="kitchen_1"),
            _ent("brush_1", "toothbrush", attributes={"grabbable": "true"}),
            _ent("sponge_1", "sponge", attributes={"grabbable": "true"}),
        ]))
        assert ground(s, "bring me something to clean with").ids == ["sponge_1"]
    finally:
        s.close()


def test_a_head_noun_over_two_kinds_of_thing_is_asked_not_guessed(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "cream.db")
    ents = [EntityObservation(id="kitchen_1", label="room", name="kitchen", room="kitchen_1"),
            _ent("whip_1", "whippedcream", attributes={"grabbable": "true"}),
            _ent("face_1", "facecream", attributes={"grabbable": "true"}),
            _ent("ball_1", "sportsball", attributes={"grabbable": "true"}),
            _ent("ball_2", "balanceball", attributes={"grabbable": "true"})]
    s.ingest_scene_graph(SceneGraphObservation(stamp_ns=T, source="test", entities=ents, relations=[
        RelationObservation(subject=e.id, predicate="in", object="kitchen_1") for e in ents[1:]]))
    try:
        # food and a toiletry: the bare noun is either
        cream = ground(s, "bring me the cream")
        assert cream.status == "ambiguous" and set(cream.ids) == {"whip_1", "face_1"}
        assert ground(s, "where is my face cream?").ids == ["face_1"]
        assert ground(s, "bring me the whipped cream").ids == ["whip_1"]
        # two kinds of one kind of thing (sports kit): the category map's usual one stands
        assert ground(s, "where is the ball?").ids == ["ball_1"]
    finally:
        s.close()
