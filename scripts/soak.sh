#!/usr/bin/env bash
# Soak the node over real DDS (10 Hz 300-entity graphs, 30 Hz 640x480 frames, 1 Hz events; event time runs
# as fast as the node keeps up) and print loss, RSS, database growth and write latency.
#   scripts/soak.sh [--minutes 30] [--wall-limit 0] [--speed 0] [--entities 300] [--json out.json]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
cd /tmp  # run the installed package (with its generated interfaces), not the source folder
exec python -m memory_node.bench.soak "$@"
