"""Answers read as a person would say them."""

import pytest

from memory_node.core.text import indefinite


@pytest.mark.parametrize("noun, expected", [
    ("unicorn", "a unicorn"), ("apple", "an apple"), ("hour", "an hour"), ("mug", "a mug"),
    ("umbrella", "an umbrella"), ("eulogy", "a eulogy"), ("oven", "an oven"), ("user", "a user"),
])
def test_indefinite_article_follows_the_sound(noun, expected):
    assert indefinite(noun) == expected
