"""Elementwise primitives made by :func:`naryop`: dtype checks, JAX's shape rule, the weak flag,
the NumPy kernel, and the elementwise batch rule, in one call.

A primitive made here is marked ``elementwise`` (and, when asked, ``fusable``) and gets
:func:`~trellax._src.lax.shapes.elementwise_rule` as its batch rule, so the fusion planner, the
batch-rule coverage test and the error hints read one flag instead of keeping their own lists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend.numpy import Impl
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.lax._base import (
    Category,
    check_dtype,
    check_same_dtypes,
    elementwise_shape,
)
from trellax._src.lax.shapes import def_elementwise

DType = np.dtype[Any]


def naryop(
    name: str,
    kernel: Impl,
    accepted: Sequence[Category],
    *,
    result_dtype: Callable[[DType], DType] | None = None,
    same_dtypes: bool = True,
    weak_rule: Callable[[Sequence[AbstractValue]], bool] | None = None,
    fusable: bool = True,
) -> Primitive:
    """Defines an elementwise primitive computed by ``kernel`` (its NumPy impl): dtype checks, shapes by :func:`elementwise_shape`, weak
    flag = all inputs weak.

    ``result_dtype`` maps the (first) operand dtype to the result's (comparisons give bool,
    ``abs`` of complex gives the real type); default: unchanged. It must be a pure function of
    the dtype (never read the configuration): the evaluation trace memoizes its answer per dtype
    (``Primitive.elementwise_dtypes``).

    The primitive is marked elementwise with its batch rule (:func:`def_elementwise`);
    ``fusable`` (see there) is False for kernels that loop in Python or compute in float64.
    """
    prim = Primitive(name)
    prim.def_impl(kernel)
    def_elementwise(prim, fusable=fusable)
    nargs = len(accepted)
    sets = [c.dtypes for c in accepted]
    new_aval = ShapedArray._fast

    def check(avals: Sequence[AbstractValue]) -> None:
        if len(avals) != nargs:
            raise TypeError(f"{name} takes {nargs} operand(s), got {len(avals)}")
        for i, (a, cat) in enumerate(zip(avals, accepted)):
            if a.dtype not in cat:
                check_dtype(name, a.dtype, cat, None if nargs == 1 else i)
        if same_dtypes and nargs > 1:
            check_same_dtypes(name, avals)

    if weak_rule is None and (same_dtypes or nargs == 1):
        # the rule below is "one dtype in, result dtype a function of it, weak iff all operands
        # are": the evaluation trace may memoize its dtype verdict (eager.eval_primitive)
        prim.elementwise_dtypes = {}

    if nargs == 1:
        (ok,) = sets

        def abstract_eval_unary(x: AbstractValue) -> ShapedArray:
            d = x.dtype
            if d not in ok:
                check((x,))
            return new_aval(x.shape, d if result_dtype is None else result_dtype(d), x.weak_type)

        prim.def_abstract_eval(abstract_eval_unary)
        return prim

    if nargs == 2 and same_dtypes and weak_rule is None:
        ok0, ok1 = sets

        def abstract_eval_binary(x: AbstractValue, y: AbstractValue) -> ShapedArray:
            d = x.dtype
            if d not in ok0 or (y.dtype is not d and (y.dtype != d or y.dtype not in ok1)):
                check((x, y))
            sx, sy = x.shape, y.shape
            shape = sx if sx == sy else elementwise_shape(name, sx, sy)
            out = d if result_dtype is None else result_dtype(d)
            return new_aval(shape, out, x.weak_type and y.weak_type)

        prim.def_abstract_eval(abstract_eval_binary)
        return prim

    def abstract_eval(*avals: AbstractValue) -> ShapedArray:
        check(avals)
        shapes = [a.shape for a in avals]
        shape = elementwise_shape(name, *shapes)
        weak = all(a.weak_type for a in avals) if weak_rule is None else weak_rule(avals)
        first = avals[0].dtype
        out_dtype = first if result_dtype is None else result_dtype(first)
        return new_aval(tuple(shape), out_dtype, weak)

    prim.def_abstract_eval(abstract_eval)
    return prim
