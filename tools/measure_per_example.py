"""Issue 23, per-example gradients (``jit(vmap(grad))``, 1000x32 -> 16, the suite's case):
the per-example outer product by NumPy's broadcast multiply against the compiled kernel of
``interpreters/outer_compiled.py`` (``specialize.outer_compiled_on``), in one process, with the
bandwidth floor (one write of the 2 MB result) and the pieces of the NumPy version.

Thread CPU time, interleaved rounds of 50 calls, best of ``ROUNDS``; compiled kernels waited
for (``TRELLAX_COMPILED_WAIT=1`` is set here).

    .venv/bin/python tools/measure_per_example.py
"""

from __future__ import annotations

import functools
import os

os.environ.setdefault("TRELLAX_COMPILED_WAIT", "1")

from collections.abc import Callable
from typing import Any

import numpy as np
from loop_bench import best_thread_times

import trellax
import trellax.numpy as jnp
from trellax._src.interpreters import outer_compiled, specialize

ROUNDS = int(os.environ.get("ROUNDS", "15"))


def _loss(w: Any, x: Any, y: Any) -> Any:
    return ((jnp.tanh(x @ w) - y) ** 2).mean()


def _jit(on: bool) -> Callable[..., Any]:
    specialize.outer_compiled_on = on
    try:
        f = trellax.jit(trellax.vmap(trellax.grad(_loss), in_axes=(None, 0, 0)))
        f(*_ARGS)
        return f
    finally:
        specialize.outer_compiled_on = True


_R = np.random.default_rng(0)
_W = _R.standard_normal((32, 16), dtype=np.float32)
_X = _R.standard_normal((1000, 32), dtype=np.float32)
_Y = _R.standard_normal((1000, 16), dtype=np.float32)
_ARGS = (jnp.asarray(_W), jnp.asarray(_X), jnp.asarray(_Y))


def main() -> None:
    g = _R.standard_normal((1000, 16), dtype=np.float32)
    gt, xt = np.ascontiguousarray(g.T), np.ascontiguousarray(_X.T)
    out = np.empty((16, 32, 1000), np.float32)
    runs: dict[str, Callable[[], Any]] = {
        "jit call, NumPy outer": functools.partial(_jit(False), *_ARGS),
        "jit call, compiled outer": functools.partial(_jit(True), *_ARGS),
        "NumPy outer (16,32,1000), fresh": lambda: np.multiply(gt[:, None, :], xt[None, :, :]),
        "NumPy outer into a preallocated result": lambda: np.multiply(
            gt[:, None, :], xt[None, :, :], out
        ),
        "its two operand transposes": lambda: (
            np.ascontiguousarray(g.T),
            np.ascontiguousarray(_X.T),
        ),
        "compiled kernel alone, fresh result": lambda: outer_compiled.batched_outer(
            g, _X, 1000, 16, 32, specialize._batched_outer
        ),
        "floor: write 2 MB (fill, preallocated)": lambda: out.fill(1.0),
        "floor: write 2 MB (fill, fresh)": lambda: np.empty((16, 32, 1000), np.float32).fill(1.0),
    }
    a, b = (np.asarray(runs[k]()) for k in ("jit call, NumPy outer", "jit call, compiled outer"))
    assert a.shape == b.shape and a.tobytes() == np.ascontiguousarray(b).tobytes()
    assert np.array_equal(a, b)
    best = best_thread_times(runs, ROUNDS)
    for key, v in best.items():
        print(f"{key:42s} {v * 1e6:8.1f} us")


if __name__ == "__main__":
    main()
