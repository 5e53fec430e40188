"""When a task is wanted: now, not at all, later, or only wished for the past.

A command's verb and its thing say *what* to do; words around them may say it is not to be done now. Read
as plain commands these became plans at once, each the wrong act:

- called off: "forget the mug", "never mind", "I was going to ask you to bring the mug but never mind",
  "stop bringing me mugs", "leave the mug alone";
- a reminder: "remind me to take my pills" asks the speaker to be reminded, not the robot to do it;
- later: "bring the mug after dinner", "open the window in an hour", "fetch my coat when I get back": the
  node plans for now (it keeps no schedule), so the task is offered for now, with that said;
- the past: "you should have brought me the mug" (offered now), "you shouldn't have opened the fridge"
  (not to be done).

Pure functions over the text; the parser applies them to command readings only (``parser._task_mood``).
Verb forms are recognised through WordNet's morphology (``core.wordnet.verb_bases``), so every inflection of
a task verb counts without a list of forms.
"""

from __future__ import annotations

import re
from typing import Literal

from . import lexicon as lx
from .clock import read_clock

Mood = Literal["", "called_off", "reminder", "later", "past", "past_not", "hands_off"]

_LEAD = r"^(?:(?:oh|no|and|but|so|well|actually|ok|okay|hey|please|just|robot)[,]?\s+)*"
# "forget the mug", "never mind about the radio", "cancel that", "scratch that": a task called off at the start
_OFF_START = re.compile(_LEAD + r"(?:forget|never\s*mind|nevermind)\s+(?:about\s+)?(?:it|that|this|the|my|your|our|his|"
                        r"her|their|those|these|them|what\s+i\s+said)\b|" + _LEAD
                        + r"(?:cancel|scratch|scrap)\s+(?:that|it|this|the\s+(?:order|request|task|last\s+one))\b", re.I)
# "..., but never mind", "bring the mug. forget it.", "actually, no need": called off at the end
_OFF_END = re.compile(r"(?:^|[,;.!:-]|\bbut|\bso|\bactually|\bok(?:ay)?|\boh)\s*(?:never\s*mind|nevermind|forget\s+(?:it|that|"
                      r"about\s+(?:it|that))|cancel\s+(?:that|it)|scratch\s+that|don'?t\s+bother|no\s+need|"
                      r"not\s+anymore|no\s+longer\s+needed)\s*(?:then|now|actually)?\s*[.!]*\s*$", re.I)
# "stop bringing me mugs", "quit opening the fridge", "no more fetching": an act asked to cease
_STOP = re.compile(_LEAD + r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:stop|quit|cease|no\s+more)\s+([a-z]+ing)\b",
                   re.I)
# "leave the mug alone", "leave it where it is", "let the radio be": nothing to move
_LEAVE = re.compile(_LEAD + r"(?:leave|let)\s+(?:it|them|that|this|the\s+[\w\s']{1,30}?|my\s+[\w\s']{1,30}?)\s+"
                    r"(?:alone|be|where\s+(?:it|they)\s+(?:is|are)|as\s+(?:it|they)\s+(?:is|are)|in\s+peace)\b", re.I)
# "don't touch the mug", "please do not move my glasses", "never mess with the radio": a thing to be left as it is
_HANDS_OFF = re.compile(_LEAD + r"(?:don'?t|do\s+not|dont|never)\s+(?:ever\s+)?(?:bother|touch|disturb|move|mess\s+(?:with|about\s+with)|"
                        r"fiddle\s+with|play\s+with|tamper\s+with)\b", re.I)
# "don't move it to the kitchen, move it to the bedroom": what is to be done said after what is not
_CONTRAST = re.compile(r"(?:[,;.!:-]|\b(?:but|instead|rather))\s*(?:(?:but|instead|rather|just|please|then|and)\s+)*(?:"
                       + "|".join(sorted(lx.COMMAND_VERBS)) + r")\b", re.I)
# "remind me to bring the mug", "help me remember to close the fridge"
_REMINDER = re.compile(_LEAD + r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:remind\s+(?:me|us)|help\s+(?:me|us)\s+"
                       r"remember)\s+(?:to|that\s+i\s+(?:need|have)\s+to)\s+", re.I)
# a time the task is for, later than now; "in a minute", "in a sec", "in a moment" mean soon and are left out
_NUM = r"(?:an?|one|two|three|four|five|ten|fifteen|twenty|thirty|forty|\d+|a\s+few|a\s+couple\s+of|half\s+an)"
_LATER = re.compile(r"\b(?:after\s+(?:dinner|lunch|breakfast|supper|tea|work|school|my\s+nap|the\s+(?:game|show|movie|film|news|"
                    r"meeting|call|match))|later(?:\s+on|\s+today|\s+tonight)?|tonight|tomorrow|this\s+(?:evening|afternoon|"
                    r"weekend)|next\s+(?:week|time)|in\s+" + _NUM + r"\s+(?:minutes|mins|hours?|hrs?|days?)|in\s+an\s+hour|"
                    r"at\s+(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock)|noon|midnight)|when\s+(?:i|we|he|she|they)\s+"
                    r"(?:get|gets|come|comes)\s+(?:back|home|up)|when\s+(?:i'?m|we'?re|he'?s|she'?s)\s+(?:back|home|up|done))\b",
                    re.I)
