#!/usr/bin/env bash
# The quick demo, without the simulator: replay a real VirtualHome apartment over ROS topics to the memory
# node, ask questions and requests, restart the node and ask again (~6 s once set up).
#   scripts/demo_replay.sh [--robot vega|g1] [--database PATH] [--keep]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
exec "$ROOT/install/memory_node/lib/memory_node/memory_demo" "$@"
