"""Perfect perception: the scene graph a flawless perception pipeline would publish for what the camera sees.

Which entities are visible comes from the renderer's segmentation (``world.SimWorld.visible_ids``); what is
said about them comes from the world state, so ids, positions and relations are exactly the simulator's.
"""

from __future__ import annotations

from collections.abc import Iterable

from memory_node.core.models import EntityObservation, Point, RelationObservation, SceneGraphObservation
from memory_node.core.store import ROOM_LABEL
from memory_node.sim.state import Body, WorldState

SOURCE = "genesis"


def entity_observation(state: WorldState, body: Body, perceive_locks: bool) -> EntityObservation:
    attrs = {"color": body.color, "size": ",".join(f"{v:.3f}" for v in body.size), "kind": body.kind}
    states: list[str] = []
    if body.container is not None:
        attrs["container"] = "true"
        if body.container.openable:
            attrs["openable"] = "true"
            # a lock is not visible: by default memory learns it by trying (skill feedback), as a robot would
            states += body.container.states(with_lock=perceive_locks)
    if body.kind == "object":
        attrs["grabbable"] = "true"
    room = state.outermost(body.id).room if body.parent in state.bodies else body.room
    return EntityObservation(id=body.id, label=body.label, name=body.name, room=room,
                             position=Point(x=body.center[0], y=body.center[1], z=body.center[2]),
                             attributes=attrs, states=states)


def room_observation(state: WorldState, room_id: str) -> EntityObservation:
    room = state.rooms[room_id]
    cx, cy = room.centre()
    return EntityObservation(id=room.id, label=ROOM_LABEL, name=room.name, room=room.id,
                             position=Point(x=cx, y=cy, z=0.0))


def scene_graph(state: WorldState, visible: Iterable[str], stamp_ns: int, *, perceive_locks: bool = False,
                complete: bool = False) -> SceneGraphObservation:
    """Graph of the visible entities in the robot's room and the rooms it sees into.

    Held and hidden things are left out even if a pixel of them shows (what is in the hand is reported by
    skill feedback; what is in a closed container cannot be seen). The holder of every reported thing is
    reported too, so each location relation names an entity memory can resolve.
    """
    shown: dict[str, Body] = {}
    for body_id in visible:
        body = state.bodies.get(body_id)
        if body is None or body.relation == "held_by" or state.enclosing_closed(body_id) is not None:
            continue
        for b in state.chain(body_id):
            shown.setdefault(b.id, b)
    here = state.robot_room()
    rooms = {here} | {(state.outermost(b.id).room if b.parent in state.bodies else b.room) for b in shown.values()}
    entities = [room_observation(state, r) for r in sorted(r for r in rooms if r)]
    entities += [entity_observation(state, b, perceive_locks) for b in shown.values()]
    relations = [RelationObservation(subject=b.id, predicate=b.relation, object=b.parent)
                 for b in shown.values() if b.parent in shown and b.relation in ("on", "in")]
    return SceneGraphObservation(stamp_ns=stamp_ns, source=SOURCE, room=here, complete=complete,
                                 entities=entities, relations=relations)
