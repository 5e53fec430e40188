"""Memory out of the database: JSON (everything, for a program), GraphML (the scene graph, for networkx,
Gephi, yEd) or a PNG (a top-down map of rooms, objects and their relations, for a person).

  memory-node export DB --json memory.json [--as-of TIME]
  memory-node export DB --graphml graph.graphml [--as-of TIME]
  memory-node export DB --png memory.png [--map MAP.yaml] [--as-of TIME]
  --map: a map_server map (YAML + image, e.g. the robot's saved SLAM map) drawn under the objects; the
  database keeps only the map's summary, not its cells. Reads only (safe next to a running node).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from memory_node.cli.common import CliError, need, open_memory, parse_time
from memory_node.core.store import MemoryStore

EVENT_LIMIT = 10**9  # every event


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("db", help="memory database file")
    p.add_argument("--json", metavar="OUT", help="write entities, relations, events and frames as JSON")
    p.add_argument("--graphml", metavar="OUT", help="write the scene graph as GraphML (networkx)")
    p.add_argument("--png", metavar="OUT", help="draw a top-down map of rooms, objects and relations")
    p.add_argument("--map", metavar="MAP_YAML", help="with --png: occupancy map (map_server YAML) underneath")
    p.add_argument("--as-of", metavar="TIME", help="memory as it was then (default: now)")
    p.add_argument("--title", default="", help="with --png: title of the picture")


def memory_json(store: MemoryStore, as_of_ns: int | None = None) -> dict:
    m = store.map_info()
    return {
        "as_of_ns": as_of_ns,
        "counts": store.counts(),
        "entities": [e.model_dump(mode="json") for e in store.entities(as_of_ns=as_of_ns, include_absent=True)],
        "relations": [r.model_dump(mode="json") for r in store.relations(as_of_ns=as_of_ns)],
        "events": [ev.model_dump(mode="json")
                   for ev in reversed(store.events(until_ns=as_of_ns, limit=EVENT_LIMIT))],
        "frames": [f.model_dump(mode="json")
                   for f in reversed(store.frames(until_ns=as_of_ns, limit=EVENT_LIMIT))],
        "map": m.model_dump(mode="json") if m else None,
    }


def memory_graph(store: MemoryStore, as_of_ns: int | None = None):
    """A networkx MultiDiGraph: one node per present entity, one edge per relation (its predicate as key).
    GraphML holds scalars only, so positions are x/y/z and states one comma-separated string."""
    import networkx as nx

    g = nx.MultiDiGraph()
    for e in store.entities(as_of_ns=as_of_ns):
        attrs = {"label": e.label, "name": e.name, "room": e.room, "states": ",".join(e.states),
                 "first_seen_ns": e.first_seen_ns, "last_seen_ns": e.last_seen_ns,
                 **{f"attr_{k}": v for k, v in e.attributes.items()}}
        if e.position is not None:
            attrs.update(x=e.position.x, y=e.position.y, z=e.position.z)
        g.add_node(e.id, **attrs)
    for r in store.relations(as_of_ns=as_of_ns):
        if r.subject in g and r.object in g:
            g.add_edge(r.subject, r.object, key=r.predicate, predicate=r.predicate, since_ns=r.since_ns)
    return g


def run(args: argparse.Namespace) -> int:
    if not (args.json or args.graphml or args.png):
        raise CliError("say what to write: --json OUT, --graphml OUT and/or --png OUT")
    if args.map and not args.png:
        raise CliError("--map goes with --png")
    as_of = parse_time(args.as_of) if args.as_of else None
    if args.graphml:
        need("networkx", "--graphml")
    if args.png:
        need("matplotlib", "--png")
    store = open_memory(args.db)
    try:
        if args.json:
            Path(args.json).write_text(json.dumps(memory_json(store, as_of), indent=1))
            print(f"wrote {args.json}")
        if args.graphml:
            import networkx as nx

            g = memory_graph(store, as_of)
            nx.write_graphml(g, args.graphml)
            print(f"wrote {args.graphml} ({g.number_of_nodes()} nodes, {g.number_of_edges()} edges)")
        if args.png:
            from memory_node.cli.picture import draw_memory

            drawn = draw_memory(store, args.png, map_yaml=args.map, as_of_ns=as_of,
                                title=args.title or Path(args.db).name)
            print(f"wrote {args.png} ({len(drawn.rooms)} rooms, {len(drawn.objects)} objects, "
                  f"{drawn.relations} relations" + (f"; {drawn.unplaced} objects without a position not drawn"
                                                    if drawn.unplaced else "") + ")")
    finally:
        store.close()
    return 0
