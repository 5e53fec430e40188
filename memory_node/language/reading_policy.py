"""One policy for the rule reading and the learned reading of an utterance (``parser.parse`` calls ``combine``).

The rules (``clause.py``, ``parts.py``, ``phrases.py``) carry structure the model does not: several parts,
pronouns and follow-ups, times, memory ids, the full phrase of each thing. The model (``reader.py``) was
trained on many writers' wording and knows how likely each intent is. ``decide`` picks the reading, in this
order (p = the model's calibrated probability of its top intent):

1. ``agree`` (the model's top intent is the rules'): the rules' reading stands, its thing filled from the
   model's slots where the rules named none ("trash can. open."), a room the model tagged and the rules dropped
   added as a filter ("go to the chair in the living room").
2. ``took_over``: the rules failed (``unknown``; ``inform``; an intent about a thing with no thing named) and
   p >= ``TAKE_OVER_AT`` (``FRAGMENT_TAKE_OVER_AT`` for words without a verb, which are mostly replies that
   ``followup.py`` finishes; it still sees a reply the model took over): the model's reading replaces it, its
   things read from the slot spans by the rules' own phrase reader (owner, adjectives, compounds, anchors).
3. ``failed_kept``: the rules failed and the model could not take over (not sure enough; an intent about a
   thing or a person with none named): the rules' reading stands, in doubt, with the model's readings as
   ``alternatives``.
4. ``same_family``: the model reads another intent of the rules' family (``FAMILIES``: put / put_away /
   put_back, where / what_room / goes_where / find, state / usable, ...): the rules' more specific reading
   stands.
5. ``other_family``: a disagreement across families (a question against a command, fetch against go): the
   rules' reading stands, in doubt, with the model's reading as the first alternative.
After the cases, one switch: a rule reading the calibration judges unlikely (below ``ASK_BACK_BELOW``) is replaced
by a model sure of another (p >= ``SWITCH_AT``) in four shapes only: the rules fell back to "is there / where is
X" on wording they do not know; the model is very sure (p >= ``SURE_AT``) of a request of the same kind and the
calibration finds the rules' reading very unlikely (below ``RULES_UNLIKELY_BELOW``: "which of the bowls is beside
the lime" read by the rules as a contents question; on the writers' held-aside lines the model is right 98 % of
the time at p >= 0.95, the combined reading 10 % below 0.5); or the rules read another kind of request than the
service expects and the model reads the kind it expects (``_fits_service``: "Got any phones?" on ~/ask, which the rules' fetch would have refused
as sent to the wrong service); or (eleventh session) both readings are of the kind the service expects and the
rules' reading is no fallback (``_same_kind_as_asked``: "So what lovely mess is sitting in the fridge?" read by the
rules as a which question). On the benchmark writers' asides, read only as totals, the model alone read the intent
right for 3-6 % more requests than the combined reading, and where the two differed at p >= 0.9 the model was
right 22 times and the rules once; on their dev halves (rules fitted to them) the switch moved 4 readings right
and 1 wrong, and that one ("which part of the house is it in") is now read by the rules as a room question. The service is the speaker's own choice of what they are asking for; it weighs on
the model's side only when the two readings disagree, never against an agreement. Where the rules found nothing
and the model reads the service's kind but its slots missed the thing, the rules' phrases are borrowed and the
reading offered ("Ben needs the radio." on ~/plan: "Do you want me to bring the radio to Ben?").
Not done, on purpose: letting a very sure model (p >= 0.95) replace a rule reading of another family otherwise. On the
training calibration split the model was right in all 21 such disagreements at p >= 0.9, but on the project's
own tested readings it replaced right ones ("I can't find my glasses" -> find, "where does Alex usually put
the mug?" -> goes_where): the model's certainty is measured on the writers' wording, not everyone's, and a
doubt costs a question back where a wrong replacement costs a wrong action.

``confidence`` = P(the family of the intent taken is the one meant: a where question and not a fetch, a put and
not a go; within a family the rules' reading of the verb decides), a logistic regression over the model's
probability of the intent taken and of its family (logits), the case above and whether the service the request
came on expects its kind (a command on ~/plan: "can you put the juice where it goes?"), fitted by ``train_reader`` on
its calibration split (``meta.json`` ``policy_calibration``). Accuracy per confidence band on the writers' held-aside lines and
ALFRED ``valid_seen`` is printed by ``python -m memory_node.bench.reader_eval``.

``ASK_BACK_BELOW`` = 0.5: a reading less likely right than wrong is not acted on or answered as if sure; the
dispatcher asks back, offering ``alternatives``. A question whose own words say what it asks ("what colour",
"how many", "when did", "which room") but read as a question that answers something else is held just below it
(``_cue_unanswered``): answering a question nobody asked is the wrong answer the robot can see coming. ``MEMORY_NODE_READER=off`` in the environment switches the
model off (the rules read alone, confidence 1.0, as when the model file is missing).
"""

from __future__ import annotations

import logging
import math
import os
import re
from dataclasses import replace
from typing import Any

from . import lexicon as lx
from .clause import STEP_NOTE_STARTS
from .closing import CLOSE_VERBS, said_not_to
from .request import (CARRYING_INTENTS, COMMAND_INTENTS, QUESTION_INTENTS, Alternative, Anchor, Intent, Kind, ObjectRef,
                      Request)

log = logging.getLogger(__name__)

ASK_BACK_BELOW = 0.5  # below: ask back instead of acting (the dispatcher reads Request.confidence)
TAKE_OVER_AT = 0.6  # the model's probability needed to replace a failed rule reading
FRAGMENT_TAKE_OVER_AT = 0.9  # ... when the words have no verb (most such replies finish an earlier request)
# the rules' fallback readings a sure model may replace, and with what (only with what is listed: the general
# switch of a very sure model, ``SURE_AT``, does not apply to them): an "is there" only by a state ("is the
# closet like locked or something") or a where ("I not find the mug, you know where?"), never by a time ("ever
# seen the radio?" asks where it is); a "where" only by "is there" / "how many" ("what is the red item on the
# bed" is read as where too, and is not an attribute)
_FALLBACK_READINGS: dict[Intent, frozenset[str] | None] = {Intent.exists: frozenset({"state", "usable", "where"}),
                                                          # (not by a time question: "where was the toy when you
                                                          # first saw it?" is where, whatever "when" leans to)
                                                          Intent.where: frozenset({"exists", "count"})}
