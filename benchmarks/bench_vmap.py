"""vmap: a per-example function over a batch of 1,000, against the same computation batched by
hand in NumPy and against a Python loop over examples.

Targets (issue 11): ``vmap`` within 1.3x of the NumPy computation batched by hand, and at least
50x faster than the loop. Cases:

* ``tanh(W @ x + b).sum()`` per example (W: 32x16), batch 1,000;
* per-example gradients of a small MLP (``vmap(grad(loss))``), batch 1,000; ``numpy`` is the
  same gradients written out by hand (``mlp_grads_by_hand``), ``loop`` a loop of the jitted
  per-example gradient.

Columns: ``numpy`` (batched by hand, the baseline), ``vmap`` (``trellax.jit(trellax.vmap(f))``),
``vmap-eager`` (``trellax.vmap(f)``, batching traced on every call), ``loop`` (a Python loop of
the trellax per-example function, eager), ``jax`` (``jax.jit(jax.vmap(f))`` when installed).
Run alone with ``python benchmarks/run.py vmap``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax
import trellax.numpy as tnp

BATCH = 1_000
rng = np.random.default_rng(0)
W = rng.normal(size=(32, 16)).astype(np.float32)
B = rng.normal(size=(32,)).astype(np.float32)
XS = rng.normal(size=(BATCH, 16)).astype(np.float32)
YS = rng.normal(size=(BATCH,)).astype(np.float32)


def per_example(np_: Any, w: Any, b: Any) -> Any:
    def f(x: Any) -> Any:
        return np_.tanh(w @ x + b).sum()

    return f


def mlp_loss(np_: Any) -> Any:
    def loss(params: Any, x: Any, y: Any) -> Any:
        w1, b1, w2 = params
        h = np_.tanh(w1 @ x + b1)
        return (h @ w2 - y) ** 2

    return loss


def mlp_grads_by_hand(w1: Any, b1: Any, w2: Any, xs: Any, ys: Any) -> Any:
    """Per-example gradients of ``mlp_loss`` with respect to ``(w1, b1, w2)``, in NumPy."""
    h = np.tanh(xs @ w1.T + b1)
    r2 = 2.0 * (h @ w2 - ys)
    dz = r2[:, None] * w2 * (1.0 - h * h)
    return dz[:, :, None] * xs[:, None, :], dz, r2[:, None] * h


def main() -> None:
    rows = []
    w, b, xs = tnp.asarray(W), tnp.asarray(B), tnp.asarray(XS)
    f = per_example(tnp, w, b)
    times: dict[str, float | None] = {
        "numpy": best_time(lambda: np.tanh(XS @ W.T + B).sum(axis=1)),
    }
    jv = trellax.jit(trellax.vmap(f))
    jv(xs)
    times["vmap"] = best_time(lambda: jv(xs))
    ev = trellax.vmap(f)
    times["vmap-eager"] = best_time(lambda: ev(xs), repeat=3)
    times["loop"] = best_time(lambda: [f(xs[i]) for i in range(BATCH)], repeat=1, min_time=0.05)
    jax = optional_import("jax")
    if jax is not None:
        jnp = jax.numpy
        jf = jax.jit(jax.vmap(per_example(jnp, jnp.asarray(W), jnp.asarray(B))))
        jx = jnp.asarray(XS)
        jf(jx).block_until_ready()
        times["jax"] = best_time(lambda: jf(jx).block_until_ready())
    rows.append(Row("tanh(W@x+b).sum(), B=1000", times))

    params = (w, b, tnp.asarray(rng.normal(size=(32,)).astype(np.float32)))
    ys = tnp.asarray(YS)
    grads = trellax.jit(trellax.vmap(trellax.grad(mlp_loss(tnp)), in_axes=(None, 0, 0)))
    grads(params, xs, ys)
    w1, b1, w2 = (np.asarray(p) for p in params)
    g_times: dict[str, float | None] = {
        "numpy": best_time(lambda: mlp_grads_by_hand(w1, b1, w2, XS, YS)),
        "vmap": best_time(lambda: grads(params, xs, ys)),
    }
    ev_grads = trellax.vmap(trellax.grad(mlp_loss(tnp)), in_axes=(None, 0, 0))
    g_times["vmap-eager"] = best_time(lambda: ev_grads(params, xs, ys), repeat=3)
    g1 = trellax.jit(trellax.grad(mlp_loss(tnp)))
    g1(params, xs[0], ys[0])
    g_times["loop"] = best_time(
        lambda: [g1(params, xs[i], ys[i]) for i in range(BATCH)], repeat=1, min_time=0.05
    )
    if jax is not None:
        jnp = jax.numpy
        jg = jax.jit(jax.vmap(jax.grad(mlp_loss(jnp)), in_axes=(None, 0, 0)))
        jp = tuple(jnp.asarray(np.asarray(p)) for p in params)
        jx, jy = jnp.asarray(XS), jnp.asarray(YS)
        jax.block_until_ready(jg(jp, jx, jy))
        g_times["jax"] = best_time(lambda: jax.block_until_ready(jg(jp, jx, jy)))
    rows.append(Row("per-example MLP grads, B=1000", g_times))
    print_table("vmap (batch 1,000)", rows, baseline="vmap")


if __name__ == "__main__":
    main()
