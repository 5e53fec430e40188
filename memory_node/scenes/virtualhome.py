"""VirtualHome apartment graphs as memory observations.

VirtualHome (MIT) ships real, hand-built apartments whose nodes carry boxes, states and affordances and whose
edges say what is inside / on what. That makes them the closest thing to a perception pipeline's output we
can ship: the demo and the tests replay them as complete per-room scene graphs.

Two jobs live here:

* ``trim_graph``: the shipped copy drops structure (walls, floors, ceilings, doors, windows) and the ~12k
  CLOSE/FACING/BETWEEN edges, which memory does not use and which made the file ~1 MB. Keeping the trim in
  code makes the shipped file reproducible: ``python -m memory_node.scenes.virtualhome trim SRC DST``.
* ``convert`` / ``room_graphs``: VirtualHome nodes -> ``EntityObservation``; one *location* relation per
  object -> ``RelationObservation``; rooms as scope (``EntityObservation.room``), never as relations.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_node.core.models import (
    EntityObservation,
    Point,
    RelationObservation,
    SceneGraphObservation,
)
from memory_node.core.resources import config_path
from memory_node.core.store import ROOM_LABEL

SOURCE = "virtualhome"

# Categories that are building structure rather than things a robot remembers, fetches or opens.
STRUCTURE_CATEGORIES = frozenset({"Walls", "Ceiling", "Floor", "Floors", "Windows", "Doors"})
# Memory only uses containment and support; CLOSE/FACING/BETWEEN are bbox-proximity noise (12k of 14k edges).
KEPT_EDGE_TYPES = ("INSIDE", "ON")
ROOM_CATEGORY = "Rooms"
CHARACTER_CATEGORY = "Characters"
PERSON_LABEL = "person"
PERSON_NAME = "user"

# Affordances under the names planners ask for; other properties keep their lower-cased VirtualHome name.
_PROPERTY_ATTRIBUTES = {
    "CAN_OPEN": "openable",
    "GRABBABLE": "grabbable",
    "CONTAINERS": "container",
    "SURFACES": "surface",
    "HAS_SWITCH": "switchable",
}

DEFAULT_SCENE = "TestScene1.json"
_CONFIG_SUBDIR = Path("scenes") / "virtualhome"

Node = dict[str, Any]
Edge = dict[str, Any]
Graph = dict[str, list[dict[str, Any]]]


# ---- files ----------------------------------------------------------------------------------------


def scene_dir() -> Path:
    """Where the shipped scenes are (source tree or installed share directory)."""
    return config_path(_CONFIG_SUBDIR)


def default_scene_path() -> Path:
    return scene_dir() / DEFAULT_SCENE


def load_graph(path: str | Path) -> Graph:
    with open(path, encoding="utf-8") as f:
        graph = json.load(f)
    if not isinstance(graph, dict) or not isinstance(graph.get("nodes"), list) \
            or not isinstance(graph.get("edges"), list):
        raise ValueError(f"{path}: not a VirtualHome graph (expected an object with 'nodes' and 'edges')")
    return graph


# ---- trimming -------------------------------------------------------------------------------------


def trim_graph(graph: Graph) -> Graph:
    """Drop structure nodes and every edge memory does not use, keeping upstream's schema so the same
    loader reads both the full and the trimmed file."""
    nodes = [n for n in graph["nodes"] if n["category"] not in STRUCTURE_CATEGORIES]
    kept = {n["id"] for n in nodes}
    edges = [e for e in graph["edges"]
             if e["relation_type"] in KEPT_EDGE_TYPES and e["from_id"] in kept and e["to_id"] in kept]
    return {"nodes": nodes, "edges": edges}


def dumps_graph(graph: Graph) -> str:
    """One node or edge per line: compact, yet a reviewer can read a diff of the shipped file."""
    def block(items: list[dict[str, Any]]) -> str:
        return ",\n".join("  " + json.dumps(i, separators=(",", ":")) for i in items)
    return '{"nodes": [\n' + block(graph["nodes"]) + '\n], "edges": [\n' + block(graph["edges"]) + "\n]}\n"


def write_trimmed(src: str | Path, dst: str | Path) -> Graph:
    trimmed = trim_graph(load_graph(src))
    Path(dst).parent.mkdir(parents=True, exist_ok=True)
    Path(dst).write_text(dumps_graph(trimmed), encoding="utf-8")
    return trimmed


# ---- conversion -----------------------------------------------------------------------------------


def unity_to_map(v: Sequence[float]) -> Point:
    """Unity is left-handed with y up; the map frame is right-handed with z up. Swapping y and z does both
    (one axis swap flips handedness), which is also how the Genesis bridge places the boxes."""
    x, y, z = (float(c) for c in v)
    return Point(x=x, y=z, z=y)


def entity_id(node: Node) -> str:
    """Readable and unique: the class says what it is, the VirtualHome id keeps two mugs apart."""
    return f"{node['class_name']}_{node['id']}"


@dataclass(frozen=True)
class VirtualHomeScene:
    """A converted apartment: what a perfect perception pipeline would report about it.

    ``relations`` holds at most one location (``on``/``in``) per subject, because memory keeps one location
    per entity and several in one message would let message order pick the winner.
    """

    name: str
    rooms: dict[str, EntityObservation]
    entities: dict[str, EntityObservation]
    relations: list[RelationObservation] = field(default_factory=list)

    def location(self, ent_id: str) -> RelationObservation | None:
        return next((r for r in self.relations if r.subject == ent_id), None)

    def in_room(self, room: str) -> list[EntityObservation]:
        return [e for e in self.entities.values() if e.room == room]

    def with_label(self, label: str) -> list[EntityObservation]:
        return [e for e in self.entities.values() if e.label == label]

    def room_of(self, ent_id: str) -> str:
        ent = self.entities.get(ent_id)
        return ent.room if ent else ""


def load_scene(path: str | Path | None = None) -> VirtualHomeScene:
    path = Path(path) if path is not None else default_scene_path()
    return convert(load_graph(path), name=path.stem.removesuffix("_graph"))


def convert(graph: Graph, name: str = "") -> VirtualHomeScene:
    """Convert a full or trimmed graph; structure nodes are dropped either way, so both give one scene."""
    graph = trim_graph(graph)
    nodes = {n["id"]: n for n in graph["nodes"]}
    room_ids = {i for i, n in nodes.items() if n["category"] == ROOM_CATEGORY}
    inside, on = _edges_by_subject(graph["edges"], room_ids)
    locations = {i: loc for i in nodes if i not in room_ids
                 if (loc := _location(i, nodes, inside, on)) is not None}
    room_of = _rooms(nodes, room_ids, graph["edges"], locations)
    rooms = {entity_id(nodes[r]): _room_entity(nodes[r]) for r in nodes if r in room_ids}
    entities = {entity_id(n): _entity(n, entity_id(nodes[room_of[i]]) if i in room_of else "")
                for i, n in nodes.items() if i not in room_ids}
    relations = [RelationObservation(subject=entity_id(nodes[i]), predicate=pred, object=entity_id(nodes[o]))
                 for i, (pred, o) in locations.items()]
    return VirtualHomeScene(name=name, rooms=rooms, entities=entities, relations=relations)


def _edges_by_subject(edges: Iterable[Edge], room_ids: set[int]) -> tuple[dict[int, list[int]],
                                                                          dict[int, list[int]]]:
    """INSIDE edges to furniture and ON edges, by subject. A pair INSIDE each other (curtain panels do
    this) is box overlap, not containment, and would make a location cycle, so both are dropped."""
    inside: dict[int, list[int]] = defaultdict(list)
    on: dict[int, list[int]] = defaultdict(list)
    pairs = {(e["from_id"], e["to_id"]) for e in edges if e["relation_type"] == "INSIDE"}
    for e in edges:
        a, b = e["from_id"], e["to_id"]
        if a == b:
            continue
        if e["relation_type"] == "INSIDE" and b not in room_ids and (b, a) not in pairs:
            inside[a].append(b)
        elif e["relation_type"] == "ON" and b not in room_ids:
            on[a].append(b)
    return inside, on


def _innermost(targets: list[int], edges: Mapping[int, list[int]], nodes: Mapping[int, Node]) -> int | None:
    """The most specific of several supports/containers: a clothes pile INSIDE a drawer and INSIDE the
    closet holding that drawer is in the drawer; a mouse ON a mouse mat and ON the desk is on the mat."""
    candidates = [t for t in targets if not any(t in edges.get(o, ()) for o in targets if o != t)]
    if not candidates:
        return None
    return min(candidates, key=lambda t: (_volume(nodes[t]), t))


def _location(i: int, nodes: Mapping[int, Node], inside: Mapping[int, list[int]],
              on: Mapping[int, list[int]]) -> tuple[str, int] | None:
    """Pick the one location memory keeps. VirtualHome derives INSIDE from box overlap, so fruit on a coffee
    table is also "INSIDE" the sofa around it; INSIDE only wins over ON when the target really contains
    things (CONTAINERS: closets, microwave, fridge)."""
    in_target = _innermost(inside.get(i, []), inside, nodes)
    on_target = _innermost(on.get(i, []), on, nodes)
    if in_target is not None and (on_target is None or "CONTAINERS" in nodes[in_target]["properties"]):
        return ("in", in_target)
    if on_target is not None:
        return ("on", on_target)
    return None


def _rooms(nodes: Mapping[int, Node], room_ids: set[int], edges: Iterable[Edge],
           locations: Mapping[int, tuple[str, int]]) -> dict[int, int]:
    """Room per node: the room of the outermost thing holding it, else the room it is INSIDE. Following the
    holder keeps a room's graph self-contained (VirtualHome puts a few folders INSIDE the kitchen but in a
    living-room bookshelf) and covers graphs that link small objects only to their furniture. Several
    rooms for one node: the one whose box holds the node's centre."""
    direct: dict[int, list[int]] = defaultdict(list)
    for e in edges:
        if e["relation_type"] == "INSIDE" and e["to_id"] in room_ids and e["from_id"] not in room_ids:
            direct[e["from_id"]].append(e["to_id"])
    own = {i: _best_room(nodes[i], [nodes[r] for r in rs]) for i, rs in direct.items()}
    result: dict[int, int] = {}
    for i in nodes:
        if i in room_ids:
            continue
        chain = _holders(i, locations)
        room = next((own[h] for h in reversed(chain) if h in own), None)
        if room is not None:
            result[i] = room
    return result