BORROW_FOR_SERVICE_AT = 0.8  # ... to borrow the rules' things for a reading of the kind the service expects
SURE_AT = 0.97  # a model this sure replaces a rule reading of the same kind the calibration finds very unlikely ...
RULES_UNLIKELY_BELOW = 0.2  # ... (below this): "which of the bowls is beside the lime" read by the rules as contents
SWITCH_AT = 0.9  # the model's probability at which it replaces a rule reading judged unlikely (below ASK_BACK_BELOW)
OFFER_BELOW = 0.7  # a task read below this is offered, not done (``requests.dispatch.PLAN_ASK_BELOW`` uses it)
DISAGREE_AT = 0.7  # without fitted confidence weights: the model p at which a family disagreement is a doubt

FAMILIES: dict[str, frozenset[str]] = {
    # where a thing is, where it goes, and finding it: the rules read the verb ("go", "belong", "kept", "find")
    # that tells them apart, the model leans on the thing named; and acting on one for another is harmless (the
    # dispatcher answers "find my keys" on ~/ask with where they are, and "I can't find X" is a where question)
    "locate": frozenset({"where", "what_room", "goes_where", "find"}),
    "exists": frozenset({"exists", "count"}),
    "contents": frozenset({"contents"}),
    "state": frozenset({"state", "usable"}),
    "describe": frozenset({"attribute", "which"}),
    "time": frozenset({"when_seen", "when_did"}),
    "events": frozenset({"around", "robot_did", "person_did", "happened_to", "habit"}),
    # moving a thing: to the speaker or a person (fetch), or to a place (put); the rules read the recipient or
    # the destination that tells them apart ("bring the remote to the bed" is a put, "take it to Anna" a fetch),
    # the model leans on the verb ("bring", "take") that says neither
    "move": frozenset({"fetch", "drink", "put", "put_away", "put_back"}),
    "open": frozenset({"open"}),
    "close": frozenset({"close"}),
    "go": frozenset({"go"}),
    "inform": frozenset({"inform"}),
    "greeting": frozenset({"greeting"}),
    "unknown": frozenset({"unknown"}),
}
_FAMILY_OF = {i: f for f, members in FAMILIES.items() for i in members}

# intents whose request is about a thing (the model must have found one to take over)
_ABOUT_THINGS = frozenset({"where", "what_room", "exists", "state", "usable", "attribute", "which", "count",
                           "contents", "when_seen", "goes_where", "fetch", "put", "put_away", "put_back", "open",
                           "close", "find", "happened_to"})
# questions a room can be the thing of ("what's in the kitchen", "where is the bathroom")
_A_ROOM_ASKED = frozenset({"where", "what_room", "contents", "find"})
_RELATIONS = {"in": "in", "inside": "in", "into": "in", "within": "in", "on": "on", "onto": "on", "atop": "on",
              "upon": "on", "on top of": "on", "under": "under", "underneath": "under", "beneath": "under",
              "below": "under", "near": "near", "by": "near", "beside": "near", "close to": "near",
              "next to": "next_to", "above": "above", "over": "above", "behind": "behind",
              "in front of": "in_front_of", "at": "at", "to": "at", "towards": "at", "toward": "at",
              "from": "from", "off": "from", "out of": "from"}
_ABOUT_PEOPLE = frozenset({"habit", "person_did"})
_PLACING = frozenset({"put", "put_away", "put_back", "contents"})  # intents whose place is part of the request
_ROBOT = frozenset({"you", "u", "yourself", "robot", "the robot"})
_SPEAKER = frozenset({"me", "us", "myself", "i"})


TOOK_OVER_NOTE = "read by the learned reader"
BORROWED_NOTE = "the things are the rules' phrases (the reader's slots found none): offered, not done"


def took_over(req: Request) -> bool:
    """Whether the learned reader replaced the rules' failed reading of ``req`` (``followup.py`` asks)."""
    return any(n.startswith(TOOK_OVER_NOTE) for n in req.notes)


def enabled() -> bool:
    return os.environ.get("MEMORY_NODE_READER", "on").lower() not in ("off", "0", "false", "no")


def family(intent: str) -> str:
    return _FAMILY_OF.get(intent, intent)


def _kind(intent: str) -> Kind:
    i = Intent(intent)
    return Kind.question if i in QUESTION_INTENTS else Kind.command if i in COMMAND_INTENTS else Kind.statement


def rules_failed(req: Request) -> bool:
    """The rules read no request they could serve."""
    if req.intent in (Intent.unknown, Intent.inform):
        return True
    if "a bare noun phrase" in req.notes and req.objects and _said_as_sentence(req.objects[0].text):
        return True  # "Is the microwave shut, do ye know" taken whole as a thing's name: no reading at all
    return req.intent.value in _ABOUT_THINGS and not req.destination and (
        not req.objects or any("no thing named" in n for n in req.notes))


_AUXILIARIES = frozenset({"is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would", "has",
                          "have", "had", "should", "shall", "may", "might", "must"})


# an auxiliary before its subject: a question inside the phrase ("I'm writing the list, so do we have any X")
_ASKS_INSIDE = re.compile(r"\b(?:is|are|was|were|do|does|did|can|could|will|would|has|have|should)\s+"
                          r"(?:we|you|i|they|he|she|it|there)\b")


def _said_as_sentence(phrase: str) -> bool:
    """A phrase the rules took for a thing's name that opens like a question, holds a question word or asks
    a question inside it."""
    low = phrase.lower()
    words = re.findall(r"[a-z']+", low)
    return bool(words) and (words[0] in _AUXILIARIES or any(w in lx.WH_WORDS for w in words)
                            or _ASKS_INSIDE.search(low) is not None)


def _structural(req: Request, parts: int) -> bool:
    return parts > 1 or any("said before" in n for n in req.notes)


def combine(rule: Request, doc: Any, parts: int = 1, reader: Any = None, prefer: Kind | None = None) -> Request:
    """The one reading of an utterance (see the module docstring). ``doc`` is the parse the rules read first;
    ``parts`` how many parts the rules found; ``prefer`` the kind the service expects (``parse``'s). Never
    raises: on any fault the rules' reading stands."""
    if not enabled():
        return rule
    try:
        if reader is None:
            from .reader import default_reader

            reader = default_reader()
        if reader is None or doc is None or not len(doc):
            return rule
        return _decide(rule, model_reading(reader, rule, doc), doc, parts, reader.meta.get("policy_calibration"),
                       prefer)
    except Exception as e:  # noqa: BLE001 - the rules' reading stands; the fault is logged
        log.warning("learned reader failed on %r: %s", rule.text[:200], e)
        return rule


