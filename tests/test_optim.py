"""``trellax.optim``: trajectories on a quadratic against each update rule written out in
float64, schedules, clipping, dtypes of mixed-precision parameters, and the dynamic loss scale.

The gradient of ``f(p) = 0.5 * a * p² - b * p`` is ``a * p - b`` (written by hand, so these tests
need no autodiff).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.optim as optim

A = np.array([0.5, 2.0, 10.0, 1e-3])
B = np.array([1.0, -3.0, 0.25, 0.0])
P0 = np.array([0.3, -1.2, 2.0, 5.0])
STEPS = 25


def grad(p: np.ndarray) -> np.ndarray:
    return A * p - B


def run(
    opt: optim.GradientTransformation, steps: int = STEPS, dtype: str = "float32"
) -> list[np.ndarray]:
    params = {"p": tnp.asarray(P0, dtype)}
    state = opt.init(params)
    out = []
    for _ in range(steps):
        g = {"p": tnp.asarray(grad(np.asarray(params["p"], np.float64)), dtype)}
        updates, state = opt.update(g, state, params)
        params = optim.apply_updates(params, updates)
        assert params["p"].dtype == np.dtype(dtype)
        out.append(np.asarray(params["p"], np.float64))
    return out


# -- the rules in float64 ---------------------------------------------------------------------------


def ref_sgd(lr: float, momentum: float | None = None, nesterov: bool = False) -> list[np.ndarray]:
    p, t, out = P0.copy(), np.zeros(4), []
    for _ in range(STEPS):
        g = grad(p)
        if momentum is None:
            u = g
        else:
            t = g + momentum * t
            u = g + momentum * t if nesterov else t
        p = p - lr * u
        out.append(p)
    return out


def ref_adam(
    lr: float,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    wd: float = 0.0,
    eps_root: float = 0.0,
) -> list[np.ndarray]:
    p, m, v, out = P0.copy(), np.zeros(4), np.zeros(4), []
    for k in range(1, STEPS + 1):
        g = grad(p)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        u = (m / (1 - b1**k)) / (np.sqrt(v / (1 - b2**k) + eps_root) + eps)
        p = p - lr * (u + wd * p)
        out.append(p)
    return out


def ref_rmsprop(
    lr: float,
    decay: float = 0.9,
    eps: float = 1e-8,
    centered: bool = False,
    momentum: float | None = None,
) -> list[np.ndarray]:
    p, mu, nu, t, out = P0.copy(), np.zeros(4), np.zeros(4), np.zeros(4), []
    for _ in range(STEPS):
        g = grad(p)
        nu = decay * nu + (1 - decay) * g * g
        mu = decay * mu + (1 - decay) * g
        u = g / np.sqrt((nu - mu * mu if centered else nu) + eps)
        u = -lr * u
        if momentum is not None:
            t = u + momentum * t
            u = t
        p = p + u
        out.append(p)
    return out


def ref_adagrad(lr: float, init: float = 0.1, eps: float = 1e-7) -> list[np.ndarray]:
    p, s, out = P0.copy(), np.full(4, init), []
    for _ in range(STEPS):
        g = grad(p)
        s = s + g * g
        p = p - lr * g / np.sqrt(s + eps)
        out.append(p)
    return out


def ref_lion(lr: float, b1: float = 0.9, b2: float = 0.99, wd: float = 1e-3) -> list[np.ndarray]:
    p, m, out = P0.copy(), np.zeros(4), []
    for _ in range(STEPS):
        g = grad(p)
        u = np.sign((1 - b1) * g + b1 * m)
        m = (1 - b2) * g + b2 * m
        p = p - lr * (u + wd * p)
        out.append(p)
    return out


TRAJECTORIES: list[tuple[str, Callable[[], Any], Callable[[], list[np.ndarray]]]] = [
    ("sgd", lambda: optim.sgd(0.05), lambda: ref_sgd(0.05)),
    ("sgd momentum", lambda: optim.sgd(0.05, 0.9), lambda: ref_sgd(0.05, 0.9)),
    ("sgd nesterov", lambda: optim.sgd(0.05, 0.9, True), lambda: ref_sgd(0.05, 0.9, True)),
    ("adam", lambda: optim.adam(0.1), lambda: ref_adam(0.1)),
    ("adamw", lambda: optim.adamw(0.1, weight_decay=0.05), lambda: ref_adam(0.1, wd=0.05)),
    ("adam eps_root", lambda: optim.adam(0.1, eps_root=0.5), lambda: ref_adam(0.1, eps_root=0.5)),
    ("rmsprop", lambda: optim.rmsprop(0.01), lambda: ref_rmsprop(0.01)),
    ("rmsprop centered momentum", lambda: optim.rmsprop(0.01, centered=True, momentum=0.5),
     lambda: ref_rmsprop(0.01, centered=True, momentum=0.5)),
    ("adagrad", lambda: optim.adagrad(0.3), lambda: ref_adagrad(0.3)),
    ("lion", lambda: optim.lion(0.02), lambda: ref_lion(0.02)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "make", "ref"), TRAJECTORIES, ids=[t[0] for t in TRAJECTORIES])
def test_trajectory_matches_float64_rule(name: str, make: Any, ref: Any) -> None:
    got = run(make())
    want = ref()
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-5, err_msg=f"{name} step {k}")


@pytest.mark.parametrize(("name", "make", "ref"), TRAJECTORIES, ids=[t[0] for t in TRAJECTORIES])
def test_jit_step_matches_eager(name: str, make: Any, ref: Any) -> None:
    opt = make()
    params = {"p": tnp.asarray(P0, "float32")}
    state = opt.init(params)

    @trellax.jit
    def step(params: Any, state: Any) -> Any:
        g = {"p": tnp.asarray(A, "float32") * params["p"] - tnp.asarray(B, "float32")}
        updates, state = opt.update(g, state, params)
        return optim.apply_updates(params, updates), state

    for _ in range(3):
        params, state = step(params, state)
    np.testing.assert_allclose(np.asarray(params["p"]), run(make(), 3)[-1], rtol=1e-5)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name", ["sgd momentum", "adam", "rmsprop", "adagrad", "lion"])
def test_half_precision_params_keep_moments_in_their_dtype(name: str, dtype: str) -> None:
    """As in optax: moments are stored in the parameters' dtype unless a ``*_dtype`` option
    says otherwise (``tests/test_optim_golden.py`` checks the trajectories against optax)."""
    make = dict((t[0], t[1]) for t in TRAJECTORIES)[name]
    opt = make()
    params = {"p": tnp.asarray(P0, dtype)}
    state = opt.init(params)
    moments = [x for x in trellax.tree_util.tree_leaves(state) if x.ndim == 1]
    assert moments and all(m.dtype == np.dtype(dtype) for m in moments)
    if dtype == "float16" and name == "adam":
        return  # g**2 of this problem's gradients overflows a float16 moment, as in optax
    got = run(make(), 10, dtype)
    want = dict((t[0], t[2]) for t in TRAJECTORIES)[name]()[:10]
    np.testing.assert_allclose(got[-1], want[-1], rtol=0.05, atol=0.05)


def test_mu_dtype_explicit() -> None:
    state = optim.adam(0.1, mu_dtype="bfloat16").init({"p": tnp.ones(2)})
    assert state[0].mu["p"].dtype == np.dtype("bfloat16") and state[0].nu["p"].dtype == np.float32


def test_clip_by_global_norm() -> None:
    opt = optim.clip_by_global_norm(1.0)
    g = {"a": tnp.asarray([3.0, 0.0]), "b": tnp.asarray([4.0], "bfloat16")}
    u, _ = opt.update(g, opt.init(g))
    assert u["b"].dtype == np.dtype("bfloat16")
    np.testing.assert_allclose(np.asarray(u["a"]), [0.6, 0.0], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(u["b"], np.float32), [0.8], rtol=1e-2)
    small = {"a": tnp.asarray([0.3, 0.4])}
    u2, _ = opt.update(small, opt.init(small))
    np.testing.assert_array_equal(np.asarray(u2["a"]), np.asarray(small["a"]))
    assert float(optim.global_norm(g)) == pytest.approx(5.0)


def test_chain_and_masked_weight_decay() -> None:
    opt = optim.chain(
        optim.add_decayed_weights(0.5, mask={"w": True, "b": False}), optim.scale(-1.0)
    )
    params = {"w": tnp.asarray([2.0]), "b": tnp.asarray([2.0])}
    u, _ = opt.update({"w": tnp.zeros(1), "b": tnp.zeros(1)}, opt.init(params), params)
    assert float(u["w"][0]) == -1.0 and float(u["b"][0]) == 0.0
    with pytest.raises(ValueError, match="params"):
        optim.add_decayed_weights(0.1).update({"w": tnp.zeros(1)}, optim.EmptyState())
    with pytest.raises(ValueError, match="2 parts"):
        opt.update({"w": tnp.zeros(1)}, (), params)


def test_apply_updates_keeps_param_dtype_and_none() -> None:
    params = {"a": tnp.ones(2, "bfloat16"), "b": None}
    out = optim.apply_updates(params, {"a": tnp.ones(2, "float32"), "b": None})
    assert out["a"].dtype == np.dtype("bfloat16") and out["b"] is None


@pytest.mark.parametrize(
    ("sched", "counts", "want"),
    [
        (optim.constant_schedule(0.1), [0, 5], [0.1, 0.1]),
        (optim.linear_schedule(1.0, 0.0, 4, 2), [0, 2, 3, 6, 100], [1.0, 1.0, 0.75, 0.0, 0.0]),
        (optim.cosine_decay_schedule(1.0, 10, alpha=0.1), [0, 5, 10, 20], [1.0, 0.55, 0.1, 0.1]),
        (optim.warmup_cosine_decay_schedule(0.0, 1.0, 2, 12, 0.1), [0, 1, 2, 7, 12, 50],
         [0.0, 0.5, 1.0, 0.55, 0.1, 0.1]),
        (optim.exponential_decay(1.0, 2, 0.5), [0, 1, 2, 4], [1.0, 2**-0.5, 0.5, 0.25]),
        (optim.exponential_decay(1.0, 2, 0.5, staircase=True, end_value=0.3), [1, 2, 9],
         [1.0, 0.5, 0.3]),
    ],
)  # fmt: skip
def test_schedules(sched: Any, counts: list[int], want: list[float]) -> None:
    got = [float(sched(tnp.asarray(c, "int32"))) for c in counts]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    one = sched(tnp.asarray(1, "int32"))
    assert isinstance(one, float) or one.dtype == np.float32  # constant schedules: the number


def test_scheduled_learning_rate_counts_steps() -> None:
    opt = optim.sgd(optim.linear_schedule(1.0, 0.0, 2))
    params = {"p": tnp.zeros(1, "bfloat16")}
    state = opt.init(params)
    ups = []
    for _ in range(3):
        u, state = opt.update({"p": tnp.ones(1, "bfloat16")}, state, params)
        assert u["p"].dtype == np.dtype("bfloat16")
        ups.append(float(u["p"][0]))
    assert ups == [-1.0, -0.5, 0.0]


def test_bad_schedule_arguments() -> None:
    with pytest.raises(ValueError, match="decay_steps"):
        optim.cosine_decay_schedule(1.0, 0)
    with pytest.raises(ValueError, match="decay_steps"):
        optim.warmup_cosine_decay_schedule(0.0, 1.0, 10, 10)  # no steps left to decay
    # as in optax, degenerate decays are constant schedules rather than errors
    assert optim.exponential_decay(1.0, 0, 0.5)(7) == 1.0
    assert optim.linear_schedule(1.0, 0.0, 0)(7) == 1.0


def test_dynamic_loss_scale() -> None:
    s = optim.DynamicLossScale(loss_scale=8.0, period=2, factor=2.0, min_loss_scale=2.0)
    g = {"w": tnp.asarray([1.0, 2.0], "float16")}
    scaled = s.scale(g)
    assert scaled["w"].dtype == np.float16 and float(scaled["w"][1]) == 16.0
    assert s.unscale(scaled)["w"].dtype == np.float16
    assert float(s.unscale(scaled)["w"][1]) == 2.0
    finite = optim.all_finite(g)
    s1 = s.adjust(finite)
    assert (float(s1.loss_scale), int(s1.counter)) == (8.0, 1)
    s2 = s1.adjust(finite)
    assert (float(s2.loss_scale), int(s2.counter)) == (16.0, 0)
    bad = {"w": tnp.asarray([np.inf, 1.0], "float16")}
    assert not bool(optim.all_finite(bad))
    assert not bool(optim.all_finite({"w": tnp.asarray([np.nan], "float32")}))
    s3 = s2.adjust(optim.all_finite(bad))
    assert (float(s3.loss_scale), int(s3.counter)) == (8.0, 0)
    s4 = optim.DynamicLossScale(2.0, min_loss_scale=2.0).adjust(tnp.asarray(False))
    assert float(s4.loss_scale) == 2.0
    kept = optim.select_tree(optim.all_finite(bad), {"w": tnp.zeros(2)}, {"w": tnp.ones(2)})
    np.testing.assert_array_equal(np.asarray(kept["w"]), [1.0, 1.0])
    leaves, tree = trellax.tree_util.tree_flatten(s3)
    assert len(leaves) == 2 and trellax.tree_util.tree_unflatten(tree, leaves).period == 2
    adjusted = trellax.jit(lambda s, f: s.adjust(f))(s2, tnp.asarray(True))
    assert float(adjusted.loss_scale) == 16.0
    with pytest.raises(ValueError, match="factor"):
        optim.DynamicLossScale(factor=1.0)


def test_float16_overflow_recovers_with_loss_scale() -> None:
    # A tiny float16 gradient flushes to zero unscaled; scaled by 2**10 it survives.
    tiny = 1e-8
    assert float(tnp.asarray(tiny, "float16")) == 0.0
    s = optim.DynamicLossScale(loss_scale=2.0**10)
    scaled = s.scale({"g": tnp.asarray(tiny, "float32")})["g"].astype("float16")
    assert float(scaled) != 0.0
    assert math.isclose(float(scaled) / 2**10, tiny, rel_tol=0.05)


def test_small_mlp_training_reaches_a_fixed_loss() -> None:
    import trellax.nn as nn
    import trellax.random as random

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.Dense(1)(nn.tanh(nn.Dense(16)(x)))

    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (64, 2)).astype(np.float32)
    y = (np.sin(3 * x[:, :1]) * x[:, 1:]).astype(np.float32)
    model = MLP()
    params = model.init(random.PRNGKey(0), tnp.asarray(x))["params"]
    opt = optim.chain(optim.clip_by_global_norm(10.0), optim.adam(0.03))
    state = opt.init(params)

    @trellax.jit
    def step(params: Any, state: Any, x: Any, y: Any) -> Any:
        loss, g = trellax.value_and_grad(
            lambda p: tnp.mean((model.apply({"params": p}, x) - y) ** 2)
        )(params)
        updates, state = opt.update(g, state, params)
        return optim.apply_updates(params, updates), state, loss

    first = None
    for _ in range(150):
        params, state, loss = step(params, state, tnp.asarray(x), tnp.asarray(y))
        first = float(loss) if first is None else first
    assert first > 0.05 and float(loss) < 0.01
