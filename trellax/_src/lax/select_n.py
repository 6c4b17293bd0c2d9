"""``select_n`` (and ``select``): the elementwise choice between cases, with all its rules.

It sits below the elementwise, indexing and structural modules, which all build their rules with
it; :mod:`trellax._src.lax.structural` re-exports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.backend import numpy as backend
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, ShapedArray
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, check_same_dtypes, elementwise_shape
from trellax._src.lax.shapes import _aval, _prim, def_elementwise

select_n_p = _prim("select_n", backend.select_n, fp_free=True)
def_elementwise(select_n_p, fusable=True)


@select_n_p.def_abstract_eval
def _select_n_abstract_eval(which: AbstractValue, *cases: AbstractValue) -> ShapedArray:
    if len(cases) == 2:  # the common case (where): one bool predicate, two cases of one type
        f, t = cases
        d = f.dtype
        s = f.shape
        if which.dtype is dtypes.bool_ and t.dtype is d and which.shape == s and t.shape == s:
            return ShapedArray._fast(tuple(s), d, f.weak_type and t.weak_type)
    if not cases:
        raise ValueError("select_n requires at least one case")
    if which.dtype != dtypes.bool_ and dtypes.kind(which.dtype) not in ("i", "u"):
        raise TypeError(f"select_n which must be boolean or integer type, got {which.dtype.name}.")
    if which.dtype == dtypes.bool_ and len(cases) > 2:
        raise TypeError("select_n with a boolean predicate takes at most two cases")
    check_same_dtypes("select", cases)  # JAX's message names lax.select
    shapes = [tuple(c.shape) for c in cases]
    shape = elementwise_shape("select_n", tuple(which.shape), *shapes)
    return _aval(shape, cases[0].dtype, all(c.weak_type for c in cases))


def select_n(which: ArrayLike, *cases: ArrayLike) -> Array:
    """``cases[which]`` elementwise; a bool ``which`` picks ``cases[1]`` where True."""
    if len(cases) == 1:
        # JAX's shortcut: one case is the answer (only the shapes are checked)
        w, (c,) = asarray(which), [asarray(x) for x in cases]
        if w.ndim and tuple(w.shape) != tuple(c.shape):
            raise TypeError(f"select_n: which shape {tuple(w.shape)} != case shape {c.shape}")
        return c
    return select_n_p.bind(asarray(which), *[asarray(c) for c in cases])


def select(pred: ArrayLike, on_true: ArrayLike, on_false: ArrayLike) -> Array:
    """``on_true`` where ``pred`` else ``on_false`` (``select_n`` with the cases swapped)."""
    return select_n(pred, on_false, on_true)


# -- differentiation rules


def core_get_aval(x: Any) -> ShapedArray:
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)


def _select_n_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    which, *cases = primals
    ans = select_n_p.bind(which, *cases)
    ts = [ad_util.instantiate(t) for t in tangents[1:]]
    shape = tuple(ans.shape)
    ts = [ad_util.broadcast_to_shape(t, shape) for t in ts]
    return ans, select_n_p.bind(which, *ts)


def _select_n_transpose(ct: Any, which: Any, *cases: Any) -> list[Any]:
    if ad_util.is_undefined(which):
        raise TypeError("select_n is not linear in its predicate")
    zeros = ad_util.zeros(core_get_aval(ct))
    out: list[Any] = [None]
    for i, c in enumerate(cases):
        if ad_util.is_undefined(c):
            picked = select_n_p.bind(which, *[ct if j == i else zeros for j in range(len(cases))])
            out.append(ad_util.unbroadcast(picked, c.aval))
        else:
            out.append(None)
    return out


select_n_p.def_jvp(_select_n_jvp)
select_n_p.def_transpose(_select_n_transpose)
