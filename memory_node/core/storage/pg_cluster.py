"""A throwaway PostgreSQL cluster in a temporary folder, for tests and benchmarks: ``initdb`` (as the
``postgres`` user when run as root: initdb refuses root), a private unix-socket folder, a free port, no TCP.
Starts in about a second; ``stop()`` removes everything. Nothing here is used by a robot."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

PG_BIN_CANDIDATES = ("/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin")


def find_pg_bin() -> Path | None:
    """The folder with initdb and pg_ctl ($MEMORY_NODE_PG_BIN, Debian's, or on PATH); None when absent."""
    for folder in (os.environ.get("MEMORY_NODE_PG_BIN", ""), *PG_BIN_CANDIDATES):
        if folder and (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayCluster:
    """``with ThrowawayCluster() as pg: url = pg.url("memory")``."""

    def __init__(self, bin_dir: Path | None = None):
        self.bin_dir = bin_dir or find_pg_bin()
        if self.bin_dir is None:
            raise FileNotFoundError("no PostgreSQL server binaries (initdb, pg_ctl) found")
        self.root = Path(tempfile.mkdtemp(prefix="memory_node_pg_"))
        self.data = self.root / "data"
        self.socket_dir = self.root / "sock"
        self.port = _free_port()
        self._as_postgres = os.geteuid() == 0
        self.running = False

    def _run(self, *cmd: str) -> None:
        argv = [str(self.bin_dir / cmd[0]), *cmd[1:]]
        if self._as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def start(self) -> ThrowawayCluster:
        self.socket_dir.mkdir()
        if self._as_postgres:
            shutil.chown(self.root, "postgres")
            shutil.chown(self.socket_dir, "postgres")
        self._run("initdb", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "-D", str(self.data))
        self._pg_ctl_start()
        self._run("createdb", "-h", str(self.socket_dir), "-p", str(self.port), "-U", "postgres", "memory")
        return self

    def _pg_ctl_start(self) -> None:
        # fsync off: a test cluster that dies is thrown away anyway, and fsyncs would measure the disk
        opts = (f"-k {self.socket_dir} -p {self.port} -c listen_addresses='' -c fsync=off "
                f"-c synchronous_commit=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"), "-w", "start")
        self.running = True

    def restart(self) -> None:
        """Stop the server (fast: open connections are cut) and start it again on the same port."""
        self.stop_server()
        self._pg_ctl_start()

    def stop_server(self) -> None:
        if self.running:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
            self.running = False

    def create_database(self, name: str) -> str:
        self._run("createdb", "-h", str(self.socket_dir), "-p", str(self.port), "-U", "postgres", name)
        return self.url(name)

    def url(self, database: str = "memory") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def stop(self) -> None:
        try:
            self.stop_server()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> ThrowawayCluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
