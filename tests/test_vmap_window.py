"""vmap of the window primitives (convolutions, their transposes, reduce_window) equals stacking
the per-example results, for every combination of batched operands, feature groups and layouts,
eagerly and under jit; each batched primitive stays one equation."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax

B = 3
rng = np.random.default_rng(7)


def _slice(a, ax, i):
    return a if ax is None else tnp.take(a, i, axis=ax)


def check(f, args, in_axes, jit=True):
    """vmap(f) (eager and jitted) against stacking f over the slices; f returns an array or a
    tuple of arrays."""
    per = [f(*[_slice(a, ax, i) for a, ax in zip(args, in_axes)]) for i in range(B)]
    many = isinstance(per[0], tuple)
    wants = [
        np.stack([np.asarray(p[k] if many else p) for p in per])
        for k in range(len(per[0]) if many else 1)
    ]
    runs = [trellax.vmap(f, in_axes=in_axes)]
    if jit:
        runs.append(trellax.jit(runs[0]))
    for run in runs:
        outs = run(*args)
        for out, want in zip(outs if many else (outs,), wants):
            assert out.dtype == want.dtype and out.shape == want.shape
            np.testing.assert_allclose(np.asarray(out), want, rtol=1e-4, atol=1e-4)


def _batched(shape, axis):
    x = rng.normal(size=shape).astype(np.float32)
    if axis is not None:
        x = rng.normal(size=np.expand_dims(x, axis).repeat(B, axis).shape).astype(np.float32)
    return tnp.asarray(x)


LAYOUTS = {
    "default": (None, "NCHW", "OIHW"),
    "nhwc": (("NHWC", "HWIO", "NHWC"), "NHWC", "HWIO"),
    "odd": (("CNHW", "IOHW", "HWNC"), "CNHW", "IOHW"),
}


def _conv_case(groups, layout):
    dn, lspec, rspec = LAYOUTS[layout]
    sizes = {"N": 2, "C": 4, "H": 5, "W": 6, "O": 6, "I": 4 // groups}
    xs = tuple(sizes[c] for c in lspec)
    ws = tuple(sizes[c] if c not in "HW" else {"H": 3, "W": 2}[c] for c in rspec)

    def f(x, w):
        return lax.conv_general_dilated(
            x, w, (2, 1), [(1, 0), (0, 2)], lhs_dilation=(1, 2), rhs_dilation=(2, 1),
            dimension_numbers=dn, feature_group_count=groups,
        )  # fmt: skip

    return f, xs, ws


AXES = [(0, None), (None, 0), (1, 2), (-1, 0)]


@pytest.mark.parametrize("groups", [1, 2])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("axes", AXES, ids=str)
def test_conv_and_its_gradients(groups, layout, axes):
    f, xs, ws = _conv_case(groups, layout)
    x, w = _batched(xs, axes[0]), _batched(ws, axes[1])
    check(f, (x, w), axes)
    loss = lambda x, w: (f(x, w) ** 2).sum()  # noqa: E731
    check(trellax.grad(loss, argnums=(0, 1)), (x, w), axes, jit=False)


@pytest.mark.parametrize("groups", [1, 2])
@pytest.mark.parametrize("layout", ["default", "odd"])
@pytest.mark.parametrize("axes", [(0, None, None), (None, 0, None), (None, None, 0), (0, 1, 0)])
def test_conv_transposes(groups, layout, axes):
    """The cotangent primitives with every subset of (cotangent, input, kernel) batched."""
    f, xs, ws = _conv_case(groups, layout)
    x0, w0 = _batched(xs, None), _batched(ws, None)
    y = f(x0, w0)
    ct, x, w = _batched(y.shape, axes[0]), _batched(xs, axes[1]), _batched(ws, axes[2])
    for k in (0, 1):
        check(lambda c, x, w, k=k: trellax.vjp(f, x, w)[1](c)[k], (ct, x, w), axes, jit=False)


def test_conv_is_one_equation_per_primitive():
    f, xs, ws = _conv_case(2, "nhwc")
    for axes in AXES:
        text = str(trellax.make_jaxpr(trellax.vmap(f, in_axes=axes))(
            _batched(xs, axes[0]), _batched(ws, axes[1])
        ))  # fmt: skip
        assert text.count("conv_general_dilated") == 1 and "while" not in text


def test_conv_transpose_and_dtypes():
    x = _batched((1, 5, 5, 2), 0).astype(tnp.bfloat16)
    w = _batched((3, 3, 2, 4), None).astype(tnp.bfloat16)
    f = lambda x: lax.conv_transpose(x, w, (2, 2), "SAME")  # noqa: E731
    out = trellax.vmap(f)(x)
    assert out.dtype == tnp.bfloat16 and out.shape == (B, 1, 10, 10, 4)
    want = np.stack([np.asarray(f(x[i]).astype(tnp.float32)) for i in range(B)])
    np.testing.assert_allclose(np.asarray(out.astype(tnp.float32)), want, rtol=2e-2, atol=2e-2)


def test_conv_nan_and_inf_stay_in_their_example():
    x = np.ones((B, 1, 1, 4), np.float32)
    x[1, 0, 0, 2] = np.nan
    x[2, 0, 0, 0] = np.inf
    w = tnp.ones((1, 1, 2))
    out = trellax.vmap(lambda x, w: lax.conv_general_dilated(x, w, (1,), "VALID"), (0, None))(
        tnp.asarray(x), w
    )
    got = np.asarray(out)
    assert np.isfinite(got[0]).all()
    assert np.isnan(got[1, 0, 0]).tolist() == [False, True, True]
    assert got[2, 0, 0].tolist() == [np.inf, 2.0, 2.0]


# -- reduce_window -------------------------------------------------------------------------------


WINDOWS = {
    "max_same": (lax.max, -np.inf, (2, 3), (1, 2), "SAME", None, None),
    "sum_pad": (lax.add, 0.0, (3, 2), (2, 1), [(1, 2), (0, 1)], (1, 2), None),
    "min_dil": (lax.min, np.inf, (2, 2), (1, 1), "VALID", None, (2, 1)),
    "mul_neg": (lax.mul, 1.0, (1, 2), (1, 1), [(-1, 0), (1, 1)], None, None),
}


@pytest.mark.parametrize("name", sorted(WINDOWS))
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_reduce_window(name, axis):
    comp, init, dims, strides, pad, bd, wd = WINDOWS[name]

    def f(x):
        return lax.reduce_window(x, init, comp, dims, strides, pad, bd, wd)

    x = np.array(_batched((4, 5), axis))
    np.moveaxis(x, axis, 0)[1, 2, :] = np.nan  # one row of one example
    np.moveaxis(x, axis, 0)[2, :, 1] = -np.inf  # one column of another
    check(f, (tnp.asarray(x),), (axis,))


@pytest.mark.parametrize("name", sorted(WINDOWS))
def test_reduce_window_with_a_batched_initial_value(name):
    comp, _, dims, strides, pad, bd, wd = WINDOWS[name]

    def f(x, init):
        return lax.reduce_window(x, init, comp, dims, strides, pad, bd, wd)

    init = tnp.asarray(np.array([-1.5, 0.0, np.inf], np.float32))
    for axes in [(0, 0), (None, 0)]:
        check(f, (_batched((4, 5), axes[0]), init), axes)
    ints = tnp.asarray(rng.integers(-5, 5, size=(B, 4, 5)).astype(np.int32))
    int_init = tnp.asarray(np.array([np.iinfo(np.int32).min, 0, 3], np.int32))
    check(f, (ints, int_init), (0, 0))


def test_pooling_gradients_per_example():
    x = _batched((1, 4, 4, 2), 0)

    def loss(x):
        return lax.reduce_window(x, -np.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID").sum()

    check(trellax.grad(loss), (x,), (0,), jit=False)
