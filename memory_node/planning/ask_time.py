"""Questions about when and in what order: "when did you last see my keys?", "when did I move the book?",
"what happened after you opened the fridge?", "where was the book before I moved it?", "what did I do?".

A moment is named by what happened then; ``Grounder.anchor_event`` finds that event, and the answer is an
as-of read of memory at that moment or a window of the event log around it. Times are given in UTC with
the event ids, so a client can ask for more.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timezone

from ..core.models import Answer, Event
from ..core.store import MemoryStore
from .grounding import Grounder
from .phrasing import describe, not_seen
from .world import WorldState

TIME_QUESTIONS = ("when did you (first|last) see <object>", "when did I/you <verb> <object>",
                  "when was <object> <verb>ed", "what happened after/before <event>",
                  "where was <object> before I moved it", "what did I do/say")
WINDOW_EVENTS = 5
_SCAN_EVENTS = 500  # events read to find the ones right after a moment (the store lists newest first)

_SEEN_RE = re.compile(r"^when\s+(?:did|have)\s+you\s+(?P<which>first\s+|last\s+)?(?:see|seen|saw|spot|spotted|"
                      r"notice|noticed)\s+(?P<x>.+?)(?P<which2>\s+last|\s+first)?$|"
                      r"^when\s+(?:was|were)\s+(?P<x2>.+?)\s+(?P<which3>first|last)\s+seen$")
_WHEN_RE = re.compile(r"^when\s+(?P<aux>did|was|were|have|has)\s+(?P<clause>.+)$")
_AROUND_RE = re.compile(r"^what\s+(?:happened|did\s+(?:you|i)\s+do)\s+(?:right\s+|just\s+)?"
                        r"(?P<dir>after|before)\s+(?P<clause>.+)$")
_DID_I_RE = re.compile(r"^what\s+(?:did|have)\s+(?:i|we)\s+(?:do|done|say|said|tell\s+you|told\s+you)\b.*$")
# "where was the book before I moved it": the place part and the moment part of a where-question
BEFORE_MOVE_RE = re.compile(r"^(?P<x>.+?)\s+(?P<dir>before|after)\s+(?P<clause>.+)$")
ORIGINAL_RE = re.compile(r"^(?P<x>.+?)\s+(?:originally|at\s+first|at\s+the\s+start|in\s+the\s+beginning|first)$")


def clock(stamp_ns: int) -> str:
    return datetime.fromtimestamp(stamp_ns / 1e9, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def when_seen(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    phrase = m.group("x") or m.group("x2")
    which = (m.group("which") or m.group("which2") or m.group("which3") or "last").strip()
    cands = Grounder(store, world).find(phrase)
    if not cands:
        return not_seen(phrase)
    ent = cands[0].entity
    stamp = ent.first_seen_ns if which == "first" else ent.last_seen_ns
    return Answer(success=True, answer=f"I {which} saw {describe(world, ent.id)} at {clock(stamp)}.",
                  answer_ids=[ent.id], evidence_ids=[i for i in (ent.provenance, ent.id) if i],
                  confidence=max(ent.confidence, 0.01))


def when_did(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    """"when did you open the fridge" / "when was the book moved": the latest event the clause names."""
    clause = m.group("clause")
    if m.group("aux") in ("was", "were"):  # passive: "the book moved" -> someone moved the book
        ws = clause.split()
        clause = f"someone {ws[-1]} {' '.join(ws[:-1])}" if len(ws) > 1 else clause
    ev = Grounder(store, world).anchor_event(clause)
    if ev is None:
        return Answer(success=True, answer=f"I have no record of when {clause.strip()}.", confidence=0.0)
    return Answer(success=True, answer=f"At {clock(ev.stamp_ns)}: {ev.text}.", answer_ids=[ev.id],
                  evidence_ids=[i for i in (ev.provenance, ev.id) if i], confidence=1.0)


def _events_after(store: MemoryStore, anchor: Event, until_ns: int | None) -> list[Event]:
    later = store.events(since_ns=anchor.stamp_ns, until_ns=until_ns, limit=_SCAN_EVENTS)
    later = [e for e in reversed(later) if e.id != anchor.id]  # oldest first
    return later[:WINDOW_EVENTS]


def around(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    """"what happened after you opened the fridge": the events right after (or before) that one."""
    after = m.group("dir") == "after"
    ev = Grounder(store, world).anchor_event(m.group("clause"))
    if ev is None:
        return Answer(success=True, answer=f"I have no record of {m.group('clause').strip()}.", confidence=0.0)
    if after:
        window = _events_after(store, ev, world.as_of_ns)
    else:
        window = [e for e in store.events(until_ns=ev.stamp_ns, limit=WINDOW_EVENTS + 1) if e.id != ev.id]
        window = list(reversed(window[:WINDOW_EVENTS]))
    if not window:
        return Answer(success=True, answer=f"Nothing is recorded {m.group('dir')} that ({ev.text}, "
                      f"{clock(ev.stamp_ns)}).", answer_ids=[ev.id], evidence_ids=[ev.id], confidence=1.0)
    listed = "; ".join(f"{e.text} ({clock(e.stamp_ns)})" for e in window)
    return Answer(success=True, answer=f"{m.group('dir').capitalize()} {ev.text} ({clock(ev.stamp_ns)}), in "
                  f"order: {listed}.", answer_ids=[e.id for e in window], evidence_ids=[ev.id] + [e.id for e in window],
                  confidence=1.0)


def what_did_i_do(store: MemoryStore, world: WorldState, m: re.Match[str]) -> Answer:
    """What the person did (observed activities) and said, most recent first."""
    grounder = Grounder(store, world)
    mine: list[Event] = []
    for kind in ("activity", "utterance"):
        for ev in store.events(kind=kind, until_ns=world.as_of_ns, limit=200):
            who = str(ev.data.get("actor" if kind == "activity" else "speaker", ""))
            if who in (grounder.speaker, "", "user"):
                mine.append(ev)
    mine.sort(key=lambda e: -e.stamp_ns)
    mine = mine[:WINDOW_EVENTS]
    if not mine:
        return Answer(success=True, answer="I have no record of anything you did or said.", confidence=0.0)
    return Answer(success=True, answer="Most recent first: " + "; ".join(
        f"{e.text} ({clock(e.stamp_ns)})" for e in mine) + ".", answer_ids=[e.id for e in mine],
                  evidence_ids=[e.id for e in mine], confidence=1.0)


TIME_INTENTS: list[tuple[re.Pattern[str], Callable[[MemoryStore, WorldState, re.Match[str]], Answer]]] = [
    (_SEEN_RE, when_seen),
    (_AROUND_RE, around),
    (_DID_I_RE, what_did_i_do),
    (_WHEN_RE, when_did),
]
