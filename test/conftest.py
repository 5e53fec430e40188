"""Fixtures shared across test folders."""

import os
from pathlib import Path

import pytest

EPIC_DATA = Path(os.environ.get("EPIC_KITCHENS_DIR")
                 or Path(__file__).resolve().parents[2] / "shared" / "data" / "epic_kitchens_100")
EPIC_PARTICIPANT = "P23"  # 553 actions in 5 videos


@pytest.fixture(scope="module")
def epic(tmp_path_factory):
    """(store, observations): one EPIC-KITCHENS participant's real annotated actions ingested through the
    write path."""
    from memory_node.core.store import MemoryStore
    from memory_node.scenes.epic_kitchens import load_participant

    if not (EPIC_DATA / "EPIC_100_validation.csv").is_file():
        pytest.skip(f"EPIC-KITCHENS-100 annotations not found at {EPIC_DATA}")
    obs = load_participant(EPIC_PARTICIPANT, EPIC_DATA)
    store = MemoryStore(tmp_path_factory.mktemp("epic") / "memory.db")
    for o in obs:
        store.ingest_activity(o)
    yield store, obs
    store.close()
