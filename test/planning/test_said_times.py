"""Times of day said in questions and commands: "where was the book at nine?", "was the cabinet open at
half past nine?", "bring the book at nine" (for later) — read by ``language/clock.py`` and answered as of that
moment over a real SQLite memory."""

from __future__ import annotations

from datetime import datetime

import pytest

from memory_node.core.store import MemoryStore
from memory_node.language import parse
from memory_node.language.clock import latest_before, read_clock
from memory_node.language.task_mood import task_mood
from memory_node.requests.dispatch import answer_question, plan_request
from memory_node.planning.skills import SkillLibrary, default_library_path

S = 1_000_000_000
# local midnight of a day, so the test reads the same in any time zone the machine is set to
MIDNIGHT = int(datetime(2026, 11, 30).timestamp()) * S
H = 3600 * S


@pytest.mark.parametrize("said,seconds,fixed,rest", [
    ("where was the mug at nine?", 9 * 3600, False, "where was the mug?"),
    ("where was the mug at 9 am?", 9 * 3600, True, "where was the mug?"),
    ("where was the mug at 9pm?", 21 * 3600, True, "where was the mug?"),
    ("where was the mug at ten past nine?", 9 * 3600 + 600, False, "where was the mug?"),
    ("was the fridge open at half past seven", 7 * 3600 + 1800, False, "was the fridge open"),
    ("what was on the table around 8?", 8 * 3600, False, "what was on the table?"),
    ("where was it at 21:30", 21 * 3600 + 1800, True, "where was it"),
    ("where was the mug at noon", 12 * 3600, True, "where was the mug"),
])
def test_clock_times_are_read_only_after_a_word_that_makes_them_times(said, seconds, fixed, rest) -> None:
    clock = read_clock(said)
    assert (clock.seconds, clock.fixed, clock.rest) == (seconds, fixed, rest)


@pytest.mark.parametrize("said", ["bring me two mugs", "put it at the table", "the top 3 shelves", "at nine"])
def test_numbers_that_are_not_times_are_left_alone(said: str) -> None:
    clock = read_clock(said)
    assert clock is None or not clock.rest  # "at nine" alone leaves nothing to read: the parser reads it whole


def test_an_hour_without_am_or_pm_is_the_latest_past_one() -> None:
    day = 0.0
    assert latest_before(day + 22.5 * 3600, day, 9 * 3600, fixed=False) == day + 21 * 3600
    assert latest_before(day + 10 * 3600, day, 9 * 3600, fixed=False) == day + 9 * 3600
    assert latest_before(day + 8 * 3600, day, 9 * 3600, fixed=False) == day - 3 * 3600  # 21:00 yesterday
    assert latest_before(day + 8 * 3600, day, 9 * 3600, fixed=True) == day - 15 * 3600  # 09:00 yesterday


def test_a_question_keeps_its_clock_time_and_a_command_is_for_later() -> None:
    q = parse("where was the book at nine?")
    assert q.is_question and q.time is not None and q.time.clock_s == 9 * 3600
    assert q.text == "where was the book at nine?"
    assert task_mood("bring me the book at nine") == ("later", "at nine")
    assert task_mood("bring me the book I left there at nine") == ("", "")
    c = parse("bring me the book at nine")
    assert c.is_command and any("later" in n for n in c.notes)


@pytest.fixture
def day(mem) -> MemoryStore:
    """The book on the table at 08:30, on the shelf from 09:30; the cabinet open at 08:30, closed at 09:30;
    now is 10:00 (the newest record)."""
    e = mem.ent
    mem.scene(MIDNIGHT + int(8.5 * H), [e("table_1", "table"), e("shelf_1", "shelf"), e("book_1", "book"),
                                         e("cabinet_1", "cabinet", states=["open"])],
              [("book_1", "on", "table_1")])
    mem.scene(MIDNIGHT + int(9.5 * H), [e("book_1", "book"), e("cabinet_1", "cabinet", states=["closed"])],
              [("book_1", "on", "shelf_1")])
    mem.feedback(MIDNIGHT + 10 * H, "look", [], success=True)
    return mem.store


def test_where_was_at_a_clock_time_reads_memory_as_of_then(day: MemoryStore) -> None:
    assert "table_1" in answer_question(day, "where was the book at nine?").answer_ids
    assert "shelf_1" in answer_question(day, "where was the book at quarter to ten?").answer_ids
    assert "shelf_1" in answer_question(day, "where is the book?").answer_ids
    early = answer_question(day, "where was the book at 8 am?")
    assert "not seen" in early.answer and early.confidence == 0.0


def test_a_past_tense_question_with_a_time_is_answered_as_of_then(day: MemoryStore) -> None:
    then = answer_question(day, "was the cabinet open at nine?")
    assert then.answer.startswith("As of 09:00: Yes"), then.answer
    now = answer_question(day, "is the cabinet open?")
    assert now.answer.startswith("No"), now.answer
    assert answer_question(day, "was there a book on the table at nine?").answer.startswith("As of 09:00: Yes")
    # present tense with no time: now
    assert "As of" not in answer_question(day, "is there a book on the table?").answer


def test_a_command_for_a_clock_time_is_offered_for_now(day: MemoryStore) -> None:
    lib = SkillLibrary.load(default_library_path("vega"))
    r = plan_request(day, lib, "bring me the book at nine", speaker="alice")
    assert not r.success and "I keep no schedule" in r.error, r.error
    assert plan_request(day, lib, "bring me the book", speaker="alice").success
