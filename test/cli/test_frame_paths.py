"""Frame files follow their database: stored relative to the database's folder, so a copied or moved memory
reads its own frames and forgetting on a copy never deletes another copy's files (it did when paths were
stored absolute)."""

import shutil
import sqlite3
from pathlib import Path

from memory_node.core.models import FrameObservation
from memory_node.core.store import MemoryStore

S = 1_000_000_000
JPEG = b"\xff\xd8real enough"


def _fill(path: Path, n: int = 3) -> list[str]:
    store = MemoryStore(path)
    ids = [store.ingest_frame(FrameObservation(stamp_ns=(t + 1) * S, encoded=JPEG + bytes([t]),
                                               thumbnail=[40.0 * t] * 256, room="kitchen")).observation_id
           for t in range(n)]
    store.close()
    return ids


def _stored_paths(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("SELECT path FROM frames ORDER BY stamp_ns")]
    finally:
        db.close()


def test_frame_paths_are_stored_relative_to_the_database_folder(tmp_path):
    db = tmp_path / "robot" / "memory.db"
    ids = _fill(db)
    assert _stored_paths(db) == [f"frames/{i}.jpg" for i in ids]
    store = MemoryStore.open_reader(db)
    try:
        frames = store.frames(limit=10)
        # readers get the file where it is now
        assert {Path(f.path) for f in frames} == {(db.parent / "frames" / f"{i}.jpg").resolve() for i in ids}
        assert all(Path(f.path).read_bytes().startswith(JPEG) for f in frames)
    finally:
        store.close()


def test_forget_on_a_copy_leaves_the_original_and_its_frames_intact(cli, tmp_path):
    original = tmp_path / "a" / "memory.db"
    ids = _fill(original)
    copy_dir = tmp_path / "b"
    shutil.copytree(original.parent, copy_dir)
    copy = copy_dir / "memory.db"
    code, out, err = cli("forget", copy, "--everything", "--yes")
    assert code == 0, err
    assert sorted(p.name for p in (copy_dir / "frames").iterdir()) == []  # the copy's own frames went
    assert sorted(p.name for p in (original.parent / "frames").iterdir()) == sorted(f"{i}.jpg" for i in ids)
    store = MemoryStore.open_reader(original)
    try:
        assert len(store.frames(limit=10)) == 3
        assert all(Path(f.path).is_file() for f in store.frames(limit=10))
    finally:
        store.close()


def test_a_moved_database_reads_its_frames_where_it_now_is(tmp_path):
    old = tmp_path / "old" / "memory.db"
    ids = _fill(old)
    new_dir = tmp_path / "elsewhere" / "new"
    shutil.move(str(old.parent), str(new_dir))
    store = MemoryStore(new_dir / "memory.db")
    try:
        frames = store.frames(limit=10)
        assert sorted(Path(f.path).name for f in frames) == sorted(f"{i}.jpg" for i in ids)
        assert all(Path(f.path).is_file() and Path(f.path).is_relative_to(new_dir.resolve()) for f in frames)
        assert store.forget(ids=[ids[0]]) == 1
        assert not (new_dir / "frames" / f"{ids[0]}.jpg").exists()
    finally:
        store.close()


def _make_absolute(db: Path, folder: Path) -> None:
    """What a database written before this change holds: absolute paths into ``folder``."""
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT id, path, data FROM frames").fetchall()
        for frame_id, rel, data in rows:
            absolute = str(folder / rel)
            con.execute("UPDATE frames SET path=?, data=replace(data, ?, ?) WHERE id=?",
                        (absolute, f'"path":"{rel}"', f'"path":"{absolute}"', frame_id))
        con.commit()
    finally:
        con.close()


def test_old_absolute_rows_are_migrated_on_open(tmp_path):
    db = tmp_path / "mem" / "memory.db"
    ids = _fill(db)
    _make_absolute(db, db.parent)
    assert all(Path(p).is_absolute() for p in _stored_paths(db))
    MemoryStore(db).close()  # the writer migrates
    assert _stored_paths(db) == [f"frames/{i}.jpg" for i in ids]
    reader = MemoryStore.open_reader(db)
    try:
        assert all(f'"path":"frames/' in r[0] for r in reader.db.execute("SELECT data FROM frames"))
    finally:
        reader.close()


def test_an_old_database_copied_elsewhere_forgets_only_its_own_frames(cli, tmp_path):
    """The reproduced data loss: a pre-change copy whose rows name the original's frame files."""
    original = tmp_path / "a" / "memory.db"
    ids = _fill(original)
    _make_absolute(original, original.parent)
    # the database copied alone: its rows name a's files, which it must not delete
    alone = tmp_path / "c" / "memory.db"
    alone.parent.mkdir()
    shutil.copy(original, alone)
    code, _, err = cli("forget", alone, "--everything", "--yes")
    assert code == 0, err
    assert sorted(p.name for p in (original.parent / "frames").iterdir()) == sorted(f"{i}.jpg" for i in ids)
    # copied with its frames: the copy's rows now name the copy's files, and forget deletes those only
    with_frames = tmp_path / "d"
    shutil.copytree(original.parent, with_frames)
    code, _, err = cli("forget", with_frames / "memory.db", "--entity", ids[1], "--yes")
    assert code == 0, err
    assert _stored_paths(with_frames / "memory.db") == [f"frames/{ids[0]}.jpg", f"frames/{ids[2]}.jpg"]
    assert not (with_frames / "frames" / f"{ids[1]}.jpg").exists()
    assert (original.parent / "frames" / f"{ids[1]}.jpg").exists()


def test_a_writer_command_refuses_a_database_another_process_writes(cli, tmp_path):
    """One writer per file: a forget beside a running node (or any writer) is refused, not interleaved."""
    import subprocess
    import sys

    db = tmp_path / "busy" / "memory.db"
    _fill(db)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from memory_node.core.store import MemoryStore; "
        f"s = MemoryStore({str(db)!r}, exclusive=True); print('held', flush=True); sys.stdin.read()")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        code, out, err = cli("forget", db, "--everything", "--yes")
        assert code == 2 and "already open for writing by another process (pid" in err, err
        assert len(list((db.parent / "frames").iterdir())) == 3  # nothing deleted
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    code, out, err = cli("forget", db, "--everything", "--yes")  # released with the process
    assert code == 0, err


def test_an_export_to_a_folder_that_is_not_there_is_one_line(cli, memory_db, tmp_path):
    code, out, err = cli("export", memory_db, "--json", tmp_path / "no" / "such" / "dir" / "m.json")
    assert code == 1
    assert err.strip() == f"memory-node export: {tmp_path / 'no' / 'such' / 'dir' / 'm.json'}: No such file or directory"
