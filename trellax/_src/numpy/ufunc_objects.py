"""The ``trellax.numpy`` functions that are :class:`ufunc` objects, as in ``jax.numpy``.

``add``, ``multiply``, ``maximum``, ... are callable as before, and also have the ufunc
methods ``reduce``, ``accumulate``, ``outer``, ``at`` and ``reduceat``. A method maps to the
dedicated reduction where one exists (``add.reduce`` is ``sum``, ``maximum.accumulate`` is
``lax.cummax``, ``multiply.at`` is ``.at[].multiply``), so it is one primitive rather than a
fold, differentiates and batches; the others fold with the generic methods of :class:`ufunc`.
Result dtypes are JAX's (``add.reduce`` of int8 is int32 like ``sum``, ``add.accumulate`` of
int8 stays int8; the bitwise reductions refuse floats).

Each object's class has the plain function as its ``__call__``, so a call costs what the
function costs (plus ~0.08 us); JAX's ``out=None``/``where=None`` call keywords are therefore not
accepted (docs/jax_coverage.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import reductions as lax_reductions
from trellax._src.lax.structural import _convert
from trellax._src.numpy import reductions, shapes, ufuncs
from trellax._src.numpy.reductions import canonicalize_axis
from trellax._src.numpy.selection import where as _where
from trellax._src.numpy.ufunc_class import ufunc
from trellax._src.numpy.util import ensure_array, promote_args_inexact

ArrayLike = Any


_F = TypeVar("_F", bound=Callable[..., Any])


class FunctionUfunc(ufunc, Generic[_F]):
    """A :class:`ufunc` whose call is a plain function ``_F`` (so type checkers see the
    function's own signature)."""

    __call__: _F


def _make(func: _F, nin: int, identity: Any, **methods: Callable[..., Any]) -> FunctionUfunc[_F]:
    # The plain function is the class's ``__call__``: calling the object costs ~0.08 us more
    # than calling the function (a wrapper taking JAX's ``out=None``/``where=None`` keywords
    # cost ~0.3 us, 12 % of an 8-element add), so those keywords are not accepted.
    name = func.__name__
    namespace = {"__call__": staticmethod(func), "__doc__": func.__doc__}
    cls = type(f"_{name}_ufunc", (FunctionUfunc,), namespace)
    obj: FunctionUfunc[_F] = cls(func, nin, 1, name=name, identity=identity, **methods)
    obj.__wrapped__ = func  # type: ignore[attr-defined]
    return obj


def _acc_dtype(x: Array, dtype: Any) -> Any:
    """``add``/``multiply.accumulate`` keep the input dtype (bool counts in the default int)."""
    if dtype is not None:
        return dtype
    return None if x.dtype == dtypes.bool_ else x.dtype


def _cumulative(fn: Callable[..., Array]) -> Callable[..., Array]:
    def accumulate(a: ArrayLike, axis: int, dtype: Any, out: None) -> Array:
        x = ensure_array("accumulate", a)
        return fn(x, axis=axis, dtype=_acc_dtype(x, dtype), out=out)

    return accumulate


def _reduction(fn: Callable[..., Array]) -> Callable[..., Array]:
    def reduce(
        a: ArrayLike, axis: Any, dtype: Any, out: None, keepdims: bool, initial: Any, where: Any
    ) -> Array:
        return fn(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                  where=where)  # fmt: skip

    return reduce


def _same_dtype(method: str, name: str, x: Array, dtype: Any) -> Array:
    """``dtype=`` for the reductions that fold in the input's dtype: only that dtype (JAX raises
    a TypeError for another one)."""
    wanted = None if dtype is None else dtypes.check_user_dtype(dtype, method)
    if wanted is not None and wanted != x.dtype:
        raise TypeError(
            f"{name}.{method}: dtype={wanted} differs from the input's {x.dtype} (only add "
            "and multiply reduce in another dtype)"
        )
    return x


def _extremum(fn: Callable[..., Array], convert_dtype: bool) -> Callable[..., Array]:
    """``maximum``/``minimum.reduce``; JAX 0.10.2 converts to ``dtype=`` for ``minimum`` and
    refuses another dtype for ``maximum`` (observed), and so does trellax."""

    def reduce(
        a: ArrayLike, axis: Any, dtype: Any, out: None, keepdims: bool, initial: Any, where: Any
    ) -> Array:
        x = ensure_array("reduce", a)
        if convert_dtype and dtype is not None:
            x = _convert(x, dtypes.check_user_dtype(dtype, "reduce"), False)
        x = _same_dtype("reduce", fn.__name__, x, dtype)
        return fn(x, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)

    return reduce


def _cum_extremum(prim: Any) -> Callable[..., Array]:
    def accumulate(a: ArrayLike, axis: int, dtype: Any, out: None) -> Array:
        x = ensure_array("accumulate", a)
        if dtype is not None:
            x = _convert(x, dtypes.check_user_dtype(dtype, "accumulate"), False)
        ax = canonicalize_axis(axis, x.ndim)
        return prim.bind(x, axis=ax, reverse=False)  # type: ignore[no-any-return]

    return accumulate


_BOOL_AT = {"add": "max", "multiply": "min"}


def _scatter(method: str, negate: bool = False, promote: bool = False) -> Callable[..., Array]:
    """``ufunc.at`` as the matching ``.at[]`` update; with ``promote`` the result takes the
    ufunc's result dtype first (``maximum.at`` of int32 with 2.5 is float32, as in JAX)."""

    def at(a: ArrayLike, indices: Any, b: ArrayLike | None) -> Array:
        if b is None:
            raise TypeError("binary ufunc.at needs the operand b")
        x = ensure_array("at", a)
        v = ensure_array("at", b)
        if promote:
            joined, weak = dtypes.lattice_result_type(
                (x.dtype, x.weak_type), (v.dtype, v.weak_type)
            )
            x = _convert(x, joined, weak and x.weak_type)
        name = method
        if x.dtype == dtypes.bool_ and method in _BOOL_AT:
            # JAX's add.at/multiply.at of bools are a logical or/and (.at[].add refuses bool)
            name = _BOOL_AT[method]
        return getattr(x.at[indices], name)(ufuncs.negative(v) if negate else v)  # type: ignore[no-any-return]

    return at


def _bitwise_reduce(prim_name: str) -> Callable[..., Array]:
    def reduce(
        a: ArrayLike, axis: Any, dtype: Any, out: None, keepdims: bool, initial: Any, where: Any
    ) -> Array:
        x = ensure_array("reduce", a)
        if x.dtype.kind not in "iub":
            raise ValueError(f"integer argument required; got dtype={x.dtype}")
        x = _same_dtype("reduce", f"bitwise_{prim_name}", x, dtype)
        return _masked_fold(prim_name, x, axis, keepdims, initial, where)

    return reduce


_IDENTITY_FILL = {"and": -1, "or": 0, "xor": 0}


def _masked_fold(kind: str, x: Array, axis: Any, keepdims: bool, initial: Any, where: Any) -> Array:
    """``lax.reduce_and/or/xor`` over ``axis`` with NumPy's ``initial``/``where``."""
    if where is not None:
        fill = True if x.dtype == dtypes.bool_ and kind == "and" else _IDENTITY_FILL[kind]
        fill_arr = _convert(ensure_array("reduce", fill), x.dtype, False)
        x = _where(ensure_array("reduce", where), x, fill_arr)
    axes = _axes(axis, x.ndim)
    prim = {
        "and": lax_reductions.reduce_and_p,
        "or": lax_reductions.reduce_or_p,
        "xor": lax_reductions.reduce_xor_p,
    }[kind]
    r: Array = prim.bind(x, axes=axes)
    if initial is not None:
        init = _convert(ensure_array("reduce", initial), x.dtype, False)
        op = {"and": ufuncs.bitwise_and, "or": ufuncs.bitwise_or, "xor": ufuncs.bitwise_xor}[kind]
        r = _convert(op(r, init), x.dtype, False)
    if keepdims:
        r = shapes.expand_dims(r, axes)
    return r


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):
        return tuple(sorted(canonicalize_axis(a, ndim) for a in axis))
    return (canonicalize_axis(axis, ndim),)


