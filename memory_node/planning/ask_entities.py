"""Questions about things rather than places: which one, what colour, how many, can it be used.

"which cabinet is locked?", "which mug is mine?", "which apple is next to the lemon?", "what colour is my
mug?", "how many apples are in the fridge?", "is the washing machine usable?". Each is a lookup over the
same memory snapshot the other intents use (``WorldState``), grounded through ``Grounder`` so "my" and
spatial references work everywhere; no evidence gives an explicit "I do not know", never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.models import Answer, Entity
from ..core.store import MemoryStore
from .grounding import Grounder
from .phrasing import describe, indefinite, not_seen, relation_words, sentence, spoken_noun
from .resolve import Candidate, norm, resolve_rooms, split_reference
from .world import WorldState

ENTITY_QUESTIONS = ("which <object> is <state | mine | in/on/next to/under ...>",
                    "what colour/material/size is <object>", "how many <objects> [are there] [in/on ...]",
                    "is <object> usable / can I use <object>")
MAX_LISTED = 10
_ATTRIBUTE_KEYS = {"colour": ("color", "colour"), "color": ("color", "colour"), "material": ("material",),
                   "size": ("size",), "shape": ("shape",), "brand": ("brand",)}
# States that make a thing unusable, and what to say about them.
_UNUSABLE_STATES = {"locked": "it is locked", "broken": "it is broken", "dirty": "it is dirty",
                    "full": "it is full", "off": "it is switched off", "unplugged": "it is unplugged"}

_WHICH_RE = re.compile(r"^which\s+(?:one\s+of\s+the\s+|of\s+the\s+)?(?P<x>[a-z0-9 _\-']+?)\s+"
                       r"(?:is|are|was|were)\s+(?P<rest>.+)$")
_ATTR_RE = re.compile(r"^what\s+(?P<key>colou?r|material|size|shape|brand)\s+(?:is|are|was|were)\s+(?P<x>.+)$|"
                      r"^what\s+is\s+the\s+(?P<key2>colou?r|material|size|shape|brand)\s+of\s+(?P<x2>.+)$")
_COUNT_RE = re.compile(r"^how\s+many\s+(?P<x>.+)$")
_COUNT_VERBS = re.compile(r"\b(?:are\s+there|is\s+there|are|is|were|was|do\s+(?:you|i|we)\s+(?:have|see|know\s+of)|"
                          r"did\s+you\s+see|have\s+you\s+seen|can\s+you\s+see)\b")
_USABLE_RE = re.compile(r"^(?:is|are)\s+(?P<x>.+?)\s+(?:usable|available|working|ok\s+to\s+use|"
                        r"free\s+to\s+use|accessible|reachable)$|"
                        r"^can\s+(?:i|you|we)\s+(?:use|get\s+to|reach|open|take)\s+(?P<x2>.+)$")
_OWN_WORDS = re.compile(r"^(?P<owner>mine|ours|yours|mine\s+now|[a-z][a-z0-9_\-]*'s)$")


def _ids(ents: list[Entity]) -> list[str]:
    return [e.id for e in ents]


def _listing(world: WorldState, ents: list[Entity]) -> str:
    named = [describe(world, e.id) for e in ents[:MAX_LISTED]]
    more = f" and {len(ents) - MAX_LISTED} more" if len(ents) > MAX_LISTED else ""
    return ", ".join(named) + more


def which(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    """"which X is <state>", "which X is mine/anna's", "which X is <location or spatial reference>"."""
    noun, rest = m.group("x").strip(), m.group("rest").strip()
    grounder = Grounder(store, world)
    kind = [c for c in grounder.find(noun) if c.entity.present]
    if not kind:
        return not_seen(noun)
    own = _OWN_WORDS.match(rest)
    if own:
        word = own.group("owner")
        owner_phrase = ("my " if word.startswith("mine") else "our " if word == "ours"
                        else "your " if word == "yours" else f"{word} ") + noun
        owned = grounder.owned(owner_phrase)
        if owned is None:
            return Answer(success=True, confidence=0.0,
                          answer=f"Nobody told me which {spoken_noun(noun)} is {word}.")
        ents = [world.entities[i] for i in owned.entity_ids]
        return Answer(success=True, answer=f"{sentence(_listing(world, ents))} — {owned.said}.",
                      answer_ids=_ids(ents), evidence_ids=list(owned.event_ids) + _ids(ents), confidence=1.0)
    state = norm(rest)
    if state and not split_reference("x " + rest)[1]:
        return _which_state(world, kind, noun, state, rest)
    cands = grounder.find(f"{noun} {rest}")
    holding = [c for c in cands if c.hint_holds and c.entity.present]
    if not holding:
        anchor = " ".join(split_reference("x " + rest)[2])
        return Answer(success=True, confidence=0.0, answer=f"I know of no {spoken_noun(noun)} {rest}"
                      + (f" (I know nothing called {anchor})" if anchor and not _known(grounder, anchor) else "")
                      + ".")
    top = holding[0].score
    best = [c.entity for c in holding if c.score == top]
    return Answer(success=True, answer=f"{sentence(_listing(world, best))}: {'; '.join(holding[0].reasons[1:])}.",
                  answer_ids=_ids(best), evidence_ids=_evidence(best), confidence=1.0 / len(best))


def _known(grounder: Grounder, phrase: str) -> bool:
    return bool(grounder.find(phrase) or resolve_rooms(phrase, grounder.world.entities.values()))


def _which_state(world: WorldState, kind: list[Candidate], noun: str, state: str, said: str) -> Answer:
    with_state = [c.entity for c in kind if state in world.states.get(c.entity.id, set())
                  or state in {norm(v) for v in c.entity.attributes.values()}]
    if not with_state:
        failed = [c.entity for c in kind if state == "locked"
                  and any(f.target == c.entity.id for f in world.failures.values())]
        if failed:
            return Answer(success=True, answer=f"None is recorded as locked, but opening "
                          f"{_listing(world, failed)} failed before.", answer_ids=_ids(failed),
                          evidence_ids=[f.event_id for f in world.failures.values()
                                        if f.target in set(_ids(failed))], confidence=0.5)
        return Answer(success=True, confidence=0.0,
                      answer=f"I have no record of {indefinite(spoken_noun(noun))} that is {said}.")
    return Answer(success=True, answer=f"{sentence(_listing(world, with_state))} "
                  f"{'is' if len(with_state) == 1 else 'are'} {said}.", answer_ids=_ids(with_state),
                  evidence_ids=_evidence(with_state), confidence=1.0)


def _evidence(ents: list[Entity]) -> list[str]:
    return [i for i in dict.fromkeys([e.provenance for e in ents] + [e.id for e in ents]) if i]


def attribute(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    """"what colour is my mug": the attribute memory recorded for the thing the phrase means."""
    word = (m.group("key") or m.group("key2")).replace("colour", "color")
    phrase = m.group("x") or m.group("x2")
    cands = Grounder(store, world).find(phrase)
    if not cands:
        return not_seen(phrase)
    ent = cands[0].entity
    values = [ent.attributes[k] for k in _ATTRIBUTE_KEYS.get(word, (word,)) if ent.attributes.get(k)]
    subject = describe(world, ent.id)
    if not values:
        return Answer(success=True, answer=f"I have no record of the {word} of {subject}.", answer_ids=[ent.id],
                      evidence_ids=_evidence([ent]), confidence=0.0)
    return Answer(success=True, answer=f"{sentence(subject)} is {values[0]}.", answer_ids=[ent.id],
                  evidence_ids=_evidence([ent]), confidence=ent.confidence)


def how_many(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    """"how many apples are in the fridge": present things of that kind where the hint holds. Things
    memory saw but later missed are not counted, and the answer says so."""
    phrase = " ".join(_COUNT_VERBS.sub(" ", m.group("x")).split())
    head, prep, hint = split_reference(phrase)
    cands = [c for c in Grounder(store, world).find(phrase) if c.reasons[0].startswith(("label", "name"))]
    noun = " ".join(head) or phrase
    if hint and not any(c.hint_holds is not None for c in cands) and cands:
        return Answer(success=True, answer=f"I know of no {' '.join(hint)}.", confidence=0.0)
    where = f" {prep} the {' '.join(hint)}" if hint else ""
    counted = [c.entity for c in cands if c.entity.present and (not hint or c.hint_holds)]
    missing = [c.entity for c in cands if not c.entity.present and (not hint or c.hint_holds is not False)]
    if not counted:
        text = f"I have not seen any {noun}{where}."
    else:
        text = f"{len(counted)}{where}: {_listing(world, counted)}."
    if missing:
        text += f" ({len(missing)} more I saw earlier were gone when I looked again.)"
    return Answer(success=True, answer=sentence(text), answer_ids=_ids(counted), evidence_ids=_evidence(counted),
                  confidence=1.0 if counted else 0.0)


def usable(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    """"is the washing machine usable?": no when memory recorded it locked, broken, failing, gone, or shut
    inside something locked; yes (as far as memory knows) otherwise."""
    phrase = m.group("x") or m.group("x2")
    cands = Grounder(store, world).find(phrase)
    if not cands:
        return not_seen(phrase)
    ent = cands[0].entity
    subject = describe(world, ent.id)
    reasons, evidence = [], [ent.provenance]
    if not ent.present:
        reasons.append("it was not where I last saw it")
    states = world.states.get(ent.id, set())
    reasons += [why for state, why in _UNUSABLE_STATES.items() if state in states]
    for failure in world.failures.values():
        if failure.target == ent.id:
            reasons.append(failure.reason())
            evidence.append(failure.event_id)
    for outer in world.chain(ent.id):
        if "locked" in world.states.get(outer, set()):
            reasons.append(f"it is inside {describe(world, outer)}, which is locked")
            evidence.append(world.entities[outer].provenance)
    evidence = [e for e in dict.fromkeys(evidence + [ent.id]) if e]
    if reasons:
        return Answer(success=True, answer=f"No: {'; '.join(dict.fromkeys(reasons))}.", answer_ids=[ent.id],
                      evidence_ids=evidence, confidence=max(ent.confidence, 0.01))
    loc = world.locations.get(ent.id)
    where = f" It is {relation_words(loc[0])} {describe(world, loc[1])}." if loc else ""
    return Answer(success=True, answer=f"Yes, as far as I know: nothing recorded against {subject}.{where}",
                  answer_ids=[ent.id], evidence_ids=evidence, confidence=0.5 * max(ent.confidence, 0.01))


ENTITY_INTENTS: list[tuple[re.Pattern[str], Callable[[MemoryStore, WorldState, re.Match[str]], Answer]]] = [
    (_ATTR_RE, attribute),
    (_COUNT_RE, how_many),
    (_USABLE_RE, usable),
    (_WHICH_RE, which),
]
