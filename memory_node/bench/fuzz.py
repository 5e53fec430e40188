"""The fuzz properties of the conversion and store layers and of the node's services (hypothesis) with a larger
budget, for the figures.

    scripts/fuzz.sh --examples 1000     # = python -m memory_node.bench.fuzz --examples 1000

CI runs the same tests with a small budget (test/ros/test_fuzz_conversions.py, test/core/test_fuzz_store.py,
test/ros/test_node_limits.py);
this runs them with ``--examples`` per property (MEMORY_NODE_FUZZ_EXAMPLES) and prints pytest's summary and
hypothesis's statistics (examples run, how many were invalid, time). Needs the source tree's test folder.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

TESTS = ("test/ros/test_fuzz_conversions.py", "test/core/test_fuzz_store.py",
         # every service's arguments against the real node over DDS
         "test/ros/test_node_limits.py::test_fuzzed_service_arguments_are_always_answered")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fuzz the conversion and store layers with a larger budget")
    parser.add_argument("--examples", type=int, default=1000, help="hypothesis examples per property")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[2]  # the source tree (the install links to it)
    missing = [t for t in TESTS if not (root / t.split("::")[0]).is_file()]
    if missing:
        print(f"fuzz tests not found under {root}: {', '.join(missing)} (run from a source checkout)")
        return 2
    env = {**os.environ, "MEMORY_NODE_FUZZ_EXAMPLES": str(args.examples)}
    # the pytest script, not ``python -m pytest``: -m puts the source folder first on sys.path, where the
    # generated messages are missing, and the ROS properties were then skipped
    script = Path(sys.executable).with_name("pytest")
    cmd = [*([str(script)] if script.is_file() else [sys.executable, "-m", "pytest"]), *TESTS, "-q", "-p", "no:cacheprovider", "--hypothesis-show-statistics",
           "--durations=0"]
    return subprocess.run(cmd, cwd=root, env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main())