def model_reading(reader: Any, rule: Request, doc: Any) -> Any:
    """The model's reading of ``doc`` as the policy weighs it: conditioned on what the rules' parse shows
    (``combine`` and ``train_reader``'s calibration fit read it the same way)."""
    return _ruled_out_by_structure(reader.read(doc), rule, doc)


def _ruled_out_by_structure(reading: Any, rule: Request, doc: Any) -> Any:
    """The model's distribution given what the parse shows: a verb with a thing as its direct object, read by
    the rules as moving that thing, is not a walk somewhere ("move the radio to the kitchen counter": the
    model's words lean to "go" because "to the counter" is how walks are said). Its "go" is removed and the
    rest renormalised, so a sure "go" no longer overrules the rules' put or fetch; likewise "is the globe on the
    bed?" asks whether it is there, not whether it is switched on. Everything else stands."""
    if doc is None:
        return reading
    out: set[str] = set()
    try:
        if any(t.pos_ == "VERB" and t.lemma_.lower() in lx.COMMAND_VERBS for t in doc):
            out.add("greeting")  # "okay, you bring it me": a command verb said is no hello or thanks
        if rule.intent is Intent.go and rule.destination is not None and not any(t.dep_ == "dobj" for t in doc):
            # "go close to the fridge": an intent named by a verb the sentence never uses as a verb
            out |= {i for i in _VERB_INTENTS if _verb_unsaid(i, doc)}
            out |= {i.value for i in CARRYING_INTENTS}  # "drive to the bathtub": a path and nothing carried is no put
            # nor a task the robot cannot do ("drive me to the airport" is one in training): a path the rules read
            # is a go, and a place memory does not know is refused when it is grounded
            out.add("unknown")
        if any(n.startswith(STEP_NOTE_STARTS) for n in rule.notes) and rule.intent in CARRYING_INTENTS:
            # "open the fridge and put the milk in": the rules read the first verb as a step of the second; the
            # model's words lean to the first verb
            out |= {"open", "close", "go", "find"}
        if rule.part and rule.intent in CARRYING_INTENTS and rule.objects and \
                rule.part.strip() != (rule.text or "").strip():
            # "Open the door and take the milk from the table. Place the milk in the washer": of several commands
            # the rules took the one that moves a thing as the task (parts.py); opening, closing, going and looking
            # said as verbs of the other parts are its steps, and the model, reading the words whole, leans to the
            # verb said first (a step it reads from no verb said apart is left to weigh)
            out |= _steps_said_apart(doc, rule.part)
        if rule.close_after and rule.intent in CARRYING_INTENTS and _said_before_closing(doc):
            # "put the mug in the fridge and close it": the closing is done once the task is (language/closing.py);
            # a closing said first may be what is asked ("close the fridge, I left it open when I got the milk")
            out.add("close")
        if rule.go_after is not None and rule.intent in CARRYING_INTENTS:
            out.add("go")  # "bring me the juice, then go to the kitchen": the go is done once the task is (going_after.py)
        for w, forms in _STATE_SAID.items() if rule.intent in CARRYING_INTENTS and rule.objects else ():
            if any(t.lower_ in forms and said_not_to(t) for t in doc):
                out.add(w)  # "put it in the fridge but don't close it": said not to be done beside the task
        if rule.objects and rule.intent in CARRYING_INTENTS and any(
                t.dep_ == "dobj" and t.head.pos_ == "VERB" and (t.pos_ in ("NOUN", "PROPN") or t.lower_ in ("it", "them") and
                                                                lx.COMMAND_VERBS.get(t.head.lemma_.lower()) in CARRYING_INTENTS)
                for t in doc):
            # a thing as the verb's direct object is carried, not walked to ("just leave it in there": "it" left)
            out.add("go")
        # "the microwave you make open": the state asked for, said as a command or after "make" / "get", and not
        # its opposite, rules out an unsure reading of the opposite ("the fridge has been left wide open again"
        # is a complaint: "left", so a "close" stands); said as what the verb makes of its thing ("swing the door
        # open") it rules the opposite out however sure the model is (the model leans on "swing ... door")
        said = {w: any(t.lower_ in forms and (t.dep_ == "ROOT" and t.pos_ == "VERB" or t.head.lemma_ in ("make", "get"))
                       for t in doc) for w, forms in _STATE_SAID.items()}
        made = {w: any(_resultative(t, forms) for t in doc) for w, forms in _STATE_SAID.items()}
        for w, other in (("open", "close"), ("close", "open")):
            if said[w] and not said[other] and reading.probs.get(other, 0.0) < SWITCH_AT:
                out.add(other)
            if made[w] and not made[other] and not said[other]:
                out.add(other)  # "swing the microwave door open" never asks to close it, however sure the words
        first = next((t for t in doc if not (t.is_punct or t.pos_ == "INTJ" or t.lower_ in ("please", "pls", "kindly",
                                                                                          "now", "just"))), None)
        # (the opening verb, whether or not the tagger made it the root: "put the ball away - wherever it goes, you
        # know where" hangs it under "know")
        if rule.kind is Kind.command and rule.objects and first is not None and \
                first.tag_ == "VB" and first.lemma_.lower() in lx.COMMAND_VERBS and \
                not any(c.dep_ in ("nsubj", "nsubjpass", "aux") for c in first.children):
            # "put the milk away where it's meant to go": a sentence that opens with an imperative verb the rules
            # read as a task is a command; the question its subordinate clause words ("where it goes") is not asked
            out |= {i.value for i in QUESTION_INTENTS}
        if rule.objects and rule.intent is Intent.exists and rule.objects[0].anchor is not None and not any(
                t.lower_ in lx.STATE_WORDS and t.dep_ != "prep"
                and not (t.i + 1 < len(doc) and doc[t.i + 1].lower_ in ("to", "by")) for t in doc):
            # "is the globe on the bed?": "on" with an object is where, not switched on; no state word is said
            # ("close to the sink" is near it)
            out |= {"state", "usable"}
    except AttributeError:
        return reading
    return _without(reading, out)


def _said_before_closing(doc: Any) -> bool:
    """A verb that carries a thing is said before the first close / shut."""
    closing = [t.i for t in doc if t.lemma_.lower() in CLOSE_VERBS or t.lower_ in CLOSE_VERBS]
    carrying = [t.i for t in doc if t.pos_ == "VERB" and lx.COMMAND_VERBS.get(t.lemma_.lower()) in CARRYING_INTENTS]
    return bool(closing and carrying) and min(carrying) < min(closing)


