"""trellax.random against NumPy's Generator and JAX (eager and under jit) in one run.

Rows: a small draw (shape (3,)) and 10**6 draws of uniform, normal and randint, plus bernoulli
(small and 10**6), 10**6 uint32 bits, fold_in and split (NumPy's nearest analogue: ``spawn``).
``tools/measure_random.py`` times the same draws in process CPU time (for a loaded machine).
NumPy's normals are float64 (``standard_normal``; its float32 draw takes about as long).
JAX's eager call dispatches a jitted sampler; "jax jit" wraps the draw in ``jax.jit`` with the
key as an argument. trellax's numbers are eager calls (jit would only add a cached dispatch).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax.random as tr

N = 10**6


def _cases(jax: Any) -> list[tuple[str, Callable[[], object], Callable[[], object], Any, Any]]:
    g = np.random.default_rng(0)
    k = tr.key(0)
    cases: list[tuple[str, Callable[[], object], Callable[[], object], Any, Any]] = []
    jk = jax.random.key(0) if jax is not None else None

    def j(f: Callable[[Any], Any]) -> tuple[Any, Any]:
        if jax is None:
            return None, None
        jitted = jax.jit(f)
        jitted(jk).block_until_ready()
        return (lambda: f(jk).block_until_ready()), (lambda: jitted(jk).block_until_ready())

    for n, label in ((3, "(3,)"), (N, "10**6")):
        s = (n,)
        cases.append(
            (f"uniform {label}", lambda s=s: tr.uniform(k, s), lambda n=n: g.random(n),
             *j(lambda key, s=s: jax.random.uniform(key, s)))
        )  # fmt: skip
        cases.append(
            (f"normal {label}", lambda s=s: tr.normal(k, s), lambda n=n: g.standard_normal(n),
             *j(lambda key, s=s: jax.random.normal(key, s)))
        )  # fmt: skip
        cases.append(
            (f"randint {label}", lambda s=s: tr.randint(k, s, 0, 100),
             lambda n=n: g.integers(0, 100, n), *j(lambda key, s=s: jax.random.randint(key, s, 0, 100)))
        )  # fmt: skip
    cases.append(
        ("bernoulli (3,)", lambda: tr.bernoulli(k, 0.5, (3,)), lambda: g.random(3) < 0.5,
         *j(lambda key: jax.random.bernoulli(key, 0.5, (3,))))
    )  # fmt: skip
    cases.append(
        ("bernoulli 10**6", lambda: tr.bernoulli(k, 0.5, (N,)), lambda: g.random(N) < 0.5,
         *j(lambda key: jax.random.bernoulli(key, 0.5, (N,))))
    )  # fmt: skip
    cases.append(
        ("bits 10**6", lambda: tr.bits(k, (N,)), lambda: g.integers(0, 2**32, N, dtype=np.uint32),
         *j(lambda key: jax.random.bits(key, (N,))))
    )  # fmt: skip
    cases.append(
        ("fold_in(key, 3)", lambda: tr.fold_in(k, 3), lambda: g.spawn(1),
         *j(lambda key: jax.random.fold_in(key, 3)))
    )  # fmt: skip
    cases.append(
        (
            "split(key)",
            lambda: tr.split(k),
            lambda: g.spawn(2),
            *j(lambda key: jax.random.split(key)),
        )
    )
    return cases


def main() -> None:
    jax = optional_import("jax")
    rows = []
    for name, ours, numpy_fn, jax_eager, jax_jit in _cases(jax):
        n = 3 if "(3,)" in name or "split" in name or "fold_in" in name else 1
        times: dict[str, float | None] = {
            "numpy": best_time(numpy_fn, min_time=0.05 * n, repeat=3),
            "trellax": best_time(ours, min_time=0.05 * n, repeat=3),
            "jax": None if jax_eager is None else best_time(jax_eager, min_time=0.05, repeat=3),
            "jax jit": None if jax_jit is None else best_time(jax_jit, min_time=0.05, repeat=3),
        }
        rows.append(Row(name, times))
    print_table("trellax.random (numpy = numpy.random.Generator)", rows)


if __name__ == "__main__":
    main()
