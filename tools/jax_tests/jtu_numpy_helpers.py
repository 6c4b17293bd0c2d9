"""More of ``jax._src.test_util`` for the harness: what JAX's ``lax_numpy*_test`` files call.

Re-exported by ``jtu`` (``tools/jax_tests/jtu.py``). The random-value makers draw from the
``RandomState`` in the same order as JAX's own, so a test sees the values it sees under JAX
(the reference run's tolerances were met on those values); ``promote_like_jnp`` and
``with_jax_dtype_defaults`` adapt NumPy reference functions as JAX's helpers do;
``assert_dot_precision`` reads ``dot_general`` parameters from a ``make_jaxpr``.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import trellax
import trellax.numpy as jnp
from trellax import dtypes as _dtypes
from trellax import tree_util

NUMPY_SCALAR_SHAPE: Any = None  # jtu's markers, set by ``bind`` (compared by identity)
PYTHON_SCALAR_SHAPE: Any = None
_JTU: Any = None


def bind(jtu: Any) -> None:
    """Uses ``jtu``'s scalar-shape markers and tolerances (``jtu`` imports this module)."""
    global NUMPY_SCALAR_SHAPE, PYTHON_SCALAR_SHAPE, _JTU
    NUMPY_SCALAR_SHAPE, PYTHON_SCALAR_SHAPE, _JTU = (
        jtu.NUMPY_SCALAR_SHAPE,
        jtu.PYTHON_SCALAR_SHAPE,
        jtu,
    )


# --- versions and build ---------------------------------------------------------------------

_VERSION = re.compile(r"([0-9]+(?:\.[0-9]+)*)(?:(rc|dev).*)?")


def parse_version(v: str) -> tuple[int, ...]:
    m = _VERSION.match(v)
    if m is None:
        raise ValueError(f"Unable to parse version '{v}'")
    return tuple(int(x) for x in m.group(1).split("."))


def numpy_version() -> tuple[int, ...]:
    return parse_version(np.__version__)


def is_optimized_build() -> bool:
    return True


def is_device_tpu(version: int | None = None, variant: str = "") -> bool:
    return False


def is_device_cuda() -> bool:
    return False


def is_device_rocm() -> bool:
    return False


# --- shapes and random values ---------------------------------------------------------------


def _is_scalar_shape(shape: Any) -> bool:
    return shape is NUMPY_SCALAR_SHAPE or shape is PYTHON_SCALAR_SHAPE


def _dims_of_shape(shape: Any) -> Any:
    if _is_scalar_shape(shape):
        return ()
    if type(shape) in (list, tuple):
        return shape
    if np.ndim(shape) == 0:
        return (shape,)
    raise TypeError(type(shape))


def _cast_to_shape(value: Any, shape: Any, dtype: Any) -> Any:
    if shape is NUMPY_SCALAR_SHAPE:
        return np.dtype(dtype).type(value)
    if shape is PYTHON_SCALAR_SHAPE:
        return np.asarray(value).item()
    return value


def _rand_dtype(
    rand: Callable[..., Any],
    shape: Any,
    dtype: Any,
    scale: float = 1.0,
    post: Callable[[Any], Any] = lambda x: x,
) -> Any:
    unsigned = _dtypes.issubdtype(dtype, np.unsignedinteger)

    def r() -> np.ndarray:
        v = rand(*_dims_of_shape(shape))
        return np.asarray(scale * (abs(v) if unsigned else v)).astype(dtype)

    vals = r() + 1.0j * r() if _dtypes.issubdtype(dtype, np.complexfloating) else r()
    return _cast_to_shape(np.asarray(post(vals), dtype), shape, dtype)


def rand_default(rng: np.random.RandomState, scale: float = 3) -> Callable[..., Any]:
    return functools.partial(_rand_dtype, rng.randn, scale=scale)


def rand_nonzero(rng: np.random.RandomState) -> Callable[..., Any]:
    post = lambda x: np.where(x == 0, np.array(1, dtype=x.dtype), x)  # noqa: E731
    return functools.partial(_rand_dtype, rng.randn, scale=3, post=post)


def rand_positive(rng: np.random.RandomState) -> Callable[..., Any]:
    return functools.partial(_rand_dtype, rng.rand, scale=2, post=lambda x: x + 1)


def rand_small(rng: np.random.RandomState) -> Callable[..., Any]:
    return functools.partial(_rand_dtype, rng.randn, scale=1e-3)


