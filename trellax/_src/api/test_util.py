"""``check_grads``/``check_jvp``/``check_vjp``: derivatives against central finite differences.

The checks follow ``jax.test_util`` step for step, so a test written for JAX passes or fails
here as it does there:

- random directions come from ``np.random.RandomState(0)`` in the dtype of each argument (a
  NumPy float64 argument gets a float64 direction; a Python scalar a Python scalar);
- the finite difference ``(f(x + eps t) - f(x - eps t)) / (2 eps)`` is taken in the dtype of the
  outputs, with ``inf - inf`` counted as 0, ``eps=1e-4`` by default;
- tolerances are by dtype (``2e-3`` for float32, ``1e-5`` for float64, ...; a dict given by the
  caller overrides single dtypes, a number all of them) and, as JAX scales them, multiplied by
  the number of elements of the compared array;
- the forward check also checks that the primal output and its tangent have the same
  (canonical) dtype; the reverse check compares ``<t, vjp(c)>`` with ``<jvp(t), c>``;
- ``order > 1`` checks ``(primals, tangents) -> jvp(f, primals, tangents)`` forward (with its
  own random tangents for both halves), and ``x -> vjp(f, x)[1](f(x))`` in reverse.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.api.autodiff import jvp, linearize, vjp
from trellax._src.config import settings as _config
from trellax._src.dtypes.dtypes import canonicalize_dtype
from trellax._src.lax.ad_util import float0
from trellax._src.tree.tree_util import tree_map, tree_reduce

EPS = 1e-4

_Tol = dict[np.dtype[Any], float]

_PY_SCALARS: dict[type, np.dtype[Any]] = {
    bool: np.dtype(bool),
    int: np.dtype("int64"),
    float: np.dtype("float64"),
    complex: np.dtype("complex128"),
}


def _ints_zero() -> _Tol:
    names = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
    return {np.dtype(n): 0.0 for n in names}


#: The tolerance of a dtype nobody named (``jax.test_util``'s ``default_tolerance``).
_DEFAULT_TOL: _Tol = {
    np.dtype(float0): 0.0,
    **_ints_zero(),
    np.dtype("float16"): 1e-3,
    np.dtype("float32"): 1e-6,
    np.dtype("float64"): 1e-15,
    np.dtype("complex64"): 1e-6,
    np.dtype("complex128"): 1e-15,
}

#: The tolerances of derivative checks by dtype (``default_gradient_tolerance``).
_GRAD_TOL: _Tol = {
    np.dtype("float16"): 1e-2,
    np.dtype("float32"): 2e-3,
    np.dtype("float64"): 1e-5,
    np.dtype("complex64"): 1e-3,
    np.dtype("complex128"): 1e-5,
}


_NARROW_FLOATS = [
    np.dtype(getattr(ml_dtypes, n))
    for n in (
        "bfloat16",
        "float8_e4m3fn",
        "float8_e5m2",
        "float8_e4m3b11fnuz",
        "float8_e4m3fnuz",
        "float8_e5m2fnuz",
        "float8_e3m4",
        "float8_e4m3",
        "float8_e8m0fnu",
        "float4_e2m1fn",
    )
    if hasattr(ml_dtypes, n)
]
_DEFAULT_TOL[np.dtype(ml_dtypes.bfloat16)] = 1e-2
_GRAD_TOL[np.dtype(ml_dtypes.bfloat16)] = 1e-1
for _d in _NARROW_FLOATS[1:]:
    _DEFAULT_TOL[_d] = _GRAD_TOL[_d] = 1e0 if _d.itemsize * 8 < 8 or "e8m0" in _d.name else 1e-1
for _n in ("int4", "uint4", "int2", "uint2"):
    if hasattr(ml_dtypes, _n):
        _DEFAULT_TOL[np.dtype(getattr(ml_dtypes, _n))] = 0.0


def _dtype(x: Any) -> np.dtype[Any]:
    if hasattr(x, "dtype"):
        found: np.dtype[Any] = np.dtype(x.dtype)
        return found
    if type(x) in _PY_SCALARS:
        return _PY_SCALARS[type(x)]
    d: np.dtype[Any] = np.asarray(x).dtype
    return d


def _is_python_scalar(x: Any) -> bool:
    return not isinstance(x, np.generic) and isinstance(x, (bool, int, float, complex))


def _merge(tol: Any, default: _Tol) -> Any:
    """The caller's tolerance over the defaults: a number replaces all, a dict some dtypes."""
    if tol is None:
        return default
    if not isinstance(tol, dict):
        return tol
    out = dict(default)
    out.update({np.dtype(k): v for k, v in tol.items()})
    return out


