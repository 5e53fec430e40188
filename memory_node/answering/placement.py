""""Where does the fork go?" answered from what people told the robot (core/rules.py).

The answer comes from the most specific fact or rule that covers the object: a correction about it
("put the fork in the drawer"), a category someone named ("cutlery goes in the drawer") or a rule
consolidated from two or more corrections about things of its kind; when none covers it, where the
objects most like it were put (``core/similarity.py``: "it is most like the banana and the apple, which went
there"). ``evidence_ids`` are the utterance events it rests on; ``answer_ids`` the receptacle's memory id
when memory knows which one it is. Nothing covering the object, and nothing close enough to it, is "I have
not been told", never a blind guess.
"""

from __future__ import annotations

import re

from ..core.text import key, singular
from ..core.models import Answer
from ..core.rules import PlacementAnswer, explain_placement, explain_placement_any
from ..core.store import MemoryStore
from ..language.resolve import resolve_entities
from ..language.uses import SURE_USE, default_uses
from .context import Context
from ..world.phrasing import describe, relation_words
from ..world.state import WorldState

QUESTION = "where does <object> go / where should I put <object>"

MAX_OFFERED = 3  # places offered for a thing nobody placed: more is a list, not an answer
GUESS_BELOW = 0.5  # a placement by similarity less sure than this is offered as a guess and asked about
_ARTICLE = re.compile(r"^(?:all\s+(?:of\s+)?)?(?:the|a|an|my|your|our|this|that|these|those)\s+")


def goes_where(ctx: Context) -> Answer:
    """"where does the fork go", "where should I put the books": the request's object, as said."""
    ref = ctx.request.objects[0] if ctx.request.objects else None
    phrase = (ref.of_noun or ref.noun()) if ref is not None and ref.head else ""
    if ref is not None and ref.plural and ref.head and not ref.of_noun:
        phrase = " ".join([*ref.compound, ref.head + "s"]) if not ref.head.endswith("s") else phrase
    seen = ctx.ground(ref, "all") if ref is not None and ref.head else None
    also = [seen.candidates[0].entity.label] if seen is not None and seen.candidates else []
    one_seen = seen is not None and len(seen.candidates) == 1 and seen.status in ("unique", "all")
    # where the one thing of that name was seen says more than what things like it are usually kept in
    answer = where_does_it_go(ctx.store, ctx.world, phrase, also, offer=not one_seen)
    if one_seen:
        _add_where_seen(ctx, answer, seen.candidates[0].entity.id)
    return answer


def _add_where_seen(ctx: Context, answer: Answer, ent_id: str) -> None:
    """"Where are the remotes kept?" may mean where they belong or where they are: the one thing memory
    holds under that name is said where it was last seen too, after where it goes."""
    loc = ctx.world.locations.get(ent_id)
    if loc is None or not answer.success or loc[1] in answer.answer_ids:
        return
    answer.answer = f"{answer.answer.rstrip('.')}. I last saw {describe(ctx.world, ent_id)} " \
                    f"{relation_words(loc[0])} {describe(ctx.world, loc[1])}."
    answer.answer_ids = [*answer.answer_ids, loc[1]]
    answer.evidence_ids = [*answer.evidence_ids, ent_id]
    answer.confidence = max(answer.confidence, 0.5)  # where it is, memory saw


