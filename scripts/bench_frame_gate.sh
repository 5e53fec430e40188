#!/usr/bin/env bash
# The node's frame gate on Genesis-rendered frames of a small_home tour at 30 Hz (memory_node/bench/frame_gate.py):
# admitted per minute of camera time and why the rest were refused.
#   scripts/bench_frame_gate.sh [--camera WxH] [--speed M_S] [--turn-rate DEG_S] [--dwell S] [--threshold T]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
cd /tmp  # run the installed package (with its generated interfaces), not the source folder
exec python -m memory_node.bench.frame_gate "$@"
