"""The eager shortcuts of ``x[slices]`` and the 2-D ``matmul`` (issue 15 §2): every result (value,
dtype, weak flag) and every error is the general path's (``indexing.getitem`` and
``dot_general_p.bind`` after promotion)."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.backend import eager
from trellax._src.backend.array import ArrayImpl
from trellax._src.lax.reductions import dot_general_p
from trellax._src.numpy import indexing, linalg_ops

MATMUL_2D = (((1,), (0,)), ((), ()))

DTYPES = ["int8", "uint32", "int32", "float32", "complex64", "float16", "bfloat16", "bool"]


def _array(dtype: str, shape: tuple[int, ...], weak: bool = False, seed: int = 0) -> Any:
    d = np.dtype(getattr(ml_dtypes, dtype, None) or dtype)
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape) * 4
    if d.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    if d.kind == "f":
        v.flat[:4] = [np.nan, np.inf, -np.inf, -0.0][: v.size]
    value = v.astype(d) if d != np.bool_ else v > 0
    if weak:  # a weakly typed array (what a Python scalar's arithmetic gives), built directly
        return ArrayImpl._new(np.asarray(value), d, True)
    return tnp.asarray(value)


def _same(got: Any, want: Any) -> None:
    assert (got.dtype, got.weak_type, got.shape) == (want.dtype, want.weak_type, want.shape)
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


MATMUL_CASES = [(d, False) for d in DTYPES] + [(d, True) for d in ("int32", "float32")]


@pytest.mark.parametrize(("dtype", "weak"), MATMUL_CASES)
@pytest.mark.parametrize("x64", [False, True])
def test_matmul_shortcut_is_dot_general(dtype: str, weak: bool, x64: bool) -> None:
    with trellax.enable_x64(x64):
        a = _array(dtype, (3, 4), weak, 1)
        b = _array(dtype, (4, 5), weak, 2)
        want = dot_general_p.bind(a, b, dimension_numbers=MATMUL_2D, preferred_element_type=a.dtype)
        for got in (a @ b, tnp.matmul(a, b), linalg_ops.matmul(a, b)):
            _same(got, want)


def test_matmul_shortcut_declines_other_cases() -> None:
    a = _array("float32", (3, 4))
    assert eager.matmul_2d(a, _array("float32", (5, 4)), dot_general_p) is None  # shapes
    assert eager.matmul_2d(a, _array("int32", (4, 2)), dot_general_p) is None  # promotion
    assert eager.matmul_2d(a, _array("float32", (4,)), dot_general_p) is None  # rank
    with pytest.raises(TypeError, match="contracting dimensions"):
        a @ _array("float32", (5, 4))
    _same(a @ _array("int32", (4, 2)), tnp.matmul(a, tnp.asarray(_array("int32", (4, 2)))))
    # weak and strong operands promote (the general path): the result is strong
    w = ArrayImpl._new(np.ones((4, 2), np.float32), np.dtype(np.float32), True)
    assert (a @ w).weak_type is False and (w @ w.T).weak_type is True


def test_matmul_shortcut_silences_fp_errors_and_works_under_jit() -> None:
    big = tnp.full((2, 2), 3e38, dtype=np.float32)
    with np.errstate(all="raise"):
        out = big @ big
    assert np.isinf(np.asarray(out)).all()
    a, b = _array("float32", (3, 4)), _array("float32", (4, 2))
    _same(trellax.jit(lambda a, b: a @ b)(a, b), a @ b)


INDICES: list[Any] = [
    slice(1, 3),
    slice(None, None, -1),
    slice(-100, 100, 2),
    slice(5, 1),
    (slice(None), 1),
    (1, slice(0, 2)),
    (0, 1),
    (slice(None), slice(1, 2)),
    (slice(None), 7),  # out of bounds: JAX clamps (the general path)
    (-9, 0),
]


GETITEM_CASES = [("float32", True)] + [(d, False) for d in ("float32", "bfloat16", "int8", "bool")]


@pytest.mark.parametrize("idx", INDICES, ids=repr)
@pytest.mark.parametrize(("dtype", "weak"), GETITEM_CASES)
def test_static_getitem_shortcut_is_getitem(idx: Any, dtype: str, weak: bool) -> None:
    x = _array(dtype, (4, 3), weak)
    try:
        want = indexing.getitem(x, idx)
    except Exception as e:
        with pytest.raises(type(e)):
            x[idx]
        return
    _same(x[idx], want)


def test_getitem_on_1d_and_scalars() -> None:
    x = _array("float32", (8,))
    _same(x[1:3], tnp.asarray(np.asarray(x)[1:3]))
    _same(x[3], indexing.getitem(x, 3))  # an int of a 1-D array: a 0-d array, not a scalar
    assert type(x[3]) is type(x) and x[3].shape == ()
    with pytest.raises(TypeError):
        x[1.5:3]  # type: ignore[misc]
