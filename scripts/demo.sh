#!/usr/bin/env bash
# The main job on its embedded default: set up (idempotent), then run the shipped scenarios end to end in
# Genesis on the CPU — a simulated Dexmate Vega lives through each scenario's experience while the memory
# node listens over ROS, then requests are asked and planned over ~/ask and ~/plan, plans run open-loop in
# the simulator and are graded on its final state. Prints a table per scenario; writes rendered frames.
#   scripts/demo.sh [--scenario NAME ...] [--out DIR] [--camera WxH]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
exec "$ROOT/install/memory_node/lib/memory_node/sim_demo" "$@"