def _holders(i: int, locations: Mapping[int, tuple[str, int]]) -> list[int]:
    """The node and what holds it, innermost first; stops at a cycle rather than looping."""
    chain = [i]
    while chain[-1] in locations and locations[chain[-1]][1] not in chain:
        chain.append(locations[chain[-1]][1])
    return chain


def _best_room(node: Node, rooms: list[Node]) -> int:
    if len(rooms) > 1:
        for room in rooms:
            if _contains(room, node["bounding_box"]["center"]):
                return int(room["id"])
    return int(rooms[0]["id"])


def _contains(node: Node, point: Sequence[float]) -> bool:
    box = node.get("bounding_box") or {}
    c, s = box.get("center"), box.get("size")
    return bool(c and s) and all(abs(p - ci) <= si / 2 for p, ci, si in zip(point, c, s))


def _volume(node: Node) -> float:
    size = (node.get("bounding_box") or {}).get("size") or [math.inf]
    return math.prod(float(v) for v in size)


def _position(node: Node) -> Point | None:
    center = (node.get("bounding_box") or {}).get("center")
    if not center or len(center) != 3 or not all(math.isfinite(float(c)) for c in center):
        return None
    return unity_to_map(center)


def _attributes(node: Node) -> dict[str, str]:
    attrs = {"category": str(node["category"]).lower()}
    attrs.update({_PROPERTY_ATTRIBUTES.get(p, p.lower()): "true" for p in node.get("properties", [])})
    size = (node.get("bounding_box") or {}).get("size")
    if size and len(size) == 3 and all(math.isfinite(float(v)) for v in size):
        p = unity_to_map(size)  # extents swap axes exactly like positions
        attrs["size"] = f"{p.x:.3f},{p.y:.3f},{p.z:.3f}"
    return attrs