def _logical_reduce(kind: str) -> Callable[..., Array]:
    def reduce(
        a: ArrayLike, axis: Any, dtype: Any, out: None, keepdims: bool, initial: Any, where: Any
    ) -> Array:
        x = _same_dtype("reduce", f"logical_{kind}", ensure_array("reduce", a), dtype)
        x = ufuncs.not_equal(x, 0) if x.dtype != dtypes.bool_ else x
        return _masked_fold(kind, x, axis, keepdims, initial, where)

    return reduce


def _logsumexp_reduce(base2: bool) -> Callable[..., Array]:
    """``logaddexp(2).reduce``: ``m + log(sum(exp(x - m)))`` with ``m`` the maximum (one pass
    of each, where a left fold would be a Python loop); all ``-inf`` gives ``-inf``, a ``+inf``
    gives ``+inf``, NaN propagates."""

    def reduce(
        a: ArrayLike, axis: Any, dtype: Any, out: None, keepdims: bool, initial: Any, where: Any
    ) -> Array:
        x = ensure_array("reduce", a)
        if dtype is not None:
            x = _convert(x, dtypes.check_user_dtype(dtype, "reduce"), False)
        if base2 and x.dtype.kind in "biu":  # JAX 0.10.2 (observed): the default float
            x = _convert(x, dtypes.default_float_dtype(), False)
        (x,) = promote_args_inexact("reduce", x)
        ninf = _convert(ensure_array("reduce", -float("inf")), x.dtype, False)
        if where is not None:
            x = _where(ensure_array("reduce", where), x, ninf)
        axes = _axes(axis, x.ndim)
        if x.size == 0 or any(x.shape[i] == 0 for i in axes):
            r = shapes.broadcast_to(ninf, tuple(s for i, s in enumerate(x.shape) if i not in axes))
        else:
            m = reductions.max(x, axis=axes, keepdims=True)
            finite_m = _where(
                ufuncs.isfinite(m), m, _convert(ensure_array("reduce", 0), x.dtype, False)
            )
            exp, log = (ufuncs.exp2, ufuncs.log2) if base2 else (ufuncs.exp, ufuncs.log)
            s = reductions.sum(exp(ufuncs.subtract(x, finite_m)), axis=axes, keepdims=True)
            r = ufuncs.add(log(s), finite_m)
            r = _where(ufuncs.isinf(m), m, r)  # all -inf stays -inf; +inf (no NaN) is +inf
            r = _where(ufuncs.isnan(m), m, r)
            r = shapes.squeeze(r, axes)
        if initial is not None:
            op = ufuncs.logaddexp2 if base2 else ufuncs.logaddexp
            r = _convert(op(r, ensure_array("reduce", initial)), x.dtype, False)
        return shapes.expand_dims(r, axes) if keepdims else r

    return reduce


