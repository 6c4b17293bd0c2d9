"""Instances of subclasses of int/float/complex (``IntEnum`` members...) are the weak Python
scalars of their base type, as in JAX 0.10.2 (``jnp.array(AnEnum.A)`` is a weak int32, and
``int8_array + AnEnum.A`` stays int8); bool and NumPy scalars keep their own rules."""

from __future__ import annotations

import enum

import numpy as np
import pytest

import trellax
import trellax.dtypes as tdt
import trellax.numpy as tnp


class Color(enum.IntEnum):
    RED = 42
    BLUE = 101


class Meters(float):
    pass


def test_array_of_an_int_enum_is_a_weak_int() -> None:
    for x in (tnp.array(Color.RED), tnp.asarray(Color.RED), trellax.jit(lambda v: v)(Color.RED)):
        assert (x.dtype, x.weak_type, int(x)) == (np.int32, True, 42)


def test_enum_members_promote_as_weak_scalars() -> None:
    y = tnp.ones(2, "int8") + Color.RED
    assert (y.dtype, y.weak_type) == (np.int8, False)
    assert tnp.add(Color.RED, 1).weak_type
    assert tnp.int32(Color.BLUE).dtype == np.int32
    z = tnp.array([Color.RED, 1])
    assert (z.dtype, z.weak_type) == (np.int32, False)
    assert z.tolist() == [42, 1]


def test_float_subclass_is_a_weak_float() -> None:
    x = tnp.array(Meters(1.5))
    assert (x.dtype, x.weak_type, float(x)) == (np.float32, True, 1.5)
    assert tdt.result_type(Meters(2.0)) == np.float32


def test_other_objects_are_still_refused() -> None:
    with pytest.raises(TypeError, match="not a valid trellax array"):
        tnp.array(object())


def test_itemsize_bits_of_none_raises() -> None:
    with pytest.raises(ValueError, match="dtype cannot be None"):
        tdt.itemsize_bits(None)
