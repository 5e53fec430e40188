#!/usr/bin/env bash
# Start the memory node as its installed executable with a robot's params file: what
# `ros2 launch memory_node <robot>.launch.py` does, for machines without ros2launch.
#   scripts/run_node.sh vega|g1 [extra --ros-args, e.g. -p database_path:=/data/memory.db]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
robot="${1:-vega}"; shift || true
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
share="$ROOT/install/memory_node/share/memory_node"
exec "$ROOT/install/memory_node/lib/memory_node/memory_node" --ros-args --params-file "$share/config/$robot.yaml" "$@"
