"""What a memory file holds: counts and time span, its rooms, its entities, or one entity's history.

  memory-node inspect DB                    # counts, time span, rooms, map
  memory-node inspect DB --entities [--room kitchen] [--label mug] [--absent]
  memory-node inspect DB --entity mug_1     # state, every stored version, relations, events about it
  add --json for machine-readable output. Reads only (safe next to a running node).
"""

from __future__ import annotations

import argparse
import json

from memory_node.cli.common import CliError, format_time, named, open_memory, time_span
from memory_node.core.models import Entity
from memory_node.core.store import ROOM_LABEL, MemoryStore


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("db", help="memory database file (e.g. ~/.ros/memory_node/vega.db)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--rooms", action="store_true", help="rooms and how many entities each holds")
    what.add_argument("--entities", action="store_true", help="entities, newest seen first")
    what.add_argument("--entity", metavar="ID", help="one entity: its state, history, relations and events")
    p.add_argument("--room", default="", help="with --entities: only this room")
    p.add_argument("--label", default="", help="with --entities: only this label")
    p.add_argument("--absent", action="store_true", help="with --entities: also entities no longer present")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def _place(e: Entity) -> str:
    where = f"{e.location.predicate} {e.location.object}" if e.location else ""
    pos = f"({e.position.x:.2f}, {e.position.y:.2f}, {e.position.z:.2f})" if e.position else "(no position)"
    return " ".join(x for x in (where, pos) if x)


def _rooms(store: MemoryStore) -> list[dict]:
    rows = store.storage.rooms_with_counts(ROOM_LABEL)
    counts = dict(rows)
    rooms = {e.id: e for e in store.entities(label=ROOM_LABEL)}
    return [{"id": r, "name": rooms[r].name if r in rooms else "", "entities": counts.get(r, 0)}
            for r in sorted(set(rooms) | {r for r in counts if r})]


def summary(store: MemoryStore) -> dict:
    first, last = time_span(store)
    robot = store.get_meta("robot") or {}
    m = store.map_info()
    return {"path": str(store.path), "counts": store.counts(), "first_ns": first, "last_ns": last,
            "rooms": _rooms(store), "robot_room": robot.get("room", ""),
            "map": m.model_dump(mode="json") if m else None}


def entity_report(store: MemoryStore, ent_id: str) -> dict:
    e = store.entity(ent_id)
    if e is None:
        raise CliError(f"no entity {ent_id!r} in {store.path} (see --entities)")
    return {"entity": e.model_dump(mode="json"),
            "history": [v.model_dump(mode="json") for v in store.history(ent_id)],
            "relations": [r.model_dump(mode="json") for r in store.relations(subject=ent_id)]
                         + [r.model_dump(mode="json") for r in store.relations(obj=ent_id)],
            "events": [ev.model_dump(mode="json") for ev in store.events(entity_id=ent_id, limit=1000)]}


def _print_summary(s: dict) -> None:
    c = s["counts"]
    print(f"memory {s['path']}")
    print(f"  {c['entities']} entities ({c['entity_versions']} stored versions), {c['relations']} relations, "
          f"{c['events']} events, {c['frames']} frames, from {c['observations']} observations")
    print(f"  event time {format_time(s['first_ns'])} .. {format_time(s['last_ns'])}")
    if s["robot_room"]:
        print(f"  robot last in {s['robot_room']}")
    if s["map"]:
        m = s["map"]
        print(f"  map {m['width']}x{m['height']} cells at {m['resolution']} m, {m['known_cells']} known, "
              f"{m['occupied_cells']} occupied ({format_time(m['stamp_ns'])})")
    print(f"  {len(s['rooms'])} rooms" + (":" if s["rooms"] else ""))
    for r in s["rooms"]:
        print(f"    {r['id']}{' (' + r['name'] + ')' if r['name'] else ''}: {r['entities']} entities")


def _print_entities(entities: list[Entity]) -> None:
    for e in entities:
        states = f" [{', '.join(e.states)}]" if e.states else ""
        gone = "" if e.present else " (absent)"
        print(f"{e.id}  {e.label}{named(e)}  room {e.room or '-'}  {_place(e)}{states}  "
              f"seen {format_time(e.last_seen_ns)}{gone}")
    print(f"{len(entities)} entities")


def _print_entity(r: dict) -> None:
    e = Entity.model_validate(r["entity"])
    print(f"{e.id}: {e.label}{named(e)} in room {e.room or '-'}, {_place(e)}"
          f"{' [' + ', '.join(e.states) + ']' if e.states else ''}{'' if e.present else ' (absent)'}")
    if e.attributes:
        print("  attributes: " + ", ".join(f"{k}={v}" for k, v in e.attributes.items()))
    print(f"  first seen {format_time(e.first_seen_ns)}, last seen {format_time(e.last_seen_ns)}")
    print(f"  history ({len(r['history'])} versions):")
    for v in r["history"]:
        ve = Entity.model_validate(v["entity"])
        print(f"    {format_time(v['valid_from_ns'])} .. {format_time(v['valid_to_ns'])}: room {ve.room or '-'}, "
              f"{_place(ve)}{' [' + ', '.join(ve.states) + ']' if ve.states else ''}"
              f"{'' if ve.present else ' (absent)'}")
    print(f"  relations now ({len(r['relations'])}):")
    for rel in r["relations"]:
        print(f"    {rel['subject']} {rel['predicate']} {rel['object']} since {format_time(rel['since_ns'])}")
    print(f"  events ({len(r['events'])}):")
    for ev in r["events"]:
        print(f"    {format_time(ev['stamp_ns'])} {ev['kind']}: {ev['text']}")


def run(args: argparse.Namespace) -> int:
    store = open_memory(args.db)
    try:
        if args.entity:
            report = entity_report(store, args.entity)
            print(json.dumps(report, indent=2)) if args.json else _print_entity(report)
        elif args.entities:
            entities = [e for e in store.entities(label=args.label or None, room=args.room or None,
                                                  include_absent=args.absent) if e.label != ROOM_LABEL]
            if args.json:
                print(json.dumps([e.model_dump(mode="json") for e in entities], indent=2))
            else:
                _print_entities(entities)
        elif args.rooms:
            rooms = _rooms(store)
            if args.json:
                print(json.dumps(rooms, indent=2))
            else:
                for r in rooms:
                    print(f"{r['id']}{' (' + r['name'] + ')' if r['name'] else ''}: {r['entities']} entities")
        else:
            s = summary(store)
            print(json.dumps(s, indent=2)) if args.json else _print_summary(s)
    finally:
        store.close()
    return 0
