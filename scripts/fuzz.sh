#!/usr/bin/env bash
# Fuzz the conversion and store layers with hypothesis, a larger budget than CI
#   scripts/fuzz.sh [--examples 1000]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
cd /tmp  # run the installed package (with its generated interfaces), not the source folder
exec python -m memory_node.bench.fuzz "$@"
