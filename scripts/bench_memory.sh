#!/usr/bin/env bash
# Benchmark the memory engine in process (write path, queries at 1k/100k/1M entities, storage per hour).
#   scripts/bench_memory.sh [--sizes 1000,100000,1000000] [--quick] [--skip ingest,queries,storage]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
cd /tmp
exec python -m memory_node.bench.memory_bench "$@"
