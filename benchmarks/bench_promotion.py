"""Latency of dtype promotion: ``result_type`` and ``promote_types``, trellax vs NumPy vs JAX.

Targets (issue 2): trellax no slower than ``np.result_type``, and at least 10x faster than
``jax.numpy.result_type``. Cases:

* a pair of dtype objects (``int8``, ``float16``);
* an array and a Python scalar. NumPy and JAX get their own arrays; trellax gets a real
  ``trellax.numpy`` array when that module imports, and always a tiny stand-in object with
  ``.dtype``/``.shape``/``.weak_type`` (what promotion reads), labelled as such.

JAX runs with its defaults (x64 off, standard promotion), trellax likewise. Run alone with
``python benchmarks/run.py promotion``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax.dtypes as tdt


class _ArrayStub:
    """What promotion reads from an array; stands in when trellax.numpy is not importable."""

    __slots__ = ("dtype", "shape", "weak_type")

    def __init__(self, dtype: Any, weak_type: bool = False) -> None:
        self.dtype = np.dtype(dtype)
        self.shape = (3,)
        self.weak_type = weak_type


def _time(fn: Callable[[], object] | None) -> float | None:
    if fn is None:
        return None
    fn()  # warm caches, and fail loudly here rather than inside timeit
    return best_time(fn)


def main() -> None:
    jnp = optional_import("jax.numpy")
    tnp = optional_import("trellax.numpy")
    i8, f16 = np.dtype("int8"), np.dtype("float16")
    np_arr = np.zeros(3, "int8")
    stub = _ArrayStub("int8")
    t_arr = tnp.zeros(3, "int8") if tnp is not None else None
    j_arr = jnp.zeros(3, "int8") if jnp is not None else None

    def jax_fn(make: Callable[[Any], Callable[[], object]]) -> Callable[[], object] | None:
        return None if jnp is None else make(jnp)

    cases: list[tuple[str, dict[str, Callable[[], object] | None]]] = [
        (
            "promote_types(int8, float16)",
            {
                "numpy": lambda: np.promote_types(i8, f16),
                "trellax": lambda: tdt.promote_types(i8, f16),
                "jax": jax_fn(lambda j: lambda: j.promote_types(i8, f16)),
            },
        ),
        (
            "promote_types(int8, float)",
            {
                "numpy": lambda: np.promote_types(i8, float),
                "trellax": lambda: tdt.promote_types(i8, float),
                "jax": jax_fn(lambda j: lambda: j.promote_types(i8, float)),
            },
        ),
        (
            "result_type(int8, float16)",
            {
                "numpy": lambda: np.result_type(i8, f16),
                "trellax": lambda: tdt.result_type(i8, f16),
                "jax": jax_fn(lambda j: lambda: j.result_type(i8, f16)),
            },
        ),
        (
            "result_type(int8 array, 1.0) [trellax: stub object]",
            {
                "numpy": lambda: np.result_type(np_arr, 1.0),
                "trellax": lambda: tdt.result_type(stub, 1.0),
                "jax": jax_fn(lambda j: lambda: j.result_type(j_arr, 1.0)),
            },
        ),
        (
            "result_type(int8 array, 1.0) [trellax: tnp array]",
            {
                "numpy": lambda: np.result_type(np_arr, 1.0),
                "trellax": None if t_arr is None else (lambda: tdt.result_type(t_arr, 1.0)),
                "jax": jax_fn(lambda j: lambda: j.result_type(j_arr, 1.0)),
            },
        ),
    ]
    rows = [Row(name, {lib: _time(fn) for lib, fn in fns.items()}) for name, fns in cases]
    print_table("dtype promotion latency", rows)
    if jnp is None:
        print("jax: not installed (its column is n/a)")

    print("\ntargets: trellax/numpy <= 1.00x, jax/trellax >= 10x")
    for row in rows:
        t, n, j = (row.times.get(k) for k in ("trellax", "numpy", "jax"))
        if t is None:
            continue
        vs_np = f"trellax/numpy {t / n:.2f}x {'ok' if t <= n else 'SLOWER'}" if n else ""
        vs_jax = f"jax/trellax {j / t:.1f}x {'ok' if j >= 10 * t else 'BELOW 10x'}" if j else ""
        print(f"  {row.case}: {vs_np}; {vs_jax}".rstrip("; "))


if __name__ == "__main__":
    main()
