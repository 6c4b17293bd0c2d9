"""``linear_transpose``: the transpose of a linear function, by tracing it to a jaxpr and
running the backward pass of reverse mode over it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.api.api import _leaf_aval
from trellax._src.api.autodiff import _as_array, _aval, _Flat, _fun_name, _zeros_out
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import ad
from trellax._src.interpreters.tracing import trace_to_jaxpr
from trellax._src.lax.ad_util import Zero
from trellax._src.tree.tree_util import tree_flatten, tree_unflatten


def linear_transpose(
    fun: Callable[..., Any], *primals: Any, reduce_axes: Sequence[Any] = ()
) -> Callable[..., tuple[Any, ...]]:
    """The transpose of the linear function ``fun`` at inputs shaped like ``primals``.

    >>> import trellax, trellax.numpy as tnp
    >>> t = trellax.linear_transpose(lambda x: 2 * x, 1.0)
    >>> t(3.0)
    (Array(6., dtype=float32, weak_type=True),)
    """

    leaves, in_tree = tree_flatten(primals)
    in_avals = [
        _leaf_aval(x, functools.partial("primals[{}]".format, i), duck=True)
        for i, x in enumerate(leaves)
    ]
    flat = _Flat(fun, in_tree, False)
    closed = trace_to_jaxpr(flat, in_avals, _fun_name(fun))
    assert flat.out_tree is not None
    out_tree = flat.out_tree
    out_avals = closed.out_avals
    kinds = {dtypes.kind(a.dtype) for a in [*in_avals, *out_avals]}
    if not (kinds <= {"f", "c"} or kinds <= {"i", "u"}):
        # JAX's rule: inexact to inexact, or integer to integer (a linear map of integers)
        raise TypeError(
            "linear_transpose only supports [float or complex] -> [float or complex], and "
            "integer -> integer functions, but got "
            f"{[a.dtype.name for a in in_avals]} -> {[a.dtype.name for a in out_avals]}."
        )

    def transposed(*cts: Any) -> tuple[Any, ...]:
        ct_tree_arg = cts[0] if len(cts) == 1 else cts
        ct_leaves, ct_tree = tree_flatten(ct_tree_arg)
        if ct_tree != out_tree:
            raise TypeError(
                f"cotangent tree does not match function output, got {ct_tree} and {out_tree}"
            )
        for c, a in zip(ct_leaves, out_avals):
            ca = _aval(c)
            if ca.shape != a.shape or ca.dtype != a.dtype:
                raise TypeError(f"cotangent type does not match function output, got {ca} and {a}")
        res = ad.backward_pass(closed, in_avals, [_as_array(c) for c in ct_leaves])
        out: tuple[Any, ...] = tree_unflatten(
            in_tree, [_zeros_out(a) if type(c) is Zero else c for c, a in zip(res, in_avals)]
        )
        return out

    return transposed