def _steps_said_apart(doc: Any, part: str) -> set[str]:
    """The step intents (open, close, go, find) whose verb is said outside ``part`` of ``doc``."""
    start = doc.text.find(part.strip()[:60])
    end = start + len(part.strip()) if start >= 0 else -1
    out: set[str] = set()
    for t in doc:
        if start <= t.idx < end:
            continue
        intent = lx.COMMAND_VERBS.get(t.lemma_.lower())
        if t.pos_ == "VERB" and intent in (Intent.open, Intent.close, Intent.go, Intent.find):
            out.add(intent.value)
    return out


_STATE_SAID = {"open": frozenset({"open", "opened", "opening", "unlock"}),
               "close": frozenset({"close", "closed", "closing", "shut", "shutting"})}


def _without(reading: Any, out: set[str]) -> Any:
    """The reading with the intents ``out`` removed and the rest renormalised."""
    rest = 1.0 - sum(reading.probs.get(i, 0.0) for i in out)
    if not out or rest <= 1e-6:
        return reading
    probs = {i: (0.0 if i in out else p / rest) for i, p in reading.probs.items()}
    top = max(probs, key=probs.get)
    return replace(reading, intent=top, confidence=probs[top], probs=probs)


def _p_family(reading: Any, intent: str) -> float:
    f = family(intent)
    return sum(p for i, p in reading.probs.items() if family(i) == f)


def _alternatives(reading: Any, but: str, doc: Any) -> list[Alternative]:
    out = []
    for intent, p in reading.top(3):
        if intent == but or p < 0.05:
            continue
        out.append(Alternative(intent=Intent(intent), confidence=round(p, 3), objects=_things(reading, doc)))
    return out


CASES = ("agree", "took_over", "failed_kept", "same_family", "other_family")


def decide(rule: Request, reading: Any, doc: Any, parts: int, prefer: Kind | None = None) -> tuple[Request, str]:
    """The reading taken and which case of the module docstring chose it (confidence not yet set)."""
    r, m, pm = rule.intent.value, reading.intent, reading.confidence
    structural = _structural(rule, parts)  # the rules' things stand as they read them
    if m == r:
        _supplement(rule, reading, doc, structural)
        return rule, "agree"
    if rules_failed(rule) and pm >= TAKE_OVER_AT and m != "unknown" and getattr(reading, "verb_seen", True) and \
            not (m in ("open", "close") and not _word_said(m, doc)) and \
            not (m == "greeting" and _ASKS_SOMETHING.search(doc.text)):
        # (an opening or closing the sentence never says is not done on the model's word: "yeet the stove over
        # here" read as closing it)
        taken = _from_model(rule, reading, doc)
        if taken is None and (pm >= SWITCH_AT or pm >= BORROW_FOR_SERVICE_AT and _fits_service(rule, reading, prefer)) \
                and rule.objects:
            # sure of the task (or of the kind the service expects), its slot tagger missed the thing ("Ben needs
            # the lime." on ~/plan): the rules' phrases, and the reading offered, not acted on (``BORROWED_NOTE``:
            # its confidence stays below ASK_BACK_BELOW)
            taken = _from_model(rule, reading, doc, keep_things=True)
            if taken is not None:
                taken.notes.append(BORROWED_NOTE)
        if taken is not None:
            uses = [o for o in rule.objects if o.purpose and o.head in ("something", "anything")]
            if uses and taken.intent in (Intent.fetch, Intent.where, Intent.find):
                # "spilled my water. need something to wipe it up": the rules read the use the thing is for;
                # the model's span ("my water") is what it is for, not what to bring
                taken.objects = uses
                taken.notes.append("the thing is the use the rules read, not the reader's span")
            return taken, "took_over"
    _name_pronoun(rule, reading, doc)
    if rules_failed(rule):
        rule.alternatives = _alternatives(reading, r, doc)
        rule.notes.append(f"the learned reader doubts it: {m} {pm:.2f}")
        return rule, "failed_kept"
    if family(m) == family(r) or _verb_unsaid(m, doc):
        return rule, "same_family"
    rule.alternatives = _alternatives(reading, r, doc)
    if pm >= DISAGREE_AT:
        rule.notes.append(f"the learned reader reads it as {m} ({pm:.2f})")
    return rule, "other_family"


# a question word that asks for something memory holds: no greeting ("'m so tired, mm, where c'n I sleep?" is
# no "hello", however the words around it read)
_ASKS_SOMETHING = re.compile(r"\b(?:where|which|whose|when|how\s+many)\b", re.I)


# intents named by a verb that is often not one: "go close to the cabinet", "the open shelf"
_VERB_INTENTS = {"close": frozenset({"close", "shut"}), "open": frozenset({"open"}),
                 # "drive to the bathtub" is no search: finding is said with a verb of looking
                 "find": frozenset({"find", "look", "search", "locate", "seek", "hunt", "track", "check", "scout",
                                    "spot"})}


def _verb_unsaid(intent: str, doc: Any) -> bool:
    """The model reads an intent named by a verb ("close") that the sentence never uses as a verb ("go close
    to the bathroom cabinet"): its reading rests on a word, not on what was said, and the rules stand."""
    verbs = _VERB_INTENTS.get(intent)
    if verbs is None or doc is None:
        return False
    try:
        return not any(t.pos_ == "VERB" and t.lemma_.lower() in verbs or _resultative(t, verbs) for t in doc)
    except AttributeError:  # a parse without tags: nothing to check against
        return False


def _word_said(intent: str, doc: Any) -> bool:
    """Some word of the sentence names the intent's doing ("open", "shut"), whatever the parse made of it, or the
    state it undoes ("the fridge has been left open again": close it)."""
    words = _VERB_INTENTS.get(intent, frozenset()) | _UNDOES.get(intent, frozenset())
    try:
        return any(t.lower_ in words or t.lemma_.lower() in words for t in doc)
    except AttributeError:
        return True


_UNDOES = {"close": frozenset({"open", "opened", "ajar"}), "open": frozenset({"closed", "shut", "locked"})}


# verbs whose resultative state is kept or seen, not made ("leave the fridge open", "I found the door open")
_STATE_KEPT = frozenset({"leave", "keep", "find", "see", "want", "like", "have", "need", "hold", "notice"})


