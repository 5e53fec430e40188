"""Where the package's shipped files (config/) are: the source tree first (tests, ``pip install -e``), then
the ament share directory, because an installed node has no source tree beside its Python package."""

from __future__ import annotations

import os
from pathlib import Path


def config_path(relative: str | Path) -> Path:
    """``config/<relative>`` of this package, as a file or folder that exists; FileNotFoundError if none."""
    rel = Path("config") / relative
    in_tree = Path(__file__).resolve().parents[2] / rel
    if in_tree.exists():
        return in_tree
    for prefix in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        shared = Path(prefix) / "share" / "memory_node" / rel
        if prefix and shared.exists():
            return shared
    raise FileNotFoundError(f"no {rel} in the source tree or under AMENT_PREFIX_PATH")
