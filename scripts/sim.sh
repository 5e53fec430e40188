#!/usr/bin/env bash
# What `ros2 launch memory_node sim.launch.py` does, for machines without ros2launch: the memory node (Vega
# params) in the background and the Genesis bridge in the foreground. Live by default (the bridge executes
# every plan the node publishes on ~/plans); with --scenario NAME it plays that scenario and exits.
#   scripts/sim.sh [--scenario NAME] [--ros-args -p scene:=small_home ...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
node_args=()
if [[ " $* " == *" --scenario "* ]]; then  # a scenario starts from an empty memory, not the robot's own
  node_args=(-p "database_path:=$(mktemp -d)/memory.db")
fi
"$ROOT/scripts/run_node.sh" vega "${node_args[@]}" &
node_pid=$!
trap 'kill -INT "$node_pid" 2>/dev/null; wait "$node_pid" 2>/dev/null || true' EXIT
"$ROOT/install/memory_node/lib/memory_node/genesis_bridge" "$@"
