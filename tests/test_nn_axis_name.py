"""``axis_name`` in the normalization layers (statistics averaged over a named ``vmap`` axis)
and the custom derivatives of ``relu``/``relu6``: behaviour beyond the Flax golden cases."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as tnp
import trellax.random as random

KEY = random.PRNGKey(0)
X = tnp.asarray(np.random.default_rng(0).standard_normal((3, 4, 2)), "float32")


def test_batchnorm_axis_name_uses_the_whole_mapped_batch() -> None:
    # three "devices" of four examples normalize exactly like one batch of twelve
    bn = nn.BatchNorm(use_running_average=False, momentum=0.5, axis_name="dev")
    variables = bn.init(KEY, X[0])  # init ignores axis_name: runs outside the vmap

    def step(x: object) -> object:
        return bn.apply(variables, x, mutable=["batch_stats"])

    y, upd = trellax.vmap(step, axis_name="dev")(X)
    full = nn.BatchNorm(use_running_average=False, momentum=0.5)
    y_full, upd_full = full.apply(variables, X.reshape(12, 2), mutable=["batch_stats"])
    np.testing.assert_allclose(np.asarray(y).reshape(12, 2), np.asarray(y_full), atol=1e-6)
    for k in ("mean", "var"):
        stats = np.asarray(upd["batch_stats"][k])
        assert stats.shape == (3, 2)  # the same statistics on every device
        # the mean of the devices' means and the whole batch's mean round differently
        full_k = np.broadcast_to(upd_full["batch_stats"][k], (3, 2))
        np.testing.assert_allclose(stats, full_k, rtol=4 * float(np.finfo(np.float32).eps))
    # without the axis name each device keeps its own statistics
    local = nn.BatchNorm(use_running_average=False, momentum=0.5)
    _, upd_local = trellax.vmap(lambda x: local.apply(variables, x, mutable=["batch_stats"]))(X)
    assert not np.allclose(upd_local["batch_stats"]["mean"], upd["batch_stats"]["mean"])


def test_batchnorm_axis_name_under_jit_and_grad() -> None:
    bn = nn.BatchNorm(use_running_average=False, axis_name="dev")
    variables = bn.init(KEY, X[0])

    def loss(x: object) -> object:
        y, _ = bn.apply(variables, x, mutable=["batch_stats"])
        return tnp.sum(tnp.sin(y))

    eager = trellax.vmap(trellax.grad(loss), axis_name="dev")(X)
    jitted = trellax.jit(trellax.vmap(trellax.grad(loss), axis_name="dev"))(X)
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(eager), rtol=1e-5, atol=1e-6)
    # the gradient of the whole batch's statistics: the per-device gradients sum to zero per
    # feature when the loss is linear in y (normalization removes the mean)
    lin = trellax.vmap(
        trellax.grad(lambda x: tnp.sum(bn.apply(variables, x, mutable=["batch_stats"])[0])),
        axis_name="dev",
    )(X)
    np.testing.assert_allclose(np.asarray(lin).sum((0, 1)), 0.0, atol=1e-5)


@pytest.mark.parametrize("layer", ["LayerNorm", "RMSNorm", "GroupNorm", "InstanceNorm"])
def test_unbound_axis_name_raises_name_error(layer: str) -> None:
    kw = {"num_groups": 1} if layer == "GroupNorm" else {}
    with pytest.raises(NameError, match="unbound axis name: b"):
        getattr(nn, layer)(axis_name="b", **kw).init(KEY, X)


def test_batchnorm_axis_name_outside_vmap() -> None:
    bn = nn.BatchNorm(use_running_average=False, axis_name="b")
    variables = bn.init(KEY, X)  # fine: init ignores the axis name
    with pytest.raises(NameError, match="unbound axis name: b"):
        bn.apply(variables, X, mutable=["batch_stats"])
    # evaluation uses the running statistics and needs no axis
    out = nn.BatchNorm(use_running_average=True, axis_name="b").apply(variables, X)
    assert out.shape == X.shape


def test_axis_index_groups_is_refused_under_vmap() -> None:
    ln = nn.LayerNorm(axis_name="b", axis_index_groups=[[0, 1], [2]])
    with pytest.raises(NotImplementedError, match="axis_index_groups"):
        trellax.vmap(lambda x: ln.init(KEY, x), axis_name="b")(X)
    # without an axis name the groups are unused, as in Flax
    nn.LayerNorm(axis_index_groups=[[0, 1], [2]]).init(KEY, X)


@pytest.mark.parametrize(
    ("fn", "x", "want"),
    [
        ("relu", 0.0, 0.0),
        ("relu", -0.0, 0.0),
        ("relu", 1e-30, 1.0),
        ("relu6", 0.0, 0.0),
        ("relu6", 6.0, 0.0),
        ("relu6", 5.999, 1.0),
        ("hard_sigmoid", 3.0, 0.0),
        ("hard_silu", 3.0, 1.0),
    ],
)
def test_relu_derivative_at_the_kinks_is_zero(fn: str, x: float, want: float) -> None:
    g = trellax.grad(getattr(nn, fn))(x)
    assert float(g) == want
    assert g.dtype == np.float32 and g.weak_type  # a Python float in, weak float32 out


def test_relu_keeps_dtypes_and_jvp() -> None:
    assert nn.relu(tnp.asarray([1, -2])).dtype == np.int32
    assert nn.relu(tnp.ones(2, "bfloat16")).dtype == np.dtype("bfloat16")
    x = tnp.asarray([-1.0, 0.0, 2.0, np.nan], "bfloat16")
    y, t = trellax.jvp(nn.relu6, (x,), (tnp.ones_like(x),))
    assert y.dtype == t.dtype == np.dtype("bfloat16")
    np.testing.assert_array_equal(np.asarray(t, np.float32), [0.0, 0.0, 1.0, 0.0])
    hess = trellax.grad(trellax.grad(nn.relu))(1.5)
    assert float(hess) == 0.0
