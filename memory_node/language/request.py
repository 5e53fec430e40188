"""The typed request: what one utterance asks of the robot, before anything is looked up.

Understanding and doing are separate steps. ``parse`` (``language/parser.py``) turns words into a
``Request``; grounding (``language/grounding.py``) turns its ``ObjectRef`` phrases into memory's entities;
``planning/`` answers or plans from the typed request. The deterministic parser and the LLM mode both
produce this schema (the LLM through structured output), so grounding, validation and accounting are
shared, and a parse can be tested on its own.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field


class Kind(str, Enum):
    question = "question"
    command = "command"
    statement = "statement"


class Intent(str, Enum):
    # information requests (answered over ~/ask)
    where = "where"  # where is X / where did I leave X / I can't find X
    what_room = "what_room"  # which room is X in
    contents = "contents"  # what is in / on / under / next to X
    exists = "exists"  # is there any X (in Y) / do we have X / have you seen X
    state = "state"  # is X open / closed / on / dirty ...
    usable = "usable"  # is X usable / can X be opened / is X working
    attribute = "attribute"  # what colour / material / size is X
    count = "count"  # how many X (in Y)
    which = "which"  # which X is <state / mine / next to Y>
    when_seen = "when_seen"  # when did you first / last see X
    when_did = "when_did"  # when did I / you <verb> X
    around = "around"  # what happened / did P do right after / before <event>
    robot_did = "robot_did"  # what did you do
    person_did = "person_did"  # what did I do / say
    happened_to = "happened_to"  # what happened to X
    goes_where = "goes_where"  # where does X go (told placements, rules)
    habit = "habit"  # how does P usually ..., what does P usually do after ...
    # action requests (planned over ~/plan)
    fetch = "fetch"  # bring / get / grab / hand me X [to P or a room]
    put = "put"  # put / place X on / in Y
    put_away = "put_away"  # put X away / tidy X up (where it goes)
    put_back = "put_back"  # put X back where it was
    open = "open"
    close = "close"
    find = "find"  # find / look for / search for X: go to where memory last saw it
    go = "go"  # go to a room or a piece of furniture
    drink = "drink"  # make me a drink (robots with a pour skill)
    # neither
    inform = "inform"  # a statement memory learns from the utterance topic ("my mug is the blue one")
    greeting = "greeting"
    unknown = "unknown"


QUESTION_INTENTS = frozenset({
    Intent.where, Intent.what_room, Intent.contents, Intent.exists, Intent.state, Intent.usable,
    Intent.attribute, Intent.count, Intent.which, Intent.when_seen, Intent.when_did, Intent.around,
    Intent.robot_did, Intent.person_did, Intent.happened_to, Intent.goes_where, Intent.habit})
# commands that move a thing somewhere (to a person or a place)
CARRYING_INTENTS = frozenset({Intent.fetch, Intent.put, Intent.put_away, Intent.put_back})
COMMAND_INTENTS = frozenset({
    Intent.fetch, Intent.put, Intent.put_away, Intent.put_back, Intent.open, Intent.close, Intent.find,
    Intent.go, Intent.drink})

Determiner = Literal["the", "a", "any", "every", "all", "both", "some", "no", ""]
SpatialRelation = Literal["in", "on", "under", "near", "next_to", "above", "behind", "in_front_of", "at", "from"]


class ObjectRef(BaseModel):
    """One thing the request is about, as said: "my blue mug on the table in the kitchen"."""

    text: str = Field(description="the phrase as said")
    head: str = Field(default="", description="head noun, singular ('mug'); '' for a pronoun")
    compound: list[str] = Field(default_factory=list, description="nouns before the head ('tv' in 'tv remote')")
    modifiers: list[str] = Field(default_factory=list, description="adjectives: colour, material, size, state")
    owner: str = Field(default="", description="'speaker' for my/our, else the owner's name ('alice')")
    ordinal: int | None = Field(default=None, description="1 for 'the first', -1 for 'the last'")
    determiner: Determiner = ""
    quantity: int | None = Field(default=None, description="'two apples' -> 2")
    plural: bool = False
    anchor: Anchor | None = Field(default=None, description="a spatial reference: 'on the table'")
    room: str = Field(default="", description="a room hint: 'in the kitchen' -> 'kitchen'")
    pronoun: str = Field(default="", description="'it', 'them', 'that one': the speaker's previous things")
    purpose: str = Field(default="", description="a functional request: 'something to drink' -> 'drink'")
    of_noun: str = Field(default="", description="'a carton of milk' -> 'milk' (what the container holds)")

    def noun(self) -> str:
        """The thing as a person would repeat it ("tv remote")."""
        return " ".join([*self.compound, self.head]).strip() or self.text

    def words(self) -> str:
        """Adjectives, compounds and head: "living room", "big blue mug" (names of rooms and places)."""
        return " ".join([*self.modifiers, *self.compound, self.head]).strip() or self.text


class Anchor(BaseModel):
    relation: SpatialRelation
    ref: ObjectRef
    negated: bool = Field(default=False, description="'the glass that is not on the table': the others")


class TimeRef(BaseModel):
    """When a question is about: an event it names, an ordinal moment, or a time against event time."""

    relation: Literal["before", "after", "at", "since", ""] = ""
    clause: str = Field(default="", description="the event named: 'I moved it', 'you opened the fridge'")
    moment: Literal["first", "last", "original", "previous", ""] = ""
    ago_s: float | None = Field(default=None, description="'ten minutes ago' -> 600")
    day: Literal["today", "yesterday", ""] = ""
    part_of_day: Literal["morning", "afternoon", "evening", "night", ""] = ""
    clock_s: int | None = Field(default=None, ge=0, lt=86_400,
                                description="'at nine' -> 32400: a time of day, seconds after midnight")
    clock_fixed: bool = Field(default=False, description="a.m. / p.m. said: the hour is not read 12 hours later")


class Alternative(BaseModel):
    """Another reading of the same words, kept when the reading taken is in doubt (for asking back)."""

    intent: Intent
    confidence: float = Field(ge=0.0, le=1.0)
    objects: list[ObjectRef] = Field(default_factory=list)


class Request(BaseModel):
    """What an utterance asks. ``objects`` are in the order said; ``destination`` is where a command puts
    things; ``recipient`` is who they are for."""

    text: str
    kind: Kind
    intent: Intent
    objects: list[ObjectRef] = Field(default_factory=list)
    destination: Anchor | None = None
    recipient: str = Field(default="", description="'me' -> 'speaker', or a person's / room's name")
    actor: str = Field(default="", description="who did it, in event questions: 'speaker', 'robot', a name")
    verb: str = Field(default="", description="the event's verb lemma, in event questions")
    attribute: str = Field(default="", description="'colour', 'material', 'size', ... for attribute questions")
    state: str = Field(default="", description="'open', 'locked', ... for state / which questions")
    time: TimeRef | None = None
    polite: bool = False
    negated: bool = False
    either: bool = Field(default=False, description=(
        "the objects were said as alternatives ('the remote or the keyboard'): one of them will do"))
    source: Literal["parser", "llm"] = "parser"
    notes: list[str] = Field(default_factory=list, description="what the parser was unsure of")
    confidence: float = Field(default=1.0, ge=0.0, le=1.0, description=(
        "how likely the kind of request read (its intent's family: a where question, a fetch, a put...) is the "
        "one meant (language/reading_policy.py); below "
        "reading_policy.ASK_BACK_BELOW the robot should ask back rather than act; 1.0 when nothing measured it"))
    alternatives: list[Alternative] = Field(default_factory=list, description="other readings, most likely first")
    close_after: list[ObjectRef] = Field(default_factory=list, description=(
        "things the words say to close once the task is done ('put the milk in the fridge and close it', 'then shut "
        "the microwave'): 'it' or a bare 'the door' is what the plan opened (language/closing.py)"))
    go_after: ObjectRef | None = Field(default=None, description=(
        "a place the words say to go once the task is done ('put the mug in the sink and then go to the bedroom'): "
        "a room or a thing memory knows, driven to last (language/going_after.py)"))
    part: str = Field(default="", description=(
        "of several parts said, the one read as the request (language/parts.py); '' when it was read whole"))

    @property
    def is_question(self) -> bool:
        return self.intent in QUESTION_INTENTS

    @property
    def is_command(self) -> bool:
        return self.intent in COMMAND_INTENTS


ObjectRef.model_rebuild()
