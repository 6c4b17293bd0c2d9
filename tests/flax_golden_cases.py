"""The trees serialized by Flax in tests/golden/flax/ (tools/gen_golden_flax.py) and by trellax in
tests/test_flax_serialization_golden.py: built from NumPy and ml_dtypes only, deterministically,
so that both sides make the very same values.

Each builder returns plain containers and NumPy values; the Flax-specific objects (FrozenDict,
struct dataclasses, TrainState) are built by each side from ``structured_parts()``.
"""

from __future__ import annotations

import collections
from typing import Any

import ml_dtypes
import numpy as np

# Every dtype an array in a Flax file can have (NumPy's and ml_dtypes'), by its ``dtype.name``.
# Long double (float128/complex256 on x86) is apart: 6 of its 16 bytes are padding that NumPy
# leaves arbitrary, so its files can be compared by value only, not byte for byte.
LONG_DOUBLE_DTYPES = ["longdouble", "clongdouble"]
NUMPY_DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "timedelta64",
    "datetime64[s]",
]
ML_DTYPES = [
    "bfloat16",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float4_e2m1fn",
    "int1",
    "int2",
    "int4",
    "uint1",
    "uint2",
    "uint4",
]

# The chunk size both sides set before writing ``chunked_tree`` (bytes), so arrays are chunked.
SMALL_CHUNK_SIZE = 91 * 8


def dtype_of(name: str) -> np.dtype[Any]:
    """The dtype called ``name`` (ml_dtypes names included)."""
    if hasattr(ml_dtypes, name):
        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(name)


def sample_array(name: str, shape: tuple[int, ...] = (3, 4)) -> np.ndarray[Any, Any]:
    """A deterministic array of dtype ``name``: a range, with NaN/inf/-0.0 for float kinds."""
    dtype = dtype_of(name)
    n = int(np.prod(shape))
    if dtype.kind == "b":
        values: np.ndarray[Any, Any] = np.arange(n) % 3 == 0
    elif dtype.kind in "mM":
        values = np.arange(n).astype(dtype)
    elif dtype.kind == "c":
        values = np.linspace(-2.0, 2.0, n) + 1j * np.linspace(3.0, -1.0, n)
        values[0] = complex(np.nan, 1.0)
    elif dtype.kind == "u" or name.startswith("uint"):
        info_max = (
            1 if name == "uint1" else 3 if name == "uint2" else 15 if name == "uint4" else 250
        )
        values = np.arange(n) % (info_max + 1)
    elif dtype.kind == "i" or name.startswith("int"):
        lo, hi = {"int1": (-1, 0), "int2": (-2, 1), "int4": (-8, 7)}.get(name, (-100, 100))
        values = lo + np.arange(n) % (hi - lo + 1)
    else:
        values = np.linspace(-3.0, 3.0, n)
        if "e8m0" in name:  # exponent-only: positive powers of two (and NaN) only
            values = 2.0 ** np.linspace(-3, 3, n).round()
        elif n >= 4 and "fnuz" not in name and not name.startswith(("float4", "float6")):
            values[1], values[2] = np.inf, -np.inf
        if n >= 4 and not name.startswith(("float4", "float6")):
            values[3] = np.nan
        if n >= 5 and "e8m0" not in name and "fnuz" not in name:
            values[4] = -0.0
    return np.asarray(values).astype(dtype).reshape(shape)


def dtype_tree() -> dict[str, Any]:
    """One (3, 4) array of every dtype, plus 0-d, empty and non-contiguous arrays."""
    tree: dict[str, Any] = {name: sample_array(name) for name in NUMPY_DTYPES + ML_DTYPES}
    tree["zero_d_f32"] = np.asarray(np.float32(1.5))
    tree["empty_bf16"] = np.zeros((0, 3), dtype_of("bfloat16"))
    tree["transposed_i16"] = sample_array("int16", (4, 5)).T
    tree["big_f32"] = np.linspace(0.0, 1.0, 2000, dtype=np.float32).reshape(40, 50)
    return tree


def long_double_tree() -> dict[str, Any]:
    """Long double arrays and scalars (compared by value: their padding bytes are arbitrary)."""
    tree: dict[str, Any] = {name: sample_array(name) for name in LONG_DOUBLE_DTYPES}
    tree.update({f"np_{name}": sample_array(name, (1,))[0] for name in LONG_DOUBLE_DTYPES})
    return tree


def scalar_tree() -> dict[str, Any]:
    """NumPy scalars of every NumPy dtype and the Python values msgpack stores natively."""
    tree: dict[str, Any] = {f"np_{name}": sample_array(name, (1,))[0] for name in NUMPY_DTYPES}
    tree.update({f"np_{name}": sample_array(name, (1,))[0] for name in ("bfloat16", "int4")})
    tree.update(
        {
            "py_int": -7,
            "py_big_int": 2**63 - 1,
            "py_float": 2.5,
            "py_bool": True,
            "py_none": None,
            "py_str": "héllo",
            "py_bytes": b"\x00\xff",
            "py_complex": complex(1.5, -2.0),
            "py_list": [1, [2.0, "three"], {"four": 4}],
            "empty_dict": {},
            "empty_list": [],
        }
    )
    return tree


def chunked_tree() -> dict[str, Any]:
    """Arrays larger than ``SMALL_CHUNK_SIZE`` bytes (chunked) and one smaller (not chunked)."""
    return {
        "f64": np.linspace(-1.0, 1.0, 21 * 37).reshape(21, 37),
        "bf16": sample_array("bfloat16", (50, 30)),
        "c64": sample_array("complex64", (7, 20)),
        "nested": {"i8": sample_array("int8", (1000,)), "small": sample_array("int32", (2, 2))},
    }


Pair = collections.namedtuple("Pair", ["first", "second"])


def structured_parts() -> dict[str, Any]:
    """Plain values that each side wraps in its FrozenDict, struct dataclass and TrainState."""
    return {
        "params": {
            "Dense_0": {
                "kernel": np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 4),
                "bias": np.zeros((4,), np.float32),
            },
            "Dense_1": {
                "kernel": np.ones((4, 2), np.float32),
                "bias": np.arange(2.0, dtype=np.float32),
            },
        },
        "step": 3,
        "pair": Pair(np.arange(3, dtype=np.int32), [1.0, (2, 3)]),
    }