def _tolerance(dtype: np.dtype[Any], tol: Any) -> float:
    if tol is None:
        tol = {}
    if not isinstance(tol, dict):
        return float(tol)
    by_dtype = {np.dtype(k): v for k, v in tol.items()}
    d = canonicalize_dtype(np.dtype(dtype))
    return float(by_dtype.get(d, _DEFAULT_TOL.get(d, 0.0)))


def _assert_leaf_close(a: Any, b: Any, atol: Any, rtol: Any, err_msg: str) -> None:
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        raise AssertionError(f"{err_msg}: shapes differ, {x.shape} and {y.shape}")
    if x.dtype == y.dtype == np.dtype(float0):
        np.testing.assert_array_equal(x, y, err_msg=err_msg)
        return
    at = max(_tolerance(x.dtype, atol), _tolerance(y.dtype, atol)) * x.size
    rt = max(_tolerance(x.dtype, rtol), _tolerance(y.dtype, rtol)) * y.size
    # the narrow floats of ml_dtypes are compared as float32
    x = x.astype(np.float32) if x.dtype in _NARROW_FLOATS else x
    y = y.astype(np.float32) if y.dtype in _NARROW_FLOATS else y
    # a zero tolerance is NumPy's default (atol 0, rtol 1e-7), as in JAX
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(
            x, y, atol=at if at else 0.0, rtol=rt if rt else 1e-7, err_msg=err_msg
        )


def _check_close(xs: Any, ys: Any, atol: Any, rtol: Any, err_msg: str) -> None:
    tree_map(partial(_assert_leaf_close, atol=atol, rtol=rtol, err_msg=err_msg), xs, ys)


def _check_dtypes_match(xs: Any, ys: Any) -> None:
    def same(x: Any, y: Any) -> None:
        dx, dy = _dtype(x), _dtype(y)
        if not _config.state().x64:
            dx, dy = canonicalize_dtype(dx), canonicalize_dtype(dy)
        if dx != dy:
            raise AssertionError(f"dtypes differ: {dx} and {dy}")

    tree_map(same, xs, ys)


def _keep_type(op: Callable[..., Any]) -> Callable[..., Any]:
    """``op`` on leaves, the result in the first leaf's dtype (a Python scalar stays one)."""

    def run(*args: Any) -> Any:
        out = np.array(op(*[np.asarray(a) for a in args]), dtype=_dtype(args[0]))
        return out.item() if all(_is_python_scalar(a) for a in args) else out

    return run


def _scale(xs: Any, a: float) -> Any:
    def mul(x: Any) -> Any:
        d = _dtype(x)
        out = np.multiply(np.asarray(x), np.array(a, dtype=d), dtype=d)
        return out.item() if _is_python_scalar(x) else out

    return tree_map(mul, xs)


def _safe_sub(xs: Any, ys: Any) -> Any:
    def sub(x: Any, y: Any) -> Any:
        d = _dtype(x)
        x, y = np.asarray(x), np.asarray(y)
        with np.errstate(invalid="ignore"):
            return np.where(np.equal(x, y), np.array(0, d), np.subtract(x, y, dtype=d))

    return tree_map(sub, xs, ys)


def _rand_like(rng: np.random.RandomState, x: Any) -> Any:
    shape = np.shape(x)
    d = _dtype(x)
    out = np.asarray(rng.randn(*shape), dtype=d)
    if d.kind == "c":
        out = out + d.type(1j) * np.asarray(rng.randn(*shape), dtype=d)
    return out.item() if _is_python_scalar(x) else out


def _inner(xs: Any, ys: Any) -> Any:
    def contract(x: Any, y: Any) -> Any:
        x, y = np.asarray(x), np.asarray(y)
        return np.real(np.dot(np.conj(x).reshape(-1), y.reshape(-1)))

    return tree_reduce(np.add, tree_map(contract, xs, ys))


def numerical_jvp(
    f: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any], eps: float = EPS
) -> Any:
    """The central difference of ``f`` at ``primals`` along ``tangents``."""
    delta = _scale(tangents, eps)
    f_pos = f(*tree_map(_keep_type(operator.add), primals, delta))
    f_neg = f(*tree_map(_keep_type(operator.sub), primals, delta))
    return _scale(_safe_sub(f_pos, f_neg), 0.5 / eps)


def _suffix(err_msg: str, what: str) -> str:
    return f"{err_msg} {what}" if err_msg else what


