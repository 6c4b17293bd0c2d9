"""optax 0.2.8's ``microbatching``: a function of a batch evaluated on consecutive microbatches
whose results are combined by an accumulator (sum, mean, running mean or concatenation), and the
per-example ``vmap`` and ``value_and_grad`` built on it.

A batch axis of size ``B`` is split into ``B / microbatch_size`` microbatches by a Fortran-order
reshape to ``(B / microbatch_size, microbatch_size)``: microbatch ``i`` holds the examples
``i, i + n, i + 2n, ...`` (strided, not contiguous), which keeps a sharded batch local. The
loop is a ``fori_loop``; ``num_real_microbatches`` stops it early (the rest of a ``CONCAT``
stays zero).
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import functools
from collections.abc import Callable, Sequence
from typing import Any

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.api import eval_shape
from trellax._src.api.autodiff import value_and_grad
from trellax._src.api.vmap import vmap
from trellax.tree_util import tree_flatten, tree_leaves, tree_map

Function = Callable[..., Any]

#: the auxiliary outputs of :func:`micro_grad`: per-example values, metrics and ``aux``
IndividualOutputs = collections.namedtuple("Aux", ["values", "metrics", "aux"])  # type: ignore[name-match]


@dataclasses.dataclass(frozen=True)
class Accumulator:
    """How results are combined: ``init`` (from a result's shape), ``update(carry, value, i)``
    per microbatch, ``finalize(carry)`` after the loop, ``aggregate(values)`` over a vmapped
    axis 0 (inside one microbatch)."""

    init: Callable[[Any], Any]
    update: Callable[[Any, Any, Any], Any]
    finalize: Callable[[Any], Any]
    aggregate: Callable[[Any], Any]


class AccumulationType(enum.Enum):
    """The built-in accumulators."""

    MEAN = enum.auto()
    SUM = enum.auto()
    RUNNING_MEAN = enum.auto()
    CONCAT = enum.auto()


def _floating_only(fn: Function) -> Function:
    def checked(*args: Any, **kwargs: Any) -> Any:
        kinds = tree_leaves(tree_map(lambda x: x.dtype, (args, kwargs)))
        if not all(jnp.issubdtype(k, jnp.floating) for k in kinds):
            raise ValueError("MEAN and RUNNING_MEAN Accumulators require floating-point values.")
        return fn(*args, **kwargs)

    return checked


def reshape_batch_axis(tree: Any, microbatch_size: int, axis: int = 0) -> Any:
    """Every leaf's ``axis`` split into ``(-1, microbatch_size)`` in Fortran order (microbatch
    ``i`` takes the examples ``i, i + n, ...`` for ``n`` microbatches)."""

    def split(x: Any) -> Any:
        return jnp.reshape(
            x, (*x.shape[:axis], -1, microbatch_size, *x.shape[axis + 1 :]), order="F"
        )

    return tree_map(split, tree)


def _leafwise(acc: Accumulator) -> Accumulator:
    return Accumulator(
        lambda value: tree_map(acc.init, value),
        lambda carry, value, i: tree_map(lambda c, v: acc.update(c, v, i), carry, value),
        lambda carry: tree_map(acc.finalize, carry),
        lambda values: tree_map(acc.aggregate, values),
    )


def _sum() -> Accumulator:
    return _leafwise(
        Accumulator(
            jnp.zeros_like,
            lambda c, v, _: c + v,
            lambda c: c,
            functools.partial(jnp.sum, axis=0),
        )
    )


def _positive(n: int) -> None:
    if n <= 0:
        raise ValueError(f"num_microbatches={n!r} must be positive.")


def _mean(n: int) -> Accumulator:
    _positive(n)
    return _leafwise(
        Accumulator(
            _floating_only(jnp.zeros_like),
            lambda c, v, _: c + v,
            lambda c: c / n,
            functools.partial(jnp.mean, axis=0),
        )
    )


def _running_mean() -> Accumulator:
    def update(c: Any, v: Any, i: Any) -> Any:
        keep = i / (i + 1)
        return c * keep + v * (1 - keep)

    return _leafwise(
        Accumulator(
            _floating_only(jnp.zeros_like), update, lambda c: c, functools.partial(jnp.mean, axis=0)
        )
    )


def _concat(n: int) -> Accumulator:
    _positive(n)

    def init(value: Any) -> Any:
        return jnp.broadcast_to(jnp.zeros_like(value), (n, *value.shape))

    def finalize(c: Any) -> Any:
        return jnp.reshape(c, (-1, *c.shape[2:]), order="F")

    return _leafwise(Accumulator(init, lambda c, v, i: c.at[i].set(v), finalize, lambda x: x))


def _is_accumulator(x: Any) -> bool:
    return isinstance(x, (Accumulator, AccumulationType))


def _canonical(spec: Any, n: int) -> Accumulator:
    """One accumulator for a tree of accumulators (or accumulation types)."""

    def one(acc: Any) -> Accumulator:
        if isinstance(acc, Accumulator):
            return acc
        if acc is AccumulationType.MEAN:
            return _mean(n)
        if acc is AccumulationType.SUM:
            return _sum()
        if acc is AccumulationType.RUNNING_MEAN:
            return _running_mean()
        if acc is AccumulationType.CONCAT:
            return _concat(n)
        raise ValueError(f"Unknown accumulator: {acc}")

    accs = tree_map(one, spec, is_leaf=_is_accumulator)

    def over(fn: Callable[..., Any], *trees: Any) -> Any:
        return tree_map(fn, accs, *trees, is_leaf=lambda x: isinstance(x, Accumulator))

    return Accumulator(
        lambda values: over(lambda a, v: a.init(v), values),
        lambda carry, value, i: over(lambda a, c, v: a.update(c, v, i), carry, value),
        lambda carry: over(lambda a, c: a.finalize(c), carry),
        lambda values: over(lambda a, v: a.aggregate(v), values),
    )


def microbatch(
    fun: Function,
    argnums: int | Sequence[int],
    microbatch_size: int | None,
    accumulator: Any = AccumulationType.SUM,
    *,
    argnames: str | Sequence[str] = (),
    in_axes: int | Sequence[int] = 0,
    num_real_microbatches: Any = None,
) -> Function:
    """``fun`` evaluated microbatch by microbatch over the batch arguments ``argnums`` and
    ``argnames`` (their batch axes ``in_axes``), the results combined by ``accumulator``;
    ``microbatch_size=None`` returns ``fun`` itself."""
    if microbatch_size is None:
        return fun
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    names = (argnames,) if isinstance(argnames, str) else tuple(argnames)
    axes = (in_axes,) * (len(nums) + len(names)) if isinstance(in_axes, int) else tuple(in_axes)
    size = microbatch_size

    def run(*args: Any, **kwargs: Any) -> Any:
        batched = [args[i] for i in nums] + [kwargs[k] for k in names]
        sizes = tree_flatten(
            tree_map(
                lambda ax, sub: tree_map(lambda x: x.shape[ax], sub), tuple(axes), tuple(batched)
            )
        )[0]
        if len(set(sizes)) > 1:
            raise ValueError(f"Batch Arguments must have equal-size batch axes, found {sizes}.")
        batch = sizes[0]
        if batch % size != 0:
            raise ValueError(f"batch_size={batch!r} must be divisible by microbatch_size={size!r}.")
        new_args = list(args)
        new_kwargs = dict(kwargs)
        for i, ax in zip(nums, axes, strict=False):
            new_args[i] = reshape_batch_axis(args[i], size, ax)
        for k, ax in zip(names, axes[len(nums) :], strict=False):
            new_kwargs[k] = reshape_batch_axis(kwargs[k], size, ax)
        count = batch // size
        acc = _canonical(accumulator, count)

        def piece(index: Any) -> Any:
            a = list(new_args)
            kw = dict(new_kwargs)
            for i, ax in zip(nums, axes, strict=False):
                a[i] = tree_map(functools.partial(jnp.take, indices=index, axis=ax), a[i])
            for k, ax in zip(names, axes[len(nums) :], strict=False):
                kw[k] = tree_map(functools.partial(jnp.take, indices=index, axis=ax), kw[k])
            return fun(*a, **kw)

        def body(index: Any, carry: Any) -> Any:
            return acc.update(carry, piece(index), index)

        stop = count if num_real_microbatches is None else num_real_microbatches
        start = acc.init(eval_shape(piece, 0))
        return acc.finalize(lax.fori_loop(0, stop, body, start))

    return run


def micro_vmap(
    fun: Function,
    in_axes: int | Sequence[Any] = 0,
    out_axes: Any = 0,
    *,
    microbatch_size: int | None = None,
    vmap_fn: Callable[..., Any] = vmap,
    accumulator: Any = AccumulationType.CONCAT,
    num_real_microbatches: Any = None,
) -> Function:
    """``vmap(fun)`` evaluated ``microbatch_size`` examples at a time; each microbatch's
    results are aggregated over their vmapped axis, then accumulated (``CONCAT``: the same
    result as ``vmap``). Keyword arguments are batch arguments too. Only ``out_axes=0``."""
    if out_axes != 0:
        raise NotImplementedError("out_axis != 0 is not currently supported")
    axes = (in_axes,) if isinstance(in_axes, int) else tuple(in_axes)

    def mapped(*args: Any, kwargs: Any) -> Any:
        out = vmap_fn(fun, axes, out_axes)(*args, **kwargs)
        return _canonical(accumulator, tree_leaves(out)[0].shape[0]).aggregate(out)

    batched = tuple(i for i, ax in enumerate(axes) if ax is not None)
    inner = microbatch(
        mapped,
        argnums=batched,
        argnames="kwargs",
        microbatch_size=microbatch_size,
        accumulator=accumulator,
        in_axes=(*(ax for ax in axes if ax is not None), 0),
        num_real_microbatches=num_real_microbatches,
    )

    def run(*args: Any, **kwargs: Any) -> Any:
        return inner(*args, kwargs=kwargs)

    return run


def micro_grad(
    fun: Function,
    has_aux: bool = False,
    argnums: int | Sequence[int] = 0,
    *,
    batch_argnums: int | Sequence[int] = 1,
    keep_batch_dim: bool = True,
    microbatch_size: int | None = None,
    accumulator: Any = AccumulationType.SUM,
    transform_fn: Callable[[Any], Any] = lambda x: x,
    metrics_fn: Callable[[Any], Any] = lambda x: None,
    num_real_microbatches: Any = None,
) -> Function:
    """Per-example gradients of ``fun`` (one example of ``batch_argnums`` at a time, with a
    batch axis of 1 kept when ``keep_batch_dim``), passed through ``transform_fn`` and
    accumulated over the batch by ``accumulator``; returns ``(gradients, Aux(values, metrics,
    aux))`` with the per-example values, ``metrics_fn`` of each gradient and ``aux``
    concatenated."""
    batch = (batch_argnums,) if isinstance(batch_argnums, int) else tuple(batch_argnums)
    with_aux = fun if has_aux else (lambda *a, **k: (fun(*a, **k), None))
    vg = value_and_grad(with_aux, argnums, has_aux=True)

    def one(*args: Any, **kwargs: Any) -> Any:
        (value, aux), g = vg(*args, **kwargs)
        return transform_fn(g), IndividualOutputs(values=value, metrics=metrics_fn(g), aux=aux)

    axes: list[Any] = [None] * (max(batch) + 1)
    for i in batch:
        axes[i] = 0
    run = micro_vmap(
        one,
        in_axes=axes,
        accumulator=(accumulator, AccumulationType.CONCAT),
        microbatch_size=microbatch_size,
        num_real_microbatches=num_real_microbatches,
    )
    if not keep_batch_dim:
        return run

    def with_axis(*args: Any, **kwargs: Any) -> Any:
        grouped = list(args)
        for i in batch:
            grouped[i] = tree_map(lambda x: jnp.expand_dims(x, axis=1), args[i])
        return run(*grouped, **kwargs)

    return with_axis
