"""The programs of the integer/cast/indexing differential probe (``tests/test_probe_int.py``).

Each program is Python source over the names ``jax``, ``jnp``, ``lax`` and ``np`` that leaves its
answer in ``out``. ``tools/gen_golden_probe_int.py`` runs every program with JAX 0.10.2 bound to
those names, once with 64-bit mode off and once with ``jax_enable_x64`` on, and stores
:func:`encode` of each answer in ``tests/golden/probe_int.json``; the test binds the same names
to trellax and compares bit for bit. ``tools/probe_int_cast_index.py`` does the same from scratch
(JAX in its own interpreter, trellax with ``TRELLAX_ENABLE_X64``) and prints the totals.

Areas: integer division, remainder, powers, shifts and bit operations at the edges of every
integer dtype (negative operands, zero divisors, ``MIN // -1``, counts past the bit width);
casts from floats outside an integer's range, NaN and infinities, into the narrow floats, from
complex and from Python ints that do not fit; indexing with indices out of range, negative, of
every integer dtype, with each ``mode`` of ``.at``, ``take`` and ``put``, the dynamic slices,
mixed advanced/basic indices; integer reductions (accumulation dtype, wrap-around, ties, empty
inputs). Most programs run three ways: eagerly, under ``jax.jit`` and under ``jax.vmap``.
"""

from __future__ import annotations

import hashlib
import warnings
from typing import Any

import numpy as np
from probe_batch3_cases import error_verdict

# --------------------------------------------------------------------------------------------
# encoding an answer: dtype, weak flag, shape and the bits (every NaN of a dtype made one NaN)


def _bits(a: np.ndarray[Any, Any]) -> bytes:
    kind = a.dtype.kind
    name = a.dtype.name
    if name in ("int4", "uint4", "int2", "uint2"):
        return a.astype(np.int16).tobytes()
    if kind == "b":
        return a.astype(np.uint8).tobytes()
    if kind == "c":
        parts = np.stack([a.real, a.imag], axis=-1)
        return _bits(np.ascontiguousarray(parts))
    if kind in "iu":
        return np.ascontiguousarray(a).tobytes()
    # floats, the ml_dtypes ones included (kind "V" for some)
    a = np.array(a, copy=True)
    with np.errstate(invalid="ignore"):
        nan = np.isnan(a.astype(np.float64))
    if nan.any():
        a[nan] = np.array(np.nan, dtype=a.dtype)
    return np.ascontiguousarray(a).tobytes()


def _values(a: np.ndarray[Any, Any]) -> list[str] | None:
    if a.size > 16:
        return None
    try:
        if a.dtype.kind == "c":
            return [repr(complex(v)) for v in a.ravel()]
        if a.dtype.kind in "iub" or a.dtype.name in ("int4", "uint4"):
            return [repr(int(v)) for v in a.ravel()]
        return [repr(float(v)) for v in a.ravel()]
    except (TypeError, ValueError):
        return None


def encode(x: Any, depth: int = 0) -> Any:
    """A JSON description of ``x``: sequences by element; arrays by dtype, weak flag, shape and
    bits; Python scalars by type and repr."""
    if depth > 6:
        return ["deep"]
    if x is None:
        return ["None"]
    if isinstance(x, (bool, int, float, complex)):
        if isinstance(x, float) and x != x:
            return ["py", "float", "nan"]
        return ["py", type(x).__name__, repr(x)]
    if isinstance(x, (tuple, list)):
        return ["seq", [encode(v, depth + 1) for v in x]]
    if hasattr(x, "dtype") and hasattr(x, "shape"):
        a = np.asarray(x)
        raw = _bits(a)
        digest = raw.hex() if len(raw) <= 96 else hashlib.sha256(raw).hexdigest()[:32]
        weak = getattr(x, "weak_type", None)
        kind = "np" if isinstance(x, (np.ndarray, np.generic)) else "arr"
        return [
            kind,
            a.dtype.name,
            list(a.shape),
            None if weak is None else bool(weak),
            digest,
            _values(a),
        ]
    return ["obj", type(x).__name__]


def run(src: str, env: dict[str, Any]) -> Any:
    """Runs one program: ``[encoded out, sorted warning classes]`` or ``["error", class name,
    [base class names], sorted warning classes]``."""
    ns = dict(env)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(src, ns)
            res = ["ok", encode(ns["out"])]
        except Exception as e:
            res = ["error", type(e).__name__, [c.__name__ for c in type(e).__mro__]]
    kinds = sorted({w.category.__name__ for w in caught if _counts(w)})
    return [*res, kinds]


def _counts(w: warnings.WarningMessage) -> bool:
    # NumPy's own RuntimeWarnings from the host computation are not part of JAX's behaviour
    # (XLA never warns about overflow or division by zero), and DeprecationWarnings vary by host.
    return (
        w.category.__name__ not in ("DeprecationWarning", "PendingDeprecationWarning")
        and w.category is not RuntimeWarning
    )


def names(jax: Any) -> dict[str, Any]:
    import importlib

    return {
        "jax": jax,
        "jnp": importlib.import_module(f"{jax.__name__}.numpy"),
        "lax": importlib.import_module(f"{jax.__name__}.lax"),
        "np": np,
    }


# --------------------------------------------------------------------------------------------
# comparing

#: classes, worst first
CLASSES = (
    "value",
    "dtype",
    "weak",
    "shape",
    "structure",
    "crash",
    "accepts",
    "error_class",
    "warning",
)


