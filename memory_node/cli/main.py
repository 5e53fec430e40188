"""memory-node: look into, export, prune and fill a memory_node database file.

inspect, export and forget work on the SQLite file alone (no ROS, no running node); replay needs the
package's message definitions (the colcon build: `source scripts/env.sh`) but no running ROS graph;
record is the one command that listens on ROS topics.

  memory-node inspect DB [--rooms | --entities | --entity ID] [--json]
  memory-node export DB --json OUT.json | --graphml OUT.graphml | --png OUT.png [--map MAP.yaml]
  memory-node forget DB --entity ID | --room ROOM | --before TIME | --since T --until T | --everything [--yes]
  memory-node replay BAG --db DB [--robot vega] [--rate R]
  memory-node record OUT_BAG [--namespace NS] [--duration S] [--storage mcap|sqlite3]
  memory-node migrate SOURCE TARGET   (a SQLite file <-> a postgresql:// site database)

TIME: an ISO date/time (2026-12-01T10:30, UTC unless it says otherwise) or seconds of event time (8.3).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from memory_node.cli.common import CliError
from memory_node.core.store import IncompatibleMemory, MemoryInUse, MemoryNotWritable


# name -> one-line help; each command is the module memory_node.cli.<module> with add_arguments() and run()
# (their imports of ROS, matplotlib or networkx happen inside run(), so --help and inspect stay light)
COMMANDS = {
    "inspect": ("inspection", "counts, rooms, entities, or one entity's history"),
    "export": ("export", "memory as JSON, GraphML (networkx) or a PNG map of rooms, objects and relations"),
    "forget": ("forget", "delete entities, a room or a time range, after a confirmation (--yes skips it)"),
    "replay": ("replay", "ingest a rosbag2 recording (MCAP or sqlite3) into a database, as the node would"),
    "record": ("record", "record the node's input topics to a rosbag2 recording (needs ROS)"),
    "migrate": ("migrate", "copy a memory between a SQLite file and a PostgreSQL site database"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memory-node", description=__doc__.split("\n\n")[0],
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(f"memory_node.cli.{module_name}")
        p = sub.add_parser(name, help=help_text, description=(module.__doc__ or help_text).strip(),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(p)
        p.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except CliError as err:
        print(f"memory-node {args.command}: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print(f"memory-node {args.command}: interrupted", file=sys.stderr)
        return 130
    except (MemoryInUse, MemoryNotWritable, IncompatibleMemory) as err:  # the file, not a bug: one line
        print(f"memory-node {args.command}: {err}", file=sys.stderr)
        return 1
    except OSError as err:  # an output path in a missing or read-only folder, a full disk
        where = f"{err.filename}: " if err.filename else ""
        print(f"memory-node {args.command}: {where}{err.strerror or err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
