"""Start the installed memory node executable as its own process, as a launch file would.

This is the documented way to run the node where `ros2 launch` is not installed:
``lib/memory_node/memory_node --ros-args --params-file share/memory_node/config/<robot>.yaml``.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any


def installed_paths(robot: str) -> tuple[Path, Path]:
    """(executable, params file) of the installed package."""
    from ament_index_python.packages import get_package_prefix, get_package_share_directory

    exe = Path(get_package_prefix("memory_node")) / "lib" / "memory_node" / "memory_node"
    params = Path(get_package_share_directory("memory_node")) / "config" / f"{robot}.yaml"
    return exe, params


def private_namespace(program: str) -> str:
    """A namespace of this process's own for the nodes a demo starts and talks to. Measured: two demos at
    once on one machine (one DDS domain, both nodes ``/memory_node``) answered and ingested each other's
    messages: a small-home run planned a handover to a person of the other run's apartment."""
    return f"/{program}_{os.getpid()}"


def node_command(robot: str = "vega", namespace: str = "", arguments: Sequence[str] = (),
                 **overrides: Any) -> list[str]:
    """``arguments``: the executable's own, before ``--ros-args`` (``--lifecycle``: a managed node)."""
    exe, params = installed_paths(robot)
    return [str(exe), *arguments, *_ros_args(params, namespace, overrides)]


def _ros_args(params_file: str | Path, namespace: str, overrides: dict[str, Any]) -> list[str]:
    """``--ros-args`` of a node: its params file, namespace and parameter overrides (booleans as ROS spells them)."""
    args = ["--ros-args", "--params-file", str(params_file)]
    if namespace:
        args += ["-r", f"__ns:=/{namespace.strip('/')}"]
    for key, value in overrides.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        args += ["-p", f"{key}:={value}"]
    return args


def perception_command(namespace: str = "", params_file: str | Path = "", **overrides: Any) -> list[str]:
    """The installed perception node (``lib/memory_node/perception_node``) with its params file (default
    ``share/memory_node/config/perception.yaml``) and overrides."""
    from ament_index_python.packages import get_package_prefix, get_package_share_directory

    exe = Path(get_package_prefix("memory_node")) / "lib" / "memory_node" / "perception_node"
    params = params_file or Path(get_package_share_directory("memory_node")) / "config" / "perception.yaml"
    return [str(exe), *_ros_args(params, namespace, overrides)]


def _die_with_parent() -> None:
    """Linux: SIGINT the node if the process that started it dies, so a crashed test or demo leaves no
    orphan node answering the next run's calls under the same name. Also blocks SIGINT/SIGTERM across the
    exec, as the executable's shebang does a moment later: a stop() right after start is then kept
    pending until the node's own handlers take it (memory_node/ros/shutdown.py), not lost in the
    microseconds before ``env`` blocks it."""
    signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGINT, signal.SIGTERM))
    try:
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGINT)
    except OSError:
        pass


class NodeProcess:
    """The memory node in a child process; ``stop()`` sends SIGINT (clean shutdown) and waits."""

    def __init__(self, robot: str = "vega", log: IO[str] | None = None, env: dict[str, str] | None = None,
                 namespace: str = "", arguments: Sequence[str] = (), wrapper: tuple[str, ...] = (),
                 **overrides: Any):
        """``wrapper``: a command that execs the node's command line given as its arguments (a test runs the
        node in a mount namespace of its own this way)."""
        self._start([*wrapper, *node_command(robot, namespace=namespace, arguments=arguments, **overrides)], log, env)

    def _start(self, cmd: list[str], log: IO[str] | None, env: dict[str, str] | None) -> None:
        self.cmd = cmd
        self.proc = subprocess.Popen(self.cmd, stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                     env={**os.environ, **(env or {})}, start_new_session=True,
                                     preexec_fn=_die_with_parent)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self, timeout: float = 10.0) -> int:
        if self.alive():
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    def kill(self) -> None:
        """SIGKILL the whole process group, as a crash would."""
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def __enter__(self) -> NodeProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class PerceptionProcess(NodeProcess):
    """The perception node in a child process (same stop/kill as the memory node's)."""

    def __init__(self, log: IO[str] | None = None, env: dict[str, str] | None = None, namespace: str = "",
                 params_file: str | Path = "", **overrides: Any):
        self._start(perception_command(namespace=namespace, params_file=params_file, **overrides), log, env)


def plan_executor_command(robot: str = "vega", namespace: str = "", params_file: str | Path = "",
                          **overrides: Any) -> list[str]:
    """The installed plan executor (``lib/memory_node/plan_executor``) with its params file (default
    ``share/memory_node/config/execution/<robot>.yaml``) and overrides."""
    from ament_index_python.packages import get_package_prefix, get_package_share_directory

    exe = Path(get_package_prefix("memory_node")) / "lib" / "memory_node" / "plan_executor"
    params = params_file or Path(get_package_share_directory("memory_node")) / "config" / "execution" / f"{robot}.yaml"
    return [str(exe), *_ros_args(params, namespace, overrides)]


class PlanExecutorProcess(NodeProcess):
    """The plan executor node in a child process (same stop/kill as the memory node's)."""

    def __init__(self, robot: str = "vega", log: IO[str] | None = None, env: dict[str, str] | None = None,
                 namespace: str = "", params_file: str | Path = "", **overrides: Any):
        self._start(plan_executor_command(robot, namespace=namespace, params_file=params_file, **overrides), log, env)
