"""Information requests ("where is my mug?") answered from structured memory, never from free text search.

Each handler takes the typed request (``language.Request``) and a ``Context``: the phrases are grounded by
``language/grounding.py`` (a phrase that names nothing, or several things equally well, stops the request
with a reply saying so), and latest state is an indexed lookup, so answers are exact and cite the
observations they rest on (``evidence_ids``) and the ids a client can act on (``answer_ids``). No evidence
gives an explicit "not known" with confidence 0, never a guess.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from ..core.models import Answer, Entity, Relation, state_family
from ..core.store import MemoryStore
from ..core.text import singular
from ..language.clause import DID_YOU_NOTE, EITHER_OR_NOTE
from ..language.clock import latest_before
from ..language.lexicon import COLOUR_WORDS
from ..language.names import GENERIC_NOUNS
from ..language.request import ObjectRef, TimeRef
from ..language.resolve import Candidate, resolve_rooms
from ..language.uses import SURE_USE, activity_of
from .context import MAX_LISTED, Context
from ..world.phrasing import describe, relation_words, sentence
from ..world.state import WorldState

_RECENT_EVENTS = 5
_ABSENT_FACTOR = 0.3  # the last sighting is contradicted by a later complete view of the room
S = 1_000_000_000
_DAY_NS = 86_400 * S
_GET_SOME = re.compile(r"\bwhere\b.*\b(?:can|could|do|might)\s+(?:i|we|one)\s+(?:get|find|fetch)\b", re.I)
_PART_END_H = {"morning": 12, "afternoon": 18, "evening": 22, "night": 24, "": 24}


def first_object(ctx: Context) -> ObjectRef | None:
    return ctx.request.objects[0] if ctx.request.objects else None


# ---- where ----------------------------------------------------------------------------------------------


def where(ctx: Context) -> Answer:
    """Where a thing is; where it was at a moment ("before I moved it", "originally", "ten minutes ago");
    every one of them for a plural ("where are the forks"); places with a use ("where can I wash")."""
    req = ctx.request
    ref = first_object(ctx)
    if ref is not None and ref.purpose and ref.head in ("", "somewhere", "anywhere", "place"):
        return _places_for(ctx, ref)
    if req.time is not None and (req.time.clause or req.time.moment in ("original", "previous") or
                                 req.time.ago_s is not None or req.time.day or req.time.part_of_day or
                                 req.time.clock_s is not None):
        return _where_was(ctx, ctx.one(ref), req.time)
    if ref is None:
        return _where_answer(ctx.store, ctx.world, ctx.one(ref))  # replies that no object was named
    if singular(ref.head.lower()) in GENERIC_NOUNS and not ref.compound:
        return _identify(ctx, ref)
    g = ctx.ground(ref)
    if g.status == "none" and not ref.owner and ref.determiner != "the" and _GET_SOME.search(req.text):
        # "where can I get water?": no water was ever seen as a thing; a place that gives it is the answer
        found = _places_for(ctx, ref.model_copy(update={"head": "somewhere", "purpose": "get",
                                                        "text": f"get {ref.text}"}))
        if found.answer_ids:
            return found
    if g.status == "all" and len(g.candidates) > 1:
        asked = ctx.guessed(g)
        if asked is not None:
            return asked
        ctx.grounded.extend(g.ids)
        return _where_all(ctx, g.candidates)
    cands = ctx.settle(g)
    return _where_answer(ctx.store, ctx.world, cands)


def _identify(ctx: Context, ref: ObjectRef) -> Answer:
    """"What is the yellow thing on the bed?", "what's the object on the desk?": a thing said by its look and
    place, not its name, asks which thing that is (the generic noun is a filter: ``names.GENERIC_NOUNS``)."""
    g = ctx.ground(ref, "all")
    # a colour said is what tells the thing apart: the grounder ranks by it, here it must hold
    colours = {m.lower() for m in ref.modifiers if m.lower() in COLOUR_WORDS}
    cands = [c for c in g.candidates if not colours or colours & {
        v.lower() for k, v in c.entity.attributes.items() if k in ("color", "colour")}]
    if g.status == "none" or not cands:
        return Answer(success=True, answer=f"I have seen no {ref.text.strip().removeprefix('the ')}.",
                      confidence=0.0)
    found = [c.entity for c in cands][:MAX_LISTED]
    ctx.grounded.extend(e.id for e in found)
    places = "; ".join(ctx.place_of(e.id) for e in found)
    more = f" and {len(cands) - MAX_LISTED} more" if len(cands) > MAX_LISTED else ""
    said = ref.text.strip() or f"the {ref.noun()}"
    text = f"{said} is {places}" if len(found) == 1 else f"{len(cands)} things fit {said}: {places}{more}"
    return Answer(success=True, answer=sentence(text) + ".", answer_ids=[e.id for e in found],
                  evidence_ids=_dedupe([e.provenance for e in found]),
                  confidence=min(max(e.confidence, 0.01) for e in found) / (1 if len(found) == 1 else 2))


def _where_all(ctx: Context, cands: list[Candidate]) -> Answer:
    ents = [c.entity for c in cands][:MAX_LISTED]
    parts = [ctx.place_of(e.id) for e in ents]
    more = f" and {len(cands) - MAX_LISTED} more" if len(cands) > MAX_LISTED else ""
    ids, evidence = [], []
    for e in ents:
        loc = ctx.world.locations.get(e.id)
        ids.append(loc[1] if loc else e.id)
        evidence += [ctx.world.location_provenance.get(e.id, ""), e.provenance]
    return Answer(success=True, answer=sentence(f"I know {len(cands)}: " + "; ".join(parts) + more + "."),
                  answer_ids=_dedupe(ids + [e.id for e in ents]), evidence_ids=_dedupe(evidence), confidence=1.0)


def _places_for(ctx: Context, ref: ObjectRef) -> Answer:
    """"Where can I write?", "what can I use to tell the time?": the things whose kind serves the use
    (``language/uses.py``). That is what things are for in general, not what this person does: a fit
    below ``SURE_USE`` is offered with a question rather than stated."""
    g = ctx.ground(ref, "all")
    if g.status == "none":
        return Answer(success=True, answer=sentence(g.problem) + ".", confidence=0.0)
    ents = [c.entity for c in g.candidates][:MAX_LISTED]
    best = max(c.score for c in g.candidates)
    listed = "; ".join(ctx.place_of(e.id) for e in ents)
    # "is there anything to drink?": the thing said is "anything", the use is the purpose read
    activity = activity_of(ref.text) if ref.text and (not ref.purpose or ref.purpose in ref.text) else ref.purpose
    text = f"To {activity}: {listed}." if best >= SURE_USE else \
        f"Nothing I know of is made to {activity}; going by what things are for: {listed}. Would that do?"
    return Answer(success=True, answer=sentence(text), answer_ids=[e.id for e in ents],
                  evidence_ids=_dedupe([e.provenance for e in ents]), confidence=min(0.8, best))


def what_room(ctx: Context) -> Answer:
    cands = ctx.one(first_object(ctx))
    ent = cands[0].entity
    room = ctx.world.room_of(ent.id)
    if room is None:
        loc = _last_location(ctx.store, ent, ctx.world.as_of_ns)
        room = ctx.world.room_of(loc.object) if loc is not None else None
    if room is None:
        return Answer(success=True, answer=f"I have seen {describe(ctx.world, ent.id)}, but I do not know which "
                      "room it is in.", answer_ids=[ent.id], evidence_ids=_dedupe([ent.provenance]), confidence=0.0)
    when = "was last seen" if not ent.present else "is"
    return Answer(success=True, answer=sentence(f"{describe(ctx.world, ent.id)} {when} in {describe(ctx.world, room)}."),
                  answer_ids=[room, ent.id], evidence_ids=_dedupe([ent.provenance, ent.id]),
                  confidence=max(ent.confidence, 0.01))


def memory_now(store: MemoryStore, as_of_ns: int | None) -> int:
    """"Now" on memory's own timeline: the newest event (replayed experience keeps its stamps)."""
    if as_of_ns is not None:
        return as_of_ns
    newest = store.events(limit=1)
    return newest[0].stamp_ns if newest else 0