def _resultative(tok: Any, verbs: frozenset[str]) -> bool:
    """"pop the fridge open", "swing the cabinet door shut": the state word said as what the verb makes of its
    object says the verb as surely as "open the fridge" does."""
    return tok.lower_ in verbs and tok.dep_ == "oprd" and tok.head.pos_ == "VERB" and \
        tok.head.lemma_.lower() not in _STATE_KEPT and any(c.dep_ == "dobj" for c in tok.head.children)


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def evidence(req: Request, reading: Any, case: str, prefer: Kind | None = None) -> list[float]:
    """What the confidence of the reading taken is computed from: the model's probability of its intent and
    of its family (as logits), the case (one-hot), and whether the service the request came on expects its
    kind (+1 a question on ~/ask or a command on ~/plan, -1 the other way round, 0 unknown or a statement)."""
    i = req.intent.value
    kind = _kind(i)
    service = 0.0 if prefer is None or kind is Kind.statement else 1.0 if kind is prefer else -1.0
    return [1.0, _logit(reading.probs.get(i, 0.0)), _logit(_p_family(reading, i)),
            *(1.0 if case == c else 0.0 for c in CASES), service]


def confidence(req: Request, reading: Any, case: str, weights: list[float] | None,
               prefer: Kind | None = None) -> float:
    """P(the family of the intent taken is the one meant): a logistic regression over ``evidence`` fitted by
    ``train_reader`` on its calibration split (``meta.json`` ``policy_calibration``); without it, the fixed
    rules of the module docstring."""
    if weights and len(weights) == 3 + len(CASES) + 1:
        z = sum(w * x for w, x in zip(weights, evidence(req, reading, case, prefer)))
        return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))
    p, pf = reading.probs.get(req.intent.value, 0.0), _p_family(reading, req.intent.value)
    if case == "agree":
        return 1.0 - (1.0 - p) / 2.0
    if case == "took_over":
        return p
    if case == "failed_kept":
        return p
    if case == "same_family":
        return (1.0 + pf) / 2.0
    return min(pf, ASK_BACK_BELOW - 0.01) if reading.confidence >= DISAGREE_AT else (1.0 + pf) / 2.0


def _decide(rule: Request, reading: Any, doc: Any, parts: int, weights: list[float] | None = None,
            prefer: Kind | None = None) -> Request:
    req, case = decide(rule, reading, doc, parts, prefer)
    req.confidence = round(confidence(req, reading, case, weights, prefer), 3)
    if BORROWED_NOTE in req.notes:
        req.confidence = min(req.confidence, round(ASK_BACK_BELOW - 0.01, 3))
    if case == "took_over" and req.intent is Intent.which and _which_thing_left_out(req):
        # "which face cream... the one next to the toothpaste?" read as which toothpaste: the thing asked about is
        # the one named after "which"; answering about another is a wrong answer the words show
        req.confidence = min(req.confidence, round(ASK_BACK_BELOW - 0.01, 3))
        req.notes.append("the thing named after 'which' is not the thing read")
    if case == "took_over" and req.kind is Kind.command and req.confidence >= OFFER_BELOW:
        left = _unexplained_nouns(reading, doc)
        if left:
            # a task the model read whose slots leave a thing said out ("remote and toilet paper, both please
            # bring to me" read as a fetch of the toilet paper alone; "face cream back to old spot" as a go):
            # offered, not done
            req.confidence = round(OFFER_BELOW - 0.01, 3)
            req.notes.append(f"the learned reader's slots leave out: {', '.join(left)}")
    if case == "other_family" and req.confidence < ASK_BACK_BELOW and reading.confidence >= SWITCH_AT \
            and (_fallback_replaced(rule, reading) or _fits_service(rule, reading, prefer)
                 or reading.confidence >= SURE_AT and req.confidence < RULES_UNLIKELY_BELOW
                 and _kind(reading.intent) is rule.kind and rule.intent not in _FALLBACK_READINGS
                 or _same_kind_as_asked(rule, reading, prefer)) \
            and not _structural(rule, parts) and not _verb_unsaid(reading.intent, doc):
        # the calibration judges the rules' reading unlikely and the model is sure of another: its reading is
        # served, with its own confidence, rather than an answer to a question nobody asked. Two shapes only:
        # the rules fell back to "is there / where is X" on wording they do not know ("is the closet like
        # locked or something"), or the rules read another kind of request than the service expects and the
        # model reads the kind it expects ("Got any phones?" on ~/ask: the rules' fetch would be refused as
        # sent to the wrong service). Only when its own slots found what the request is about.
        taken = _from_model(rule, reading, doc)
        if taken is not None:
            c = round(confidence(taken, reading, "took_over", weights, prefer), 3)
            if c >= ASK_BACK_BELOW:
                taken.confidence = c
                taken.notes.append(f"the rules' {rule.intent.value} judged unlikely ({req.confidence:.2f})")
                return taken
    if req.confidence >= ASK_BACK_BELOW and _cue_unanswered(req):
        # the question says what it asks ("what colour", "how many", "when did") and the reading answers something
        # else: an answer to a question nobody asked is worse than asking back
        req.confidence = round(ASK_BACK_BELOW - 0.01, 3)
        req.notes.append("the question asks what the reading does not answer")
    if req.confidence < ASK_BACK_BELOW and not req.alternatives:
        req.alternatives = _alternatives(reading, req.intent.value, doc)
    return req


_WHICH_THING = re.compile(r"\bwhich\s+(?:of\s+(?:the|my|our|your|these|those)\s+)?([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)", re.I)


def _which_thing_left_out(req: Request) -> bool:
    """The words after "which" name a thing ("which face cream ...") that none of the request's things is."""
    m = _WHICH_THING.search(req.text[:500])
    if m is None:
        return False
    from ..core.text import singular

    said = [singular(w.lower()) for w in m.group(1).split() if w.lower() not in _NOT_A_WHICH_NOUN]
    if not said:
        return False
    read = {singular(w.lower()) for o in req.objects for w in re.findall(r"[a-z-]+", o.text.lower())}
    return not any(w in read for w in said)


# words after "which" that name no thing: "which one", "which is", "which room's" (a room is not the thing)
_NOT_A_WHICH_NOUN = frozenset({"one", "ones", "is", "are", "was", "were", "of", "the", "do", "does", "did", "you",
                               "i", "we", "it", "they", "room", "way", "side", "part", "place", "color", "colour", "can",
                               "should", "would", "could", "has", "have", "had", "will", "exactly", "particular", "specific"})


