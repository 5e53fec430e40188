#!/usr/bin/env bash
# Evaluate questions and plans without an LLM on task sets built from ../shared/data; prints a table.
#   scripts/eval_requests.sh [--robot vega|g1] [--seed 0] [--verbose]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
cd /tmp
exec python -m memory_node.bench.requests_eval "$@"
