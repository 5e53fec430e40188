#!/usr/bin/env bash
# Benchmark the node over real DDS (start-up, write path, request latency); prints a table.
#   scripts/bench.sh [--runs 5] [--robot vega|g1] [--graph-rounds 20] [--frames 100] [--requests 100]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
cd /tmp  # run the installed package (with its generated interfaces), not the source folder
exec python -m memory_node.bench.node_bench "$@"
