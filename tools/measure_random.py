"""Process CPU time of ``trellax.random`` draws beside NumPy's Generator and JAX, one process.

Usage (JAX's side needs a Python where JAX imports; trellax's compiled paths need Numba on the
path; ``TRELLAX_COMPILED_WAIT=1`` makes the first large draw wait for the compiler)::

    TRELLAX_COMPILED_WAIT=1 PYTHONPATH=.:<dir with numba> /tmp/jaxref/bin/python \
        tools/measure_random.py [--rounds 7] [--only normal,uniform]

Every case is timed with ``time.process_time`` (all threads of the process: trellax's chunks
and XLA's workers count as the work they are), libraries interleaved batch by batch, best batch
of ``--rounds`` kept, after a warm-up (compilation, and normal's float32 table) that is not
timed. Prints one line per case: the per-call CPU time of each library in microseconds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.random as tr

N = 10**6


def _cases(jax: Any) -> dict[str, dict[str, Callable[[], object]]]:
    g = np.random.default_rng(0)
    k = tr.key(0)
    jk = jax.random.key(0) if jax is not None else None
    out: dict[str, dict[str, Callable[[], object]]] = {}

    def add(
        name: str,
        ours: Callable[[], object],
        numpy_fn: Callable[[], object] | None,
        jfn: Callable[[Any], Any] | None,
    ) -> None:
        row: dict[str, Callable[[], object]] = {"trellax": ours}
        if numpy_fn is not None:
            row["numpy"] = numpy_fn
        if jax is not None and jfn is not None:
            jitted = jax.jit(jfn)
            row["jax.jit"] = lambda: jitted(jk).block_until_ready()
        out[name] = row

    r = jax.random if jax is not None else None
    for n, label in ((3, "(3,)"), (N, "10**6")):
        s = (n,)
        add(f"uniform {label}", lambda s=s: tr.uniform(k, s), lambda n=n: g.random(n),
            r and (lambda key, s=s: r.uniform(key, s)))  # fmt: skip
        add(f"normal {label}", lambda s=s: tr.normal(k, s), lambda n=n: g.standard_normal(n),
            r and (lambda key, s=s: r.normal(key, s)))  # fmt: skip
        add(f"randint {label}", lambda s=s: tr.randint(k, s, 0, 100),
            lambda n=n: g.integers(0, 100, n), r and (lambda key, s=s: r.randint(key, s, 0, 100)))  # fmt: skip
        add(f"bernoulli {label}", lambda s=s: tr.bernoulli(k, 0.5, s),
            lambda n=n: g.random(n) < 0.5, r and (lambda key, s=s: r.bernoulli(key, 0.5, s)))  # fmt: skip
        add(f"bits {label}", lambda s=s: tr.bits(k, s),
            lambda n=n: g.integers(0, 2**32, n, dtype=np.uint32),
            r and (lambda key, s=s: r.bits(key, s)))  # fmt: skip
    add("split(key)", lambda: tr.split(k), None, r and (lambda key: r.split(key)))
    add("fold_in(key, 3)", lambda: tr.fold_in(k, 3), None, r and (lambda key: r.fold_in(key, 3)))
    return out


def _batch(fn: Callable[[], object], number: int) -> float:
    t0 = time.process_time()
    for _ in range(number):
        fn()
    return (time.process_time() - t0) / number


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--only", default="")
    a = p.parse_args()
    try:
        import jax  # an optional peer: only where it is installed

        jax.config.update("jax_platforms", "cpu")
    except ImportError:
        jax = None
    only = [w for w in a.only.split(",") if w]
    print(f"# trellax from {os.path.dirname(tr.__file__)}; python {sys.version.split()[0]}")
    for name, row in _cases(jax).items():
        if only and not any(name.startswith(w) for w in only):
            continue
        number = 3 if "10**6" in name else 300
        for fn in row.values():  # warm-up: compilers, caches, normal's table
            for _ in range(4):
                fn()
        best = {lib: float("inf") for lib in row}
        for _ in range(a.rounds):
            for lib, fn in row.items():
                best[lib] = min(best[lib], _batch(fn, number))
        cells = "  ".join(f"{lib} {t * 1e6:10.1f}" for lib, t in best.items())
        print(f"{name:18s} {cells}", flush=True)


if __name__ == "__main__":
    main()
