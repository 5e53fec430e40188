"""Questions about what people usually do, answered from consolidated knowledge (core/consolidation.py).

"how does P03 usually wash up?" -> P03's routines with a washing step; "what does P03 usually do after
opening the fridge?" -> P03's habits after "open fridge"; "where does P03 usually put the plate?" -> the
receptacle preference for plates; "which mug does alex usually use?" -> the instance preference.

Phrases are matched to steps by crude stems ("opening" ~ "open", "putting" ~ "put"), so the words of the
question have to be the words memory was told; particles that change a verb ("turn on" vs "turn off") are
kept. Answers cite the knowledge records (``answer_ids``) and the events they rest on (``evidence_ids``);
no matching knowledge is "I do not know", never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.consolidation import knowledge
from ..core.models import Answer, Knowledge, KnowledgeKind
from ..core.store import MemoryStore
from ..core.text import stem
from .context import Context
from ..world.state import WorldState

HABIT_QUESTIONS = ("how does <person> usually <activity>", "what does <person> usually do after <action>",
                   "where does <person> usually put <object>", "which <object> does <person> usually use")
MAX_EVIDENCE = 50   # events cited per answer (the full list is in the knowledge record)
MAX_ALTERNATIVES = 3
MIN_MATCH = 0.6     # share of the question's words a step must contain ("open fridge" is not "open squash")

_USUALLY = r"(?:usually|normally|typically|generally|often|always|tend\s+to)"
# "I", "you" and "we" stay with the other intents ("where do I put ...", "what did you do after ...").
_ACTOR = r"(?P<actor>(?!(?:i|you|we)\b).+?)"
_AFTER_RE = re.compile(r"^what\s+(?:does|do)\s+" + _ACTOR + r"\s+(?:" + _USUALLY + r"\s+)?do\s+"
                       r"(?:right\s+|just\s+|straight\s+)?after\s+(?P<x>.+)$")
_HOW_RE = re.compile(r"^how\s+(?:does|do)\s+" + _ACTOR + r"\s+" + _USUALLY + r"\s+(?P<x>.+)$")
_WHERE_PUT_RE = re.compile(r"^where\s+(?:does|do)\s+" + _ACTOR + r"\s+(?:" + _USUALLY + r"\s+)?"
                           r"(?:put|keep|store|place|leave)\s+(?P<x>.+?)(?:\s+away)?$")
_WHICH_RE = re.compile(r"^which\s+(?P<x>.+?)\s+(?:does|do)\s+" + _ACTOR + r"\s+(?:" + _USUALLY + r"\s+)?"
                       r"(?:use|prefer|take|pick|like)$")

_STOP = frozenset({"the", "a", "an", "his", "her", "their", "my", "your", "its", "our", "some", "up", "down",
                   "of", "to", "into", "onto", "with", "from", "and", "then", "it", "them", "this", "that",
                   "he", "she", "they", "usually", "do", "does", "doing"})
# Particles that turn a verb into its opposite: "turn off the tap" must not match "turn-on tap".
_OPPOSITES = (("on", "off"), ("in", "out"))
_ANYONE = frozenset({"he", "she", "they", "people", "someone", "somebody", "everyone", "anyone", "one"})


def _stems(text: str) -> set[str]:
    return {stem(w) for w in re.split(r"[\s\-:_,]+", text.lower()) if w and w not in _STOP}


def _spoken(step: str) -> str:
    verb, _, rest = step.partition(" ")
    return " ".join(p for p in (verb.replace("-", " "), rest) if p)


def _next_words(habit: Knowledge) -> str:
    if habit.data.get("level") != "verb":
        return _spoken(habit.steps[1])
    examples = habit.data.get("examples") or []
    return f"{_spoken(habit.steps[1])} something" + (f" (most often {', '.join(examples)})" if examples else "")


def _actors(store: MemoryStore, phrase: str, kind: KnowledgeKind, as_of_ns: int | None
            ) -> tuple[list[Knowledge], str]:
    """The actor's knowledge of one kind and the actor as memory names them ('' = anyone)."""
    name = re.sub(r"^the\s+", "", phrase.strip())
    everything = knowledge(store, as_of_ns=as_of_ns)
    records = [k for k in everything if k.kind == kind]
    if name in _ANYONE:
        return records, ""
    actor = {k.actor.lower(): k.actor for k in everything}.get(name, "")
    return ([k for k in records if k.actor == actor] if actor else []), actor or phrase.strip()


def _answer(records: list[Knowledge], text: str, match: float) -> Answer:
    evidence = list(dict.fromkeys(i for k in records for i in k.evidence_ids))[:MAX_EVIDENCE]
    return Answer(success=True, answer=text, answer_ids=[k.id for k in records], evidence_ids=evidence,
                  confidence=round(records[0].confidence * match, 4))