def moment_of(ctx: Context, ent: Entity, time: TimeRef) -> tuple[int | None, str, str]:
    """The as-of time a time reference names for ``ent``: (stamp, evidence id, what to say when memory has
    no such moment). Against event time, never the wall clock."""
    if time.clause:
        ev = ctx.grounder.anchor_event(time.clause, subject_id=ent.id)
        if time.relation in ("before", "") and _moved_clause(time.clause) and \
                (ev is None or ev.kind == "change"):
            # "before it was (last) moved": memory's own history of the thing, not the first change event
            # it happened to log (a thing that left view and came back elsewhere logs no move event)
            stamp, evidence = _before_last_move(ctx, ent)
            if stamp is not None:
                return stamp, evidence, ""
        if ev is None:
            return None, "", f"I have no record of {time.clause} for {describe(ctx.world, ent.id)}."
        return (ev.stamp_ns - 1 if time.relation in ("before", "") else ev.stamp_ns), ev.id, ""
    if time.moment == "original" or time.moment == "first":
        # the first place memory knew it at: a first sighting may come before what it rests on was seen
        # (a perception stage lifts the mug a frame before the desk under it), and in the same spot the
        # place it was then found on is where it was at first
        history = ctx.store.history(ent.id)
        first = history[0].entity if history else ent
        for version in history:
            v = version.entity
            if v.location is not None:
                same_spot = first.position is None or v.position is None or \
                    v.position.distance(first.position) <= ctx.store.association_radius
                if same_spot:
                    return version.valid_from_ns, v.provenance, ""
                break
        return ent.first_seen_ns, ent.provenance, ""
    if time.moment == "previous":
        stamp, evidence = _before_last_move(ctx, ent)
        if stamp is not None:
            return stamp, evidence, ""
        return None, "", f"As far as I know, {describe(ctx.world, ent.id)} has not moved."
    return said_moment(memory_now(ctx.store, ctx.world.as_of_ns), time), "", ""


