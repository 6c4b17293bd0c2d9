"""Issue 23, loops: small matrix-vector products by ``np.dot`` instead of ``np.matmul``
(``specialize.dot_gemv``) in the interpreted loops of the three loop cases of
``benchmarks/bench_overhead.py``.

The same function jitted twice in one process, once generated with each setting, compiled loops
never due; interleaved rounds of 50 calls, thread CPU time, best of ``ROUNDS``.

    .venv/bin/python tools/measure_loop_dot.py
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax
import trellax.lax as lax
import trellax.numpy as jnp
from trellax._src.interpreters import fusion_runtime, specialize

ROUNDS = int(os.environ.get("ROUNDS", "9"))


def _cases() -> dict[str, tuple[Callable[[Any], Any], int]]:
    w = jnp.eye(16) * 0.9

    def scan(h0: Any) -> Any:
        def body(h: Any, _: Any) -> Any:
            h = jnp.tanh(w @ h + 0.1)
            return h, h.sum()

        return lax.scan(body, h0, None, length=100)[1].sum()

    def fori(h: Any) -> Any:
        return lax.fori_loop(0, 100, lambda i, h: jnp.tanh(w @ h + 0.1), h)

    return {"scan jit(grad)": (trellax.grad(scan), 16), "fori_loop": (fori, 16)}


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
            best = dict.fromkeys(variants, float("inf"))
            for _ in range(ROUNDS):
                for key, f in variants.items():
                    t0 = time.thread_time()
                    for _ in range(50):
                        f(x)
                    best[key] = min(best[key], (time.thread_time() - t0) / 50)
        print(name, " ".join(f"{k}: {v * 1e6:.1f} us" for k, v in best.items()))


if __name__ == "__main__":
    main()
