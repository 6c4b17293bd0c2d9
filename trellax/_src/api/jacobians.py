"""Jacobians: ``jacfwd``, ``jacrev`` (``jacobian``) and ``hessian``, vectorized as JAX's.

``jacfwd`` is ``vmap`` of the JVP over the standard basis of all input elements (one batched
forward pass); ``jacrev`` linearizes once and runs ``vmap`` of the transposed linearization over
the standard basis of all output elements; ``hessian`` is ``jacfwd(jacrev(f))``. Blocks have
shape ``out + in`` and the dtype and weak flag of the output (``jacfwd``) or input (``jacrev``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.api.autodiff import (
    _aval,
    _check_input,
    _check_output,
    _Flat,
    _flat_args,
    _linearize_args,
    _zeros_out,
    check_unflatten,
)
from trellax._src.core import core, traceback_filter
from trellax._src.core.core import ShapedArray
from trellax._src.interpreters import ad
from trellax._src.interpreters.batching import batch_flat
from trellax._src.lax.ad_util import Zero, broadcast_to_shape, convert, differentiable, float0
from trellax._src.lax.elementwise import add, eq, real_p
from trellax._src.lax.shapes import moveaxis
from trellax._src.lax.structural import broadcasted_iota, reshape
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten


def _downcast(x: Any, example: ShapedArray) -> Any:
    """A Jacobian block cast to the dtype and weak flag of ``example`` (the output for jacfwd,
    the input for jacrev), taking the real part for a real example, as JAX does."""
    if isinstance(x, np.ndarray) or example.dtype == float0:
        return x

    if x.dtype.kind == "c" and example.dtype.kind != "c":
        x = real_p.bind(x)
    return convert(x, example.dtype, example.weak_type)


def jacfwd(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
) -> Callable[..., Any]:
    """The Jacobian by forward mode (the JVP vectorized over the input's basis); shape
    ``out + in``.

    >>> import trellax, trellax.numpy as tnp
    >>> trellax.jacfwd(lambda x: x * x)(tnp.array([1.0, 2.0]))
    Array([[2., 0.],
           [0., 4.]], dtype=float32)
    """

    @functools.wraps(fun, updated=())
    @traceback_filter.api_boundary
    def jacfun(*args: Any, **kwargs: Any) -> Any:
        f_partial, in_tree, xs = _flat_args(fun, args, kwargs, argnums)
        check_unflatten(in_tree)
        for x in xs:
            d = _aval(x).dtype
            if holomorphic:
                _check_input("jacfwd", _aval(x), True, False)
            elif not (differentiable(d) and d.kind != "c"):
                raise TypeError(
                    "jacfwd requires real-valued inputs (input dtype that is a sub-dtype of "
                    f"np.floating), but got {d.name}. For holomorphic differentiation, pass "
                    "holomorphic=True. For differentiation of non-holomorphic functions involving "
                    "complex inputs or integer inputs, use jax.jvp directly."
                )
        flat = _Flat(f_partial, in_tree, has_aux)
        in_avals = [_aval(x) for x in xs]
        n_basis = sum(a.size for a in in_avals)
        out_t: list[Any] = []
        dims: list[int | None] = []
        aux: Any = None
        # an empty basis still pushes forward (a batch of none), so a primitive without a
        # derivative rule raises as in JAX
        outs, out_t, dims, aux = _pushforward(flat, xs, in_avals, n_basis)
        assert flat.out_tree is not None
        n = flat.n_out
        out_avals = [_aval(o) for o in outs[:n]]
        per_out = []
        for o, oa in enumerate(out_avals):
            per_in = []
            off = 0
            for a in in_avals:
                if a.size == 0 or n_basis == 0 or not differentiable(oa.dtype):
                    # an integer or bool output has a float0 tangent: its block is zeros of the
                    # output's own dtype (JAX's jacfwd gives those too)
                    per_in.append(
                        _zeros_out(ShapedArray._fast(oa.shape + a.shape, oa.dtype, oa.weak_type))
                    )
                    continue
                block = _rows(out_t[o], dims[o], n_basis, off, a.size, oa.shape)
                off += a.size
                per_in.append(_downcast(_columns_last(block, oa.shape, a.shape), oa))
            per_out.append(_jac_tree(in_tree, per_in, argnums))
        jac = tree_unflatten(flat.out_tree, per_out)
        if not has_aux:
            return jac
        return jac, (flat.aux(outs) if aux is None else aux)

    return jacfun


def _pushforward(
    flat: _Flat, xs: list[Any], in_avals: list[ShapedArray], n_basis: int
) -> tuple[list[Any], list[Any], list[int | None], Any]:
    """``vmap`` of the JVP over the standard basis of all inputs (one row per input element):
    the primal outputs, the batched output tangents with their batch axes, and the aux output."""

    basis = _stacked_basis(in_avals, n_basis)
    box: dict[str, Any] = {}

    def push(*ts: Any) -> list[Any]:
        outs, out_t = ad.jvp_flat(flat, xs, list(ts))
        box["n"] = len(outs)
        tangents = [_zeros_out(t.aval) if type(t) is Zero else t for t in out_t]
        aux_leaves, box["aux_tree"] = tree_flatten(flat.aux(outs) if flat.has_aux else None)
        box["n_aux"] = len(aux_leaves)
        return [*outs, *tangents, *aux_leaves]

    res, dims = batch_flat(push, basis, [0] * len(basis), n_basis, None)
    n, n_aux = box["n"], box["n_aux"]
    outs = res[:n]
    aux = tree_unflatten(box["aux_tree"], res[2 * n : 2 * n + n_aux]) if flat.has_aux else None
    return outs, res[n : 2 * n], dims[n : 2 * n], aux


def _stacked_basis(avals: list[ShapedArray], n: int) -> list[Any]:
    """The standard basis of all elements of ``avals`` (``n`` of them): per value, an array of
    shape ``(n, *shape)`` whose rows for that value's elements are one-hot, zero elsewhere."""
    basis = []
    off = 0
    i32 = np.dtype(np.int32)
    for a in avals:
        # built from iotas, so that under eval_shape/jit the (n, size) basis is abstract, never
        # allocated (a (10**6,) input's Jacobian has 10**12 elements)
        rows = broadcasted_iota(i32, (n, a.size), 0)
        cols = broadcasted_iota(i32, (n, a.size), 1)
        hot = eq(rows, add(cols, core.new_array(np.array(off, i32), i32, False)))
        off += a.size
        basis.append(reshape(convert(hot, a.dtype, a.weak_type), (n, *a.shape)))
    return basis


def _rows(
    t: Any, dim: int | None, n: int, start: int, size: int, out_shape: tuple[int, ...]
) -> Any:
    """Rows ``start:start+size`` of the batched tangent ``t`` (batch axis ``dim``, broadcast if
    unbatched), batch axis first."""

    if dim is None:
        return broadcast_to_shape(t, (size, *out_shape))
    t = moveaxis(t, dim, 0)
    return t if (start, size) == (0, n) else t[start : start + size]


def _pullback(
    lin: ad.Linearized, out_avals: list[ShapedArray], n_basis: int
) -> tuple[list[Any], list[int | None]]:
    """``vmap`` of the transposed linearization over the standard basis of all outputs: the
    batched input cotangents (``Zero`` where an input gets none) and their batch axes."""

    basis = _stacked_basis(out_avals, n_basis)
    extra = [Zero(a) for a in lin.out_avals[len(out_avals) :]]
    zero: list[bool] = []

    def pull(*cts: Any) -> list[Any]:
        res = lin.transpose([*cts, *extra])
        zero[:] = [type(c) is Zero for c in res]
        return [c for c in res if type(c) is not Zero]

    res, dims = batch_flat(pull, basis, [0] * len(basis), n_basis, None)
    it, it_d = iter(res), iter(dims)
    cts: list[Any] = []
    out_dims: list[int | None] = []
    for z, a in zip(zero, lin.in_avals):
        cts.append(Zero(a) if z else next(it))
        out_dims.append(None if z else next(it_d))
    return cts, out_dims


def _stack_block(block: Any, out_shape: tuple[int, ...], in_shape: tuple[int, ...]) -> Any:

    return reshape(block, out_shape + in_shape)


def _columns_last(block: Any, out_shape: tuple[int, ...], in_shape: tuple[int, ...]) -> Any:

    return reshape(moveaxis(block, 0, -1), out_shape + in_shape)


def _jac_tree(in_tree: PyTreeDef, per_in: list[Any], argnums: int | Sequence[int]) -> Any:
    t = tree_unflatten(in_tree, per_in)
    return t[0] if isinstance(argnums, int) else t


def jacrev(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., Any]:
    """The Jacobian by reverse mode (the VJP vectorized over the output's basis); shape
    ``out + in``.

    >>> import trellax, trellax.numpy as tnp
    >>> trellax.jacrev(lambda x: tnp.sum(x ** 3))(tnp.array([1.0, 2.0]))
    Array([ 3., 12.], dtype=float32)
    """
    return _jacrev(fun, argnums, has_aux, holomorphic, allow_int, "jacrev")


def jacobian(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
) -> Callable[..., Any]:
    """The Jacobian (reverse mode, as ``jacrev``; a function of its own, as in JAX)."""
    return _jacrev(fun, argnums, has_aux, holomorphic, allow_int, "jacrev")


def _jacrev(
    fun: Callable[..., Any],
    argnums: int | Sequence[int],
    has_aux: bool,
    holomorphic: bool,
    allow_int: bool,
    name: str,
) -> Callable[..., Any]:
    @functools.wraps(fun, updated=())
    @traceback_filter.api_boundary
    def jacfun(*args: Any, **kwargs: Any) -> Any:
        flat, in_tree, xs, outs, lin = _linearize_args(
            fun, args, kwargs, argnums, name, holomorphic, allow_int, has_aux, rebuild_check=True
        )
        assert flat.out_tree is not None
        n = flat.n_out
        in_avals = [_aval(x) for x in xs]
        out_avals = [_aval(o) for o in outs[:n]]
        for oa in out_avals:
            _check_output(name, oa, holomorphic)
        check_unflatten(flat.out_tree)  # JAX's tree_map of the output checks
        n_basis = sum(oa.size for oa in out_avals)
        cts, dims = _pullback(lin, out_avals, n_basis) if n_basis else ([], [])
        per_out = []
        off = 0
        for oa in out_avals:
            per_in = []
            for i, a in enumerate(in_avals):
                if oa.size == 0 or type(cts[i]) is Zero:
                    per_in.append(
                        _zeros_out(ShapedArray._fast(oa.shape + a.shape, a.dtype, a.weak_type))
                    )
                    continue
                block = _rows(cts[i], dims[i], n_basis, off, oa.size, a.shape)
                per_in.append(_downcast(_stack_block(block, oa.shape, a.shape), a))
            off += oa.size
            per_out.append(_jac_tree(in_tree, per_in, argnums))
        jac = tree_unflatten(flat.out_tree, per_out)
        return (jac, flat.aux(outs)) if has_aux else jac

    return jacfun


def hessian(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
) -> Callable[..., Any]:
    """``jacfwd(jacrev(fun))``: second derivatives, shape ``out + in + in``.

    >>> import trellax, trellax.numpy as tnp
    >>> trellax.hessian(lambda x: tnp.sum(x ** 3))(tnp.array([1.0, 2.0]))
    Array([[ 6.,  0.],
           [ 0., 12.]], dtype=float32)
    """
    return jacfwd(
        jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic),
        argnums,
        has_aux=has_aux,
        holomorphic=holomorphic,
    )
