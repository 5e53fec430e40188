"""What goes into a person's drink, and in what order, as memory recorded it.

"Make me a drink" only means something to a robot that remembers the person: which cup is theirs and what
they pour into it, in which order. Two sources, best first:

* what the person was seen doing: ``activity`` events whose verb is a pour ("alice: pour juice_1 into
  cup_2"), the latest session of them (events close together in time) in time order;
* what the person said: a preference for a beverage ("I prefer orange juice") and possession or
  preference facts for the cup ("my cup is the red one", "I prefer the blue mug").

Each part cites the events it rests on; a part memory has no evidence for makes the request a refusal
that says what to tell the robot, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.categories import default_map
from ..core.models import ActivityObservation
from ..core.rules import facts
from ..core.text import stem
from ..language.grounding import Grounder

DRINKWARE = "drinkware"
BEVERAGE = "beverage"
SESSION_GAP_NS = 15 * 60 * 10**9  # pours further apart than this were different drinks
_POUR_VERBS = frozenset({"pour", "add", "fill", "top"})


@dataclass
class Drink:
    person: str
    cup: str = ""
    beverages: list[str] = field(default_factory=list)
    evidence_ids: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # one line per part, for the plan's explanation

    def cite(self, *ids: str) -> None:
        for i in ids:
            if i and i not in self.evidence_ids:
                self.evidence_ids.append(i)


def remembered_drink(grounder: Grounder, person: str) -> Drink:
    """The person's cup and beverages (entity ids, pour order) as far as memory knows them."""
    drink = Drink(person=person)
    _from_pours(grounder, drink)
    if not drink.beverages:
        _from_preferences(grounder, drink)
    if not drink.cup:
        _cup_from_facts(grounder, drink)
    return drink


def _entity(grounder: Grounder, ref: str) -> str:
    """An activity names things by id or by phrase; either way, the entity memory has for it."""
    if ref in grounder.world.entities:
        return ref
    found = grounder.find(ref)
    return found[0].entity.id if found else ""


def _from_pours(grounder: Grounder, drink: Drink) -> None:
    pours = []
    for ev in grounder.store.events(kind="activity", until_ns=grounder.world.as_of_ns, limit=500):
        act = ActivityObservation.model_validate(ev.data)
        if act.actor == drink.person and stem(act.verb.split("-")[0]) in _POUR_VERBS and act.objects:
            pours.append((ev, act))
    if not pours:
        return
    session = [pours[0]]  # newest first: walk back while the pours are close together
    for ev, act in pours[1:]:
        if session[-1][0].stamp_ns - ev.stamp_ns > SESSION_GAP_NS:
            break
        session.append((ev, act))
    for ev, act in reversed(session):
        what = _entity(grounder, act.objects[0])
        if what and what not in drink.beverages:
            drink.beverages.append(what)
            drink.cite(ev.id)
        if len(act.objects) > 1 and not drink.cup:
            drink.cup = _entity(grounder, act.objects[1])
    if drink.beverages:
        drink.sources.append(f"{drink.person} was seen pouring "
                             + " then ".join(drink.beverages) + (f" into {drink.cup}" if drink.cup else ""))


def _from_preferences(grounder: Grounder, drink: Drink) -> None:
    cmap = default_map()
    for fact in facts(grounder.store, kind="preference", owner=drink.person, as_of_ns=grounder.world.as_of_ns):
        if fact.negated or BEVERAGE not in cmap.chain(fact.subject):
            continue
        what = _entity(grounder, f"{fact.target} {fact.subject}".strip())
        if what:
            drink.beverages.append(what)
            drink.cite(fact.event_id)
            drink.sources.append(f"{drink.person} said they prefer {fact.target} {fact.subject}".replace("  ", " "))
            return


def _cup_from_facts(grounder: Grounder, drink: Drink) -> None:
    cmap = default_map()
    for kind in ("possession", "preference"):
        for fact in facts(grounder.store, kind=kind, owner=drink.person, as_of_ns=grounder.world.as_of_ns):
            if fact.negated or DRINKWARE not in cmap.chain(fact.subject):
                continue
            cup = fact.target_id if fact.target_id in grounder.world.entities else \
                _entity(grounder, f"{fact.target} {fact.subject}".strip())
            if cup:
                drink.cup = cup
                drink.cite(fact.event_id)
                drink.sources.append(f"{fact.text()}")
                return
