"""Where the Array API conformance suite fails trellax, trellax gives JAX 0.10.2's answer
(``docs/semantics.md``, "The Array API standard"). The expected values below were read from JAX
0.10.2 with x64 on, on 2026-11-29; each test pins one class of the suite's failures."""

from __future__ import annotations

import math

import numpy as np

import trellax
import trellax.numpy as tnp

INF = math.inf


def test_floor_divide_and_remainder_special_cases_are_jax_s() -> None:
    with trellax.enable_x64(True):
        a = tnp.array([-0.0, -0.0, INF, INF, -INF, 1.0, -1.0, -1.0])
        b = tnp.array([2.0, -2.0, 2.0, -2.0, 2.0, -INF, INF, -INF])
        got = np.asarray(tnp.floor_divide(a, b))
        assert np.array_equal(got, [0.0, -0.0, np.nan, np.nan, np.nan, -1.0, -1.0, -0.0], True)
        assert list(np.signbit(got[[0, 1, 7]])) == [False, True, True]
        assert np.array_equal(np.asarray(a // b), got, equal_nan=True)
        rem = np.asarray(tnp.remainder(tnp.array([-0.0, 0.0]), tnp.array([2.0, -2.0])))
        assert list(np.signbit(rem)) == [True, False] and not rem.any()


def test_complex_expm1_and_tanh_at_infinite_parts_are_jax_s() -> None:
    z = tnp.array([complex(-INF, INF), complex(INF, INF), complex(-INF, math.nan)])
    got = np.asarray(tnp.expm1(z))
    assert np.isnan(got.real).all() and np.isnan(got.imag).all()
    t = np.asarray(tnp.tanh(tnp.array([complex(INF, 1.0), complex(INF, 2.0)])))
    assert t.real.tolist() == [1.0, 1.0]
    assert list(np.signbit(t.imag)) == [False, True]  # the sign of sin(2y)


def test_finfo_fields_are_numpy_scalars() -> None:
    assert type(tnp.finfo(tnp.float32).eps) is np.float32
    assert type(tnp.finfo(tnp.complex64).eps) is np.float32


def test_searchsorted_and_cumulative_prod_dtypes_with_x64() -> None:
    with trellax.enable_x64(True):
        x = tnp.array([0], dtype=tnp.uint8)
        assert tnp.searchsorted(x, x).dtype == tnp.int32
        empty = tnp.array([], dtype=tnp.uint8)
        assert tnp.cumulative_prod(empty, include_initial=True).dtype == tnp.uint8


def test_sign_keeps_the_sign_of_a_zero_as_jax() -> None:
    """``sign(-0.0)`` is -0.0 and the complex sign of a zero is that zero with its parts' signs
    (``sign(-0 + 0j)`` is ``-0 + 0j``), as in JAX; the standard asks for +0 and ``0 + 0j``."""
    assert np.signbit(np.asarray(tnp.sign(tnp.asarray(-0.0))))
    z = np.asarray(tnp.sign(tnp.asarray([complex(-0.0, 0.0), complex(0.0, -0.0)], tnp.complex64)))
    assert list(np.signbit(z.real)) == [True, False]
    assert list(np.signbit(z.imag)) == [False, True]
