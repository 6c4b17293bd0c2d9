"""The parts of the ``jax._src.test_util`` stand-in that JAX's ``lax_numpy_*`` test files use.

Re-exported by ``jtu.py``: the random-value makers with special values (``rand_some_nan``,
``rand_some_inf``, ``rand_some_equal``, ``rand_some_zero``, ``rand_fullrange``, ...), the
promotion helpers the files wrap NumPy references with (``promote_like_jnp``,
``strict_promotion_if_dtypes_match``), tolerance joins and small queries (``numpy_version``,
``is_valid_shape``). Written for the harness from what the files call: the makers draw from the
test's ``RandomState`` in the same order as JAX's, so a test sees the values it sees on JAX.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax
import trellax.numpy as jnp
from trellax import dtypes as _dtypes
from trellax import tree_util
from trellax._src.numpy import util as _numpy_util


class ScalarShape:
    """The "shape" of a scalar argument: empty, but told apart from ``()``."""

    def __len__(self) -> int:
        return 0

    def __getitem__(self, i: int) -> Any:
        raise IndexError(f"index {i} out of range.")


class _NumpyScalar(ScalarShape):
    pass


class _PythonScalar(ScalarShape):
    pass


NUMPY_SCALAR_SHAPE = _NumpyScalar()
PYTHON_SCALAR_SHAPE = _PythonScalar()


def is_valid_shape(shape: Any, dtype: Any) -> bool:
    """A Python scalar exists only for the dtypes of Python's own scalar types (64-bit)."""
    if shape == PYTHON_SCALAR_SHAPE:
        return bool(np.dtype(dtype) == np.dtype(type(np.array(0, dtype=dtype).item())))
    return True


def _dims_of_shape(shape: Any) -> tuple[int, ...]:
    if type(shape) in (list, tuple):
        return tuple(shape)
    if isinstance(shape, ScalarShape):
        return ()
    if np.ndim(shape) == 0:
        return (int(shape),)
    raise TypeError(type(shape))


def _cast_to_shape(value: Any, shape: Any, dtype: Any) -> Any:
    if shape is NUMPY_SCALAR_SHAPE:
        return np.dtype(dtype).type(value)
    if shape is PYTHON_SCALAR_SHAPE:
        return np.asarray(value).item()
    return value


def _rand_dtype(rand: Callable[..., Any], shape: Any, dtype: Any, scale: float = 1.0,
                post: Callable[[Any], Any] = lambda x: x) -> Any:  # fmt: skip
    dtype = np.dtype(dtype)
    dims = _dims_of_shape(shape)
    if dtype.kind == "u":
        draw = lambda: np.asarray(scale * abs(rand(*dims))).astype(dtype)  # noqa: E731
    else:
        draw = lambda: np.asarray(scale * rand(*dims)).astype(dtype)  # noqa: E731
    vals = draw() + 1.0j * draw() if dtype.kind == "c" else draw()
    return _cast_to_shape(np.asarray(post(vals), dtype), shape, dtype)


def rand_default(rng: np.random.RandomState, scale: float = 3) -> Any:
    return functools.partial(_rand_dtype, rng.randn, scale=scale)


def rand_nonzero(rng: np.random.RandomState) -> Any:
    post = lambda x: np.where(x == 0, np.array(1, dtype=x.dtype), x)  # noqa: E731
    return functools.partial(_rand_dtype, rng.randn, scale=3, post=post)


def rand_positive(rng: np.random.RandomState) -> Any:
    return functools.partial(_rand_dtype, rng.rand, scale=2, post=lambda x: x + 1)


def rand_small(rng: np.random.RandomState) -> Any:
    return functools.partial(_rand_dtype, rng.randn, scale=1e-3)


def rand_not_small(rng: np.random.RandomState, offset: float = 10.0) -> Any:
    post = lambda x: x + np.where(x > 0, offset, -offset)  # noqa: E731
    return functools.partial(_rand_dtype, rng.randn, scale=3.0, post=post)


def rand_small_positive(rng: np.random.RandomState) -> Any:
    return functools.partial(_rand_dtype, rng.rand, scale=2e-5)


def rand_uniform(rng: np.random.RandomState, low: float = 0.0, high: float = 1.0) -> Any:
    assert low < high
    post = lambda x: x * (high - low) + low  # noqa: E731
    return functools.partial(_rand_dtype, rng.rand, post=post)


