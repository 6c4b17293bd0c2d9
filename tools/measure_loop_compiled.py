"""Issue 23, loops: whole loops compiled (``interpreters/loop_compiled.py``) against the Python
loops of NumPy calls, ``jax.jit`` and the same loops written by hand in NumPy.

The three loop cases of ``benchmarks/bench_overhead.py``, each variant timed in batches with
*thread CPU time* (preemption by other processes does not count; ``CLOCK=process``:
process CPU time, every thread), the variants interleaved (one
batch of each in turn), best batch of each over the rounds. Needs Numba for the compiled
variant and JAX for its column; run with a Python that has both, e.g.
``PYTHONPATH=.:<dir with numba and llvmlite> /tmp/jaxref/bin/python tools/measure_loop_compiled.py``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")
)

import bench_overhead as bo
import numpy as np
from _harness import optional_import

import trellax
import trellax.lax as tlax
import trellax.numpy as tnp
from trellax._src.interpreters import fusion_runtime, loop_compiled

ROUNDS = int(os.environ.get("ROUNDS", "9"))
#: ``CLOCK=process`` counts every thread of the process (JAX may run work on its own threads).
CLOCK = time.process_time if os.environ.get("CLOCK") == "process" else time.thread_time


def _timed(fn: Callable[[], Any], n: int) -> float:
    t0 = CLOCK()
    for _ in range(n):
        fn()
    return (CLOCK() - t0) / n


def _variants(make: Callable[..., Any], x: Any, jx: Any, jax: Any) -> dict[str, Callable[[], Any]]:
    out: dict[str, Callable[[], Any]] = {}
    loop_compiled.enabled = False
    f_py = make(trellax, tlax, tnp)
    f_py(x)  # compiled now, with the Python loops
    loop_compiled.enabled = True
    f_nb = make(trellax, tlax, tnp)
    with fusion_runtime.fusion_options(compiled_loop_min=0, compiled_wait=True):
        f_nb(x)
    out["trellax NumPy loops"] = lambda: f_py(x)
    out["trellax compiled"] = lambda: f_nb(x)
    if jax is not None:
        f_j = make(jax, jax.lax, jax.numpy)
        out["jax.jit"] = lambda: f_j(jx).block_until_ready()
    return out


def main() -> None:
    jax = optional_import("jax")
    cases = [
        ("jit(grad) of 100-step scan", bo._rnn, bo.numpy_rnn_grad, 16),
        ("jit fori_loop 100", bo._fori, bo.numpy_fori, 16),
        ("jit while_loop 100 (f32[8])", bo._while, bo.numpy_while, 8),
    ]
    for name, make, by_hand, n in cases:
        x = tnp.ones(n)
        jx = jax.numpy.ones(n) if jax is not None else None
        fns = _variants(make, x, jx, jax)
        xn = np.ones(n, np.float32)
        fns["NumPy by hand"] = lambda by_hand=by_hand, xn=xn: by_hand(xn)
        assert (
            np.asarray(fns["trellax compiled"]()).tobytes()
            == np.asarray(fns["trellax NumPy loops"]()).tobytes()
        )
        best = {k: float("inf") for k in fns}
        for _ in range(ROUNDS):
            for k, f in fns.items():
                best[k] = min(best[k], _timed(f, 50))
        ref = best.get("jax.jit")
        print(name)
        for k, v in best.items():
            ratio = f"  {v / ref:5.2f}x jax.jit" if ref else ""
            print(f"  {k:22s} {v * 1e6:8.1f} us{ratio}")


if __name__ == "__main__":
    main()