def _unexplained_nouns(reading: Any, doc: Any) -> list[str]:
    """Things the sentence joins with "and" to a thing the model's slots found, which none of its spans covers
    (the task would be done with one of them left out). Nouns outside the spans in general are not counted: on
    other writers' wording most are how it is said, not what to act on (tried: 3-6 points of right plans on the
    writers' held-aside sets offered instead of done, for no fewer wrong ones)."""
    if doc is None or reading.slot("need"):
        return []  # "spill. need something to wipe it": the words around a need say why, not what to carry
    covered = {i for sp in reading.spans for i in range(sp.start, sp.end)}
    if not covered:
        return []
    try:
        def thing(t: Any) -> bool:
            return t.is_alpha and not t.is_stop and t.lower_ not in _NOT_THINGS_SAID and (
                t.pos_ in ("NOUN", "PROPN") or t.pos_ == "ADJ" and t.dep_ in ("nsubj", "dobj", "conj", "pobj", "ROOT",
                                                                            "advcl", "appos", "nsubjpass"))

        left = [t.text for t in doc if t.i not in covered and thing(t) and (
            t.dep_ == "conj" and t.head.i in covered or any(c.dep_ == "conj" and c.i in covered for c in t.children))]
    except AttributeError:  # a parse without tags: nothing to check against
        return []
    return left + (["the first thing"] if reading.slot("object2") and not reading.slot("object") else [])


# nouns that name no thing to act on: politeness, the robot, times, the speaker's situation
_NOT_THINGS_SAID = frozenset({"please", "pls", "robot", "bot", "favour", "favor", "thanks", "time", "moment", "minute",
                              "second", "sec", "bit", "while", "today", "tonight", "tomorrow", "morning", "evening",
                              "afternoon", "night", "day", "week", "hand", "hands", "way", "help", "chance", "now",
                              "quick", "asap", "here", "there", "sir", "madam", "mate", "love", "dear",
                              # where a thing goes back or away to, said without naming it ("back to its old spot")
                              "spot", "place", "home", "position", "location", "whereabouts"})


# words that say what a question asks, and the readings that answer it
_QUESTION_CUES: tuple[tuple[Any, frozenset[str]], ...] = (
    (re.compile(r"\b(?:what|which)\s+colou?r\b|\bcolou?r\s+(?:is|are|was|were)\b", re.I),
     frozenset({"attribute", "which"})),
    (re.compile(r"\bhow\s+many\b", re.I), frozenset({"count", "exists"})),
    (re.compile(r"(?:^|[.!?]\s+)when\s+(?:did|was|were|is|do|does|have|has|had)\b", re.I),
     frozenset({"when_seen", "when_did", "around", "habit", "robot_did", "person_did", "happened_to"})),
    (re.compile(r"\b(?:what|which)\s+room\b", re.I), frozenset({"what_room", "where", "contents", "count", "exists"})),
)


def _cue_unanswered(req: Request) -> bool:
    """A question whose own words say what it asks, read as a question that answers something else."""
    if req.kind is not Kind.question:
        return False
    text = req.text[:500]
    return any(p.search(text) and req.intent.value not in answers for p, answers in _QUESTION_CUES)


def _fallback_replaced(rule: Request, reading: Any) -> bool:
    """The rules' reading is a fallback (``_FALLBACK_READINGS``) the model's question of the same kind replaces."""
    allowed = _FALLBACK_READINGS.get(rule.intent, frozenset())
    return rule.intent in _FALLBACK_READINGS and _kind(reading.intent) is rule.kind and (
        allowed is None or reading.intent in allowed)


def _same_kind_as_asked(rule: Request, reading: Any, prefer: Kind | None) -> bool:
    """Both readings are of the kind the service expects (two questions on ~/ask, two tasks on ~/plan): the
    service says nothing between them, and a sure model (``SWITCH_AT``) is more often right than a rule reading
    the calibration judges unlikely."""
    if rule.intent in _FALLBACK_READINGS:
        return False  # the rules' fallbacks give way only as ``_FALLBACK_READINGS`` says ("what is the green object
        # on the shelf?" asks which thing that is: a where reading on purpose)
    return prefer is not None and _kind(reading.intent) is prefer and rule.kind is prefer


def _fits_service(rule: Request, reading: Any, prefer: Kind | None) -> bool:
    """The service the request came on expects the model's kind of request, not the rules' (a question on
    ~/ask the rules read as a command or a statement, a command on ~/plan they read as a question): where the
    two readings disagree, what the speaker chose to send it to is evidence for the model's."""
    return prefer is not None and _kind(reading.intent) is prefer and _kind(rule.intent.value) is not prefer


# ---- building a request from the model's slots --------------------------------------------------------------


def _ref(span: Any, doc: Any, text: str) -> ObjectRef:
    """The rules' phrase reading of a slot span (owner, adjectives, compounds, anchors)."""
    from .clause import Clause

    words = doc[span.start:span.end]
    root = words.root
    try:
        ref = Clause(root.sent, text)._object(root)
    except Exception:  # noqa: BLE001 - a plain phrase then
        ref = ObjectRef(text=span.text, head=root.lemma_.lower())
    last = words[-1]
    if last.i != root.i and last.is_alpha and last.pos_ in ("NOUN", "PROPN", "ADJ") and \
            all(t.pos_ in ("NOUN", "PROPN", "ADJ", "DET", "PRON") for t in words) and _a_noun(last.lower_):
        # "Heui wan my TV remote lah": a parse that hangs the name's last word on its first made "tv" the
        # thing; in a span of nouns and adjectives the last noun names it, the words before say which
        from ..core.text import singular

        ref.head = singular(last.lower_)
        ref.compound = [t.lower_ for t in words if t.i != last.i and t.pos_ in ("NOUN", "PROPN", "ADJ")
                        and t.i > max((d.i for d in words if d.pos_ in ("DET", "PRON")), default=-1)]
        ref.modifiers = [m for m in ref.modifiers if m not in ref.compound and m != ref.head]
        ref.text = words.text
    return ref


def _a_noun(word: str) -> bool:
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    return wn is not None and wn.any_noun(word)


# parts of speech no name is made of: a span of these alone whose last word WordNet has no noun for is the slot
# tagger's mistake ("long"); "the remote", tagged an adjective, is a noun all the same
_NO_NAME_POS = frozenset({"ADJ", "ADV", "DET", "ADP", "VERB", "AUX", "PART", "CCONJ", "SCONJ", "INTJ", "NUM", "PUNCT"})


def _things(reading: Any, doc: Any) -> list[ObjectRef]:
    refs = [_ref(s, doc, doc.text) for s in reading.slot("object") + reading.slot("object2")]
    return [r for r in refs if (r.head or r.pronoun) and not _own_body(r)]


