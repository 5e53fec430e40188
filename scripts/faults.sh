#!/usr/bin/env bash
# kill -9 and respawn the node while a long-lived client asks; prints answers, latency, what memory kept
#   scripts/faults.sh [--cycles 10]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
cd /tmp  # run the installed package (with its generated interfaces), not the source folder
exec python -m memory_node.bench.faults "$@"
