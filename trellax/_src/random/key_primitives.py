"""Typed key arrays as operands of lax primitives: each primitive that only moves or selects
elements runs on the key data (one more trailing axis, of size 2) and the result is wrapped
again, as JAX's extended-dtype rules do; the others raise JAX's ``TypeError``.

``core.bind`` hands a primitive with a key-array operand to :func:`bind_on_keys` (registered
with ``core.register_extended``), eagerly and under every trace alike: the trace then sees
only the rewritten primitive on uint32 data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax import lax
from trellax._src.core import core
from trellax._src.core.core import Primitive
from trellax._src.lax.shapes import expand_dims_p
from trellax._src.random.keys import KEY_DTYPE, PRNGKeyArray, _operand_dtype

_Rule = Callable[[Sequence[Any], dict[str, Any]], Any]
_RULES: dict[Primitive, _Rule] = {}


def _data(x: Any) -> Any:
    return x._base if isinstance(x, PRNGKeyArray) else x


def _rank(x: Any) -> int:
    return len(x.shape)


def _same_params(prim: Primitive) -> _Rule:
    """A primitive whose parameters name only the leading (logical) axes."""

    def rule(args: Sequence[Any], params: dict[str, Any]) -> Any:
        return PRNGKeyArray._wrap(prim.bind(*map(_data, args), **params))

    return rule


def _reshape(args: Sequence[Any], params: dict[str, Any]) -> Any:
    (x,) = args
    dims = params.get("dimensions")
    new = dict(params, new_sizes=(*params["new_sizes"], 2))
    if dims is not None:
        new["dimensions"] = (*dims, _rank(x))
    return PRNGKeyArray._wrap(lax.reshape_p.bind(_data(x), **new))


def _broadcast_in_dim(args: Sequence[Any], params: dict[str, Any]) -> Any:
    x, *dyn = args
    shape = tuple(params["shape"])
    new = dict(
        params,
        shape=(*shape, 2),
        broadcast_dimensions=(*params["broadcast_dimensions"], len(shape)),
    )
    return PRNGKeyArray._wrap(lax.broadcast_in_dim_p.bind(_data(x), *dyn, **new))


def _transpose(args: Sequence[Any], params: dict[str, Any]) -> Any:
    (x,) = args
    perm = (*params["permutation"], _rank(x))
    return PRNGKeyArray._wrap(lax.transpose_p.bind(_data(x), **dict(params, permutation=perm)))


def _concatenate(args: Sequence[Any], params: dict[str, Any]) -> Any:
    if not all(isinstance(a, PRNGKeyArray) for a in args):
        names = ", ".join(str(a.dtype) for a in args)
        raise TypeError(f"concatenate requires arguments of one dtype, got {names}")
    return PRNGKeyArray._wrap(lax.concatenate_p.bind(*map(_data, args), **params))


def _slice(args: Sequence[Any], params: dict[str, Any]) -> Any:
    (x,) = args
    strides = params.get("strides")
    new = dict(
        params,
        start_indices=(*params["start_indices"], 0),
        limit_indices=(*params["limit_indices"], 2),
        strides=None if strides is None else (*strides, 1),
    )
    return PRNGKeyArray._wrap(lax.slice_p.bind(_data(x), **new))


def _zero_index(indices: Sequence[Any]) -> Any:
    d = indices[0].dtype if indices else np.dtype(np.int32)
    return lax.convert_element_type(np.zeros((), np.int32), d)


def _dynamic_slice(args: Sequence[Any], params: dict[str, Any]) -> Any:
    x, *indices = args
    new = dict(params, slice_sizes=(*params["slice_sizes"], 2))
    out = lax.dynamic_slice_p.bind(_data(x), *indices, _zero_index(indices), **new)
    return PRNGKeyArray._wrap(out)


def _dynamic_update_slice(args: Sequence[Any], params: dict[str, Any]) -> Any:
    x, update, *indices = args
    if not (isinstance(x, PRNGKeyArray) and isinstance(update, PRNGKeyArray)):
        raise TypeError(
            "dynamic_update_slice update shape must be smaller than operand shape and of the "
            f"operand's dtype, got operand {x.dtype} and update {update.dtype}"
        )
    out = lax.dynamic_update_slice_p.bind(
        _data(x), _data(update), *indices, _zero_index(indices), **params
    )
    return PRNGKeyArray._wrap(out)


def _gather(args: Sequence[Any], params: dict[str, Any]) -> Any:
    x, indices = args
    dn = params["dimension_numbers"]
    # the trailing key-data axis is one more offset (window) axis, last in the output
    out_rank = _rank(indices) - 1 + len(dn.offset_dims)
    new_dn = dn._replace(offset_dims=(*dn.offset_dims, out_rank))
    new = dict(params, dimension_numbers=new_dn, slice_sizes=(*params["slice_sizes"], 2))
    return PRNGKeyArray._wrap(lax.gather_p.bind(_data(x), indices, **new))


def _scatter(prim: Primitive) -> _Rule:
    def rule(args: Sequence[Any], params: dict[str, Any]) -> Any:
        x, indices, updates = args
        if not (isinstance(x, PRNGKeyArray) and isinstance(updates, PRNGKeyArray)):
            raise TypeError(
                f"{prim.name} requires an operand and updates of one dtype, got {x.dtype} and "
                f"{updates.dtype}"
            )
        dn = params["dimension_numbers"]
        new_dn = dn._replace(update_window_dims=(*dn.update_window_dims, _rank(updates)))
        new = dict(params, dimension_numbers=new_dn)
        return PRNGKeyArray._wrap(prim.bind(_data(x), indices, _data(updates), **new))

    return rule


def _select_n(args: Sequence[Any], params: dict[str, Any]) -> Any:
    which, *cases = args
    if not all(isinstance(c, PRNGKeyArray) for c in cases):
        names = ", ".join(str(c.dtype) for c in cases)
        raise TypeError(f"select_n cases must have the same dtypes, got [{names}].")
    if which.shape:  # the predicate chooses whole keys: broadcast along the key data
        shape = tuple(which.shape)
        which = lax.broadcast_in_dim(which, (*shape, 2), tuple(range(len(shape))))
    return PRNGKeyArray._wrap(lax.select_n_p.bind(which, *map(_data, cases), **params))


def _compare(reduce_all: bool) -> _Rule:
    def rule(args: Sequence[Any], params: dict[str, Any]) -> Any:
        a, b = args
        if not (isinstance(a, PRNGKeyArray) and isinstance(b, PRNGKeyArray)):
            name = "eq" if reduce_all else "ne"
            raise TypeError(f"{name} does not accept dtypes {a.dtype}, {b.dtype}.")
        da, db = _data(a), _data(b)
        shape = tuple(np.broadcast_shapes(tuple(da.shape), tuple(db.shape)))
        if tuple(da.shape) != shape:
            da = lax.broadcast_in_dim(
                da, shape, tuple(range(len(shape) - len(da.shape), len(shape)))
            )
        if tuple(db.shape) != shape:
            db = lax.broadcast_in_dim(
                db, shape, tuple(range(len(shape) - len(db.shape), len(shape)))
            )
        if reduce_all:
            return lax.reduce_and(lax.eq(da, db), (len(shape) - 1,))
        return lax.reduce_or(lax.ne(da, db), (len(shape) - 1,))

    return rule


def _convert_element_type(args: Sequence[Any], params: dict[str, Any]) -> Any:
    (x,) = args
    new = params["new_dtype"]
    if new == KEY_DTYPE:
        return x
    raise ValueError(f"Cannot convert_element_type from {KEY_DTYPE} to {np.dtype(new)}")


_RULES.update(
    {
        lax.reshape_p: _reshape,
        lax.broadcast_in_dim_p: _broadcast_in_dim,
        lax.transpose_p: _transpose,
        lax.concatenate_p: _concatenate,
        lax.slice_p: _slice,
        lax.dynamic_slice_p: _dynamic_slice,
        lax.dynamic_update_slice_p: _dynamic_update_slice,
        lax.gather_p: _gather,
        lax.scatter_p: _scatter(lax.scatter_p),
        lax.select_n_p: _select_n,
        lax.squeeze_p: _same_params(lax.squeeze_p),
        lax.rev_p: _same_params(lax.rev_p),
        expand_dims_p: _same_params(expand_dims_p),
        lax.eq_p: _compare(True),
        lax.ne_p: _compare(False),
        lax.convert_element_type_p: _convert_element_type,
    }
)


def bind_on_keys(prim: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
    """``prim`` applied to operands some of which are key arrays (see the module docstring)."""
    rule = _RULES.get(prim)
    if rule is None:
        n = sum(isinstance(a, PRNGKeyArray) for a in args)
        names = ", ".join(_operand_dtype(a) for a in args)
        if n == len(args):
            raise TypeError(f"{prim.name} does not accept dtype {names.split(', ')[0]}.")
        raise TypeError(f"{prim.name} does not accept dtypes {names}.")
    return rule(args, params)


core.register_extended((PRNGKeyArray,), bind_on_keys)
