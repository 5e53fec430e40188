"""Action requests ("bring me my mug") turned into open-loop skill plans grounded in memory.

The typed request (``language.Request``, from ``requests/dispatch.py``) fixes the goal: fetch, put, put away
or back, open/close, find, go, make a drink; ``search.py`` finds the steps from memory: where the object was
last seen, which containers on the way are closed, who asked. Skills are looked up by
role in the robot's library, so the same code plans for any robot whose library covers the roles, and
every plan passes ``PlanValidator`` before it is returned: a plan that would not run is a refusal.
"""

from __future__ import annotations

import re

from collections.abc import Callable

from ..core.models import Plan, PlanResult, SkillCall
from ..core.rules import explain_placement_any
from ..core.store import MemoryStore
from ..answering.drink import remembered_drink
from ..language.grounding import Grounder
from ..language.confidence import ASK_BELOW
from ..language import lexicon as lx
from ..language.request import CARRYING_INTENTS, Anchor, Intent, ObjectRef, Request
from ..language.resolve import resolve_entities, resolve_rooms, rooms_said
from .affordances import not_graspable
from .closing import close_said
from .going_after import go_said
from ..answering.context import Context, Reply
from ..answering.when import clock
from ..world.phrasing import describe, name_of, step_text
from .poses import locate_steps
from .search import SearchFailed, find_steps, preconditions_hold
from .skills import Skill, SkillLibrary
from .validator import PlanValidator
from ..world.state import WorldState

SUPPORTED_INSTRUCTIONS = ("bring/fetch/get me <object> (also grab, hand, give; several joined by 'and') "
                          "[to <person or room>]",
                          "make/prepare me a drink | make <person> a drink (robots with a pour skill)",
                          "put/place <object> on/in <receptacle>", "put <object> back (where it was)",
                          "put away / tidy up <object> (where memory learned it goes)",
                          "open/close <container>", "find / look for <object>", "go to <place or room>")
# verbs that move a thing somewhere ("bring the radio in the kitchen")
_CARRY_VERB = re.compile(r"\b(?:bring|brings|take|takes|carry|carries|move|moves)\b", re.I)
_PLACE_PHRASE = re.compile(r"\b(?:on|in|into|onto|inside|to|from|off|at|under|behind|beside|near)\s+(?:top\s+of\s+)?"
                           r"(?:the|a|an|my|your|his|her|our|their|this|that)?\s*[a-z]{3,}", re.I)
_BESIDE = frozenset({"next_to", "near", "behind", "in_front_of", "beside", "by"})
_OPEN_HEADS = frozenset({"something", "anything", "stuff", "thing", "things"})  # a thing named by its use only
_NO_PLACE_FOR = frozenset({"under", "above"})  # relations no place skill makes: refused, not turned into "on"
_PUT_RELATIONS = {"on": "on", "in": "in", "next_to": "on", "near": "on",
                  "at": "on", "behind": "on", "in_front_of": "on", "from": "on"}


class PlanningError(Exception):
    """A request memory cannot turn into a plan; the message is the reason given back to the user."""


def new_builder(store: MemoryStore, library: SkillLibrary, ctx: Context, robot: str) -> _PlanBuilder:
    return _PlanBuilder(library, ctx.world, Plan(robot=robot, instruction=ctx.request.text.strip()), ctx.grounder,
                        ctx, store)


