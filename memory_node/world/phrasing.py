"""Wording shared by answers, plan steps and explanations, so a thing is named the same way everywhere:
by what a person would call it, followed by the memory id a client can act on."""

from __future__ import annotations

import re

from .state import WorldState

_RELATION_WORDS = {"on": "on", "in": "in", "held_by": "held by", "at": "at"}


def name_of(world: WorldState, ent_id: str) -> str:
    ent = world.entities.get(ent_id)
    if ent is None:
        return ent_id
    return ent.name or ent.label


def describe(world: WorldState, ent_id: str) -> str:
    """``the mug (mug_1)``; a room reads ``the kitchen (kitchen_201)`` from its name or id."""
    ent = world.entities.get(ent_id)
    if ent is None:
        return ent_id
    if world.is_person(ent_id) and ent.name:
        return f"{ent.name} ({ent_id})"  # people are named, not "the alice"
    if world.is_room(ent_id):
        spoken = ent.name or re.sub(r"[_\-]+", " ", re.sub(r"[_\-\s]*\d+$", "", ent_id)).strip() or ent_id
    else:
        spoken = ent.name or ent.label
    return f"the {spoken} ({ent_id})" if spoken != ent_id else f"the {ent_id}"


_STEP_TEMPLATES = {
    "navigate": "go to {0}",
    "open": "open {0}",
    "close": "close {0}",
    "pick": "pick up {0}",
    "place": "place {0} on/in {1}",
    "handover": "hand over {0}",
    "pour": "pour from {0} into {1}",
}


def step_text(world: WorldState, role: str, args: tuple[str, ...] | list[str]) -> str:
    """What a plan step does, in words, for logs and for a person reviewing the plan."""
    named = [describe(world, a) for a in args]
    template = _STEP_TEMPLATES.get(role)
    if template is None or template.count("{") != len(named):
        return f"{role} {', '.join(named)}"
    return template.format(*named)


def sentence(text: str) -> str:
    """Upper-case the first letter (ids and names inside stay as they are)."""
    return text[:1].upper() + text[1:]


def relation_words(predicate: str) -> str:
    return _RELATION_WORDS.get(predicate, predicate.replace("_", " "))
