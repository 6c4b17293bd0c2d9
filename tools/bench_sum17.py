"""Cost of float32 sums in XLA:CPU's order (``backend/sum_order.py``) against NumPy's pairwise
``add.reduce``: thread time per call, the two interleaved, best of several rounds.

PYTHONPATH=. python tools/bench_sum17.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax._src.backend import numpy as kernels
from trellax._src.backend import sum_order

SHAPES: list[tuple[tuple[int, ...], Any]] = [
    ((8,), None),
    ((100,), None),
    ((1000,), None),
    ((4000,), None),
    ((64, 63), 0),
    ((64, 63), 1),
    ((63, 64), 0),
    ((63, 64), 1),
    ((64, 64), 0),
    ((64, 64), 1),
]


def per_call(f: Callable[[], Any], calls: int = 2000) -> float:
    start = time.thread_time_ns()
    for _ in range(calls):
        f()
    return (time.thread_time_ns() - start) / calls / 1000


def _kernels(x: np.ndarray[Any, Any], axis: Any) -> list[Callable[[], Any]]:
    """NumPy's add.reduce, the ordered kernel, jnp.sum, jnp.sum with NumPy's order."""
    t = tnp.asarray(x)
    axes = tuple(range(x.ndim)) if axis is None else (axis,)
    real = sum_order.ordered_sum

    def pairwise_sum() -> Any:
        sum_order.ordered_sum = lambda x, axes: None  # type: ignore[assignment]
        try:
            return tnp.sum(t, axis=axis)
        finally:
            sum_order.ordered_sum = real  # type: ignore[assignment]

    return [
        lambda: np.add.reduce(x, axis=axes),
        lambda: kernels.reduce_sum(x, axes=axes),
        lambda: tnp.sum(t, axis=axis),
        pairwise_sum,
    ]


def main() -> None:
    rng = np.random.default_rng(0)
    print("shape axis | numpy add.reduce | XLA order kernel | tnp.sum now | tnp.sum NumPy order")
    for shape, axis in SHAPES:
        fs = _kernels(rng.standard_normal(shape).astype(np.float32), axis)
        best = [per_call(f) for f in fs]
        for _ in range(6):  # interleaved rounds
            best = [min(b, per_call(f)) for b, f in zip(best, fs, strict=True)]
        print(f"{shape} {axis} | " + " | ".join(f"{b:.2f}" for b in best) + " µs")


if __name__ == "__main__":
    main()
