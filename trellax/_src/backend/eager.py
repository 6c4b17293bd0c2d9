"""Eager evaluation: a primitive applied to concrete arrays, and the shortcuts that make a small
operation cheap.

:func:`eval_primitive` is what ``Primitive.bind`` does under the evaluation trace: the
abstract-eval rule decides the result's dtype and weak flag (and raises the errors), the NumPy impl
computes with NumPy's floating-point errors silenced for the call only, and the result is wrapped.
The rule's verdict is memoized where that is cheaper than running it: per operand dtype for
elementwise primitives (``Primitive.elementwise_dtypes``), per (config, operand types and shapes,
parameters) for rules with parameters (:func:`cached_abstract_eval`). :func:`fast_bind` and
:func:`fast_operator` give ``trellax.numpy``'s ufuncs and operators the same evaluation without
``bind``'s layers. See ``docs/architecture.md`` ("Where the time goes").

It also owns every shortcut on concrete arrays that bypasses the primitives (a basic-index view,
a 2-D matmul, a materialized fill, a reshape view, wrapping a host value): the numpy layer asks
for them here and never touches ``ArrayImpl``'s buffer or the backend itself. It tests
``type(x) is ConcreteArray`` (the class of concrete arrays) for its fast paths, builds arrays with
:data:`wrap` and reads a buffer with :func:`buffer`.

Installed into ``core`` (``core.eval_primitive``) when imported (``lax._base`` imports it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend import fp_errors, threads
from trellax._src.backend import linspace_xla as linspace_xla  # JAX's linspace samples
from trellax._src.backend.array import ArrayImpl
from trellax._src.backend.convert import convert as _convert_values
from trellax._src.backend.division import xla_reciprocal as xla_reciprocal
from trellax._src.backend.numpy import MATMUL_2D as MATMUL_2D
from trellax._src.config import settings as _config
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import DType, Primitive, _current_trace, eval_trace

#: The class of concrete arrays (``ArrayImpl``): ``type(x) is ConcreteArray`` is the test every
#: eager fast path makes (a tracer or another ``Array`` takes the general path).
ConcreteArray = ArrayImpl
#: Builds a concrete array from (NumPy value, dtype, weak_type), with ``ArrayImpl._new``'s checks
#: (the buffer must be one the library owns: never one a user still holds).
new_array: Callable[[Any, DType, bool], Any] = ArrayImpl._new
#: :data:`new_array` under the name the numpy layer uses: wraps a host value it computed.
wrap = ArrayImpl._new
#: The concrete array class on the hot path: its four slots ``_value``, ``dtype``, ``shape``,
#: ``weak_type`` are filled directly when the impl returned an ndarray of exactly the abstract
#: dtype (what ``new_array`` would check).
array_class: Any = ArrayImpl
_object_new = object.__new__
_ndarray = np.ndarray

_ERRSTATE = fp_errors.STATE
_IGNORE_FP_ERRORS = fp_errors.IGNORE_ALL
#: NumPy ufunc impls (``np.add``) run in fp_errors' quiet context, ~150 ns cheaper than setting
#: and resetting the error state; other impls (Python code) and a busy context take the variable.
_RUN_QUIET = fp_errors.RUN_QUIET
_call_quiet = fp_errors.call_quiet
_ufunc = np.ufunc


def eval_primitive(prim: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
    """Evaluates ``prim`` on concrete arrays: the abstract-eval rule decides dtype and weak flag
    (and raises the errors), the NumPy impl computes with NumPy's floating-point errors silenced
    for the call only (:mod:`trellax._src.backend.fp_errors`, inlined: this is the eager hot path), and
    the result is wrapped with the rule's dtype and weak flag.

    The rule's verdict is memoized: for elementwise primitives on one dtype (and equal shapes or
    a 0-d operand) in ``prim.elementwise_dtypes`` (see :class:`Primitive`), for calls with
    parameters by :func:`cached_abstract_eval`.
    """
    rule = prim.abstract_eval_rule
    impl = prim.impl
    if impl is None:  # JAX's words for a primitive defined without its rules
        raise NotImplementedError(f"Evaluation rule for '{prim.name}' not implemented")
    if rule is None:
        raise NotImplementedError(f"Abstract evaluation for '{prim.name}' not implemented")
    memo = prim.elementwise_dtypes
    n = len(args)
    if memo is not None and not params and n == 2:  # unrolled: the eager hot path
        x, y = args
        d = x.dtype
        sx, sy = x.shape, y.shape
        if y.dtype is d and (sx == sy or not sy or not sx):  # a 0-d operand broadcasts
            out_dtype = memo.get(d)
            if out_dtype is None:
                out_dtype = memo[d] = rule(x, y).dtype
            weak_type = x.weak_type and y.weak_type
        else:
            out_aval = rule(x, y)
            out_dtype, weak_type = out_aval.dtype, out_aval.weak_type
        if type(impl) is _ufunc:
            try:
                out = _RUN_QUIET(impl, x._value, y._value)
            except RuntimeError:  # the quiet context is busy: another thread is in it
                out = _call_quiet(impl, x._value, y._value)
        else:
            token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
            try:
                out = impl(x._value, y._value)
            finally:
                _ERRSTATE.reset(token)
    elif memo is not None and not params and n == 1:
        (x,) = args
        d = x.dtype
        out_dtype = memo.get(d)
        if out_dtype is None:
            out_dtype = memo[d] = rule(x).dtype
        weak_type = x.weak_type
        if type(impl) is _ufunc:
            try:
                out = _RUN_QUIET(impl, x._value)
            except RuntimeError:  # the quiet context is busy: another thread is in it
                out = _call_quiet(impl, x._value)
        else:
            token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
            try:
                out = impl(x._value)
            finally:
                _ERRSTATE.reset(token)
    else:
        # a rule with parameters (reductions, shapes, casts) costs more than the memo's key
        out_aval = cached_abstract_eval(prim, args, params) if params else rule(*args)
        values = [a._value for a in args]
        if prim.impl_fp_free:
            out = impl(*values, **params) if params else impl(*values)
        else:
            token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
            try:
                out = impl(*values, **params) if params else impl(*values)
            finally:
                _ERRSTATE.reset(token)
        if prim.multiple_results:
            return tuple(new_array(o, v.dtype, v.weak_type) for o, v in zip(out, out_aval))
        out_dtype, weak_type = out_aval.dtype, out_aval.weak_type
    if type(out) is _ndarray and out.dtype is out_dtype:  # new_array, inlined
        a: Any = _object_new(array_class)
        a._value = out
        a.dtype = out_dtype
        a.shape = out.shape
        a.weak_type = weak_type
        return a
    return new_array(out, out_dtype, weak_type)


def fast_bind(prim: Primitive, nargs: int) -> Callable[..., Array]:
    """``prim.bind`` for ``nargs`` (1 or 2) positional operands, with an eager shortcut for
    elementwise primitives (those with ``elementwise_dtypes``): concrete operands of one dtype,
    of equal shapes or one of them 0-d, whose dtype the rule has accepted before, go straight to
    the impl; anything else (a trace, a new dtype, mixed dtypes, broadcasting) is ``bind``.

    The shortcut is :func:`eval_primitive`'s own fast path without the layers in between (bind's
    argument packing, the trace dispatch, the generic checks): ~0.4 us of a ~1.8 us eager op.
    """
    memo = prim.elementwise_dtypes
    bind = prim.bind
    if memo is None:
        return bind

    if nargs == 1:
        impl: Any = prim.impl
        quiet_ufunc = type(impl) is _ufunc

        def unary(x: Any) -> Any:
            out_dtype = memo.get(x.dtype)
            if (
                out_dtype is None
                or type(x) is not array_class  # a typed-sharding array, a tracer
                or _current_trace.get() is not eval_trace
            ):
                return bind(x)
            if quiet_ufunc:
                try:
                    out = _RUN_QUIET(impl, x._value)
                except RuntimeError:  # the quiet context is busy: another thread is in it
                    out = _call_quiet(impl, x._value)
            else:
                token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
                try:
                    out = impl(x._value)
                finally:
                    _ERRSTATE.reset(token)
            if type(out) is _ndarray and out.dtype is out_dtype:  # new_array, inlined
                a: Any = _object_new(array_class)
                a._value = out
                a.dtype = out_dtype
                a.shape = out.shape
                a.weak_type = x.weak_type
                return a
            return new_array(out, out_dtype, x.weak_type)

        unary.__name__ = f"{prim.name}_fast_bind"
        return unary

    # two operands: the operator's shortcut, with bind as the fallback (operands of one weak
    # flag; mixed flags are rare and take bind)
    binary = fast_operator(prim, bind)
    binary.__name__ = f"{prim.name}_fast_bind"
    return binary


def fast_operator(
    prim: Primitive, fallback: Callable[[Any, Any], Any]
) -> Callable[[Any, Any], Any]:
    """An operator method (``Array.__add__``) for an elementwise primitive: two concrete arrays
    of one dtype and one weak flag, of equal shapes or one of them 0-d, whose dtype the rule has
    accepted before, are evaluated here at once (the numpy layer's promotion of two equal types
    is the identity, and lax broadcasts 0-d operands); everything else is ``fallback(x, y)``.

    The same shortcut as :func:`fast_bind`, one Python call shallower: this is the whole path of
    ``x + y``. Two tables hold the rule's verdicts: dtypes in ``table`` are computed by a NumPy
    ufunc in the quiet context (``fp_errors.RUN_QUIET``), those in ``apart`` by the impl with the
    error-state variable set. An impl that is a ufunc puts every dtype in ``table``, one written in
    Python every dtype in ``apart`` (both tables are then the primitive's own memo); an impl with
    a ``real_ufunc`` (``mul``: XLA's complex product) sends complex dtypes to itself and the
    others to that ufunc, tables learned from the verdicts the fallback's rule gave.
    """
    memo = prim.elementwise_dtypes
    assert memo is not None, f"{prim.name} is not an elementwise primitive"
    impl: Any = prim.impl
    real: Any = getattr(impl, "real_ufunc", None)
    learn = real is not None
    table: dict[DType, DType] = {}
    apart: dict[DType, DType] = {}
    if type(impl) is _ufunc:
        real, table = impl, memo
    elif not learn:
        apart = memo

    def operator(x: Any, y: Any) -> Any:
        if type(y) is array_class and type(x) is array_class:
            d = x.dtype
            out_dtype = table.get(d)
            kernel = real
            if out_dtype is None:
                out_dtype = apart.get(d)
                kernel = impl
            sx, sy = x.shape, y.shape
            weak_type = x.weak_type
            if (
                out_dtype is not None
                and y.dtype is d
                and y.weak_type is weak_type
                and (sx == sy or not sy or not sx)
                and _current_trace.get() is eval_trace
            ):
                if kernel is real:  # NumPy's ufunc: in the quiet context
                    try:
                        out = _RUN_QUIET(real, x._value, y._value)
                    except RuntimeError:  # the quiet context is busy: another thread is in it
                        out = _call_quiet(real, x._value, y._value)
                else:
                    token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
                    try:
                        out = kernel(x._value, y._value)
                    finally:
                        _ERRSTATE.reset(token)
                if type(out) is _ndarray and out.dtype is out_dtype:  # new_array, inlined
                    a: Any = _object_new(array_class)
                    a._value = out
                    a.dtype = out_dtype
                    a.shape = out.shape
                    a.weak_type = weak_type
                    return a
                return new_array(out, out_dtype, weak_type)
            if out_dtype is None and learn:
                out = fallback(x, y)
                if d in memo:  # the verdict the fallback's rule gave (now or before)
                    (apart if getattr(d, "kind", "c") == "c" else table)[d] = memo[d]
                return out
        return fallback(x, y)

    return operator


def cached_abstract_eval(prim: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
    """``prim.abstract_eval_rule(*args, **params)``, memoized on what a rule may read.

    A rule's result depends only on its operands' abstract values (shape, dtype, weak flag), the
    parameters and the configuration (value-independence, DESIGN.md), so that triple, with the
    primitive, is the key; the configuration is the whole :class:`~trellax._src.config.settings.State`
    (x64 and promotion mode). Only successful results are stored: a call that raises raises
    every time. Parameters that cannot be hashed (a rare callable or list) skip the memo.
    """
    rule = prim.abstract_eval_rule
    assert rule is not None
    st = _config._local_state.get() or _config._global_state[0]
    if len(args) == 1:
        (x,) = args
        memo_key: tuple[Any, ...] = (
            prim,
            st,
            x.dtype,
            x.weak_type,
            x.shape,
            *params.items(),
        )
    else:
        memo_key = (
            prim,
            st,
            *[(a.dtype, a.weak_type, a.shape) for a in args],
            *params.items(),
        )
    try:
        return _ABSTRACT_EVAL_MEMO[memo_key]
    except KeyError:
        out = rule(*args, **params)
    except TypeError:  # an unhashable parameter
        return rule(*args, **params)
    if len(_ABSTRACT_EVAL_MEMO) > 8192:
        _ABSTRACT_EVAL_MEMO.clear()
    _ABSTRACT_EVAL_MEMO[memo_key] = out
    return out


_ABSTRACT_EVAL_MEMO: dict[tuple[Any, ...], Any] = {}


# -- shortcuts on concrete arrays (the numpy layer's fast paths) ----------------------------------


def buffer(x: Any) -> np.ndarray[Any, Any]:
    """The NumPy buffer of the concrete array ``x`` (read-only by contract: arrays are
    immutable)."""
    value: np.ndarray[Any, Any] = x._value
    return value


def host_convert(values: np.ndarray[Any, Any], dtype: DType) -> Any:
    """Host values converted to ``dtype`` as ``convert_element_type`` converts them (JAX's
    saturating float -> int rule): the backend's conversion, for values made on the host."""
    return _convert_values(values, dtype)


def basic_view(x: Any, idx: Any) -> ArrayImpl | None:
    """``x[idx]`` of the concrete array ``x`` with a basic index (ints, slices, None, Ellipsis)
    as a view of its immutable buffer (a NumPy scalar, for an int of a 1-D array, as a 0-d
    array), with ``x``'s dtype and weak flag; None when NumPy refuses the index (out of bounds:
    the caller clamps, as JAX does)."""
    try:
        value = x._value[idx]
    except IndexError:
        return None
    return ArrayImpl._new(value, x.dtype, x.weak_type)


def getitem_method(general: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``Array.__getitem__``: an int, a slice or a tuple of slices and ints of a concrete array
    is :func:`basic_view`, inlined (``x[1:3]`` on a small array is dominated by calls);
    everything else, out-of-bounds ints included, is ``general(x, idx)``."""

    def getitem(self: Any, idx: Any) -> Any:
        t = type(idx)
        if type(self) is ArrayImpl and (
            t is slice
            or t is int
            or (t is tuple and all(type(i) is slice or type(i) is int for i in idx))
        ):
            try:
                value = self._value[idx]
            except IndexError:
                return general(self, idx)
            if type(value) is _ndarray:
                a: Any = _object_new(ArrayImpl)
                a._value = value
                a.dtype = self.dtype
                a.shape = value.shape
                a.weak_type = self.weak_type
                return a
            return ArrayImpl._new(value, self.dtype, self.weak_type)  # a NumPy scalar: 0-d
        return general(self, idx)

    return getitem


def reshape_view(x: Any, shape: tuple[int, ...]) -> ArrayImpl:
    """The concrete array ``x`` reshaped as a view of its immutable buffer."""
    return ArrayImpl._new(x._value.reshape(shape), x.dtype, x.weak_type)


def full(fill: Any, shape: tuple[int, ...]) -> ArrayImpl:
    """A buffer of ``shape`` filled with the concrete 0-d ``fill``, with its dtype and weak flag."""
    return ArrayImpl._new(np.full(shape, fill._value, fill.dtype), fill.dtype, fill.weak_type)


def materialize(x: Any) -> ArrayImpl:
    """A copy of the concrete array ``x`` in a buffer of its own (never a stride-0 view that
    every later operation would walk in full)."""
    return ArrayImpl._new(np.array(x._value), x.dtype, x.weak_type)


#: Types whose 2-D product the backend computes as ``np.matmul`` in the type itself (see
#: ``backend.numpy.dot_general``): not bool, float16 or ml_dtypes' types.
_MATMUL_TYPES = frozenset(
    np.dtype(t)
    for t in (
        *("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
        *("float32", "float64", "complex64", "complex128"),
    )
)
#: (config, dtype, weak flag) -> the dot_general rule's result (its dtype and weak flag): the
#: rule's verdict depends on nothing else for two 2-D operands of one type (cheaper than
#: :func:`cached_abstract_eval`'s key of shapes and parameters).
_MATMUL_RULE: dict[Any, Any] = {}


def matmul_2d(a: Any, b: Any, dot_general: Primitive) -> ArrayImpl | None:
    """``a @ b`` of two concrete 2-D arrays of one type and weak flag, evaluated at once: the
    eager evaluation of ``dot_general`` (promotion of equal types is the identity) without the
    layers between (promotion, ``bind``, the rule's memo key), computed by the backend kernel's
    own first branch (``np.matmul``). None: not this case."""
    d = a.dtype
    sa, sb = a.shape, b.shape
    weak = a.weak_type
    if (
        b.dtype is not d
        or b.weak_type is not weak
        or len(sa) != 2
        or len(sb) != 2
        or sa[1] != sb[0]
        or d not in _MATMUL_TYPES
        or _current_trace.get() is not eval_trace
    ):
        return None
    key = (_config._local_state.get() or _config._global_state[0], d, weak)
    out_aval = _MATMUL_RULE.get(key)
    if out_aval is None:
        rule = dot_general.abstract_eval_rule
        assert rule is not None
        out_aval = rule(a, b, dimension_numbers=MATMUL_2D, preferred_element_type=d)
        _MATMUL_RULE[key] = out_aval
    token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
    try:
        out = threads.matmul(a._value, b._value)
    finally:
        _ERRSTATE.reset(token)
    return ArrayImpl._new(out, out_aval.dtype, out_aval.weak_type)


def select2(which: Any, on_false: Any, on_true: Any, select_n: Primitive) -> ArrayImpl | None:
    """``select_n(which, on_false, on_true)`` of concrete arrays the caller has checked (a bool
    ``which``, two cases of one dtype, weak flag and shape, all of one shape), evaluated at once:
    the rule's verdict is the cases' type, and the impl moves data only (no error state). None
    under a trace."""
    if _current_trace.get() is not eval_trace:
        return None
    impl: Any = select_n.impl
    out = impl(which._value, on_false._value, on_true._value)
    d = on_true.dtype
    if type(out) is _ndarray and out.dtype is d:  # new_array, inlined
        a: Any = _object_new(array_class)
        a._value = out
        a.dtype = d
        a.shape = out.shape
        a.weak_type = on_true.weak_type
        return a  # type: ignore[no-any-return]
    return new_array(out, d, on_true.weak_type)  # type: ignore[no-any-return]


core.eval_primitive = eval_primitive
