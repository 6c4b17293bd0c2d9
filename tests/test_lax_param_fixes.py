"""Fixes found by the fuzzer of ``lax`` primitives with random parameters (``tools/fuzz_lax.py``,
``tests/test_fuzz_lax.py``); each test failed before its fix. Expected values are JAX 0.10.2's,
observed with it and derived by hand in the comments."""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import lax

_DOT = (((0,), (0,)), ((), ()))


def test_dot_general_of_two_dtypes_converts_operands_to_the_result_dtype() -> None:
    # int8 [8, 3] . bfloat16 [21.625, 1] into int8: XLA converts 21.625 to 21 first,
    # 8 * 21 + 3 * 1 = 171, wrapped into int8 = -85 (not 8 * 21.625 + 3 = 176 -> -80)
    a = jnp.array([8, 3], jnp.int8)
    b = jnp.array([21.625, 1.0], jnp.bfloat16)
    got = lax.dot_general(a, b, _DOT, preferred_element_type=jnp.int8)
    assert got.dtype == jnp.int8 and int(got) == -85
    # float32 . float16 into int32: [.5, -1.5, 2] truncates to [0, -1, 2] on both sides: 5
    x = jnp.array([0.5, -1.5, 2.0], jnp.float32)
    got = lax.dot_general(x, x.astype(jnp.float16), _DOT, preferred_element_type=jnp.int32)
    assert int(got) == 5
    # NaN and out-of-range operands convert as convert_element_type does: NaN -> 0, 1e30 ->
    # INT_MAX (then INT_MAX + 1 + 1 wraps); -1.5 -> 0 in uint32
    ones = jnp.ones(3, jnp.int8)
    for v, want, dt in ((np.nan, 2, jnp.int32), (1e30, -(2**31) + 1, jnp.int32), (-1.5, 2, jnp.uint32)):  # fmt: skip
        f = jnp.array([v, 1.0, 1.0], jnp.float32)
        assert int(lax.dot_general(f, ones, _DOT, preferred_element_type=dt)) == want
    # float32 . float16 into float16: 1.0004 rounds to 1.0 in float16 before the sum (3.0; a
    # float32 sum 3.0012 would round to 3.002)
    y = jnp.full(3, 1.0004, jnp.float32)
    got = lax.dot_general(y, jnp.ones(3, jnp.float16), _DOT, preferred_element_type=jnp.float16)
    assert float(got) == 3.0
    # a bool operand beside float32 into int32: 0.5 truncates to 0 -> 0
    got = lax.dot_general(jnp.ones(3, bool), jnp.full(3, 0.5), _DOT, preferred_element_type=jnp.int32)  # fmt: skip
    assert int(got) == 0


def test_dot_general_float_sum_into_integers_saturates() -> None:
    # one dtype, float32 sums converted to int32/uint8 as convert_element_type does
    one = jnp.ones(2, jnp.float32)
    for v, i32, u8 in ((1e30, 2**31 - 1, 255), (np.nan, 0, 0), (-1e30, -(2**31), 0)):
        x = jnp.array([v, 1.0], jnp.float32)
        assert int(lax.dot_general(x, one, _DOT, preferred_element_type=jnp.int32)) == i32
        assert int(lax.dot_general(x, one, _DOT, preferred_element_type=jnp.uint8)) == u8


def test_approx_k_not_aggregated_returns_a_short_axis_whole() -> None:
    # JAX's CPU approx_max_k/approx_min_k with aggregate_to_topk=False return every entry of an
    # axis of up to 1,024, sorted (shape (2, 1, 4) for k=3 on (2, 1, 4)); aggregated, k entries
    x = jnp.array([[1.5, -np.inf, -0.0, -2.0], [1.0, -67.0, 3.0, 35.5]], jnp.float32)
    v, i = lax.approx_max_k(x, 3, aggregate_to_topk=False)
    assert v.shape == i.shape == (2, 4)
    assert v.tolist() == [[1.5, -0.0, -2.0, -np.inf], [35.5, 3.0, 1.0, -67.0]]
    assert i.tolist() == [[0, 2, 3, 1], [3, 2, 0, 1]]
    v, i = lax.approx_min_k(x, 1, reduction_dimension=0, aggregate_to_topk=False)
    assert v.tolist() == [[1.0, -np.inf, -0.0, -2.0], [1.5, -67.0, 3.0, 35.5]]
    assert i.tolist() == [[1, 0, 0, 0], [0, 1, 1, 1]]
    assert lax.approx_max_k(x, 3)[0].shape == (2, 3)
    assert lax.approx_max_k(jnp.zeros(1500), 3, aggregate_to_topk=False)[0].shape == (3,)


