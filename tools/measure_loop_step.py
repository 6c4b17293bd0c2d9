"""Issue 23, loops: the per-step overhead of interpreted loop bodies, switched on and off in one
process (``specialize.known_layout``: layout checks settled when the program is generated;
``specialize.dot_out``: small matrix-vector products written into loop buffers).

The three loop cases of ``benchmarks/bench_overhead.py``, each function jitted once per variant
(compiled loops never due), results compared byte for byte, then interleaved rounds of 50 calls,
thread CPU time, best of ``ROUNDS``. ``floor`` is the same loop written by hand with the NumPy
calls the generated program makes (no checks, no dels, results into buffers where it writes
them): what is left is the cost of the loop and the program around the calls.

    .venv/bin/python tools/measure_loop_step.py
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import numpy as np
from loop_bench import best_thread_times, loop_cases

import trellax
import trellax.numpy as jnp
from trellax._src.interpreters import fusion_runtime, specialize

ROUNDS = int(os.environ.get("ROUNDS", "15"))
SWITCHES = ("known_layout", "dot_out")


def _cases() -> dict[str, tuple[Callable[[Any], Any], int]]:
    return loop_cases()


def _floor_scan(h0: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    w = np.eye(16, dtype=np.float32) * np.float32(0.9)
    one, k = np.array(1, np.float32), np.array(0.1, np.float32)
    dot, add, mul, tanh, sub = np.dot, np.add, np.multiply, np.tanh, np.subtract
    hs = np.empty((100, 16), np.float32)
    u = np.empty(16, np.float32)
    h = h0
    for r in hs:
        h = tanh(add(dot(w, h), k, u), r)
    d = sub(one, hs)
    g = np.zeros(16, np.float32)
    a, b, c, e = (np.empty(16, np.float32) for _ in range(4))
    for y, dy in zip(hs[::-1], d[::-1]):
        add(g, one, a)
        mul(a, dy, b)
        mul(b, y, c)
        g = dot(add(b, c, e), w)
    return g


def _jit(fn: Callable[[Any], Any], settings: dict[str, bool], x: Any) -> Callable[[Any], Any]:
    saved = {k: getattr(specialize, k) for k in SWITCHES if hasattr(specialize, k)}
    for k, v in settings.items():
        setattr(specialize, k, v)
    try:
        f = trellax.jit(lambda h: fn(h))
        f(x)
        return f
    finally:
        for k, v in saved.items():
            setattr(specialize, k, v)


def main() -> None:
    present = [k for k in SWITCHES if hasattr(specialize, k)]
    variants_of = {
        "before": dict.fromkeys(present, False),
        "after": dict.fromkeys(present, True),
    }
    for name, (fn, n) in _cases().items():
        x = jnp.ones(n)
        with fusion_runtime.fusion_options(compiled_loop_min=10**12):  # never compiles
            runs: dict[str, Callable[[], Any]] = {
                k: functools.partial(_jit(fn, s, x), x) for k, s in variants_of.items()
            }
            if name.startswith("scan"):
                runs["floor"] = functools.partial(_floor_scan, np.ones(16, np.float32))
            outs = [np.asarray(f()).tobytes() for f in runs.values()]
            assert all(o == outs[0] for o in outs), name
            best = best_thread_times(runs, ROUNDS)
        print(name, " ".join(f"{k}: {v * 1e6:.1f} us" for k, v in best.items()))


if __name__ == "__main__":
    main()