def rand_not_small(rng: np.random.RandomState, offset: float = 10.0) -> Callable[..., Any]:
    post = lambda x: x + np.where(x > 0, offset, -offset)  # noqa: E731
    return functools.partial(_rand_dtype, rng.randn, scale=3.0, post=post)


def rand_small_positive(rng: np.random.RandomState) -> Callable[..., Any]:
    return functools.partial(_rand_dtype, rng.rand, scale=2e-5)


def rand_uniform(
    rng: np.random.RandomState, low: float = 0.0, high: float = 1.0
) -> Callable[..., Any]:
    assert low < high
    post = lambda x: x * (high - low) + low  # noqa: E731
    return functools.partial(_rand_dtype, rng.rand, post=post)


def rand_some_equal(rng: np.random.RandomState) -> Callable[..., Any]:
    def post(x: np.ndarray) -> np.ndarray:
        flat = x.ravel()
        if len(flat) == 0:
            return x
        flips = rng.rand(*np.shape(x)) < 0.5
        return np.where(flips, flat[0], x)

    return functools.partial(_rand_dtype, rng.randn, scale=100.0, post=post)


def _complex_parts(
    rand: Callable[[Any, Any], Any], shape: Any, dtype: Any
) -> Any:  # a complex sample from two real ones, as JAX's makers do
    base = np.real(np.array(0, dtype=dtype)).dtype
    out = rand(shape, base) + np.array(1j, dtype) * rand(shape, base)
    return _cast_to_shape(out, shape, dtype)


def _with_specials(rng: np.random.RandomState, specials: tuple[float, ...]) -> Any:
    """A maker of default values with each of ``specials`` put in at random (10 % each)."""
    base = rand_default(rng)

    def rand(shape: Any, dtype: Any) -> Any:
        if not _dtypes.issubdtype(dtype, np.floating):
            return base(shape, dtype)
        if _dtypes.issubdtype(dtype, np.complexfloating):
            return _complex_parts(rand, shape, dtype)
        dims = _dims_of_shape(shape)
        flips = [rng.rand(*dims) < 0.1 for _ in specials]
        vals = base(shape, dtype)
        for flip, value in zip(flips, specials):
            vals = np.where(flip, np.array(value, dtype=dtype), vals)
        return _cast_to_shape(np.asarray(vals, dtype=dtype), shape, dtype)

    return rand


def rand_some_inf(rng: np.random.RandomState) -> Callable[..., Any]:
    return _with_specials(rng, (np.inf, -np.inf))  # type: ignore[no-any-return]


def rand_some_inf_and_nan(rng: np.random.RandomState) -> Callable[..., Any]:
    return _with_specials(rng, (np.inf, -np.inf, np.nan))  # type: ignore[no-any-return]


def rand_some_nan(rng: np.random.RandomState) -> Callable[..., Any]:
    base = rand_default(rng)

    def rand(shape: Any, dtype: Any) -> Any:
        if _dtypes.issubdtype(dtype, np.complexfloating):
            return _complex_parts(rand, shape, dtype)
        if not _dtypes.issubdtype(dtype, np.floating):
            return base(shape, dtype)
        r = rng.rand(*_dims_of_shape(shape))
        vals = base(shape, dtype)
        vals = np.where(r < 0.1, np.array(np.nan, dtype=dtype), vals)
        vals = np.where(r < 0.05, np.array(-np.nan, dtype=dtype), vals)
        return _cast_to_shape(np.asarray(vals, dtype=dtype), shape, dtype)

    return rand


def rand_some_zero(rng: np.random.RandomState) -> Callable[..., Any]:
    base = rand_default(rng)

    def rand(shape: Any, dtype: Any) -> Any:
        zeros = rng.rand(*_dims_of_shape(shape)) < 0.5
        vals = np.where(zeros, np.array(0, dtype=dtype), base(shape, dtype))
        return _cast_to_shape(np.asarray(vals, dtype=dtype), shape, dtype)

    return rand


def rand_fullrange(rng: np.random.RandomState, standardize_nans: bool = False) -> Any:
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
    def fn(shape: Any, dtype: Any) -> Any:
        nonlocal high
        gen_dtype = dtype if np.issubdtype(dtype, np.integer) else np.int64
        if low == 0 and high is None:
            if not np.issubdtype(dtype, np.integer):
                raise ValueError("rand_int needs an explicit `high` for non-integer types.")
            high = np.iinfo(dtype).max
        size = _dims_of_shape(shape)
        return rng.randint(low, high=high, size=size, dtype=gen_dtype).astype(dtype)

    return fn