def test_scatter_into_an_empty_operand_returns_it() -> None:
    # an operand with an empty axis and non-empty updates: nothing is written (JAX returns the
    # empty operand in every mode; trellax raised IndexError in clip mode)
    dn = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=(0, 2), scatter_dims_to_operand_dims=(2, 0),
        operand_batching_dims=(1,), scatter_indices_batching_dims=(0,),
    )  # fmt: skip
    operand = jnp.zeros((0, 4, 4), jnp.float16)
    indices = jnp.zeros((4, 3, 2), jnp.int32)
    updates = jnp.ones((4, 3), jnp.float16)
    for f in (lax.scatter, lax.scatter_add, lax.scatter_min, lax.scatter_mul):
        for mode in ("clip", "fill", "promise_in_bounds"):
            out = f(operand, indices, updates, dn, mode=mode)
            assert out.shape == (0, 4, 4) and out.dtype == jnp.float16


def _raises(cls: type[Exception], f: object) -> None:
    try:
        f()  # type: ignore[operator]
    except cls:
        return
    raise AssertionError(f"no {cls.__name__}")


def test_error_classes_and_refusals_of_jax() -> None:
    # scatter_add/scatter_mul (and scatter_sub) of bool: TypeError (scatter, min and max take it)
    dn = lax.ScatterDimensionNumbers((), (0,), (0,))
    b, i = jnp.ones(3, bool), jnp.zeros((1, 1), jnp.int32)
    for f in (lax.scatter_add, lax.scatter_mul, lax.scatter_sub):
        _raises(TypeError, lambda f=f: f(b, i, jnp.zeros(1, bool), dn))
    assert lax.scatter_max(b, i, jnp.zeros(1, bool), dn).tolist() == [True] * 3
    # argmax over an empty axis: ValueError before the index dtype is looked at
    _raises(ValueError, lambda: lax.argmax(jnp.ones((0, 3)), 0, jnp.float32))
    # top_k of complex: ValueError
    _raises(ValueError, lambda: lax.top_k(jnp.ones(3, jnp.complex64), 2))
    # bitcast: bool and complex only to their own type (both ways), which is accepted
    _raises(TypeError, lambda: lax.bitcast_convert_type(jnp.ones(3, jnp.complex64), jnp.float32))
    _raises(TypeError, lambda: lax.bitcast_convert_type(jnp.ones((3, 2), jnp.float32), jnp.complex64))  # fmt: skip
    assert lax.bitcast_convert_type(jnp.ones(3, bool), bool).tolist() == [True] * 3
    assert lax.bitcast_convert_type(jnp.ones(2, jnp.complex64), jnp.complex64).tolist() == [1, 1]
    # approx_max_k/approx_min_k of integers: ValueError (JAX: the operand must be floating)
    _raises(ValueError, lambda: lax.approx_min_k(jnp.ones(3, jnp.int8), 1))
    _raises(ValueError, lambda: lax.approx_max_k(jnp.ones(3, jnp.uint32), 1))


def test_scatter_without_scatter_dims_combines_every_update() -> None:
    # kept on purpose (docs/semantics.md): indices of shape (4, 2, 0) address the whole operand
    # eight times; XLA on CPU applies only the last update (JAX: add 10, min 4, max 6)
    dn = lax.ScatterDimensionNumbers(
        update_window_dims=(2,), inserted_window_dims=(), scatter_dims_to_operand_dims=()
    )
    u = jnp.array([9, 18, 8, 2, 7, 1, 5, 4], jnp.int32).reshape(4, 2, 1)
    x, i = jnp.array([6], jnp.int32), jnp.zeros((4, 2, 0), jnp.int32)
    assert lax.scatter_add(x, i, u, dn).tolist() == [60]
    assert lax.scatter_min(x, i, u, dn).tolist() == [1]
    assert lax.scatter_max(x, i, u, dn).tolist() == [18]


