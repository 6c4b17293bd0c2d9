"""Indexing and operator behaviours JAX's own test files found different (branch ``jt-values``),
checked against JAX 0.10.2's results in ``tests/golden/jt_values.json``
(``tools/gen_golden_jt_values.py``)."""

from __future__ import annotations

import json
import pathlib
import warnings
from typing import Any, NamedTuple

import numpy as np
import pytest
from jt_values_cases import base, build_index

import trellax
import trellax.numpy as jnp
import trellax.scipy.special as tsp

GOLDEN = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "jt_values.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize(
    "case", GOLDEN["scalar_bool_indices"], ids=lambda c: "_".join(map(str, c["index"]))
)
@pytest.mark.parametrize("jit", [False, True])
def test_scalar_boolean_index(case: dict[str, Any], jit: bool) -> None:
    """A 0-d boolean is an index array of size 1 or 0 into a new axis: x[False] is empty, and
    next to index arrays it broadcasts with them (NumPy's rule, which JAX follows)."""
    idx = build_index(case["index"])
    x = base()
    shape = tuple(case["shape"])
    upd = np.arange(1, 1 + int(np.prod(shape)), dtype=np.int32).reshape(shape) + 1000

    def get(a: Any) -> Any:
        return jnp.asarray(a)[idx]

    def set_full(a: Any, u: Any) -> Any:
        return jnp.asarray(a).at[idx].set(u)

    def set_scalar(a: Any) -> Any:
        return jnp.asarray(a).at[idx].set(np.int32(-7))

    if jit:
        get, set_full, set_scalar = trellax.jit(get), trellax.jit(set_full), trellax.jit(set_scalar)
    got = np.asarray(get(x))
    assert got.shape == shape
    np.testing.assert_array_equal(got.ravel(), case["value"])
    np.testing.assert_array_equal(np.asarray(set_full(x, upd)).ravel(), case["set_full"])
    np.testing.assert_array_equal(np.asarray(set_scalar(x)).ravel(), case["set_scalar"])


@pytest.mark.parametrize(
    "case", GOLDEN["empty_masks"], ids=lambda c: f"{c['x_shape']}-{c['m_shape']}"
)
def test_empty_boolean_mask_of_other_shape(case: dict[str, Any]) -> None:
    """An empty boolean mask selects nothing whatever its shape (no shape-mismatch error)."""
    a = np.arange(int(np.prod(case["x_shape"])), dtype=np.int32).reshape(case["x_shape"])
    m = np.zeros(case["m_shape"], dtype=bool)
    assert jnp.asarray(a)[jnp.asarray(m)].shape == tuple(case["shape"])
    assert trellax.jit(lambda v: v[m])(a).shape == tuple(case["shape"])
    np.testing.assert_array_equal(np.asarray(jnp.asarray(a).at[m].set(5)).ravel(), case["set"])


def test_nonempty_mask_of_other_shape_still_raises() -> None:
    with pytest.raises(IndexError, match="boolean index did not match"):
        jnp.arange(3)[np.array([True, False])]