def said_moment(now: int, time: TimeRef) -> int | None:
    """The moment a time said on its own names ("ten minutes ago", "this morning", "at nine", "yesterday
    evening") on memory's timeline, or None. Days are the local calendar's (a person at home says "this
    morning" of their own morning); a part of the day reads as its end, so what held then is what was last known
    in it; an hour without a.m. / p.m. is the latest past one (``language/clock.py``). ``now``: memory's
    (``memory_now``)."""
    if time.ago_s is not None:
        return now - int(time.ago_s * 1e9)
    if time.clock_s is None and not (time.day or time.part_of_day):
        return None
    offset = int(datetime.fromtimestamp(now / 1e9, timezone.utc).astimezone().utcoffset().total_seconds()) * S
    day_start = now - (now + offset) % _DAY_NS - (_DAY_NS if time.day == "yesterday" else 0)
    if time.clock_s is not None:
        fixed = time.clock_fixed or bool(time.part_of_day)
        clock = time.clock_s + (12 * 3600 if time.part_of_day in ("afternoon", "evening", "night") and
                                not time.clock_fixed and time.clock_s < 12 * 3600 else 0)
        end = day_start + _DAY_NS if time.day == "yesterday" else now
        return int(latest_before(end / S, day_start / S, clock % 86_400, fixed) * S)
    return min(now, day_start + _PART_END_H[time.part_of_day] * 3_600 * S)


def _moved_clause(clause: str) -> bool:
    """"it was (last) moved", "someone moved it", "it got put away": a clause about the thing changing
    place, whoever did it."""
    from ..language.grounding import _MOVE_VERBS

    return any(w in _MOVE_VERBS for w in re.findall(r"[a-z]+", clause.lower()))


def _before_last_move(ctx: Context, ent: Entity) -> tuple[int | None, str]:
    """The as-of time at which ``ent`` was still at the place it had before its LAST change of place, and the
    record that says so: the newest version of its history up to now whose support differs from where it
    is now (versions while it was out of view, with no support, or carried, held by someone, are skipped),
    or, for a thing memory knows
    by position only, whose position is further than the association radius from its current one."""
    as_of = ctx.world.as_of_ns
    history = [v for v in ctx.store.history(ent.id) if as_of is None or v.valid_from_ns <= as_of]
    current = ent.location.object if ent.location is not None else None
    here = ent.position
    for version in reversed(history):
        v = version.entity
        if v.location is not None:
            if v.location.predicate == "held_by" and v.location.object != current:
                continue  # carried (by the robot, by someone): part of the move, not a place it was at
            if v.location.object != current:
                return version.valid_from_ns, v.provenance
        elif current is None and here is not None and v.position is not None and \
                v.position.distance(here) > ctx.store.association_radius:
            return version.valid_from_ns, v.provenance
    return None, ""


