"""Questions about things rather than places: which one, what colour, how many, can it be used.

"which cabinet is locked?", "which mug is mine?", "which apple is next to the lemon?", "what colour is my
mug?", "how many apples are in the fridge?", "is the washing machine usable?". Each is a lookup over the
same memory snapshot the other intents use (``WorldState``), grounded through ``Grounder`` so "my" and
spatial references work everywhere; no evidence gives an explicit "I do not know", never a guess.
"""

from __future__ import annotations

import re

from ..core.models import Answer, Entity
from ..core.text import norm
from ..language.request import ObjectRef
from ..language.resolve import Candidate
from .context import MAX_LISTED, Context, Reply
from ..core.text import indefinite
from ..world.phrasing import describe, relation_words, sentence
from ..world.state import WorldState

_ATTRIBUTE_KEYS = {"color": ("color", "colour"), "material": ("material",), "size": ("size",),
                   "shape": ("shape",), "brand": ("brand",), "kind": ("kind", "type")}
# States that make a thing unusable, and what to say about them.
_UNUSABLE_STATES = {"locked": "it is locked", "broken": "it is broken", "dirty": "it is dirty",
                    "full": "it is full", "off": "it is switched off", "unplugged": "it is unplugged"}


def _ids(ents: list[Entity]) -> list[str]:
    return [e.id for e in ents]


def _listing(world: WorldState, ents: list[Entity]) -> str:
    named = [describe(world, e.id) for e in ents[:MAX_LISTED]]
    more = f" and {len(ents) - MAX_LISTED} more" if len(ents) > MAX_LISTED else ""
    return ", ".join(named) + more


def which(ctx: Context) -> Answer:
    """"which X is <state>", "which X is mine/anna's", "which X is <location or spatial reference>"."""
    world, req = ctx.world, ctx.request
    ref = req.objects[0] if req.objects else None
    if ref is None:
        return Answer(success=False, answer="Which kind of thing do you mean?", error="no object")
    plain = ref.model_copy(update={"anchor": None, "owner": ""})
    g = ctx.ground(plain, "all")
    kind = [c for c in g.candidates if c.entity.present]
    if not kind:
        return Answer(success=True, answer=sentence(g.problem or f"I have not seen {indefinite(ref.noun())}") + ".",
                      confidence=0.0)
    noun = ref.noun()
    grounder = ctx.grounder
    if req.attribute == "owner":  # "whose scarf is on the sofa?"
        thing = ctx.one(ref)[0].entity
        ctx.grounded.append(thing.id)
        owned = grounder.owner_of(thing.id)
        if owned is None:
            return Answer(success=True, confidence=0.0, answer_ids=[thing.id], evidence_ids=_evidence([thing]),
                          answer=f"Nobody told me whose {describe(world, thing.id)} is.")
        return Answer(success=True, answer=f"{sentence(describe(world, thing.id))} is {owned.owner}'s — {owned.said}.",
                      answer_ids=[thing.id], evidence_ids=list(owned.event_ids) + [thing.id], confidence=1.0)
    if req.recipient:
        owner = req.recipient
        owned = grounder.owned(("my " if owner == "speaker" else f"{owner}'s ") + noun)
        word = "yours" if owner == "speaker" else f"{owner}'s"
        if owned is None:
            return Answer(success=True, confidence=0.0, answer=f"Nobody told me which {noun} is {word}.")
        ents = [world.entities[i] for i in owned.entity_ids]
        ctx.grounded.extend(owned.entity_ids)
        return Answer(success=True, answer=f"{sentence(_listing(world, ents))} — {owned.said}.",
                      answer_ids=_ids(ents), evidence_ids=list(owned.event_ids) + _ids(ents), confidence=1.0)
    if req.state:
        return _which_state(world, kind, noun, req.state, req.state.replace("_", " "), negated=req.negated)
    if req.negated and ref.anchor is not None:
        return _not_there(ctx, ref, kind, "which")
    if ref.anchor is None:
        return ctx.which_one(g) if len(kind) > 1 else Answer(
            success=True, answer=f"{sentence(ctx.place_of(kind[0].entity.id))}.",
            answer_ids=[kind[0].entity.id], evidence_ids=_evidence([kind[0].entity]), confidence=1.0)
    anchored = ctx.ground(ref, "all")
    if anchored.status == "none":
        return Answer(success=True, confidence=0.0, answer=sentence(anchored.problem) + ".")
    top = anchored.candidates[0].score
    best = [c.entity for c in anchored.candidates if c.score == top and c.entity.present]
    ctx.grounded.extend(_ids(best))
    return Answer(success=True, answer=f"{sentence(_listing(world, best))}: "
                  f"{'; '.join(anchored.candidates[0].reasons[1:])}.", answer_ids=_ids(best),
                  evidence_ids=_evidence(best), confidence=1.0 / len(best))


