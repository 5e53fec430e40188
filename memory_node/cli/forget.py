"""Delete from memory for good: entities (with their history, relations and frame links), everything in a
room, what was observed in a time range, or everything. Says what it will delete and asks first; --yes
answers for scripts (without a terminal and without --yes nothing is deleted). One transaction: an
interrupted or failed forget leaves the file as it was. Stop a running node on this file first, or use
its ``~/forget`` service, so its in-memory state (current room, frame gate) follows.

  memory-node forget DB --entity mug_1 [--entity cup_2]
  memory-node forget DB --room kitchen
  memory-node forget DB --before 2026-12-01T00:00     # events, frames, observations older than that
  memory-node forget DB --since 8.0 --until 9.5 --yes
  memory-node forget DB --everything
"""

from __future__ import annotations

import argparse
import sys

from memory_node.cli.common import CliError, format_time, named, open_memory, parse_time
from memory_node.core.store import MemoryStore


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("db", help="memory database file")
    p.add_argument("--entity", action="append", default=[], metavar="ID",
                   help="an entity (or event / frame) id; repeat for more")
    p.add_argument("--room", default="", help="everything in this room")
    p.add_argument("--before", metavar="TIME", help="what was observed before TIME")
    p.add_argument("--since", metavar="TIME", help="what was observed at or after TIME (with --until: between)")
    p.add_argument("--until", metavar="TIME", help="what was observed up to TIME")
    p.add_argument("--everything", action="store_true", help="all of memory (the schema stays)")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")


def _between(store: MemoryStore, table: str, lo: int | None, hi: int | None) -> int:
    return store.storage.count_stamped(table, lo if lo is not None else -2**62, hi if hi is not None else 2**62)


def describe(store: MemoryStore, ids: list[str], room: str, lo: int | None, hi: int | None,
             everything: bool) -> list[str]:
    """What the forget will touch, in words, before it does."""
    if everything:
        c = store.counts()
        return [f"everything: {c['entities']} entities, {c['events']} events, {c['frames']} frames, "
                f"{c['observations']} observations and what was learned from them"]
    lines = []
    for i in ids:
        e = store.entity(i)
        if e is not None:
            lines.append(f"entity {i} ({e.label}{named(e)}, room {e.room or '-'}) "
                         f"with its {len(store.history(i))} stored versions and its relations")
        elif store.storage.record_kind(i) in ("event", "frame"):
            lines.append(f"record {i}")
        else:
            raise CliError(f"no entity, event or frame {i!r} in {store.path}")
    if room:
        n = len(store.entities(room=room, include_absent=True))
        if n == 0 and store.entity(room) is None:
            raise CliError(f"no room {room!r} in {store.path} (see: memory-node inspect {store.path} --rooms)")
        lines.append(f"room {room}: {n} entities and its frames")
    if lo is not None or hi is not None:
        lines.append(f"observed {format_time(lo) if lo is not None else 'ever'} .. "
                     f"{format_time(hi) if hi is not None else 'now'}: {_between(store, 'events', lo, hi)} events, "
                     f"{_between(store, 'frames', lo, hi)} frames, {_between(store, 'observations', lo, hi)} "
                     f"observations, and entities first seen then")
    return lines


def _confirmed(question: str) -> bool:
    if not sys.stdin.isatty():
        raise CliError("not deleting without confirmation: run it in a terminal or add --yes")
    return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")


def run(args: argparse.Namespace) -> int:
    lo = parse_time(args.since) if args.since else None
    hi = parse_time(args.until) if args.until else None
    if args.before:
        if args.until:
            raise CliError("--before and --until both set an end: give one")
        hi = parse_time(args.before) - 1  # strictly before
    if not (args.entity or args.room or lo is not None or hi is not None or args.everything):
        raise CliError("say what to forget: --entity ID, --room ROOM, --before TIME, --since/--until or "
                       "--everything")
    if args.everything and (args.entity or args.room or lo is not None or hi is not None):
        raise CliError("--everything goes alone")
    store = open_memory(args.db, write=True)
    try:
        lines = describe(store, args.entity, args.room, lo, hi, args.everything)
        print(f"in {store.path} this deletes:")
        for line in lines:
            print(f"  {line}")
        if not args.yes and not _confirmed("delete it for good?"):
            print("nothing deleted")
            return 1
        removed = store.forget(ids=args.entity, room=args.room, since_ns=lo, until_ns=hi,
                               everything=args.everything)
        print(f"forgot {removed} records")
    finally:
        store.close()
    return 0
