"""What one request costs against what memory holds: latency and peak memory of ~/ask's path and of ~/query,
against the length of a stored name (and label, room, attribute value), the length of the query text, and
the number of entities.

Why: a 20 KB stored name once made one question take minutes (a compound splitter quadratic in a label's
length) and a 1 MB room grew a query by gigabytes. Names over the limits are refused at the door now
(core/limits.py), but a database written before them keeps what it has, so the stored fields here are
written with the limits lifted, as such a database would hold them.

    python -m memory_node.bench.request_cost [--quick]

Each figure is the median of ``--repeat`` runs after a warm-up (the parser and the embedding model loaded
once); peak memory is what ``tracemalloc`` saw allocated during one run (Python and numpy allocations).
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable

from memory_node.core.limits import InputLimits
from memory_node.core.query import query
from memory_node.memory import Memory

QUESTIONS = ("\u202e\ufffd\U0001F984 where is the mug? \u200b", "where is the widget?", "what is on the table?")
_LIFTED = InputLimits(**{f: 10 ** 9 for f in ("max_name_chars", "max_label_chars", "max_room_chars",
                                              "max_attribute_value_chars", "max_id_chars", "max_text_length")})


def _filler(n: int, seed: str) -> str:
    """``n`` characters of word-like text (words are what the matchers split and compare)."""
    words = (f"{seed}{i % 97}q " for i in range(n))
    return "".join(words)[:n]


def build(entities: int, stored_chars: int) -> Memory:
    """A kitchen with a table, a mug on it, ``entities - 2`` other things, one of which has a name, label,
    room and colour of ``stored_chars`` characters."""
    mem = Memory(":memory:", limits=_LIFTED)
    with mem.batch():
        mem.observe("table_1", "table", position=(1, 2, 0), room="kitchen", t=10.0)
        mem.observe("mug_1", "mug", position=(1, 2, 0.8), room="kitchen", on="table_1", t=10.0)
        long = _filler(stored_chars, "z")
        mem.observe("odd_1", long.replace(" ", ""), position=(0, 0, 0), room=long, name=long,
                    attributes={"color": long}, t=11.0)
        for i in range(max(0, entities - 3)):
            mem.observe(f"thing_{i}", f"box{i % 50}", position=(i % 30, i // 30, 0), room=f"room{i % 8}",
                        t=12.0 + i * 1e-3)
    return mem


def _median_s(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _peak_mb(run: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / 2 ** 20
    finally:
        tracemalloc.stop()


def measure(mem: Memory, query_chars: int, repeat: int) -> dict[str, float]:
    text = _filler(query_chars, "mug")
    asks = [lambda q=q: mem.ask(q) for q in QUESTIONS]
    search = lambda: query(mem.store, kind="entities", text=text, limit=12)  # noqa: E731
    for run in [*asks, search]:  # warm-up: parser, embedding model, caches
        run()
    return {"ask_ms": 1000 * max(_median_s(a, repeat) for a in asks),
            "query_ms": 1000 * _median_s(search, repeat),
            "peak_mb": max(_peak_mb(r) for r in [*asks, search])}


def odd_utterances(n: int = 300, seed: int = 7) -> list[str]:
    """``n`` seeded word salads of 1-80 words from the words said facts are read by ("put", "in", "no", "not",
    "my", "one", ...): what a said-fact reader meets at its worst."""
    import random

    vocab = "the a fork forks in on into drawer go goes put no not , and my one is blue mine ' ? . don't".split()
    rng = random.Random(seed)
    return [" ".join(rng.choice(vocab) for _ in range(rng.randint(1, 80))) for _ in range(n)]


def correction_cost(inputs: int = 300, seed: int = 7) -> dict[str, float]:
    """What reading a said fact costs (``core.corrections.parse_utterance``, run on every user utterance): the
    worst and the median over odd word salads of 1-80 words, and a chain of 30 clauses (read once each, not
    exponentially). Was a timed unit test; the test now counts the clauses read instead."""
    from memory_node.core.categories import default_map
    from memory_node.core.corrections import parse_utterance

    default_map()
    times = []
    for text in odd_utterances(inputs, seed):
        t0 = time.perf_counter()
        parse_utterance(text)
        times.append((time.perf_counter() - t0) * 1e3)
    chain = " and ".join(f"put the thing{i} in the box{i}" for i in range(30))
    t0 = time.perf_counter()
    parse_utterance(chain)
    chain_ms = (time.perf_counter() - t0) * 1e3
    typical = []
    for t in _SAID * 20:  # what people say on the write path of every utterance
        t0 = time.perf_counter()
        parse_utterance(t)
        typical.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": statistics.median(times), "worst_ms": max(times), "chain30_ms": chain_ms,
            "typical_ms": statistics.median(typical)}


_SAID = ("put the fork in the drawer", "no, the cups go on the shelf, not in the cabinet",
         "forks, knives and spoons belong in the top drawer", "my mug is the blue one", "I prefer the red cup",
         "where is the fork?", "the weather is nice today and I had a long day at work, thanks for asking")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer points and repeats (a smoke run)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    repeat = 2 if args.quick else args.repeat
    lengths = (100, 10_000) if args.quick else (100, 1_000, 10_000, 100_000)
    counts = (1_000,) if args.quick else (1_000, 10_000, 100_000)
    print("slowest of the three questions (median ms), ~/query entities search (median ms), peak MB of one request")
    print(f"{'what varies':<28}{'value':>9}{'ask ms':>9}{'query ms':>10}{'peak MB':>9}")

    def row(what: str, value: int, r: dict[str, float]) -> None:
        print(f"{what:<28}{value:>9}{r['ask_ms']:>9.1f}{r['query_ms']:>10.1f}{r['peak_mb']:>9.1f}", flush=True)

    for n in lengths:
        row("stored name length (chars)", n, measure(build(100, n), 20, repeat))
    mem = build(100, 100)
    for n in (20, 400, 4000):
        row("query text length (chars)", n, measure(mem, n, repeat))
    for n in counts:
        row("entities", n, measure(build(n, 100), 20, max(1, repeat // 2)))
    c = correction_cost()
    print(f"said facts (core.corrections): everyday sentences median {c['typical_ms']:.3f} ms; odd inputs median "
          f"{c['median_ms']:.2f} ms, worst {c['worst_ms']:.2f} ms over 300; 30 clauses {c['chain30_ms']:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
