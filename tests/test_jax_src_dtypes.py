"""The ``jax._src.dtypes`` and ``jax._src.literals`` stand-ins (``trellax/_src/compat/jax_src/``),
which JAX's own ``dtypes_test`` reads: JAX's canonicalizing ``dtype``, the lattice's node lists,
``check_and_canonicalize_user_dtype``, ``safe_to_cast``, ``canonicalize_value``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.compat.jax_src import dtypes as jd
from trellax._src.compat.jax_src.literals import TypedFloat, TypedInt, TypedNdArray


def test_dtype_canonicalizes_values_and_python_types() -> None:
    with trellax.enable_x64(False):
        assert jd.dtype(int) == np.int32 and jd.dtype(1.0) == np.float32
        assert jd.dtype(np.int64(0)) == np.int32  # a NumPy value: silently
        assert jd.dtype(np.zeros(2, np.float64)) == np.float32
        with pytest.warns(UserWarning, match="Explicitly requested dtype float64"):
            assert jd.dtype("float64") == np.float32  # a dtype: an explicit request
        with trellax.explicit_x64_dtypes("allow"):
            assert jd.dtype(np.float64) == np.float64
        with trellax.explicit_x64_dtypes("error"), pytest.raises(ValueError):
            jd.dtype(np.dtype("int64"))
    with trellax.enable_x64(True):
        assert jd.dtype(int) == np.int64
    with pytest.raises(ValueError, match="Invalid argument to dtype"):
        jd.dtype(None)


def test_literals_keep_their_dtype() -> None:
    assert jd.dtype(TypedInt(0, np.dtype("int64"))) == np.int64
    assert jd.dtype(TypedFloat(0, np.dtype("float64"))) == np.float64
    assert jd.canonicalize_value(TypedNdArray(np.array([1], np.int64))).dtype == np.int64
    assert repr(TypedInt(3, np.dtype("int32"))) == "TypedInt(3, dtype=int32)"


def test_lattice_nodes() -> None:
    assert jd._weak_types == [int, float, complex]
    assert len(jd._jax_types) == len(set(jd._jax_types))
    for t in jd._jax_types:
        c = trellax.dtypes.canonicalize_dtype(t)
        assert jd._jax_type(*jd._dtype_and_weaktype(c)) is c
    assert jd._jax_type(np.dtype("bfloat16"), True) is float
    assert jd._jax_type(np.dtype("uint8"), True) is int
    assert jd._jax_type(np.dtype("bool"), True) == np.bool_
    assert jd.lattice_result_type(int, float) == (np.float32, True)


def test_user_dtype_checks() -> None:
    with pytest.raises(ValueError, match="no longer supported"):
        jd.check_and_canonicalize_user_dtype(tnp.arange(3))
    with pytest.raises(ValueError, match="must be specified"):
        jd.check_and_canonicalize_user_dtype(None)
    assert jd.check_and_canonicalize_user_dtype(float) == np.float32


def test_safe_to_cast_and_canonicalize_value() -> None:
    assert jd.safe_to_cast("int16", "float32")
    assert not jd.safe_to_cast("float32", "int16")
    assert not jd.safe_to_cast("complex64", "float32")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert jd.canonicalize_value(np.ones(2, np.float64)).dtype == np.float32
    z = np.zeros(2, trellax.dtypes.float0)
    assert jd.canonicalize_value(z).dtype == trellax.dtypes.float0
    assert jd.supports_inf(np.float32) and not jd.supports_inf(np.int8)
    assert not jd.supports_inf(trellax.dtypes.float8_e4m3fn)


def test_other_names_come_from_trellax_dtypes() -> None:
    assert jd.canonicalize_dtype is trellax.dtypes.canonicalize_dtype
    with pytest.raises(AttributeError, match="no counterpart"):
        jd.no_such_name
