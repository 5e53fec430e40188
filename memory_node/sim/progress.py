"""A line every so often while a long step runs, so a user never watches minutes of silence.

A cold Genesis scene build compiles its kernels for one to five minutes (more on a loaded machine) and
prints nothing meanwhile; the step itself cannot report progress, so a daemon thread says, every
``every`` seconds, that it is still running and for how long. Plain Python (no Genesis, no ROS): the
demo prints with it and the bridge logs with it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def still_running(describe: Callable[[float], str], emit: Callable[[str], None] = print,
                  every: float = 20.0) -> Iterator[None]:
    """While the block runs, ``emit(describe(elapsed_seconds))`` every ``every`` seconds (none if the block
    is done sooner). The thread is stopped and joined when the block ends, however it ends."""
    done = threading.Event()
    t0 = time.monotonic()

    def tick() -> None:
        while not done.wait(every):
            emit(describe(time.monotonic() - t0))

    thread = threading.Thread(target=tick, name="still_running", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def building_scene(scene: str) -> Callable[[float], str]:
    """The line for a Genesis scene build."""
    return lambda s: f"still building scene {scene} ({s:.0f} s; the first build compiles kernels, cached afterwards)"