def where_does_it_go(store: MemoryStore, world: WorldState, phrase: str, also: list[str] | None = None,
                     offer: bool = True) -> Answer:
    """``also``: labels the phrase was grounded to ("the remote" -> remotecontrol), tried after the phrase;
    ``offer``: with nothing told, offer what memory holds that is made to keep such things."""
    phrase = _ARTICLE.sub("", phrase.strip())
    if not phrase:
        return Answer(success=False, answer="Which object do you mean?", error="which object?")
    phrases = [phrase, *(a for a in (also or []) if a != phrase)]
    if explain_placement(store, phrase, as_of_ns=world.as_of_ns, similar=False, lexical=False) is None:
        # the phrase may name something memory has seen under another label ("the fork" -> cutleryfork)
        cands = resolve_entities(phrase, world.entities.values())
        if cands and key(cands[0].entity.label) != key(phrase):
            phrases.append(cands[0].entity.label)
    # what was said about it under either name first; else where the most similar objects went
    ans = explain_placement_any(store, phrases, as_of_ns=world.as_of_ns)
    if offer and (ans is None or (ans.source == "similar" and ans.confidence < GUESS_BELOW)):
        offered = _what_keeps(world, phrase, weak=ans)
        if offered is not None:
            return offered
    if ans is None:
        return Answer(success=True, answer=f"I have not been told where the {phrase} goes.", confidence=0.0)
    receptacle_id = ans.receptacle_id or _seen_receptacle(world, ans.receptacle)
    where = f"{relation_words(ans.predicate)} " + (describe(world, receptacle_id) if receptacle_id in world.entities
                                                   else f"the {ans.receptacle}")
    last = phrase.split()[-1]
    verb = "go" if singular(last) != last else "goes"
    text = f"The {phrase} {verb} {where}: {_because(ans)}."
    if ans.source == "similar" and ans.confidence < GUESS_BELOW:
        # a weak vote of similar things is a guess: said as one, and asked about, not stated as where it goes
        text = (f"I have not been told where the {phrase} {verb}. My guess is {where}: "
                f"{_because(ans).removeprefix('I was not told about it, but ')}. Is that where it belongs?")
    if world.as_of_ns is not None:
        text = "At that time: " + text
    return Answer(success=True, answer=text, answer_ids=[receptacle_id] if receptacle_id else [],
                  evidence_ids=list(ans.support_event_ids), confidence=ans.confidence)


def _what_keeps(world: WorldState, phrase: str, weak: PlacementAnswer | None) -> Answer | None:
    """Nobody said where it goes (or only a weak vote of similar things did): what memory holds that is made
    to keep such things, by what WordNet says each is for ("a wardrobe: storage space for clothes";
    ``language/uses.py``), offered and asked about, never stated as where it belongs."""
    holders = world.holder_labels()
    present = {e.label for e in world.entities.values() if e.present}
    fits = default_uses().rank(f"store {phrase}", present, verb="store", nouns=[phrase.split()[-1]], place=True,
                               holders=holders, receptacle=True)
    if not fits or (weak is not None and fits[0].score < SURE_USE):
        return None  # the person's own corrections, however weak, say more than a poor fit of words
    ids = [e.id for f in fits for e in sorted(world.entities.values(), key=lambda e: e.id)
           if e.label == f.label and e.present][:MAX_OFFERED]
    last = phrase.split()[-1]
    verb = "go" if singular(last) != last else "goes"
    places = "; ".join(describe(world, i) for i in ids)
    return Answer(success=True, answer=f"I have not been told where the {phrase} {verb}. Going by what things "
                  f"are for: {places} ({fits[0].label}: {fits[0].why}). Is that where they belong?",
                  answer_ids=ids, confidence=min(GUESS_BELOW, fits[0].score) / 2)


def _because(ans: PlacementAnswer) -> str:
    n = len(ans.support_event_ids)
    if ans.source == "fact":
        if ans.category == key(ans.label) or ans.category == ans.label:
            return "you told me so"
        return f"you told me where {ans.category_name} goes"
    corrections = f"{n} correction{'s' if n != 1 else ''}"
    if ans.source == "similar":
        return (f"I was not told about it, but it is most like {ans.category_name.removeprefix('things like ')}, "
                f"which went there ({corrections}, confidence {ans.confidence:.2f})")
    return f"that is where {ans.category_name} goes, as {corrections} showed"


def _seen_receptacle(world: WorldState, receptacle: str) -> str:
    """The receptacle's id when memory (as of the question's time) has seen one of that label."""
    label = key(receptacle)
    seen = [e for e in world.entities.values() if e.label == label]
    return max(seen, key=lambda e: (e.last_seen_ns, e.id)).id if seen else ""
