"""diff and ediff1d: dtypes (JAX's), values against NumPy, prepend/append, errors."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp


@pytest.mark.parametrize(
    ("dtype", "expected"),
    [
        ("int8", "int8"),
        ("uint8", "uint8"),
        ("bool", "bool"),
        ("float16", "float16"),
        ("bfloat16", "bfloat16"),
    ],
)
def test_diff_keeps_dtype(dtype: str, expected: str) -> None:
    assert tnp.diff(tnp.ones(4, dtype)).dtype.name == expected


def test_diff_keeps_weak_flag() -> None:
    assert tnp.diff(tnp.full((3,), 2.0)).weak_type


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_diff_values(n: int, axis: int) -> None:
    m = (np.arange(20.0).reshape(4, 5) ** 2).astype(np.float32)
    np.testing.assert_allclose(
        np.asarray(tnp.diff(tnp.asarray(m), n=n, axis=axis)), np.diff(m, n=n, axis=axis)
    )


def test_diff_prepend_append_promote() -> None:
    x = tnp.asarray([1, 4, 9], dtype="int8")
    out = tnp.diff(x, prepend=0, append=tnp.asarray([100], dtype="int16"))
    assert out.dtype == np.dtype("int16")
    np.testing.assert_array_equal(np.asarray(out), np.diff([0, 1, 4, 9, 100]))


def test_diff_under_jit_matches_eager() -> None:
    x = tnp.asarray([1.0, 3.0, 7.0])
    assert np.array_equal(np.asarray(trellax.jit(tnp.diff)(x)), np.asarray(tnp.diff(x)))


def test_ediff1d() -> None:
    x = tnp.asarray([[1, 2], [4, 8]], dtype="int32")
    out = tnp.ediff1d(
        x, to_begin=tnp.asarray([0], dtype="int32"), to_end=tnp.asarray([9], dtype="int32")
    )
    np.testing.assert_array_equal(
        np.asarray(out), np.ediff1d(np.asarray(x), to_begin=[0], to_end=[9])
    )


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: tnp.diff(tnp.asarray(1.0)), "at least one dimensional"),
        (lambda: tnp.diff(tnp.ones(3), n=-1), "non-negative"),
    ],
)
def test_diff_errors(call, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=words):
        call()