def test_clamp_derivative_with_scalar_bounds() -> None:
    # kept on purpose (docs/semantics.md): JAX's rule raises TypeError here
    import trellax

    x = jnp.array([-2.0, 0.25, 3.0], jnp.float32)
    g = trellax.grad(lambda v: lax.clamp(jnp.float32(-1.0), v, jnp.float32(1.0)).sum())(x)
    assert g.tolist() == [0.0, 1.0, 0.0]


def test_complex_dot_general_into_a_real_type_converts_the_complex_sum() -> None:
    # (1+1j)**2 + 2.5**2 = 6.25 + 2j: into float32 6.25 and into int32 6 (the real parts'
    # products alone would give 7.25)
    a = jnp.array([1 + 1j, 2.5 + 0j], jnp.complex64)
    assert float(lax.dot_general(a, a, _DOT, preferred_element_type=jnp.float32)) == 6.25
    assert int(lax.dot_general(a, a, _DOT, preferred_element_type=jnp.int32)) == 6


def test_preferred_element_type_refusals() -> None:
    # dot_general: an integer or complex result refuses a narrower preferred type (complex
    # counts its part's width, bool one bit); a float result takes any
    x8, x32 = jnp.ones(2, jnp.int8), jnp.ones(2, jnp.int32)
    _raises(TypeError, lambda: lax.dot_general(x8, x8, _DOT, preferred_element_type=bool))
    _raises(TypeError, lambda: lax.dot_general(x32, x32, _DOT, preferred_element_type=jnp.float16))  # fmt: skip
    c = jnp.ones(2, jnp.complex64)
    _raises(TypeError, lambda: lax.dot_general(c, c, _DOT, preferred_element_type=jnp.uint8))
    assert lax.dot_general(c, c, _DOT, preferred_element_type=jnp.int32).dtype == jnp.int32
    f = jnp.ones(2, jnp.float32)
    assert lax.dot_general(f, f, _DOT, preferred_element_type=jnp.int8).dtype == jnp.int8

    # conv: signed into unsigned, float into integer or a narrower float, real into complex
    def conv(dt: object, pref: object) -> object:
        x = jnp.ones((1, 1, 2), dt)  # type: ignore[arg-type]
        return lax.conv_general_dilated(x, x, (1,), "VALID", preferred_element_type=pref)  # type: ignore[arg-type]

    for dt, pref in ((jnp.int8, jnp.uint8), (jnp.float32, jnp.float16), (jnp.float32, jnp.int32),
                     (jnp.int32, jnp.complex64), (jnp.int32, jnp.float16)):  # fmt: skip
        _raises(TypeError, lambda dt=dt, pref=pref: conv(dt, pref))
    for dt, pref in ((jnp.uint8, jnp.int8), (jnp.int8, jnp.float16), (jnp.float16, jnp.bfloat16)):
        assert conv(dt, pref).dtype == pref  # type: ignore[attr-defined]


def test_reduce_window_add_mul_refuse_bool() -> None:
    # JAX: lax.add and lax.mul do not take bool, so neither do their windows (max/min do)
    x = jnp.array([True, False, True])
    for comp, init in ((lax.add, False), (lax.mul, True)):
        _raises(TypeError, lambda c=comp, i=init: lax.reduce_window(x, np.array(i), c, (2,), (1,), "VALID"))  # fmt: skip
    got = lax.reduce_window(x, np.array(False), lax.max, (2,), (1,), "VALID")
    assert got.tolist() == [True, True]


def test_bitcast_widening_checks_the_trailing_axis_first() -> None:
    # uint32 to complex64 needs a trailing axis of 2: JAX's ValueError comes before the
    # complex refusal (TypeError), which a (2,) operand then meets
    _raises(ValueError, lambda: lax.bitcast_convert_type(jnp.zeros((), jnp.uint32), jnp.complex64))  # fmt: skip
    _raises(ValueError, lambda: lax.bitcast_convert_type(jnp.zeros(3, jnp.uint32), jnp.complex64))  # fmt: skip
    _raises(TypeError, lambda: lax.bitcast_convert_type(jnp.zeros(2, jnp.uint32), jnp.complex64))  # fmt: skip


