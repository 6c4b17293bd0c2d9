"""Where a large draw's time goes: each step of the compiled and the NumPy paths of 10**6
values, alone, on one thread (``time.thread_time``, best of ``--rounds``).

    TRELLAX_COMPILED_WAIT=1 .venv/bin/python tools/profile_random.py

Needs Numba for the compiled rows (``trellax[compiled]``). Prints nanoseconds per value.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from trellax._src.random import compiled_kernels as ck
from trellax._src.random import normal, threefry

N = 10**6


def _best(fn: Callable[[], object], rounds: int) -> float:
    fn()
    best = float("inf")
    for _ in range(rounds):
        t0 = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t0)
    return best / N * 1e9


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=9)
    rounds = p.parse_args().rounds
    rows: dict[str, Callable[[], object]] = {}
    one = threefry.OneKey(3, 5)
    x0, x1, tmp = (np.empty(threefry.chunks.CHUNK, np.uint32) for _ in range(3))

    def numpy_hash() -> None:  # the NumPy rounds over 10**6 counters, chunk by chunk
        for i0 in range(0, N, x0.size):
            m = min(x0.size, N - i0)
            one.hash(i0, threefry.RAMP[:m], x0[:m], x1[:m], tmp[:m])

    rows["NumPy path: hash (110 passes a chunk)"] = numpy_hash
    table = normal._normal_table()
    idx = np.random.default_rng(0).integers(0, 1 << 23, N).astype(np.uint32)
    out32 = np.empty(N, np.float32)
    rows["np.take from the 32 MiB table"] = lambda: np.take(table, idx, out=out32, mode="clip")
    ready = ck.start(wait=True)
    if ready is not None and ready.done:
        inj = ck.schedule(3, 5)
        u0 = np.uint32(3)
        words, wide = np.empty(N, np.uint32), np.empty(N, np.uint64)
        fns = {name: ck.get(name, N) for name in ("xor32", "wide", "unit32", "table", "randint")}
        rows["kernel xor32 (bits)"] = lambda: fns["xor32"](5, N, u0, inj, words)  # type: ignore[misc]
        rows["kernel wide (64-bit bits)"] = lambda: fns["wide"](5, N, u0, inj, wide)  # type: ignore[misc]
        rows["kernel unit32 (uniform)"] = lambda: fns["unit32"](5, N, u0, inj, out32)  # type: ignore[misc]
        rows["kernel table (normal)"] = lambda: fns["table"](5, N, u0, inj, table, out32)  # type: ignore[misc]
        span = np.uint32(100)
        recip = np.uint64(((1 << 64) - 1) // 100 + 1)
        rows["kernel randint (two hashes, fastmod)"] = lambda: fns["randint"](  # type: ignore[misc]
            5, 7, N, u0, inj, u0, inj, span, recip, np.uint32(36), np.uint32(0), words
        )
    for name, fn in rows.items():
        print(f"{name:42s} {_best(fn, rounds):6.2f} ns/value")


if __name__ == "__main__":
    main()