def _where_was(ctx: Context, cands: list[Candidate], time: TimeRef) -> Answer:
    """"where was the book before I moved it" / "originally" / "ten minutes ago": the same answer, read as
    of that moment."""
    ent = cands[0].entity
    as_of, anchor_id, missing = moment_of(ctx, ent, time)
    if as_of is None:
        return Answer(success=True, answer=missing or f"I do not know which moment you mean for "
                      f"{describe(ctx.world, ent.id)}.", answer_ids=[ent.id], evidence_ids=[ent.id], confidence=0.0)
    then = WorldState.from_store(ctx.store, as_of_ns=as_of, speaker=ctx.world.speaker)
    past = [c for c in cands if c.entity.id == ent.id and c.entity.id in then.entities]
    if not past:
        return Answer(success=True, answer=f"I had not seen {describe(ctx.world, ent.id)} yet then.",
                      answer_ids=[ent.id], evidence_ids=_dedupe([anchor_id, ent.id]), confidence=0.0)
    past = [Candidate(entity=then.entities[ent.id], score=1.0, reasons=("as of then",))]
    answer = _where_answer(ctx.store, then, past)
    answer.evidence_ids = _dedupe([anchor_id, *answer.evidence_ids])
    return answer


# ---- what is there ---------------------------------------------------------------------------------------


def contents(ctx: Context) -> Answer:
    """"what's in the fridge", "what is on the table", "what is under the lemon", "what's next to the sink"."""
    req = ctx.request
    relation = req.destination.relation if req.destination is not None else "in"
    ref = req.destination.ref if req.destination is not None else first_object(ctx)
    rooms = resolve_rooms(ref.words(), ctx.world.entities.values()) if ref is not None and ref.head and \
        not ref.anchor and relation in ("in", "at") else []
    if rooms:
        return _in_rooms(ctx, rooms)
    cands = ctx.one(ref)
    target = cands[0].entity
    world = ctx.world
    also: list[Entity] = []
    if relation in ("in", "on", "at", "from"):
        preds = {"in": ("in",), "on": ("on",)}.get(relation, ("in", "on", "at"))
        held = [e for e in world.entities.values() if e.present and world.locations.get(e.id, ("", ""))[1] == target.id]
        found = [e for e in held if world.locations[e.id][0] in preds]
        # people say "in" for a shelf and "on" for a tray, and maps disagree about a stove or a shelf: what the
        # thing holds the other way is said too, with its own preposition
        also = [e for e in held if e not in found]
        if not found:
            found, also = also, []
    elif relation == "under":
        loc = world.locations.get(target.id)
        found = [world.entities[loc[1]]] if loc and loc[1] in world.entities and not world.is_room(loc[1]) else []
    else:
        found = _near(world, target)
    subject = describe(world, target.id)
    rel_words = relation.replace("_", " ")
    if not found:
        closed = "closed" in world.states.get(target.id, set())
        extra = " It is closed, so I may not have seen inside." if closed and relation == "in" else ""
        return Answer(success=True, answer=f"I have not seen anything {rel_words} {subject}.{extra}",
                      answer_ids=[], evidence_ids=_dedupe([target.provenance, target.id]), confidence=0.0)
    found.sort(key=lambda e: e.id)
    also.sort(key=lambda e: e.id)
    ctx.grounded = [e.id for e in found + also]
    listed = ", ".join(describe(world, e.id) for e in found[:MAX_LISTED])
    more = f" and {len(found) - MAX_LISTED} more" if len(found) > MAX_LISTED else ""
    other = ""
    if also:
        by_pred: dict[str, list[Entity]] = {}
        for e in also:
            by_pred.setdefault(world.locations[e.id][0], []).append(e)
        other = "".join(f"; {p} it: " + ", ".join(describe(world, e.id) for e in es[:MAX_LISTED])
                        for p, es in sorted(by_pred.items()))
    return Answer(success=True, answer=sentence(f"{rel_words} {subject}: {listed}{more}{other}."),
                  answer_ids=[e.id for e in found + also],
                  evidence_ids=_dedupe([world.location_provenance.get(e.id, "") for e in found + also] + [target.id]),
                  confidence=1.0)


