"""Fixtures of the CLI tests: a real memory file (cli_helpers.fill) and the tool run in process."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # cli_helpers.py

from cli_helpers import fill  # noqa: E402

from memory_node.core.store import MemoryStore  # noqa: E402


@pytest.fixture
def memory_db(tmp_path):
    path = tmp_path / "memory.db"
    store = MemoryStore(path)
    fill(store)
    store.close()
    return path


@pytest.fixture
def cli(capsys):
    """cli(*args) -> (exit status, stdout, stderr) of `memory-node args...`, in process."""
    from memory_node.cli.main import main

    def run(*args):
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run
