"""Helpers for batch rules (``vmap``): moving, adding and aligning batch axes.

A batch rule gets ``(args, dims)`` where ``dims[i]`` is the axis of ``args[i]`` that holds the
batch, or ``None`` for an operand that is the same for every batch element. Rules run with the
batching trace's parent current, so the ``lax`` calls here compute (or record) the whole batch
at once. See ``trellax._src.interpreters.batching``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core.core import Primitive
from trellax._src.lax import structural as _s

Dims = Sequence[int | None]


def moveaxis(x: Any, src: int, dst: int) -> Any:
    """``x`` with axis ``src`` moved to position ``dst`` (nothing bound if it is there already)."""
    n = x.ndim
    src, dst = src % n, dst % n
    if src == dst:
        return x
    perm = [i for i in range(n) if i != src]
    perm.insert(dst, src)
    return _s.transpose_p.bind(x, permutation=tuple(perm))


def axis_size(args: Sequence[Any], dims: Dims) -> int:
    """The batch size, read from the first batched operand."""
    for a, d in zip(args, dims):
        if d is not None:
            return int(a.shape[d])
    raise ValueError("no batched operand")


def bdim_at_front(x: Any, dim: int | None, size: int) -> Any:
    """``x`` with its batch at axis 0; an unbatched ``x`` is broadcast to ``size`` copies."""
    if dim is None:
        shape = tuple(x.shape)
        return _s.broadcast_in_dim_p.bind(
            x, shape=(size, *shape), broadcast_dimensions=tuple(range(1, len(shape) + 1))
        )
    return moveaxis(x, dim, 0)


def all_at_front(args: Sequence[Any], dims: Dims) -> list[Any]:
    size = axis_size(args, dims)
    return [bdim_at_front(a, d, size) for a, d in zip(args, dims)]


def shift_axes(axes: Sequence[int], dim: int) -> tuple[int, ...]:
    """Axes of an unbatched operand renamed for the batched operand (batch at ``dim``)."""
    return tuple(a + 1 if a >= dim else a for a in axes)


def elementwise_rule(prim: Primitive) -> Callable[..., Any]:
    """The batch rule of an elementwise primitive (equal ranks; 0-d operands broadcast).

    When every batched operand has the batch at one axis and the full rank, and every unbatched
    one is 0-d, the primitive applies as it is and the batch stays where it was. Otherwise the
    batched operands get their batch at axis 0 (0-d ones reshaped to ``(B, 1, ..., 1)``) and
    unbatched non-scalar ones a leading axis of size 1.
    """
    multiple = prim.multiple_results

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, Any]:
        rank = max(a.ndim - (d is not None) for a, d in zip(args, dims))
        first = next(d for d in dims if d is not None)
        if all(
            (a.ndim == 0) if d is None else (d == first and a.ndim == rank + 1)
            for a, d in zip(args, dims)
        ):
            out_dim = first
            new_args = list(args)
        else:
            out_dim = 0
            new_args = []
            for a, d in zip(args, dims):
                if d is None:
                    if a.ndim:
                        a = _s.expand_dims_p.bind(a, dimensions=(0,))
                elif a.ndim == 1 and rank:
                    a = _s.reshape_p.bind(a, new_sizes=(a.shape[0],) + (1,) * rank, dimensions=None)
                else:
                    a = moveaxis(a, d, 0)
                new_args.append(a)
        out = prim.bind_multi(*new_args, **params) if multiple else prim.bind(*new_args, **params)
        return out, ((out_dim,) * len(out) if multiple else out_dim)

    return rule


def leading_rule(prim: Primitive) -> Callable[..., Any]:
    """For primitives that act on trailing axes and map over leading ones (linear algebra, FFT):
    every operand gets the batch at axis 0."""
    multiple = prim.multiple_results

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, Any]:
        new_args = all_at_front(args, dims)
        out = prim.bind_multi(*new_args, **params) if multiple else prim.bind(*new_args, **params)
        return out, ((0,) * len(out) if multiple else 0)

    return rule


def unary_front_rule(prim: Primitive, shift: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """Batch at axis 0 of the single operand; ``shift`` renames the axis parameters."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (x,), (d,) = args, dims
        assert d is not None
        return prim.bind(moveaxis(x, d, 0), **shift(params)), 0

    return rule
