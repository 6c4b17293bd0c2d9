"""``lax.conv_general_dilated``, ``conv_transpose`` and ``reduce_window``: derivatives (forward
and reverse, second order, in float64), dtype rules, and bad input. Values against JAX are in
``tests/test_nn_golden.py`` (the ``lax ...`` cases)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.lax as lax
import trellax.numpy as tnp
from trellax.test_util import check_grads

RNG = np.random.default_rng(0)


def arr(*shape: int) -> Any:
    return tnp.asarray(RNG.standard_normal(shape))


CONVS = [
    ("pads dilations", lambda x, w: lax.conv_general_dilated(
        x, w, (2, 1), ((1, 0), (-1, 2)), lhs_dilation=(1, 2), rhs_dilation=(2, 1)),
     (2, 3, 5, 4), (4, 3, 2, 3)),
    ("groups mixed specs", lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "OIHW", "NCHW"), feature_group_count=2),
     (2, 5, 4, 4), (4, 2, 3, 2)),
    ("1d VALID", lambda x, w: lax.conv_general_dilated(x, w, (2,), "VALID"), (1, 2, 7), (3, 2, 3)),
    ("conv_transpose", lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME"),
     (1, 3, 3, 2), (3, 3, 2, 2)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "f", "xs", "ws"), CONVS, ids=[c[0] for c in CONVS])
def test_conv_derivatives(name: str, f: Any, xs: Any, ws: Any) -> None:
    with trellax.enable_x64(True):
        check_grads(f, (arr(*xs), arr(*ws)), order=2)


WINDOWS = [
    ("max SAME", lambda x: lax.reduce_window(x, -tnp.inf, lax.max, (1, 1, 2, 3), (1, 1, 2, 1), "SAME")),
    ("min", lambda x: lax.reduce_window(x, tnp.inf, lax.min, (1, 2, 2, 1), (1, 1, 1, 1), "VALID")),
    ("sum dilated", lambda x: lax.reduce_window(
        x, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 2), ((0, 0), (1, 0), (0, 2), (0, 0)),
        base_dilation=(1, 1, 2, 1), window_dilation=(1, 1, 1, 2))),
]  # fmt: skip


@pytest.mark.parametrize(("name", "f"), WINDOWS, ids=[w[0] for w in WINDOWS])
def test_reduce_window_derivatives(name: str, f: Any) -> None:
    with trellax.enable_x64(True):
        check_grads(f, (arr(2, 3, 5, 4),), order=2)


def test_max_window_gradient_goes_to_first_maximum() -> None:
    x = tnp.asarray([[1.0, 3.0, 3.0, 0.0]])
    g = trellax.grad(
        lambda x: lax.reduce_window(x, -tnp.inf, lax.max, (1, 2), (1, 2), "VALID").sum()
    )(x)
    np.testing.assert_array_equal(np.asarray(g), [[0.0, 1.0, 1.0, 0.0]])


def test_jit_of_grad_matches_grad() -> None:
    f = CONVS[0][1]
    x, w = arr(2, 3, 5, 4).astype("float32"), arr(4, 3, 2, 3).astype("float32")
    loss = lambda x, w: tnp.sum(f(x, w) ** 2)  # noqa: E731
    eager = trellax.grad(loss, argnums=(0, 1))(x, w)
    jitted = trellax.jit(trellax.grad(loss, argnums=(0, 1)))(x, w)
    for a, b in zip(eager, jitted):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16", "int32", "complex64"])
def test_conv_dtype_and_weak_type(dtype: str) -> None:
    x, w = tnp.ones((1, 2, 4, 4), dtype), tnp.ones((3, 2, 2, 2), dtype)
    y = lax.conv_general_dilated(x, w, (1, 1), "VALID")
    assert y.dtype == np.dtype(tnp.dtype(dtype)) and not y.weak_type
    assert float(np.asarray(y, np.complex128).real.ravel()[0]) == 8.0
    assert trellax.eval_shape(
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID"), x, w
    ).shape == (1, 3, 3, 3)
    z = (
        lax.conv_general_dilated(x, w, (1, 1), "VALID", preferred_element_type="float32")
        if dtype != "complex64"
        else y
    )
    assert z.dtype in (np.float32, np.complex64)


def test_conv_bad_input() -> None:
    x, w = tnp.ones((1, 2, 4, 4)), tnp.ones((3, 2, 2, 2))
    with pytest.raises(TypeError, match="same dtypes"):
        lax.conv_general_dilated(x, w.astype("bfloat16"), (1, 1), "VALID")
    with pytest.raises(ValueError, match="feature_group_count"):
        lax.conv_general_dilated(x, tnp.ones((3, 3, 2, 2)), (1, 1), "VALID")
    with pytest.raises(TypeError, match="exactly once"):
        lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NNHW", "OIHW", "NCHW"))
    with pytest.raises(ValueError, match="window_strides"):
        lax.conv_general_dilated(x, w, (1,), "VALID")
    with pytest.raises(RuntimeError, match="Unrecognized padding type: expected 'VALID'"):
        lax.conv_general_dilated(x, w, (1, 1), "FULL")  # JAX's padtype_to_pads error
    with pytest.raises(ValueError, match="String padding"):
        lax.conv_general_dilated(x, w, (1, 1), "SAME", lhs_dilation=(2, 1))
    with pytest.raises(TypeError, match="bool"):
        lax.conv_general_dilated(x.astype(bool), w.astype(bool), (1, 1), "VALID")
    with pytest.raises(ValueError, match=r"batch_group_count=3 must .* divide"):
        lax.conv_general_dilated(x, w, (1, 1), "VALID", batch_group_count=3)


def test_conv_batch_group_count() -> None:
    # output feature group k convolves lhs batch group k (values from JAX 0.10.2)
    x = tnp.arange(24.0).reshape(4, 2, 3)
    w = tnp.arange(24.0).reshape(4, 2, 3) * 0.5
    out = lax.conv_general_dilated(x, w, (1,), "SAME", batch_group_count=2)
    assert out.shape == (2, 4, 3) and out.dtype == np.float32 and not out.weak_type
    np.testing.assert_array_equal(
        np.asarray(out),
        [
            [[17.0, 27.5, 17.0], [41.0, 72.5, 53.0], [425.0, 639.5, 425.0], [593.0, 900.5, 605.0]],
            [
                [53.0, 72.5, 41.0],
                [149.0, 225.5, 149.0],
                [605.0, 900.5, 593.0],
                [845.0, 1269.5, 845.0],
            ],
        ],
    )
    # the same convolution in NWC/WIO layouts, and its gradient (the kernel's is the products of
    # each batch group with the output cotangent)
    nwc = lax.conv_general_dilated(
        x.transpose(0, 2, 1), w.transpose(2, 1, 0), (1,), "SAME",
        dimension_numbers=("NWC", "WIO", "NWC"), batch_group_count=2,
    )  # fmt: skip
    np.testing.assert_array_equal(np.asarray(nwc), np.asarray(out).transpose(0, 2, 1))
    gx, gw = trellax.grad(
        lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", batch_group_count=2).sum(),
        (0, 1),
    )(x, w)
    assert gx.shape == x.shape and gw.shape == w.shape
    dense = trellax.grad(lambda w: sum(
        lax.conv_general_dilated(x[2 * k : 2 * k + 2], w[2 * k : 2 * k + 2], (1,), "SAME").sum()
        for k in range(2)
    ))(w)  # fmt: skip
    np.testing.assert_allclose(np.asarray(gw), np.asarray(dense))
    with pytest.raises(ValueError, match="at most one of feature_group_count"):
        lax.conv_general_dilated(x, w[:, :1], (1,), "SAME", feature_group_count=2,
                                 batch_group_count=2)  # fmt: skip


def test_reduce_window_rules() -> None:
    x = tnp.asarray([[1, 5, -2], [7, 0, 3]], "int8")
    m = lax.reduce_window(x, -tnp.inf, lax.max, (2, 2), (1, 1), "SAME")  # identity init on ints
    assert m.dtype == np.int8
    np.testing.assert_array_equal(np.asarray(m), [[7, 5, 3], [7, 3, 3]])
    nanx = tnp.asarray([1.0, tnp.nan, 2.0])
    assert np.isnan(
        np.asarray(lax.reduce_window(nanx, -tnp.inf, lax.max, (2,), (1,), "VALID"))
    ).all()
    with pytest.raises(TypeError, match="init_value dtype"):
        lax.reduce_window(tnp.ones(3), tnp.asarray(1, "int32"), lax.add, (2,), (1,), "VALID")
    # any other computation is folded (JAX: the first element of each window)
    first = lax.reduce_window(tnp.arange(3.0), 0.0, lambda a, b: a, (2,), (1,), "VALID")
    np.testing.assert_array_equal(np.asarray(first), [0.0, 0.0])
    s = lax.reduce_window(tnp.ones(3), 1.0, lax.add, (2,), (1,), ((1, 0),))  # non-identity init
    np.testing.assert_array_equal(np.asarray(s), [2.0, 3.0, 3.0])  # JAX: padding adds nothing


def test_reduce_window_general_computations_and_pytrees() -> None:
    # one public reduce_window: the primitive for lax.add/max/min/mul on one array, a fold of
    # the computation itself otherwise (values from JAX 0.10.2)
    x = tnp.arange(6.0).reshape(2, 3)
    i = tnp.arange(6).reshape(2, 3)
    out = lax.reduce_window(x, 0.0, lambda a, b: a + b, (1, 2), (1, 1), "VALID")
    assert out.dtype == np.float32 and not out.weak_type
    np.testing.assert_array_equal(np.asarray(out), [[1.0, 3.0], [7.0, 9.0]])
    m, s = lax.reduce_window(
        (x, i), (-np.inf, 0), lambda a, b: (tnp.maximum(a[0], b[0]), a[1] + b[1]),
        (1, 2), (1, 1), "SAME",
    )  # fmt: skip
    assert m.dtype == np.float32 and s.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(m), [[1.0, 2.0, 2.0], [4.0, 5.0, 5.0]])
    np.testing.assert_array_equal(np.asarray(s), [[1, 3, 2], [7, 9, 5]])
    # a known computation goes to the primitive, which keeps JAX's dtype check on init values
    np.testing.assert_array_equal(
        np.asarray(lax.reduce_window(x, 1.0, lax.add, (1, 2), (1, 1), "VALID")),
        [[2.0, 4.0], [8.0, 10.0]],
    )
    with pytest.raises(TypeError, match="init_value dtype"):
        lax.reduce_window(i, 1.0, lax.add, (1, 2), (1, 1), "VALID")
    jaxpr = trellax.make_jaxpr(lambda x: lax.reduce_window(x, 0.0, lax.add, (2,), (1,), "SAME"))
    assert "reduce_window" in str(jaxpr(tnp.ones(4)))
    # the fold is differentiable through its slices
    g = trellax.grad(
        lambda x: lax.reduce_window(x, 0.0, lambda a, b: a + b, (1, 2), (1, 1), "VALID").sum()
    )(x)
    np.testing.assert_array_equal(np.asarray(g), [[1.0, 2.0, 1.0], [1.0, 2.0, 1.0]])


@pytest.mark.parametrize(
    ("n", "k", "stride", "pads", "dil"),
    [(7, 3, 2, (1, 1), 1), (8, 3, 1, (0, 2), 2), (8, 2, 3, (2, 1), 1)],
)
def test_conv_transpose_use_consistent_padding_is_the_conv_gradient(
    n: int, k: int, stride: int, pads: tuple[int, int], dil: int
) -> None:
    # JAX 0.10.2: with use_consistent_padding the (low, high) pairs are the forward
    # convolution's, and conv_transpose(transpose_kernel=True) is its gradient (PyTorch's rule)
    rng = np.random.RandomState(0)
    x = rng.randn(2, n, 3).astype(np.float32)
    w = rng.randn(k, 3, 4).astype(np.float32)
    dn = ("NHC", "HIO", "NHC")

    def fwd(v: Any) -> Any:
        return lax.conv_general_dilated(
            v, w, (stride,), [pads], rhs_dilation=(dil,), dimension_numbers=dn
        )

    out, pull = trellax.vjp(fwd, x)
    ct = rng.randn(*out.shape).astype(np.float32)
    (want,) = pull(ct)
    got = lax.conv_transpose(
        ct, w, (stride,), [pads], rhs_dilation=(dil,), dimension_numbers=dn,
        transpose_kernel=True, use_consistent_padding=True,
    )  # fmt: skip
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)
    # without the flag the pairs pad the transposed convolution itself
    plain = lax.conv_transpose(
        ct, w, (stride,), [pads], rhs_dilation=(dil,), dimension_numbers=dn, transpose_kernel=True
    )
    eff = (k - 1) * dil + 1
    assert got.shape[1] == n
    assert plain.shape[1] == (out.shape[1] - 1) * stride + 1 + sum(pads) - eff + 1
