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

Installed into ``core`` (``core.eval_primitive``) when imported; ``trellax._src.backend.array`` imports it
and sets :data:`new_array` and :data:`array_class`, which this layer must not import.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend import fp_errors
from trellax._src.config import settings as _config
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import DType, Primitive, _current_trace, eval_trace

#: Builds a concrete array from (NumPy value, dtype, weak_type): ``ArrayImpl._new``, with its
#: checks (set by ``trellax._src.backend.array``).
new_array: Callable[[Any, DType, bool], Any] = core._no_array_type
#: The concrete array class (``ArrayImpl``, set with ``new_array``). Its four slots ``_value``,
#: ``dtype``, ``shape``, ``weak_type`` are filled directly on the hot path when the impl returned
#: an ndarray of exactly the abstract dtype (what ``new_array`` would check).
array_class: Any = object
_object_new = object.__new__
_ndarray = np.ndarray

_ERRSTATE = fp_errors.STATE
_IGNORE_FP_ERRORS = fp_errors.IGNORE_ALL


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
    if rule is None or impl is None:
        raise NotImplementedError(f"primitive {prim.name} lacks an impl or abstract-eval rule")
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

        def unary(x: Any) -> Any:
            out_dtype = memo.get(x.dtype)
            if out_dtype is None or _current_trace.get() is not eval_trace:
                return bind(x)
            token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
            try:
                out = prim.impl(x._value)  # type: ignore[misc]
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
    ``x + y``.
    """
    memo = prim.elementwise_dtypes
    assert memo is not None, f"{prim.name} is not an elementwise primitive"

    def operator(x: Any, y: Any) -> Any:
        if type(y) is array_class and type(x) is array_class:
            d = x.dtype
            out_dtype = memo.get(d)
            sx, sy = x.shape, y.shape
            weak_type = x.weak_type
            if (
                out_dtype is not None
                and y.dtype is d
                and y.weak_type is weak_type
                and (sx == sy or not sy or not sx)
                and _current_trace.get() is eval_trace
            ):
                token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
                try:
                    out = prim.impl(x._value, y._value)  # type: ignore[misc]
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


core.eval_primitive = eval_primitive