def rand_some_equal(rng: np.random.RandomState) -> Any:
    """Values of which about half equal the first one."""

    def post(x: np.ndarray) -> np.ndarray:
        flat = x.ravel()
        if len(flat) == 0:
            return x
        flips = rng.rand(*np.shape(x)) < 0.5
        return np.where(flips, flat[0], x)

    return functools.partial(_rand_dtype, rng.randn, scale=100.0, post=post)


def _is_complex(dtype: Any) -> bool:
    return bool(np.dtype(dtype).kind == "c")


def _is_float(dtype: Any) -> bool:
    return bool(_dtypes.issubdtype(dtype, np.floating))


def _complex_from_parts(rand: Callable[[Any, Any], Any], shape: Any, dtype: Any) -> Any:
    part = np.real(np.array(0, dtype=dtype)).dtype
    out = rand(shape, part) + np.array(1j, dtype) * rand(shape, part)
    return _cast_to_shape(out, shape, dtype)


def rand_some_inf(rng: np.random.RandomState) -> Any:
    """About 10 % +inf and 10 % -inf among floating values."""
    base = rand_default(rng)

    def rand(shape: Any, dtype: Any) -> Any:
        if not _is_float(dtype):
            return base(shape, dtype)
        dims = _dims_of_shape(shape)
        pos, neg = rng.rand(*dims) < 0.1, rng.rand(*dims) < 0.1
        vals = base(shape, dtype)
        vals = np.where(pos, np.array(np.inf, dtype=dtype), vals)
        vals = np.where(neg, np.array(-np.inf, dtype=dtype), vals)
        return _cast_to_shape(np.asarray(vals, dtype=dtype), shape, dtype)

    return rand


def rand_some_nan(rng: np.random.RandomState) -> Any:
    """About 10 % NaNs (half of them negative) among floating and complex values."""
    base = rand_default(rng)

    def rand(shape: Any, dtype: Any) -> Any:
        if _is_complex(dtype):
            return _complex_from_parts(rand, shape, dtype)
        if not _is_float(dtype):
            return base(shape, dtype)
        r = rng.rand(*_dims_of_shape(shape))
        vals = base(shape, dtype)
        vals = np.where(r < 0.1, np.array(np.nan, dtype=dtype), vals)
        vals = np.where(r < 0.05, np.array(-np.nan, dtype=dtype), vals)
        return _cast_to_shape(np.asarray(vals, dtype=dtype), shape, dtype)

    return rand


def rand_some_inf_and_nan(rng: np.random.RandomState) -> Any:
    """About 10 % each of +inf, -inf and NaN among floating values."""
    base = rand_default(rng)

    def rand(shape: Any, dtype: Any) -> Any:
        if not _is_float(dtype):
            return base(shape, dtype)
        dims = _dims_of_shape(shape)
        pos, neg, nan = (rng.rand(*dims) < 0.1 for _ in range(3))
        vals = base(shape, dtype)
        vals = np.where(pos, np.array(np.inf, dtype=dtype), vals)
        vals = np.where(neg, np.array(-np.inf, dtype=dtype), vals)
        vals = np.where(nan, np.array(np.nan, dtype=dtype), vals)
        return _cast_to_shape(np.asarray(vals, dtype=dtype), shape, dtype)

    return rand


def rand_some_zero(rng: np.random.RandomState) -> Any:
    """About half zeros."""
    base = rand_default(rng)

    def rand(shape: Any, dtype: Any) -> Any:
        zeros = rng.rand(*_dims_of_shape(shape)) < 0.5
        vals = np.where(zeros, np.array(0, dtype=dtype), base(shape, dtype))
        return _cast_to_shape(np.asarray(vals, dtype=dtype), shape, dtype)

    return rand


def rand_fullrange(rng: np.random.RandomState, standardize_nans: bool = False) -> Any:
    """Values made of random bytes: every bit pattern of the dtype can occur."""

    def gen(shape: Any, dtype: Any, post: Callable[[Any], Any] = lambda x: x) -> Any:
        dtype = np.dtype(dtype)
        size = dtype.itemsize * math.prod(_dims_of_shape(shape))
        vals = post(rng.randint(0, np.iinfo(np.uint8).max, size=size, dtype=np.uint8))
        vals = vals.view(dtype)
        if shape is PYTHON_SCALAR_SHAPE:
            if dtype == np.uint64:
                vals = vals.astype(np.int64)
            elif dtype == np.uint32 and not trellax.config.read("jax_enable_x64"):
                vals = vals.astype(np.int32)
        vals = vals.reshape(_dims_of_shape(shape))
        if standardize_nans and np.issubdtype(dtype, np.floating):
            vals[np.isnan(vals)] = np.nan
        return _cast_to_shape(vals, shape, dtype)

    return gen


