"""More of ``jtu`` (the harness's ``jax._src.test_util``): the value makers and helpers JAX's
lax test files and their support tables (``lax_test_util``) call.

Written for the harness from what those calls need: each maker returns ``gen(shape, dtype)``
drawing from the test's ``np.random.RandomState``, with the distribution JAX's test utilities
document (full bit range, values kept away from zero, some repeated / infinite / NaN / zero
elements, unique integers); ``join_tolerance`` merges two tolerance specs by taking, per dtype,
the larger; ``num_float_bits`` is the width of a float type after canonicalization.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import trellax
import trellax.sharding
from trellax import dtypes as _dtypes
from trellax._src.api.test_util import _rand_like
from trellax._src.interpreters.dce import subjaxprs

__all__ = [
    "is_cuda_compute_capability_at_least",
    "is_device_rocm",
    "iter_eqns",
    "join_tolerance",
    "num_float_bits",
    "rand_fullrange",
    "rand_indices_unique_along_axis",
    "rand_int",
    "rand_like",
    "rand_not_small",
    "rand_small_positive",
    "rand_some_equal",
    "rand_some_inf",
    "rand_some_inf_and_nan",
    "rand_some_nan",
    "rand_some_zero",
    "rand_unique_int",
    "with_explicit_mesh",
]


def _jtu() -> Any:
    # jtu imports this module at its end (its names are then complete): read them lazily
    import sys

    return sys.modules["jax_tests.jtu"]


def _shape_dims(shape: Any) -> tuple[int, ...]:
    return _jtu()._dims(shape)  # type: ignore[no-any-return]


def _to_shape(value: Any, shape: Any, dtype: Any) -> Any:
    return _jtu()._cast_to_shape(value, shape, dtype)


def rand_fullrange(rng: np.random.RandomState, standardize_nans: bool = False) -> Any:
    """Values whose every bit is random (the whole range of the dtype, NaNs included)."""

    def gen(shape: Any, dtype: Any, post: Callable[[Any], Any] = lambda x: x) -> Any:
        dt = np.dtype(dtype)
        dims = _shape_dims(shape)
        raw = rng.randint(0, 255, size=dt.itemsize * math.prod(dims), dtype=np.uint8)
        vals = post(raw).view(dt)
        if shape is _jtu().PYTHON_SCALAR_SHAPE:
            # a Python int from the top of the widest unsigned range would overflow: signed
            if dt == np.uint64:
                vals = vals.astype(np.int64)
            elif dt == np.uint32 and not _jtu()._read("jax_enable_x64"):
                vals = vals.astype(np.int32)
        vals = vals.reshape(dims)
        if standardize_nans and dt.kind == "f":
            vals[np.isnan(vals)] = np.nan
        return _to_shape(vals, shape, dtype)

    return gen


def rand_not_small(rng: np.random.RandomState, offset: float = 10.0) -> Any:
    """Normal values scaled by 3 and pushed ``offset`` away from zero."""
    post = lambda x: x + np.where(x > 0, offset, -offset)  # noqa: E731
    return functools.partial(_jtu()._rand_dtype, rng.randn, scale=3.0, post=post)


def rand_small_positive(rng: np.random.RandomState) -> Any:
    """Uniform values in [0, 2e-5)."""
    return functools.partial(_jtu()._rand_dtype, rng.rand, scale=2e-5)


def rand_some_equal(rng: np.random.RandomState) -> Any:
    """Normal values scaled by 100, about half of them replaced by the first element."""

    def post(x: Any) -> Any:
        flat = np.ravel(x)
        if flat.size == 0:
            return x
        return np.where(rng.rand(*np.shape(x)) < 0.5, flat[0], x)

    return functools.partial(_jtu()._rand_dtype, rng.randn, scale=100.0, post=post)


def _some_special(rng: np.random.RandomState, specials: tuple[float, ...], p: float) -> Any:
    """``rand_default`` values with each special value put at a share ``p`` of the elements
    of real floating dtypes (other dtypes: plain ``rand_default``)."""
    base = _jtu().rand_default(rng)

    def gen(shape: Any, dtype: Any) -> Any:
        dt = np.dtype(dtype)
        if dt.kind == "c":
            part = np.finfo(dt).dtype
            out = gen(shape, part) + np.array(1j, dt) * gen(shape, part)
            return _to_shape(np.asarray(out, dt), shape, dtype)
        if not _dtypes.issubdtype(dt, np.floating):
            return base(shape, dtype)
        dims = _shape_dims(shape)
        masks = [rng.rand(*dims) < p for _ in specials]
        vals = np.asarray(base(shape, dtype), dt)
        for mask, special in zip(masks, specials, strict=True):
            vals = np.where(mask, np.array(special, dt), vals)
        return _to_shape(np.asarray(vals, dt), shape, dtype)

    return gen


def rand_some_inf(rng: np.random.RandomState) -> Any:
    """Some +inf and -inf among normal values (floating dtypes)."""
    return _some_special(rng, (np.inf, -np.inf), 0.1)


def rand_some_nan(rng: np.random.RandomState) -> Any:
    """Some NaNs among normal values (floating dtypes)."""
    return _some_special(rng, (np.nan,), 0.1)


def rand_some_inf_and_nan(rng: np.random.RandomState) -> Any:
    """Some infinities and NaNs among normal values (floating dtypes)."""
    return _some_special(rng, (np.inf, -np.inf, np.nan), 0.1)


def rand_some_zero(rng: np.random.RandomState) -> Any:
    """About half of the elements zero, the rest ``rand_default``."""
    base = _jtu().rand_default(rng)

    def gen(shape: Any, dtype: Any) -> Any:
        zeros = rng.rand(*_shape_dims(shape)) < 0.5
        vals = np.where(zeros, np.array(0, dtype=dtype), base(shape, dtype))
        return _to_shape(np.asarray(vals, dtype=dtype), shape, dtype)

    return gen


def rand_int(rng: np.random.RandomState, low: int = 0, high: int | None = None) -> Any:
    """Integers in [low, high); ``rand_int(rng, n)`` draws from [0, n) (NumPy's ``randint``
    convention); with neither bound, the integer dtype's whole non-negative range."""

    def gen(shape: Any, dtype: Any) -> Any:
        dt = np.dtype(dtype)
        top = high
        if low == 0 and top is None:
            if dt.kind not in "iu":
                raise ValueError("rand_int needs an explicit `high` for non-integer types.")
            top = int(np.iinfo(dt).max)
        draw_dtype = dt if dt.kind in "iu" else np.dtype(np.int64)
        vals = rng.randint(low, top, size=_shape_dims(shape), dtype=draw_dtype)
        return _to_shape(np.asarray(vals).astype(dt), shape, dtype)

    return gen


