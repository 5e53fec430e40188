"""memory-node inspect on a real memory file: counts, rooms, entities, one entity's history; no ROS."""

import json
import os

from cli_helpers import ROOT, T0, python


def test_summary_counts_and_rooms(cli, memory_db):
    code, out, _ = cli("inspect", memory_db)
    assert code == 0
    assert "6 objects" not in out  # counts are the store's, rooms included
    assert "8 entities" in out  # 6 objects + 2 rooms
    assert "3 events" in out  # the move is an event too
    assert "2023-11-14 22:13:20.000Z .. 2023-11-14 22:14:00.000Z" in out  # T0 .. T0 + 40 s, event time
    assert "kitchen: 2 entities" in out and "living_room: 4 entities" in out  # the mug moved out
    code, out, _ = cli("inspect", memory_db, "--json")
    s = json.loads(out)
    assert s["counts"]["entities"] == 8 and s["first_ns"] == T0
    assert {r["id"]: r["entities"] for r in s["rooms"]} == {"kitchen": 2, "living_room": 4}


def test_entities_filtered_and_one_entitys_history(cli, memory_db):
    code, out, _ = cli("inspect", memory_db, "--entities", "--room", "living_room")
    assert code == 0
    assert 'mug_1  mug "Alex\'s mug"  room living_room  on shelf_1 (7.60, 4.90, 1.20)' in out
    assert "table_1" not in out and "4 entities" in out
    code, out, _ = cli("inspect", memory_db, "--entity", "mug_1", "--json")
    report = json.loads(out)
    rooms = [(v["entity"]["room"], v["valid_from_ns"], v["valid_to_ns"]) for v in report["history"]]
    assert rooms == [("kitchen", T0, T0 + 20 * 10**9), ("living_room", T0 + 20 * 10**9, None)]
    assert [(r["predicate"], r["object"]) for r in report["relations"]] == [("on", "shelf_1")]
    code, out, _ = cli("inspect", memory_db, "--entity", "fridge_1")
    # the failed open taught memory that the fridge is locked: a second version
    assert "history (2 versions)" in out and "[closed, locked]" in out
    assert "skill: vega open(fridge_1) failed (blocked)" in out  # the failed open is an event about it


def test_clear_errors(cli, memory_db, tmp_path):
    code, _, err = cli("inspect", tmp_path / "nothing.db")
    assert code == 2 and "no memory database at" in err
    code, _, err = cli("inspect", memory_db, "--entity", "unicorn_1")
    assert code == 2 and "no entity 'unicorn_1'" in err
    not_memory = tmp_path / "notes.db"
    not_memory.write_text("just text, not SQLite")
    code, _, err = cli("inspect", not_memory)
    assert code == 2 and str(not_memory) in err


def test_module_and_help_work_without_importing_rclpy(memory_db):
    probe = ("import sys; from memory_node.cli.main import main; "
             f"code = main(['inspect', {str(memory_db)!r}, '--entities']); "
             "assert not any(m == 'rclpy' or m.startswith('rclpy.') for m in sys.modules), 'rclpy imported'; "
             "sys.exit(code)")
    r = python("-c", probe, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "mug_1" in r.stdout
    r = python("-m", "memory_node.cli", "--help", cwd=ROOT)
    assert r.returncode == 0
    for command in ("inspect", "export", "forget", "replay", "record"):
        assert command in r.stdout
    # the console entry point setup.py declares exists
    assert "memory-node=memory_node.cli.main:main" in (ROOT / "setup.py").read_text()
    assert os.access(ROOT / "scripts" / "memory-node", os.X_OK)


def test_the_command_is_on_path_after_the_colcon_build(memory_db):
    """scripts/setup.sh installs it into install/memory_node/bin, which `source scripts/env.sh` puts on PATH."""
    installed = ROOT / "install" / "memory_node" / "bin" / "memory-node"
    if not installed.exists():
        import pytest

        pytest.skip("not built here (scripts/setup.sh)")
    import subprocess

    r = subprocess.run([str(installed), "inspect", str(memory_db), "--rooms"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["kitchen: 2 entities", "living_room: 4 entities"]
