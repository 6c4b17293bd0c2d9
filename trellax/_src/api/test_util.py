"""``check_grads``/``check_jvp``/``check_vjp``: derivatives against central finite differences.

The checks follow JAX's ``jax.test_util``: random directions from ``np.random.RandomState(0)``,
``eps=1e-4`` by default, tolerances by dtype, the reverse check through the identity
``<t, vjp(c)> == <jvp(t), c>``, and ``order > 1`` by recursing on the derivative functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.api.autodiff import _as_array, jvp, vjp
from trellax._src.lax._base import asarray
from trellax._src.tree.tree_util import tree_flatten, tree_map

_TOL = {
    "float16": 1e-2,
    "bfloat16": 1e-1,
    "float32": 2e-3,
    "float64": 1e-5,
    "complex64": 1e-3,
    "complex128": 1e-5,
}
EPS = 1e-4


def _tol(x: Any, given: float | None) -> float:
    if given is not None:
        return given

    try:
        name = _as_array(x).dtype.name  # a Python float is float32 (x64 off), as in JAX
    except TypeError:
        name = np.asarray(x).dtype.name
    return _TOL.get(name, 1e-5)


def _rand_like(rng: np.random.RandomState, x: Any) -> Any:

    a = asarray(x)
    d = a.dtype
    if d.kind == "c":
        v = rng.randn(*a.shape) + 1j * rng.randn(*a.shape)
    else:
        v = rng.randn(*a.shape)
    return asarray(np.asarray(v).astype(d))


def _add(x: Any, t: Any, s: float) -> Any:
    return tree_map(lambda a, b: a + s * b, x, t)


def _inner(a: Any, b: Any) -> float:
    la, _ = tree_flatten(a)
    lb, _ = tree_flatten(b)
    total = 0.0
    for x, y in zip(la, lb):
        total += float(np.real(np.sum(np.conj(np.asarray(x, complex)) * np.asarray(y, complex))))
    return total


def _numerical_jvp(
    f: Callable[..., Any], args: Sequence[Any], ts: Sequence[Any], eps: float
) -> Any:
    plus = f(*_add(list(args), list(ts), eps))
    minus = f(*_add(list(args), list(ts), -eps))

    def diff(p: Any, m: Any) -> Any:
        p, m = np.asarray(p), np.asarray(m)
        with np.errstate(invalid="ignore"):
            d = np.where(p == m, 0, p - m)  # inf - inf is 0
        return d / (2 * eps)

    return tree_map(diff, plus, minus)


def _assert_close(x: Any, y: Any, atol: float | None, rtol: float | None, msg: str) -> None:
    lx, tx = tree_flatten(x)
    ly, ty = tree_flatten(y)
    if tx != ty:
        raise AssertionError(f"{msg}: tree structures differ, {tx} and {ty}")
    for a, b in zip(lx, ly):
        np.testing.assert_allclose(
            np.asarray(a, dtype=np.asarray(a).dtype if np.asarray(a).dtype.kind == "c" else float),
            np.asarray(b, dtype=np.asarray(b).dtype if np.asarray(b).dtype.kind == "c" else float),
            atol=_tol(a, atol),
            rtol=_tol(a, rtol),
            err_msg=msg,
        )


def check_jvp(
    f: Callable[..., Any],
    f_jvp: Callable[..., Any],
    args: Sequence[Any],
    atol: float | None = None,
    rtol: float | None = None,
    eps: float = EPS,
) -> None:
    """``f_jvp(args, tangents)`` against central differences of ``f`` along random tangents."""
    rng = np.random.RandomState(0)
    ts = tree_map(lambda x: _rand_like(rng, x), list(args))
    v_out, t_out = f_jvp(tuple(args), tuple(ts))
    _assert_close(v_out, f(*args), atol, rtol, "JVP primal output")
    _assert_close(t_out, _numerical_jvp(f, args, ts, eps), atol, rtol, "JVP tangent")


def check_vjp(
    f: Callable[..., Any],
    f_vjp: Callable[..., Any],
    args: Sequence[Any],
    atol: float | None = None,
    rtol: float | None = None,
    eps: float = EPS,
) -> None:
    """``<t, vjp(c)> == <numerical jvp(t), c>`` for random ``t`` and ``c``."""
    rng = np.random.RandomState(0)
    v_out, vjp_fn = f_vjp(*args)
    _assert_close(v_out, f(*args), atol, rtol, "VJP primal output")
    ts = tree_map(lambda x: _rand_like(rng, x), list(args))
    cs = tree_map(lambda x: _rand_like(rng, x), v_out)
    ct_in = vjp_fn(tree_map(np.conj, cs))
    lhs = _inner(ts, list(tree_map(np.conj, ct_in)))
    rhs = _inner(_numerical_jvp(f, args, ts, eps), cs)
    first = tree_flatten(list(args))[0]
    tol = _tol(first[0], atol) if first else 1e-5
    np.testing.assert_allclose(lhs, rhs, atol=tol, rtol=tol, err_msg="VJP cotangent projection")


def check_grads(
    f: Callable[..., Any],
    args: Sequence[Any],
    order: int,
    modes: Sequence[str] = ("fwd", "rev"),
    atol: float | None = None,
    rtol: float | None = None,
    eps: float | None = None,
) -> None:
    """Checks forward and/or reverse derivatives of ``f`` at ``args`` up to ``order``.

    >>> import trellax.numpy as tnp
    >>> from trellax.test_util import check_grads
    >>> check_grads(tnp.sin, (0.5,), order=2)
    """
    e = EPS if eps is None else eps
    args = tuple(args)

    def check(fun: Callable[..., Any], xs: tuple[Any, ...], n: int) -> None:
        if n <= 0:
            return
        if "fwd" in modes:
            check_jvp(fun, lambda p, t: jvp(fun, p, t), xs, atol, rtol, e)
            if n > 1:
                check(lambda *a: jvp(fun, a, a)[1], xs, n - 1)
        if "rev" in modes:
            check_vjp(fun, lambda *a: vjp(fun, *a), xs, atol, rtol, e)
            if n > 1:

                def f_vjp(*a: Any) -> Any:
                    out, vjp_fn = vjp(fun, *a)
                    return vjp_fn(out)

                check(f_vjp, xs, n - 1)

    check(f, args, order)


__all__ = ["check_grads", "check_jvp", "check_vjp"]
