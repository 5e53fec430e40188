"""Fixtures shared across test folders.

ROS: each test session gets its own ROS domain id and every node its own namespace, so parallel runs and a
node killed by a test never answer another test's calls. Discovery stays on localhost.
"""

import os
import random
import uuid
from pathlib import Path

import pytest

os.environ.setdefault("ROS_DOMAIN_ID", str(random.Random(os.getpid()).randint(1, 100)))
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

EPIC_DATA = Path(os.environ.get("EPIC_KITCHENS_DIR")
                 or Path(__file__).resolve().parents[2] / "shared" / "data" / "epic_kitchens_100")
EPIC_PARTICIPANT = "P23"  # 553 actions in 5 videos


def _robot_sdk(modules: tuple[str, ...], flag: str, requirements: str) -> None:
    """Skip where a robot SDK is not installed, fail where scripts/test.sh says it must be (a broken install)."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        reason = f"{', '.join(missing)} not installed (scripts/setup.sh installs {requirements})"
        if os.environ.get(flag) == "1":
            pytest.fail(f"robot SDK tests required: {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def vega_sdk():
    """dexcontrol, for the plan executor's Vega backend (tests that use it: pytestmark usefixtures)."""
    _robot_sdk(("dexcontrol",), "MEMORY_NODE_REQUIRE_VEGA", "requirements-vega.txt")


@pytest.fixture(scope="session")
def g1_sdk():
    """unitree_sdk2py over cyclonedds, for the plan executor's G1 backend."""
    _robot_sdk(("unitree_sdk2py", "cyclonedds"), "MEMORY_NODE_REQUIRE_G1", "requirements-g1.txt")


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


@pytest.fixture(scope="session")
def ros():
    import rclpy

    rclpy.init()
    yield
    rclpy.shutdown()


@pytest.fixture
def start_node(ros, tmp_path):
    """start_node(robot="vega", **params) -> (NodeProcess, MemoryClient) in a fresh namespace."""
    from memory_node.ros.client import MemoryClient
    from memory_node.ros.process import NodeProcess

    started = []
    logs = []

    def start(robot="vega", namespace=None, database_path=None, **params):
        ns = namespace or f"t{uuid.uuid4().hex[:8]}"
        log = open(tmp_path / f"node_{len(started)}.log", "w")
        logs.append(log)
        proc = NodeProcess(robot, log=log, namespace=ns,
                           database_path=str(database_path or tmp_path / "memory.db"), **params)
        client = MemoryClient(node_name=f"/{ns}/memory_node", namespace=f"/{ns}",
                              client_name=f"client_{uuid.uuid4().hex[:6]}")
        started.append((proc, client))
        try:
            client.wait_for_node(timeout=30, alive=proc.alive)
        except (TimeoutError, RuntimeError):
            proc.stop()
            log.flush()
            raise AssertionError("node did not come up:\n" + (tmp_path / f"node_{len(started) - 1}.log").read_text())
        return proc, client

    yield start
    for proc, client in started:
        client.close()
        proc.stop()
    for log in logs:
        log.close()


# ---- PostgreSQL --------------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def pg_cluster():
    """A throwaway PostgreSQL cluster for the whole session (started and removed here; nothing is started by
    hand). Skipped only where the server binaries are not installed."""
    from memory_node.core.storage.pg_cluster import ThrowawayCluster, find_pg_bin
    if find_pg_bin() is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed: apt-get install postgresql")
    pytest.importorskip("psycopg", reason="psycopg is not installed (requirements.txt)")
    cluster = ThrowawayCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


def pytest_generate_tests(metafunc):
    # the store suites that use the store_backend fixture run once per backend
    if "store_backend" in metafunc.fixturenames:
        metafunc.parametrize("store_backend", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(scope="session")
def _pg_schemas(pg_cluster):
    """Database schemas standing in for memory files on the session's cluster (path -> schema); they go with
    the cluster at the end of the session."""
    import psycopg
    admin = psycopg.connect(pg_cluster.url(), autocommit=True)
    admin.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    try:
        yield admin, {}
    finally:
        admin.close()


@pytest.fixture
def store_backend(request, monkeypatch):
    """Runs a store test on SQLite or on PostgreSQL. On PostgreSQL every memory file the test opens is kept
    in a database schema of its own on the session's cluster instead (the same path opens the same schema
    again, so reopening tests reopen), while frames stay files beside the path, as they do for a server."""
    if request.param == "sqlite":
        yield "sqlite"
        return
    only = request.node.get_closest_marker("sqlite_only")
    if only:
        pytest.skip(only.args[0] if only.args else "inspects or damages the SQLite file itself")
    cluster = request.getfixturevalue("pg_cluster")
    admin, schemas = request.getfixturevalue("_pg_schemas")

    from memory_node.core import store as store_module
    from memory_node.core.storage import is_database_url, open_storage

    def redirect(target, **kw):
        if not is_database_url(target):
            key = str(Path(target).resolve()) if str(target) != ":memory:" else f":memory:{uuid.uuid4().hex}"
            if key not in schemas:
                schemas[key] = f"t_{uuid.uuid4().hex[:12]}"
                admin.execute(f"CREATE SCHEMA {schemas[key]}")
            target = cluster.url() + f"&options=-csearch_path%3D{schemas[key]},public"
        kw.pop("exclusive", None)  # a server takes many writers: no file lock
        return open_storage(target, **kw)

    monkeypatch.setattr(store_module, "open_storage", redirect)
    yield "postgresql"


@pytest.fixture
def site_url(pg_cluster, _pg_schemas):
    """The URL of an empty site memory (a schema of its own) on the session's PostgreSQL cluster."""
    admin, schemas = _pg_schemas
    schema = f"site_{uuid.uuid4().hex[:12]}"
    admin.execute(f"CREATE SCHEMA {schema}")
    schemas[schema] = schema
    return pg_cluster.url() + f"&options=-csearch_path%3D{schema},public"