def _in_rooms(ctx: Context, rooms: list[Entity]) -> Answer:
    """"what's in the kitchen?": what memory last saw in that room (or the rooms of that name), furniture last;
    a room is no container memory records things "in", so its things are those whose room it is."""
    world = ctx.world
    ids = {r.id for r in rooms}
    found = [e for e in world.entities.values() if e.present and not world.is_room(e.id) and not world.is_person(e.id)
             and (world.room_of(e.id) in ids or e.room in ids)]
    named = " and ".join(describe(world, r.id) for r in rooms[:3])
    if not found:
        return Answer(success=True, answer=f"I have not seen anything in {named}.", evidence_ids=sorted(ids),
                      confidence=0.0)
    # small things first (what people ask after), then what holds them
    found.sort(key=lambda e: (world.locations.get(e.id, ("", ""))[1] in ids or not world.locations.get(e.id), e.id))
    ctx.grounded = [e.id for e in found]
    listed = ", ".join(describe(world, e.id) for e in found[:MAX_LISTED])
    more = f" and {len(found) - MAX_LISTED} more" if len(found) > MAX_LISTED else ""
    return Answer(success=True, answer=sentence(f"in {named} I have seen {len(found)} things: {listed}{more}."),
                  answer_ids=[e.id for e in found], evidence_ids=sorted(ids), confidence=1.0)


def _near(world: WorldState, target: Entity) -> list[Entity]:
    from ..language.resolve import NEAR_RADIUS_M, _distance
    out = []
    support = world.locations.get(target.id, ("", ""))[1]
    for e in world.entities.values():
        if e.id == target.id or not e.present or world.is_room(e.id) or world.is_person(e.id):
            continue
        d = _distance(e, target)
        if d is not None and d <= NEAR_RADIUS_M:
            out.append(e)
        elif d is None and support and world.locations.get(e.id, ("", ""))[1] == support and not world.is_room(support):
            out.append(e)
    return out


def exists(ctx: Context) -> Answer:
    """"is there any milk (in the fridge)?", "do we have apples?", "have you seen my keys?": yes with where,
    or an honest no."""
    ref = first_object(ctx)
    if ref is None:
        return Answer(success=False, answer="I did not catch what you are looking for.", error="no object")
    if ref.purpose and ref.head in ("somewhere", "anywhere", "place", "", "something"):
        found = _places_for(ctx, ref)  # "is there somewhere I can wash my hands?", "what can I eat?"
        if not found.answer_ids:
            found.answer = "No: " + found.answer[:1].lower() + found.answer[1:]
        return found
    if ref.head in ("something", "anything") and not ref.purpose and ref.anchor is None:
        return Answer(success=False, answer="What kind of thing do you mean? Name it, or say what it is for "
                      "(something to drink, to read, to clean with ...).", error="no kind of thing named")
    g = ctx.ground(ref, "all")
    if g.status == "none":
        rooms = resolve_rooms(ref.words(), ctx.world.entities.values()) if ref.head and not ref.anchor else []
        if rooms:
            # "is there a kitchen?": a room memory knows is no thing of that kind, but it is there
            ctx.grounded = [r.id for r in rooms]
            return Answer(success=True, answer=sentence("yes: " + "; ".join(describe(ctx.world, r.id) for r in rooms) + "."),
                          answer_ids=[r.id for r in rooms], evidence_ids=[r.id for r in rooms], confidence=1.0)
        where = f" {ref.anchor.relation.replace('_', ' ')} the {ref.anchor.ref.noun()}" if ref.anchor else ""
        said = g.problem if g.problem and "not seen" not in g.problem else f"I have not seen any {ref.noun()}{where}"
        return Answer(success=True, answer=f"No: {said}.", confidence=0.0)
    asked = ctx.guessed(g)
    if asked is not None:
        return asked
    present = [c for c in g.candidates if c.entity.present]
    if not present:
        ent = g.candidates[0].entity
        return Answer(success=True, answer=f"Not any more: {_where_answer(ctx.store, ctx.world, g.candidates).answer}",
                      answer_ids=[ent.id], evidence_ids=_dedupe([ent.provenance]), confidence=0.3)
    ctx.grounded.extend(c.entity.id for c in present)
    ents = [c.entity for c in present][:MAX_LISTED]
    listed = "; ".join(ctx.place_of(e.id) for e in ents)
    ids = []
    for e in ents:
        ids.append(e.id)
        loc = ctx.world.locations.get(e.id)
        if loc:
            ids.append(loc[1])
    return Answer(success=True, answer=f"Yes: {listed}.", answer_ids=_dedupe(ids),
                  evidence_ids=_dedupe([e.provenance for e in ents] +
                                       [ctx.world.location_provenance.get(e.id, "") for e in ents]), confidence=1.0)


