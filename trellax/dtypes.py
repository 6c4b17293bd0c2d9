"""Dtypes and promotion: ``promote_types``, ``result_type``, weak types, x64 canonicalization.

>>> import trellax.dtypes as tdt
>>> tdt.promote_types("int8", "uint8")
dtype('int16')
>>> tdt.result_type("float16", 1.0, return_weak_type_flag=True)
(dtype('float16'), False)
"""

from typing import Any

import numpy as np

from trellax._src.dtypes.dtypes import (
    ALL_DTYPES,
    FLOAT4S,
    FLOAT6S,
    FLOAT8S,
    LOW_INTS,
    SCALAR_TYPES,
    STANDARD_DTYPES,
    WEAK_NODES,
    TypePromotionError,
    WeakType,
    _extended_type,
    default_complex_dtype,
    default_float_dtype,
    default_int_dtype,
    default_uint_dtype,
    extended,
    finfo,
    iinfo,
    is_weakly_typed,
    isdtype,
    issubdtype,
    itemsize_bits,
    lattice,
    prng_key,
    promote_types,
    result_type,
    scalar_type_of,
    weak_complex,
    weak_float,
    weak_int,
)
from trellax._src.dtypes.dtypes import canonicalize_dtype as _canonicalize_dtype
from trellax._src.lax.ad_util import float0


def canonicalize_dtype(
    dtype: Any, allow_extended_dtype: bool = False, *, x64: bool | None = None
) -> np.dtype[Any]:
    """The dtype trellax actually uses for ``dtype``: with x64 off, 64-bit types become 32-bit;
    Python types map to the defaults. An extended (key) dtype is returned as it is with
    ``allow_extended_dtype``, refused otherwise (JAX's ``ValueError``)."""
    try:
        return _canonicalize_dtype(dtype, x64=x64)
    except TypeError:
        if _extended_type(dtype) is None:
            raise
        if allow_extended_dtype:
            return dtype  # type: ignore[no-any-return]  # a key dtype, not a NumPy one
        raise ValueError(
            f"Internal: canonicalize_dtype called on extended dtype {dtype} with "
            "allow_extended_dtype=False"
        ) from None


# The scalar types, as in ``jax.dtypes`` (``np.dtype(bfloat16)`` is the dtype).
bfloat16 = SCALAR_TYPES["bfloat16"]
float8_e4m3fn = SCALAR_TYPES.get("float8_e4m3fn")
float8_e5m2 = SCALAR_TYPES.get("float8_e5m2")
float8_e4m3fnuz = SCALAR_TYPES.get("float8_e4m3fnuz")
float8_e5m2fnuz = SCALAR_TYPES.get("float8_e5m2fnuz")
float8_e4m3b11fnuz = SCALAR_TYPES.get("float8_e4m3b11fnuz")
float8_e3m4 = SCALAR_TYPES.get("float8_e3m4")
float8_e4m3 = SCALAR_TYPES.get("float8_e4m3")
float8_e8m0fnu = SCALAR_TYPES.get("float8_e8m0fnu")
float6_e2m3fn = SCALAR_TYPES.get("float6_e2m3fn")
float6_e3m2fn = SCALAR_TYPES.get("float6_e3m2fn")
float4_e2m1fn = SCALAR_TYPES.get("float4_e2m1fn")
int4 = SCALAR_TYPES.get("int4")
uint4 = SCALAR_TYPES.get("uint4")
int1 = SCALAR_TYPES.get("int1")
uint1 = SCALAR_TYPES.get("uint1")
int2 = SCALAR_TYPES.get("int2")
uint2 = SCALAR_TYPES.get("uint2")

__all__ = [
    "ALL_DTYPES",
    "FLOAT4S",
    "FLOAT6S",
    "FLOAT8S",
    "LOW_INTS",
    "STANDARD_DTYPES",
    "WEAK_NODES",
    "TypePromotionError",
    "WeakType",
    "bfloat16",
    "canonicalize_dtype",
    "default_complex_dtype",
    "default_float_dtype",
    "default_int_dtype",
    "default_uint_dtype",
    "extended",
    "finfo",
    "float0",
    "float4_e2m1fn",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "iinfo",
    "int1",
    "int2",
    "int4",
    "is_weakly_typed",
    "isdtype",
    "issubdtype",
    "itemsize_bits",
    "lattice",
    "prng_key",
    "promote_types",
    "result_type",
    "scalar_type_of",
    "uint1",
    "uint2",
    "uint4",
    "weak_complex",
    "weak_float",
    "weak_int",
]