add = _make(ufuncs.add, 2, 0, reduce=_reduction(reductions.sum),
            accumulate=_cumulative(reductions.cumsum), at=_scatter("add"))  # fmt: skip
multiply = _make(ufuncs.multiply, 2, 1, reduce=_reduction(reductions.prod),
                 accumulate=_cumulative(reductions.cumprod), at=_scatter("multiply"))  # fmt: skip
subtract = _make(ufuncs.subtract, 2, None, at=_scatter("add", negate=True))
maximum = _make(ufuncs.maximum, 2, None, reduce=_extremum(reductions.max, False),
                accumulate=_cum_extremum(lax_reductions.cummax_p), at=_scatter("max", promote=True))  # fmt: skip
minimum = _make(ufuncs.minimum, 2, None, reduce=_extremum(reductions.min, True),
                accumulate=_cum_extremum(lax_reductions.cummin_p), at=_scatter("min", promote=True))  # fmt: skip
logaddexp = _make(ufuncs.logaddexp, 2, -float("inf"), reduce=_logsumexp_reduce(False))
logaddexp2 = _make(ufuncs.logaddexp2, 2, -float("inf"), reduce=_logsumexp_reduce(True))
logical_and = _make(ufuncs.logical_and, 2, True, reduce=_logical_reduce("and"))
logical_or = _make(ufuncs.logical_or, 2, False, reduce=_logical_reduce("or"))
logical_xor = _make(ufuncs.logical_xor, 2, False, reduce=_logical_reduce("xor"))
bitwise_and = _make(ufuncs.bitwise_and, 2, -1, reduce=_bitwise_reduce("and"))
bitwise_or = _make(ufuncs.bitwise_or, 2, 0, reduce=_bitwise_reduce("or"))
bitwise_xor = _make(ufuncs.bitwise_xor, 2, 0, reduce=_bitwise_reduce("xor"))
negative = _make(ufuncs.negative, 1, None)
