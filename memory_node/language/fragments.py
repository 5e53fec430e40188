"""Speech in fragments, said as one sentence.

Some people speak in content words with pauses between them and the verb last: after a stroke (aphasia), when
tired or rushed, or when the words come one by one: "The milk... table. On the table. Put.", "The microwave...
the lime... out. Take out. For me.", "In the living room... plates... how many?", "The remote... you saw...
when? Last time?". Each fragment is clear; their order is not English, so the tagger reads none of it. This
module gathers what the fragments say (the things, a place, the verb or the question) and writes the sentence
they make ("put the milk on the table", "how many plates are in the living room?").

Only text in three or more fragments, at least one pause ("...") among them, whose words joined do not already
open as a sentence does ("Could you... um... bring me the... the mug?" is a sentence with pauses, read as it is),
and only when a verb or a question is found; otherwise the text is returned unchanged.
"""

from __future__ import annotations

import re

from . import lexicon as lx

_PAUSE = re.compile(r"\.{2,}|…")
_SPLIT = re.compile(r"\s*(?:\.{2,}|…|[.!?;]+(?=\s|$))\s*")
_DET = ("the", "my", "your", "our", "a", "an", "that", "this", "his", "her", "their")
_PREPS = ("on top of", "next to", "out of", "into", "onto", "inside", "on", "in", "to", "under", "by", "near", "beside")
_PARTICLES = ("out", "back", "away", "up", "down")
_STATES = ("shut", "open", "closed", "locked", "unlocked", "on", "off", "empty", "full")
# how a sentence opens when the pauses only break it ("could you... bring me the... mug?")
_OPENERS = frozenset({"could", "can", "would", "will", "please", "where", "what", "which", "when", "who", "how", "is",
                      "are", "do", "does", "did", "have", "has", "i", "we", "you", "um", "uh", "er", "erm", "so", "and",
                      "let", "let's", "hey", "ok", "okay", "robot"})
_FILLERS = frozenset({"um", "umm", "uh", "uhh", "er", "erm", "hmm", "mm", "ah", "eh"})
_LOST = re.compile(r"\b(?:lost|can'?t\s+find|cannot\s+find|missing|gone)\b", re.I)


def _phrase(frag: str) -> str:
    """The thing a fragment names ("the lime", "the bottle of lotion"), or ""."""
    m = re.search(r"\b(?:" + "|".join(_DET) + r")\s+([a-z][\w'-]*(?:\s+(?!and\b|or\b)[a-z][\w'-]*){0,3})", frag, re.I)
    if not m:
        return ""
    words = [w for w in m.group(1).split() if w.lower() not in _PARTICLES + _STATES + ("both", "me")]
    return f"{m.group(0).split()[0].lower()} {' '.join(words)}" if words else ""


def _place(frag: str) -> str:
    low = frag.lower()
    for prep in _PREPS:
        if low.startswith(prep + " "):
            rest = frag[len(prep) + 1:].strip()
            if rest.split()[0].lower() in _DET:
                return f"{prep} {rest}".lower()
    return ""


# a fragment that is a whole question: a question word, its verb and a thing after it
_WHOLE_QUESTION = re.compile(r"^(?:where|what|which|when|who|how\s+many)(?:'s\s+(?:(?:on|in|inside|under)\s+)?|\s+(?:is|are|was|were|"
                             r"does|do|did|can|could|has|have|should|would|will)\s+)(?:the|my|your|our|a|an|any|they|you)\b\s*\w+",
                             re.I)


