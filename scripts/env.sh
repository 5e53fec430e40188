# Source this to use the built package: `source scripts/env.sh` (after scripts/setup.sh).
# colcon's setup files read unset variables: allow that while sourcing them, whatever the caller's `set -u`
case $- in *u*) _MN_NOUNSET=1; set +u ;; *) _MN_NOUNSET= ;; esac
_MN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC1091
source "${MEMORY_NODE_VENV:-$HOME/.local/share/memory_node/venv}/bin/activate"
export AMENT_PREFIX_PATH="$VIRTUAL_ENV" CMAKE_PREFIX_PATH="$VIRTUAL_ENV"
# shellcheck disable=SC1091
source "$_MN_ROOT/install/local_setup.bash"
# Keep DDS discovery on this machine unless the user chose otherwise.
export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
export RMW_IMPLEMENTATION="${RMW_IMPLEMENTATION:-rmw_fastrtps_cpp}"
# Shared-memory segments large enough for raw camera frames (see the comment in config/fastdds.xml).
export FASTDDS_DEFAULT_PROFILES_FILE="${FASTDDS_DEFAULT_PROFILES_FILE:-$_MN_ROOT/config/fastdds.xml}"
# numpy/OpenCV thread pools fight over small CPUs; the node's work is per message, not per pixel.
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
[ -n "$_MN_NOUNSET" ] && set -u
unset _MN_ROOT _MN_NOUNSET