def _entity(node: Node, room: str) -> EntityObservation:
    person = node["category"] == CHARACTER_CATEGORY
    return EntityObservation(
        id=entity_id(node),
        label=PERSON_LABEL if person else node["class_name"],
        name=PERSON_NAME if person else "",
        room=room,
        position=_position(node),
        attributes=_attributes(node),
        states=sorted({s.lower() for s in node.get("states", [])}),
    )


def _room_entity(node: Node) -> EntityObservation:
    """Rooms use memory's own room label (the store creates rooms under it); the name keeps "bedroom" so a
    request can say it and the position gives ``navigate_to`` somewhere to go."""
    return EntityObservation(id=entity_id(node), label=ROOM_LABEL, name=node["class_name"],
                             room=entity_id(node), position=_position(node), attributes=_attributes(node))


# ---- scene graphs ---------------------------------------------------------------------------------


def room_graph(scene: VirtualHomeScene, room: str, stamp_ns: int) -> SceneGraphObservation:
    """A complete view of one room, as a robot would report after looking all around it: memory may then
    mark whatever it remembered there but did not see as gone."""
    if room not in scene.rooms:
        raise KeyError(f"{scene.name or 'scene'} has no room {room!r}; rooms: {', '.join(scene.rooms)}")
    members = scene.in_room(room)
    ids = {e.id for e in members}
    return SceneGraphObservation(
        stamp_ns=stamp_ns, source=SOURCE, room=room, complete=True,
        entities=[scene.rooms[room], *members],
        relations=[r for r in scene.relations if r.subject in ids])


def room_graphs(scene: VirtualHomeScene, stamp_ns: int) -> list[SceneGraphObservation]:
    return [room_graph(scene, room, stamp_ns) for room in scene.rooms]


# ---- command line ---------------------------------------------------------------------------------


def _summary(scene: VirtualHomeScene) -> str:
    lines = [f"{scene.name}: {len(scene.rooms)} rooms, {len(scene.entities)} entities, "
             f"{len(scene.relations)} location relations"]
    lines += [f"  {room}: {len(scene.in_room(room))} entities" for room in scene.rooms]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memory_node.scenes.virtualhome",
                                     description="Trim or summarize VirtualHome scene graphs.")
    sub = parser.add_subparsers(dest="command", required=True)
    trim = sub.add_parser("trim", help="write the compact copy memory_node ships")
    trim.add_argument("src")
    trim.add_argument("dst")
    summary = sub.add_parser("summary", help="print rooms and entity counts after conversion")
    summary.add_argument("path", nargs="?", default=None)
    args = parser.parse_args(argv)
    if args.command == "trim":
        trimmed = write_trimmed(args.src, args.dst)
        print(f"{args.dst}: {len(trimmed['nodes'])} nodes, {len(trimmed['edges'])} edges, "
              f"{Path(args.dst).stat().st_size} bytes")
    else:
        print(_summary(load_scene(args.path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
