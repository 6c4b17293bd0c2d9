"""Behaviour JAX's test files first measured in session 17 (branch ``jt17``) found wrong.

Each test failed before its fix: ``einsum`` with a label repeated inside one operand among three
or more operands (``lax_numpy_einsum_test``); ``scipy.fft``'s DCTs under rank promotion "raise"
or strict dtype promotion, and ``dctn``'s check of ``s`` (``scipy_fft_test``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.scipy.fft as tsp_fft


@pytest.mark.parametrize("spec", ["fdf,cdd,ccd,afe->ae", "fff,fae,bef,def->abd", "aab,bcc,cd->ad"])
@pytest.mark.parametrize("optimize", ["auto", "greedy", "optimal"])
def test_einsum_repeated_label_in_one_of_several_operands(spec: str, optimize: str) -> None:
    # the contraction path was planned on the labels before the diagonals were taken
    rng = np.random.default_rng(0)
    sizes = {"a": 2, "b": 3, "c": 4, "d": 2, "e": 3, "f": 4}
    names = spec.split("->")[0].split(",")
    ops = [rng.standard_normal([sizes[c] for c in n]).astype(np.float32) for n in names]
    got = tnp.einsum(spec, *ops, optimize=optimize)
    want = np.einsum(spec, *[o.astype(np.float64) for o in ops])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["dct", "idct", "dctn", "idctn"])
@pytest.mark.parametrize("norm", [None, "ortho"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_scipy_dct_ignores_the_users_promotion_settings(name: str, norm: str, dtype: Any) -> None:
    # the transform's internal products broadcast a vector against the array and mixed a Python
    # complex into a float array: rank promotion "raise" and strict dtype promotion refused them
    import scipy.fft

    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    if dtype == np.complex64:
        x = (x + 1j * rng.standard_normal((3, 5))).astype(dtype)
    with trellax.numpy_rank_promotion("raise"), trellax.numpy_dtype_promotion("strict"):
        got = getattr(tsp_fft, name)(x, norm=norm)
    want = getattr(scipy.fft, name)(
        x.astype(np.complex128 if dtype == np.complex64 else np.float64), norm=norm
    )
    assert got.dtype == dtype
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", ["dctn", "idctn"])
def test_scipy_dctn_s_longer_than_ndim(name: str) -> None:
    with pytest.raises(ValueError, match=r"s must have at most x.ndim \(2\) elements, got 3"):
        getattr(tsp_fft, name)(np.ones((1, 3), np.float32), s=(2, 3, 4))


def test_vectorize_several_outputs_and_core_dimension_checks() -> None:
    def stats(x: Any) -> Any:
        return tnp.mean(x), tnp.max(x) - tnp.min(x)

    f = tnp.vectorize(stats, signature="(n)->(),()")
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    mean, spread = f(x)
    np.testing.assert_allclose(np.asarray(mean), x.mean(axis=1))
    np.testing.assert_allclose(np.asarray(spread), np.full(3, 3.0))
    matmat = tnp.vectorize(tnp.dot, signature="(n,m),(m,k)->(n,k)")
    assert matmat(tnp.zeros((5, 2, 3)), tnp.zeros((3, 4))).shape == (5, 2, 4)
    with pytest.raises(TypeError, match="wrong number of positional arguments"):
        matmat(tnp.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"input with shape \(2,\) does not have enough"):
        matmat(tnp.zeros((2,)), tnp.zeros((2, 2)))
    with pytest.raises(ValueError, match="inconsistent size for core dimension 'm'"):
        matmat(tnp.zeros((2, 3)), tnp.zeros((4, 5)))
    with pytest.raises(ValueError, match=r"output shape \(2, 2\) does not match"):
        tnp.vectorize(tnp.dot, signature="(n,m),(m,k)->(n)")(tnp.zeros((2, 2)), tnp.zeros((2, 2)))
    with pytest.raises(TypeError, match="output must be a tuple"):
        tnp.vectorize(tnp.dot, signature="(n,m),(m,k)->(n,k),()")(
            tnp.zeros((2, 2)), tnp.zeros((2, 2))
        )
    with pytest.raises(TypeError, match="wrong number of output arguments"):
        tnp.vectorize(lambda *a: a, signature="(),()->(),(),()")(1, 2)


def test_vectorize_traces_once_and_maps() -> None:
    calls = []

    def f(x: Any) -> Any:
        calls.append(np.shape(x))
        return x * 2

    out = tnp.vectorize(f)(tnp.arange(1000.0).reshape(10, 100))
    assert out.shape == (10, 100) and len(calls) == 1 and calls[0] == ()
    np.testing.assert_array_equal(np.asarray(out), np.arange(1000.0).reshape(10, 100) * 2)


def test_vectorize_excluded_none_and_tuple_results() -> None:
    with pytest.raises(TypeError, match=r"jax\.numpy\.vectorize can only exclude"):
        tnp.vectorize(lambda x: x, excluded={1.5})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"excluded=\{-1\} contains negative numbers"):
        tnp.vectorize(lambda x: x, excluded={-1})
    f = tnp.vectorize(lambda x, y: x if y is None else x + y)
    np.testing.assert_array_equal(np.asarray(f(tnp.arange(4), None)), np.arange(4))
    g = tnp.vectorize(lambda x, y: x + y, signature="(k),(k)->(k)")
    with pytest.raises(ValueError, match=r"Cannot pass None at locations \{1\}"):
        g(tnp.arange(3), None)
    pair = tnp.vectorize(lambda x: (x, x + 1))(tnp.arange(3))
    assert isinstance(pair, tuple) and len(pair) == 2
    np.testing.assert_array_equal(np.asarray(pair[1]), np.arange(1, 4))


def test_vectorize_rank_promotion_setting() -> None:
    f = tnp.vectorize(tnp.add, signature="(),()->()")
    with trellax.numpy_rank_promotion("raise"):
        with pytest.raises(ValueError, match=r"operands with shapes .* require rank promotion"):
            f(tnp.zeros((4, 4)), tnp.zeros(4))
        f(tnp.zeros((4, 4)), tnp.zeros(()))  # a scalar is not a promotion
        tnp.vectorize(tnp.add, signature="(n),()->(n)")(tnp.zeros((4, 4)), tnp.zeros(4))
    with trellax.numpy_rank_promotion("warn"), pytest.warns(UserWarning, match="rank promotion"):
        f(tnp.zeros((4, 4)), tnp.zeros(4))


def test_lax_eigh_keywords_as_on_jax_cpu() -> None:
    from trellax import lax

    a = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], np.float32)
    want = np.linalg.eigvalsh(a.astype(np.float64))
    for impl in (None, lax.linalg.EighImplementation.QR):
        _, w = lax.linalg.eigh(a, sort_eigenvalues=False, implementation=impl)
        np.testing.assert_allclose(np.sort(np.asarray(w)), want, rtol=1e-5)
    with pytest.raises(NotImplementedError, match="Jacobi implementation is not supported"):
        lax.linalg.eigh(a, implementation=lax.linalg.EighImplementation.JACOBI)
    with pytest.raises(NotImplementedError, match="QDWH implementation is only supported"):
        lax.linalg.eigh(a, implementation=lax.linalg.EighImplementation.QDWH)
    with pytest.raises(NotImplementedError, match="subset_by_index not supported"):
        lax.linalg.eigh(a, subset_by_index=(0, 1))


def test_eigh_tridiagonal_select_by_index() -> None:
    import scipy.linalg

    import trellax.scipy.linalg as tsl

    d = np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32)
    e = np.array([0.5, -0.25, 0.75, 0.1], np.float32)
    want = scipy.linalg.eigh_tridiagonal(d.astype(np.float64), e.astype(np.float64))[0]
    for first in range(5):
        for last in range(first, 5):
            got = tsl.eigh_tridiagonal(
                d, e, eigvals_only=True, select="i", select_range=(first, last)
            )
            np.testing.assert_allclose(
                np.asarray(got), want[first : last + 1], rtol=1e-5, atol=1e-6
            )
    w, v = tsl.eigh_tridiagonal(d, e, select="i", select_range=(1, 2))
    m = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    np.testing.assert_allclose(m @ np.asarray(v), np.asarray(v) * np.asarray(w), atol=1e-5)
    with pytest.raises(ValueError, match="select_range must be specified"):
        tsl.eigh_tridiagonal(d, e, select="i")
    with pytest.raises(NotImplementedError, match="select='v'"):
        tsl.eigh_tridiagonal(d, e, select="v", select_range=(0.0, 1.0))
    with pytest.raises(ValueError, match="select must have a value in"):
        tsl.eigh_tridiagonal(d, e, select="x")


def test_stateful_rng_is_a_pytree_and_checks_its_parts() -> None:
    from trellax.experimental import random as exp_random

    prng = exp_random.stateful_rng(328090)

    @trellax.jit
    def draw(p: Any) -> Any:
        return p.uniform(size=4)

    first, second = draw(prng), draw(prng)  # the counter reference is updated through jit
    assert np.all(np.asarray(first) != np.asarray(second))
    assert len(trellax.tree_util.tree_leaves(prng)) == 2
    x = np.arange(4.0, dtype=np.float32)
    want = x + np.array([float(c.uniform()) for c in exp_random.stateful_rng(5).spawn(4)])
    got = trellax.vmap(lambda p, v: v + p.uniform())(exp_random.stateful_rng(5).split(4), x)
    np.testing.assert_array_equal(np.asarray(got), want.astype(np.float32))
    with pytest.raises(ValueError, match="Expected base_key to be a typed PRNG key"):
        exp_random.StatefulPRNG(tnp.array([0, 1], dtype="uint32"), trellax.new_ref(0))
    with pytest.raises(ValueError, match="Expected counter to be a scalar integer ref"):
        exp_random.StatefulPRNG(trellax.random.key(0), 0)
    with pytest.raises(TypeError, match="When used within transformed code"):
        trellax.jit(lambda: exp_random.stateful_rng().uniform())()
    with pytest.raises(TypeError, match="When used within transformed code"):
        trellax.grad(lambda v: v + exp_random.stateful_rng().uniform())(1.0)


def test_debug_check_refuses_a_non_scalar_pred_everywhere() -> None:
    from trellax.experimental import checkify

    x = tnp.ones(3)
    for fn in (
        lambda v: checkify.debug_check(v != v, "{v}", v=v),
        trellax.jit(lambda v: checkify.debug_check(v != v, "{v}", v=v)),
    ):
        with pytest.raises(TypeError, match="debug_check takes a scalar pred"):
            fn(x)
    with pytest.raises(TypeError, match=r"^check takes a scalar pred"):
        checkify.check(tnp.ones(2, bool), "hi")


def test_range_as_axes() -> None:
    # JAX takes any sequence of axes; a range raised TypeError ("'range' object cannot be
    # interpreted as an integer"); qdwh_test builds its matrices with expand_dims(s, range(k))
    x = np.arange(6.0, dtype=np.float32).reshape(1, 2, 3)
    assert tnp.expand_dims(tnp.ones(3), range(2)).shape == (1, 1, 3)
    assert tnp.expand_dims(tnp.ones(3), range(0)).shape == (3,)
    assert tnp.squeeze(x, axis=range(1)).shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(tnp.sum(x, axis=range(1, 3))), x.sum(axis=(1, 2)))
    np.testing.assert_array_equal(np.asarray(tnp.max(x, axis=range(2))), x.max(axis=(0, 1)))


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_lax_linalg_qdwh_is_the_polar_decomposition(dtype: Any) -> None:
    import scipy.linalg

    from trellax import lax

    rng = np.random.default_rng(4)
    a = rng.standard_normal((6, 4)).astype(dtype)
    if dtype == np.complex64:
        a = (a + 1j * rng.standard_normal((6, 4))).astype(dtype)
    u, h, iters, converged = lax.linalg.qdwh(a)
    want_u, want_h = scipy.linalg.polar(a.astype(np.complex128))
    np.testing.assert_allclose(np.asarray(u), want_u, atol=1e-5)
    np.testing.assert_allclose(np.asarray(h), want_h, atol=1e-5)
    assert u.dtype == dtype and h.dtype == dtype and bool(converged) and iters.dtype == np.int32
    # dynamic_shape reads only the block (here padded with NaN) and pads the results with zeros
    padded = np.pad(a, ((0, 2), (0, 1)), constant_values=np.nan)
    pu, ph, _, _ = trellax.jit(lambda x: lax.linalg.qdwh(x, dynamic_shape=(6, 4)))(padded)
    assert pu.shape == (8, 5) and ph.shape == (5, 5)
    np.testing.assert_allclose(np.asarray(pu)[:6, :4], want_u, atol=1e-5)
    assert not np.asarray(pu)[6:].any() and not np.asarray(ph)[4:].any()
    # a zero singular value stays zero in u (JAX's iterations keep it), exactly
    tiny = np.zeros((3, 2), np.float32)
    tiny[1, 0] = np.finfo(np.float32).tiny
    tu, th, _, _ = lax.linalg.qdwh(tiny)
    want = np.zeros((3, 2), np.float32)
    want[1, 0] = 1
    np.testing.assert_array_equal(np.asarray(tu), want)
    assert (
        np.asarray(th)[0, 0] == np.finfo(np.float32).tiny and np.count_nonzero(np.asarray(th)) == 1
    )
    with pytest.raises(ValueError, match="must have M >= N"):
        lax.linalg.qdwh(np.ones((2, 3), np.float32))


def test_debug_print_format_checks_static_args_two_call_form(
    capsys: pytest.CaptureFixture[str],
) -> None:
    a = tnp.array([1.0, 2.0, 3.0])
    trellax.jit(lambda x: trellax.debug.print("{x} {d} {x2}", x=x, d=x.dtype, x2=x))(a)
    assert capsys.readouterr().out == "[1. 2. 3.] float32 [1. 2. 3.]\n"
    trellax.debug.print(ordered=True)("x: {x}", x=42)
    assert capsys.readouterr().out == "x: 42\n"
    seen: list[Any] = []
    trellax.debug.callback(ordered=True)(seen.append, 100)
    assert [int(v) for v in seen] == [100]
    with np.printoptions(precision=2, suppress=True):
        trellax.jit(lambda v: trellax.debug.print("{}", v))(np.array([1.2345, 2.3456, 1e-7]))
    assert capsys.readouterr().out == "[1.23 2.35 0.  ]\n"
    with pytest.raises(ValueError, match="Unused keyword arguments"):
        trellax.jit(lambda x: trellax.debug.print("{x}", x=x, y=x))(a)
    with pytest.raises(ValueError, match="Unused positional arguments"):
        trellax.jit(lambda x: trellax.debug.print("hello", x))(a)
    with pytest.raises(ValueError, match="You may be passing an f-string"):
        trellax.debug.print(f"hello: {a}", x=a)
    with pytest.raises(KeyError):
        trellax.debug.print("{x}", a)
    with pytest.raises(IndexError):
        trellax.debug.print("{}", x=a)
    trellax.debug.print("{x}", x=a, y=1, skip_format_check=True)
    assert capsys.readouterr().out == "[1. 2. 3.]\n"
    with pytest.raises(TypeError, match="debug_print received unexpected arguments"):
        trellax.debug.print(ordered=True, a=42)
    with pytest.raises(TypeError, match="debug_callback received unexpected arguments"):
        trellax.debug.callback(None, 42, ordered=True)


def test_static_out_of_bounds_index_is_a_clamped_dynamic_slice() -> None:
    # it was folded into a clamped static slice, which checkify's index checks cannot see
    from trellax.experimental import checkify

    x = tnp.arange(3.0)
    assert float(x[5]) == 2.0 and float(x[-7]) == 0.0 and float(x[-4]) == 0.0
    assert float(tnp.arange(6.0).reshape(2, 3)[5, -9]) == 3.0
    assert float(x.at[-5].get(wrap_negative_indices=False)) == 0.0
    assert float(x.at[-1].get(wrap_negative_indices=False)) == 0.0
    # the gradient lands on the element the read clamped to, as JAX's dynamic_slice
    np.testing.assert_array_equal(np.asarray(trellax.grad(lambda v: v[5] * 2)(x)), [0, 0, 2])
    np.testing.assert_array_equal(np.asarray(trellax.grad(lambda v: v[-7] * 3)(x)), [3, 0, 0])
    err, _ = checkify.checkify(lambda v: v[5] + v[6], errors=checkify.index_checks)(tnp.ones(2))
    assert err.get() is not None and "index 5" in err.get()
    assert "dynamic_slice" in str(trellax.make_jaxpr(lambda v: v[5])(x))
