"""Benchmarks and evaluation: scripts that print figures (never timed unit tests)."""

from __future__ import annotations

from pathlib import Path


def shared_data(*parts: str) -> Path:
    """A path under the shared data folder: ``shared/data`` beside the checkout, or beside a folder above it
    (a git worktree kept under ``wt/`` next to the main checkout); the first place it exists, else beside
    the checkout as before."""
    repo = Path(__file__).resolve().parents[2]
    for up in repo.parents:
        p = up.joinpath("shared", "data", *parts)
        if p.exists():
            return p
    return repo.parent.joinpath("shared", "data", *parts)