class _PlanBuilder:
    """Appends steps while tracking, in its own copy of the world, what each step changes, so later steps
    are planned from the state the earlier ones leave behind."""

    def __init__(self, library: SkillLibrary, world: WorldState, plan: Plan, grounder: Grounder,
                 ctx: Context, store: MemoryStore) -> None:
        self.ctx = ctx
        self.store = store
        self.library = library
        self.grounder = grounder  # phrases -> ids, with what memory was told ("my mug")
        self.world = world  # as memory has it: what the validator checks against
        self.state = world.copy()  # as the plan so far leaves it
        self.plan = plan
        self.notes: list[str] = []
        # why the plan is offered rather than sent (the words asked for what the skills cannot do exactly): the
        # request service says it and waits for a "yes"
        self.offer_why = ""
        self.summary = ""

    # ---- intents ---------------------------------------------------------------------------------

    def _room_filter(self) -> None:
        """A room said with a command that moves nothing there ("find my book in the living room", "open the
        closet in the living room", "go to the chair in the living room") says where the thing is: it
        becomes the object's anchor, so a room that singles one out is always applied (never "which one?")."""
        req = self.ctx.request
        if req.intent not in (Intent.find, Intent.open, Intent.close, Intent.go):
            return
        ents = self.world.entities.values()
        dest = req.destination
        if req.intent != Intent.go and req.objects and req.objects[0].anchor is None and dest is not None and \
                not dest.ref.anchor and resolve_rooms(dest.ref.words(), ents):
            objs = [req.objects[0].model_copy(update={"anchor": dest}), *req.objects[1:]]
            self.ctx.request = req.model_copy(update={"objects": objs, "destination": None})
            return
        ref = dest.ref if req.intent == Intent.go and dest is not None else (req.objects[0] if req.objects else None)
        if ref is None or ref.anchor is not None or resolve_rooms(ref.words(), ents):
            return
        rooms = [r for r in rooms_said(req.text, ents) if not resolve_rooms(ref.words(), [r])]
        if len(rooms) != 1:
            return
        room = rooms[0]
        said = ObjectRef(text=room.name or room.id, head=room.name or room.id)
        anchored = ref.model_copy(update={"anchor": Anchor(relation="in", ref=said)})
        if req.intent == Intent.go and dest is not None:
            self.ctx.request = req.model_copy(update={"destination": dest.model_copy(update={"ref": anchored})})
        else:
            self.ctx.request = req.model_copy(update={"objects": [anchored, *req.objects[1:]]})

    def run(self) -> None:
        """Plan the request's intent (``language.Intent``) from its typed parts, then close what the words said to
        close once it is done (``closing.close_said``) and go where they said to go after (``going_after.go_said``)."""
        self._plan_intent()
        if self.plan.steps and self.ctx.request.close_after and self.ctx.request.intent in CARRYING_INTENTS:
            close_said(self)
        if self.plan.steps and self.ctx.request.go_after is not None and self.ctx.request.intent in CARRYING_INTENTS:
            go_said(self)

    def _plan_intent(self) -> None:
        self._room_filter()
        req = self.ctx.request
        if req.intent is Intent.fetch and req.destination is not None and req.destination.relation != "at" and \
                not req.recipient:
            # a fetch to "in the kitchen" / "on the table" (no one to hand it to) is a put there; planned as a
            # fetch, the place would be dropped and the thing handed to the speaker
            self.ctx.request = req = req.model_copy(update={"intent": Intent.put, "recipient": ""})
        intent = req.intent.value
        if intent == "fetch":
            req = self._room_as_destination(req)
            self.bring(self._objects(), req.recipient or (req.destination.ref.words() if req.destination and
                                                           req.destination.relation == "at" else ""))
        elif intent == "put":
            if req.destination is None:
                raise PlanningError("say where to put it: put <object> on/in <receptacle>")
            rooms = resolve_rooms(req.destination.ref.words(), self.world.entities.values())
            if rooms and not req.destination.ref.anchor:
                self.bring(self._objects(), rooms[0].id)  # "put the lime in the living room": set down there
                return
            if req.destination.ref.head in lx.SPOT_WORDS and not req.destination.ref.of_noun:
                # "put it on the left", "in the bottom": a spot on a thing not said; no thing is called that
                raise PlanningError(f"the {req.destination.ref.head} of what? Say where to put it")
            objs = self._objects(partial=True)  # "put the remote and the lime in the fridge": each in turn
            obj = objs[0]
            target = self._target(req.destination.ref, exclude=obj)
            if target in objs:
                raise PlanningError("cannot put something on or in itself")
            if req.destination.relation in _NO_PLACE_FOR:
                # the skills set a thing on or in something; "under the table" set on it would be the wrong place
                raise PlanningError(f"I can put things on or in a place, not {req.destination.relation} "
                                    f"{describe(self.world, target)}; say where to put it")
            relation = _PUT_RELATIONS.get(req.destination.relation, "on")
            target = self._beside(target, req.destination.relation)
            there = [o for o in objs if self.world.locations.get(o, ("", ""))[1] == target
                     and o not in self.state.holding]
            if there and len(_PLACE_PHRASE.findall(req.text[:500])) > 1:
                # a put onto the thing's own support moves nothing; when the words say another place too, they
                # more likely said where it is ("take the magazine on top of the table and place it in a bin")
                # than where it goes
                raise PlanningError(f"as far as I know {describe(self.world, there[0])} is already "
                                    f"{self.world.locations[there[0]][0].replace('_', ' ')} "
                                    f"{describe(self.world, target)}; where should it go?")
            wheres = [self._where_text(o) for o in objs]
            for o in objs:
                self._fetch_and_place(o, relation, target)
            self.summary = "put " + " and ".join(f"{describe(self.world, o)} {w}" for o, w in zip(objs, wheres)) + \
                f" {relation} {describe(self.world, target)}"
        elif intent == "put_away" and req.destination is not None:
            # "put the apple away in a drawer": the place is said, so it is a put there
            self.ctx.request = req.model_copy(update={"intent": Intent.put})
            self._plan_intent()
        elif intent in ("put_away", "put_back"):
            # "put the lime and the remote away / back": each in turn, each to its own place (the first alone
            # would be a plan for less than was asked, sent as if it were all)
            objs = self._each_object()
            done: list[str] = []
            for obj in objs:
                if intent == "put_back":
                    self.put_back(obj)
                else:
                    why = not_graspable(self.world, obj)
                    if why:  # "tidy up the kitchen table": furniture has no place to go
                        raise PlanningError(f"{describe(self.world, obj)} is not something I can put away: {why}")
                    self.put_away(obj, self.store, self.world.as_of_ns)
                done.append(self.summary)
            self.summary = "; ".join(done)
        elif intent in ("open", "close"):
            done = []
            for target in self._each_object(want="any" if self._indefinite() else None):
                self.open_or_close(target, intent == "open")
                done.append(self.summary)
            self.summary = "; ".join(done)
            if self.plan.steps and "nothing to do" in self.notes:
                self.notes.remove("nothing to do")  # one of them was already so; the others are done
        elif intent == "drink" and self.library.by_role("pour") is None and not req.objects and _asks_for_drink(req.text):
            # "I'm gasping for a drink" to a robot that cannot pour: a drink it can carry, brought
            self.ctx.request = req.model_copy(update={
                "intent": Intent.fetch, "recipient": req.recipient or "speaker",
                "objects": [ObjectRef(text=lx.need_text("drink"), head="something", purpose="drink")]})
            self.notes.append(f"robot {self.library.robot} cannot pour: bringing something to drink")
            self._plan_intent()
        elif intent == "drink":
            self.prepare_drink(req.recipient)
        elif intent == "find":
            done = []
            for obj in self._each_object(want="any" if self._indefinite() else None):
                self.find(obj)
                done.append(self.summary)
            self.summary = "; then ".join(done)
        elif intent == "go":
            self.go()
        else:
            raise PlanningError(f"I cannot plan {intent!r}")

    def _indefinite(self) -> bool:
        objs = self.ctx.request.objects
        return bool(objs) and objs[0].determiner in ("a", "any", "some")

    def _room_as_destination(self, req: Request) -> Request:
        """"Bring the radio in the kitchen" with nobody to bring it to and no radio in the kitchen: the room is
        where it goes (many learners of English say "in" for "into"). With a radio there, the room says which
        one, as before; with none anywhere, the grounding's "not seen" stands."""
        ref = req.objects[0] if len(req.objects) == 1 else None
        a = ref.anchor if ref is not None else None
        if ref is None or a is None or a.relation != "in" or a.ref.anchor is not None or req.recipient or \
                req.destination is not None or not _CARRY_VERB.search(req.text[:500]):
            return req
        rooms = resolve_rooms(a.ref.words(), self.world.entities.values())
        bare = ref.model_copy(update={"anchor": None})
        if not rooms or self.ctx.ground(ref, "all").status != "none" or self.ctx.ground(bare, "all").status == "none":
            return req
        self.ctx.request = req = req.model_copy(update={"objects": [bare], "recipient": rooms[0].id})
        return req

    def _objects(self, partial: bool = False) -> list[str]:
        """The ids of the things to fetch, in the order said (each grounded; several for "X and Y" or "two
        apples"). With ``partial``, fewer than the number said are taken, with a note ("put two magazines on the
        table" when memory knows one: that one is put there, and the reply says so)."""
        if self.ctx.request.either:
            return [self._either_id()]
        out: list[str] = []
        said: list[ObjectRef] = []
        for ref in self.ctx.request.objects:
            if ref.head in _OPEN_HEADS and any(p.head in _OPEN_HEADS or ref.purpose and p.purpose == ref.purpose
                                               for p in said):
                continue  # "the stuff you drink, something to drink": one open thing said again
            said.append(ref)
            n = ref.quantity or 1
            if n > 1 or (ref.plural and ref.determiner in ("all", "both", "every")):
                cands = [c for c in self.ctx.all(ref) if c.entity.present and c.entity.id not in out]
                take = cands[: max(n, 1) if ref.quantity else len(cands)]
                if ref.quantity and len(take) < ref.quantity:
                    if not (partial and take):
                        raise PlanningError(f"I know only {len(cands)} {ref.noun()}, not {ref.quantity}")
                    self.notes.append(f"I know only {len(cands)} {ref.noun()}, not {ref.quantity}: "
                                      f"{'that one' if len(take) == 1 else 'those'} only")
                out += [c.entity.id for c in take]
            else:
                want = "any" if ref.determiner in ("a", "any", "some") or ref.purpose else None
                got = self._pick_id(ref, want)
                if got not in out:  # "the stuff you drink, something to drink": one thing said twice
                    out.append(got)
        if not out:
            raise PlanningError("I did not catch what to bring")
        return out

    def _pick_id(self, ref: ObjectRef, want: str | None = None) -> str:
        if _open_thing(ref):
            # "bring me something": any thing at all would be a guess at what is wanted, and carrying the
            # wrong thing is worse than one question
            raise PlanningError("what would you like? Name the thing, or say what it is for")
        try:
            cands = self.ctx.one(ref, want)  # type: ignore[arg-type]
        except Reply as r:
            raise PlanningError(r.answer.answer.rstrip(".")) from None
        if want == "any" and ref.purpose and len(cands) > 1:
            # "something to eat": any one that serves will do, so one the robot can carry (a slice of bread
            # in the toaster is not): the best of those, else the best (whose refusal then says why)
            carriable = [c for c in cands if not not_graspable(self.world, c.entity.id) and c.entity.present]
            cands = carriable or cands
        return cands[0].entity.id

    def _object_id(self, want: str | None = None) -> str:
        objs = self.ctx.request.objects
        if not objs:
            raise PlanningError("I did not catch which object you mean")
        if self.ctx.request.either:
            return self._either_id(want)
        return self._pick_id(objs[0], want)

    def _each_object(self, want: str | None = None) -> list[str]:
        """The things a task on things one at a time is for: each of "the fridge and the microwave" in the order
        said (the first alone would be a plan for less than was asked, sent as if it were all); one of them when
        they were said as alternatives."""
        req = self.ctx.request
        if len(req.objects) < 2 and any((r.quantity or 1) > 1 or r.plural and r.determiner in ("all", "both", "every")
                                        for r in req.objects):
            return self._objects()  # "put both mugs back": each; "the two mugs" when memory knows one is refused
        out = [self._object_id(want)]
        if req.either:
            return out
        for ref in req.objects[1:]:
            if _open_thing(ref) or self.ctx.ground(ref, "all").status == "none":
                # a word the reading took for another thing that memory knows nothing by ("put it away so mummy
                # isn't cross", "put it back same place as before"): the task is the first thing's, as said
                continue
            got = self._pick_id(ref, want or ("any" if ref.determiner in ("a", "any", "some") else None))
            if got not in out:
                out.append(got)
        return out

    def _either_id(self, want: str | None = None) -> str:
        """"The remote or the keyboard": the first of the things said that memory singles out, with a note of
        the choice; when none is, the first one's reason (which one? never seen?) is the reply."""
        objs = self.ctx.request.objects
        first: PlanningError | None = None
        for ref in objs:
            try:
                got = self._pick_id(ref, want if want else "any" if ref.determiner in ("a", "any", "some") else None)
            except PlanningError as e:
                first = first or e
                continue
            if len(objs) > 1:
                self.notes.append(f"you said {' or '.join(o.noun() for o in objs)}: {describe(self.world, got)}")
            return got
        assert first is not None
        raise first

    def _target(self, ref: ObjectRef, exclude: str = "") -> str:
        """A receptacle or place said generically ("the table", "a shelf"): any usable one will do, the
        nearest to the object first."""
        want = "any" if ref.determiner in ("a", "any", "some", "") or ref.plural else None
        try:
            cands = [c for c in self.ctx.one(ref, want) if c.entity.id != exclude]  # type: ignore[arg-type]
        except Reply as r:
            g = self.ctx.ground(ref, "all")
            # any one will do, of those the phrase surely names: a guess ("the dining table" as a table lamp,
            # by similarity) is asked about, not placed on
            cands = [c for c in g.candidates if self.ctx.sure_of(g, c) >= ASK_BELOW] \
                if g.status in ("ambiguous", "all") else []
            if not cands:
                raise PlanningError(r.answer.answer.rstrip(".")) from None
        if not cands:
            raise PlanningError(f"I know no other {ref.noun()}")
        holder = self.world.locations.get(exclude, ("", ""))[1] if exclude else ""
        if len(cands) > 1 and any(c.entity.id == holder for c in cands):
            # of several, not the one it is on now: "put the lime on the table" asks for a move
            cands = [c for c in cands if c.entity.id != holder]
        room = self.world.room_of(exclude) if exclude else None
        cands.sort(key=lambda c: (bool(self._why_unopenable(c.entity.id)), room is not None and
                                  self.world.room_of(c.entity.id) != room))
        return cands[0].entity.id

    def bring(self, objs: list[str], who: str) -> None:
        person = self._requester("" if who in ("speaker", "me", "us") else who)
        if len(objs) > self.library.hands:
            raise PlanningError(f"I can carry {self.library.hands} things at once, not {len(objs)}")
        for obj in objs:
            if obj not in self.state.holding:
                self._check_fetchable(obj)
        hand_over = preconditions_hold(self._skill("handover"), (objs[0],))
        there = (lambda s: s.robot_at == person) if person is not None else (lambda s: True)
        for i, obj in enumerate(objs):
            last = i == len(objs) - 1
            self._achieve(lambda s, o=obj: o in s.holding and (not last or (hand_over(s) and there(s))), [obj],
                          f"bring {describe(self.world, obj)}", places=(person,) if person and last else ())
        surface = self._surface_in(person) if person is not None and self.world.is_room(person) else None
        for obj in objs:
            if surface is not None:
                self._achieve(preconditions_hold(self._skill("place"), (obj, surface)), [obj, surface],
                              f"set {describe(self.world, obj)} down in {describe(self.world, person)}")
                self._add("place", obj, surface)
            else:
                self._add("handover", obj)
        to = describe(self.world, person) if person else "you"
        if surface is not None:
            to += f", set down on {describe(self.world, surface)}"
        things = " and ".join(f"{describe(self.world, o)} {self._where_text(o)}".strip() for o in objs)
        self.summary = f"bring {things} to {to}"

    def _surface_in(self, room: str) -> str | None:
        """A place to set things down in a room ("take the radio to the kitchen"): a free surface memory
        saw there, tables and counters first; None when memory knows none (then it is handed over)."""
        surfaces = [e for e in self.world.entities.values() if e.present and self.world.room_of(e.id) == room
                    and e.id != room and (e.attributes.get("surface") == "true") and not self._why_unopenable(e.id)]
        if not surfaces:
            return None
        rank = ("table", "counter", "desk", "shelf")
        surfaces.sort(key=lambda e: (next((i for i, w in enumerate(rank) if w in e.label), len(rank)), e.id))
        return surfaces[0].id

    def put_back(self, obj: str) -> None:
        """"put the mug back (where it was)": to the place memory saw it before its current one."""
        from ..language.request import TimeRef
        from ..answering.questions import moment_of
        ent = self.world.entities[obj]
        as_of, _, missing = moment_of(self.ctx, ent, TimeRef(moment="previous"))
        if as_of is None:
            raise PlanningError(missing or f"I do not know where {describe(self.world, obj)} was before")
        then = WorldState.from_store(self.store, as_of_ns=as_of)
        before = then.locations.get(obj)
        if before is None or before[1] not in self.world.entities or self.world.is_room(before[1]):
            raise PlanningError(f"I do not know where {describe(self.world, obj)} was before")
        relation = "in" if before[0] == "in" else "on"
        self._fetch_and_place(obj, relation, before[1])
        self.summary = (f"put {describe(self.world, obj)} back {relation} {describe(self.world, before[1])}, "
                        f"where it was at {clock(as_of)}")

    def find(self, obj: str) -> None:
        """"find my keys", "look for the remote": go to where memory last saw it (its furniture)."""
        ent = self.world.entities[obj]
        loc = self.world.locations.get(obj)
        where = self.world.furniture(obj) or (loc[1] if loc else None) or self.world.room_of(obj)
        if where is None:
            raise PlanningError(f"I have seen {describe(self.world, obj)} but do not know where it is")
        last = self.plan.steps[-1] if self.plan.steps else None
        if last is None or last.skill != self._skill("navigate").name or list(last.args) != [where]:
            self._add("navigate", where)  # ("find the lime and the remote", both on the table: one trip)
        seen = "last saw it" if ent.present else "last saw it (it was gone when I looked again)"
        self.summary = f"go to {describe(self.world, where)}, where I {seen}: {describe(self.world, obj)}"

    def go(self) -> None:
        """"go to the kitchen", "head over to the sofa": a room or a piece of furniture memory knows."""
        req = self.ctx.request
        ref = req.destination.ref if req.destination is not None else (req.objects[0] if req.objects else None)
        if ref is None:
            raise PlanningError("where to? Name a room or a place")
        target = self.place_to_go(ref)
        self._add("navigate", target)
        self.summary = f"go to {describe(self.world, target)}"

    def place_to_go(self, ref: ObjectRef) -> str:
        """The id of a room or a piece of furniture a go names (``go``, and a go said after the task:
        ``going_after``)."""
        rooms = resolve_rooms(ref.words(), self.world.entities.values()) or \
            resolve_rooms(ref.noun(), self.world.entities.values())
        if rooms:
            return rooms[0].id
        return self._pick_id(ref, "any" if ref.determiner in ("a", "any") else None)

    def put_away(self, obj: str, store: MemoryStore, as_of_ns: int | None) -> None:
        """Put an object where people said such things go: its own correction, else its category's rule
        (so a fruit never corrected goes where the other fruits were put). A locked receptacle or one
        memory failed to open is replaced by another of the same kind, or the request is refused."""
        ent = self.world.entities[obj]
        label = ent.label
        # the name keeps word boundaries the normalised label lost ("toy hammer" vs "toyhammer"), which the
        # category map needs; the label is the fallback
        answer = explain_placement_any(store, (ent.name, label), as_of_ns=as_of_ns)
        if answer is None:
            raise PlanningError(f"I have not learned where {describe(self.world, obj)} goes; "
                                f"tell me, e.g. 'put the {label} in the drawer'")
        target = self._usable_receptacle(answer.receptacle_id, answer.receptacle, obj)
        for ev in answer.support_event_ids:
            if ev not in self.plan.evidence_ids:
                self.plan.evidence_ids.append(ev)
        relation = "in" if answer.predicate == "in" else "on"
        self._fetch_and_place(obj, relation, target)
        why = (f"you said so about {answer.label}" if answer.source == "fact" else
               f"I was not told about it, but it is most like {answer.category_name.removeprefix('things like ')}, "
               f"which went {answer.predicate} the {answer.receptacle} ({len(answer.support_event_ids)} "
               f"corrections, confidence {answer.confidence:.2f})" if answer.source == "similar" else
               f"{answer.category_name} go {answer.predicate} the {answer.receptacle}, learned from "
               f"{len(answer.support_event_ids)} corrections (confidence {answer.confidence:.2f})")
        self.summary = (f"put {describe(self.world, obj)} away {relation} {describe(self.world, target)}: {why}")

    def _usable_receptacle(self, receptacle_id: str, phrase: str, obj: str) -> str:
        """The receptacle a rule names, or another of its kind when memory says that one cannot be used."""
        candidates = [receptacle_id] if receptacle_id in self.world.entities else []
        candidates += [c.entity.id for c in resolve_entities(phrase, self.world.entities.values())
                       if c.entity.id not in candidates and c.entity.id != obj]
        if not candidates:
            raise PlanningError(f"memory says it goes {phrase!r} but I know no {phrase}")
        place = self._skill("place").name
        for cand in candidates:
            if self._why_unopenable(cand):
                self.notes.append(f"{describe(self.world, cand)} cannot be opened (memory says so)")
                continue
            failed = self.state.known_failure(place, [obj, cand])
            if failed is not None:  # a shelf out of reach: putting it there would repeat that
                self.notes.append(f"{describe(self.world, cand)}: {failed.reason()}")
                continue
            return cand
        raise PlanningError(f"every {phrase} I know is locked, failed to open or could not be placed on: "
                            + ", ".join(describe(self.world, c) for c in candidates))

    def prepare_drink(self, who: str) -> None:
        """Pour the person's remembered beverages into their remembered cup, in the remembered order,
        putting each bottle back where it stood. Needs a library with a ``pour`` role (the G1's)."""
        person = self.grounder.speaker if who in ("", "me", "us", "speaker") else who.removesuffix("'s")
        pour, place = self._skill("pour"), self._skill("place")
        drink = remembered_drink(self.grounder, person)
        if not drink.beverages:
            raise PlanningError(f"I do not know what {person} drinks: show me once, or tell me "
                                "(e.g. 'I prefer orange juice')")
        if not drink.cup:
            raise PlanningError(f"I do not know which cup is {person}'s: tell me (e.g. 'my cup is the red one')")
        cup = drink.cup
        self._check_openable(self.state.closed_containers(cup))
        for bev in drink.beverages:
            self._check_fetchable(bev)
            home = self.state.locations.get(bev)
            self._achieve(preconditions_hold(pour, (bev, cup)), [bev, cup], f"pour {describe(self.world, bev)}")
            self._add("pour", bev, cup, skill=pour)
            if home is not None and home[1] != cup:
                self._achieve(preconditions_hold(place, (bev, home[1])), [bev, home[1]],
                              f"put {describe(self.world, bev)} back")
                self._add("place", bev, home[1], skill=place,
                          text=f"put {describe(self.world, bev)} back {home[0]} {describe(self.world, home[1])}")
        for ev in drink.evidence_ids:
            if ev not in self.plan.evidence_ids:
                self.plan.evidence_ids.append(ev)
        poured = " then ".join(describe(self.world, b) for b in drink.beverages)
        self.summary = f"{person}'s drink: {poured} into {describe(self.world, cup)} ({'; '.join(drink.sources)})"

    def open_or_close(self, target: str, opening: bool) -> None:
        states = self.state.states.get(target, set())
        already = "open" in states if opening else "closed" in states
        if already:
            self.summary = f"{describe(self.world, target)} is already {'open' if opening else 'closed'}"
            if "nothing to do" not in self.notes:
                self.notes.append("nothing to do")
            return
        self._check_openable(self.state.closed_containers(target) + ([target] if opening else []))
        state = "open" if opening else "closed"
        self._achieve(lambda s: state in s.states.get(target, set()), [target],
                      f"{'open' if opening else 'close'} {describe(self.world, target)}")
        self.summary = f"{'open' if opening else 'close'} {describe(self.world, target)}"

    # ---- building blocks -------------------------------------------------------------------------

    def _check_fetchable(self, obj: str) -> None:
        """Why ``obj`` cannot be fetched, as the user should hear it (the search would only say "no plan")."""
        ent = self.world.entities[obj]
        why = not_graspable(self.world, obj)
        if why:
            raise PlanningError(f"{describe(self.world, obj)} is not something I can pick up: {why}")
        if not ent.present:
            raise PlanningError(f"{describe(self.world, obj)} was not where I last saw it; "
                                "I do not know where it is now")
        if obj not in self.world.locations:
            if ent.position is None:
                raise PlanningError(f"I have seen {describe(self.world, obj)} but do not know what it is on "
                                    "or in, nor where it stands")
            # memory has its position but not its support: drive to the thing itself (the navigate skill
            # takes an entity, whose last seen position the controller reads) and pick it from there
            p = ent.position
            self.notes.append(f"I do not know what {describe(self.world, obj)} is on; going to where I saw it "
                              f"({p.x:.2f}, {p.y:.2f}, {p.z:.2f})")
        self._check_openable(self.state.closed_containers(obj))

    def _fetch_and_place(self, obj: str, relation: str, target: str) -> None:
        """Pick ``obj`` up and set it on or in ``target``, opening ``target`` first when it goes inside."""
        if obj not in self.state.holding:
            self._check_fetchable(obj)
        into_closed = relation == "in" and self.state.shut(target)
        self._check_openable(self.state.closed_containers(target) + ([target] if into_closed else []))
        place = self._skill("place")
        ready = preconditions_hold(place, (obj, target))
        goal = (lambda s: ready(s) and "open" in s.states.get(target, set())) if into_closed else ready
        self._achieve(goal, [obj, target], f"place {describe(self.world, obj)} {relation} "
                                           f"{describe(self.world, target)}")
        self._add("place", obj, target,
                  text=f"place {describe(self.world, obj)} {relation} {describe(self.world, target)}")

    def _achieve(self, goal: Callable[[WorldState], bool], targets: list[str], what: str,
                 places: tuple[str, ...] = ()) -> None:
        """Append the shortest skill sequence (``search.find_steps``) after which ``goal`` holds. The search
        may act on the targets and the containers around them, and go to their furniture and ``places``."""
        objects = list(targets)
        for t in targets:
            objects += [c for c in self.state.chain(t) if not self.state.is_room(c)]
        # furniture first: breadth-first search takes the first of equally short plans, and standing at the
        # furniture is how the shipped libraries reach things; a library may want the thing itself
        spots = [f for f in (self.state.furniture(t) for t in targets) if f] + list(places) + \
            [t for t in targets if not self.state.is_room(t) and t not in self.state.holding]
        try:
            steps, _ = find_steps(self.library, self.state, goal, objects, spots)
        except SearchFailed as e:
            why = str(e)
            if len(self.state.holding) >= self.library.hands:
                # the search never sets down what the robot already carries: that would move someone's
                # things without being asked
                why = f"my hands are full ({', '.join(describe(self.world, h) for h in sorted(self.state.holding))})"
            raise PlanningError(f"cannot {what}: {why}") from None
        for step in steps:
            self._add(step.skill.role, *step.args, skill=step.skill)

    def _check_openable(self, containers: list[str]) -> None:
        """Refuse, with the reason, when a container that must be opened is locked or failed to open."""
        self._skill("open")  # a robot without an open skill is refused here, whatever it fetches
        for container in containers:
            why = self._why_unopenable(container)
            if why:
                raise PlanningError(why)

    def _why_unopenable(self, container: str) -> str:
        """Why memory says ``container`` cannot be opened ("" when nothing says so): locked, or opening it
        failed before."""
        open_skill = self._skill("open").name
        if "locked" in self.state.states.get(container, set()):
            return f"{describe(self.world, container)} is locked"
        failure = self.state.known_failure(open_skill, [container])
        return f"cannot open {describe(self.world, container)}: {failure.reason()}" if failure else ""

    def _requester(self, who: str) -> str | None:
        """Whom to hand it to: the named person (or room), else the most recently seen person, else the
        robot's room; None (handover where the robot stands) when memory knows neither."""
        if who and who in self.world.entities and (self.world.is_room(who) or self.world.is_person(who)):
            return who
        if who and who not in ("me", "us"):
            named = self.grounder.people_called(who)
            named += [r.id for r in resolve_rooms(who, self.world.entities.values())]
            if not named:
                raise PlanningError(f"no memory of a person or room called {who}")
            return named[0]
        people = self.world.persons()
        speaker = self.grounder.speaker.lower()
        asker = [p for p in people if speaker and speaker in (p.id.lower(), p.name.lower())]
        if asker:
            return asker[0].id  # "bring me" is for whoever asked
        if people:
            return people[0].id
        room = self.world.robot_room
        if room and self.world.known(room):
            self.notes.append(f"no person in memory, handing over in {describe(self.world, room)}")
            return room
        self.notes.append("no person or robot room in memory, handing over where the robot stands")
        return None

    def _skill(self, role: str) -> Skill:
        skill = self.library.by_role(role)
        if skill is None:
            raise PlanningError(f"robot {self.library.robot} has no {role} skill")
        return skill

    def _add(self, role: str, *args: str, text: str = "", skill: Skill | None = None) -> None:
        skill = skill or self._skill(role)
        if len(args) != len(skill.args):
            raise PlanningError(f"the {role} step needs {len(args)} argument(s) but {self.library.robot}'s "
                                f"{skill.signature()} takes {len(skill.args)}")
        self.plan.steps.append(SkillCall(skill=skill.name, args=list(args),
                                         text=text or step_text(self.world, role, args)))
        binding = skill.bind(args)
        for eff in skill.effects:
            self.state.apply(eff, binding)
        self._cite(args)

    def _cite(self, ids: tuple[str, ...]) -> None:
        """Evidence: the observations that said where each argument is and what state it is in."""
        for ent_id in ids:
            ent = self.world.entities.get(ent_id)
            if ent is None:
                continue
            for chain_id in [ent_id, *self.world.chain(ent_id)]:
                prov = self.world.location_provenance.get(chain_id, "")
                if prov and prov not in self.plan.evidence_ids:
                    self.plan.evidence_ids.append(prov)
            if ent.provenance and ent.provenance not in self.plan.evidence_ids:
                self.plan.evidence_ids.append(ent.provenance)

    def _beside(self, target: str, relation: str) -> str:
        """Where to set a thing down "next to the mug": on what the mug stands on (a mug is no surface; a
        put onto it would balance one thing on another). Furniture and rooms are their own place."""
        if relation not in _BESIDE or self.world.is_room(target):
            return target
        if not_graspable(self.world, target):
            # "next to the bed": no skill sets a thing down beside furniture; on it is the nearest the robot can
            # do, and the speaker did not ask for that, so it is offered
            self.offer_why = (f"I can set things on or in a place, not {relation.replace('_', ' ')} it, so the "
                              f"nearest I can do is on {describe(self.world, target)}.")
            return target
        support = self.world.locations.get(target, ("", ""))[1]
        if not support:
            raise PlanningError(f"I know {describe(self.world, target)} but not what it stands on; say where to put it")
        self.notes.append(f"next to {describe(self.world, target)}: on {describe(self.world, support)}")
        return support

    def _where_text(self, obj: str) -> str:
        loc = self.world.locations.get(obj)
        if loc is None:
            return ""
        pred, target = loc
        if pred == "held_by":
            return "(already in hand)"
        closed = ", closed" if "closed" in self.world.states.get(target, set()) else ""
        return f"from the {name_of(self.world, target)} ({target}{closed})"

    def finish(self) -> PlanResult:
        problems = PlanValidator(self.library).validate(self.plan, self.world)
        if problems:
            return PlanResult(success=False, error="plan failed validation: " + "; ".join(problems))
        self.plan.explanation = "; ".join(part for part in [self.summary, *self.notes] if part)
        return PlanResult(success=True, plan=locate_steps(self.plan, self.world, self.library))


_OPEN_WORDS = frozenset({"something", "anything", "thing", "things", "stuff", "object", "item", "one"})


def _open_thing(ref: ObjectRef) -> bool:
    """A thing said with nothing that picks it out: no kind, use, description, owner or earlier referent
    ("something", "an item", "anything from the kitchen": a place narrows it, but does not say what)."""
    return ref.head in _OPEN_WORDS and not (ref.purpose or ref.modifiers or ref.compound or ref.owner or
                                            ref.pronoun or ref.of_noun)


def _asks_for_drink(text: str) -> bool:
    """The words ask for a drink ("I'm gasping for a drink", "I'm parched"), not only a reading of the model."""
    words = set(re.findall(r"[a-z]+", (text or "").lower()))
    return bool(words & {"drink", "drinks", "beverage", "thirst", "thirsty"} or
                any(lx.NEED_STATES.get(w) == "drink" for w in words))
