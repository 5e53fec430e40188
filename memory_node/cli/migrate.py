"""Copy a memory between SQLite and PostgreSQL, whole: a robot's own file into a site database it joins,
or a site database into a file to take along. The target must be empty (a new file or database); the
source is opened as its writer (a SQLite file's lock: stop a node that writes it first) and brought to the
current schema. Frame files stay where they are (rows name them relative to the database's folder).

  memory-node migrate ~/.ros/memory_node/vega.db postgresql://robots@site-db/memory
  memory-node migrate postgresql://robots@site-db/memory site_copy.db
"""

from __future__ import annotations

import argparse
import time

from memory_node.cli.common import CliError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", help="memory to copy: a SQLite file or a postgresql:// URL")
    p.add_argument("target", help="empty memory to copy into: a new SQLite file or a postgresql:// URL")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from memory_node.core.storage import is_database_url, open_storage, redact
    from memory_node.core.storage.transfer import TargetNotEmpty, copy_memory

    if not is_database_url(args.source) and not Path(args.source).is_file():
        raise CliError(f"no memory at {args.source}")
    if is_database_url(args.source) == is_database_url(args.target) and not is_database_url(args.source):
        raise CliError("both are SQLite files: copy the file (with its frames/ folder) instead")
    started = time.perf_counter()
    source = open_storage(args.source, exclusive=True)
    try:
        target = open_storage(args.target, exclusive=True)
        try:
            copied = copy_memory(source, target)
        except TargetNotEmpty as err:
            raise CliError(str(err)) from None
        finally:
            target.close()
    finally:
        source.close()
    rows = sum(copied.values())
    print(f"copied {rows} rows ({copied['entities']} entities, {copied['events']} events, "
          f"{copied['observations']} observations) from {redact(args.source)} to {redact(args.target)} "
          f"in {time.perf_counter() - started:.2f} s")
    return 0
