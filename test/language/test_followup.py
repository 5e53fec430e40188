"""Replies that finish or correct the previous request (language/followup.py), and the same through the
dispatcher over a real SQLite memory with two mugs."""

from __future__ import annotations

import pytest

from memory_node.core.models import EntityObservation, Point, RelationObservation, SceneGraphObservation
from memory_node.core.store import MemoryStore
from memory_node.language import parse
from memory_node.language.conversation import Conversation
from memory_node.language.followup import follow_up
from memory_node.language.request import Intent, Kind
from memory_node.requests.dispatch import answer_question, plan_request
from memory_node.planning.skills import SkillLibrary, default_library_path


def test_a_fragment_redoes_the_previous_request_with_what_it_says() -> None:
    prev = parse("bring me the mug")
    new, other = follow_up(parse("the blue one"), prev)
    assert new.intent is Intent.fetch and new.objects[0].head == "mug" and new.objects[0].modifiers == ["blue"]
    assert not other and new.recipient == prev.recipient
    new, _ = follow_up(parse("the one on the table"), prev)
    assert new.objects[0].anchor.ref.head == "table" and new.objects[0].text == "the mug"
    new, _ = follow_up(parse("I meant the red cup"), prev)
    assert (new.objects[0].head, new.objects[0].modifiers) == ("cup", ["red"])
    new, _ = follow_up(parse("Anna's"), prev)
    assert new.objects[0].owner == "anna"
    new, _ = follow_up(parse("what about the plate?"), parse("is the plate in the sink?"))
    assert new.intent is Intent.exists and new.objects[0].head == "plate"


def test_the_other_one_says_to_leave_the_one_chosen() -> None:
    _, other = follow_up(parse("no, the other one"), parse("bring me the mug"))
    assert other
    _, other = follow_up(parse("no, the blue one"), parse("bring me the mug"))
    assert not other


@pytest.mark.parametrize("text", ["where is the remote?", "bring me the apple", "thanks", "no"])
def test_a_request_of_its_own_is_no_follow_up(text: str) -> None:
    assert follow_up(parse(text), parse("bring me the mug")) is None


def test_no_previous_request_no_follow_up() -> None:
    assert follow_up(parse("the blue one"), None) is None
    assert follow_up(parse("the blue one"), parse("bring it to me")) is None  # nothing to tell apart


@pytest.fixture()
def store(tmp_path):
    s = MemoryStore(tmp_path / "m.db")
    t = 1_700_000_000 * 10**9
    ents = [EntityObservation(id="table_1", label="table", position=Point(x=2, y=0, z=0.7)),
            EntityObservation(id="counter_1", label="counter", position=Point(x=0, y=0, z=0.9)),
            EntityObservation(id="mug_red", label="mug", position=Point(x=0, y=0, z=0.95), attributes={"color": "red"}),
            EntityObservation(id="mug_blue", label="mug", position=Point(x=2, y=0, z=0.75), attributes={"color": "blue"})]
    rels = [RelationObservation(subject="mug_red", predicate="on", object="counter_1"),
            RelationObservation(subject="mug_blue", predicate="on", object="table_1")]
    s.ingest_scene_graph(SceneGraphObservation(stamp_ns=t, entities=ents, relations=rels))
    yield s
    s.close()


def test_which_one_then_the_answer_over_the_dispatcher(store) -> None:
    lib = SkillLibrary.load(default_library_path("vega"))
    conv = Conversation()
    first = plan_request(store, lib, "bring me the mug", speaker="anna", conversation=conv)
    assert not first.success and "mug_blue" in first.error and "mug_red" in first.error
    blue = plan_request(store, lib, "the blue one", speaker="anna", conversation=conv)
    assert blue.success and [s.args for s in blue.plan.steps if s.skill == "pick"] == [["mug_blue"]], blue.error
    red = plan_request(store, lib, "no, the other one", speaker="anna", conversation=conv)
    assert red.success and [s.args for s in red.plan.steps if s.skill == "pick"] == [["mug_red"]], red.error
    # another speaker's fragment does not finish anna's request
    lone = plan_request(store, lib, "the blue one", speaker="ben", conversation=conv)
    assert not lone.success
    where = answer_question(store, "where is the mug?", speaker="ben", conversation=conv)
    assert sorted(where.answer_ids) == ["mug_blue", "mug_red"]
    on_table = answer_question(store, "the one on the table", speaker="ben", conversation=conv)
    assert on_table.success and "table_1" in on_table.answer_ids, on_table.answer


def test_a_reply_said_as_a_thing_and_a_place_on_the_plan_service_is_still_a_reply() -> None:
    # "which mug?" - "the mug on the desk" on ~/plan reads alone as a put; after a fetch of a mug it tells the mug
    # apart, and "the one in the cabinet" never reads as a put at all
    previous = parse("bring me the mug", prefer=Kind.command)
    for reply in ("the mug on the desk", "the one in the cabinet"):
        got = follow_up(parse(reply, prefer=Kind.command), previous)
        assert got is not None, reply
        done, _ = got
        assert done.intent is Intent.fetch and done.objects[0].head == "mug" and done.objects[0].anchor is not None
    # a thing of another kind and a place is a task of its own
    assert follow_up(parse("juice on shelf.", prefer=Kind.command), previous) is None