def test_max_window_derivative_with_an_empty_result_and_strides() -> None:
    # a window longer than the operand with stride 2: the result is empty, JAX's derivatives
    # are zeros (grad) and an empty tangent (jvp); trellax's rule sliced past the start
    import trellax

    x = jnp.arange(16, dtype=jnp.float32).reshape(2, 4, 2)
    for comp, init in ((lax.max, -np.inf), (lax.min, np.inf)):

        def f(a: object, comp: object = comp, init: float = init) -> object:
            return lax.reduce_window(a, init, comp, (3, 1, 1), (2, 1, 1), "VALID")  # type: ignore[arg-type]

        g = trellax.grad(lambda a, f=f: f(a).sum())(x)  # type: ignore[attr-defined]
        assert g.shape == (2, 4, 2) and not np.asarray(g).any()
        assert trellax.jvp(f, (x,), (x,))[1].shape == (0, 4, 2)


def test_complex_cumlogsumexp_starts_each_window_from_minus_infinity() -> None:
    # XLA combines the first element of each window with the initial value -inf, so it comes
    # back as log(exp(x)): the imaginary part taken to [-pi, pi) by fmod(v + pi, 2pi) - pi
    # (-36.25 + 6 * 2pi = 1.4991...), pi itself to -pi, and a -inf real part to NaN
    x = jnp.array([1 - 36.25j, 2 + np.pi * 1j, -np.inf + 5j], jnp.complex64)
    for i, (re, im) in enumerate(((1.0, -36.25 + 12 * np.pi), (2.0, -np.pi))):
        got = complex(lax.cumlogsumexp(x[i : i + 1])[0])
        assert got.real == re and abs(got.imag - im) < 1e-5, (i, got)
        got = complex(lax.cumlogsumexp(x[i : i + 1], reverse=True)[0])
        assert abs(got.imag - im) < 1e-5
    assert np.isnan(complex(lax.cumlogsumexp(x[2:])[0]).real)
    # the last element of a reversed scan is a window's first element too: 1 + 3.5j comes
    # back as 1 + (3.5 - 2pi)j; forward, the running sum still agrees with log(cumsum(exp))
    y = jnp.array([1 - 3.5j, 2 + 0.5j, 1 + 3.5j], jnp.complex64)
    rev = np.asarray(lax.cumlogsumexp(y, reverse=True))
    assert abs(rev[2] - (1 + (3.5 - 2 * np.pi) * 1j)) < 1e-5
    fwd = np.asarray(lax.cumlogsumexp(y))
    assert abs(fwd[0] - (1 + (2 * np.pi - 3.5) * 1j)) < 1e-5
    want = np.log(np.cumsum(np.exp(np.asarray(y))))
    assert np.allclose(np.exp(fwd), np.exp(want), rtol=1e-5)
    # 40 elements run through the block scheme; every element stays in [-pi, pi)
    z = jnp.array((np.arange(40) % 7 - 3) + 1j * (np.arange(40) * 5.0 - 100), jnp.complex64)
    got = np.asarray(lax.cumlogsumexp(z))
    assert np.all((got.imag >= -np.pi) & (got.imag < np.pi))
    want = np.log(np.cumsum(np.exp(np.asarray(z))))
    assert np.allclose(np.exp(got), np.exp(want), rtol=1e-4)