def _unknown(what: str) -> Answer:
    return Answer(success=True, answer=f"I do not know {what}: I have not seen it often enough.", confidence=0.0)


def _covered(words: set[str], steps: list[str]) -> int:
    """How many of the phrase's words the steps say, counting no step that says the opposite."""
    covered: set[str] = set()
    for step in steps:
        said = _stems(step)
        if any((a in words and b in said) or (b in words and a in said) for a, b in _OPPOSITES):
            continue
        covered |= words & said
    return len(covered)


def _best(records: list[Knowledge], words: set[str], steps_of: Callable[[Knowledge], list[str]]
          ) -> tuple[list[Knowledge], float]:
    """Records whose steps share the most words with the phrase (ties: strongest first) and the share
    of the phrase's words they cover."""
    if not words:
        return [], 0.0
    scored = [(_covered(words, steps_of(k)), k) for k in records]
    top = max((s for s, _ in scored), default=0)
    if top == 0 or top / len(words) < MIN_MATCH:
        return [], 0.0
    best = [k for s, k in scored if s == top]
    return sorted(best, key=lambda k: (-k.support, -k.confidence, k.id)), top / len(words)


def _after(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    habits, actor = _actors(store, m.group("actor"), "habit", world.as_of_ns)
    words = _stems(m.group("x"))
    best, match = _best(habits, words, lambda k: k.steps[:1])
    if not best:
        return _unknown(f"what {actor or 'anyone'} usually does after {m.group('x')}")
    x = best[0].steps[0]
    best = [k for k in best if k.steps[0] == x][:MAX_ALTERNATIVES]
    who = best[0].actor
    nexts = [f"{_next_words(k)} ({k.support} of {k.data.get('of', k.support)} times, {k.confidence:.0%})"
             for k in best]
    text = f"After {_spoken(x)}, {who} usually goes on to {nexts[0]}"
    if len(nexts) > 1:
        text += "; otherwise " + "; ".join(nexts[1:])
    return _answer(best, text + ".", match)


def _how(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    routines, actor = _actors(store, m.group("actor"), "routine", world.as_of_ns)
    words = _stems(m.group("x"))
    best, match = _best(routines, words, lambda k: k.steps)
    if not best:
        return _unknown(f"how {actor or 'anyone'} usually goes about \"{m.group('x')}\"")
    best = best[:MAX_ALTERNATIVES]
    ways = [f"{' > '.join(_spoken(s) for s in k.steps)} ({k.support} times in {k.sessions} sessions)"
            for k in best]
    text = f"{best[0].actor} usually does it like this: {ways[0]}"
    if len(ways) > 1:
        text += "; also " + "; ".join(ways[1:])
    return _answer(best, text + ".", match)


def _preference(kind: str, store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    prefs, actor = _actors(store, m.group("actor"), "preference", world.as_of_ns)
    prefs = [k for k in prefs if k.data.get("preference") == kind]
    words = _stems(m.group("x"))
    best, match = _best(prefs, words, lambda k: k.steps[:1])
    if not best:
        what = "where" if kind == "receptacle" else "which"
        return _unknown(f"{what} {m.group('x')} {actor or 'anyone'} usually "
                        f"{'puts it' if kind == 'receptacle' else 'uses'}")
    k = best[0]
    category, target = k.steps
    of = k.data.get("of", k.support)
    if kind == "receptacle":
        text = f"{k.actor} usually puts the {category} in/on the {target} ({k.support} of {of} times, " \
               f"{k.confidence:.0%})."
    else:
        text = f"{k.actor} usually uses {target} when using a {category} ({k.support} of {of} times, " \
               f"{k.confidence:.0%})."
    answer = _answer([k], text, match)
    answer.answer_ids = [target, k.id]
    return answer


HABIT_INTENTS: list[tuple[re.Pattern[str], Callable[[MemoryStore, WorldState, re.Match[str]], Answer]]] = [
    (_AFTER_RE, _after),
    (_HOW_RE, _how),
    (_WHERE_PUT_RE, lambda store, world, m: _preference("receptacle", store, world, m)),
    (_WHICH_RE, lambda store, world, m: _preference("instance", store, world, m)),
]


def habit(ctx: Context) -> Answer:
    """Questions about what someone usually does. Their wording is still read by the four patterns above
    (actor, activity and object are free text matched against consolidated knowledge); the parser only
    decides that the question is about a habit."""
    text = " ".join(ctx.request.text.lower().replace("?", " ").split()).rstrip(".! ")
    text = re.sub(r"^(?:(?:can|could)\s+you\s+tell\s+me\s+|please\s+|do\s+you\s+know\s+)", "", text)
    for pattern, handler in HABIT_INTENTS:
        m = pattern.match(text)
        if m:
            return handler(ctx.store, ctx.world, m)
    return _unknown("that habit")