# ---- state and history -----------------------------------------------------------------------------------


def is_state(ctx: Context) -> Answer:
    # no state said (a reading that missed it): say the state it is in, not yes or no to a guess
    either = EITHER_OR_NOTE in ctx.request.notes or not ctx.request.state
    return _is_state(ctx.store, ctx.world, ctx.one(first_object(ctx)), ctx.request.state or "open", either)


_FULLNESS = {"empty": False, "full": True, "occupied": True, "clear": False, "cluttered": True}
_FULLNESS_CONFIDENCE = 0.6  # what memory saw on or in a thing, not a look made to answer the question


def _fullness_from_contents(world: WorldState, ent: Entity, state: str, subject: str) -> Answer | None:
    """"Is the counter empty?", "is the microwave full?": from what memory last saw on or in the thing. Things
    seen there answer it; nothing seen there answers only where memory could have seen inside (a surface,
    or a container seen open), never for a closed box memory never looked into."""
    held = sorted(s for s, (pred, obj) in world.locations.items() if obj == ent.id and pred in ("on", "in"))
    states = world.states.get(ent.id, set())
    wants_things = _FULLNESS[state]
    if held:
        listed = held[:MAX_LISTED]
        more = f" and {len(held) - MAX_LISTED} more" if len(held) > MAX_LISTED else ""
        things = ", ".join(describe(world, i) for i in listed) + more
        text = (f"{'Yes' if wants_things else 'No'}: I last saw {things} "
                f"{relation_words(world.locations[held[0]][0])} {subject}.")
        return Answer(success=True, answer=text, answer_ids=[ent.id, *listed],
                      evidence_ids=_dedupe([ent.provenance, ent.id, *listed]), confidence=_FULLNESS_CONFIDENCE)
    looked_inside = "open" in states or "closed" not in states and ent.attributes.get("openable") != "true"
    if not looked_inside:
        return None
    text = f"{'No' if wants_things else 'Yes'}: I saw nothing {'in' if 'open' in states else 'on'} {subject}."
    return Answer(success=True, answer=text, answer_ids=[ent.id], evidence_ids=_dedupe([ent.provenance, ent.id]),
                  confidence=_FULLNESS_CONFIDENCE * 0.8)


def _dedupe(ids: list[str]) -> list[str]:
    return [i for i in dict.fromkeys(ids) if i]


def _last_location(store: MemoryStore, ent: Entity, as_of_ns: int | None) -> Relation | None:
    """Where an entity that has since gone missing was last seen (its history keeps that location)."""
    for version in reversed(store.history(ent.id)):
        if as_of_ns is not None and version.valid_from_ns > as_of_ns:
            continue
        if version.entity.location is not None:
            return version.entity.location
    return None