def test_complex_cumprod_starts_each_window_from_one() -> None:
    # XLA folds each window from the identity 1+0j, and (1+0j) * (inf+0.5j) is
    # (inf*1 - 0.5*0) + (inf*0 + 0.5*1)j = inf+nanj: the element alone comes back changed
    inf_re = complex(np.inf, 0.5)
    x = jnp.array([inf_re, 1 + 0.1j, 1 + 0.1j], jnp.complex64)
    got = np.asarray(lax.cumprod(x))
    assert got[0].real == np.inf and np.isnan(got[0].imag)
    assert np.isnan(got[1].real) and np.isnan(got[1].imag)
    rev = np.asarray(lax.cumprod(x[::-1], reverse=True))
    assert rev[2].real == np.inf and np.isnan(rev[2].imag)
    one = np.asarray(lax.cumprod(x[:1]))
    assert one[0].real == np.inf and np.isnan(one[0].imag)
    # inside a window the running product multiplies as lax.mul does: (0.99+0.2j) * (inf+0.5j)
    # is inf+infj
    y = jnp.array([1 + 0.1j, 1 + 0.1j, inf_re, 1 + 0.1j], jnp.complex64)
    got = np.asarray(lax.cumprod(y))
    assert got[2].real == np.inf and got[2].imag == np.inf
    # past 16 elements (XLA's blocks) the first block takes in the identity as its total
    # before it, so there the product of inf+0.5j is 1 * (inf+infj) = nan+nanj
    z = jnp.array([1 + 0.1j, 1 + 0.1j, inf_re] + [1 + 0.1j] * 14, jnp.complex64)
    got = np.asarray(lax.cumprod(z))
    assert got[1] == np.asarray(lax.cumprod(y))[1] and np.isnan(got[2].real)
    assert np.isnan(got[2].imag)
    # real products are unchanged by the identity: -0.0 stays
    assert np.signbit(np.asarray(lax.cumprod(jnp.array([-0.0, 2.0])))[0])


def test_complex_dot_general_into_an_integer_type_where_the_sum_does_not_fit() -> None:
    # XLA converts the complex sum's real part without saturating: NaN, infinities and values
    # out of range give INT_MIN for int32 and 2**32 - 1 for uint32 (convert_element_type would
    # give 0 for NaN and INT_MAX for inf); values that fit truncate as before
    one = jnp.array([1, 0], jnp.complex64)
    for v, i32, u32 in (
        (np.nan, -(2**31), 2**32 - 1),
        (np.inf, -(2**31), 2**32 - 1),
        (3e9, -(2**31), 3_000_000_000),
        (-1.0, -1, 2**32 - 1),
        (-0.7, 0, 0),
        (300.7, 300, 300),
    ):
        a = jnp.array([v, 0], jnp.complex64)
        assert int(lax.dot_general(a, one, _DOT, preferred_element_type=jnp.int32)) == i32, v
        assert int(lax.dot_general(a, one, _DOT, preferred_element_type=jnp.uint32)) == u32, v
    # an infinite imaginary part makes the real part of the product NaN: inf * 0
    a = jnp.array([complex(0, np.inf), 0], jnp.complex64)
    assert int(lax.dot_general(a, one, _DOT, preferred_element_type=jnp.int32)) == -(2**31)


def test_complex_max_min_and_their_scatters_keep_xlas_element_beside_nan() -> None:
    # XLA's complex max(a, b) is a where a is lexicographically larger, else b; comparisons
    # with NaN are false, so NaN does not propagate: max(nan+1j, 2+5j) = 2+5j but
    # max(2+5j, nan+1j) = nan+1j; max(2-3j, 1+nanj) = 2-3j (2 > 1 decides)
    c = np.complex64
    a = jnp.array([complex(np.nan, 1), 2 + 5j, 2 - 3j, 2 - 3j], c)
    b = jnp.array([2 + 5j, complex(np.nan, 1), complex(1, np.nan), 2 - 5j], c)
    got = [complex(v) for v in np.asarray(lax.max(a, b))]
    assert got[0] == 2 + 5j and np.isnan(got[1].real) and got[2:] == [2 - 3j, 2 - 3j]
    assert [complex(v) for v in np.asarray(jnp.maximum(a, b))][2:] == [2 - 3j, 2 - 3j]
    got = [complex(v) for v in np.asarray(lax.min(a, b))]
    assert got[0] == 2 + 5j and np.isnan(got[1].real) and np.isnan(got[2].imag)
    assert got[3] == 2 - 5j
    # a scatter combines each update in order with the value held: min(0.03+3.5j, nan+1j) is
    # nan+1j, then min(nan+1j, 1+nanj) = 1+nanj, then min(1+nanj, 2+5j) = 1+nanj (1 < 2)
    dn = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
    )
    op = jnp.array([0.03 + 3.5j, 7 + 0j], c)
    idx = jnp.array([[0], [1], [0], [0]], jnp.int32)
    ups = jnp.array([complex(np.nan, 1), 1 + 1j, complex(1, np.nan), 2 + 5j], c)
    got = np.asarray(lax.scatter_min(op, idx, ups, dn))
    assert got[0].real == 1 and np.isnan(got[0].imag) and got[1] == 1 + 1j
    # max: max(0.03+3.5j, nan+1j) = nan+1j, max(nan+1j, 1+nanj) = 1+nanj, then 2+5j wins
    got = np.asarray(lax.scatter_max(op, idx, ups, dn))
    assert got[0] == 2 + 5j and got[1] == 7