# "you should have brought me the mug", "you shouldn't have opened the fridge", "you could've fetched it"
_PAST = re.compile(r"\b(?:should|could|would|ought\s+to|might|must)(n'?t|\s+not)?\s*(?:have|'ve|of)\s+(?:already\s+|just\s+)?"
                   r"([a-z]+)\b", re.I)
# "the mug I used after dinner": a time of what was done, not of the task
_DONE_THEN = re.compile(r"\b(?:i|you|we|he|she|they)\s+(?:\w+ed|had|left|ate|drank|put|took|made|got|brought|saw|wore|read|"
                        r"bought|found|set|kept)\b[\w\s']{0,30}$", re.I)
_SOON = frozenset({"now", "immediately", "asap"})


def _task_verb(word: str, form: str) -> bool:
    """Whether ``word`` is a task verb (``lexicon.COMMAND_VERBS``) in the form asked: "ing" or a past
    participle ("pp": brought, taken, opened)."""
    w = word.lower()
    if form == "ing" and not w.endswith("ing"):
        return False
    from ..core.wordnet import default_wordnet

    wn = default_wordnet()
    bases = wn.verb_bases(w) if wn is not None else ()
    if not bases and form == "ing":
        bases = (w[:-3], w[:-3] + "e", w[:-4])  # WordNet absent: the regular spellings
    return any(b in lx.COMMAND_VERBS and b != w for b in bases)


# what the parser notes for each mood, and what the planner's offer says first (requests.dispatch)
CALLED_OFF_NOTE = "called off: nothing to do"
MOOD_NOTES = {"reminder": "a reminder asked for: the robot keeps no reminders, so the task is offered for now",
              "later": "said for a later time: the robot keeps no schedule, so the task is offered for now",
              "past": "said of what should have been done: offered now, not done"}


def called_off_at_end(text: str) -> bool:
    """"bring the mug, never mind", "..., actually no need": the last words call the task off."""
    return _OFF_END.search(" ".join(text.strip().split())[-200:]) is not None


def task_mood(text: str) -> tuple[Mood, str]:
    """How a command said in ``text`` is meant, and the words that say so ("" when it is asked for now)."""
    t = " ".join(text.strip().split())[:500]
    if not t:
        return "", ""
    m = _OFF_START.search(t) or _OFF_END.search(t)
    if m:
        return "called_off", m.group(0).strip(" ,;.!:-")
    m = _HANDS_OFF.search(t) or _LEAVE.search(t)
    if m and not _CONTRAST.search(t[m.end():]):
        return "hands_off", m.group(0).strip()
    m = _STOP.search(t)
    if m and _task_verb(m.group(1), "ing"):
        return "called_off", m.group(0).strip()
    m = _REMINDER.search(t)
    if m:
        return "reminder", m.group(0).strip()
    m = _PAST.search(t)
    if m and _task_verb(m.group(2), "pp"):
        return ("past_not" if m.group(1) else "past"), m.group(0).strip()
    clause = _task_clause(t)
    m = _LATER.search(clause)
    if m and not set(re.findall(r"[a-z]+", clause.lower())) & _SOON and not _DONE_THEN.search(clause[:m.start()]):
        return "later", m.group(0).strip()
    clock = read_clock(clause)
    if clock is not None and not _DONE_THEN.search(clause[:clock.start]):
        return "later", clock.said.strip()  # "bring the mug at nine", "open the window at half past six"
    return "", ""


def _task_clause(t: str) -> str:
    """The words from the task's verb to the end of its clause: a time said there is when the task is for;
    one in the story around it is not ("my sister comes tomorrow, so bring the mug to the kitchen")."""
    for m in re.finditer(r"[a-z']+", t.lower()):
        if m.group(0) in lx.COMMAND_VERBS:
            end = re.search(r"[,;.!?]|\b(?:so|because|cause|cos|since|as|but)\b", t[m.end():], re.I)
            return t[m.start():m.end() + end.start()] if end else t[m.start():]
    return ""


def after_calling_off(text: str) -> str:
    """"forget the mug, bring me the radio", "never mind that, just open the fridge": what is asked after a
    task called off at the start ("" when nothing is, or nothing was called off)."""
    t = " ".join(text.strip().split())[:500]
    m = _OFF_START.search(t)
    if not m:
        return ""
    sep = re.search(r"[,;.!:-]|\b(?:and|but|instead|rather)\b", t[m.end():])
    if sep is None:
        return ""
    rest = t[m.end() + sep.end():].strip(" ,;.!:-")
    first = re.match(r"^(?:(?:and|but|just|please|instead|rather|then|now|can|could|would|will|you)\s+)*([a-z]+)", rest, re.I)
    return rest if first and first.group(1).lower() in lx.COMMAND_VERBS else ""


__all__ = ["CALLED_OFF_NOTE", "after_calling_off", "MOOD_NOTES", "Mood", "called_off_at_end", "task_mood"]
