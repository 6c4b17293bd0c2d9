"""Differentiation speed: trellax vs JAX (and hand-written NumPy, PyTorch).

Cases (issue 10):

* eager ``grad`` of a scalar function of a scalar, ``sin(x) * x + x ** 2`` (target: at least 5x
  faster than JAX's eager ``grad``, which traces and compiles on every call);
* reverse mode through a 100-step ``scan`` (eager and jitted) and the ``vmap``-based
  ``jacfwd``/``jacrev`` of a 32-element function (no target; compared with JAX);
* a 2-layer MLP loss (batch 128, 784 -> 256 -> 10, tanh, softmax cross-entropy, float32):
  ``jit(value_and_grad(loss))`` against the same backprop written by hand in NumPy (target:
  within 1.3x), against ``jax.jit(jax.value_and_grad)`` and PyTorch autograd (target: within 2x).

Run alone with ``python benchmarks/run.py grad``. JAX results are waited for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax
import trellax.numpy as tnp


def _time(fn: Callable[[], object] | None) -> float | None:
    if fn is None:
        return None
    fn()
    return best_time(fn, min_time=0.05, repeat=3)


def _scalar(ns: Any) -> Callable[[Any], Any]:
    return lambda x: ns.sin(x) * x + x**2


def _mlp_loss(ns: Any) -> Callable[..., Any]:
    def loss(params: Any, x: Any, y: Any) -> Any:
        w1, b1, w2, b2 = params
        h = ns.tanh(x @ w1 + b1)
        logits = h @ w2 + b2
        m = ns.max(logits, axis=1, keepdims=True)
        shifted = logits - m
        logp = shifted - ns.log(ns.sum(ns.exp(shifted), axis=1, keepdims=True))
        return -ns.mean(ns.sum(y * logp, axis=1))

    return loss


def _numpy_value_and_grad(params: Any, x: Any, y: Any) -> Any:
    """The same loss and its gradient, backpropagated by hand."""
    w1, b1, w2, b2 = params
    n = x.shape[0]
    h = np.tanh(x @ w1 + b1)
    logits = h @ w2 + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    s = e.sum(axis=1, keepdims=True)
    logp = shifted - np.log(s)
    value = -np.mean(np.sum(y * logp, axis=1))
    d_logits = (e / s * y.sum(axis=1, keepdims=True) - y) / n
    g_w2 = h.T @ d_logits
    g_b2 = d_logits.sum(axis=0)
    d_h = d_logits @ w2.T
    d_pre = d_h * (1 - h * h)
    g_w1 = x.T @ d_pre
    g_b1 = d_pre.sum(axis=0)
    return value, (g_w1, g_b1, g_w2, g_b2)


def _mlp_data() -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    params = [
        (rng.standard_normal((784, 256)) * 0.05).astype(np.float32),
        np.zeros(256, np.float32),
        (rng.standard_normal((256, 10)) * 0.05).astype(np.float32),
        np.zeros(10, np.float32),
    ]
    x = rng.standard_normal((128, 784)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 128)]
    return params, x, y


def main() -> None:
    jax = optional_import("jax")
    jnp = optional_import("jax.numpy")
    torch = optional_import("torch")

    rows: list[Row] = []
    scalar: dict[str, Callable[[], object] | None] = {"numpy": None}
    tg = trellax.grad(_scalar(tnp))
    scalar["trellax"] = lambda: tg(0.5)
    tx = tnp.float32(0.5)
    scalar_f32: dict[str, Callable[[], object] | None] = {
        "numpy": None,
        "trellax": lambda: tg(tx),
    }
    if jax is not None and jnp is not None:
        jg = jax.grad(_scalar(jnp))
        scalar["jax"] = lambda: jax.block_until_ready(jg(0.5))
        jx = jnp.float32(0.5)
        scalar_f32["jax"] = lambda: jax.block_until_ready(jg(jx))
    if torch is not None:

        def torch_grad() -> object:
            t = torch.tensor(0.5, requires_grad=True)
            (torch.sin(t) * t + t**2).backward()
            return t.grad

        scalar["torch"] = torch_grad
    rows.append(Row("eager grad, scalar (python float)", {k: _time(v) for k, v in scalar.items()}))
    rows.append(Row("eager grad, scalar (f32 array)", {k: _time(v) for k, v in scalar_f32.items()}))

    params, x, y = _mlp_data()
    mlp: dict[str, Callable[[], object] | None] = {
        "numpy": lambda: _numpy_value_and_grad(params, x, y)
    }
    tvg = trellax.jit(trellax.value_and_grad(_mlp_loss(tnp)))
    tparams = [tnp.asarray(p) for p in params]
    txx, tyy = tnp.asarray(x), tnp.asarray(y)
    mlp["trellax"] = lambda: tvg(tparams, txx, tyy)
    if jax is not None and jnp is not None:
        jvg = jax.jit(jax.value_and_grad(_mlp_loss(jnp)))
        jparams = [jnp.asarray(p) for p in params]
        jxx, jyy = jnp.asarray(x), jnp.asarray(y)
        mlp["jax"] = lambda: jax.block_until_ready(jvg(jparams, jxx, jyy))
    if torch is not None:
        tp = [torch.tensor(p, requires_grad=True) for p in params]
        txt, tyt = torch.from_numpy(x), torch.from_numpy(y)

        def torch_step() -> object:
            for p in tp:
                p.grad = None
            loss = _torch_loss(torch, tp, txt, tyt)
            loss.backward()
            return loss

        mlp["torch"] = torch_step
    rows.append(
        Row("MLP jit(value_and_grad) [128x784->256->10]", {k: _time(v) for k, v in mlp.items()})
    )
    print_table("differentiation, float32 (numpy = hand-written backprop)", rows)

    # Correctness of the comparison: trellax's gradient equals the hand-written one.
    v_np, g_np = _numpy_value_and_grad(params, x, y)
    v_t, g_t = tvg(tparams, txx, tyy)
    assert abs(float(v_t) - v_np) < 1e-4 * max(1.0, abs(v_np))
    for a, b in zip(g_t, g_np):
        np.testing.assert_allclose(np.asarray(a), b, rtol=2e-3, atol=2e-5)

    t_s = rows[0].times.get("trellax")
    j_s = rows[0].times.get("jax")
    if t_s and j_s:
        print(f"  eager scalar grad: jax/trellax {j_s / t_s:.1f}x (target >= 5x)")
    t_m, n_m, j_m, p_m = (rows[2].times.get(k) for k in ("trellax", "numpy", "jax", "torch"))
    if t_m and n_m:
        print(f"  MLP: trellax/numpy {t_m / n_m:.2f}x (target <= 1.3x)")
    if t_m and j_m:
        print(f"  MLP: trellax/jax {t_m / j_m:.2f}x")
    if t_m and p_m:
        print(f"  MLP: trellax/torch {t_m / p_m:.2f}x (target <= 2x)")
    if torch is None:
        print("torch: not installed (its column is n/a)")
    _loops_and_jacobians(jax, jnp)


def _rnn(ns: Any, lax: Any) -> Callable[..., Any]:
    """A 100-step tanh recurrence over a (100, 16) sequence with a 16x16 weight: a scan."""

    def loss(w: Any, xs: Any) -> Any:
        def step(h: Any, x: Any) -> Any:
            h = ns.tanh(h @ w + x)
            return h, h.sum()

        _, ys = lax.scan(step, ns.zeros(16, "float32"), xs)
        return ys.sum()

    return loss


def _loops_and_jacobians(jax: Any, jnp: Any) -> None:
    """Reverse mode through ``scan`` and the vectorized Jacobians (issue 10, rest)."""
    rng = np.random.default_rng(1)
    w = (rng.standard_normal((16, 16)) * 0.3).astype(np.float32)
    xs = rng.standard_normal((100, 16)).astype(np.float32)
    v = rng.standard_normal(32).astype(np.float32)
    rows: list[Row] = []
    tg = trellax.grad(_rnn(tnp, trellax.lax))
    tjg = trellax.jit(tg)
    tw, txs, tv = tnp.asarray(w), tnp.asarray(xs), tnp.asarray(v)
    cases: dict[str, dict[str, Callable[[], object] | None]] = {
        "grad of a 100-step scan, eager": {"trellax": lambda: tg(tw, txs)},
        "jit(grad) of a 100-step scan": {"trellax": lambda: tjg(tw, txs)},
    }
    tjf = trellax.jacfwd(lambda x: tnp.sin(x) * x.sum())
    tjr = trellax.jacrev(lambda x: tnp.sin(x) * x.sum())
    cases["jacfwd 32x32, eager"] = {"trellax": lambda: tjf(tv)}
    cases["jacrev 32x32, eager"] = {"trellax": lambda: tjr(tv)}
    if jax is not None and jnp is not None:
        jg = jax.grad(_rnn(jnp, jax.lax))
        jjg = jax.jit(jg)
        jw, jxs, jv = jnp.asarray(w), jnp.asarray(xs), jnp.asarray(v)
        cases["grad of a 100-step scan, eager"]["jax"] = lambda: jax.block_until_ready(jg(jw, jxs))
        cases["jit(grad) of a 100-step scan"]["jax"] = lambda: jax.block_until_ready(jjg(jw, jxs))
        jjf = jax.jacfwd(lambda x: jnp.sin(x) * x.sum())
        jjr = jax.jacrev(lambda x: jnp.sin(x) * x.sum())
        cases["jacfwd 32x32, eager"]["jax"] = lambda: jax.block_until_ready(jjf(jv))
        cases["jacrev 32x32, eager"]["jax"] = lambda: jax.block_until_ready(jjr(jv))
        np.testing.assert_allclose(np.asarray(tg(tw, txs)), np.asarray(jg(jw, jxs)), rtol=1e-3)
    for name, fns in cases.items():
        rows.append(Row(name, {"numpy": None, **{k: _time(f) for k, f in fns.items()}}))
    print_table("reverse mode through scan, Jacobians (float32)", rows)


def _torch_loss(torch: Any, params: Any, x: Any, y: Any) -> Any:
    w1, b1, w2, b2 = params
    h = torch.tanh(x @ w1 + b1)
    logits = h @ w2 + b2
    logp = torch.log_softmax(logits, dim=1)
    return -(y * logp).sum(dim=1).mean()


if __name__ == "__main__":
    main()