def _own_body(ref: ObjectRef) -> bool:
    """"my hands" in "bring me the toy, I've got my hands full": a person's own body is no thing to fetch or
    look for (the slot tagger takes any noun after a verb for one)."""
    if not ref.owner or ref.compound:
        return False
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    return wn is not None and wn.body_part(ref.head)


def _relation(reading: Any, slot: str, default: str) -> str:
    spans = reading.slot(slot)
    return _RELATIONS.get(spans[0].text.lower(), default) if spans else default


def _fragment(doc: Any) -> bool:
    """Words without a verb: a reply that finishes the speaker's previous request ("Anna's", "the blue
    one": ``followup.py``) or a terse request ("plates on table pls")."""
    return not any(t.pos_ in ("VERB", "AUX") for t in doc)


def _from_model(rule: Request, reading: Any, doc: Any, keep_things: bool = False) -> Request | None:
    """The model's reading as a request; with ``keep_things``, the rules' things when the model's slots found
    none (the rules read the phrases well even where they read the intent wrong)."""
    intent = reading.intent
    if _fragment(doc) and reading.confidence < FRAGMENT_TAKE_OVER_AT:
        return None
    objects = _things(reading, doc) or (list(rule.objects) if keep_things else [])
    needs = reading.slot("need")
    dest_spans = reading.slot("destination")
    if not objects and needs and intent in ("fetch", "where", "exists", "find"):
        objects = [ObjectRef(text=needs[0].text, head="something", purpose=needs[0].text.lower())]
    destination = rule.destination if keep_things and not dest_spans else None
    if dest_spans:
        destination = Anchor(relation=_relation(reading, "relation", "at" if intent in ("go", "fetch") else "on"),
                             ref=_ref(dest_spans[0], doc, rule.text))
    if not objects and destination is not None and intent in _ABOUT_THINGS - _PLACING and not keep_things:
        # "go hunt down the remote for me": the slot tagger took the thing looked for for where to go (a search, a
        # fetch, a question about a thing has a thing, no destination)
        objects, destination = [destination.ref], None
    if intent == "contents":  # the rules' shape: the place as the thing and as the anchor ("what's on the desk")
        place = _things(reading, doc)[:1] or [_ref(a, doc, rule.text) for a in reading.slot("anchor")[:1]]
        if place:
            objects = place
            destination = Anchor(relation=_relation(reading, "anchor_relation", _relation(reading, "relation", "in")),
                                 ref=place[0])
    if intent in _ABOUT_THINGS and not objects and destination is None:
        return None  # a confident intent about nothing named: the rules' doubt stands
    people = [p.text.lower() for p in reading.slot("person")]
    if intent in _ABOUT_PEOPLE and not any(p not in _ROBOT for p in people):
        return None  # what a person does or did, with no person (or only the robot) named
    if intent == "go" and destination is None and objects:
        destination = Anchor(relation="at", ref=objects.pop(0))
    if intent == "go" and destination is None:
        destination = _said_place(doc, rule.text)  # "I need you in the bathroom": the slot tagger missed it
    recipient = ""
    rec = reading.slot("recipient")
    if rec:
        recipient = "speaker" if rec[0].text.lower() in _SPEAKER else rec[0].text.lower()
    if intent == "fetch" and not recipient:
        recipient = _said_recipient(doc)  # the model's slots missed "to Anna": the handover must not go to the speaker
    if intent == "fetch" and destination is not None and not recipient:
        recipient = destination.ref.words()  # the rules say "bring X to the kitchen" the same way
    state = reading.slot("state")
    said_state = state[0].text.lower() if state else ""
    said_state = lx.STATE_WORDS.get(said_state, said_state)  # "shut" is closed, as the rules read it
    if intent in ("state", "usable") and not said_state:
        # the slot tagger missed it: the state word the sentence says ("... the closet is locked, is it?")
        said_state = next((lx.STATE_WORDS[t.lower_] for t in doc if t.lower_ in lx.STATE_WORDS
                           and t.pos_ in ("ADJ", "VERB", "NOUN") and t.lower_ not in ("switched", "turned")), "")
    if intent == "state" and not said_state:
        return None  # a state asked with no state said ("the kettle seems to have wandered off"): no question of it
    asked = reading.slot("attribute_asked")
    req = Request(text=rule.text, kind=_kind(intent), intent=Intent(intent), objects=objects,
                  destination=destination, recipient=recipient, state=said_state,
                  attribute=asked[0].text.lower().replace("colour", "color") if asked else "",
                  time=rule.time, polite=rule.polite, negated=rule.negated,
                  notes=[*rule.notes, f"{TOOK_OVER_NOTE} ({intent} {reading.confidence:.2f}); the rules "
                                      f"read {rule.intent.value}"],
                  confidence=round(reading.confidence, 3))
    _add_room(req, reading, doc)
    req.alternatives = [Alternative(intent=rule.intent, confidence=round(reading.probs.get(rule.intent.value, 0.0), 3),
                                    objects=rule.objects)]
    return req


def _said_place(doc: Any, text: str) -> Anchor | None:
    """The first place the sentence puts something at ("in the bathroom", "over by the fridge"), as a
    destination to go to, or None."""
    for tok in doc:
        if tok.lower_ in _RELATIONS and tok.lower_ not in ("from", "off", "of", "for", "with"):
            for p in tok.children:
                if p.dep_ == "pobj" and p.pos_ in ("NOUN", "PROPN"):
                    return Anchor(relation="at", ref=_ref(doc[p.left_edge.i:p.i + 1], doc, text))
    return None


def _said_recipient(doc: Any) -> str:
    """Whom the sentence says a thing goes to, read off the parse: "to Anna" / "to me" (a capitalised name or a
    personal pronoun after "to"). Used when the model reads a fetch whose recipient slot found nobody, so that a
    thing said to be for someone else is never handed to the speaker by default."""
    for tok in doc:
        if tok.lower_ != "to":
            continue
        for p in tok.children:
            if p.dep_ != "pobj":
                continue
            if p.lower_ in ("me", "us"):
                return "speaker"
            if p.lower_ in ("him", "her", "them") or p.pos_ == "PROPN" and p.text[:1].isupper():
                return p.lower_
    return ""


def _supplement(rule: Request, reading: Any, doc: Any, structural: bool) -> None:
    """Fill what the rules left out: the thing when they named none, a room said as a filter."""
    unnamed = any("no thing named" in n for n in rule.notes) or (
        rule.intent.value in _ABOUT_THINGS and not rule.objects and rule.destination is None)
    if unnamed and not structural:
        things = [t for t in _things(reading, doc) if not t.pronoun]
        if things:
            rule.objects = things
            rule.notes = [n for n in rule.notes if "no thing named" not in n] + ["thing named by the learned reader"]
    else:
        _name_pronoun(rule, reading, doc)
        if not structural:
            _name_misread(rule, reading, doc)
    _add_room(rule, reading, doc)


