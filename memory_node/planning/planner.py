"""Action requests ("bring me my mug") turned into open-loop skill plans grounded in memory.

The planner is deliberately a small set of templates (fetch, put, open/close) filled from memory: where
the object was last seen, which containers on the way are closed, who asked. Skills are looked up by
role in the robot's library, so the same code plans for any robot whose library covers the roles, and
every plan passes ``PlanValidator`` before it is returned: a plan that would not run is a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.models import Plan, PlanResult, SkillCall
from ..core.rules import explain_placement_any
from ..core.store import MemoryStore
from .drink import remembered_drink
from .grounding import Grounder
from .phrasing import describe, name_of, step_text
from .resolve import resolve_entities, resolve_rooms, split_hint
from .search import SearchFailed, find_steps, preconditions_hold
from .skills import Skill, SkillLibrary
from .validator import PlanValidator
from .world import WorldState

SUPPORTED_INSTRUCTIONS = ("bring/fetch/get me <object> [to <person or room>]",
                          "make/prepare me a drink | make <person> a drink (robots with a pour skill)",
                          "put/place <object> on/in <receptacle>",
                          "put away / tidy up <object> (where memory learned it goes)",
                          "open <container>", "close <container>")

_POLITE_RE = re.compile(r"^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?")
_BRING_RE = re.compile(r"^(?:bring|fetch|get|grab|hand)\s+(?:me\s+)?(?P<x>.+?)(?:\s+to\s+(?P<who>.+?))?$")
_AWAY_RE = re.compile(r"^(?:(?:put|place)\s+away\s+(?P<a>.+)|(?:put|place)\s+(?P<b>.+?)\s+away|"
                      r"(?:tidy|clean|clear)(?:\s+up|\s+away)?\s+(?P<c>.+))$")
_PUT_RE = re.compile(r"^(?:put|place|move|set)\s+(?P<rest>.+)$")
_DRINK_RE = re.compile(r"^(?:prepare|make|fix|mix|pour)\s+(?:(?:me|us)\s+|(?P<who2>[a-z][a-z0-9_\-]*)\s+)?"
                       r"(?:a|my|the|some|her|his|their|our)?\s*(?:usual\s+)?(?:drink|beverage)"
                       r"(?:\s+for\s+(?P<who>.+))?$")
_OPEN_RE = re.compile(r"^(?P<verb>open|close|shut)\s+(?P<x>.+)$")
_PUT_RELATIONS = {"on": "on", "onto": "on", "in": "in", "into": "in", "inside": "in"}


class PlanningError(Exception):
    """A request memory cannot turn into a plan; the message is the reason given back to the user."""


def plan_request(store: MemoryStore, library: SkillLibrary, instruction: str, robot: str | None = None,
                 as_of_ns: int | None = None, speaker: str = "") -> PlanResult:
    """Plan ``instruction`` for ``robot`` (the library's robot when None) over memory at ``as_of_ns``, for
    ``speaker`` ("" = whoever spoke to the robot last: "my mug" is theirs)."""
    robot = robot or library.robot
    if robot != library.robot:
        return PlanResult(success=False,
                          error=f"robot {robot!r} does not match skill library {library.robot!r}")
    if not instruction or not instruction.strip():
        return PlanResult(success=False, error="empty instruction")
    text = _POLITE_RE.sub("", " ".join(instruction.strip().lower().split())).rstrip(" .!?")
    text = re.sub(r"\s+please$", "", text)
    intents: list[tuple[re.Pattern[str], Callable[[_PlanBuilder, re.Match[str]], None]]] = [
        (_DRINK_RE, _PlanBuilder.prepare_drink),
        (_BRING_RE, _PlanBuilder.bring),
        (_AWAY_RE, lambda b, m: b.put_away(m, store, as_of_ns)),
        (_PUT_RE, _PlanBuilder.put),
        (_OPEN_RE, _PlanBuilder.open_or_close),
    ]
    for pattern, handler in intents:
        m = pattern.match(text)
        if not m:
            continue
        world = WorldState.from_store(store, as_of_ns=as_of_ns, hands=library.hands, speaker=speaker)
        builder = _PlanBuilder(library, world, Plan(robot=robot, instruction=instruction.strip()),
                               Grounder(store, world))
        try:
            handler(builder, m)
        except PlanningError as e:
            return PlanResult(success=False, error=str(e))
        return builder.finish()
    return PlanResult(success=False, error=f"unsupported instruction {instruction.strip()!r}; I can plan: "
                                           f"{'; '.join(SUPPORTED_INSTRUCTIONS)}")


class _PlanBuilder:
    """Appends steps while tracking, in its own copy of the world, what each step changes, so later steps
    are planned from the state the earlier ones leave behind."""

    def __init__(self, library: SkillLibrary, world: WorldState, plan: Plan, grounder: Grounder) -> None:
        self.library = library
        self.grounder = grounder  # phrases -> ids, with what memory was told ("my mug")
        self.world = world  # as memory has it: what the validator checks against
        self.state = world.copy()  # as the plan so far leaves it
        self.plan = plan
        self.notes: list[str] = []
        self.summary = ""

    # ---- intents ---------------------------------------------------------------------------------

    def bring(self, m: re.Match[str]) -> None:
        who = (m.group("who") or "").strip()
        obj = self._resolve(m.group("x"))
        person = self._requester(who)
        if obj not in self.state.holding:
            self._check_fetchable(obj)
        hand_over = preconditions_hold(self._skill("handover"), (obj,))
        there = (lambda s: s.robot_at == person) if person is not None else (lambda s: True)
        self._achieve(lambda s: obj in s.holding and hand_over(s) and there(s), [obj],
                      f"bring {describe(self.world, obj)}", places=(person,) if person else ())
        self._add("handover", obj)
        to = describe(self.world, person) if person else "you"
        self.summary = f"bring {describe(self.world, obj)} {self._where_text(obj)} to {to}"

    def put(self, m: re.Match[str]) -> None:
        obj, relation, target = self._split_put(m.group("rest"))
        if obj == target:
            raise PlanningError("cannot put something on or in itself")
        self._fetch_and_place(obj, relation, target)
        self.summary = (f"put {describe(self.world, obj)} {self._where_text(obj)} {relation} "
                        f"{describe(self.world, target)}")

    def put_away(self, m: re.Match[str], store: MemoryStore, as_of_ns: int | None) -> None:
        """Put an object where people said such things go: its own correction, else its category's rule
        (so a fruit never corrected goes where the other fruits were put). A locked receptacle or one
        memory failed to open is replaced by another of the same kind, or the request is refused."""
        obj = self._resolve(m.group("a") or m.group("b") or m.group("c"))
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
        for cand in candidates:
            if self._why_unopenable(cand):
                self.notes.append(f"{describe(self.world, cand)} cannot be opened (memory says so)")
                continue
            return cand
        raise PlanningError(f"every {phrase} I know is locked or failed to open: "
                            + ", ".join(describe(self.world, c) for c in candidates))

    def prepare_drink(self, m: re.Match[str]) -> None:
        """Pour the person's remembered beverages into their remembered cup, in the remembered order,
        putting each bottle back where it stood. Needs a library with a ``pour`` role (the G1's)."""
        who = (m.group("who") or m.group("who2") or "").strip()
        person = self.grounder.speaker if who in ("", "me", "us") else who.removesuffix("'s")
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

    def open_or_close(self, m: re.Match[str]) -> None:
        opening = m.group("verb") == "open"
        target = self._resolve(m.group("x"))
        states = self.state.states.get(target, set())
        already = "open" in states if opening else "closed" in states
        if already:
            self.summary = f"{describe(self.world, target)} is already {'open' if opening else 'closed'}"
            self.notes.append("nothing to do")
            return
        self._check_openable(self.state.closed_containers(target) + ([target] if opening else []))
        state = "open" if opening else "closed"
        self._achieve(lambda s: state in s.states.get(target, set()), [target],
                      f"{'open' if opening else 'close'} {describe(self.world, target)}")
        self.summary = f"{'open' if opening else 'close'} {describe(self.world, target)}"

    # ---- building blocks -------------------------------------------------------------------------

    def _resolve(self, phrase: str) -> str:
        cands = self.grounder.find(phrase)
        if not cands:
            head, _ = split_hint(phrase)
            raise PlanningError(f"no memory of {' '.join(head) or phrase.strip()}")
        return cands[0].entity.id

    def _split_put(self, rest: str) -> tuple[str, str, str]:
        """"the mug in the kitchen on the table": try each on/in as the split, first one that grounds both
        sides wins (the object phrase may itself carry a location hint)."""
        ws = rest.split()
        for i, w in enumerate(ws):
            if w in _PUT_RELATIONS and 0 < i < len(ws) - 1:
                obj_phrase, target_phrase = " ".join(ws[:i]), " ".join(ws[i + 1:])
                objs = self.grounder.find(obj_phrase)
                targets = self.grounder.find(target_phrase)
                if objs and targets:
                    return objs[0].entity.id, _PUT_RELATIONS[w], targets[0].entity.id
        if not any(w in _PUT_RELATIONS for w in ws):
            raise PlanningError("say where to put it: put <object> on/in <receptacle>")
        raise PlanningError(f"no memory of the object or the receptacle in {rest!r}")

    def _check_fetchable(self, obj: str) -> None:
        """Why ``obj`` cannot be fetched, as the user should hear it (the search would only say "no plan")."""
        ent = self.world.entities[obj]
        if self.world.is_room(obj) or self.world.is_person(obj):
            raise PlanningError(f"{describe(self.world, obj)} is not something I can carry")
        if not ent.present:
            raise PlanningError(f"{describe(self.world, obj)} was not where I last saw it; "
                                "I do not know where it is now")
        if obj not in self.world.locations:
            raise PlanningError(f"I have seen {describe(self.world, obj)} but do not know what it is on "
                                "or in")
        self._check_openable(self.state.closed_containers(obj))

    def _fetch_and_place(self, obj: str, relation: str, target: str) -> None:
        """Pick ``obj`` up and set it on or in ``target``, opening ``target`` first when it goes inside."""
        if obj not in self.state.holding:
            self._check_fetchable(obj)
        into_closed = relation == "in" and "closed" in self.state.states.get(target, set())
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
        if who and who not in ("me", "us"):
            named = [c.entity.id for c in resolve_entities(who, self.world.entities.values())
                     if self.world.is_person(c.entity.id)]
            named += [r.id for r in resolve_rooms(who, self.world.entities.values())]
            if not named:
                raise PlanningError(f"no memory of a person or room called {who}")
            return named[0]
        people = self.world.persons()
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
        return PlanResult(success=True, plan=self.plan)

