"""Host callbacks: ``pure_callback`` and ``debug.callback`` as primitives.

Each is an equation holding the (flattened) Python function, so under ``jit`` it is called when
the compiled program runs (with trellax arrays, as JAX passes its arrays), and eagerly at once.
``pure_callback``'s results are cast to the declared dtypes (as JAX does) and must have the
declared shapes (else :class:`~trellax.errors.JaxRuntimeError`); under ``vmap`` it follows its
``vmap_method``; it has no derivative (JAX's ``ValueError``). ``debug_callback`` has no outputs;
under ``vmap`` it is called once per batch element, under differentiation with the primal
values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.devices import check_single_device
from trellax._src.core.jax_errors import JaxRuntimeError
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import batching, tracing
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import moveaxis
from trellax._src.lax.structural import broadcast_in_dim, concatenate
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten

VMAP_METHODS = (
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
)
#: the vmap_methods of ``io_callback``: an effect, never removed when its results are unused
#: (see ``interpreters.tracing._removable``); under ``vmap`` once per element, and refused by
#: ``vmap`` when ordered (JAX's "Cannot `vmap` ordered IO callback.")
IO = "io"
ORDERED_IO = "ordered_io"


class FlatCallback:
    """A user function over flat leaves (trellax arrays in, leaves out); hashable by identity."""

    __slots__ = ("callback", "in_tree")

    def __init__(self, callback: Callable[..., Any], in_tree: PyTreeDef) -> None:
        self.callback = callback
        self.in_tree = in_tree

    def __repr__(self) -> str:
        return f"FlatCallback({getattr(self.callback, '__name__', self.callback)!r})"

    def __call__(self, *values: Any) -> list[Any]:
        arrays = [core.new_array(np.asarray(v), np.asarray(v).dtype, False) for v in values]
        args, kwargs = tree_unflatten(self.in_tree, arrays)
        return tree_flatten(self.callback(*args, **kwargs))[0]


def _flatten_args(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], PyTreeDef]:
    leaves, in_tree = tree_flatten((args, kwargs))
    return [asarray(x) for x in leaves], in_tree


# -- pure_callback --------------------------------------------------------------------------------

pure_callback_p = Primitive("pure_callback", multiple_results=True)


@pure_callback_p.def_abstract_eval
def _pure_callback_abstract_eval(
    *args: Any, callback: FlatCallback, result_avals: tuple[ShapedArray, ...], vmap_method: Any
) -> tuple[ShapedArray, ...]:
    return result_avals


@pure_callback_p.def_impl
def _pure_callback_impl(
    *values: Any, callback: FlatCallback, result_avals: tuple[ShapedArray, ...], vmap_method: Any
) -> tuple[Any, ...]:
    outs = callback(*values)
    if len(outs) != len(result_avals):
        raise JaxRuntimeError(
            f"pure_callback: the callback returned {len(outs)} leaves, but result_shape_dtypes "
            f"declares {len(result_avals)}"
        )
    results = []
    for o, aval in zip(outs, result_avals):
        value = np.asarray(o)
        if value.shape != aval.shape:
            raise JaxRuntimeError(
                "pure_callback: the callback returned an array of shape "
                f"{value.shape}, but result_shape_dtypes declares {aval.shape}"
            )
        results.append(value.astype(aval.dtype, copy=False))
    return tuple(results)


@pure_callback_p.def_jvp
def _pure_callback_jvp(primals: Any, tangents: Any, **params: Any) -> Any:
    raise ValueError(
        "Pure callbacks do not support JVP. Please use `trellax.custom_jvp` to use callbacks "
        "while taking gradients."
    )


@pure_callback_p.def_batch
def _pure_callback_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    callback: FlatCallback,
    result_avals: tuple[ShapedArray, ...],
    vmap_method: Any,
) -> tuple[Any, Any]:

    if vmap_method == ORDERED_IO:
        raise ValueError("Cannot `vmap` ordered IO callback.")
    if vmap_method == IO:
        vmap_method = "sequential"
    size = batching.current_axis().size
    if vmap_method not in VMAP_METHODS:
        raise NotImplementedError(
            "vmap is only supported for the pure_callback primitive when vmap_method is one of "
            "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
            f"'legacy_vectorized'. Got vmap_method={vmap_method!r}."
        )
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    params = {"callback": callback, "vmap_method": vmap_method}
    if vmap_method in ("sequential", "sequential_unrolled"):
        outs = _sequential(moved, dims, size, result_avals, params)
    else:
        ins = []
        for a, d in zip(moved, dims):
            if d is None and vmap_method == "expand_dims":
                a = broadcast_in_dim(a, (1, *a.shape), tuple(range(1, a.ndim + 1)))
            elif d is None and vmap_method == "broadcast_all":
                a = broadcast_in_dim(a, (size, *a.shape), tuple(range(1, a.ndim + 1)))
            ins.append(a)
        avals = tuple(a.update(shape=(size, *a.shape)) for a in result_avals)
        outs = list(pure_callback_p.bind_multi(*ins, result_avals=avals, **params))
    return outs, [0] * len(outs)


def _sequential(
    args: list[Any],
    dims: Sequence[int | None],
    size: int,
    result_avals: tuple[ShapedArray, ...],
    params: dict[str, Any],
) -> list[Any]:
    """One callback per batch element (unrolled), outputs stacked at axis 0."""

    per_element = []
    for i in range(size):
        ins = [a if d is None else a[i] for a, d in zip(args, dims)]
        per_element.append(pure_callback_p.bind_multi(*ins, result_avals=result_avals, **params))
    outs = []
    for j, aval in enumerate(result_avals):
        pieces = [
            broadcast_in_dim(p[j], (1, *aval.shape), tuple(range(1, len(aval.shape) + 1)))
            for p in per_element
        ]
        outs.append(
            concatenate(pieces, 0) if pieces else asarray(np.zeros((0, *aval.shape), aval.dtype))
        )
    return outs


def _result_aval(x: Any) -> ShapedArray:
    if not hasattr(x, "shape") or not hasattr(x, "dtype"):
        raise TypeError(
            "pure_callback: every leaf of result_shape_dtypes must have a shape and a dtype "
            f"(a trellax.ShapeDtypeStruct or an array); got {x!r}"
        )
    return ShapedArray(tuple(x.shape), dtypes.canonicalize_dtype(np.dtype(x.dtype)), False)


def pure_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Any = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> Any:
    """Calls the Python function ``callback(*args, **kwargs)`` on trellax arrays, also from
    inside ``jit`` (at run time) and ``vmap`` (per ``vmap_method``); its result has the shapes
    and dtypes of ``result_shape_dtypes`` (a pytree of ``ShapeDtypeStruct``).

    >>> import numpy as np, trellax, trellax.numpy as tnp
    >>> spec = trellax.ShapeDtypeStruct((3,), "float32")
    >>> trellax.jit(lambda x: trellax.pure_callback(np.sin, spec, x))(tnp.zeros(3))
    Array([0., 0., 0.], dtype=float32)
    """
    if vmap_method not in (*VMAP_METHODS, None, IO, ORDERED_IO):
        raise ValueError(
            f"vmap_method must be on of the allowed methods {[*VMAP_METHODS, None]}, but got: "
            f"{vmap_method}"
        )
    if sharding is not None:
        check_single_device(sharding)
    leaves, in_tree = _flatten_args(args, kwargs)
    result_leaves, result_tree = tree_flatten(result_shape_dtypes)
    result_avals = tuple(_result_aval(x) for x in result_leaves)
    outs = pure_callback_p.bind_multi(
        *leaves,
        callback=FlatCallback(callback, in_tree),
        result_avals=result_avals,
        vmap_method=vmap_method,
    )
    return tree_unflatten(result_tree, list(outs))


# -- debug_callback -------------------------------------------------------------------------------

debug_callback_p = Primitive("debug_callback", multiple_results=True)
debug_callback_p.def_abstract_eval(lambda *args, callback: ())


@debug_callback_p.def_impl
def _debug_callback_impl(*values: Any, callback: FlatCallback) -> tuple[()]:
    callback(*values)
    return ()


def _debug_callback_codegen(
    em: Any, eqn: Any, args: list[str], outs: list[str], indent: str
) -> None:
    f = em.bind(eqn.params["callback"], "f")
    em.emit(f"{indent}{f}({', '.join(f'_asarray({a})' for a in args)})  # debug_callback")


tracing.codegen_rules[debug_callback_p] = _debug_callback_codegen


@debug_callback_p.def_jvp
def _debug_callback_jvp(primals: Any, tangents: Any, *, callback: FlatCallback) -> Any:
    debug_callback_p.bind_multi(*primals, callback=callback)
    return (), ()


@debug_callback_p.def_batch
def _debug_callback_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, callback: FlatCallback
) -> tuple[Any, Any]:

    size = batching.current_axis().size
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    for i in range(size):
        debug_callback_p.bind_multi(
            *[a if d is None else a[i] for a, d in zip(moved, dims)], callback=callback
        )
    return (), ()


def debug_callback(
    callback: Callable[..., Any] | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    **kwargs: Any,
) -> Any:
    """Calls ``callback(*args, **kwargs)`` for its side effect, also inside ``jit`` (when the
    program runs), ``vmap`` (once per batch element) and ``grad`` (with primal values).

    Without ``callback`` it is JAX's two-call form: ``debug_callback(ordered=True)(cb, x)``
    (the options in the first call, every argument of the second passed to ``cb``)."""
    if callback is None:
        if args or kwargs:
            raise TypeError(
                "debug_callback received unexpected arguments in the two-call form: "
                f"args={args} kwargs={kwargs}"
            )

        def call(cb: Callable[..., Any], *a: Any, **k: Any) -> None:
            _debug_callback(cb, a, k, ordered, partitioned)

        return call
    _debug_callback(callback, args, kwargs, ordered, partitioned)
    return None


def _debug_callback(
    callback: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    ordered: bool,
    partitioned: bool,
) -> None:
    leaves, in_tree = _flatten_args(args, kwargs)

    def discard(*a: Any, **k: Any) -> tuple[()]:
        callback(*a, **k)
        return ()

    debug_callback_p.bind_multi(*leaves, callback=FlatCallback(discard, in_tree))
