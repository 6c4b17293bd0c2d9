"""Derivatives of gather and the scatter family: ``x[i]``, ``x[mask]``, ``.at[...]``.

Derivatives are checked against finite differences in float64 (x64 on); the literal expected
values are JAX 0.10.2's outputs for the same programs (ties, duplicates, out-of-bounds modes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.test_util import check_grads

_X = np.array([0.3, -1.2, 2.0, 1.5, 0.7])
_M = np.arange(12.0).reshape(3, 4) * 0.25 - 1.0
_I = np.array([0, 2, 2, 4])
_IOOB = np.array([0, 2, 2, 7, -1])

CASES: dict[str, tuple[Callable[..., Any], tuple[np.ndarray, ...]]] = {
    "x[i]": (lambda x: tnp.sin(x[tnp.asarray(_I)]), (_X,)),
    "x[mask]": (lambda x: x[tnp.asarray(_X > 0.5)] ** 2, (_X,)),
    "x[1:, cols]": (lambda m: m[1:, tnp.array([3, 0, 3])] * m[0, 0], (_M,)),
    "x[rows, 1:]": (lambda m: tnp.cos(m[tnp.array([1, 1]), 1:]), (_M,)),
    "get_fill": (lambda x: x.at[tnp.asarray(_IOOB)].get(mode="fill", fill_value=0.0) * x, (_X,)),
    "get_clip": (lambda x: x.at[tnp.asarray(_IOOB)].get(mode="clip") ** 2, (_X,)),
    "add": (lambda x, u: x.at[tnp.asarray(_I)].add(u * x[:4]), (_X, _X[:4] + 3)),
    "add_clip": (lambda x, u: x.at[tnp.asarray(_IOOB)].add(u, mode="clip") * x, (_X, _X * 2)),
    "set_dup": (lambda x, u: x.at[tnp.asarray(_I)].set(u * u) * x, (_X, _X[:4] + 3)),
    "set_drop": (lambda x, u: x.at[tnp.asarray(_IOOB)].set(u, mode="drop") ** 2, (_X, _X * 3)),
    "set_2d": (lambda m, u: m.at[tnp.array([2, 0])].set(u), (_M, _M[:2] * 2)),
    "mul_operand": (lambda x: x.at[tnp.asarray(_I)].mul(3.0) * x, (_X,)),
    "max": (lambda x, u: x.at[tnp.asarray(_I)].max(u), (_X, np.array([1.0, 5.0, -3.0, 9.0]))),
    "min": (lambda x, u: x.at[tnp.asarray(_I)].min(u), (_X, np.array([-1.0, 5.0, -3.0, 9.0]))),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("jit", [False, True])
def test_check_grads(name: str, jit: bool) -> None:
    f, args = CASES[name]

    def as_arrays(*xs: Any) -> Any:  # check_grads gives f NumPy arrays, as JAX's does
        return f(*[tnp.asarray(x) for x in xs])

    g = trellax.jit(f) if jit else as_arrays
    with trellax.enable_x64():
        check_grads(g, [tnp.asarray(a) for a in args], order=2, modes=("fwd", "rev"))


def _grad(f: Callable[..., Any], x: Any, jit: bool = False) -> np.ndarray:
    g = trellax.grad(f)
    return np.asarray((trellax.jit(g) if jit else g)(x))


_A5 = np.arange(5.0)

#: name -> (function of a float64 vector, argument, JAX 0.10.2's gradient)
GOLDEN: dict[str, tuple[Callable[[Any], Any], np.ndarray, list[float]]] = {
    "gather_dup": (lambda x: tnp.sum(x[tnp.array([0, 2, 2])] ** 2), _A5, [0, 0, 8, 0, 0]),
    "set_dup": (
        lambda x: tnp.sum(x.at[tnp.array([0, 2, 2, 7])].set(x[:4] * 3) ** 2),
        _A5,
        [0, 2, 36, 6, 8],
    ),
    "add_dup": (
        lambda x: tnp.sum(x.at[tnp.array([0, 2, 2, 7])].add(x[:4] * 3) ** 2),
        _A5,
        [0, 68, 88, 6, 8],
    ),
    "max_oob": (
        lambda x: tnp.sum(x.at[tnp.array([0, 2, 2, 7])].max(x[1:]) ** 2),
        _A5,
        [0, 4, 0, 12, 8],
    ),
    "mul_dup": (
        lambda x: tnp.sum(x.at[tnp.array([0, 2, 2, 7])].mul(2.0) ** 2),
        _A5,
        [0, 2, 64, 6, 8],
    ),
    "mask": (lambda x: tnp.sum(x[x > 2] ** 2), _A5, [0, 0, 0, 6, 8]),
    "clip_get": (
        lambda x: tnp.sum(x.at[tnp.asarray(_IOOB)].get(mode="clip") ** 2),
        _A5,
        [0, 0, 8, 0, 16],
    ),
    "clip_add": (
        lambda x: tnp.sum(x.at[tnp.asarray(_IOOB)].add(x * 2, mode="clip") ** 2),
        _A5,
        [0, 34, 48, 78, 108],
    ),
    "drop_set": (
        lambda x: tnp.sum(x.at[tnp.asarray(_IOOB)].set(x * 2, mode="drop") ** 2),
        _A5,
        [0, 2, 16, 6, 32],
    ),
    # a filled window's tangent is the fill (NaN) times nothing of x: only the product's factor
    "fill_nan": (
        lambda x: tnp.sum(x.at[tnp.asarray(_IOOB)].get(mode="fill", fill_value=tnp.nan) * x),
        _A5,
        [0, 2, 5, float("nan"), 8],
    ),
    # ties of scatter-max share the tangent equally, the operand included
    "max_tie_operand": (
        lambda x: tnp.sum(
            x.at[tnp.array([1, 1, 3])].max(tnp.array([1.0, 1.0, 2.0]) * x[:3]) * tnp.arange(5.0)
        ),
        _A5,
        [0, 1, 8, 0, 4],
    ),
    "max_tie_updates": (
        lambda u: tnp.sum(tnp.asarray(_A5).at[tnp.array([1, 1, 3])].max(u) * tnp.arange(5.0)),
        np.array([1.0, 1.0, 3.0]),
        [1 / 3, 1 / 3, 1.5],
    ),
    "min_tie_updates": (
        lambda u: tnp.sum(tnp.asarray(_A5).at[tnp.array([1, 1, 3])].min(u) * tnp.arange(5.0)),
        np.array([1.0, 0.5, 3.0]),
        [0, 1, 1.5],
    ),
    "set_updates_dup": (
        lambda u: tnp.sum(tnp.asarray(_A5).at[tnp.array([1, 1, 3])].set(u) * tnp.arange(5.0)),
        np.array([1.0, 0.5, 3.0]),
        [0, 1, 3],
    ),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
@pytest.mark.parametrize("jit", [False, True])
def test_golden_gradients(name: str, jit: bool) -> None:
    f, x, expected = GOLDEN[name]
    with trellax.enable_x64():
        if jit and name == "mask":  # the mask is traced under jit: its shape is unknown (JAX too)
            with pytest.raises(trellax.errors.NonConcreteBooleanIndexError):
                _grad(f, tnp.asarray(x), jit)
            return
        np.testing.assert_allclose(_grad(f, tnp.asarray(x), jit), expected, rtol=1e-12)


def test_golden_2d() -> None:
    m = np.arange(12.0).reshape(3, 4)
    with trellax.enable_x64():
        g = _grad(lambda m: tnp.sum(tnp.sin(m[:, tnp.array([3, 0, 3])])), tnp.asarray(m))
        expected = np.zeros((3, 4))
        expected[:, 0] = np.cos(m[:, 0])
        expected[:, 3] = 2 * np.cos(m[:, 3])
        np.testing.assert_allclose(g, expected, rtol=1e-12)
        g = _grad(lambda m: tnp.sum(m[tnp.array([1, 1]), 1:] ** 2), tnp.asarray(m))
        assert g.tolist() == [[0, 0, 0, 0], [0, 20, 24, 28], [0, 0, 0, 0]]


def test_jvp_of_set_masks_the_overwritten_operand() -> None:
    with trellax.enable_x64():
        x, u = tnp.arange(5.0), tnp.array([1.0, 2.0])
        _, t = trellax.jvp(
            lambda x, u: x.at[tnp.array([4, 0])].set(u),
            (x, u),
            (tnp.ones(5), tnp.array([10.0, 20.0])),
        )
        assert np.asarray(t).tolist() == [20, 1, 1, 1, 10]


def test_dtype_and_weak_flag_of_gradients() -> None:
    g = trellax.grad(lambda x: tnp.sum(x[tnp.array([1])]))(tnp.arange(3, dtype=tnp.float32))
    assert g.dtype == np.float32 and not g.weak_type
    assert np.asarray(g).tolist() == [0, 1, 0]
    g = trellax.grad(lambda x: tnp.sum(x.at[1].add(2.0)))(tnp.array([1.0, 2.0], tnp.float32))
    assert g.dtype == np.float32 and not g.weak_type


def test_scatter_mul_updates_gradient_raises_as_in_jax() -> None:
    with pytest.raises(NotImplementedError, match="only implemented if `unique_indices=True`"):
        trellax.grad(lambda u: tnp.sum(tnp.arange(5.0).at[tnp.array([1, 1])].mul(u)))(
            tnp.array([1.0, 2.0])
        )
    g = trellax.grad(lambda x: tnp.sum(x.at[tnp.array([1, 1])].mul(3.0)))(tnp.arange(5.0))
    assert np.asarray(g).tolist() == [1, 9, 1, 1, 1]


def _adjoint(f: Callable[[Any], Any], x: np.ndarray) -> None:
    with trellax.enable_x64():
        xa = tnp.asarray(x)
        y, f_vjp = trellax.vjp(f, xa)
        rng = np.random.RandomState(0)
        ct = rng.randn(*np.shape(y))
        (xt,) = f_vjp(tnp.asarray(ct))
        t = rng.randn(*x.shape)
        _, yt = trellax.jvp(f, (xa,), (tnp.asarray(t),))
        np.testing.assert_allclose(np.vdot(ct, np.asarray(yt)), np.vdot(np.asarray(xt), t))


_DN = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
_SDN = lax.ScatterDimensionNumbers(
    update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
)
_IDX = np.array([[2], [0], [2], [5]])


@pytest.mark.parametrize("mode", ["clip", "fill", "promise_in_bounds"])
def test_adjoint_identity_gather_and_scatter_add(mode: str) -> None:
    # out-of-bounds windows are broken promises under promise_in_bounds (reads clamp, writes drop)
    idx = tnp.asarray(np.minimum(_IDX, 2) if mode == "promise_in_bounds" else _IDX)
    _adjoint(lambda m: lax.gather(m, idx, _DN, (1, 4), mode=mode), _M)
    u = _M[:1].repeat(4, axis=0)
    _adjoint(lambda u: lax.scatter_add(tnp.asarray(_M), idx, u, _SDN, mode=mode), u)
    _adjoint(lambda m: lax.scatter_add(m, idx, tnp.asarray(u), _SDN, mode=mode), _M)


def test_batched_dimension_numbers() -> None:
    # operand axis 0 paired with the batch axis of the indices (the form vmap produces)
    dn = lax.GatherDimensionNumbers(
        offset_dims=(),
        collapsed_slice_dims=(1,),
        start_index_map=(1,),
        operand_batching_dims=(0,),
        start_indices_batching_dims=(0,),
    )
    idx = tnp.array([[3], [0], [1]])
    f = lambda m: lax.gather(m, idx, dn, (1, 1)) ** 2  # noqa: E731
    with trellax.enable_x64():
        check_grads(f, [tnp.asarray(_M)], order=2)
        g = np.asarray(trellax.grad(lambda m: tnp.sum(f(m)))(tnp.asarray(_M)))
    expected = np.zeros((3, 4))
    for r, c in enumerate([3, 0, 1]):
        expected[r, c] = 2 * _M[r, c]
    np.testing.assert_allclose(g, expected)


def test_vmap_of_grad_and_grad_of_vmap() -> None:
    # JAX's value; the cotangents of ``r`` meet in an add_any, which vmap batches too
    x = tnp.arange(12.0).reshape(3, 4)
    g = lambda r: tnp.sum(r.at[tnp.array([1, 1])].set(r[:2] * 3) ** 2)  # noqa: E731
    expected = [[0, 18, 4, 6], [8, 90, 12, 14], [16, 162, 20, 22]]
    assert np.asarray(trellax.vmap(trellax.grad(g))(x)).tolist() == expected
    assert np.asarray(trellax.grad(lambda x: trellax.vmap(g)(x).sum())(x)).tolist() == expected


@pytest.mark.parametrize("dtype", [tnp.float8_e4m3fn, tnp.float16, tnp.float32])
def test_gather_transpose_keeps_the_cotangent_dtype(dtype: Any) -> None:
    # a custom_vjp whose bwd returns bfloat16: JAX's gather transpose scatters into zeros of
    # the cotangent's dtype and returns bfloat16 (it was cast back to the operand's dtype)
    @trellax.custom_vjp
    def f(x: Any) -> Any:
        return x

    f.defvjp(lambda x: (f(x), ()), lambda res, g: (g.astype(tnp.bfloat16),))

    def g(x: Any) -> Any:
        return f(x.at[tnp.argsort(x)].get())

    x = tnp.arange(8, dtype=dtype)
    _, vjp_fn = trellax.vjp(g, x)
    (ct,) = vjp_fn(tnp.ones((8,), dtype=dtype))
    assert ct.dtype == tnp.bfloat16
    np.testing.assert_array_equal(np.asarray(ct, np.float32), np.ones(8, np.float32))
