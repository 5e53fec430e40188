"""Phrases grounded in what memory was *told* as well as what it saw: "my mug", "Anna's cup", and moments
such as "before I moved it" or "after you opened the fridge".

``resolve.py`` matches words against entity records and nothing else; people also refer to things by whose
they are (a possession fact from an utterance: "my mug is the blue one") and to times by what happened
then. Both need the store, so they live here, and both say which event they rest on so answers can cite it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from ..core.models import Event
from ..core.rules import facts
from ..core.store import MemoryStore
from .resolve import Candidate, norm, resolve_entities, singular, split_hint, words
from .world import WorldState

POSSESSION_SCORE = 4.0  # above any attribute or hint: "my mug" is that mug, wherever it is
DEFAULT_SPEAKER = "user"
_OWNER_RE = re.compile(r"^(?:the\s+)?(?P<owner>my|our|mine|[a-z][a-z0-9_\-]*'s)\s+(?P<rest>.+)$")
_ACTOR_RE = re.compile(r"^(?P<actor>i|you|we|the\s+robot|someone|somebody|it|they|[a-z]+)\s+"
                       r"(?P<verb>[a-z]+)\s*(?P<obj>.*)$")
_PRONOUNS = frozenset({"it", "them", "that", "this", "him", "her"})
_ROBOT_WORDS = frozenset({"you", "the robot", "robot"})
_PERSON_WORDS = frozenset({"i", "we", "someone", "somebody", "they"})
_MOVE_VERBS = frozenset({"move", "put", "take", "took", "moved", "placed", "place", "carry", "carried",
                         "left", "leave", "brought", "bring", "hid", "hide", "set", "dropped", "drop"})


@dataclass(frozen=True)
class Owned:
    """What memory was told a person owns, for one phrase."""

    owner: str
    entity_ids: tuple[str, ...]
    event_ids: tuple[str, ...]
    said: str  # the fact as text, for explanations


def stem(word: str) -> str:
    """Crude verb stem, so the forms people and logs use meet: "opened" ~ "open", "putting" ~ "put",
    "taking" ~ "take"; irregular forms ("took") stay as they are and are listed where they matter."""
    w = word.lower()
    for suffix in ("ing", "es", "ed", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not (suffix == "s" and w.endswith("ss")):
            w = w[: -len(suffix)]
            break
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]  # putting -> putt -> put
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]  # take ~ taking
    return w


class Grounder:
    """Resolves phrases for one request against one memory snapshot (``world``) and the store it came from."""

    def __init__(self, store: MemoryStore, world: WorldState, speaker: str = "") -> None:
        self.store = store
        self.world = world
        self._speaker = speaker or world.speaker

    # ---- whose ---------------------------------------------------------------------------------------

    @cached_property
    def speaker(self) -> str:
        """Who "my" means: the request's speaker, else whoever spoke to the robot last (looked up only when
        a phrase is possessive: most requests never need it)."""
        if self._speaker:
            return self._speaker
        last = self.store.events(kind="utterance", until_ns=self.world.as_of_ns, limit=1)
        speaker = str(last[0].data.get("speaker", "")) if last else ""
        return speaker or DEFAULT_SPEAKER

    def owned(self, phrase: str) -> Owned | None:
        """"my mug" / "anna's cup": the entities possession facts say are that person's such thing."""
        m = _OWNER_RE.match(" ".join(phrase.lower().split()))
        if not m:
            return None
        word = m.group("owner")
        owner = self.speaker if word in ("my", "mine", "our") else word.removesuffix("'s")
        head, _ = split_hint(m.group("rest"))
        if not head:
            return None
        keys = {norm(singular(head[-1])), norm("".join(head[:-1]) + singular(head[-1]))}
        owners = dict.fromkeys([owner, DEFAULT_SPEAKER] if word in ("my", "mine", "our") else [owner])
        for who in owners:
            for fact in facts(self.store, kind="possession", owner=who, as_of_ns=self.world.as_of_ns):
                if norm(fact.subject) not in keys and norm(singular(fact.subject.split()[-1])) not in keys:
                    continue
                ids = self._owned_ids(fact.target_id, fact.subject, fact.target)
                if ids:
                    return Owned(owner=who, entity_ids=tuple(ids), event_ids=(fact.event_id,), said=fact.text())
        return None

    def _owned_ids(self, target_id: str, subject: str, attribute: str) -> list[str]:
        """The fact's entity when it named one; else (said before the thing was seen) the entities of that
        kind whose attributes or name carry the words ("my mug is the blue one" -> blue mugs)."""
        if target_id and target_id in self.world.entities:
            return [target_id]
        wanted = set(words(attribute))
        if not wanted:
            return []
        out = []
        for cand in resolve_entities(subject, self.world.entities.values()):
            ent = cand.entity
            said = set(words(" ".join([ent.name, *ent.attributes.values()])))
            if wanted <= said:
                out.append(ent.id)
        return out

    def find(self, phrase: str) -> list[Candidate]:
        """Candidates for a phrase, a possession fact lifting the speaker's own thing to the top."""
        owned = self.owned(phrase)
        boosts = ({i: (POSSESSION_SCORE, f"{owned.owner}'s: {owned.said}") for i in owned.entity_ids}
                  if owned else None)
        return resolve_entities(phrase, self.world.entities.values(), boosts=boosts)

    # ---- when ----------------------------------------------------------------------------------------

    def anchor_event(self, clause: str, subject_id: str = "") -> Event | None:
        """The event a clause such as "I moved it", "you opened the fridge" or "the mug was moved" means:
        the most recent event about the thing it names whose wording carries its verb. "it" is
        ``subject_id``. Moves are also found among observed changes, which is how memory usually learns
        of them."""
        clause = " ".join(clause.lower().split())
        clause = re.sub(r"^(?:the\s+)?(.+?)\s+(?:was|were|got|had\s+been)\s+([a-z]+)$", r"someone \2 \1", clause)
        m = _ACTOR_RE.match(clause)
        if not m:
            return None
        actor, verb, obj = m.group("actor"), stem(m.group("verb")), m.group("obj").strip()
        if obj in _PRONOUNS or not obj:
            targets = [subject_id] if subject_id else []
        else:
            cands = self.find(obj)
            top = cands[0].score if cands else 0.0
            targets = [c.entity.id for c in cands if c.score == top]
        if not targets:
            return None
        moving = verb in {stem(v) for v in _MOVE_VERBS}
        best: tuple[int, int] | None = None
        found: Event | None = None
        for target in targets:
            for ev in self.store.events(entity_id=target, until_ns=self.world.as_of_ns, limit=200):
                if not _event_matches(ev, verb, actor, moving):
                    continue
                # what the named actor was seen doing beats the change memory noticed afterwards
                said_actor = str(ev.data.get("actor", "")) == actor
                rank = (int(said_actor), ev.stamp_ns)
                if best is None or rank > best:
                    best, found = rank, ev
        return found


def _event_matches(ev: Event, verb: str, actor: str, moving: bool) -> bool:
    if moving and ev.kind == "change" and "from" in ev.data:
        return True  # memory saw it somewhere else
    text_stems = {stem(w) for w in re.findall(r"[a-z]+", ev.text.lower())}
    if ev.kind == "skill":
        skill_stems = {stem(w) for w in re.findall(r"[a-z]+", str(ev.data.get("skill", "")))}
        return actor in _ROBOT_WORDS and (verb in skill_stems or verb in text_stems)
    if ev.kind == "activity":
        return actor not in _ROBOT_WORDS and (verb == stem(str(ev.data.get("verb", ""))) or verb in text_stems)
    return ev.kind != "utterance" and verb in text_stems
