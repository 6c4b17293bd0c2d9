"""Eager dispatch cost (issue 15 §2): the per-call overhead of small operations, as ratios to NumPy.

Cases, each against its NumPy counterpart (and JAX, PyTorch when installed):

* ``result_type(int8, float16)`` and ``promote_types(int8, float16)`` of two dtypes;
* ``x + y``, ``x * 2``, ``sin(x)``, ``where(c, x, y)`` on float32 arrays of 8 elements;
* a cached ``jit`` call of ``sum(x * y + sin(x) - 0.5 * y)`` on 8 elements, against the same
  function hand-written in NumPy (``jax.jit`` and eager torch alongside).

Targets: result_type <= 1.0x NumPy, promote_types <= 2.0x, the four ops <= 3.0x, the cached jit
call <= 1.1x. The libraries are timed *interleaved* (one batch of each in turn, best batch kept),
so a load spike on a shared machine hits all columns alike rather than one of them. JAX results are
waited for (``block_until_ready``). Run alone with ``python benchmarks/run.py dispatch``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, optional_import, print_table

import trellax
import trellax.dtypes as tdt
import trellax.numpy as tnp

TARGETS = {
    "result_type(int8, float16)": 1.0,
    "promote_types(int8, float16)": 2.0,
    "x + y [n=8]": 3.0,
    "x * 2 [n=8]": 3.0,
    "sin(x) [n=8]": 3.0,
    "where(c, x, y) [n=8]": 3.0,
    "jit: sum(x*y + sin(x) - 0.5*y) [n=8]": 1.1,
}


def interleaved(
    fns: dict[str, Callable[[], object] | None], *, rounds: int = 25, batch_time: float = 0.004
) -> dict[str, float | None]:
    """Best per-call time of each function, timed in alternating batches."""
    live = {k: f for k, f in fns.items() if f is not None}
    numbers: dict[str, int] = {}
    for k, fn in live.items():
        fn()  # warm caches, and fail loudly here
        n, t = 1, 0.0
        while t < batch_time:
            n *= 2
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            t = time.perf_counter() - t0
        numbers[k] = n
    best = dict.fromkeys(live, float("inf"))
    for _ in range(rounds):
        for k, fn in live.items():
            n = numbers[k]
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            best[k] = min(best[k], (time.perf_counter() - t0) / n)
    return {k: best.get(k) for k in fns}


def _small_fn(ns: Any) -> Callable[[Any, Any], Any]:
    def f(x: Any, y: Any) -> Any:
        return ns.sum(x * y + ns.sin(x) - 0.5 * y)

    return f


def cases(
    jax: Any, jnp: Any, torch: Any
) -> list[tuple[str, dict[str, Callable[[], object] | None]]]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(8).astype(np.float32)
    y = rng.standard_normal(8).astype(np.float32)
    c = x > y
    tx, ty, tc = tnp.asarray(x), tnp.asarray(y), tnp.asarray(c)
    i8, f16 = np.dtype("int8"), np.dtype("float16")
    out: list[tuple[str, dict[str, Callable[[], object] | None]]] = []

    def row(name: str, **fns: Callable[[], object] | None) -> None:
        out.append((name, fns))

    jx = jy = jc = None
    if jnp is not None:
        jx, jy, jc = jnp.asarray(x), jnp.asarray(y), jnp.asarray(c)
    px = py = pc = None
    if torch is not None:
        px, py, pc = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(c)

    def j(fn: Callable[[], Any]) -> Callable[[], object] | None:
        return None if jax is None else (lambda: jax.block_until_ready(fn()))

    row(
        "result_type(int8, float16)",
        numpy=lambda: np.result_type(i8, f16),
        trellax=lambda: tdt.result_type(i8, f16),
        jax=None if jnp is None else (lambda: jnp.result_type(i8, f16)),
        torch=None,
    )
    row(
        "promote_types(int8, float16)",
        numpy=lambda: np.promote_types(i8, f16),
        trellax=lambda: tdt.promote_types(i8, f16),
        jax=None if jnp is None else (lambda: jnp.promote_types(i8, f16)),
        torch=None if torch is None else (lambda: torch.promote_types(torch.int8, torch.float16)),
    )
    row(
        "x + y [n=8]",
        numpy=lambda: x + y,
        trellax=lambda: tx + ty,
        jax=j(lambda: jx + jy),
        torch=None if torch is None else (lambda: px + py),
    )
    row(
        "x * 2 [n=8]",
        numpy=lambda: x * 2,
        trellax=lambda: tx * 2,
        jax=j(lambda: jx * 2),
        torch=None if torch is None else (lambda: px * 2),
    )
    row(
        "sin(x) [n=8]",
        numpy=lambda: np.sin(x),
        trellax=lambda: tnp.sin(tx),
        jax=j(lambda: jnp.sin(jx)),
        torch=None if torch is None else (lambda: torch.sin(px)),
    )
    row(
        "where(c, x, y) [n=8]",
        numpy=lambda: np.where(c, x, y),
        trellax=lambda: tnp.where(tc, tx, ty),
        jax=j(lambda: jnp.where(jc, jx, jy)),
        torch=None if torch is None else (lambda: torch.where(pc, px, py)),
    )
    np_f, t_jit = _small_fn(np), trellax.jit(_small_fn(tnp))
    j_jit = None if jax is None else jax.jit(_small_fn(jnp))
    row(
        "jit: sum(x*y + sin(x) - 0.5*y) [n=8]",
        numpy=lambda: np_f(x, y),
        trellax=lambda: t_jit(tx, ty),
        jax=None if j_jit is None else j(lambda: j_jit(jx, jy)),
        torch=None if torch is None else (lambda: _small_fn(torch)(px, py)),
    )
    return out


def main() -> None:
    jax = optional_import("jax")
    jnp = optional_import("jax.numpy")
    torch = optional_import("torch")
    rows = [Row(name, interleaved(fns)) for name, fns in cases(jax, jnp, torch)]
    print_table("eager dispatch: per-call time and ratio to NumPy (interleaved)", rows)
    missing = [n for n, m in (("jax", jnp), ("torch", torch)) if m is None]
    if missing:
        print(f"not installed (columns n/a): {', '.join(missing)}")
    print("\ntargets (issue 15 §2): trellax/numpy")
    for row in rows:
        t, base = row.times.get("trellax"), row.times.get("numpy")
        if t is None or not base:
            continue
        limit = TARGETS[row.case]
        print(
            f"  {row.case}: {t / base:.2f}x (target <= {limit}x) {'ok' if t <= limit * base else 'ABOVE'}"
        )


if __name__ == "__main__":
    main()
