#!/usr/bin/env bash
# The main job on its embedded default: set up (idempotent), start the memory node, replay a real
# VirtualHome apartment over ROS topics, ask questions and requests, print answers and plans.
#   scripts/demo.sh [--robot vega|g1] [--database PATH] [--keep]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
exec "$ROOT/install/memory_node/lib/memory_node/memory_demo" "$@"
