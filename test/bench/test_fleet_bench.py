"""The fleet benchmark runs and counts: two robots write into one PostgreSQL database and into a SQLite file
each, every message is found in memory afterwards, and reads were timed while they wrote."""

import argparse

import pytest

from memory_node.bench.fleet_bench import run_config


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_writers_lose_nothing(backend, pg_cluster, tmp_path):
    args = argparse.Namespace(seconds=1.5, rate=10.0, entities=8)
    row = run_config(backend, 2, args, tmp_path, pg_cluster)
    assert row["sent"] >= 2 * 10 and row["failed"] == 0 and row["lost"] == 0
    assert row["reads"] > 0 and row["read_p50_ms"] > 0
