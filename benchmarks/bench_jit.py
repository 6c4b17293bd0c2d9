"""A small function jitted: trellax.jit vs the same code eager vs hand-written NumPy vs jax.jit.

The function has a few elementwise ops and a reduction: ``sum(x * y + sin(x) - 0.5 * y)``, on
float32 arrays of 8 and 1e6 elements. Targets (issue 6): a cached trellax.jit call within 1.3x of
hand-written NumPy, and faster than ``jax.jit`` on the 8-element case. Run alone with
``python benchmarks/run.py jit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax
import trellax.numpy as tnp

SIZES = (8, 1_000_000)


def _reduce(ns: Any) -> Callable[[Any], Any]:
    if hasattr(ns, "sum"):
        return ns.sum  # type: ignore[no-any-return]
    return lambda v: trellax.lax.reduce_sum(v, tuple(range(v.ndim)))


def make_fn(ns: Any) -> Callable[[Any, Any], Any]:
    """The benchmarked function, for any NumPy-like namespace."""
    total = _reduce(ns)

    def f(x: Any, y: Any) -> Any:
        return total(x * y + ns.sin(x) - 0.5 * y)

    return f


def _time(fn: Callable[[], object] | None) -> float | None:
    if fn is None:
        return None
    fn()  # warm: traces/compiles once, outside the timing
    return best_time(fn, min_time=0.05, repeat=3)


def main() -> None:
    jax = optional_import("jax")
    jnp = optional_import("jax.numpy")
    rows: list[Row] = []
    for n in SIZES:
        rng = np.random.default_rng(0)
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        tx, ty = tnp.asarray(x), tnp.asarray(y)
        np_f, t_f = make_fn(np), make_fn(tnp)
        t_jit = trellax.jit(t_f)
        fns: dict[str, Callable[[], object] | None] = {
            "numpy": lambda np_f=np_f, x=x, y=y: np_f(x, y),
            "trellax.jit": lambda t_jit=t_jit, tx=tx, ty=ty: t_jit(tx, ty),
            "trellax eager": lambda t_f=t_f, tx=tx, ty=ty: t_f(tx, ty),
            "jax.jit": None,
            "jax eager": None,
        }
        if jax is not None and jnp is not None:
            j_f = make_fn(jnp)
            j_jit = jax.jit(j_f)
            jx, jy = jnp.asarray(x), jnp.asarray(y)
            fns["jax.jit"] = lambda j_jit=j_jit, jx=jx, jy=jy: j_jit(jx, jy).block_until_ready()
            fns["jax eager"] = lambda j_f=j_f, jx=jx, jy=jy: j_f(jx, jy).block_until_ready()
        rows.append(
            Row(f"sum(x*y + sin(x) - 0.5*y) [n={n:g}]", {k: _time(f) for k, f in fns.items()})
        )
        if t_jit.trace_count != 1:
            print(f"warning: trellax.jit traced {t_jit.trace_count} times for n={n}")
    print_table("jit: a small function", rows)
    if jnp is None:
        print("jax: not installed (its columns are n/a)")

    print("\ntargets: trellax.jit/numpy <= 1.3x; n=8: trellax.jit faster than jax.jit")
    for row in rows:
        t, base, j = (row.times.get(k) for k in ("trellax.jit", "numpy", "jax.jit"))
        e = row.times.get("trellax eager")
        if t is None or not base:
            continue
        verdict = f"trellax.jit/numpy {t / base:.2f}x {'ok' if t <= 1.3 * base else 'ABOVE 1.3x'}"
        if e:
            verdict += f"; eager/jit {e / t:.1f}x"
        if j is not None:
            ok = "ok" if t < j or "n=8]" not in row.case else "SLOWER"
            verdict += f"; jax.jit/trellax.jit {j / t:.2f}x {ok if 'n=8]' in row.case else ''}"
        print(f"  {row.case}: {verdict.rstrip()}")


if __name__ == "__main__":
    main()