def test_cumlogsumexp_tangent_is_the_scan_of_logaddexps_rule_through_infinities() -> None:
    import trellax

    # JAX differentiates cumlogsumexp as an associative scan of logaddexp, whose rule weighs
    # tangents by exp(x - out) with +inf read as 0. Reversed [0, -0.921875, inf]: out[1] =
    # logaddexp(inf, -0.921875) has tangent exp(-0.921875) + 1 = 1.398 (bfloat16 1.3984375);
    # out[0] = logaddexp(out[1], 0) adds exp(0 - 0) * 1: 2.3984375, rounded to even 2.40625
    # (the softmax-weighted sum would be 1)
    x = jnp.array([0.0, -0.921875, np.inf], jnp.bfloat16)
    _, t = trellax.jvp(lambda v: lax.cumlogsumexp(v, reverse=True), (x,), (jnp.ones_like(x),))
    assert [float(v) for v in np.asarray(t, np.float32)] == [2.40625, 1.3984375, 1.0]
    # finite inputs: still the softmax weights (grad of the sum of the scan)
    z = jnp.array([0.5, -1.0, 2.0], jnp.float32)
    g = np.asarray(trellax.grad(lambda v: lax.cumlogsumexp(v).sum())(z))
    e = np.exp(np.array([0.5, -1.0, 2.0]))
    want = [sum(e[i] / e[: k + 1].sum() for k in range(i, 3)) for i in range(3)]
    assert np.allclose(g, want, rtol=1e-6)


def _weighted_window_sum(
    comp: Any, init: float, kw: dict[str, Any], keep: np.ndarray, w: np.ndarray
) -> Any:
    def f(v: Any) -> Any:
        y = lax.reduce_window(v, init, comp, **kw)
        return (jnp.where(keep, y, 0.0) * w).sum()

    return f


def test_dilated_max_min_window_derivatives_match_finite_differences() -> None:
    # JAX has no derivative of a max/min reduce_window with window or base dilation
    # (NotImplementedError); trellax's (a superset, docs/semantics.md) is checked here against
    # central differences in float64 on distinct values (no ties), windows that hold only
    # padding left out: the parameters of fuzz_lax's programs x32-1103, x32-1253, x64-305 and
    # x64-1628, on larger inputs, and two more mixing both dilations
    import trellax

    rng = np.random.default_rng(0)
    cfgs: list[tuple[Any, float, tuple[int, ...], dict[str, Any]]] = [
        (
            lax.min,
            np.inf,
            (5, 4, 7),
            dict(
                window_dimensions=(2, 1, 3),
                window_strides=(2, 1, 2),
                padding="VALID",
                window_dilation=(2, 1, 2),
            ),
        ),
        (
            lax.max,
            -np.inf,
            (5, 3, 6),
            dict(
                window_dimensions=(1, 2, 3),
                window_strides=(2, 1, 2),
                padding=((0, -1), (1, 0), (0, 0)),
                window_dilation=(2, 2, 1),
            ),
        ),
        (
            lax.max,
            -np.inf,
            (3, 5),
            dict(
                window_dimensions=(1, 3),
                window_strides=(2, 1),
                padding=((2, -1), (1, -1)),
                window_dilation=(1, 2),
            ),
        ),
        (
            lax.max,
            -np.inf,
            (3, 4),
            dict(
                window_dimensions=(2, 3),
                window_strides=(1, 1),
                padding=((-1, 2), (2, 0)),
                base_dilation=(2, 2),
            ),
        ),
        (
            lax.min,
            np.inf,
            (4, 5),
            dict(
                window_dimensions=(2, 2),
                window_strides=(1, 2),
                padding=((1, 1), (0, 1)),
                base_dilation=(2, 1),
                window_dilation=(2, 2),
            ),
        ),
        (
            lax.max,
            -np.inf,
            (6, 7),
            dict(
                window_dimensions=(3, 2),
                window_strides=(2, 1),
                padding="SAME",
                base_dilation=(1, 3),
                window_dilation=(2, 3),
            ),
        ),
    ]
    with trellax.enable_x64(True):
        for comp, init, shape, kw in cfgs:
            n = int(np.prod(shape))
            x = rng.permutation(np.arange(n, dtype=np.float64)).reshape(shape) * 0.37
            out = np.asarray(lax.reduce_window(x, init, comp, **kw))
            keep = np.isfinite(out)
            assert keep.any()
            w = rng.normal(size=out.shape)

            f = _weighted_window_sum(comp, init, kw, keep, w)
            g = np.asarray(trellax.grad(f)(jnp.asarray(x)))
            fd = np.zeros_like(x)
            for i in np.ndindex(shape):
                e = np.zeros_like(x)
                e[i] = 1e-6
                fd[i] = (float(f(jnp.asarray(x + e))) - float(f(jnp.asarray(x - e)))) / 2e-6
            assert np.abs(g).sum() > 0
            assert np.max(np.abs(g - fd)) < 1e-6, (kw, g, fd)


