"""Fixtures for the planning tests: a real SQLite memory per test, built through the store's own write
path (no mocks), and the real skill libraries.

Helpers are handed out as a fixture (``mem``) because the suite runs in importlib mode, where test files
cannot import a sibling helper module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_node.core.models import (
    EntityObservation,
    RelationObservation,
    SceneGraphObservation,
    SkillFeedbackObservation,
)
from memory_node.core.store import MemoryStore
from memory_node.planning.skills import SkillLibrary, default_library_path

sys.path.insert(0, str(Path(__file__).parent))  # llm_server.py: the scripted OpenAI-compatible server

T_TABLE = 1_000_000_000  # kitchen fixture: mug seen on the table
T_CABINET = 2_000_000_000  # kitchen fixture: mug seen in the (closed) cabinet


class MemoryBuilder:
    """Writes experience into a store the way the node would: scene graphs and skill feedback."""

    T_TABLE = T_TABLE
    T_CABINET = T_CABINET
    T_BETWEEN = (T_TABLE + T_CABINET) // 2

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    @staticmethod
    def ent(ent_id: str, label: str, room: str = "kitchen_201", **kw: object) -> EntityObservation:
        return EntityObservation(id=ent_id, label=label, room=room, **kw)

    def scene(self, t: int, entities: list[EntityObservation],
              relations: list[tuple[str, str, str]] | tuple = (), room: str = "",
              complete: bool = False) -> str:
        result = self.store.ingest_scene_graph(SceneGraphObservation(
            stamp_ns=t, source="test", room=room, complete=complete, entities=entities,
            relations=[RelationObservation(subject=s, predicate=p, object=o) for s, p, o in relations]))
        assert not result.rejected, result.rejected
        return result.observation_id

    def feedback(self, t: int, skill: str, args: list[str], success: bool, message: str = "",
                 status: str = "") -> str:
        return self.store.ingest_skill_feedback(SkillFeedbackObservation(
            stamp_ns=t, robot="vega", skill=skill, args=args, target_id=args[0] if args else "",
            success=success, status=status or ("SUCCEEDED" if success else "FAILED"), message=message)).observation_id


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    s = MemoryStore(tmp_path / "m.db")
    yield s
    s.close()


@pytest.fixture
def mem(store: MemoryStore) -> MemoryBuilder:
    return MemoryBuilder(store)


@pytest.fixture
def kitchen(mem: MemoryBuilder) -> MemoryStore:
    """A blue mug seen on the table, later seen inside the closed cabinet; Alice in the living room."""
    mem.scene(T_TABLE, [
        mem.ent("table_3", "table"),
        mem.ent("cabinet_1", "cabinet", states=["closed"]),
        mem.ent("mug_1", "mug", attributes={"color": "blue"}),
        mem.ent("person_1", "person", room="livingroom_1", name="alice"),
    ], [("table_3", "in", "kitchen_201"), ("cabinet_1", "in", "kitchen_201"), ("mug_1", "on", "table_3"),
        ("person_1", "in", "livingroom_1")])
    mem.scene(T_CABINET, [mem.ent("mug_1", "mug", attributes={"color": "blue"})],
              [("mug_1", "in", "cabinet_1")])
    return mem.store


@pytest.fixture
def vega() -> SkillLibrary:
    return SkillLibrary.load(default_library_path("vega"))


@pytest.fixture
def g1() -> SkillLibrary:
    return SkillLibrary.load(default_library_path("g1"))


@pytest.fixture
def llm_server():
    """A scripted OpenAI-compatible server on loopback (test/planning/llm_server.py); set ``.script``."""
    from llm_server import ScriptedLlm

    server = ScriptedLlm()
    yield server
    server.close()
