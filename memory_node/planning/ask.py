"""Information requests ("where is my mug?") answered from structured memory, never from free text search.

Each intent is a small pattern plus a lookup: latest state is an indexed query, so answers are exact and
cite the observations they rest on (``evidence_ids``) and the ids a client can act on (``answer_ids``).
Questions outside the patterns are refused with what is supported, rather than guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.models import Answer, Entity, Relation, state_family
from ..core.store import MemoryStore
from .ask_entities import ENTITY_INTENTS, ENTITY_QUESTIONS
from .ask_time import BEFORE_MOVE_RE, ORIGINAL_RE, TIME_INTENTS, TIME_QUESTIONS
from .grounding import Grounder
from .habits_ask import HABIT_INTENTS, HABIT_QUESTIONS
from .phrasing import describe, not_seen, relation_words, sentence, spoken_noun
from .preferences import WHERE_DOES_IT_GO, where_does_it_go
from .resolve import Candidate
from .world import WorldState

SUPPORTED_QUESTIONS = ("where is <object>", "is <object> open/closed/locked/...", "what happened to <object>",
                       "what did you do", "where does <object> go")
_STATE_WORDS = {"open": "open", "opened": "open", "closed": "closed", "shut": "closed", "locked": "locked",
                "unlocked": "unlocked", "on": "on", "off": "off", "clean": "clean", "dirty": "dirty",
                "full": "full", "empty": "empty", "plugged in": "plugged_in"}
_RECENT_EVENTS = 5
ALL_QUESTIONS = SUPPORTED_QUESTIONS + ENTITY_QUESTIONS + TIME_QUESTIONS + HABIT_QUESTIONS
_ABSENT_FACTOR = 0.3  # the last sighting is contradicted by a later complete view of the room

_WHERE_RE = re.compile(
    r"^where(?:'s|\s+is|\s+are|\s+was|\s+were|\s+did\s+(?:you|i)\s+(?:last\s+)?(?:see|put|leave)|"
    r"\s+have\s+you\s+(?:last\s+)?seen|\s+can\s+i\s+find)?\s+(?P<x>.+)$")
_STATE_RE = re.compile(r"^(?:is|are|was|were)\s+(?P<x>.+?)\s+(?P<state>" +
                       "|".join(sorted(map(re.escape, _STATE_WORDS), key=len, reverse=True)) + r")$")
_HAPPENED_RE = re.compile(r"^what\s+(?:has\s+|have\s+)?happened\s+(?:to|with)\s+(?P<x>.+)$")
_DID_RE = re.compile(r"^what\s+(?:did|have|has)\s+(?:you|the\s+robot)\s+(?:do|done|been\s+doing)\b.*$")


def _clean(question: str) -> str:
    q = " ".join(question.strip().lower().split())
    q = re.sub(r"^(?:(?:can|could)\s+you\s+tell\s+me\s+|please\s+|do\s+you\s+know\s+)", "", q)
    return q.rstrip(" ?.!")


def answer_question(store: MemoryStore, question: str, as_of_ns: int | None = None, speaker: str = "") -> Answer:
    """Answer from memory as it stood at ``as_of_ns`` (now when None), for ``speaker`` ("" = whoever spoke
    to the robot last: "my mug" is theirs)."""
    if not question or not question.strip():
        return Answer(success=False, error="empty question")
    q = _clean(question)
    intents: list[tuple[re.Pattern[str], Callable[[MemoryStore, WorldState, re.Match[str]], Answer]]] = [
        *HABIT_INTENTS,  # before "where is": "where does P03 usually put the plate?" is a preference
        (WHERE_DOES_IT_GO, where_does_it_go),  # before "where is": told placements (planning/preferences.py)
        *TIME_INTENTS,  # before "what did you do": "what did you do after ..." names a moment
        (_DID_RE, _what_did_you_do),
        (_HAPPENED_RE, _what_happened),
        *ENTITY_INTENTS,
        (_STATE_RE, _is_state),
        (_WHERE_RE, _where_is),
    ]
    for pattern, handler in intents:
        m = pattern.match(q)
        if m:
            world = WorldState.from_store(store, as_of_ns=as_of_ns, speaker=speaker)
            return handler(store, world, m)
    return Answer(success=False, error=f"unsupported question {question.strip()!r}; I can answer: "
                                       f"{'; '.join(ALL_QUESTIONS)}")


def _find(store: MemoryStore, world: WorldState, phrase: str) -> tuple[list[Candidate], str]:
    """Candidates for a phrase ("my mug" included), and the phrase as a person would repeat it."""
    return Grounder(store, world).find(phrase), spoken_noun(phrase)


def _ambiguity(cands: list[Candidate]) -> float:
    """1 / how many candidates are indistinguishable from the chosen one (recency alone broke the tie)."""
    top = cands[0]
    tied = [c for c in cands if c.score == top.score and c.entity.present == top.entity.present]
    return 1.0 / len(tied)


def _dedupe(ids: list[str]) -> list[str]:
    return [i for i in dict.fromkeys(ids) if i]


def _last_location(store: MemoryStore, ent: Entity, as_of_ns: int | None) -> Relation | None:
    """Where an entity that has since gone missing was last seen (its history keeps that location)."""
    for version in reversed(store.history(ent.id)):
        if as_of_ns is not None and version.valid_from_ns > as_of_ns:
            continue
        if version.entity.location is not None:
            return version.entity.location
    return None


def _where_is(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    phrase = m.group("x")
    moment = BEFORE_MOVE_RE.match(phrase) or ORIGINAL_RE.match(phrase)
    if moment is not None:
        return _where_was(store, world, moment)
    cands, noun = _find(store, world, phrase)
    if not cands:
        return not_seen(noun)
    return _where_answer(store, world, cands)


def _where_was(store: MemoryStore, world: WorldState, moment: re.Match[str]) -> Answer:
    """"where was the book before I moved it" / "... originally": the same answer, read as of the moment
    before (or right after) the event the clause names, or of the first sighting."""
    cands, noun = _find(store, world, moment.group("x"))
    if not cands:
        return not_seen(noun)
    ent = cands[0].entity
    clause = moment.groupdict().get("clause")
    if clause is None:
        as_of, anchor_id = ent.first_seen_ns, ent.provenance
    else:
        ev = Grounder(store, world).anchor_event(clause, subject_id=ent.id)
        if ev is None:
            return Answer(success=True, answer=f"I have no record of {clause} for {describe(world, ent.id)}.",
                          answer_ids=[ent.id], evidence_ids=[ent.id], confidence=0.0)
        as_of, anchor_id = (ev.stamp_ns - 1 if moment.group("dir") == "before" else ev.stamp_ns), ev.id
    then = WorldState.from_store(store, as_of_ns=as_of, speaker=world.speaker)
    past = [c for c in _find(store, then, ent.id)[0] if c.entity.id == ent.id]
    if not past:
        return Answer(success=True, answer=f"I had not seen {describe(world, ent.id)} yet then.",
                      answer_ids=[ent.id], evidence_ids=[anchor_id], confidence=0.0)
    answer = _where_answer(store, then, past)
    answer.evidence_ids = _dedupe([anchor_id, *answer.evidence_ids])
    return answer


def _where_answer(store: MemoryStore, world: WorldState, cands: list[Candidate]) -> Answer:
    ent = cands[0].entity
    past = world.as_of_ns is not None
    loc = ent.location if ent.present else _last_location(store, ent, world.as_of_ns)
    room = world.room_of(loc.object) if loc is not None else None
    room = room or world.room_of(ent.id)
    confidence = max(ent.confidence, 0.01) * _ambiguity(cands) * (1.0 if ent.present else _ABSENT_FACTOR)
    evidence = [loc.provenance if loc else "", ent.provenance, ent.id]
    room_text = f" in {describe(world, room)}" if room and (loc is None or loc.object != room) else ""
    if loc is None:
        text = (f"I saw {describe(world, ent.id)}{room_text}, but I do not know what it is on or in."
                if room_text else f"I have seen {describe(world, ent.id)}, but I do not know where it is.")
        return Answer(success=True, answer=text, answer_ids=_dedupe([room or ""]),
                      evidence_ids=_dedupe(evidence), confidence=confidence * 0.5)
    place = f"{relation_words(loc.predicate)} {describe(world, loc.object)}"
    # nested storage ("in the drawer, which is in the cabinet") up to the furniture, not the room
    inner = loc.object
    for outer in world.chain(loc.object):
        if world.is_room(outer):
            break
        place += f", which is {relation_words(world.locations[inner][0])} {describe(world, outer)}"
        evidence.insert(1, world.location_provenance.get(inner, ""))
        inner = outer
    subject = describe(world, ent.id)
    if not ent.present:
        text = f"{subject} was last seen {place}{room_text}, but it was not there when I looked again."
    elif past:
        text = f"at that time {subject} was {place}{room_text}."
    else:
        text = f"{subject} is {place}{room_text}."
    return Answer(success=True, answer=sentence(text), answer_ids=_dedupe([loc.object, room or ""]),
                  evidence_ids=_dedupe(evidence), confidence=min(confidence, 1.0))


def _is_state(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    state = _STATE_WORDS[m.group("state")]
    cands, noun = _find(store, world, m.group("x"))
    if not cands:
        return not_seen(noun)
    ent = cands[0].entity
    states = world.states.get(ent.id, set())
    subject = describe(world, ent.id)
    ids, evidence = [ent.id], _dedupe([ent.provenance, ent.id])
    confidence = max(ent.confidence, 0.01) * _ambiguity(cands)
    if state in states:
        return Answer(success=True, answer=f"Yes, {subject} is {state.replace('_', ' ')}.", answer_ids=ids,
                      evidence_ids=evidence, confidence=confidence)
    opposite = [s for s in state_family(state) if s in states and s != state]
    if state == "locked" and "open" in states:
        opposite = ["open"]
    if opposite:
        return Answer(success=True, answer=f"No, {subject} is {opposite[0].replace('_', ' ')}.",
                      answer_ids=ids, evidence_ids=evidence, confidence=confidence)
    text = f"I have no record of whether {subject} is {state.replace('_', ' ')}."
    failures = [f for f in world.failures.values() if f.target == ent.id]
    said_locked = [f for f in failures if "locked" in f"{f.status} {f.message}".lower()]
    if state == "locked" and said_locked:
        # the controller said so when memory did not know the container yet (the state is only set on a
        # container memory already holds): the failure itself is the evidence
        return Answer(success=True, answer=f"Yes: {said_locked[-1].reason()}.", answer_ids=ids,
                      evidence_ids=evidence + [said_locked[-1].event_id], confidence=confidence * 0.9)
    if failures:
        text += f" Note: {failures[-1].reason()}."
        evidence.append(failures[-1].event_id)
    return Answer(success=True, answer=text, answer_ids=ids, evidence_ids=evidence, confidence=0.0)


def _what_happened(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    cands, noun = _find(store, world, m.group("x"))
    if not cands:
        return not_seen(noun)
    ent = cands[0].entity
    events = store.events(entity_id=ent.id, until_ns=world.as_of_ns, limit=_RECENT_EVENTS)
    subject = describe(world, ent.id)
    if not events:
        return Answer(success=True, answer=f"I have no record of anything happening to {subject}.",
                      answer_ids=[ent.id], evidence_ids=_dedupe([ent.provenance, ent.id]), confidence=0.0)
    text = f"Most recent first, for {subject}: " + "; ".join(ev.text for ev in events) + "."
    return Answer(success=True, answer=text, answer_ids=[ev.id for ev in events],
                  evidence_ids=_dedupe([ev.provenance for ev in events] + [ent.id]),
                  confidence=max(ent.confidence, 0.01) * _ambiguity(cands))


def _what_did_you_do(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    events = store.events(kind="skill", until_ns=world.as_of_ns, limit=_RECENT_EVENTS)
    if not events:
        return Answer(success=True, answer="I have no record of doing anything yet.", confidence=0.0)
    text = "Most recent first: " + "; ".join(ev.text for ev in events) + "."
    return Answer(success=True, answer=text, answer_ids=[ev.id for ev in events],
                  evidence_ids=_dedupe([ev.provenance for ev in events]), confidence=1.0)