def _not_there(ctx: Context, ref: ObjectRef, kind: list[Candidate], asked: str) -> Answer:
    """"which keyboard is not on the desk?", "how many mugs are not in the kitchen?": the things of the kind the
    place does not hold (the place's own answer, taken away from all of them)."""
    world = ctx.world
    anchored = ctx.ground(ref, "all")
    there = {c.entity.id for c in anchored.candidates} if anchored.status != "none" else set()
    rest = [c.entity for c in kind if c.entity.id not in there]
    a = ref.anchor
    place = f"{a.relation.replace('_', ' ')} the {a.ref.noun()}" if a is not None else "there"
    ctx.grounded.extend(_ids(rest))
    if not rest:
        return Answer(success=True, answer=f"None: every {ref.noun()} I know is {place}.", answer_ids=[],
                      evidence_ids=_evidence([c.entity for c in kind]), confidence=1.0)
    listed = "; ".join(ctx.place_of(e.id) for e in rest[:MAX_LISTED])
    text = f"{len(rest)} not {place}: {listed}." if asked == "count" else f"{sentence(listed)}."
    return Answer(success=True, answer=text, answer_ids=_ids(rest), evidence_ids=_evidence(rest),
                  confidence=1.0 / len(rest) if asked == "which" else 1.0)


def _which_state(world: WorldState, kind: list[Candidate], noun: str, state: str, said: str,
                 negated: bool = False) -> Answer:
    with_state = [c.entity for c in kind if state in world.states.get(c.entity.id, set())
                  or state in {norm(v) for v in c.entity.attributes.values()}]
    if negated:  # "which drawer is not locked?": the others (memory recorded no such state for them)
        rest = [c.entity for c in kind if c.entity not in with_state]
        if not rest:
            return Answer(success=True, answer=f"None: every {noun} I know is {said}.", answer_ids=_ids(with_state),
                          evidence_ids=_evidence(with_state), confidence=1.0)
        return Answer(success=True, answer=f"{sentence(_listing(world, rest))} {'is' if len(rest) == 1 else 'are'} "
                      f"not recorded as {said}.", answer_ids=_ids(rest), evidence_ids=_evidence(rest),
                      confidence=1.0 / len(rest))
    if not with_state:
        failed = [c.entity for c in kind if state == "locked"
                  and any(f.target == c.entity.id for f in world.failures.values())]
        if failed:
            return Answer(success=True, answer=f"None is recorded as locked, but opening "
                          f"{_listing(world, failed)} failed before.", answer_ids=_ids(failed),
                          evidence_ids=[f.event_id for f in world.failures.values()
                                        if f.target in set(_ids(failed))], confidence=0.5)
        return Answer(success=True, confidence=0.0,
                      answer=f"I have no record of {indefinite(noun)} that is {said}.")
    return Answer(success=True, answer=f"{sentence(_listing(world, with_state))} "
                  f"{'is' if len(with_state) == 1 else 'are'} {said}.", answer_ids=_ids(with_state),
                  evidence_ids=_evidence(with_state), confidence=1.0)


def _evidence(ents: list[Entity]) -> list[str]:
    return [i for i in dict.fromkeys([e.provenance for e in ents] + [e.id for e in ents]) if i]


def attribute(ctx: Context) -> Answer:
    """"what colour is my mug": the attribute memory recorded for the thing the phrase means."""
    world, req = ctx.world, ctx.request
    word = req.attribute or "color"
    try:
        ent = ctx.one(req.objects[0] if req.objects else None)[0].entity
    except Reply as r:
        g = ctx.ground(req.objects[0]) if req.objects else None
        if g is not None and g.status == "ambiguous":
            # "what colour is the cup on the table" with two cups there: say both, and ask which
            values = [f"{describe(world, c.entity.id)} is {_value(c.entity, word) or 'of unknown ' + word}"
                      for c in g.candidates[:MAX_LISTED]]
            return Answer(success=True, answer=f"There are {len(g.candidates)}: {'; '.join(values)}. Which one "
                          "do you mean?", answer_ids=g.ids, evidence_ids=_evidence([c.entity for c in g.candidates]),
                          confidence=1.0 / len(g.candidates))
        return r.answer
    value = _value(ent, word)
    subject = describe(world, ent.id)
    if not value:
        return Answer(success=True, answer=f"I have no record of the {word} of {subject}.", answer_ids=[ent.id],
                      evidence_ids=_evidence([ent]), confidence=0.0)
    return Answer(success=True, answer=f"{sentence(subject)} is {value}.", answer_ids=[ent.id],
                  evidence_ids=_evidence([ent]), confidence=ent.confidence)


def _value(ent: Entity, word: str) -> str:
    values = [ent.attributes[k] for k in _ATTRIBUTE_KEYS.get(word, (word,)) if ent.attributes.get(k)]
    return values[0] if values else ""


