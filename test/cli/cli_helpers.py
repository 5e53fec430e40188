"""A real memory file for the CLI tests, written through the real store: two rooms, furniture and objects
with relations, a mug that moved between rooms (two stored versions), skill feedback and an utterance."""

import sys
from pathlib import Path

from memory_node.core.models import (
    EntityObservation,
    Point,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
    UtteranceObservation,
)
from memory_node.core.store import MemoryStore

S = 1_000_000_000
T0 = 1_700_000_000 * S
ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"


def _e(id, label, room, x, y, z=0.8, name="", states=()):
    return EntityObservation(id=id, label=label, room=room, name=name, position=Point(x=x, y=y, z=z),
                             states=list(states))


def fill(store: MemoryStore) -> None:
    store.ingest_scene_graph(SceneGraphObservation(
        stamp_ns=T0, source="test", room="kitchen", complete=True,
        entities=[_e("table_1", "table", "kitchen", 1.0, 1.0, 0.4), _e("mug_1", "mug", "kitchen", 1.2, 1.1,
                                                                          name="Alex's mug"),
                  _e("fridge_1", "fridge", "kitchen", 3.0, 0.5, 0.9, states=["closed"])],
        relations=[RelationObservation(subject="mug_1", predicate="on", object="table_1")]))
    store.ingest_scene_graph(SceneGraphObservation(
        stamp_ns=T0 + 10 * S, source="test", room="living_room", complete=True,
        entities=[_e("sofa_1", "sofa", "living_room", 6.0, 4.0, 0.4), _e("shelf_1", "shelf", "living_room", 7.5, 5.0),
                  _e("book_1", "book", "living_room", 7.4, 5.1, 1.2)],
        relations=[RelationObservation(subject="book_1", predicate="on", object="shelf_1")]))
    # the mug moves: kitchen table -> living-room shelf (a new version, the old one keeps its interval)
    store.ingest_scene_graph(SceneGraphObservation(
        stamp_ns=T0 + 20 * S, source="test", room="living_room",
        entities=[_e("mug_1", "mug", "living_room", 7.6, 4.9, 1.2, name="Alex's mug")],
        relations=[RelationObservation(subject="mug_1", predicate="on", object="shelf_1")]))
    store.ingest_skill_feedback(SkillFeedbackObservation(
        stamp_ns=T0 + 30 * S, robot="vega", skill="open", args=["fridge_1"], target_id="fridge_1", success=False,
        status="blocked", message="the fridge door did not move"))
    store.ingest_utterance(UtteranceObservation(stamp_ns=T0 + 40 * S, speaker="alex",
                                                text="my mug is the blue one"))


def python(*args, **kwargs):
    """A fresh interpreter (what a user's shell runs), with this checkout importable."""
    import subprocess

    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120, **kwargs)
