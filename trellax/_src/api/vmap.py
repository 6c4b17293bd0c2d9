"""``vmap``: the pytree wrapper around :func:`trellax._src.interpreters.batching.batch_flat`.

It checks ``in_axes``/``out_axes`` (JAX's rules and error texts), finds the batch size, runs the
function once on batch tracers and moves each output's batch axis where ``out_axes`` asks.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.api import ref_frames
from trellax._src.api.ref_frames import RefBase
from trellax._src.core import core, traceback_filter
from trellax._src.core.basearray import Array
from trellax._src.core.core import Placeholder
from trellax._src.interpreters import batching
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import float0 as float0_dtype
from trellax._src.lax.shapes import moveaxis
from trellax._src.lax.structural import broadcast_in_dim_p
from trellax._src.tree.keys import keystr
from trellax._src.tree.prefix import mismatch_details
from trellax._src.tree.tree_util import tree_flatten, tree_flatten_with_path, tree_unflatten

_IN_AXES_TYPE = (
    "vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional "
    "arguments passed to the function, but got "
)


def _is_none(x: Any) -> bool:
    return x is None


def _is_spec(a: Any) -> bool:
    return a is None or type(a) is int or type(a) in batching.spec_types


def _vmappable_leaf() -> Callable[[Any], bool] | None:
    """``is_leaf`` for flattening arguments: registered vmappable types stay whole."""
    return batching.is_vmappable if batching.vmappables else None


def _check_leaves(axes: Any, which: str) -> None:
    leaves, _ = tree_flatten(axes, is_leaf=_is_none)
    if not all(_is_spec(a) for a in leaves):
        raise TypeError(
            f"vmap {which} must be an int, None, or (nested) container with those types as "
            f"leaves, but got {axes}."
        )


#: Stands for an output leaf where only the output's structure is kept.
_SLOT = object()


def _prefix_leaves(prefix: Any, full: Any, which: str) -> list[Any]:
    """One axis per leaf of ``full``: each leaf of the prefix repeated over its subtree."""
    prefix_leaves, prefix_def = tree_flatten(prefix, is_leaf=_is_none)
    try:
        subtrees = prefix_def.flatten_up_to(full)
    except ValueError as e:
        details = mismatch_details(prefix, full, f"vmap {which}", is_leaf=_is_none)
        raise ValueError(
            f"vmap {which} specification must be a tree prefix of the corresponding value; \n"
            f"  {details or f'Mismatch details: {e}'}"
        ) from None
    out: list[Any] = []
    for axis, sub in zip(prefix_leaves, subtrees):
        out.extend([axis] * len(tree_flatten(sub, is_leaf=_vmappable_leaf())[0]))
    return out


def _arg_name(path: tuple[Any, ...], names: list[str]) -> str:
    """``a``, ``a['x']``, ``b[0]`` or ``kwargs['b']`` for a leaf's key path in ``(args, kwargs)``."""
    top, rest = path[0], path[1:]
    if getattr(top, "idx", None) == 0:  # a positional argument
        i = rest[0].idx
        head = names[i] if i < len(names) else f"args[{i}]"
        return head + keystr(list(rest[1:]))
    return "kwargs" + keystr(list(rest))


def _type_str(x: Any) -> str:
    return f"{np.dtype(x.dtype).name}[{','.join(map(str, x.shape))}]"


