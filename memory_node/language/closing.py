"""What a task says to close once it is done: "put the milk in the fridge and close it", "open the microwave, put
the lime in, shut the microwave", "after you have closed the fridge door, place the mug on the counter".

Of several commands in one utterance the rules take the one that moves a thing as the task (``parts.py``); opening
and going are its steps, which the planner finds itself. Closing is not: no plan needs it, so a plan built from the
task alone leaves open what the words said to close, and says nothing of it. This reads every close / shut verb
of the utterance beside a carrying task into ``Request.close_after``; the planner closes each thing right after
the step that used it where the plan stays valid so, else last (``planning/closing.py``).
"""

from __future__ import annotations

from typing import Any

from .phrases import PhraseReader, _lemma, _low
from .request import CARRYING_INTENTS, ObjectRef, Request

CLOSE_VERBS = frozenset({"close", "shut"})
# a closing said of the part that opens, not of a thing: "close the door" after putting in the bin is the bin's
DOOR_WORDS = frozenset({"door", "doors", "lid", "hatch", "cover", "flap"})
_PRONOUNS = frozenset({"it", "them", "that", "this", "everything", "all"})
_MAX_CLOSINGS = 4  # words are bounded: an utterance listing more closings than this is not read for more


def said_not_to(tok: Any) -> bool:
    """The verb is said not to be done: negated itself ("don't close it") or under a negated verb ("there's no
    need to shut it")."""
    return any(c.dep_ == "neg" for c in tok.children) or tok.dep_ in ("xcomp", "ccomp") and any(
        c.dep_ == "neg" for c in tok.head.children)


def closing_said(req: Request, doc: Any) -> None:
    """Fill ``req.close_after`` from the close / shut verbs of ``doc`` (the utterance read whole) when the task
    carries a thing. A closing said not to be done ("don't close it") is none."""
    if req.intent not in CARRYING_INTENTS or doc is None or req.close_after:
        return
    out: list[ObjectRef] = []
    try:
        for tok in doc:
            if _lemma(tok) not in CLOSE_VERBS and _low(tok) not in CLOSE_VERBS or len(out) >= _MAX_CLOSINGS:
                continue
            prev = doc[tok.i - 1] if tok.i else None
            # a command said bare after a comma or "and" ("..., close toilet."): the tagger reads "close" as an
            # adjective of the noun after it
            bare = not tok.tag_.startswith("VB") and prev is not None and (
                prev.is_punct or _low(prev) in ("and", "then", "also")) and _low(tok) in CLOSE_VERBS
            if not tok.tag_.startswith("VB") and not bare:
                continue
            if said_not_to(tok):
                continue  # "don't close it", "no need to shut it"
            obj = next((c for c in tok.children if c.dep_ in ("dobj", "obj")), None)
            if obj is None and bare:
                obj = next((t for t in doc[tok.i + 1:tok.i + 4] if t.pos_ in ("NOUN", "PROPN")), None)
                while obj is not None and obj.dep_ == "compound" and obj.head.i > obj.i:
                    obj = obj.head
            if obj is None:
                nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
                obj = nxt if nxt is not None and _low(nxt) in _PRONOUNS else None
            if obj is None:
                continue
            if _low(obj) in _PRONOUNS or obj.tag_ in ("PRP", "PRP$"):
                out.append(ObjectRef(text=obj.text, pronoun=_low(obj)))
                continue
            ref = PhraseReader(tok.sent, req.text)._object(obj)
            if ref.head in DOOR_WORDS and not ref.compound and not ref.of_noun:
                ref = ref.model_copy(update={"pronoun": "it"})  # "shut the door": the one the plan opened
            out.append(ref)
    except (AttributeError, IndexError):  # a parse without tags: nothing read
        return
    req.close_after = out