def rand_int(rng: np.random.RandomState, low: int = 0, high: int | None = None) -> Any:
    """Integers in ``[low, high)``; ``high`` defaults to the integer dtype's maximum."""

    def fn(shape: Any, dtype: Any) -> Any:
        nonlocal high
        integer = np.issubdtype(dtype, np.integer)
        gen_dtype = dtype if integer else np.int64
        if low == 0 and high is None:
            if not integer:
                raise ValueError("rand_int requires an explicit `high` for non-integer types.")
            high = int(np.iinfo(dtype).max)
        return _cast_to_shape(
            rng.randint(low, high=high, size=_dims_of_shape(shape), dtype=gen_dtype).astype(dtype),
            shape,
            dtype,
        )

    return fn


def rand_unique_int(rng: np.random.RandomState, high: int | None = None) -> Any:
    def fn(shape: Any, dtype: Any) -> Any:
        pool = np.arange(high or math.prod(shape), dtype=dtype)
        return rng.choice(pool, size=shape, replace=False)

    return fn


def rand_bool(rng: np.random.RandomState) -> Any:
    def gen(shape: Any, dtype: Any) -> Any:
        vals = np.asarray(rng.rand(*_dims_of_shape(shape)) < 0.5, dtype=dtype)
        return _cast_to_shape(vals, shape, dtype)

    return gen


# --- promotion and tolerances ---------------------------------------------------------------


def strict_promotion_if_dtypes_match(dtypes: Any) -> Any:
    """Strict promotion when all the dtypes are one, standard promotion otherwise."""
    if all(d == dtypes[0] for d in dtypes):
        return trellax.numpy_dtype_promotion("strict")
    return trellax.numpy_dtype_promotion("standard")


def _promote(inexact: bool, *args: Any) -> list[Any]:
    if len(args) < 2 and not inexact:
        return [jnp.asarray(a) for a in args]
    dtype, weak = _numpy_util.promote_dtypes("promote_like_jnp", *args)
    dtype = _dtypes.canonicalize_dtype(dtype)
    if inexact:
        dtype = _numpy_util.to_inexact_dtype(dtype)
    return [_numpy_util.convert("promote_like_jnp", a, dtype, weak) for a in args]


def promote_like_jnp(fun: Callable[..., Any], inexact: bool = False) -> Callable[..., Any]:
    """``fun`` with its arguments promoted to their ``jnp`` result type first."""

    def wrapper(*args: Any, **kw: Any) -> Any:
        flat, tree = tree_util.tree_flatten(args)
        return fun(*tree_util.tree_unflatten(tree, _promote(inexact, *flat)), **kw)

    return wrapper


_TOLERANCE_DTYPES = (
    "bool", "int2", "int4", "int8", "int16", "int32", "int64", "uint2", "uint4", "uint8",
    "uint16", "uint32", "uint64", "float4_e2m1fn", "float8_e8m0fnu", "float8_e3m4",
    "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
    "float8_e5m2fnuz", "bfloat16", "float16", "float32", "float64", "complex64", "complex128",
)  # fmt: skip


def _tolerance_dtypes() -> list[np.dtype[Any]]:
    return [np.dtype(getattr(_dtypes, n, None) or n) for n in _TOLERANCE_DTYPES]


def _normalize_tolerance(tol: Any) -> dict[Any, Any]:
    tol = tol or 0
    if isinstance(tol, dict):
        return {np.dtype(k): v for k, v in tol.items()}
    return dict.fromkeys(_tolerance_dtypes(), tol)


def join_tolerance(tol1: Any, tol2: Any) -> dict[Any, Any]:
    """The larger of two tolerances (numbers or per-dtype dicts), per dtype."""
    out = _normalize_tolerance(tol1)
    for k, v in _normalize_tolerance(tol2).items():
        out[k] = max(v, out.get(k, 0))
    return out


_VERSION = re.compile(r"([0-9]+(?:\.[0-9]+)*)(?:(rc|dev).*)?")


def parse_version(v: str) -> tuple[int, ...]:
    m = _VERSION.match(v)
    if m is None:
        raise ValueError(f"Unable to parse version '{v}'")
    return tuple(int(x) for x in m.group(1).split("."))


def numpy_version() -> tuple[int, ...]:
    return parse_version(np.__version__)


def is_device_tpu_at_least(version: int) -> bool:
    """One CPU device: never a TPU."""
    return False


def is_device_tpu(version: int | None = None, variant: str = "") -> bool:
    return False