@pytest.mark.parametrize(
    "case", GOLDEN["unsigned_scatters"], ids=lambda c: f"{c['dtype']}-{c['method']}-{c['value']}"
)
def test_scatter_python_int_in_operand_dtype(case: dict[str, Any]) -> None:
    """A Python int the integer operand's dtype holds is scattered in that dtype, even past the
    default int's range (uint32 ``.at[0].set(2**32 - 1)``)."""
    a = jnp.zeros(2, dtype=case["dtype"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no unsafe-cast warning either
        r = getattr(a.at[0], case["method"])(case["value"])
    assert str(r.dtype) == case["result_dtype"]
    assert np.asarray(r).tolist() == case["result"]


def test_scatter_python_int_beyond_operand_dtype_still_overflows() -> None:
    with pytest.raises(OverflowError):
        jnp.zeros(2, dtype="int32").at[0].set(2**32 - 1)


class Wrapped(NamedTuple):
    arr: Any

    def __mul__(self, other: Any) -> Any:
        return Wrapped(self.arr * other)

    def __rmul__(self, other: Any) -> Any:
        return Wrapped(other * self.arr)


def test_operators_defer_to_tuple_subclasses() -> None:
    """``array * obj`` lets a tuple subclass with its own ``__rmul__`` answer (JAX returns
    NotImplemented for it); a plain tuple is still refused."""
    w, b = Wrapped(jnp.ones(4)), jnp.ones(4)
    got = {
        "array_times_namedtuple": type(b * w).__name__,
        "namedtuple_times_array": type(w * b).__name__,
        "jit_array_times_namedtuple": type(trellax.jit(lambda p, q: p * q)(b, w)).__name__,
    }
    assert got == GOLDEN["namedtuple_defer"]
    with pytest.raises(TypeError, match="unsupported operand"):
        b * (1.0, 2.0)


def _grid(*axes: list[float]) -> list[np.ndarray[Any, Any]]:
    return [np.asarray(v, dtype=np.float32).ravel() for v in np.meshgrid(*axes, indexing="ij")]


def _expected(values: list[Any]) -> np.ndarray[Any, Any]:
    return np.array([np.nan if v is None else v for v in values])


def test_betainc_with_infinite_parameters() -> None:
    """``I_x(a, inf)`` is 1 for ``x > 0``, ``I_x(inf, inf)`` NaN (JAX's and SciPy's limits)."""
    params = [float("inf"), 0.0, 1e-7, 1.0, 2.0, -0.5, float("nan")]
    a, b, x = _grid(params, params, [0.0, 0.25, 0.5, 1.0, 1.5])
    got = np.asarray(tsp.betainc(a, b, x), dtype=np.float64)
    np.testing.assert_allclose(got, _expected(GOLDEN["special"]["betainc"]), rtol=5e-5)


@pytest.mark.parametrize("repetition", [False, True])
def test_comb_grid(repetition: bool) -> None:
    """``comb(N, 0, repetition=True)`` is 1 for every ``N >= 0`` (``N + k - 1`` is then -1 at
    ``N = 0``)."""
    n, k = _grid([-2.0, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0], [-1.0, 0.0, 0.5, 1.0, 2.0])
    got = np.asarray(tsp.comb(n, k, repetition=repetition), dtype=np.float64)
    key = "comb_repetition" if repetition else "comb"
    np.testing.assert_allclose(got, _expected(GOLDEN["special"][key]), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "case",
    GOLDEN["empty_frompyfunc"],
    ids=lambda c: f"{c['method']}-{c['shape']}-{c['axis']}",
)
def test_frompyfunc_over_empty_operands(case: dict[str, Any]) -> None:
    """A ``frompyfunc`` ufunc's methods on empty operands: the result's shape and dtype come from
    tracing the function once (``vectorize`` over an empty batch used to raise)."""
    add = jnp.frompyfunc(lambda a, b: a + b, 2, 1, identity=0)
    x = jnp.zeros(tuple(case["shape"]), "float32")
    if case["method"] == "reduceat":
        r = add.reduceat(x, jnp.array([0, 1]), axis=case["axis"])
    else:
        r = getattr(add, case["method"])(x, axis=case["axis"])
    assert list(r.shape) == case["out_shape"]
    assert str(r.dtype) == case["out_dtype"]
    assert np.asarray(r).ravel().tolist() == case["value"]


def test_vectorize_over_empty_batch() -> None:
    out = jnp.vectorize(lambda a: a * 2.0)(jnp.zeros((0, 2), "int32"))
    assert (out.shape, str(out.dtype)) == ((0, 2), "float32")


def test_infinite_initial_is_not_flagged_by_debug_infs() -> None:
    """``initial=-inf`` (as ``logsumexp`` passes to ``max``) is a constant, not an infinite
    result of an operation, so ``debug_infs`` lets it through as JAX does."""
    with trellax.debug_infs(True):
        lse = float(tsp.logsumexp(np.ones(4, dtype=np.float32)))
        top = float(jnp.max(jnp.arange(3.0), initial=-np.inf))
    assert lse == pytest.approx(GOLDEN["special"]["logsumexp_debug_infs"], rel=1e-6)
    assert top == GOLDEN["special"]["max_initial_debug_infs"]
    with trellax.debug_infs(True), pytest.raises(FloatingPointError):
        jnp.log(jnp.zeros(2))  # a real infinite result is still reported


def test_lax_conj_keeps_the_weak_flag() -> None:
    """``lax.conj`` of a weakly typed float is a weakly typed complex (it was strong)."""
    from trellax import lax

    got = {
        name: [str(r.dtype), bool(r.weak_type)]
        for name, r in [
            ("python_float", lax.conj(1.0)),
            ("float32", lax.conj(np.float32(1.0))),
            ("python_complex", lax.conj(1j)),
            ("weak_float_array", lax.conj(jnp.asarray(2.0) * 1.0)),
        ]
    }
    assert got == GOLDEN["special"]["lax_conj"]


NUMPY = GOLDEN["numpy"]


@pytest.mark.parametrize(
    "case", NUMPY["convolve"], ids=lambda c: f"{c['op']}-{c['dtype']}-{c['mode']}"
)
def test_convolve_preferred_element_type(case: dict[str, Any]) -> None:
    """``preferred_element_type`` is the result dtype; integers convolve as integers."""
    x = (np.arange(1, 6) % 3).astype(case["dtype"])
    y = (np.arange(2, 5) % 2).astype(case["dtype"])
    r = getattr(jnp, case["op"])(x, y, mode=case["mode"], preferred_element_type=case["dtype"])
    assert str(r.dtype) == case["out_dtype"]
    value = np.asarray(r)
    if value.dtype.kind == "c":
        value = np.stack([value.real, value.imag], -1)
    np.testing.assert_allclose(value.astype(np.float64).ravel(), case["value"], rtol=1e-3)


def test_interp_period_ignores_left_and_right() -> None:
    c = NUMPY["interp_period"]
    got = jnp.interp(
        np.array(c["x"], np.float32),
        np.array(c["xp"], np.float32),
        np.array(c["fp"], np.float32),
        period=0.59,
        left=5.0,
        right=1.0,
    )
    np.testing.assert_allclose(np.asarray(got), c["value"], rtol=1e-6)


def test_view_to_and_from_bool() -> None:
    v = NUMPY["view"]
    assert (
        np.asarray(jnp.asarray(np.array([True, False])).view(np.int8)).tolist() == v["bool_as_int8"]
    )
    four = jnp.asarray(np.array([True, False, True, True]))
    assert np.asarray(four.view(np.int16)).tolist() == v["bool_as_int16"]
    u8 = jnp.asarray(np.array([1, 0, 2, 255], np.uint8))
    assert np.asarray(u8.view(bool)).tolist() == v["uint8_as_bool"]
    jitted = trellax.jit(lambda a: a.view(np.int8))(np.array([True, False]))
    assert np.asarray(jitted).tolist() == v["bool_as_int8"]


def test_roll_by_numpy_shift() -> None:
    a = jnp.roll(jnp.arange(12).reshape(3, 4), np.array([-2]), axis=(-2,))
    b = jnp.roll(jnp.arange(6).reshape(2, 3), np.array([1, 1]), axis=(0, 1))
    assert [np.asarray(a).ravel().tolist(), np.asarray(b).ravel().tolist()] == NUMPY["roll"]


def test_size_repeated_axis() -> None:
    with pytest.raises(ValueError) as info:
        jnp.size(jnp.zeros((2, 3, 4)), (0, -3))
    assert str(info.value) == NUMPY["size_repeated_axis_error"]


@pytest.mark.parametrize("name", ["ndim", "shape", "size"])
def test_shape_functions_warn_on_sequences(name: str) -> None:
    """``ndim``/``shape``/``size`` of a list answer and warn (JAX's ``DeprecationWarning``)."""
    want = NUMPY["sequence_warnings"][name]
    with pytest.warns(DeprecationWarning) as record:
        value = getattr(jnp, name)([1, 2, 3])
    assert (list(value) if isinstance(value, tuple) else value) == want["value"]
    assert str(record[0].message).split(",")[0] == want["starts"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        getattr(jnp, name)(np.ones(3))  # arrays and scalars do not warn
        getattr(jnp, name)(2.0)


def test_lexsort_of_scalar_keys() -> None:
    got = jnp.lexsort((np.float32(1.0), np.float32(2.0)))
    assert [int(got), str(got.dtype), list(got.shape)] == NUMPY["lexsort_scalars"]


def test_index_take_under_rank_promotion_raise() -> None:
    """``lax.index_take`` promoted its index arrays' ranks internally, which raised under
    ``numpy_rank_promotion="raise"`` (JAX's test configuration)."""
    from trellax import lax

    src = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    with trellax.numpy_rank_promotion("raise"):
        got = lax.index_take(src, (np.array([0, 1, -1]), np.array([2, 0, 5])), (0, 2))
    assert np.asarray(got).ravel().tolist() == GOLDEN["special"]["index_take_rank_raise"]


@pytest.mark.parametrize(
    "case", list(zip(range(5), GOLDEN["special"]["vmap_conv_empty_batch"], strict=True))
)
def test_vmap_conv_over_an_empty_batch(case: tuple[int, list[int]]) -> None:
    """``vmap`` of ``conv_general_dilated`` over a batch of size 0 (the batch rule divided by
    the batch size: ``ZeroDivisionError``)."""
    from trellax import lax

    configs = [
        (None, 0, 1, 1, (2, 3, 6, 7), (4, 3, 1, 2)),
        (0, None, 1, 1, (2, 3, 6, 7), (4, 3, 1, 2)),
        (0, 0, 1, 1, (2, 3, 6, 7), (4, 3, 1, 2)),
        (None, 0, 2, 1, (2, 6, 6, 7), (4, 3, 1, 2)),
        (0, None, 1, 2, (4, 3, 6, 7), (4, 3, 1, 2)),
    ]
    k, shape = case
    lb, rb, fg, bg, lshape, rshape = configs[k]

    def conv(x: Any, w: Any) -> Any:
        return lax.conv_general_dilated(
            x, w, (1, 1), ((1, 0), (0, 1)), feature_group_count=fg, batch_group_count=bg
        )

    lhs = np.zeros(((0,) if lb is not None else ()) + lshape, np.float32)
    rhs = np.zeros(((0,) if rb is not None else ()) + rshape, np.float32)
    assert list(trellax.vmap(conv, (lb, rb))(lhs, rhs).shape) == shape
