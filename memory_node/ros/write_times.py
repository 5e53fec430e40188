"""How long the node's input callbacks take, per input, over the last messages: the write latency that
/diagnostics reports (median and p99), so a soak or an operator can see it without a profiler."""

from __future__ import annotations

from collections import deque

WINDOW = 1000  # messages per input: recent enough to show a slowdown, long enough for a p99


class WriteTimes:
    def __init__(self, window: int = WINDOW) -> None:
        self._window = window
        self._seconds: dict[str, deque[float]] = {}

    def add(self, input_name: str, seconds: float) -> None:
        self._seconds.setdefault(input_name, deque(maxlen=self._window)).append(seconds)

    def summary(self) -> dict[str, str]:
        """``write_ms_median_<input>`` and ``write_ms_p99_<input>`` for each input that has had messages."""
        out: dict[str, str] = {}
        for name, times in self._seconds.items():
            ordered = sorted(times)
            n = len(ordered)
            out[f"write_ms_median_{name}"] = f"{ordered[n // 2] * 1000:.2f}"
            out[f"write_ms_p99_{name}"] = f"{ordered[min(n - 1, int(0.99 * n))] * 1000:.2f}"
        return out