def _names(fun: Callable[..., Any]) -> list[str]:
    try:
        return [
            p.name
            for p in inspect.signature(fun).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        return []


#: What a vmapped function may return as leaves (None leaves are empty subtrees).
_OUTPUT_TYPES = (Array, int, float, complex, bool, np.ndarray, np.generic)


def _as_mapped_array(leaf: Any) -> Any:
    if isinstance(leaf, Array):
        return leaf
    if isinstance(leaf, (int, float, complex, bool, np.ndarray, np.generic)):
        return asarray(leaf)
    if isinstance(leaf, Placeholder):  # a ShapeDtypeStruct while staging: a value-less constant
        try:
            return asarray(leaf)
        except TypeError:
            pass
    raise TypeError(f"Argument '{leaf}' of type {type(leaf)} is not a valid JAX type")


def vmap(
    fun: Callable[..., Any],
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_name: Any = None,
    axis_size: int | None = None,
    spmd_axis_name: Any = None,
) -> Callable[..., Any]:
    """Vectorizes ``fun`` over an axis of its arguments: ``vmap(f)(xs)`` equals stacking
    ``f(x)`` for every slice ``x`` of ``xs``, computed by one batched call per primitive.

    >>> import trellax, trellax.numpy as tnp
    >>> trellax.vmap(lambda x: x @ x)(tnp.ones((3, 2)))
    Array([2., 2., 2.], dtype=float32)
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if not (_is_spec(in_axes) or type(in_axes) is tuple):
        raise TypeError(f"{_IN_AXES_TYPE}{in_axes}.")
    _check_leaves(in_axes, "in_axes")
    _check_leaves(out_axes, "out_axes")
    leaf_axes = out_axes is None or type(out_axes) is int
    if axis_size is not None and type(axis_size) is not int:
        raise TypeError(
            "broadcast_in_dim shape must have every element be an integer type, got "
            f"({type(axis_size)},)."
        )

    @_vmap_doc(fun)
    @traceback_filter.api_boundary
    def vmap_f(*args: Any, **kwargs: Any) -> Any:
        if type(in_axes) is tuple and len(in_axes) != len(args):
            raise ValueError(f"{_IN_AXES_TYPE}len(in_axes)={len(in_axes)}, len(args)={len(args)}")
        with_path, in_tree = tree_flatten_with_path((args, kwargs), is_leaf=_vmappable_leaf())
        if not with_path and axis_size is None:
            raise ValueError(
                "vmap wrapped function must be passed at least one argument containing an array "
                f"or axis_size must be specified, got empty *args={args} and **kwargs={kwargs}"
            )
        axes = _prefix_leaves((in_axes, 0), (args, kwargs), "in_axes")
        if all(a is None for a in axes) and axis_size is None:
            raise ValueError(
                "vmap must have at least one non-None value in in_axes or axis_size must be "
                "specified"
            )
        leaves: list[Any] = []
        dims: list[int | None] = []
        sizes: list[tuple[int, Any, int, Any]] = []  # (size, key path, axis, array)
        custom: dict[int, tuple[Any, Any]] = {}  # vmappable leaves: {position: (value, spec)}
        refs: dict[int, tuple[RefBase, int]] = {}  # leaf position -> (reference, its axis)
        for (path, leaf), axis in zip(with_path, axes):
            if batching.is_vmappable(leaf):
                custom[len(leaves)] = (leaf, axis)
                leaves.append(None)
                dims.append(None)
                continue
            if axis is None:
                leaves.append(leaf)
                dims.append(None)
                continue
            if isinstance(leaf, RefBase):  # mapped like its value; stored back on return
                x = ref_frames.resolve(leaf)._held
                refs[len(leaves)] = (leaf, axis % max(x.ndim, 1))
            else:
                x = _as_mapped_array(leaf)
            nd = x.ndim
            if not -nd <= axis < nd:
                raise ValueError(
                    f"vmap was requested to map its argument along axis {axis}, which implies "
                    f"that its rank should be at least {axis + 1 if axis >= 0 else -axis}, but "
                    f"is only {nd} (its shape is {tuple(x.shape)})"
                )
            axis %= nd
            leaves.append(x)
            dims.append(axis)
            sizes.append((int(x.shape[axis]), path, axis, x))
        if not sizes and axis_size is None and custom:
            raise ValueError("vmap of registered vmappable values alone needs axis_size")
        size = _batch_size(sizes, axis_size, fun)
        out_tree: list[Any] = []
        done: set[int] = set()  # vmappable outputs, already built by their from_elt

        def flat_fun(*flat: Any) -> list[Any]:
            ins = list(flat)
            for i, (value, spec) in custom.items():
                ins[i] = _to_elt(value, spec, size)
            inner = {i: ref_frames.make_ref(ins[i], core.current_trace()) for i in refs}
            for i, r in inner.items():
                ins[i] = r
            a, k = tree_unflatten(in_tree, ins)
            out = fun(*a, **k)
            leaves_out, tree = tree_flatten(out, is_leaf=_vmappable_leaf())
            # the structure only: the tracers must not outlive the trace (leak checker); a
            # one-leaf out_axes needs no value at all (a custom node's unflatten is not called
            # with placeholders then, as in JAX)
            shape_only = None if leaf_axes else tree_unflatten(tree, [_SLOT] * len(leaves_out))
            out_tree.append((shape_only, tree))
            for o in leaves_out:
                if not isinstance(o, _OUTPUT_TYPES) and not batching.is_vmappable(o):
                    raise TypeError(
                        f"Output from batched function {o!r} with type {type(o)} is not a valid "
                        "JAX type"
                    )
            if any(batching.is_vmappable(o) for o in leaves_out):
                specs = _prefix_leaves(out_axes, out, "out_axes")
                for i, o in enumerate(leaves_out):
                    if batching.is_vmappable(o):
                        leaves_out[i] = _from_elt(o, specs[i], size)
                        done.add(i)
            return [*leaves_out, *[r._held for r in inner.values()]]

        outs, out_dims = batching.batch_flat(flat_fun, leaves, dims, size, axis_name)
        if refs:
            n = len(outs) - len(refs)
            for (ref, axis), o, d in zip(refs.values(), outs[n:], out_dims[n:]):
                moved = _move_out(o, d, axis, size, lambda: "")
                ref_frames.store(ref, moved)
            outs, out_dims = outs[:n], out_dims[:n]
        out_value, tree = out_tree[0]
        if leaf_axes:
            out_axes_flat = [out_axes] * len(outs)
        else:
            out_axes_flat = _prefix_leaves(out_axes, out_value, "out_axes")

        def out_path(k: int) -> str:  # for the error only
            return "" if leaf_axes else _out_paths(out_axes, out_value)[k]

        results = [
            o if k in done else _move_out(o, d, a, size, functools.partial(out_path, k), axis_name)
            for k, (o, d, a) in enumerate(zip(outs, out_dims, out_axes_flat))
        ]
        return tree_unflatten(tree, results)

    return vmap_f


def _to_elt(value: Any, spec: Any, size: int) -> Any:
    """A registered vmappable argument's per-element value (inside the batch trace)."""
    trace = core.current_trace()
    assert isinstance(trace, batching.BatchTrace)

    def cont(x: Any, axis: int | None) -> Any:
        if axis is None:
            return x
        x = asarray(x)
        return trace.wrap(x, axis % x.ndim)

    return batching.vmappables[type(value)].to_elt(cont, size, value, spec)


def _from_elt(element: Any, spec: Any, size: int) -> Any:
    """A registered vmappable output, built from its per-element value by its ``from_elt``
    (its arrays moved out of the batch trace)."""
    trace = core.current_trace()
    assert isinstance(trace, batching.BatchTrace) and trace.parent is not None
    parent = trace.parent

    def cont(axis_size: int, x: Any, axis: int | None) -> Any:
        val, dim = trace.unpack(x)
        token = core.set_current_trace(parent)
        try:
            return _move_out(val, dim, axis, axis_size, lambda: "")
        finally:
            core.reset_current_trace(token)

    return batching.vmappables[type(element)].from_elt(cont, size, element, spec)


def _out_paths(out_axes: Any, out_value: Any) -> list[str]:
    """The key path of each output leaf, as JAX names it: the path of the prefix leaf it falls
    under followed by its path inside that subtree."""
    with_path, prefix_def = tree_flatten_with_path(out_axes, is_leaf=_is_none)
    subtrees = prefix_def.flatten_up_to(out_value)
    paths: list[str] = []
    for (path, _), sub in zip(with_path, subtrees):
        inner = tree_flatten_with_path(sub)[0]
        paths.extend(keystr([*path, *leaf_path]) for leaf_path, _ in inner)
    return paths


def _vmap_doc(fun: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``functools.wraps(fun)`` with JAX's docstring for the vectorized function."""

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        f = functools.wraps(fun)(f)
        name = getattr(fun, "__name__", type(fun).__name__)
        doc = (
            f"Vectorized version of {name}. Takes similar arguments as {name} but with "
            f"additional array axes over which {name} is mapped."
        )
        if getattr(fun, "__doc__", None):
            doc += "\n\nOriginal documentation:\n\n" + str(fun.__doc__)
        f.__doc__ = doc
        return f

    return wrap


def _batch_size(
    sizes: list[tuple[int, Any, int, Any]], axis_size: int | None, fun: Callable[..., Any]
) -> int:
    """The batch size; the error names each mapped argument (its words built only then)."""
    distinct = {s[0] for s in sizes}
    if axis_size is not None:
        if distinct and distinct != {axis_size}:
            bullets = [f"  * the `axis_size` argument was {axis_size}"]
            bullets += _size_bullets(sizes, fun)
            raise ValueError(
                "vmap got inconsistent sizes for array axes to be mapped:\n" + ";\n".join(bullets)
            )
        return axis_size
    if len(distinct) > 1:
        raise ValueError(
            "vmap got inconsistent sizes for array axes to be mapped:\n"
            + ";\n".join(_size_bullets(sizes, fun))
        )
    return sizes[0][0]


def _size_bullets(sizes: list[tuple[int, Any, int, Any]], fun: Callable[..., Any]) -> list[str]:
    names = _names(fun)
    by_size: dict[int, list[str]] = {}
    for s, path, axis, x in sizes:
        name = _arg_name(path, names)
        what = name if name.startswith("kwargs") else f"argument {name}"
        by_size.setdefault(s, []).append(f"axis {axis} of {what} of type {_type_str(x)}")
    bullets = []
    # the most common size first (JAX's order), then in order of appearance
    for s, wheres in sorted(by_size.items(), key=lambda kv: -len(kv[1])):
        if len(wheres) == 1:
            bullets.append(f"  * one axis had size {s}: {wheres[0]}")
        else:
            bullets.append(f"  * most axes ({len(wheres)} of them) had size {s}, e.g. {wheres[0]}")
    return bullets


def _move_out(
    x: Any,
    dim: int | None,
    axis: int | None,
    size: int,
    path: Callable[[], str],
    axis_name: Any = None,
) -> Any:
    if axis is None:
        if dim is not None and axis_name is not None:
            raise ValueError(f"vmap has mapped output (axis_name={axis_name}) but out_axes is None")
        if dim is not None:
            raise ValueError(
                f"at vmap out_axes{path()}, got axis spec None but output was batched on axis {dim}"
            )
        return x
    if x is None:
        return None
    float0 = isinstance(x, np.ndarray) and x.dtype == float0_dtype
    if not isinstance(x, Array) and not float0:
        x = asarray(x)
    nd = x.ndim + (dim is None)
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    axis %= nd
    if dim is None:
        shape = list(x.shape)
        shape.insert(axis, size)
        if float0:  # a tangent of an integer or bool output: no values to broadcast
            return np.zeros(shape, float0_dtype)
        keep = tuple(i for i in range(nd) if i != axis)
        return broadcast_in_dim_p.bind(x, shape=tuple(shape), broadcast_dimensions=keep)
    return np.moveaxis(x, dim, axis) if float0 else moveaxis(x, dim, axis)
