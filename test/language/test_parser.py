"""The parse alone: utterance -> typed Request, apart from answering (no store, no ROS)."""

import pytest

from memory_node.language import Intent, Kind, parse

pytest.importorskip("spacy")


@pytest.mark.parametrize("text, intent", [
    ("where'd I leave the remote", Intent.where),
    ("have you seen my keys anywhere?", Intent.exists),
    ("I can't find my glasses", Intent.where),
    ("my phone has gone missing", Intent.where),
    ("what's in the fridge?", Intent.contents),
    ("anything on the counter?", Intent.contents),
    ("is there any milk in the fridge?", Intent.exists),
    ("which room is the sofa in", Intent.what_room),
    ("is the top drawer locked", Intent.state),
    ("has the oven been left on?", Intent.state),
    ("can the drawer be opened?", Intent.usable),
    ("does the bin open?", Intent.usable),
    ("how many apples are in the kitchen", Intent.count),
    ("what colour is the cup on the table?", Intent.attribute),
    ("when did you last see the remote", Intent.when_seen),
    ("what time did you first spot the juice?", Intent.when_seen),
    ("where does the fork go", Intent.goes_where),
    ("where should I put the books?", Intent.goes_where),
    ("where did I put the books?", Intent.where),
    ("what did you do", Intent.robot_did),
    ("Ben washed up, and then what?", Intent.around),
    ("could you grab me the apple and the milk please", Intent.fetch),
    ("I'd like a glass of water", Intent.fetch),
    ("put the apple on the table", Intent.put),
    ("put the apple back where it was", Intent.put_back),
    ("the magazine needs putting away", Intent.put_away),
    ("would you mind closing the cabinet", Intent.close),
    ("shut the microwave door", Intent.close),
    ("have a look for my wallet, would you?", Intent.find),
    ("head over to the kitchen", Intent.go),
    ("hello there", Intent.greeting),
])
def test_intent(text: str, intent: Intent) -> None:
    assert parse(text).intent is intent, parse(text)


def test_object_phrase_parts() -> None:
    req = parse("where is my blue mug on the table in the kitchen?")
    ref = req.objects[0]
    assert (ref.head, ref.owner, ref.modifiers) == ("mug", "speaker", ["blue"])
    assert ref.anchor is not None and ref.anchor.relation == "on" and ref.anchor.ref.head == "table"
    inner = ref.anchor.ref.anchor
    assert inner is not None and inner.ref.head == "kitchen"


def test_several_objects_quantity_and_recipient() -> None:
    req = parse("bring me the apple and the milk")
    assert [o.head for o in req.objects] == ["apple", "milk"] and req.recipient == "speaker"
    assert parse("fetch two apples").objects[0].quantity == 2
    to_alice = parse("bring the mug to alice", names=frozenset({"alice"}))
    assert to_alice.intent is Intent.fetch and to_alice.recipient == "alice"


def test_destination_and_source() -> None:
    put = parse("place the mug in the kitchen on the table")
    assert put.destination is not None and put.destination.ref.head == "table"
    out = parse("get me the salmon out of the microwave")
    assert out.objects[0].head == "salmon" and out.objects[0].anchor.relation == "from"
    assert out.objects[0].anchor.ref.head == "microwave"


def test_time_references_against_events() -> None:
    assert parse("where was the book before I moved it").time.clause == "I moved it"
    assert parse("where was the mug originally").time.moment == "original"
    assert parse("where did the book use to be?").time.moment == "original"
    assert parse("where was the book ten minutes ago").time.ago_s == 600.0
    assert parse("where was my phone yesterday morning").time.day == "yesterday"


def test_pronouns_inside_one_utterance() -> None:
    req = parse("the ball is in the microwave, can you bring it to me?")
    assert req.intent is Intent.fetch and req.objects[0].head == "ball"
    assert req.objects[0].anchor is not None and req.objects[0].anchor.ref.head == "microwave"
    later = parse("bring it to me")
    assert later.objects[0].pronoun == "it"  # left for the speaker's previous request


def test_odd_input_never_raises() -> None:
    for text in ("", "   ", "asdf qwerty", "?!?", "a" * 3000, "🙂🙂", "DROP TABLE entities;"):
        req = parse(text)
        assert req.kind in (Kind.question, Kind.command, Kind.statement)


@pytest.mark.parametrize("text, relation, head", [
    ("put the pear in front of the kettle", "in_front_of", "kettle"),
    ("set the pear down in front of the toaster", "in_front_of", "toaster"),
    # the place said first is where it goes; what follows is a spot on it
    ("put the pear on the shelf in front of the kettle", "on", "shelf"),
    ("put the pear on the shelf, in between the kettle and the toaster", "on", "shelf"),
    # with a determiner, the front is a part of the thing: inside it
    ("put the pear in the front of the cupboard", "in", "cupboard")])
def test_in_front_of_and_in_between_are_beside_never_inside(text: str, relation: str, head: str) -> None:
    # "in front of the kettle" read as "in the kettle" put the pear inside what it was to stand before
    d = parse(text, prefer=Kind.command).destination
    assert d is not None and (d.relation, d.ref.head) == (relation, head), d


@pytest.mark.parametrize("text, relation, head", [
    # the thing it goes by says where in or on the place; the place is where it goes (the tomato may be unknown)
    ("put the pear behind the kettle in the cupboard", "in", "cupboard"),
    ("set the pear next to the toaster on the worktop", "on", "worktop"),
    # a room is no place to set a thing on: the thing it goes by stays
    ("put the pear next to the kettle in the kitchen", "next_to", "kettle"),
    # where the robot stands is no place of its own
    ("put the pear on the worktop in front of you", "on", "worktop"),
    ("place the pear on the worktop to the right of you", "on", "worktop"),
    ("Take the pear from the table in front of you. Place the pear on top of the worktop in front of you.", "on",
     "worktop")])
def test_a_spot_by_a_thing_in_a_place_is_that_place(text: str, relation: str, head: str) -> None:
    d = parse(text, prefer=Kind.command).destination
    assert d is not None and (d.relation, d.ref.head) == (relation, head), d


def test_a_side_said_without_to_the_is_a_spot_not_a_thing() -> None:
    from memory_node.language.normalise import normalise

    # "right of the sink" said bare: the tagger made "right" a thing of its own to put on the counter too
    r = parse("put the pear on the worktop right of the sink", prefer=Kind.command)
    assert [o.head for o in r.objects] == ["pear"] and (r.destination.relation, r.destination.ref.head) == (
        "on", "worktop"), r
    d = parse("put the pear left of the sink", prefer=Kind.command).destination
    assert (d.relation, d.ref.head) == ("next_to", "sink"), d
    # what is left of something, and a side already said, stay as they were
    for text in ("what's left of the cake?", "is there anything left of the milk?", "nothing left of it",
                 "on the far right of the counter", "put it to left of the sink", "I left of my own accord"):
        assert "to the left of" not in normalise(text).replace("to left of", "") and \
            "to the right of" not in normalise(text), text


@pytest.mark.parametrize("text", ["Slice a lime, cook it and set it on the plate",
                                  "Slice a pear, cook it and set it on the plate"])
def test_it_after_a_first_verb_the_tagger_read_as_a_noun_is_the_thing(text: str) -> None:
    # the small tagger reads a sentence's first "Slice" as a noun with "a lime" hung on it; "it" is the lime
    r = parse(text, prefer=Kind.command)
    assert r.intent is Intent.put and len(r.objects) == 1 and r.objects[0].head in ("lime", "pear") and \
        r.destination.ref.head == "plate", r