def _where_answer(store: MemoryStore, world: WorldState, cands: list[Candidate]) -> Answer:
    ent = cands[0].entity
    past = world.as_of_ns is not None
    loc = ent.location if ent.present else _last_location(store, ent, world.as_of_ns)
    room = world.room_of(loc.object) if loc is not None else None
    room = room or world.room_of(ent.id)
    confidence = max(ent.confidence, 0.01) * (1.0 if ent.present else _ABSENT_FACTOR)
    evidence = [loc.provenance if loc else "", ent.provenance, ent.id]
    room_text = f" in {describe(world, room)}" if room and (loc is None or loc.object != room) else ""
    if loc is None and room_text and ent.present and ent.label in world.holder_labels():
        # a piece of furniture (other things are kept on or in its kind) stands in a room, on nothing to name
        text = f"{describe(world, ent.id)} is{room_text}."
        return Answer(success=True, answer=text[:1].upper() + text[1:], answer_ids=_dedupe([ent.id, room or ""]),
                      evidence_ids=_dedupe(evidence), confidence=confidence)
    if loc is None:
        text = (f"I saw {describe(world, ent.id)}{room_text}, but I do not know what it is on or in."
                if room_text else f"I have seen {describe(world, ent.id)}, but I do not know where it is.")
        return Answer(success=True, answer=text, answer_ids=_dedupe([room or ""]),
                      evidence_ids=_dedupe(evidence), confidence=confidence * 0.5)
    place = f"{relation_words(loc.predicate)} {describe(world, loc.object)}"
    # nested storage ("in the drawer, which is in the cabinet") up to the furniture, not the room
    inner = loc.object
    for outer in world.chain(loc.object):
        if world.is_room(outer):
            break
        place += f", which is {relation_words(world.locations[inner][0])} {describe(world, outer)}"
        evidence.insert(1, world.location_provenance.get(inner, ""))
        inner = outer
    subject = describe(world, ent.id)
    if not ent.present:
        text = f"{subject} was last seen {place}{room_text}, but it was not there when I looked again."
    elif past:
        text = f"at that time {subject} was {place}{room_text}."
    else:
        text = f"{subject} is {place}{room_text}."
    return Answer(success=True, answer=sentence(text), answer_ids=_dedupe([loc.object, room or ""]),
                  evidence_ids=_dedupe(evidence), confidence=min(confidence, 1.0))


def _is_state(store: MemoryStore, world: WorldState, cands: list[Candidate], state: str,
              either: bool = False) -> Answer:
    """``either``: "is it open or closed?" is answered with the state word, not yes or no."""
    ent = cands[0].entity
    states = world.states.get(ent.id, set())
    subject = describe(world, ent.id)
    ids, evidence = [ent.id], _dedupe([ent.provenance, ent.id])
    confidence = max(ent.confidence, 0.01)
    yes, no = ("", "") if either else ("Yes, ", "No, ")
    if state in states:
        return Answer(success=True, answer=sentence(f"{yes}{subject} is {state.replace('_', ' ')}."),
                      answer_ids=ids, evidence_ids=evidence, confidence=confidence)
    opposite = [s for s in state_family(state) if s in states and s != state]
    if state == "locked":
        opposite = [s for s in ("unlocked", "open") if s in states]  # closed says nothing about a lock
    if opposite:
        return Answer(success=True, answer=sentence(f"{no}{subject} is {opposite[0].replace('_', ' ')}."),
                      answer_ids=ids, evidence_ids=evidence, confidence=confidence)
    if state in _FULLNESS:
        inferred = _fullness_from_contents(world, ent, state, subject)
        if inferred is not None:
            return inferred
    text = f"I have no record of whether {subject} is {state.replace('_', ' ')}."
    failures = [f for f in world.failures.values() if f.target == ent.id]
    said_locked = [f for f in failures if "locked" in f"{f.status} {f.message}".lower()]
    if state == "locked" and said_locked:
        # the controller said so when memory did not know the container yet (the state is only set on a
        # container memory already holds): the failure itself is the evidence
        return Answer(success=True, answer=f"Yes: {said_locked[-1].reason()}.", answer_ids=ids,
                      evidence_ids=evidence + [said_locked[-1].event_id], confidence=confidence * 0.9)
    if failures:
        text += f" Note: {failures[-1].reason()}."
        evidence.append(failures[-1].event_id)
    elif state == "locked" and not either:
        # a lock shows itself when something fails to open it: with no such failure on record the honest
        # answer leans no, and says what it rests on (the same as "can I get into it?")
        return Answer(success=True, answer=sentence(f"no, not as far as I know: I have no record of {subject} being "
                                                    "locked (nothing failed to open it)."),
                      answer_ids=ids, evidence_ids=evidence, confidence=0.5 * confidence)
    return Answer(success=True, answer=text, answer_ids=ids, evidence_ids=evidence, confidence=0.0)


