#!/usr/bin/env bash
# Set up (idempotent) and run the whole test suite: core, planning, scenes, the node over real DDS, and the
# Genesis simulation with its bridge (one build of a small scene per run: ~1.5 min cold, ~15 s warm).
#   scripts/test.sh [pytest args]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "$ROOT/scripts/env.sh"
cd "$ROOT"
# The ROS tests must run here, not be skipped because the build is missing; so must the simulation tests,
# unless the simulation was left out of the set-up (MEMORY_NODE_SIM=0).
export MEMORY_NODE_REQUIRE_ROS=1
[ "${MEMORY_NODE_SIM:-1}" = "0" ] || export MEMORY_NODE_REQUIRE_SIM=1
# likewise the perception tests that need open3d, unless perception was left out (MEMORY_NODE_PERCEPTION=0)
[ "${MEMORY_NODE_PERCEPTION:-1}" = "0" ] || export MEMORY_NODE_REQUIRE_PERCEPTION=1
# and the learned-detector tests (ultralytics, segment-anything), unless left out (MEMORY_NODE_DETECTORS=0)
[ "${MEMORY_NODE_DETECTORS:-1}" = "0" ] || export MEMORY_NODE_REQUIRE_DETECTORS=1
[ "${MEMORY_NODE_VEGA:-1}" = "0" ] || export MEMORY_NODE_REQUIRE_VEGA=1
[ "${MEMORY_NODE_G1:-1}" = "0" ] || export MEMORY_NODE_REQUIRE_G1=1
# `pytest`, not `python -m pytest`: the latter would put the source folder (without the generated
# interfaces) ahead of the installed package on sys.path.
exec pytest "$@"