def rand_unique_int(rng: np.random.RandomState, high: int | None = None) -> Any:
    def fn(shape: Any, dtype: Any) -> Any:
        choices = np.arange(high or math.prod(shape), dtype=dtype)
        return rng.choice(choices, size=shape, replace=False)

    return fn


def rand_indices_unique_along_axis(rng: np.random.RandomState) -> Any:
    def fn(dim: int, shape: Any, axis: int, allow_negative: bool = True) -> Any:
        shape = tuple(shape)
        axis = axis % len(shape)  # a negative axis (-1) split the shape wrongly
        rest = shape[:axis] + shape[axis + 1 :]
        batch = math.prod(rest)
        rows = [rng.choice(dim, size=shape[axis], replace=False) for _ in range(batch)]
        idx = np.array(rows, dtype=np.int64)  # integers even when empty
        idx = np.moveaxis(idx.reshape((*rest, shape[axis])), -1, axis)
        if allow_negative:
            mask = rng.choice([False, True], idx.shape)
            idx[mask] -= dim
        return idx

    return fn


# --- reference-function adapters ------------------------------------------------------------


def with_jax_dtype_defaults(func: Callable[..., Any], use_defaults: Any = True) -> Any:
    """``func`` with its outputs cast to JAX's default dtypes (per kind, by the x64 flag)."""
    to_default_dtype = _JTU.to_default_dtype

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        result = func(*args, **kwargs)
        if isinstance(use_defaults, bool):
            return tree_util.tree_map(to_default_dtype, result) if use_defaults else result
        return tree_util.tree_map(
            lambda a, use: to_default_dtype(a) if use else a, result, use_defaults
        )

    return wrapped


def promote_like_jnp(fun: Callable[..., Any], inexact: bool = False) -> Callable[..., Any]:
    """``fun`` with its array arguments promoted to ``jnp.result_type`` of them first (and to
    an inexact type with ``inexact``), as JAX's reference wrappers do."""

    def wrapper(*args: Any, **kw: Any) -> Any:
        flat, tree = tree_util.tree_flatten(args)
        if flat:
            dtype = _dtypes.result_type(*flat)
            if inexact and not _dtypes.issubdtype(dtype, np.inexact):
                dtype = _dtypes.result_type(dtype, jnp.float_)
            flat = [np.asarray(x).astype(dtype) for x in flat]
        return fun(*tree_util.tree_unflatten(tree, flat), **kw)

    return wrapper


def strict_promotion_if_dtypes_match(dts: Any) -> Any:
    """Strict promotion when every dtype is the same, standard promotion otherwise."""
    if all(d == dts[0] for d in dts):
        return trellax.numpy_dtype_promotion("strict")
    return trellax.numpy_dtype_promotion("standard")


def _normalize_tolerance(tol: Any) -> dict[np.dtype[Any], float]:
    tol = tol or 0
    if isinstance(tol, dict):
        return {np.dtype(k): v for k, v in tol.items()}
    return dict.fromkeys(_JTU.default_tolerance(), tol)


def join_tolerance(tol1: Any, tol2: Any) -> dict[np.dtype[Any], float]:
    out = _normalize_tolerance(tol1)
    for k, v in _normalize_tolerance(tol2).items():
        out[k] = max(v, out.get(k, 0))
    return out


# --- jaxpr inspection -----------------------------------------------------------------------


def iter_eqns(jaxpr: Any) -> Iterator[Any]:
    yield from jaxpr.eqns
    for eqn in jaxpr.eqns:
        for param in eqn.params.values():
            inner = getattr(param, "jaxpr", param)
            if hasattr(inner, "eqns"):
                yield from iter_eqns(inner)


def _dot_params(fun: Callable[..., Any], name: str, *args: Any) -> list[Any]:
    jaxpr = trellax.make_jaxpr(fun)(*args)
    return [
        eqn.params[name] for eqn in iter_eqns(jaxpr.jaxpr) if eqn.primitive.name == "dot_general"
    ]


def assert_dot_precision(expected: Any, fun: Callable[..., Any], *args: Any) -> None:
    for precision in _dot_params(fun, "precision", *args):
        msg = f"Unexpected precision: {expected} != {precision}"
        if isinstance(precision, tuple):
            assert precision[0] == expected, msg
            assert precision[1] == expected, msg
        else:
            assert precision == expected, msg


def assert_dot_preferred_element_type(
    expected: Any, fun: Callable[..., Any], *args: Any, **kwargs: Any
) -> None:
    found = _dot_params(functools.partial(fun, **kwargs), "preferred_element_type", *args)
    for pref in found:
        assert expected == pref, f"Unexpected preferred_element_type: {expected} != {pref}"
