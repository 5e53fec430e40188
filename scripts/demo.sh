#!/usr/bin/env bash
# The main job on its embedded default, in two parts so that a first real result comes early:
# 1. memory alone: set up the ROS part and the build only (no simulator yet), then the quick demo — a real
#    VirtualHome apartment replayed into the memory node over ROS topics, 16 requests over ~/ask and
#    ~/plan, the node restarted and asked again (scripts/demo_replay.sh; ~15 s once installed);
# 2. the simulation: set up the rest (Genesis, ~8 GB with torch), then run the shipped scenarios end to end in
#    Genesis on the CPU — a simulated Dexmate Vega lives through each scenario's experience while the memory
#    node listens over ROS, then requests are asked and planned over ~/ask and ~/plan, plans run open-loop in
#    the simulator and are graded on its final state. Prints a table per scenario; writes rendered frames.
#   scripts/demo.sh [--scenario NAME ...] [--out DIR] [--camera WxH]   (the arguments go to part 2)
#   MEMORY_NODE_SETUP=0 scripts/demo.sh   # already set up from this tree: skip both set-up checks
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
setup() { if [ "${MEMORY_NODE_SETUP:-1}" != "0" ]; then bash "$ROOT/scripts/setup.sh"; fi; }
MEMORY_NODE_SIM=0 MEMORY_NODE_PERCEPTION=0 MEMORY_NODE_DETECTORS=0 MEMORY_NODE_VEGA=0 MEMORY_NODE_G1=0 setup
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
echo "demo part 1 of 2: memory over ROS, a real apartment replayed (the simulator is set up afterwards)"
"$ROOT/install/memory_node/lib/memory_node/memory_demo"
echo
echo "demo part 2 of 2: the scenarios in the Genesis simulator"
setup
exec "$ROOT/install/memory_node/lib/memory_node/sim_demo" "$@"