def how_many(ctx: Context) -> Answer:
    """"how many apples are in the fridge": present things of that kind where the reference holds. Things
    memory saw but later missed are not counted, and the answer says so."""
    world, req = ctx.world, ctx.request
    ref = req.objects[0] if req.objects else None
    if ref is None:
        return Answer(success=False, answer="How many of what?", error="no object")
    where = f" {ref.anchor.relation.replace('_', ' ')} the {ref.anchor.ref.noun()}" if ref.anchor else ""
    if norm(ref.head) in ("room", "rooms") and not ref.compound and not ref.anchor:
        # "how many rooms are there?": the rooms memory knows, not things with "room" in their names
        rooms = sorted((e for e in world.entities.values() if world.is_room(e.id)), key=lambda e: e.id)
        ctx.grounded.extend(e.id for e in rooms)
        return Answer(success=True, answer=sentence(f"{len(rooms)}: {_listing(world, rooms)}." if rooms else
                                                    "I have not seen any rooms."),
                      answer_ids=[e.id for e in rooms], evidence_ids=[e.id for e in rooms], confidence=1.0 if rooms else 0.0)
    if req.negated and ref.anchor is not None:
        every = ctx.ground(ref.model_copy(update={"anchor": None}), "all")
        kind = [c for c in every.candidates if c.entity.present] if every.status != "none" else []
        if kind:
            return _not_there(ctx, ref, kind, "count")
    g = ctx.ground(ref, "all")
    if g.status == "none":
        said = g.problem if g.problem and "not seen" not in g.problem else f"I have not seen any {_plural(ref)}{where}"
        return Answer(success=True, answer=sentence(said) + ".", confidence=0.0)
    asked = ctx.guessed(g)
    if asked is not None:
        return asked
    counted = [c.entity for c in g.candidates if c.entity.present]
    missing = [c.entity for c in g.candidates if not c.entity.present]
    ctx.grounded.extend(_ids(counted))
    text = f"{len(counted)}{where}: {_listing(world, counted)}." if counted else \
        f"I have not seen any {_plural(ref)}{where}."
    if missing:
        text += f" ({len(missing)} more I saw earlier were gone when I looked again.)"
    return Answer(success=True, answer=sentence(text), answer_ids=_ids(counted), evidence_ids=_evidence(counted),
                  confidence=1.0 if counted else 0.0)


def _plural(ref: ObjectRef) -> str:
    """The noun as it was said for a count ("bananas"), from the parsed words."""
    words = ref.text.split()
    said = [w for w in words if w.lower() not in ("the", "a", "an", "any", "all", "how", "many", "much", "of")]
    return " ".join(said[:len(ref.compound) + 1]) if said else ref.noun()


def usable(ctx: Context) -> Answer:
    """"is the washing machine usable?", "can the top drawer be opened?": no when memory recorded it locked,
    broken, failing, gone, or shut inside something locked; yes (as far as memory knows) otherwise."""
    world = ctx.world
    ent = ctx.one(ctx.request.objects[0] if ctx.request.objects else None)[0].entity
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
    loc = world.locations.get(ent.id)
    where = f" It is {relation_words(loc[0])} {describe(world, loc[1])}." if loc else ""
    if _asks_locked(ctx.request.text or ""):
        # "cabinet locked?", "is the closet like locked or something": the question is whether it is locked,
        # so yes and no swap meaning against "can I use it?"
        locked = [r for r in reasons if "lock" in r]
        if locked:
            return Answer(success=True, answer=f"Yes: {'; '.join(dict.fromkeys(locked))}.", answer_ids=[ent.id],
                          evidence_ids=evidence, confidence=max(ent.confidence, 0.01))
        other = f" But {'; '.join(dict.fromkeys(reasons))}." if reasons else ""
        return Answer(success=True, answer=f"No, as far as I know {subject} is not locked: I have no record of it "
                      f"being locked.{other}{where}", answer_ids=[ent.id], evidence_ids=evidence,
                      confidence=0.5 * max(ent.confidence, 0.01))
    if reasons:
        return Answer(success=True, answer=f"No: {'; '.join(dict.fromkeys(reasons))}.", answer_ids=[ent.id],
                      evidence_ids=evidence, confidence=max(ent.confidence, 0.01))
    return Answer(success=True, answer=f"Yes, as far as I know: nothing recorded against {subject}.{where}",
                  answer_ids=[ent.id], evidence_ids=evidence, confidence=0.5 * max(ent.confidence, 0.01))


# not "unlocked", nor "not locked" ("is it usable, i.e. not locked?"): those ask the other way round
_ASKS_LOCKED = re.compile(r"(?<!\bnot\s)(?<!n't\s)\blocked\b", re.I)
_OR = re.compile(r"\bor\b", re.I)
_QUESTION_SENTENCE = re.compile(r"[^.?!]*\?")  # the sentences said as questions; the others tell, not ask


def _asks_locked(text: str) -> bool:
    """Whether yes means locked. An either-or question is answered yes or no to its first half ("can I get
    into the cupboard, or is it locked?" -> "No: it is locked"), so "locked" said only after "or" does not
    turn the question round; "is it locked, or can I open it?" does."""
    text = " ".join(_QUESTION_SENTENCE.findall(text)) or text  # "Can I open it? Somebody locked it once ...": asked
    alt = _OR.search(text)
    return bool(_ASKS_LOCKED.search(text[:alt.start()] if alt else text))