def telegraphic(text: str) -> str:
    t = " ".join(text.strip().split())
    if not _PAUSE.search(t) or len(t) > 300:
        return text
    frags = [f.strip(" ,-") for f in _SPLIT.split(t) if f.strip(" ,-")]
    if len(frags) < 3:
        return text
    first = frags[0].split()[0].lower().strip(",")
    if first in _OPENERS or first in lx.COMMAND_VERBS:
        return text
    if any(_WHOLE_QUESTION.match(f) or f.lower() in ("can i", "could i", "can we", "may i") for f in frags):
        return text  # "Nine, ten... where does the milk live, love? ...": a whole question, read as said
    # a filler between pauses says nothing ("The... um... radio"); a fragment that ends on a determiner or a
    # preposition is the start of the next one's phrase ("Lost... the... mouse", "on the... the sofa": said once)
    frags = [f for f in frags if f.lower() not in _FILLERS]
    merged: list[str] = []
    for f in frags:
        last = merged[-1].lower().split()[-1] if merged else ""
        if merged and (last in _DET or last in _PREPS and len(merged[-1].split()) <= 2):
            first_word = f.split()[0].lower()
            merged[-1] = f"{merged[-1]} {f.split(' ', 1)[1] if first_word == last and ' ' in f else f}"
        else:
            merged.append(f)
    frags = merged
    low = " ".join(frags).lower()
    words = re.findall(r"[a-z']+", low)
    words += [w.split("'")[0] for w in words if "'" in w]  # "what's on it": "what"
    places = [p for p in (_place(f) for f in frags) if p]
    things: list[str] = []
    for f in frags:
        if _place(f):
            continue
        p = _phrase(f)
        if p and p not in things:
            things.append(p)
    bare = [f.lower() for f in frags if re.fullmatch(r"[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?", f.lower())
            and f.lower() not in _DET and f.split()[0].lower() not in lx.COMMAND_VERBS
            and f.lower() not in ("both", "back", "away", "out", "where", "when", "how many", "last time", "me",
                                  "for me", "here", "now", "please", "before")]
    question = "?" in t
    room_place = places[0] if places else ""
    if question:
        if {"which", "then", "next", "after"} & set(words):
            return text  # which one, or what someone did next: read by the parser's own rules
        thing = things[0] if things else ""
        if "how many" in low:
            counted = next((b for b in bare if b.endswith("s")), "") or (thing.split(" ", 1)[1] if thing else "")
            return f"how many {counted} are {room_place}?".replace("  ", " ") if counted else text
        if not thing:
            return text
        if "when" in words and ({"saw", "seen", "see"} & set(words)):
            return f"when did you last see {thing}?"
        if "where" in words and ({"goes", "go", "belong", "belongs", "kept", "place"} & set(words)):
            return f"where does {thing} go?"
        if "where" in words and ({"before", "previously", "earlier"} & set(words)):
            return f"where was {thing} before?"
        if "what" in words and ({"on", "in", "inside"} & set(words)) and not {"colour", "color"} & set(words):
            prep = next(w for w in words if w in ("on", "in", "inside"))
            return f"what is {prep} {thing}?"
        colour = next((w for w in words if w in ("colour", "color")), "")
        if colour:
            return f"what {colour} is {thing}?"
        state = next((w for w in words if w in _STATES), "")
        if state:
            return f"is {thing} {state}?"
        if "where" in words:
            return f"where is {thing}?"
        return text
    if _LOST.search(low) and things:
        return f"I can't find {things[0]}."
    # the verb said on its own ("Bring.") before a word of a thing's name that can be one ("the loo roll")
    alone = [f.lower().split()[0] for f in frags if f.lower().split()[0] in lx.COMMAND_VERBS and len(f.split()) <= 3]
    verb = next((w for w in alone + words if w in lx.COMMAND_VERBS and w not in ("stand", "hang", "pop", "look", "check")
                 and not any(w in t.split()[1:] for t in things)), "")
    particle = next((w for w in words if w in ("out", "back", "away")), "")
    if not verb and particle in ("back", "away"):
        verb = "put"
    if not verb or not things:
        return text
    me = " me" if re.search(r"\b(?:bring|give|hand|pass|fetch|get)\s+me\b|\b(?:for|to)\s+me\b|^(?:i\s+)?need\b", low) else ""
    # "The juice... to Ben. Give him.": a person said after "to" is who it goes to
    person = next((m.group(1) for m in (re.fullmatch(r"to\s+([A-Z][a-z]+)", f) for f in frags) if m), "")
    if person and verb in ("bring", "give", "hand", "pass", "take", "fetch", "get", "carry"):
        return f"{verb} {' and '.join(things)} to {person}."
    if particle == "out" and len(things) >= 2:
        # "The microwave... the lime... out. Take out.": the thing out of the first, its container
        return f"take {things[-1]} out of {things[0]}{' for me' if me else ''}."
    if verb in ("put", "place", "set") and particle in ("back", "away"):
        return f"put {' and '.join(things)} {particle}."
    if me and verb in ("bring", "give", "hand", "pass", "fetch", "get"):
        return f"{verb} me {' and '.join(things)}."
    dest = places[0] if places else ""
    if verb in ("put", "place", "set", "move", "leave") and not dest and not particle:
        # "The radio... table. On the table. Put.": a bare furniture word is where it goes
        if bare:
            dest = f"on the {bare[0]}"
    return f"{verb} {' and '.join(things)}{(' ' + particle) if particle and verb not in ('take',) else ''}" \
           f"{(' ' + dest) if dest else ''}."


__all__ = ["telegraphic"]
