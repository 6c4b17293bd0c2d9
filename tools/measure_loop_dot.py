"""Issue 23, loops: small matrix-vector products by ``np.dot`` instead of ``np.matmul``
(``specialize.dot_gemv``) in the interpreted loops of the three loop cases of
``benchmarks/bench_overhead.py``.

The same function jitted twice in one process, once generated with each setting, compiled loops
never due; interleaved rounds of 50 calls, thread CPU time, best of ``ROUNDS``.

    .venv/bin/python tools/measure_loop_dot.py
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

ROUNDS = int(os.environ.get("ROUNDS", "9"))


def _cases() -> dict[str, tuple[Callable[[Any], Any], int]]:
    return {k: v for k, v in loop_cases().items() if k != "while_loop"}  # no product in it


def _jit(fn: Callable[[Any], Any], dot: bool, x: Any) -> Callable[[Any], Any]:
    specialize.dot_gemv = dot
    try:
        f = trellax.jit(lambda h: fn(h))
        f(x)
        return f
    finally:
        specialize.dot_gemv = True


def main() -> None:
    for name, (fn, n) in _cases().items():
        x = jnp.ones(n)
        with fusion_runtime.fusion_options(compiled_loop_min=10**12):  # never compiles
            variants = {"matmul": _jit(fn, False, x), "dot": _jit(fn, True, x)}
            a, b = (np.asarray(f(x)) for f in variants.values())
            assert a.tobytes() == b.tobytes()
            calls = {k: functools.partial(f, x) for k, f in variants.items()}
            best = best_thread_times(calls, ROUNDS)
        print(name, " ".join(f"{k}: {v * 1e6:.1f} us" for k, v in best.items()))


if __name__ == "__main__":
    main()