def rand_unique_int(rng: np.random.RandomState, high: int | None = None) -> Any:
    """Distinct integers drawn from ``range(high)`` (default: the number of elements)."""

    def gen(shape: Any, dtype: Any) -> Any:
        pool = np.arange(high or math.prod(shape), dtype=dtype)
        return rng.choice(pool, size=shape, replace=False)

    return gen


def rand_indices_unique_along_axis(rng: np.random.RandomState) -> Any:
    """Indices below ``dim``, distinct along ``axis``; some made negative."""

    def gen(dim: int, shape: tuple[int, ...], axis: int, allow_negative: bool = True) -> Any:
        axis = axis % len(shape)  # a negative axis (-1) split the shape wrongly
        rest = shape[:axis] + shape[axis + 1 :]
        rows = [rng.choice(dim, size=shape[axis], replace=False) for _ in range(math.prod(rest))]
        idx = np.moveaxis(np.array(rows, dtype=np.int64).reshape((*rest, shape[axis])), -1, axis)
        if allow_negative:
            idx[rng.choice([False, True], idx.shape)] -= dim
        return idx

    return gen


def rand_like(rng: np.random.RandomState, x: Any) -> Any:
    """A random value with the shape and dtype of ``x`` (``jax.test_util``'s)."""
    return _rand_like(rng, x)


def _normalize_tolerance(tol: Any) -> dict[np.dtype[Any], float]:
    if isinstance(tol, dict):
        return {np.dtype(k): v for k, v in tol.items()}
    return dict.fromkeys(_jtu().default_tolerance(), tol or 0)


def join_tolerance(tol1: Any, tol2: Any) -> dict[np.dtype[Any], float]:
    """Per dtype, the larger of two tolerance specs (numbers or ``{dtype: tol}``)."""
    out = _normalize_tolerance(tol1)
    for k, v in _normalize_tolerance(tol2).items():
        out[k] = max(v, out.get(k, 0))
    return out


def num_float_bits(dtype: Any) -> int:
    """The width in bits of a floating dtype after canonicalization."""
    return int(_dtypes.finfo(_dtypes.canonicalize_dtype(dtype)).bits)


def iter_eqns(jaxpr: Any) -> Iterator[Any]:
    """Every equation of a jaxpr and of the jaxprs in its equations' parameters."""
    yield from jaxpr.eqns
    for sub in subjaxprs(jaxpr):
        yield from iter_eqns(sub)


def is_device_rocm() -> bool:
    """One CPU device: never ROCm."""
    return False


def is_cuda_compute_capability_at_least(capability: str) -> bool:
    """One CPU device: no CUDA."""
    return False


def with_explicit_mesh(
    sizes: Any, names: Any, axis_types: Any = None, iota_order: bool = False
) -> Callable[[Any], Any]:
    """Runs the test inside ``set_mesh`` of a mesh of the given sizes and axis names (axes
    explicit by default), passing it as ``mesh=``."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            types = (trellax.sharding.AxisType.Explicit,) * len(names)
            mesh = trellax.make_mesh(sizes, names, axis_types or types)
            with trellax.set_mesh(mesh):
                return fn(*args, **kwargs, mesh=mesh)

        return run

    return decorate
