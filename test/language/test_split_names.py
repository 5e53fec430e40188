"""Two-word names the small tagger splits: before "back" or "next to" it reads the second noun as an adverb or
an adjective ("the heated TV remote back in the fridge": the TV became the thing). The sentences are this file's
own."""

from __future__ import annotations

import pytest

from memory_node.language import parse
from memory_node.language.request import Kind


@pytest.mark.parametrize("text", ["Put the heated TV remote back in the fridge",
                                  "stick the frozen tv remote next to the kettle",
                                  "drop the chilled TV remote back on the sofa"])
def test_a_name_split_before_a_place_word_is_one_thing(text: str) -> None:
    req = parse(text, prefer=Kind.command)
    assert [(o.compound, o.head) for o in req.objects] == [(["tv"], "remote")], req.objects


@pytest.mark.parametrize("text, head", [("is the oven still on?", "oven"), ("put the mug back please", "mug"),
                                        ("put the glass down gently", "glass"), ("leave the kettle black", "kettle")])
def test_an_adverb_or_a_colour_after_a_name_is_no_part_of_it(text: str, head: str) -> None:
    req = parse(text)
    assert req.objects and req.objects[0].head == head, req.objects