def _diff(mine: Any, ref: Any, found: list[str]) -> None:
    if mine == ref:
        return
    if not isinstance(mine, list) or not isinstance(ref, list) or not mine or not ref:
        found.append("structure")
        return
    if ref[0] in ("np", "arr") and mine[0] in ("np", "arr"):
        if mine[1] != ref[1]:
            found.append("dtype")
        elif mine[2] != ref[2]:
            found.append("shape")
        elif mine[4] != ref[4]:
            found.append("value")
        elif ref[3] is not None and mine[3] != ref[3]:
            found.append("weak")
        return
    if mine[0] != ref[0]:
        found.append("structure")
        return
    if ref[0] == "py":
        found.append("dtype" if mine[1] != ref[1] else "value")
        return
    if ref[0] == "seq":
        if len(mine[1]) != len(ref[1]):
            found.append("structure")
            return
        for m, r in zip(mine[1], ref[1]):
            _diff(m, r, found)
        return
    found.append("structure")


def classify(mine: Any, ref: Any) -> str | None:
    """``None`` when ``mine`` agrees with JAX's ``ref``, else the worst class of difference."""
    if ref[0] == "error" or mine[0] == "error":
        return error_verdict(mine, ref)
    found: list[str] = []
    _diff(mine[1], ref[1], found)
    if mine[-1] != ref[-1]:
        found.append("warning")
    for c in CLASSES:
        if c in found:
            return c
    return None


# --------------------------------------------------------------------------------------------
# the programs

PROGRAMS: dict[str, str] = {}


def _add(name: str, src: str) -> None:
    assert name not in PROGRAMS, name
    PROGRAMS[name] = src


def _case(name: str, setup: str, fn: str, args: str, vmap: str | None = None) -> None:
    """Adds ``name/eager``, ``name/jit`` and (given ``vmap`` as the call's argument text with
    optional ``in_axes``) ``name/vmap`` for ``f = fn`` applied to ``args``."""
    head = f"{setup}\nf = {fn}\n"
    _add(f"{name}/eager", head + f"out = f({args})\n")
    _add(f"{name}/jit", head + f"out = jax.jit(f)({args})\n")
    if vmap is not None:
        _add(f"{name}/vmap", head + f"out = {vmap}\n")


INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
SMALL_INTS = ("int4", "uint4")


