"""Where a task says to go once it is done: "put the mug in the sink and then go to the bedroom", "bring me the juice
and head back to the kitchen".

Of several commands in one utterance the rules take the one that moves a thing as the task (``parts.py``); a go
said *before* it is a step the planner finds itself ("go to the kitchen and bring me the mug": the mug in the
kitchen). A go said *after* it is not: no plan needs it, so a plan built from the task alone ended where the task
did and said nothing of the rest. This reads the last go verb said after the carrying verb, with a place after
"to" / "into" / "towards", into ``Request.go_after``; the planner drives there once everything else is done
(``planning/going_after.py``). A go to a person ("come back to me") or to "here" is left to the reply: memory
has no place for it that would not be a guess.
"""

from __future__ import annotations

from typing import Any

from .closing import said_not_to
from .lexicon import COMMAND_VERBS, SPEAKER_WORDS
from .phrases import PhraseReader, _lemma, _low
from .request import CARRYING_INTENTS, Intent, Request

GO_AFTER_VERBS = frozenset({"go", "head", "come", "walk", "drive", "navigate", "proceed", "move", "return", "roll"})
_TO = frozenset({"to", "into", "towards", "toward"})
_NO_PLACE = SPEAKER_WORDS | {"you", "him", "her", "them", "it", "here", "there", "anna", "ben", "home"}
_CARRYING = frozenset(v for v, i in COMMAND_VERBS.items() if i in CARRYING_INTENTS)


def _place_after(verb: Any) -> Any | None:
    """The noun after the go verb's "to" ("go to the bedroom", "head back to the kitchen", "go on to the sofa")."""
    preps = [c for c in verb.children if c.dep_ == "prep" and _low(c) in _TO]
    # "go back to the kitchen": the tagger may hang "to" on "back"
    preps += [g for c in verb.children if c.dep_ in ("advmod", "prt") for g in c.children
              if g.dep_ == "prep" and _low(g) in _TO]
    for p in preps:
        obj = next((c for c in p.children if c.dep_ == "pobj"), None)
        if obj is not None and obj.pos_ in ("NOUN", "PROPN") and _low(obj) not in _NO_PLACE:
            return obj
    return None


def going_said(req: Request, doc: Any) -> None:
    """Fill ``req.go_after`` from the last go verb of ``doc`` said after a carrying verb, when the task carries a
    thing and the place is not where the task itself takes it. A go said not to be done ("don't go to the
    kitchen") is none."""
    if req.intent not in CARRYING_INTENTS or doc is None or req.go_after is not None:
        return
    try:
        carried_at = next((t.i for t in doc if t.pos_ == "VERB" and _lemma(t) in _CARRYING), None)
        if carried_at is None:
            return
        for tok in reversed(doc[carried_at + 1:]):
            if _lemma(tok) not in GO_AFTER_VERBS or not tok.tag_.startswith("VB") or said_not_to(tok):
                continue
            if any(c.dep_ in ("dobj", "obj") for c in tok.children):
                continue  # "... and move the lime to the sofa": a carry, not a go
            place = _place_after(tok)
            if place is None:
                continue
            ref = PhraseReader(tok.sent, req.text)._object(place)
            handed = req.intent is Intent.fetch and bool(req.recipient)
            task_place = req.destination.ref.head if req.destination is not None else ""
            if ref.head and ref.head == task_place and handed:
                # "bring me the juice and go back to the kitchen": the tagger hung the go's place on the fetch,
                # which hands the juice over all the same; the place is where to go after
                req.destination = None
            elif ref.head and ref.head in (task_place, req.recipient):
                return  # "take the mug and go to the kitchen" read as carrying it there: one trip
            req.go_after = ref
            return
    except (AttributeError, IndexError):  # a parse without tags: nothing read
        return