def check_jvp(
    f: Callable[..., Any],
    f_jvp: Callable[..., Any],
    args: Sequence[Any],
    atol: Any = None,
    rtol: Any = None,
    eps: float = EPS,
    err_msg: str = "",
) -> None:
    """``f_jvp(args, tangents)`` against central differences of ``f`` along a random direction.

    >>> import trellax, trellax.numpy as tnp
    >>> check_jvp(tnp.sin, lambda p, t: trellax.jvp(tnp.sin, p, t), (0.5,))
    """
    atol, rtol = _merge(atol, _GRAD_TOL), _merge(rtol, _GRAD_TOL)
    args = tuple(args)
    rng = np.random.RandomState(0)
    tangent = tree_map(partial(_rand_like, rng), args)
    v_out, t_out = f_jvp(args, tangent)
    _check_dtypes_match(v_out, t_out)
    v_expected = f(*args)
    _check_dtypes_match(v_out, v_expected)
    t_expected = numerical_jvp(f, args, tangent, eps=eps)
    _check_close(v_out, v_expected, atol, rtol, _suffix(err_msg, "primal"))
    _check_close(t_out, t_expected, atol, rtol, _suffix(err_msg, "tangent"))


def check_vjp(
    f: Callable[..., Any],
    f_vjp: Callable[..., Any],
    args: Sequence[Any],
    atol: Any = None,
    rtol: Any = None,
    eps: float = EPS,
    err_msg: str = "",
) -> None:
    """``<t, vjp(c)>`` against ``<numerical jvp(t), c>`` for a random ``t`` and ``c``.

    >>> import trellax, trellax.numpy as tnp
    >>> check_vjp(tnp.sin, lambda x: trellax.vjp(tnp.sin, x), (0.5,))
    """
    atol, rtol = _merge(atol, _GRAD_TOL), _merge(rtol, _GRAD_TOL)
    args = tuple(args)
    rand = partial(_rand_like, np.random.RandomState(0))
    v_out, vjp_fn = f_vjp(*args)
    v_expected = f(*args)
    _check_close(v_out, v_expected, atol, rtol, _suffix(err_msg, "primal"))
    tangent = tree_map(rand, args)
    tangent_out = numerical_jvp(f, args, tangent, eps=eps)
    cotangent = tree_map(rand, v_out)
    conj = _keep_type(np.conj)
    cotangent_out = tree_map(conj, vjp_fn(tree_map(conj, cotangent)))
    ip = _inner(tangent, cotangent_out)
    ip_expected = _inner(tangent_out, cotangent)
    _check_close(ip, ip_expected, atol, rtol, _suffix(err_msg, "cotangent projection"))


def _jvp_from_linearize(f: Callable[..., Any], primals: Any, tangents: Any) -> Any:
    out, f_lin = linearize(f, *primals)
    return out, f_lin(*tangents)


def check_grads(
    f: Callable[..., Any],
    args: Sequence[Any],
    order: int,
    modes: Sequence[str] = ("fwd", "rev"),
    atol: float | dict[Any, float] | None = None,
    rtol: float | dict[Any, float] | None = None,
    eps: float | None = None,
) -> None:
    """Checks forward (``"fwd"``), reverse (``"rev"``) and linearized (``"lin"``) derivatives
    of ``f`` at ``args`` up to ``order``.

    >>> import trellax.numpy as tnp
    >>> from trellax.test_util import check_grads
    >>> check_grads(tnp.sin, (0.5,), order=2)
    """
    e = eps or EPS
    args = tuple(args)
    cj = partial(check_jvp, atol=atol, rtol=rtol, eps=e)
    cv = partial(check_vjp, atol=atol, rtol=rtol, eps=e)

    def check(fun: Callable[..., Any], xs: tuple[Any, ...], n: int, msg: str) -> None:
        if "fwd" in modes:
            m = f"JVP of {msg}" if msg else "JVP"
            cj(fun, partial(jvp, fun), xs, err_msg=m)
            if n > 1:
                check(partial(jvp, fun), (xs, xs), n - 1, m)
        if "rev" in modes:
            m = f"VJP of {msg}" if msg else "VJP"
            cv(fun, partial(vjp, fun), xs, err_msg=m)
            if n > 1:

                def f_vjp(*a: Any) -> Any:
                    out, vjp_fn = vjp(fun, *a)
                    return vjp_fn(out)

                check(f_vjp, xs, n - 1, m)
        if "lin" in modes:
            m = f"LIN of {msg}" if msg else "LIN"
            cj(fun, partial(_jvp_from_linearize, fun), xs, err_msg=m)
            if n > 1:
                check(partial(_jvp_from_linearize, fun), (xs, xs), n - 1, m)

    check(f, args, order, "")


__all__ = ["check_grads", "check_jvp", "check_vjp", "numerical_jvp"]