def test_mul_window_derivative_raises_jaxs_value_error() -> None:
    import pytest

    import trellax

    # JAX's reduce_window with lax.mul is its generic reduce_window: grad fails to linearize
    # with ValueError (trellax raised NotImplementedError)
    x = jnp.array([0.5, 1.0, 2.0, 3.0], jnp.float32)
    one = jnp.float32(1.0)
    with pytest.raises(ValueError, match="reduce_window"):
        trellax.grad(lambda v: lax.reduce_window(v, one, lax.mul, (2,), (1,), "VALID").sum())(x)


def test_window_derivatives_with_other_init_values_match_finite_differences() -> None:
    # an add/max/min reduce_window whose init value is not the identity is JAX's generic
    # reduce_window, which grad refuses (ValueError); trellax differentiates it (a superset,
    # docs/semantics.md): the init value is a constant, so a window whose max is the init has
    # derivative 0. Checked against float64 central differences, on the parameters of
    # fuzz_lax's x32-1548 (max, init 1) and x64-1436 (add, init 2) and two more
    import trellax

    rng = np.random.default_rng(1)
    cfgs: list[tuple[Any, float, tuple[int, ...], dict[str, Any]]] = [
        (
            lax.max,
            1.0,
            (3, 4, 4),
            dict(
                window_dimensions=(3, 1, 2),
                window_strides=(1, 2, 1),
                padding="SAME",
                window_dilation=(1, 2, 2),
            ),
        ),
        (lax.add, 2.0, (4,), dict(window_dimensions=(1,), window_strides=(1,), padding="SAME")),
        (
            lax.min,
            -0.5,
            (5, 4),
            dict(window_dimensions=(2, 2), window_strides=(1, 1), padding=((1, 0), (0, 1))),
        ),
        (
            lax.add,
            0.25,
            (6,),
            dict(
                window_dimensions=(3,), window_strides=(2,), padding=((1, 1),), base_dilation=(2,)
            ),
        ),
    ]
    with trellax.enable_x64(True):
        for comp, init, shape, kw in cfgs:
            n = int(np.prod(shape))
            x = (rng.permutation(np.arange(n, dtype=np.float64)).reshape(shape) - n / 2) * 0.37
            out = np.asarray(lax.reduce_window(x, init, comp, **kw))
            keep = np.isfinite(out)
            w = rng.normal(size=out.shape)
            f = _weighted_window_sum(comp, init, kw, keep, w)
            g = np.asarray(trellax.grad(f)(jnp.asarray(x)))
            fd = np.zeros_like(x)
            for i in np.ndindex(shape):
                e = np.zeros_like(x)
                e[i] = 1e-6
                fd[i] = (float(f(jnp.asarray(x + e))) - float(f(jnp.asarray(x - e)))) / 2e-6
            assert np.abs(g).sum() > 0
            assert np.max(np.abs(g - fd)) < 1e-6, (kw, g, fd)
