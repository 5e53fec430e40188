"""What a thing can be used for in a plan: picked up, put things on or in, opened. Checked against memory.

Skill arguments carry a type (``config/skills/<robot>.yaml``): ``object`` (graspable), ``receptacle``
(a surface or container to put things on or in), ``container`` (opens and closes), ``place`` (anything the
robot can drive to, rooms included), ``person`` and ``entity`` (any non-room thing). The evidence, strongest
first: what the scene graph said (affordance attributes such as VirtualHome's ``grabbable``/``surface``/
``container`` and its ``category``; the simulator's perception sets the same), then the category map
(furniture), then size (``size`` attribute, metres). Memory that says nothing about a thing lets it pass: a
mapper that reports only labels must not make every fetch impossible.
"""

from __future__ import annotations

from ..core.categories import default_map
from ..core.models import Entity
from ..world.state import WorldState

MAX_CARRY_M = 1.2  # a thing longer than this on any side is not carried by a household robot's hand
# ... nor one whose largest face is this big (a 50-inch television, a framed picture, a rug): a long thin thing
# (a broom, a curtain pole) is carried, a broad one is too heavy and unwieldy for one robot arm or two
MAX_CARRY_FACE_M2 = 0.6
_FIXED_CATEGORIES = frozenset({"furniture", "appliances", "appliance", "floor", "floors", "walls", "ceiling",
                               "doors", "windows", "lamps", "rooms", "characters"})
_AFFORDANCE_KEYS = ("grabbable", "surface", "container", "openable", "sittable", "lieable", "recipient")


def not_graspable(world: WorldState, ent_id: str) -> str:
    """Why memory says ``ent_id`` cannot be picked up ("" when nothing says so)."""
    if world.is_room(ent_id):
        return "it is a room"
    if world.is_person(ent_id):
        return "it is a person"
    ent = world.entities.get(ent_id)
    if ent is None:
        return ""
    attrs = ent.attributes
    grab = attrs.get("grabbable", "").lower()
    if grab in ("true", "yes", "1"):
        return ""
    if grab in ("false", "no", "0"):
        return "memory says it cannot be grasped"
    category = attrs.get("category", "").lower()
    if category in _FIXED_CATEGORIES:
        return f"it is {category.removesuffix('s') if category.endswith('ances') else category}"
    if any(attrs.get(k) for k in _AFFORDANCE_KEYS):
        kinds = [k for k in ("surface", "container", "sittable", "lieable") if attrs.get(k)]
        return f"memory knows it as a {' and '.join(kinds) or 'fixture'}, not as something to pick up"
    if "furniture" in default_map().chain(ent.label)[1:]:
        return "it is furniture"
    size = _largest_side(ent)
    if size is not None and size > MAX_CARRY_M:
        return f"it is {size:.1f} m across"
    face = _largest_face(ent)
    if face is not None and face[0] * face[1] > MAX_CARRY_FACE_M2:
        return f"it is {face[0]:.1f} m by {face[1]:.1f} m"
    return ""


def not_receptacle(world: WorldState, ent_id: str) -> str:
    """Why ``ent_id`` is no place to put something ("" when nothing says so)."""
    if world.is_room(ent_id):
        return ""  # "take it to the kitchen" sets it down there
    if world.is_person(ent_id):
        return "it is a person (hand it over instead)"
    ent = world.entities.get(ent_id)
    if ent is None:
        return ""
    attrs = ent.attributes
    if attrs.get("grabbable") and not any(attrs.get(k) for k in ("surface", "container", "recipient")):
        return "memory knows it as a small object, not as a surface or container"
    return ""


def too_big_for(world: WorldState, obj_id: str, receptacle_id: str) -> str:
    """Why ``obj_id`` cannot be set on or in ``receptacle_id`` because of their sizes ("" when nothing says so):
    only a small thing as the receptacle (a mug is a recipient, but a radio twice its size does not go in it);
    furniture's sizes in scene graphs are too rough to refuse by."""
    obj, rec = world.entities.get(obj_id), world.entities.get(receptacle_id)
    if obj is None or rec is None or str(rec.attributes.get("grabbable", "")).lower() != "true":
        return ""
    a, b = _largest_side(obj), _largest_side(rec)
    if a is None or b is None or a <= 1.5 * b:
        return ""
    return f"it is {a:.2f} m across, the other {b:.2f} m"


def not_container(world: WorldState, ent_id: str) -> str:
    ent = world.entities.get(ent_id)
    if ent is None or world.is_room(ent_id) or world.is_person(ent_id):
        return "it does not open"
    states = world.states.get(ent_id, set())
    if states & {"open", "closed", "locked", "unlocked"} or ent.attributes.get("openable") or \
            ent.attributes.get("can_open"):
        return ""
    return "memory does not know it as something that opens"


def _largest_face(ent: Entity) -> tuple[float, float] | None:
    sides = sorted(_sides(ent), reverse=True)
    return (sides[0], sides[1]) if len(sides) >= 2 else None


def _sides(ent: Entity) -> list[float]:
    raw = ent.attributes.get("size", "")
    try:
        return [float(v) for v in raw.replace("x", ",").split(",") if v.strip()]
    except ValueError:
        return []


def _largest_side(ent: Entity) -> float | None:
    sides = _sides(ent)
    return max(sides) if sides else None
