#!/usr/bin/env bash
# Replay one EPIC-KITCHENS-100 participant's annotated actions (what they did in their kitchen, in time order)
# into the memory node as Activity messages, then print the routines, habits and preferences memory
# consolidated and answers to a few questions. The annotations are read where they lie (CC BY-NC 4.0,
# never copied into this repository): $EPIC_KITCHENS_DIR or ../shared/data/epic_kitchens_100.
#   scripts/replay_epic.sh P03 [--videos N] [--limit N] [--node /memory_node] [--database PATH] [--raw]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
DATA="${EPIC_KITCHENS_DIR:-$ROOT/../shared/data/epic_kitchens_100}"
cd /tmp  # run the installed package (with its generated interfaces), not the source folder
exec env --block-signal=INT,TERM python -m memory_node.ros.replay_epic --data "$DATA" "$@"