def what_happened(ctx: Context) -> Answer:
    store, world = ctx.store, ctx.world
    ent = ctx.one(first_object(ctx))[0].entity
    events = store.events(entity_id=ent.id, until_ns=world.as_of_ns, limit=_RECENT_EVENTS)
    subject = describe(world, ent.id)
    if not events:
        return Answer(success=True, answer=f"I have no record of anything happening to {subject}.",
                      answer_ids=[ent.id], evidence_ids=_dedupe([ent.provenance, ent.id]), confidence=0.0)
    text = f"Most recent first, for {subject}: " + "; ".join(ev.text for ev in events) + "."
    return Answer(success=True, answer=text, answer_ids=[ev.id for ev in events],
                  evidence_ids=_dedupe([ev.provenance for ev in events] + [ent.id]),
                  confidence=max(ent.confidence, 0.01))


# the robot's skills an action of a request is carried out with ("did you put ..." asks about a place)
_ACTION_SKILLS = {"put": {"place"}, "put_away": {"place"}, "put_back": {"place"}, "fetch": {"handover", "place"},
                  "open": {"open"}, "close": {"close"}, "go": {"navigate_to"}}
# verbs of taking hold, which the reader files under fetch: "did you pick up the radio" asks about the pick
_TAKING_VERBS = frozenset({"pick", "grab", "take", "lift", "grasp", "hold"})


def did_you(ctx: Context, action: str) -> Answer:
    """"did you (manage to) put the mug on the shelf?": the latest outcome of that action on those things, yes
    with what was done, or no with what failed and why; confidence 0 when memory has no record of trying."""
    store, world = ctx.store, ctx.world
    ids = [ctx.one(ref)[0].entity.id for ref in ctx.request.objects]
    dest = ctx.request.destination
    if dest is not None:
        g = ctx.ground(dest.ref)
        if g.status == "unique" and g.candidates:
            ids.append(g.candidates[0].entity.id)
    intent, _, verb = action.partition(" ")
    skills = {"pick"} if verb in _TAKING_VERBS else _ACTION_SKILLS.get(intent)
    for ev in store.events(kind="skill", entity_id=ids[0] if ids else None, until_ns=world.as_of_ns, limit=200):
        data = ev.data or {}
        touched = set(data.get("args") or ()) | ({data["target_id"]} if data.get("target_id") else set())
        if (skills is None or data.get("skill") in skills) and ids and set(ids) <= touched:
            yes = bool(data.get("success"))
            why = ctx.request.text.strip().lower().startswith("why")
            lead = ("It did work: " if yes else "It failed: ") if why else ("Yes: " if yes else "No: ")
            return Answer(success=True, answer=lead + ev.text + ".",
                          answer_ids=[ev.id, *ids], evidence_ids=_dedupe([ev.provenance, ev.id]), confidence=1.0)
    said = " and ".join(describe(world, i) for i in ids) or "that"
    return Answer(success=True, answer=f"I have no record of trying that with {said}.", answer_ids=ids,
                  confidence=0.0)


def what_did_you_do(ctx: Context) -> Answer:
    store, world = ctx.store, ctx.world
    action = next((n[len(DID_YOU_NOTE):] for n in ctx.request.notes if n.startswith(DID_YOU_NOTE)), None)
    if action is not None and ctx.request.objects:
        return did_you(ctx, action)
    events = store.events(kind="skill", until_ns=world.as_of_ns, limit=_RECENT_EVENTS)
    if not events:
        return Answer(success=True, answer="I have no record of doing anything yet.", confidence=0.0)
    text = "Most recent first: " + "; ".join(ev.text for ev in events) + "."
    return Answer(success=True, answer=text, answer_ids=[ev.id for ev in events],
                  evidence_ids=_dedupe([ev.provenance for ev in events]), confidence=1.0)
