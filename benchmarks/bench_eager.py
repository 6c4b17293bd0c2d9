"""Eager latency of small and large ops: trellax vs NumPy (and JAX eager, PyTorch).

Cases: ``x + y``, ``x * 2``, ``sin(x)``, ``x[1:3]``, ``where(c, x, y)`` on float32 arrays of 8
and 1e6 elements; reductions (``sum``, ``mean``, ``max``) on the same; ``matmul`` and ``einsum``
on 8x8 and 512x512 matrices (issue 4). JAX results are waited for (``block_until_ready``) so its asynchronous dispatch
is not mistaken for speed. Targets (issue 3): small ops within 5x of NumPy and at least 5x faster
than JAX eager; large ops within 1.1x of NumPy. Run alone with
``python benchmarks/run.py eager``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax.numpy as tnp

SIZES = (8, 1_000_000)


def _ops(ns: Any, x: Any, y: Any, c: Any) -> dict[str, Callable[[], object]]:
    """The benchmarked expressions, written once for any NumPy-like namespace."""
    return {
        "x + y": lambda: x + y,
        "x * 2": lambda: x * 2,
        "sin(x)": lambda: ns.sin(x),
        "x[1:3]": lambda: x[1:3],
        "where(c, x, y)": lambda: ns.where(c, x, y),
    }


def _reduction_ops(ns: Any, x: Any) -> dict[str, Callable[[], object]]:
    return {
        "sum(x)": lambda: ns.sum(x),
        "mean(x)": lambda: ns.mean(x),
        "max(x)": lambda: ns.max(x),
    }


def _product_ops(ns: Any, a: Any, b: Any) -> dict[str, Callable[[], object]]:
    return {
        "a @ b": lambda: a @ b,
        "einsum('ij,jk->ik')": lambda: ns.einsum("ij,jk->ik", a, b),
        "einsum('ij,ij->i')": lambda: ns.einsum("ij,ij->i", a, b),
    }


MATRIX_SIZES = (8, 512)


def _inputs(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    return x, y, x > y


def _time(fn: Callable[[], object] | None) -> float | None:
    if fn is None:
        return None
    fn()  # warm caches and fail loudly here rather than inside timeit
    return best_time(fn, min_time=0.05, repeat=3)


def main() -> None:
    jax = optional_import("jax")
    jnp = optional_import("jax.numpy")
    torch = optional_import("torch")
    rows: list[Row] = []
    for n in SIZES:
        x, y, c = _inputs(n)
        libs: dict[str, dict[str, Callable[[], object]]] = {
            "numpy": _ops(np, x, y, c),
            "trellax": _ops(tnp, tnp.asarray(x), tnp.asarray(y), tnp.asarray(c)),
        }
        if jnp is not None and jax is not None:
            jx, jy, jc = jnp.asarray(x), jnp.asarray(y), jnp.asarray(c)
            libs["jax"] = {
                k: (lambda f=f: jax.block_until_ready(f()))
                for k, f in _ops(jnp, jx, jy, jc).items()
            }
        if torch is not None:
            tx, ty, tc = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(c)
            libs["torch"] = _ops(torch, tx, ty, tc)
        for case in libs["numpy"]:
            rows.append(
                Row(f"{case} [n={n:g}]", {lib: _time(ops[case]) for lib, ops in libs.items()})
            )
    print_table("eager op latency, float32", rows)
    rows += _second_half(jax, jnp, torch)
    if jnp is None:
        print("jax: not installed (its column is n/a)")
    print("\ntargets: n=8: trellax/numpy <= 5x and jax/trellax >= 5x; n=1e6: trellax/numpy <= 1.1x")
    for row in rows:
        t, base, j = (row.times.get(k) for k in ("trellax", "numpy", "jax"))
        if t is None or not base:
            continue
        small = "n=8]" in row.case or "8x8" in row.case
        limit = 5.0 if small else 1.1
        verdict = f"trellax/numpy {t / base:.2f}x {'ok' if t <= limit * base else 'ABOVE'}"
        if j is not None and small:
            verdict += f"; jax/trellax {j / t:.1f}x {'ok' if j >= 5 * t else 'BELOW 5x'}"
        elif j is not None:
            verdict += f"; jax/trellax {j / t:.2f}x"
        print(f"  {row.case}: {verdict}")


def _libs(
    make: Callable[[Any, Any, Any], dict[str, Callable[[], object]]],
    args: tuple[np.ndarray, ...],
    jax: Any,
    jnp: Any,
    torch: Any,
) -> dict[str, dict[str, Callable[[], object]]]:
    libs = {
        "numpy": make(np, *args),
        "trellax": make(tnp, *[tnp.asarray(a) for a in args]),
    }
    if jnp is not None and jax is not None:
        jops = make(jnp, *[jnp.asarray(a) for a in args])
        libs["jax"] = {k: (lambda f=f: jax.block_until_ready(f())) for k, f in jops.items()}
    if torch is not None:
        libs["torch"] = make(torch, *[torch.from_numpy(a) for a in args])
    return libs


def _second_half(jax: Any, jnp: Any, torch: Any) -> list[Row]:
    """Reductions, matmul and einsum (issue 4): small within 5x of NumPy, large within 1.1x."""
    rows: list[Row] = []
    for n in SIZES:
        x = _inputs(n)[0]
        libs = _libs(lambda ns, a: _reduction_ops(ns, a), (x,), jax, jnp, torch)
        for case in libs["numpy"]:
            rows.append(
                Row(f"{case} [n={n:g}]", {lib: _time(ops[case]) for lib, ops in libs.items()})
            )
    rng = np.random.default_rng(1)
    for m in MATRIX_SIZES:
        a = rng.standard_normal((m, m)).astype(np.float32)
        b = rng.standard_normal((m, m)).astype(np.float32)
        libs = _libs(lambda ns, p, q: _product_ops(ns, p, q), (a, b), jax, jnp, torch)
        for case in libs["numpy"]:
            rows.append(
                Row(f"{case} [{m}x{m}]", {lib: _time(ops[case]) for lib, ops in libs.items()})
            )
    print_table("eager reductions and products, float32", rows)
    return rows


if __name__ == "__main__":
    main()
