"""Short replies that finish or correct the speaker's previous request: "the blue one", "no, the other one",
"the one on the table", "I meant the red mug", "Anna's", "and the microwave?", "what about the plate?".

After "bring me the mug" -> "I know 2 mugs ... which one do you mean?", people answer with a fragment, not
a new request; after a wrong pick they correct it. Such a reply means the previous request again, with
the thing it named told apart by what the reply says. The previous request comes from the speaker's
``Conversation``; without one a fragment stays what the parser made of it (a reply asking what is meant).
"""

from __future__ import annotations

import re

from .parser import SERVICE_READING_NOTE, parse
from .reading_policy import took_over
from .request import Intent, ObjectRef, Request

# what opens a correction ("no, the red one", "not that one - the one in the kitchen", "I meant ...")
_CORRECTION = re.compile(r"^\s*(?:(?:no+|nope|nah|wrong one|not (?:that|this|the) one|actually|sorry|oops)\b[\s,.!-]*)+"
                         r"(?:i\s+(?:meant|mean|said|wanted)\s+)?|^\s*i\s+(?:meant|mean|said|wanted)\s+|"
                         r"^\s*(?:and\s+)?(?:what|how)\s+about\s+", re.I)
# the robot addressed again after the opener: what follows is a request of its own
_READDRESSED = re.compile(r"(?:^|[.,!?\u2026]\s*|\b(?:ok|okay)\s+)robot\s*[,:]\s*\w", re.I)
_POSSESSIVE = re.compile(r"^\s*([A-Za-z][\w-]*)'s\s*[.!?]?\s*$")
MAX_FRAGMENT_WORDS = 8  # longer than this, a reply is a request of its own


def follow_up(req: Request, previous: Request | None) -> tuple[Request, bool] | None:
    """The previous request redone with what ``req`` (a fragment or a correction) says, and whether the
    speaker asked for another thing than the one chosen before ("the other one"); None when ``req`` stands
    on its own."""
    if previous is None or not previous.objects or previous.objects[0].pronoun:
        return None
    text = req.text.strip()
    opener = _CORRECTION.match(text)
    said_as_task = SERVICE_READING_NOTE in req.notes  # "the mug on the desk" on ~/plan, read as a put
    if opener is None and req.intent not in (Intent.unknown, Intent.inform) and "a bare noun phrase" not in req.notes \
            and not took_over(req) and not said_as_task:  # what the rules could not read, even if the model did
        return None
    rest = text[opener.end():] if opener else text
    rest = rest.strip(" ,.!?-")
    if opener and _READDRESSED.search(rest):
        return None  # "sorry, Jen, one sec... OK robot, bring it to me": the apology was to someone else

    if not rest or len(rest.split()) > MAX_FRAGMENT_WORDS:
        return None
    ref = _fragment(rest)
    if ref is None or not (ref.head or ref.pronoun == "one"):
        return None
    if said_as_task and ref.head not in ("", "one", "ones", previous.objects[0].head):
        return None  # a thing of another kind and a place: a task of its own ("juice on shelf."), not a reply
    new = previous.model_copy(deep=True)
    target = new.objects[0]
    if ref.head and ref.head not in ("one", "ones"):
        target.head, target.compound, target.modifiers = ref.head, list(ref.compound), []  # "I meant the red mug"
    other = "other" in ref.modifiers or bool(opener) and not (ref.modifiers or ref.anchor or ref.owner or ref.ordinal
                                                            or ref.head not in ("", "one"))
    if other:  # "no, the other one" after "the blue one": what told the chosen one apart no longer holds
        target.modifiers, target.anchor, target.ordinal = [], None, None
    target.modifiers = list(dict.fromkeys([*target.modifiers, *(m for m in ref.modifiers if m not in ("other",
                                                                                                      "another"))]))
    target.anchor = ref.anchor or target.anchor
    target.owner = ref.owner or target.owner
    target.ordinal = ref.ordinal if ref.ordinal is not None else target.ordinal
    target.room = ref.room or target.room
    # the phrase as the thing is now meant (grounding also reads the words said: "the one on the kitchen
    # table" must not match the table)
    target.text = " ".join(w for w in [target.determiner or "the", *target.modifiers, *target.compound, target.head] if w)
    new.text = req.text
    new.notes = [*previous.notes, f"a reply to {previous.text.strip()!r}: {rest!r}"]
    return new, other


def _fragment(rest: str) -> ObjectRef | None:
    """The thing a fragment names, read as the object of a question ("where is <fragment>?")."""
    owner = _POSSESSIVE.match(rest)
    if owner:  # "Anna's": the one that is hers
        return ObjectRef(text=rest, pronoun="one", owner=owner.group(1).lower())
    read = parse(f"where is {rest}?")
    if read.intent is not Intent.where or not read.objects:
        return None
    return read.objects[0]
