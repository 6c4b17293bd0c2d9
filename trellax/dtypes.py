"""Dtypes and promotion: ``promote_types``, ``result_type``, weak types, x64 canonicalization.

>>> import trellax.dtypes as tdt
>>> tdt.promote_types("int8", "uint8")
dtype('int16')
>>> tdt.result_type("float16", 1.0, return_weak_type_flag=True)
(dtype('float16'), False)
"""

from trellax._src.dtypes.dtypes import (
    ALL_DTYPES,
    FLOAT4S,
    FLOAT6S,
    FLOAT8S,
    LOW_INTS,
    STANDARD_DTYPES,
    WEAK_NODES,
    TypePromotionError,
    WeakType,
    bfloat16,
    canonicalize_dtype,
    default_complex_dtype,
    default_float_dtype,
    default_int_dtype,
    default_uint_dtype,
    finfo,
    iinfo,
    is_weakly_typed,
    isdtype,
    issubdtype,
    itemsize_bits,
    lattice,
    promote_types,
    result_type,
    weak_complex,
    weak_float,
    weak_int,
)
from trellax._src.lax.ad_util import float0

float8_e4m3fn = FLOAT8S.get("float8_e4m3fn")
float8_e5m2 = FLOAT8S.get("float8_e5m2")
float8_e4m3fnuz = FLOAT8S.get("float8_e4m3fnuz")
float8_e5m2fnuz = FLOAT8S.get("float8_e5m2fnuz")
float8_e4m3b11fnuz = FLOAT8S.get("float8_e4m3b11fnuz")
float8_e3m4 = FLOAT8S.get("float8_e3m4")
float8_e4m3 = FLOAT8S.get("float8_e4m3")
float8_e8m0fnu = FLOAT8S.get("float8_e8m0fnu")
float6_e2m3fn = FLOAT6S.get("float6_e2m3fn")
float6_e3m2fn = FLOAT6S.get("float6_e3m2fn")
float4_e2m1fn = FLOAT4S.get("float4_e2m1fn")
int4 = LOW_INTS.get("int4")
uint4 = LOW_INTS.get("uint4")
int2 = LOW_INTS.get("int2")
uint2 = LOW_INTS.get("uint2")

__all__ = [
    "ALL_DTYPES",
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
    "int2",
    "int4",
    "is_weakly_typed",
    "isdtype",
    "issubdtype",
    "itemsize_bits",
    "lattice",
    "promote_types",
    "result_type",
    "uint2",
    "uint4",
    "weak_complex",
    "weak_float",
    "weak_int",
]
