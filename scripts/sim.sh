#!/usr/bin/env bash
# What `ros2 launch memory_node sim.launch.py` does, for machines without ros2launch: the memory node (Vega
# params) in the background and the Genesis bridge in the foreground. Live by default (the bridge executes
# every plan the node publishes on ~/plans); with --scenario NAME it plays that scenario and exits.
#   scripts/sim.sh [--scenario NAME] [--ros-args -p scene:=small_home ...]
# Memory goes where sim.launch.py puts it, never into the robot's own $ROS_HOME/memory_node/vega.db:
# $ROS_HOME/memory_node/sim_<scene>.db live, a fresh temporary file for a scenario. And, as sim.launch.py,
# in a namespace of its own (SIM_NAMESPACE, default sim: /sim/memory_node, /sim/memory_node/plans), so a
# robot's /memory_node on the same ROS domain neither gets the simulator's data nor its plans.
# With `-p perception_only:=true` (sim.launch.py's perception:=true) the perception node runs too and memory
# gets its scene graphs instead of the simulator's.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
scene=small_home
for arg in "$@"; do
  case "$arg" in scene:=*) scene="${arg#scene:=}" ;; esac
done
if [[ " $* " == *" --scenario "* ]]; then  # a scenario starts from an empty memory
  db="$(mktemp -d)/memory.db"
else
  scene_name="$(basename "$scene")"
  db="${ROS_HOME:-$HOME/.ros}/memory_node/sim_${scene_name%.*}.db"
fi
ns="/${SIM_NAMESPACE:-sim}"; ns="${ns%/}"
if [[ -z "$ns" ]]; then
  echo "sim.sh: SIM_NAMESPACE is empty: the root namespace is a robot's (its /memory_node); give the simulator its own" >&2
  exit 2
fi
"$ROOT/scripts/run_node.sh" vega -r "__ns:=$ns" -p "database_path:=$db" &
node_pid=$!
perception_pid=
if [[ " $* " == *"perception_only:=true"* ]]; then
  scene_file="$scene"
  [[ "$scene" == *.yaml || "$scene" == *.yml ]] || scene_file="$ROOT/install/memory_node/share/memory_node/config/sim/scenes/$scene.yaml"
  "$ROOT/install/memory_node/lib/memory_node/perception_node" --ros-args -r "__ns:=$ns" \
    --params-file "$ROOT/install/memory_node/share/memory_node/config/perception.yaml" \
    -p "rooms_file:=$scene_file" -p instance_ids:=true -p association.confirm_after:=1 &
  perception_pid=$!
fi
trap 'kill -INT "$node_pid" $perception_pid 2>/dev/null; wait "$node_pid" $perception_pid 2>/dev/null || true' EXIT
"$ROOT/install/memory_node/lib/memory_node/genesis_bridge" "$@" --ros-args -r "__ns:=$ns" -p "memory_node:=$ns/memory_node"