def _name_misread(rule: Request, reading: Any, doc: Any) -> None:
    """The rules' one thing is a word that names nothing a home keeps, and the model's slots name one thing that
    does: the model's thing is the one asked about. Two shapes, both read through WordNet, not word lists:

    - the rules cut a compound the model kept whole ("where's the face cream" read as "the face" with a verb
      "cream"; "how many hair gels" as "hair"): the model's phrase ends in a household noun the rules' head
      modifies;
    - the rules' head is no noun at all ("any", "reckon"), or none of its commoner noun senses is a physical
      thing ("status", "sighting", "any trouble ..."), or it names a person ("Operator reports mouse missing"), or
      a room on a question about things ("how many forks in the kitchen" read as counting kitchens): the room
      said stays as a filter.

    A thing the rules read that can be a household thing keeps its reading, whatever the model says: the
    model's span is the second opinion, not the first."""
    if len(rule.objects) != 1 or rule.intent.value not in _ABOUT_THINGS:
        return
    o = rule.objects[0]
    if o.pronoun or o.purpose or not o.head:
        return  # (a use said, "where do I throw away a wrapper", is what the rules read it as)
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    if wn is None:
        return
    head = o.head.lower()
    tagged = [t for t in _things(reading, doc) if not t.pronoun and t.head]
    if any(t.head.lower() == head for t in tagged):
        return  # the model tagged the rules' thing too: the other span is an anchor or a second mention
    things = [t for t in tagged if t.head.lower() not in lx.ROOM_WORDS and wn.household(t.head)]
    if len(things) != 1 or _unexplained_nouns(reading, doc):
        return  # (a second thing said and not tagged: "bring the radio and magazine come" is no fetch of one)
    y = things[0]
    cut = head in [c.lower() for c in y.compound] and not o.compound
    room = head in lx.ROOM_WORDS and rule.intent.value not in _A_ROOM_ASKED
    # (a word with a physical sense may be the thing: "the lime" is a fruit as well as a mineral; a longer word
    # WordNet lacks may be a thing's name too: "moisturiser", a brand)
    unknown = not wn.any_noun(head) and (wn.is_word(head) or len(head) <= 3 or head in _FUNCTION_WORDS)
    if not (cut or room or unknown or wn.any_noun(head) and not wn.known(head) or wn.names_a_person(head)):
        return
    which = _WHICH_THING.search(rule.text[:500])
    if which is not None and head in which.group(1).lower().split() and not cut:
        return  # the thing named after "which" is the thing asked about ("which moisturiser is by the toothbrush")
    if o.text[:1].isupper() and not rule.text.lstrip(" '\"").startswith(o.text):
        return  # a name said mid-sentence ("is Ben in there?"): a person, not a misreading
    if room and not y.room and y.anchor is None:
        y.room = head
    if y.anchor is None and o.anchor is not None:  # "which cutting board dey near the microwave": the place stays
        y.anchor = o.anchor
    if not y.room and o.room:
        y.room = o.room
    if o.owner and not y.owner:
        y.owner = o.owner
    rule.objects = [y]
    rule.notes.append(f"{o.text!r} names no household thing; {y.text!r} read by the learned reader")


_FUNCTION_WORDS = frozenset({"any", "some", "my", "your", "our", "the", "this", "that", "these", "those", "no", "all",
                             "what", "which", "where", "there", "here", "it", "them", "one", "ones"})


def _name_pronoun(rule: Request, reading: Any, doc: Any) -> None:
    """"orchid from bedroom. bring it.", "my mouse - seen it anywhere?": the rules' one thing is "it" and the
    utterance itself names one thing (the model's slots), whichever reading is taken."""
    o = rule.objects[0] if len(rule.objects) == 1 else None
    # "it", or a bare "which one" ("what colour is the remote - so I know which one to grab")
    open_ref = o is not None and (o.pronoun in ("it", "that", "this") or o.pronoun == "one" and o.anchor is None
                                  and not o.modifiers and not o.owner)
    if open_ref and not any("said before" in n for n in rule.notes):
        # (a span whose words hold no noun names no thing: "that's a long walk, so would you fetch it" tagged "long")
        spans = [sp for sp in reading.slot("object") + reading.slot("object2")
                 if not all(t.pos_ in _NO_NAME_POS for t in doc[sp.start:sp.end]) or _a_noun(doc[sp.end - 1].lower_)]
        things = [t for t in (_ref(sp, doc, doc.text) for sp in spans)
                  if (t.head or t.pronoun) and not _own_body(t) and not t.pronoun]
        if len(things) == 1:
            rule.objects = things
            rule.notes = [n for n in rule.notes if "no thing named" not in n] + [
                f"{rule.objects[0].text!r} named in the utterance (learned reader)"]


def _add_room(req: Request, reading: Any, doc: Any) -> None:
    # a room after the place of a go / put is a filter, whichever slot the tagger gave it ("the sofa in the
    # living room")
    rooms = reading.slot("room") + reading.slot("destination")[1:]
    if not rooms:
        return
    rooms = [r.text.lower() for r in rooms if r.text.lower() in lx.ROOM_WORDS or r.text.lower().split()[-1] in
             lx.ROOM_WORDS]  # only a room word filters by room; any other place is the rules' to read
    if not rooms:
        return
    room = rooms[0]
    if req.destination is not None and req.destination.ref.room and req.destination.ref.room in room:
        return  # the rules read it as where the destination is ("on the counter in the bathroom")
    if req.destination is not None and req.intent is not Intent.go and \
            room.split()[-1] in req.destination.ref.words().lower().split():
        return  # the room is where the thing goes ("put the magazine in the bathroom"), not where it is
    if req.go_after is not None and room.split()[-1] in req.go_after.words().lower().split():
        return  # where to go once the task is done ("put it on the plate, then go to the garage")
    target = req.destination.ref if req.intent is Intent.go and req.destination else \
        req.objects[0] if req.objects else None
    if target is None or target.room or (target.anchor is not None and room in target.anchor.ref.text.lower()) \
            or room in target.text.lower():
        return
    for w in ("the ", "my ", "our ", "this ", "that "):
        if room.startswith(w):
            room = room[len(w):]
    target.room = room
    req.notes.append(f"room {room!r} said as a filter (learned reader)")
