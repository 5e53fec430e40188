"""Questions about when and in what order: "when did you last see my keys?", "when did I move the book?",
"what happened after you opened the fridge?", "where was the book before I moved it?", "what did I do?".

A moment is named by what happened then; ``Grounder.anchor_event`` finds that event, and the answer is an
as-of read of memory at that moment or a window of the event log around it. Times are given in UTC with
the event ids, so a client can ask for more.
"""

from __future__ import annotations

from datetime import datetime, timezone

from ..core.models import Answer, Event
from ..core.store import MemoryStore
from ..language.parser import time_said
from .context import Context
from ..world.phrasing import describe

WINDOW_EVENTS = 5
_SCAN_EVENTS = 500  # events read to find the ones right after a moment (the store lists newest first)


def clock(stamp_ns: int) -> str:
    return datetime.fromtimestamp(stamp_ns / 1e9, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def when_seen(ctx: Context) -> Answer:
    world = ctx.world
    which = "first" if ctx.request.time is not None and ctx.request.time.moment in ("first", "original") else "last"
    ent = ctx.one(ctx.request.objects[0] if ctx.request.objects else None)[0].entity
    stamp = ent.first_seen_ns if which == "first" else ent.last_seen_ns
    return Answer(success=True, answer=f"I {which} saw {describe(world, ent.id)} at {clock(stamp)}.",
                  answer_ids=[ent.id], evidence_ids=[i for i in (ent.provenance, ent.id) if i],
                  confidence=max(ent.confidence, 0.01))


def when_did(ctx: Context) -> Answer:
    """"when did you open the fridge" / "when was the book moved": the latest event the clause names."""
    clause = ctx.request.time.clause if ctx.request.time is not None else ctx.request.text
    ev = ctx.grounder.anchor_event(clause)
    if ev is None:
        return Answer(success=True, answer=f"I have no record of when {clause.strip()}.", confidence=0.0)
    return Answer(success=True, answer=f"At {clock(ev.stamp_ns)}: {ev.text}.", answer_ids=[ev.id],
                  evidence_ids=[i for i in (ev.provenance, ev.id) if i], confidence=1.0)


def _events_after(store: MemoryStore, anchor: Event, until_ns: int | None, actor: str = "") -> list[Event]:
    later = store.events(since_ns=anchor.stamp_ns, until_ns=until_ns, limit=_SCAN_EVENTS)
    later = [e for e in reversed(later) if e.id != anchor.id and (not actor or _by(e, actor))]  # oldest first
    return later[:WINDOW_EVENTS]


def _by(ev: Event, actor: str) -> bool:
    """Whether an event is what ``actor`` did: an activity of theirs, or (the robot) a skill call."""
    if actor == "robot":
        return ev.kind == "skill"
    return str(ev.data.get("actor", ev.data.get("speaker", ""))).lower() == actor.lower()


def around(ctx: Context) -> Answer:
    """"what happened after you opened the fridge": the events right after (or before) that one; "what did
    alice do after ...": hers only."""
    store, world, req = ctx.store, ctx.world, ctx.request
    # a reading (the learned one, say) may take the words for this question without the moment they name
    time = req.time if req.time is not None and req.time.clause else time_said(req.text)
    if time is None or not time.clause:
        return Answer(success=True, answer="After or before what? Name the moment, e.g. 'what happened after "
                      "you opened the fridge?'", confidence=0.0)
    direction = "after" if time.relation != "before" else "before"
    after = direction == "after"
    ev = ctx.grounder.anchor_event(time.clause)
    if ev is None:
        return Answer(success=True, answer=f"I have no record of {time.clause.strip()}.", confidence=0.0)
    actor = ctx.grounder.speaker if req.actor == "speaker" else req.actor
    if after:
        window = _events_after(store, ev, world.as_of_ns, actor)
        if not window and actor:
            window = _events_after(store, ev, world.as_of_ns)  # nothing of theirs: say what happened
    else:
        window = [e for e in store.events(until_ns=ev.stamp_ns, limit=WINDOW_EVENTS + 1) if e.id != ev.id]
        window = list(reversed(window[:WINDOW_EVENTS]))
    if not window:
        return Answer(success=True, answer=f"Nothing is recorded {direction} that ({ev.text}, "
                      f"{clock(ev.stamp_ns)}).", answer_ids=[ev.id], evidence_ids=[ev.id], confidence=1.0)
    listed = "; ".join(f"{e.text} ({clock(e.stamp_ns)})" for e in window)
    return Answer(success=True, answer=f"{direction.capitalize()} {ev.text} ({clock(ev.stamp_ns)}), in "
                  f"order: {listed}.", answer_ids=[e.id for e in window], evidence_ids=[ev.id] + [e.id for e in window],
                  confidence=1.0)


def what_did_i_do(ctx: Context) -> Answer:
    """What the person asked about did (observed activities) and said, most recent first: the speaker's own
    ("what did I do?"), or a named person's ("what did Ben do?"); "he" with nobody named is asked back, never
    answered with someone else's day."""
    store, world, grounder = ctx.store, ctx.world, ctx.grounder
    actor = (ctx.request.actor or "speaker").lower()
    if actor in ("he", "she", "they", "him", "her", "them"):
        return Answer(success=True, answer=f"Who do you mean by '{actor}'? Say the person's name.", confidence=0.0)
    yours = actor in ("speaker", "i", "me", "we", "us", "my", grounder.speaker.lower())
    whose = ("", "user", grounder.speaker.lower()) if yours else (actor,)
    mine: list[Event] = []
    for kind in ("activity", "utterance"):
        for ev in store.events(kind=kind, until_ns=world.as_of_ns, limit=200):
            who = str(ev.data.get("actor" if kind == "activity" else "speaker", "")).lower()
            if who in whose:
                mine.append(ev)
    mine.sort(key=lambda e: -e.stamp_ns)
    mine = mine[:WINDOW_EVENTS]
    if not mine:
        said = "you did or said" if yours else f"{actor.title()} did or said"
        return Answer(success=True, answer=f"I have no record of anything {said}.", confidence=0.0)
    return Answer(success=True, answer="Most recent first: " + "; ".join(
        f"{e.text} ({clock(e.stamp_ns)})" for e in mine) + ".", answer_ids=[e.id for e in mine],
                  evidence_ids=[e.id for e in mine], confidence=1.0)
