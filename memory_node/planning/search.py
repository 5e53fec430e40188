"""Breadth-first search over a robot's skill library, from memory's state to a state where a goal holds.

The request decides *what* must become true (the mug in the person's hands, the apple on the plate, the
cabinet open); this search decides *how*, from the library's own preconditions and effects: which
places to go to, which containers to open on the way, in which order. Nothing here names a skill: any
library whose literals express the goal is planned for. The search only grounds skills over the handful
of entities a request touches (the objects, their containers and furniture, the person), so it stays in
the millisecond range; breadth-first order gives the shortest plan, and skill calls memory recorded as
failed are never generated.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import product

from .skills import Skill, SkillLibrary
from .affordances import not_graspable
from ..world.state import WorldState

# Roles whose effects end a task rather than lead towards one; the planner appends them explicitly.
FINAL_ROLES = frozenset({"handover", "pour"})
MAX_DEPTH = 12
MAX_NODES = 20_000


@dataclass(frozen=True)
class Step:
    skill: Skill
    args: tuple[str, ...]


class SearchFailed(Exception):
    """No sequence of skills within the bounds reaches the goal."""


def _is_container(world: WorldState, ent_id: str) -> bool:
    ent = world.entities.get(ent_id)
    states = world.states.get(ent_id, set())
    return bool(states & {"open", "closed", "locked"}) or (ent is not None and "openable" in ent.attributes)


def _domain(kind: str, world: WorldState, objects: list[str], places: list[str]) -> list[str]:
    """Values an argument of this type may take in this search."""
    if kind == "place":
        return places
    if kind == "person":
        return [p for p in places if world.is_person(p)]
    things = [o for o in objects if not world.is_room(o) and not world.is_person(o)]
    if kind == "container":
        return [o for o in things if _is_container(world, o)]
    if kind == "object":
        return [o for o in things if not not_graspable(world, o)]
    return things


def ground_actions(library: SkillLibrary, world: WorldState, objects: Iterable[str],
                   places: Iterable[str]) -> list[Step]:
    """Every call of a non-final skill over the request's entities that memory has not seen fail."""
    objs, where = list(dict.fromkeys(objects)), list(dict.fromkeys(places))
    steps = []
    for skill in library.skills:
        if skill.role in FINAL_ROLES:
            continue
        domains = [_domain(a.type, world, objs, where) for a in skill.args]
        for args in product(*domains):
            if len(set(args)) < len(args):
                continue  # placing a thing on itself, etc.
            if world.known_failure(skill.name, args) is None:
                steps.append(Step(skill, tuple(args)))
    return steps


def _applicable(state: WorldState, step: Step) -> dict[str, str] | None:
    binding = step.skill.bind(step.args)
    return binding if all(state.holds(p, binding) for p in step.skill.preconditions) else None


def _key(state: WorldState, objects: tuple[str, ...]) -> tuple:
    return (state.robot_at, frozenset(state.holding), tuple(state.locations.get(o) for o in objects),
            tuple(frozenset(state.states.get(o, ())) for o in objects))


def find_steps(library: SkillLibrary, start: WorldState, goal: Callable[[WorldState], bool],
               objects: Iterable[str], places: Iterable[str], max_depth: int = MAX_DEPTH,
               max_nodes: int = MAX_NODES) -> tuple[list[Step], WorldState]:
    """The shortest skill sequence from ``start`` to a state where ``goal`` holds, and that state.

    ``objects`` are the entities steps may act on, ``places`` where the robot may go. Raises
    ``SearchFailed`` when no sequence of at most ``max_depth`` steps exists (or the search expands more
    than ``max_nodes`` states, which a request over a few entities never does)."""
    if goal(start):
        return [], start
    objs = tuple(dict.fromkeys(objects))
    actions = ground_actions(library, start, objs, places)
    seen = {_key(start, objs)}
    frontier: deque[tuple[WorldState, tuple[Step, ...]]] = deque([(start, ())])
    expanded = 0
    while frontier:
        state, path = frontier.popleft()
        if len(path) >= max_depth:
            continue
        expanded += 1
        if expanded > max_nodes:
            break
        for step, nxt in _successors(state, actions):
            k = _key(nxt, objs)
            if k in seen:
                continue
            seen.add(k)
            new_path = (*path, step)
            if goal(nxt):
                return list(new_path), nxt
            frontier.append((nxt, new_path))
    raise SearchFailed(f"no sequence of up to {max_depth} skills reaches the goal "
                       f"({expanded} states searched)")


def _successors(state: WorldState, actions: list[Step]) -> Iterator[tuple[Step, WorldState]]:
    for step in actions:
        binding = _applicable(state, step)
        if binding is None:
            continue
        nxt = state.copy()
        for eff in step.skill.effects:
            nxt.apply(eff, binding)
        yield step, nxt


def preconditions_hold(skill: Skill, args: tuple[str, ...] | list[str]) -> Callable[[WorldState], bool]:
    """Goal: ``skill(*args)`` can run (what the planner then appends as the final step)."""
    binding = skill.bind(args)
    return lambda s: all(s.holds(p, binding) for p in skill.preconditions)