def _edges(dt: str) -> list[int]:
    """Edge values of an integer dtype: both ends, near zero, small odd numbers."""
    bits = int(dt.lstrip("uint") or 0)
    if dt.startswith("u"):
        hi = 2**bits - 1
        return sorted({0, 1, 2, 3, 7, hi // 2, hi // 2 + 1, hi - 1, hi})
    lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    return sorted({lo, lo + 1, -7, -3, -2, -1, 0, 1, 2, 3, 7, hi - 1, hi})


def _pairs(dt: str) -> tuple[str, str]:
    e = _edges(dt)
    xs = [a for a in e for _ in e]
    ys = [b for _ in e for b in e]
    return (
        f"x = jnp.asarray(np.array({xs}, dtype='{dt}'))",
        f"y = jnp.asarray(np.array({ys}, dtype='{dt}'))",
    )


BINARY = {
    "floordiv_op": "lambda a, b: a // b",
    "mod_op": "lambda a, b: a % b",
    "floor_divide": "jnp.floor_divide",
    "remainder": "jnp.remainder",
    "mod": "jnp.mod",
    "fmod": "jnp.fmod",
    "divmod": "jnp.divmod",
    "divmod_op": "lambda a, b: divmod(a, b)",
    "true_divide": "jnp.true_divide",
    "lax_div": "lax.div",
    "lax_rem": "lax.rem",
    "power": "jnp.power",
    "pow_op": "lambda a, b: a ** b",
    "left_shift": "jnp.left_shift",
    "right_shift": "jnp.right_shift",
    "shift_left": "lax.shift_left",
    "srl": "lax.shift_right_logical",
    "sra": "lax.shift_right_arithmetic",
    "lshift_op": "lambda a, b: a << b",
    "rshift_op": "lambda a, b: a >> b",
    "gcd": "jnp.gcd",
    "lcm": "jnp.lcm",
    "bitwise_xor": "jnp.bitwise_xor",
    "maximum": "jnp.maximum",
    "lax_max": "lax.max",
    "sub": "jnp.subtract",
    "mul": "jnp.multiply",
    "float_power": "jnp.float_power",
}

for _dt in ("int8", "int32", "int64", "uint8", "uint32", "uint64"):
    _sx, _sy = _pairs(_dt)
    for _op, _fn in BINARY.items():
        _case(f"ibin/{_op}/{_dt}", f"{_sx}\n{_sy}", _fn, "x, y", "jax.vmap(f)(x, y)")

# int4/uint4: every pair of values
for _dt in SMALL_INTS:
    _lo, _hi = (-8, 7) if _dt == "int4" else (0, 15)
    _r = list(range(_lo, _hi + 1))
    _xs = [a for a in _r for _ in _r]
    _ys = [b for _ in _r for b in _r]
    for _op in ("floordiv_op", "mod_op", "fmod", "mul", "sub", "left_shift", "srl", "sra", "power",
                "maximum", "bitwise_xor"):  # fmt: skip
        _case(
            f"ibin4/{_op}/{_dt}",
            f"x = jnp.array({_xs}, dtype=jnp.{_dt})\ny = jnp.array({_ys}, dtype=jnp.{_dt})",
            BINARY[_op],
            "x, y",
            "jax.vmap(f)(x, y)",
        )
    for _u in ("negative", "abs", "invert", "sign", "square", "bitwise_count"):
        _case(
            f"iun4/{_u}/{_dt}",
            f"x = jnp.array({_r}, dtype=jnp.{_dt})",
            f"jnp.{_u}",
            "x",
            "jax.vmap(f)(x)",
        )
    for _t in ("int8", "uint8", "float32", "bfloat16", "bool", "int4", "uint4"):
        _case(
            f"icast4/{_dt}/{_t}",
            f"x = jnp.array({_r}, dtype=jnp.{_dt})",
            f"lambda a: a.astype(jnp.{_t})",
            "x",
            "jax.vmap(f)(x)",
        )
    _case(f"isum4/{_dt}", f"x = jnp.array({_r}, dtype=jnp.{_dt})", "jnp.sum", "x")
    _case(f"icumsum4/{_dt}", f"x = jnp.array({_r}, dtype=jnp.{_dt})", "jnp.cumsum", "x")

# mixed dtypes and Python scalars on the right and the left
_SCALARS = (0, -1, 2, -3, 8, 33, 64, 255, -129)
for _dt in ("int8", "uint32"):
    _e = _edges(_dt)
    for _op in ("floordiv_op", "mod_op", "pow_op", "lshift_op", "rshift_op", "fmod"):
        for _s in _SCALARS:
            _case(
                f"iscal/{_op}/{_dt}/{_s}",
                f"x = jnp.asarray(np.array({_e}, dtype='{_dt}'))",
                f"lambda a: ({BINARY[_op]})(a, {_s})",
                "x",
                "jax.vmap(f)(x)",
            )
        for _s in (0, -1, 2, -3):
            _case(
                f"iscal_l/{_op}/{_dt}/{_s}",
                f"x = jnp.asarray(np.array({_e}, dtype='{_dt}'))",
                f"lambda a: ({BINARY[_op]})({_s}, a)",
                "x",
                "jax.vmap(f)(x)",
            )

for _a, _b in (("int8", "uint8"), ("int32", "uint32"), ("uint8", "int16"), ("int64", "uint64"),
               ("int8", "bool"), ("uint32", "int64"), ("int16", "float16")):  # fmt: skip
    _case(
        f"imix/{_a}_{_b}",
        f"x = jnp.asarray(np.array([-128, -1, 0, 5, 127], dtype='{_a}') if '{_a}'[0] != 'u' "
        f"else np.array([0, 1, 5, 200, 255], dtype='{_a}'))\n"
        f"y = jnp.asarray(np.array([1, 0, 3, 2, 1], dtype='{_b}'))",
        "lambda a, b: (a // b, a % b, a ** b, a << b, a >> b, a * b)",
        "x, y",
        "jax.vmap(f)(x, y)",
    )

# unary integer operations
UNARY = {
    "abs": "jnp.abs",
    "absolute_op": "abs",
    "negative": "jnp.negative",
    "neg_op": "lambda a: -a",
    "sign": "jnp.sign",
    "invert": "jnp.invert",
    "invert_op": "lambda a: ~a",
    "bitwise_not": "jnp.bitwise_not",
    "bitwise_count": "jnp.bitwise_count",
    "popcnt": "lax.population_count",
    "clz": "lax.clz",
    "square": "jnp.square",
    "reciprocal": "jnp.reciprocal",
    "sqrt": "jnp.sqrt",
    "floor": "jnp.floor",
    "ceil": "jnp.ceil",
    "round": "jnp.round",
    "trunc": "jnp.trunc",
    "fix": "jnp.fix",
    "signbit": "jnp.signbit",
    "isnan": "jnp.isnan",
    "positive": "jnp.positive",
    "logical_not": "jnp.logical_not",
    "exp2": "jnp.exp2",
    "cbrt": "jnp.cbrt",
    "rint": "jnp.rint",
    "frexp": "jnp.frexp",
    "lax_abs": "lax.abs",
    "lax_neg": "lax.neg",
    "lax_sign": "lax.sign",
    "lax_not": "lax.bitwise_not",
    "log2": "jnp.log2",
}
for _dt in ("int8", "int32", "int64", "uint8", "uint32", "uint64", "bool"):
    _e = [False, True] if _dt == "bool" else _edges(_dt)
    for _u, _fn in UNARY.items():
        _case(
            f"iun/{_u}/{_dt}",
            f"x = jnp.asarray(np.array({_e}, dtype='{_dt}'))",
            _fn,
            "x",
            "jax.vmap(f)(x)",
        )
    if _dt != "bool":
        for _n in (-2, -1, 0, 2, 3, 8, 31, 64):
            _case(
                f"ipow/integer_pow/{_dt}/{_n}",
                f"x = jnp.asarray(np.array({_e}, dtype='{_dt}'))",
                f"lambda a: lax.integer_pow(a, {_n})",
                "x",
                "jax.vmap(f)(x)",
            )
            _case(
                f"ipow/power_scalar/{_dt}/{_n}",
                f"x = jnp.asarray(np.array({_e}, dtype='{_dt}'))",
                f"lambda a: jnp.power(a, {_n})",
                "x",
                "jax.vmap(f)(x)",
            )

# powers with large and negative exponent arrays
for _dt in ("int8", "int32", "int64", "uint8", "uint32"):
    _bases = [-3, -2, -1, 0, 1, 2, 3] if _dt[0] != "u" else [0, 1, 2, 3, 5]
    _exps = [0, 1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, 127] + (
        [-1, -2, -100] if _dt[0] != "u" else []
    )
    _exps = [v for v in _exps if v < 2 ** (int(_dt.lstrip("uint")) - (_dt[0] != "u"))]
    _xs = [b for b in _bases for _ in _exps]
    _ys = [e for _ in _bases for e in _exps]
    _case(
        f"ipow_big/{_dt}",
        f"x = jnp.asarray(np.array({_xs}, dtype='{_dt}'))\n"
        f"y = jnp.asarray(np.array({_ys}, dtype='{_dt}'))",
        "jnp.power",
        "x, y",
        "jax.vmap(f)(x, y)",
    )

# --------------------------------------------------------------------------------------------
# casts

FLOAT_SRC = (
    "float nan, -nan, inf, -inf, -0.0, 0.0, 0.5, -0.5, 1.5, 2.5, -2.5, -1.0, 127.5, 128.0, "
    "-128.5, -129.0, 255.5, 256.0, 32767.0, 32768.0, -32769.0, 65535.0, 65536.0, 2147483520.0, "
    "2147483648.0, -2147483904.0, 4294967296.0, 9.2e18, 9.3e18, -9.3e18, 1.8e19, 1e20, -1e20, "
    "1e-40, 3e38, -3e38, 1e300"
)
_FV = "[" + FLOAT_SRC.split(" ", 1)[1].replace("nan", "np.nan").replace("inf", "np.inf") + "]"
FLOATS = ("float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2")
TARGETS = (*INTS, "bool", "int4", "uint4", "float16", "bfloat16", "float32", "float64",
           "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "complex64")  # fmt: skip

for _src in FLOATS:
    _setup = (
        "import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n"
        f"    x = jnp.asarray(np.array({_FV}, dtype=np.float64).astype(jnp.{_src}))"
    )
    for _t in TARGETS:
        _case(
            f"cast/astype/{_src}/{_t}",
            _setup,
            f"lambda a: a.astype(jnp.{_t})",
            "x",
            "jax.vmap(f)(x)",
        )
        _case(
            f"cast/convert/{_src}/{_t}",
            _setup,
            f"lambda a: lax.convert_element_type(a, jnp.{_t})",
            "x",
        )
    for _t in ("int8", "uint8", "int32", "uint32", "int64", "bool", "float16"):
        _add(f"cast/array/{_src}/{_t}", f"{_setup}\nout = jnp.array(x, dtype=jnp.{_t})\n")
        _add(f"cast/asarray/{_src}/{_t}", f"{_setup}\nout = jnp.asarray(x, dtype='{_t}')\n")

# host NumPy arrays straight into jnp.array(..., dtype=) and astype of host values
for _t in ("int8", "uint8", "int32", "uint32", "int64", "uint64", "bool", "float16"):
    _add(
        f"cast/np_array/{_t}",
        f"import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n"
        f"    h = np.array({_FV}, dtype=np.float32)\nout = jnp.array(h, dtype=jnp.{_t})\n",
    )

# integer sources into floats: rounding near each format's spacing and overflow
INT_TO_FLOAT = {
    "int32": [0, 1, -1, 17, 19, 33, 35, 240, 241, 247, 248, 257, 259, 449, 464, 480, 2049, 2051,
              4097, 65504, 65519, 65520, 65536, 57344, 61439, 61440, 16777217, 16777219,
              2147483647, -2147483648, -2147483647],
    "int64": [2**53 + 1, 2**53 + 3, 2**62 + 2**38 + 1, 2**63 - 1, -(2**63), 16777217, 3 * 2**24 + 1],
    "uint32": [4294967295, 4294967167, 2147483649, 16777217],
    "uint64": [2**64 - 1, 2**63, 2**63 + 2**39 + 1, 2**53 + 1],
    "int8": [-128, 127, 17, 19, -17, 33],
    "uint8": [255, 17, 19, 241, 247],
    "int16": [-32768, 32767, 2049, 2051, 4097, 257],
}  # fmt: skip
for _src, _vals in INT_TO_FLOAT.items():
    for _t in ("float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2",
               "float8_e4m3fnuz", "float8_e5m2fnuz", "complex64", "int4", "int8", "uint8",
               "int16", "uint32", "bool"):  # fmt: skip
        _case(
            f"icast/{_src}/{_t}",
            f"x = jnp.asarray(np.array({_vals}, dtype='{_src}'))",
            f"lambda a: a.astype(jnp.{_t})",
            "x",
            "jax.vmap(f)(x)",
        )

# float64 into float32 and the narrow floats: overflow, subnormals, ties
_F64 = [3.5e38, -3.5e38, 3.4028235677973366e38, 3.4028235e38, 1e-46, 7e-46, 1.4e-45, 65504.0,
        65519.99, 65520.0, 1e-8, 6e-8, 3e-8, 448.0, 464.0, 465.0, 57344.0, 61440.0, 3.3895313e38,
        1.0000000596046448, 1.0000001788139343, 0.0, -0.0]  # fmt: skip
for _t in ("float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz"):
    _case(
        f"fcast/f64/{_t}",
        f"x = jnp.asarray(np.array({_F64}, dtype=np.float64))",
        f"lambda a: a.astype(jnp.{_t})",
        "x",
        "jax.vmap(f)(x)",
    )
    _case(
        f"fcast/f32/{_t}",
        f"x = jnp.asarray(np.array({_F64}, dtype=np.float64).astype(np.float32))",
        f"lambda a: a.astype(jnp.{_t})",
        "x",
        "jax.vmap(f)(x)",
    )

# complex into real, integer and bool
_CPLX = "np.array([1+2j, -1.5-0.5j, complex(np.nan, 1), complex(0, np.nan), -0.0-1j, complex(np.inf, 0), 0j, 3e9+0j], dtype=np.complex64)"
for _t in ("float32", "float16", "int32", "uint8", "int8", "bool", "complex128", "bfloat16"):
    _case(
        f"ccast/astype/{_t}",
        f"x = jnp.asarray({_CPLX})",
        f"lambda a: a.astype(jnp.{_t})",
        "x",
        "jax.vmap(f)(x)",
    )
    _case(
        f"ccast/convert/{_t}",
        f"x = jnp.asarray({_CPLX})",
        f"lambda a: lax.convert_element_type(a, jnp.{_t})",
        "x",
    )
    _add(f"ccast/array/{_t}", f"x = jnp.asarray({_CPLX})\nout = jnp.array(x, dtype=jnp.{_t})\n")
# complex to bool on the other paths: NumPy and list inputs test both parts (NumPy's cast), as do
# full/full_like fills and select conditions; any/all (JAX: the real part; trellax: both, KNOWN)
for _name, _expr in (
    ("array_np", f"jnp.array({_CPLX}, dtype=bool)"),
    ("asarray_np", f"jnp.asarray({_CPLX}, dtype=bool)"),
    ("array_list", "jnp.array([1j, 0j, complex(np.nan, 0)], dtype=bool)"),
    ("array_scalar", "jnp.array(1j, dtype=bool)"),
    ("full", "jnp.full((2,), 1j, dtype=bool)"),
    ("full_like", "jnp.full_like(jnp.zeros(2, bool), 1j)"),
    ("select", f"jnp.select([jnp.asarray({_CPLX})], [jnp.ones(8)])"),
    ("where", f"jnp.where(jnp.asarray({_CPLX}), 1, 0)"),
    ("any", "jnp.any(jnp.asarray([1j, 0j]))"),
    ("all", "jnp.all(jnp.asarray([1j, 1 + 0j]))"),
    ("full_py_float", "jnp.full((2,), 1j, dtype='float32')"),
    ("full_py_int", "jnp.full((2,), 1 + 1j, dtype='int32')"),
    ("full_py_zero", "jnp.full((2,), 0j, dtype=bool)"),
    ("full_arr_bool", "jnp.full((2,), jnp.asarray(1j), dtype=bool)"),
    ("full_arr_float", "jnp.full((2,), jnp.asarray(1j), dtype='float32')"),
    ("full_like_py_float", "jnp.full_like(jnp.zeros(2), 1j)"),
    ("full_like_py_int", "jnp.full_like(jnp.zeros(2, 'int32'), 2 + 1j)"),
    ("full_like_arr", "jnp.full_like(jnp.zeros(2), jnp.asarray(1j))"),
):
    _add(f"ccast/bool_paths/{_name}", f"out = {_expr}\n")
for _fn in ("jnp.real", "jnp.imag", "jnp.abs", "jnp.sign", "lambda a: a.real.astype(jnp.int8)"):
    _case(f"ccast/fn/{_fn}", f"x = jnp.asarray({_CPLX})", _fn, "x", "jax.vmap(f)(x)")

# Python ints that do not fit
PYINT = (300, -1, -129, 256, 65536, 2**31, -(2**31) - 1, 2**32, 2**63, 2**64, -(2**63) - 1)
for _v in PYINT:
    for _t in ("int8", "uint8", "int32", "uint32", "int64", "uint64", "float16", "bool", "int4"):
        _add(f"pyint/array/{_v}/{_t}", f"out = jnp.array({_v}, dtype=jnp.{_t})\n")
        _add(f"pyint/scalar_type/{_v}/{_t}", f"out = jnp.{_t}({_v})\n")
        _add(
            f"pyint/convert/{_v}/{_t}",
            f"out = lax.convert_element_type({_v}, jnp.{_t})\n",
        )
        _add(f"pyint/full/{_v}/{_t}", f"out = jnp.full((2,), {_v}, jnp.{_t})\n")
        _add(f"pyint/add/{_v}/{_t}", f"out = jnp.zeros(2, jnp.{_t}) + {_v}\n")
        _add(
            f"pyint/mul_jit/{_v}/{_t}",
            f"out = jax.jit(lambda a: a * {_v})(jnp.ones(2, jnp.{_t}))\n",
        )
    _add(f"pyint/default/{_v}", f"out = jnp.array({_v})\n")
    _add(f"pyint/default_list/{_v}", f"out = jnp.array([{_v}, 0])\n")
    _add(f"pyint/jit_arg/{_v}", f"out = jax.jit(lambda a: a + 1)({_v})\n")
    _add(f"pyint/int32_add/{_v}", f"out = jnp.int32(5) + {_v}\n")
    _add(f"pyint/uint8_arr_add/{_v}", f"out = jnp.array([1, 2], jnp.uint8) + {_v}\n")
    _add(f"pyint/float_add/{_v}", f"out = jnp.array([1.0], jnp.float16) + {_v}\n")

# bool conversions
_add("bool/float_to_bool", f"out = jnp.asarray({_FV[:60]}]).astype(bool)\n")
for _t in ("int8", "uint4", "float16", "bfloat16", "float8_e4m3fn", "complex64", "int4"):
    _case(
        f"bool/from_bool/{_t}",
        "x = jnp.array([True, False, True])",
        f"lambda a: a.astype(jnp.{_t})",
        "x",
        "jax.vmap(f)(x)",
    )
    _add(f"bool/arith/{_t}", f"out = jnp.array([True, False]) + jnp.array([1, 2], jnp.{_t})\n")
for _expr in ("x + x", "x - x", "x * x", "-x", "~x", "x // x", "x % x", "x ** x", "x / x",
              "jnp.negative(x)", "jnp.abs(x)", "jnp.sign(x)", "x << x", "x >> x", "x + 1",
              "x + 1.5", "x * True", "jnp.sum(x)", "jnp.cumsum(x)", "jnp.prod(x)", "jnp.mean(x)",
              "jnp.max(x)", "jnp.argmax(x)", "jnp.square(x)", "jnp.bitwise_count(x)",
              "jnp.maximum(x, x)", "jnp.subtract(x, x)", "bool(x[0])", "int(x[0])",
              "float(x[1])", "jnp.invert(x)", "lax.add(x, x)", "lax.mul(x, x)", "lax.max(x, x)"):  # fmt: skip
    _case(
        f"bool/op/{_expr}",
        "x = jnp.array([True, False, True])",
        f"lambda x: {_expr}",
        "x",
    )

# --------------------------------------------------------------------------------------------
# indexing

_X = "x = jnp.arange(10, dtype=jnp.int32) * 10 + 1"
_X3 = "x = jnp.arange(2 * 3 * 4).reshape(2, 3, 4)"
for _i in (-11, -10, -1, 0, 9, 10, 100):
    _add(f"idx/static/{_i}", f"{_X}\nout = x[{_i}]\n")
    _add(f"idx/static_jit/{_i}", f"{_X}\nout = jax.jit(lambda a: a[{_i}])(x)\n")
    _add(f"idx/static2d/{_i}", f"{_X3}\nout = x[1, {_i}]\n")
    for _dt in INTS:
        if _dt[0] == "u" and _i < 0:
            continue
        if _dt in ("int8", "uint8") and abs(_i) > 100:
            continue
        _case(
            f"idx/arr/{_dt}/{_i}",
            f"{_X}\ni = jnp.asarray(np.array({_i}, dtype='{_dt}'))",
            "lambda a, j: a[j]",
            "x, i",
        )
        _add(f"idx/np_scalar/{_dt}/{_i}", f"{_X}\nout = x[np.{_dt}({_i})]\n")
        _add(
            f"idx/arr_list/{_dt}/{_i}",
            f"{_X}\nout = x[jnp.asarray(np.array([{_i}, 1], dtype='{_dt}'))]\n",
        )
    _add(f"idx/vmap/{_i}", f"{_X}\nout = jax.vmap(lambda j: x[j])(jnp.array([{_i}, 0, -1]))\n")
    for _m in ("clip", "fill", "drop", "promise_in_bounds", None):
        _mode = "None" if _m is None else repr(_m)
        for _how, _call in (
            ("get", "get(mode={m})"),
            ("get_fill", "get(mode={m}, fill_value=-7)"),
            ("set", "set(99, mode={m})"),
            ("add", "add(5, mode={m})"),
            ("min", "min(-4, mode={m})"),
            ("div", "divide(2, mode={m})"),
        ):
            _c = _call.format(m=_mode)
            _case(
                f"at/{_how}/{_m}/{_i}",
                _X,
                f"lambda a: a.at[{_i}].{_c}",
                "x",
            )
            _case(
                f"at_arr/{_how}/{_m}/{_i}",
                f"{_X}\ni = jnp.array([{_i}, 3, {_i}, -1])",
                f"lambda a, j: a.at[j].{_c}",
                "x, i",
            )
    for _m in (None, "clip", "wrap", "fill", "raise"):
        _mode = "None" if _m is None else repr(_m)
        _case(
            f"take/{_m}/{_i}",
            f"{_X}\ni = jnp.array([{_i}, 2, -3])",
            f"lambda a, j: jnp.take(a, j, mode={_mode})",
            "x, i",
        )
        _case(
            f"take_fill/{_m}/{_i}",
            f"{_X}\ni = jnp.array([{_i}, 2, -3])",
            f"lambda a, j: jnp.take(a, j, mode={_mode}, fill_value=-5)",
            "x, i",
        )
        _case(
            f"take_along/{_m}/{_i}",
            f"{_X3}\ni = jnp.full((2, 3, 1), {_i})",
            f"lambda a, j: jnp.take_along_axis(a, j, axis=-1, mode={_mode})",
            "x, i",
        )
        _add(
            f"put/{_m}/{_i}",
            f"{_X}\nout = jnp.put(x, jnp.array([{_i}, 2]), jnp.array([-1, -2]), mode={_mode}, "
            "inplace=False)\n",
        )
    for _n in (3, 10):
        _case(f"dyn/slice/{_n}/{_i}", _X, f"lambda a: lax.dynamic_slice(a, ({_i},), ({_n},))", "x")
        _case(
            f"dyn/slice_traced/{_n}/{_i}",
            _X,
            f"lambda a, s: lax.dynamic_slice(a, (s,), ({_n},))",
            f"x, jnp.int32({_i})",
        )
        _case(
            f"dyn/update/{_n}/{_i}",
            _X,
            f"lambda a, s: lax.dynamic_update_slice(a, jnp.full(({_n},), -9, a.dtype), (s,))",
            f"x, jnp.int32({_i})",
        )
        _case(
            f"dyn/slice_in_dim/{_n}/{_i}",
            _X3,
            f"lambda a: lax.dynamic_slice_in_dim(a, {_i}, min({_n}, 4), axis=2)",
            "x",
        )
    _case(
        f"dyn/index_in_dim/{_i}", _X3, f"lambda a: lax.dynamic_index_in_dim(a, {_i}, axis=1)", "x"
    )
    _case(
        f"dyn/index_in_dim_nokeep/{_i}",
        _X3,
        f"lambda a: lax.dynamic_index_in_dim(a, {_i}, axis=2, keepdims=False)",
        "x",
    )
    _case(
        f"dyn/update_index/{_i}",
        _X3,
        f"lambda a: lax.dynamic_update_index_in_dim(a, jnp.zeros((2, 1, 4), a.dtype), {_i}, 1)",
        "x",
    )
    _case(f"idx/static_index/{_i}", _X3, f"lambda a: lax.index_in_dim(a, {_i}, axis=2)", "x")

# duplicates, negative and out-of-range arrays of indices with every .at update
for _m in (None, "clip", "fill", "drop", "promise_in_bounds"):
    _mode = "None" if _m is None else repr(_m)
    for _upd in ("set", "add", "multiply", "min", "max", "apply"):
        _arg = "lambda v: v * 2" if _upd == "apply" else "jnp.array([5, 6, 7, 8, 9])"
        _case(
            f"at_dup/{_upd}/{_m}",
            f"{_X}\ni = jnp.array([1, 1, -1, 10, -11])",
            f"lambda a, j: a.at[j].{_upd}({_arg}, mode={_mode})",
            "x, i",
        )
        _case(
            f"at_dup_u8/{_upd}/{_m}",
            f"{_X}\ni = jnp.array([1, 1, 9, 10, 200], jnp.uint8)",
            f"lambda a, j: a.at[j].{_upd}({_arg}, mode={_mode})",
            "x, i",
        )
    _case(
        f"at_2d/{_m}",
        f"{_X3}\ni = jnp.array([0, 5, -4])",
        f"lambda a, j: a.at[1, j, -1].add(100, mode={_mode})",
        "x, i",
    )
    _case(
        f"at_get_2d/{_m}",
        f"{_X3}\ni = jnp.array([0, 5, -4])",
        f"lambda a, j: a.at[:, j].get(mode={_mode}, fill_value=-1)",
        "x, i",
    )
    _case(
        f"at_slice/{_m}",
        _X,
        f"lambda a: a.at[2:20:3].set(-1, mode={_mode})",
        "x",
    )
    _case(
        f"at_float/{_m}",
        "x = jnp.linspace(0.0, 1.0, 6)\ni = jnp.array([0, 7, -7, 2])",
        f"lambda a, j: (a.at[j].get(mode={_mode}), a.at[j].get(mode={_mode}, fill_value=2.5))",
        "x, i",
    )
    _case(
        f"at_u8/{_m}",
        "x = jnp.arange(5, dtype=jnp.uint8)\ni = jnp.array([0, 7, -7, 2])",
        f"lambda a, j: (a.at[j].get(mode={_mode}), a.at[j].add(250, mode={_mode}))",
        "x, i",
    )
    _case(
        f"at_bool/{_m}",
        "x = jnp.array([True, False, True])\ni = jnp.array([0, 7, -7])",
        f"lambda a, j: (a.at[j].get(mode={_mode}), a.at[j].set(False, mode={_mode}))",
        "x, i",
    )

# boolean masks
for _expr in ("a[a > 30]", "a[a > 300]", "a.at[a > 30].set(0)", "a.at[a > 30].add(a)",
              "a[jnp.array(True)]", "a[jnp.array(False)]", "a[True]", "a[False]",
              "a[np.array([True] * 10)]", "jnp.where(a > 30, a, 0)", "a[a > 30].sum()",
              "a[..., a > 30]", "a[[True, False] * 5]", "a[np.array([True, False])]",
              "a.at[np.array([True] * 10)].get()", "jnp.extract(a > 30, a)",
              "jnp.compress(a > 30, a)", "jnp.nonzero(a > 30)", "jnp.argwhere(a > 30)",
              "jnp.nonzero(a > 30, size=3, fill_value=-1)", "jnp.where(a > 30, size=8)",
              "jnp.flatnonzero(a > 30)"):  # fmt: skip
    _case(f"mask/{_expr}", _X, f"lambda a: {_expr}", "x")

# basic indexing forms
_FORMS = ("a[::-2]", "a[8:2:-3]", "a[-100:100]", "a[::0]", "a[5:2]", "a[None]", "a[..., None]",
          "a[None, ..., None]", "a[..., ...]", "a[1, ..., 2]", "a[..., 1, None, 0]",
          "a[0, :, None, 1]", "a[jnp.array([0, 1]), :, jnp.array([1, 2])]",
          "a[:, jnp.array([0, 2]), jnp.array([1, 3])]", "a[jnp.array([1]), None, jnp.array([2])]",
          "a[jnp.array([[0], [1]]), jnp.array([0, 2])]", "a[1, jnp.array([0, 2]), ::2]",
          "a[:, 1, jnp.array([0, 3])]", "a[jnp.array([0, 1]), 1, jnp.array([1, 2])]",
          "a[..., jnp.array([0, -1])]", "a[jnp.array([-1, 0]), ...]", "a[[0, 1]]",
          "a[[0, 1], [1, 2]]", "a[(0, 1)]", "a[1.0]", "a[jnp.array(1.0)]", "a[:, :, :, 0]",
          "a[0, 0, 0, 0]", "a[5, 0]", "a[-3]", "a[jnp.array([], dtype=jnp.int32)]",
          "a[jnp.array([True, False])]", "a[jnp.array([True, False]), 1]",
          "a[jnp.array([0, 1]), jnp.array([True, False, True])]", "a[1:, ::-1, jnp.array([3])]",
          "a[jnp.int8(-1), jnp.uint8(2)]", "a[np.int64(1), np.uint64(2)]",
          "a[jnp.array([1, 0], jnp.uint8)]", "a[jnp.array([200], jnp.uint8)]",
          "a[jnp.array([-1, -2], jnp.int8), jnp.array([3], jnp.uint16)]", "a[slice(None), 1]",
          "a[None, None, 0, None]", "a[1][2][3]", "a[jnp.array(1)][jnp.array(-1)]",
          "a[:, None, jnp.array([0, 1])]", "a[jnp.array([0, 1])[:, None], jnp.array([0, 1, 2])]",
          "a.T[jnp.array([0, 3])]", "a.reshape(-1)[jnp.array([23, 24, -24, -25])]",
          "a[jnp.array([[1, 0]]), jnp.array([[2], [1]]), jnp.array([3])]",
          "a[1:2, jnp.array([0, 2]), jnp.array([[1], [3]])]")  # fmt: skip
for _e in _FORMS:
    _case(f"form/{_e}", _X3, f"lambda a: {_e}", "x")

# --------------------------------------------------------------------------------------------
# reductions on integers and booleans

_RED = ("jnp.sum", "jnp.prod", "jnp.cumsum", "jnp.cumprod", "jnp.mean", "jnp.max", "jnp.min",
        "jnp.argmax", "jnp.argmin", "jnp.ptp", "jnp.var", "jnp.std", "jnp.median", "jnp.average",
        "jnp.nansum", "jnp.nanprod", "jnp.nanmax", "jnp.nancumsum", "jnp.count_nonzero",
        "jnp.any", "jnp.all", "jnp.diff", "jnp.cumulative_sum", "jnp.cumulative_prod",
        "jnp.nanmean", "jnp.sort", "jnp.argsort", "jnp.unique", "lambda a: jnp.sum(a, dtype=jnp.int8)",
        "lambda a: jnp.sum(a, dtype=jnp.float16)", "lambda a: jnp.cumsum(a, dtype=jnp.uint8)",
        "lambda a: jnp.mean(a, dtype=jnp.int32)", "lambda a: jnp.prod(a, promote_integers=False)",
        "lambda a: jnp.sum(a, promote_integers=False)", "lambda a: jnp.max(a, initial=100)",
        "lambda a: jnp.min(a, where=a > 3, initial=50)", "lambda a: jnp.argmax(a, keepdims=True)",
        "lambda a: jnp.bincount(a.astype(jnp.int32) % 7, length=7)",
        "lambda a: jnp.sum(a, axis=0, keepdims=True)", "lambda a: jnp.cumsum(a[::-1])",
        "lambda a: lax.reduce_max(a, (0,))", "lambda a: lax.cummax(a)",
        "lambda a: jnp.sum(a, where=a > 1)", "lambda a: jnp.mean(a, where=a > 1)",
        "lambda a: jnp.clip(a, 2, 300)", "lambda a: jnp.clip(a, -1, 5)",
        "lambda a: jnp.cumsum(a) - a", "lambda a: jnp.trace(jnp.diag(a))")  # fmt: skip
_RVALS = {
    "int8": [100, 100, 27, -128, 127, 5, 5, -3],
    "uint8": [200, 200, 1, 0, 255, 17, 255, 3],
    "int32": [2**31 - 1, 1, 2**30, -(2**31), 5, 5, 3, 9],
    "int64": [2**62, 2**62, 1, -5, 9, 9, 0, 3],
    "bool": [True, False, True, True, False, False, True, True],
}
for _dt, _vals in _RVALS.items():
    for _r in _RED:
        _case(
            f"red/{_r}/{_dt}",
            f"x = jnp.asarray(np.array({_vals}, dtype='{_dt}'))",
            _r,
            "x",
            "jax.vmap(f)(jnp.stack([x, x[::-1]]))",
        )
    for _r in ("jnp.max", "jnp.min", "jnp.argmax", "jnp.prod", "jnp.sum", "jnp.mean", "jnp.ptp",
               "jnp.cumsum", "jnp.median", "lambda a: jnp.max(a, initial=3)"):  # fmt: skip
        _case(f"red_empty/{_r}/{_dt}", f"x = jnp.zeros((0,), '{_dt}')", _r, "x")
        _case(
            f"red_empty_axis/{_r}/{_dt}",
            f"x = jnp.zeros((2, 0), '{_dt}')",
            f"lambda a: ({_r})(a, axis=1)" if _r.startswith("jnp") else _r,
            "x",
        )
