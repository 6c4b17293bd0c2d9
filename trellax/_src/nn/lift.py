"""Lifted transforms on scopes (Flax's ``flax.core.lift``): a JAX transform applied to a
function of a :class:`Scope` and arrays, with the scope's variables and rng streams passed
through the transform as explicit arguments.

Each transform *packs* the scope: its collections are grouped by filters (a collection goes to
the first filter that matches; collections no filter matches are not visible inside), its rng
streams likewise. Inside the transformed function a fresh root holds those variables at the same
path, shares the outer root's rng counters (so keys continue Flax's per-path counts) and folds
the same path names into keys. The mutated collections come back grouped by the output filters
and are written to the outer scope.

Key derivation follows Flax 0.12: ``vmap``/``scan`` split a stream's *root* key
(``random.split(key, n)``) and keep folding the path names; ``jit`` forks each stream with one
``make_rng`` of the module and folds only the names below it; ``scan`` runs its body once more
before the loop (Flax's check that broadcast variables do not depend on the carry), which also
advances the rng counters as Flax's extra trace does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes as trellax_dtypes
from trellax import lax, tree_util
from trellax._src.api.api import jit as _jit
from trellax._src.api.autodiff import jvp as _jvp
from trellax._src.api.autodiff import vjp as _vjp
from trellax._src.api.vmap import vmap as _vmap
from trellax._src.checkpoint.rematerialize import checkpoint as _checkpoint
from trellax._src.custom.derivatives import custom_vjp as _custom_vjp
from trellax._src.nn import partitioning as meta
from trellax._src.nn._random import random
from trellax._src.nn.scope import Scope, _Pred, _predicate, _Root, filter_key, in_filter


class _Broadcast:
    """The ``in_axes`` of an argument every ``scan`` iteration sees whole (``nn.broadcast``)."""

    def __repr__(self) -> str:
        return "broadcast"


broadcast: Any = _Broadcast()


def _group(xs: Mapping[str, Any], filters: Sequence[Any]) -> tuple[dict[str, Any], ...]:
    groups: tuple[dict[str, Any], ...] = tuple({} for _ in filters)
    for key, value in xs.items():
        for group, flt in zip(groups, filters):
            if in_filter(flt, key):
                group[key] = value
                break
    return groups


def _nest(path: tuple[str, ...], tree: Any) -> Any:
    for name in reversed(path):
        tree = {name: tree}
    return tree


def _merge(groups: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for g in groups:
        out.update(g)
    return out


def _scope_collections(root: _Root, path: tuple[str, ...]) -> dict[str, Any]:
    out = {}
    for col in root.variables:
        node = Scope(root, path)._node(col)
        if node is not None:
            out[col] = node
    return out


def _place(variables: dict[str, Any], path: tuple[str, ...], col: str, tree: Any) -> None:
    """Puts ``tree`` at ``variables[col][*path]`` (merging with what is there)."""
    if not path:
        variables.setdefault(col, {}).update(tree)
        return
    node = variables.setdefault(col, {})
    for name in path[:-1]:
        node = node.setdefault(name, {})
    node[path[-1]] = tree


def _transpose(per_scope: Sequence[Sequence[Any]], n: int) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(groups[i] for groups in per_scope) for i in range(n))


class Packed:
    """The variables and rngs of one or more scopes grouped for a transform, and the way back.

    ``variable_groups[i][j]`` holds the collections (``{col: tree}``) of scope ``j`` that the
    ``i``-th filter selects: scope 0 is the transformed module's, the others are the scopes of
    modules bound outside it that it uses (Flax's multi-scope lifting; ``scope.lifted``)."""

    def __init__(
        self,
        scope: Scope,
        in_filters: Sequence[Any],
        out_filters: Sequence[Any],
        rng_filters: Sequence[Any],
        rngs: Mapping[str, Any] | None = None,
    ) -> None:
        self.scope = scope
        root = scope.root
        self.paths: tuple[tuple[str, ...], ...] = (scope.path, *scope.lifted)
        per_scope = [_group(_scope_collections(root, p), in_filters) for p in self.paths]
        self.variable_groups = _transpose(per_scope, len(in_filters))
        self.rng_groups = _group(root.rngs if rngs is None else rngs, rng_filters)
        self.out_filters = tuple(out_filters)

    @property
    def single(self) -> bool:
        """Whether only the module's own scope is lifted."""
        return len(self.paths) == 1

    def inner(
        self,
        variable_groups: Sequence[Sequence[Mapping[str, Any]]],
        rng_groups: Sequence[Mapping[str, Any]],
        mutable: Any = True,
        rng_offset: int | None = None,
    ) -> Scope:
        """A scope at the same path on a fresh root holding these groups (and the other lifted
        scopes' variables at their paths)."""
        outer = self.scope.root
        outs = self.out_filters
        extra = _predicate(mutable)

        def is_mutable(col: str) -> bool:
            return outer.is_mutable(col) and any(in_filter(f, col) for f in outs) and extra(col)

        variables: dict[str, Any] = {}
        for j, path in enumerate(self.paths):
            for col, tree in _merge([g[j] for g in variable_groups]).items():
                _place(variables, path, col, tree)
        key = (outer.mutable_key, tuple(filter_key(f) for f in outs), filter_key(mutable))
        root = _Root(
            variables,
            _merge(rng_groups),
            _Pred(is_mutable, key),
            outer.initializing,
            rng_counters=outer.rng_counters,
            rng_offset=outer.rng_offset if rng_offset is None else rng_offset,
        )
        root.flags = outer.flags
        # the same kind of scope (Flax's core scope when a core function is lifted)
        return type(self.scope)(root, self.scope.path)

    def repack(self, inner: Scope) -> tuple[tuple[dict[str, Any], ...], ...]:
        """The inner root's mutable collections of each lifted scope, grouped by the output
        filters."""
        root = inner.root
        per_scope = []
        for path in self.paths:
            s = Scope(root, path)
            mutable = {
                col: dict(s._node(col) or {}) for col in root.variables if root.is_mutable(col)
            }
            groups = _group(mutable, (*self.out_filters, True))
            if groups[-1]:
                raise ValueError(f"unmapped output variables: {tuple(groups[-1])}")
            per_scope.append(groups[:-1])
        return _transpose(per_scope, len(self.out_filters))

    def publish(self, out_groups: Sequence[Sequence[Mapping[str, Any]]]) -> None:
        """Writes the transform's output collections to the outer scopes."""
        root = self.scope.root
        for group in out_groups:
            for path, collections in zip(self.paths, group):
                scope = Scope(root, path)
                for col, coll in collections.items():
                    if not root.is_mutable(col):
                        continue
                    for name, value in coll.items():
                        scope.put_variable(col, name, value)


def _split_axes(axes: Mapping[Any, Any]) -> tuple[list[tuple[Any, Any]], list[tuple[Any, Any]]]:
    ins: list[tuple[Any, Any]] = []
    outs: list[tuple[Any, Any]] = []
    for flt, ax in axes.items():
        if isinstance(ax, In):
            ins.append((flt, ax.axis))
        elif isinstance(ax, Out):
            outs.append((flt, ax.axis))
        else:
            ins.append((flt, ax))
            outs.append((flt, ax))
    return ins, outs


class In:
    """A variable axis that applies to the transform's inputs only."""

    def __init__(self, axis: Any) -> None:
        self.axis = axis


class Out:
    """A variable axis that applies to the transform's outputs only."""

    def __init__(self, axis: Any) -> None:
        self.axis = axis


def _map_prefix(fn: Callable[[Any, Any], Any], axes: Any, tree: Any) -> Any:
    """``fn(axis, subtree)`` over the subtrees ``axes`` (a prefix of ``tree``) assigns."""
    if isinstance(axes, list | tuple) and isinstance(tree, list | tuple):
        if len(axes) != len(tree):
            raise ValueError(f"axes {axes} do not match a sequence of {len(tree)} values")
        return type(tree)(_map_prefix(fn, a, t) for a, t in zip(axes, tree))
    if isinstance(axes, Mapping) and isinstance(tree, Mapping):
        return {k: _map_prefix(fn, axes[k], v) for k, v in tree.items()}
    return fn(axes, tree)


def _axis_sizes(axes: Any, tree: Any, skip: Any = None) -> set[int]:
    sizes: set[int] = set()

    def add(ax: Any, sub: Any) -> None:
        if ax is skip or ax is None:
            return
        leaves = tree_util.tree_leaves(sub)
        if leaves:
            sizes.add(int(jnp.shape(leaves[0])[ax]))

    _map_prefix(add, axes, tree)
    return sizes


def _split_rng_groups(
    groups: Sequence[Mapping[str, Any]], splits: Sequence[bool], n: int
) -> tuple[dict[str, Any], ...]:
    return tuple(
        {k: random().split(v, n) for k, v in g.items()} if split else dict(g)
        for g, split in zip(groups, splits)
    )


# -- vmap ----------------------------------------------------------------------------------------


def vmap(
    fn: Callable[..., Any],
    variable_axes: Mapping[Any, Any],
    split_rngs: Mapping[Any, bool],
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
    axis_name: Any = None,
    spmd_axis_name: Any = None,
    metadata_params: Mapping[Any, Any] | None = None,
) -> Callable[..., Any]:
    """``fn(scope, *args)`` mapped over an axis of ``args`` and of the collections in
    ``variable_axes``; split rng streams give each index its own key (``spmd_axis_name`` as
    ``trellax.vmap``'s)."""
    params = dict(metadata_params or {})
    var_in, var_out = _split_axes(variable_axes)
    rng_filters = list(split_rngs)
    rng_splits = [bool(split_rngs[f]) for f in rng_filters]

    def wrapper(scope: Scope, *args: Any) -> Any:
        packed = Packed(scope, [f for f, _ in var_in], [f for f, _ in var_out], rng_filters)
        in_vaxes = [ax for _, ax in var_in]
        groups = tuple(
            meta.remove_axis(g, ax, params) if ax is not None else g
            for g, ax in zip(packed.variable_groups, in_vaxes)
        )
        sizes = _axis_sizes(tuple(in_vaxes), groups) | _axis_sizes(in_axes, args)
        if axis_size is None and len(sizes) == 1:
            (n,) = sizes
        elif len(sizes) > 1:
            raise ValueError(f"Inconsistent batch axis sizes: {sizes}")
        elif axis_size is None:
            raise ValueError("axis_size should be specified manually.")
        else:
            n = axis_size
        rng_groups = _split_rng_groups(packed.rng_groups, rng_splits, n)
        rng_axes = tuple(0 if s else None for s in rng_splits)

        def mapped(var_groups: Any, rngs: Any, margs: Any) -> Any:
            inner = packed.inner(var_groups, rngs)
            y = fn(inner, *margs)
            return y, packed.repack(inner)

        out_vaxes = tuple(ax for _, ax in var_out)
        y, outs = _vmap(
            mapped,
            in_axes=(tuple(in_vaxes), rng_axes, in_axes),
            out_axes=(out_axes, out_vaxes),
            axis_name=axis_name,
            axis_size=axis_size,
            spmd_axis_name=spmd_axis_name,
        )(groups, rng_groups, args)
        outs = tuple(
            meta.add_axis(g, ax, params) if ax is not None else g for g, ax in zip(outs, out_vaxes)
        )
        packed.publish(outs)
        return y

    return wrapper


# -- scan ----------------------------------------------------------------------------------------


def scan(
    fn: Callable[..., Any],
    variable_axes: Mapping[Any, Any],
    variable_broadcast: Any = False,
    variable_carry: Any = False,
    split_rngs: Mapping[Any, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    metadata_params: Mapping[Any, Any] | None = None,
) -> Callable[..., Any]:
    """``fn(scope, carry, *xs) -> (carry, ys)`` looped over an axis of ``xs`` (arguments whose
    ``in_axes`` is :data:`broadcast` are passed whole); the collections of ``variable_axes`` are
    stacked along their axis, ``variable_broadcast`` ones shared (created before the loop),
    ``variable_carry`` ones carried from step to step."""
    params = dict(metadata_params or {})
    split_rngs = dict(split_rngs or {})
    var_in, var_out = _split_axes(variable_axes)
    rng_filters = list(split_rngs)
    rng_splits = [bool(split_rngs[f]) for f in rng_filters]

    def wrapper(scope: Scope, init: Any, *args: Any) -> Any:
        packed = Packed(
            scope,
            [variable_broadcast, variable_carry, *(f for f, _ in var_in)],
            [variable_broadcast, variable_carry, *(f for f, _ in var_out)],
            rng_filters,
        )
        bvars, cvars, *svars_in = packed.variable_groups
        axes = in_axes if isinstance(in_axes, list | tuple) else (in_axes,) * len(args)
        lengths = _axis_sizes(tuple(axes), args, skip=broadcast)
        if length is None and len(lengths) == 1:
            (n,) = lengths
        elif len(lengths) > 1:
            raise ValueError(f"Inconsistent scan lengths: {lengths}")
        elif length is None:
            raise ValueError("length should be specified manually.")
        else:
            n = length
        in_vaxes = [ax for _, ax in var_in]
        svars = [
            tree_util.tree_map(
                lambda x, a=ax: jnp.moveaxis(x, a, 0), meta.remove_axis(g, ax, params)
            )
            for g, ax in zip(svars_in, in_vaxes)
        ]
        rng_groups = _split_rng_groups(packed.rng_groups, rng_splits, n)
        split_rng = _merge([g for g, s in zip(rng_groups, rng_splits) if s])
        shared_rng = _merge([g for g, s in zip(rng_groups, rng_splits) if not s])
        scanned = tuple(
            None
            if ax is broadcast
            else tree_util.tree_map(lambda x, a=ax: jnp.moveaxis(x, a, 0), arg)
            for arg, ax in zip(args, axes)
        )

        def body(b: Any, carry: Any, step: Any) -> Any:
            cv, c = carry
            sv, rngs, xs_i = step
            args_i = tuple(arg if ax is broadcast else x for arg, x, ax in zip(args, xs_i, axes))
            inner = packed.inner((b, cv, *sv), ({**shared_rng, **rngs},))
            c, y = fn(inner, c, *args_i)
            b_out, cv_out, *sv_out = packed.repack(inner)
            return b_out, (cv_out, c), (y, tuple(sv_out))

        steps = (tuple(svars), split_rng, scanned)
        # the broadcast pass: creates the shared variables before the loop, as Flax's extra trace
        # (with no steps, a stand-in step of zeros, as Flax's pass traces shapes only)
        first = tree_util.tree_map(
            lambda x: x[n - 1 if reverse else 0] if n else _zero_step(x), steps
        )
        b_out = body(bvars, (cvars, init), first)[0]
        for b_new, b_old in zip(b_out, bvars):
            for col, coll in b_old.items():
                b_new.setdefault(col, coll)
        # Flax's broadcast pass hands the variables out through a JAX transformation, whose
        # pytree round trip sorts every dict's keys (bias before kernel): so does this one
        b_out = tree_util.tree_map(lambda x: x, b_out)

        def step_fn(carry: Any, step: Any) -> Any:
            _, carry, ys = body(b_out, carry, step)
            return carry, ys

        (cv_out, c), (ys, sv_out) = lax.scan(
            step_fn, (cvars, init), steps, length=n, reverse=reverse, unroll=unroll
        )
        ys = _map_prefix(
            lambda ax, y: tree_util.tree_map(lambda v: jnp.moveaxis(v, 0, ax), y), out_axes, ys
        )
        out_vaxes = [ax for _, ax in var_out]
        sv_final = tuple(
            meta.add_axis(tree_util.tree_map(lambda v, a=ax: jnp.moveaxis(v, 0, a), g), ax, params)
            for g, ax in zip(sv_out, out_vaxes)
        )
        packed.publish((b_out, cv_out, *sv_final))
        return c, ys

    return wrapper


# -- checkpoint, jit, map_variables --------------------------------------------------------------


def _zero_step(x: Any) -> Any:
    """A step of zeros shaped like one step of the stacked ``x`` (which has none)."""
    if jnp.issubdtype(x.dtype, trellax_dtypes.prng_key):
        rnd = random()
        return rnd.wrap_key_data(
            jnp.zeros(rnd.key_data(x).shape[1:], np.uint32), impl=rnd.key_impl(x)
        )
    return jnp.zeros(x.shape[1:], x.dtype)


def checkpoint(
    fn: Callable[..., Any],
    variables: Any = True,
    rngs: Any = True,
    concrete: bool = False,
    prevent_cse: bool = True,
    static_argnums: Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
) -> Callable[..., Any]:
    """``fn(scope, *args)`` under ``trellax.checkpoint`` (recomputed in the backward pass);
    ``static_argnums`` index ``args``. ``concrete`` (removed from JAX) must be False."""
    if concrete:
        raise NotImplementedError(
            "The `concrete` option of checkpoint was removed (as from jax.checkpoint in JAX "
            "v0.10.0); use `static_argnums`."
        )
    static = frozenset(static_argnums)

    def wrapper(scope: Scope, *args: Any, **kwargs: Any) -> Any:
        packed = Packed(scope, (variables,), (variables,), (rngs,))
        dyn_idx = [i for i in range(len(args)) if i not in static]

        def rematted(var_groups: Any, rng_groups: Any, *dyn: Any) -> Any:
            full = list(args)
            for i, v in zip(dyn_idx, dyn):
                full[i] = v
            inner = packed.inner(var_groups, rng_groups)
            y = fn(inner, *full, **kwargs)
            return y, packed.repack(inner)

        y, outs = _checkpoint(rematted, prevent_cse=prevent_cse, policy=policy)(
            packed.variable_groups, packed.rng_groups, *(args[i] for i in dyn_idx)
        )
        packed.publish(outs)
        return y

    return wrapper


def remat_scan(
    body_fn: Callable[..., Any],
    lengths: Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
    variable_broadcast: Any = False,
    variable_carry: Any = False,
    variable_axes: Mapping[Any, Any] = {True: 0},
    split_rngs: Mapping[Any, bool] = {True: True},
) -> Callable[..., Any]:
    """``body_fn(scope, carry) -> carry`` applied ``prod(lengths)`` times by nested ``scan``
    loops with ``checkpoint`` around each inner loop (variables get one axis per loop)."""

    def scan_of(fn: Callable[..., Any], n: int) -> Callable[..., Any]:
        return scan(
            fn,
            variable_axes=variable_axes,
            variable_broadcast=variable_broadcast,
            variable_carry=variable_carry,
            split_rngs=split_rngs,
            length=n,
        )

    def build(ls: tuple[int, ...]) -> Callable[..., Any]:
        if len(ls) == 1:
            return lambda scope, c: scan_of(lambda s, c_: (body_fn(s, c_), ()), ls[0])(scope, c)[0]

        def inner_loop(scope: Scope, carry: Any) -> Any:
            return build(ls[1:])(scope, carry), ()

        rematted = checkpoint(inner_loop, policy=policy, prevent_cse=False)
        return lambda scope, c: scan_of(rematted, ls[0])(scope, c)[0]

    return build(tuple(lengths))


class CompiledJit:
    """The one ``trellax.jit``-compiled function behind an ``nn.jit`` transform (Flax's lifted
    ``jit``): it takes the lifted variables and the forked rng keys as arguments and, as a
    static argument, a fingerprint of the module (its fields, state and the call's mutability
    and phase), so a module with the same attributes reuses the trace."""

    def __init__(
        self, static_argnums: Sequence[int] = (), static_argnames: str | Sequence[str] = ()
    ) -> None:
        # the module counts as argument 0 of the method; the compiled function takes
        # (fingerprint, variable_groups, rng_groups, *args)
        nums = (0, *(i + 2 for i in static_argnums if i > 0))
        self._frames: list[list[Any]] = []
        self._count_deltas: dict[Any, dict[tuple[tuple[str, ...], str], int]] = {}
        self.compiled = _jit(self._body, static_argnums=nums, static_argnames=static_argnames)

    def _body(
        self, fingerprint: Any, variable_groups: Any, rng_groups: Any, *args: Any, **kwargs: Any
    ) -> Any:
        frame = self._frames[-1]
        packed, core, offset = frame[0], frame[1], frame[2]
        frame[3] = True  # traced (not a cache hit)
        inner = packed.inner(variable_groups, rng_groups, rng_offset=offset)
        y = core(inner, *args, **kwargs)
        return y, packed.repack(inner)

    def call(
        self,
        packed: Packed,
        core: Callable[..., Any],
        fingerprint: Any,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        scope = packed.scope
        counters = scope.root.rng_counters
        before = dict(counters)
        frame: list[Any] = [packed, core, len(scope.path), False]
        self._frames.append(frame)
        try:
            y, outs = self.compiled(
                fingerprint, packed.variable_groups, packed.rng_groups, *args, **kwargs
            )
        finally:
            self._frames.pop()
        n = len(scope.path)
        if frame[3]:  # the trace advanced the rng counts below the module: replay on reuse
            self._count_deltas[fingerprint] = {
                (slot[0][n:], slot[1]): c - before.get(slot, 0)
                for slot, c in counters.items()
                if slot[0][:n] == scope.path and c != before.get(slot, 0)
            }
        else:
            for (rel, stream), delta in self._count_deltas.get(fingerprint, {}).items():
                slot = ((*scope.path, *rel), stream)
                counters[slot] = counters.get(slot, 0) + delta
        packed.publish(outs)
        return y


def jit(
    fn: Callable[..., Any],
    variables: Any = True,
    rngs: Any = True,
    compiled: CompiledJit | None = None,
) -> Callable[..., Any]:
    """``fn(scope, *args)`` with Flax's ``nn.jit`` key derivation: every stream is forked by
    one ``make_rng`` of the scope and only the names below it are folded into keys. With
    ``compiled``, the body runs as that compiled function (traced once per fingerprint and
    argument shapes); without, it runs inline."""

    def wrapper(scope: Scope, module_name: Any, module_key: Any, *args: Any, **kwargs: Any) -> Any:
        forked = {s: scope.make_rng(s, module_name) for s in list(scope.root.rngs)}
        packed = Packed(scope, (variables,), (variables,), (rngs,), rngs=forked)
        if compiled is not None:
            root = scope.root
            fingerprint = (module_key, root.mutable_key, root.initializing, len(packed.paths))
            return compiled.call(packed, fn, fingerprint, *args, **kwargs)
        inner = packed.inner(packed.variable_groups, packed.rng_groups, rng_offset=len(scope.path))
        y = fn(inner, *args, **kwargs)
        packed.publish(packed.repack(inner))
        return y

    return wrapper


def fold_rngs(
    fn: Callable[..., Any], variables: Any = True, rngs: Any = True
) -> Callable[..., Any]:
    """``fn(scope, *args)`` with its rng streams forked as ``jit`` forks them."""

    def wrapper(scope: Scope, module_name: Any, *args: Any, **kwargs: Any) -> Any:
        return jit(fn, variables, rngs)(scope, module_name, None, *args, **kwargs)

    return wrapper


def map_variables(
    fn: Callable[..., Any],
    mapped_collections: Any,
    map_in_fn: Callable[[Any], Any],
    map_out_fn: Callable[[Any], Any],
    init: bool,
    mutable: bool,
    rngs: Any,
    variables: Any,
) -> Callable[..., Any]:
    """``fn(scope, *args)`` seeing ``map_in_fn`` of the mapped collections (and writing back
    ``map_out_fn`` of their updates when ``mutable``/``init``)."""
    is_target_out = mutable or init
    rest = _Pred(lambda c: in_filter(variables, c) and not in_filter(mapped_collections, c))
    out_filters: tuple[Any, ...] = (mapped_collections, rest) if is_target_out else (False, rest)

    def wrapper(scope: Scope, *args: Any, **kwargs: Any) -> Any:
        packed = Packed(scope, (mapped_collections, rest), out_filters, (rngs,))
        target, other = packed.variable_groups
        if init:
            probe = packed.inner((target, other), packed.rng_groups)
            if any(probe.root.is_mutable(c) for c in ("params", *probe.root.variables)):
                fn(probe, *args, **kwargs)
                target = tuple(map_out_fn(t) for t in packed.repack(probe)[0])
        target = tuple(map_in_fn(_copy_tree(t)) for t in target)
        mfilter: Any = True
        if not is_target_out:
            mfilter = _Pred(lambda c: not in_filter(mapped_collections, c))
        inner = packed.inner((target, other), packed.rng_groups, mutable=mfilter)
        y = fn(inner, *args, **kwargs)
        out_target, out_other = packed.repack(inner)
        if is_target_out:
            out_target = tuple(map_out_fn(t) for t in out_target)
        packed.publish((out_target, out_other))
        return y

    return wrapper


def _copy_tree(tree: Any) -> Any:
    if isinstance(tree, Mapping):
        return {k: _copy_tree(v) for k, v in tree.items()}
    return tree


# -- control flow --------------------------------------------------------------------------------


def switch(
    index: Any,
    branches: Sequence[Callable[..., Any]],
    scope: Scope,
    *operands: Any,
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """``lax.switch`` over functions of the scope; every branch is traced (during ``init``
    each creates its variables)."""
    packed = Packed(scope, (variables,), (variables,), (rngs,))

    def branch(b: Callable[..., Any], *ops: Any) -> Any:
        inner = packed.inner(packed.variable_groups, packed.rng_groups)
        y = b(inner, *ops)
        return y, packed.repack(inner)

    y, outs = lax.switch(index, [functools.partial(branch, b) for b in branches], *operands)
    packed.publish(outs)
    return y


def cond(
    pred: Any,
    true_fun: Callable[..., Any],
    false_fun: Callable[..., Any],
    scope: Scope,
    *operands: Any,
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """``lax.cond`` over two functions of the scope."""
    return switch(
        jnp.asarray(pred, dtype=jnp.int32) if not isinstance(pred, bool) else int(pred),
        [false_fun, true_fun],
        scope,
        *operands,
        variables=variables,
        rngs=rngs,
    )


def while_loop(
    cond_fn: Callable[..., Any],
    body_fn: Callable[..., Any],
    scope: Scope,
    init: Any,
    carry_variables: Any = False,
    broadcast_variables: Any = True,
    split_rngs: Mapping[Any, bool] | None = None,
) -> Any:
    """``lax.while_loop`` over functions of the scope: ``carry_variables`` are carried, the
    others read-only; a split stream is folded with the iteration number."""
    split_rngs = dict(split_rngs or {})
    rng_filters = list(split_rngs)
    rng_splits = [bool(split_rngs[f]) for f in rng_filters]
    packed = Packed(scope, (carry_variables, broadcast_variables), (carry_variables,), rng_filters)
    cvars, bvars = packed.variable_groups

    def loop_rngs(i: Any) -> tuple[dict[str, Any], ...]:
        return tuple(
            {k: random().fold_in(v, i) for k, v in g.items()} if s else dict(g)
            for g, s in zip(packed.rng_groups, rng_splits)
        )

    def cond_wrapper(c: Any) -> Any:
        i, cv, carry = c
        inner = packed.inner((cv, bvars), loop_rngs(-i), mutable=False)
        return cond_fn(inner, carry)

    def body_wrapper(c: Any) -> Any:
        i, cv, carry = c
        inner = packed.inner((cv, bvars), loop_rngs(i))
        carry = body_fn(inner, carry)
        (cv,) = packed.repack(inner)
        return i + 1, cv, carry

    _, cv, carry = lax.while_loop(cond_wrapper, body_wrapper, (jnp.int32(0), cvars, init))
    packed.publish((cv,))
    return carry


# -- differentiation -----------------------------------------------------------------------------


def vjp(
    fn: Callable[..., Any],
    scope: Scope,
    *primals: Any,
    has_aux: bool = False,
    reduce_axes: Any = (),
    vjp_variables: Any = "params",
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """``trellax.vjp`` of ``fn(scope, *primals)`` with respect to the ``vjp_variables``
    collections and the primals; the pullback returns ``(variable_grads, *primal_grads)``.
    ``reduce_axes`` (removed from JAX) must be empty."""
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to vjp is deprecated")
    packed = Packed(scope, (vjp_variables, variables), (variables,), (rngs,))
    vjp_vars, other = packed.variable_groups
    single = packed.single

    def wrapper(vv: Any, *args: Any) -> Any:
        inner = packed.inner(((vv,) if single else vv, other), packed.rng_groups)
        if has_aux:
            y, aux = fn(inner, *args)
        else:
            y, aux = fn(inner, *args), ()
        return y, (aux, packed.repack(inner))

    y, bwd, (aux, outs) = _vjp(wrapper, vjp_vars[0] if single else vjp_vars, *primals, has_aux=True)
    packed.publish(outs)
    return (y, bwd, aux) if has_aux else (y, bwd)


def value_and_grad(
    fn: Callable[..., Any],
    scope: Scope,
    *primals: Any,
    has_aux: bool = False,
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """The value of ``fn(scope, *primals)`` and its gradients with respect to the primals."""
    packed = Packed(scope, (variables,), (variables,), (rngs,))

    def wrapper(*args: Any) -> Any:
        inner = packed.inner(packed.variable_groups, packed.rng_groups)
        if has_aux:
            y, aux = fn(inner, *args)
        else:
            y, aux = fn(inner, *args), ()
        return y, (aux, packed.repack(inner))

    y, bwd, (aux, outs) = _vjp(wrapper, *primals, has_aux=True)
    grads = bwd(jnp.ones_like(y))
    packed.publish(outs)
    return (y, aux, grads) if has_aux else (y, grads)


def jvp(
    fn: Callable[..., Any],
    scope: Scope,
    primals: Any,
    tangents: Any,
    variable_tangents: Mapping[str, Any],
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """``trellax.jvp`` of ``fn(scope, *primals)`` along ``tangents`` and the tangents of the
    collections in ``variable_tangents``; returns ``(y, y_tangent)``."""
    var_tangents = {k: v for k, v in variable_tangents.items() if v}
    target = tuple(var_tangents)
    packed = Packed(scope, (target, variables), (variables,), (rngs,))
    tvars, other = packed.variable_groups

    single = packed.single

    def wrapper(vp: Any, args: Any) -> Any:
        inner = packed.inner(((vp,) if single else vp, other), packed.rng_groups)
        y = fn(inner, *args)
        return y, packed.repack(inner)

    primal_vars = tvars[0] if single else tvars
    (y, outs), (y_t, _) = _jvp(
        wrapper, (primal_vars, tuple(primals)), (var_tangents, tuple(tangents))
    )
    packed.publish(outs)
    return y, y_t


def custom_vjp(
    fn: Callable[..., Any],
    forward_fn: Callable[..., Any],
    backward_fn: Callable[..., Any],
    grad_vars: Any = "params",
    nondiff_argnums: Sequence[int] = (),
) -> Callable[..., Any]:
    """``fn(scope, *args)`` with a custom VJP: ``forward_fn(scope, *args) -> (y, res)`` and
    ``backward_fn(*nondiff_args, res, y_t) -> (variable_grads, *arg_grads)``."""
    nondiff = tuple(nondiff_argnums)

    def wrapper(scope: Scope, *args: Any) -> Any:
        packed = Packed(scope, (grad_vars, True), (grad_vars, True), (True,))
        gvars, other = packed.variable_groups

        single = packed.single

        def run(f: Callable[..., Any], gv: Any, args_: Sequence[Any], fwd: bool) -> Any:
            inner = packed.inner(((gv,) if single else gv, other), packed.rng_groups)
            out = f(inner, *args_)
            if fwd:
                return (out[0], packed.repack(inner)), out[1]
            return out, packed.repack(inner)

        def merged(nd: Sequence[Any], diff: Sequence[Any]) -> list[Any]:
            full: list[Any] = []
            nd_it, diff_it = iter(nd), iter(diff)
            for i in range(len(args)):
                full.append(next(nd_it) if i in nondiff else next(diff_it))
            return full

        nd_args = tuple(args[i] for i in nondiff)
        diff_args = tuple(a for i, a in enumerate(args) if i not in nondiff)

        @_custom_vjp
        def f(gv: Any, *diff: Any) -> Any:
            return run(fn, gv, merged(nd_args, diff), False)

        def f_fwd(gv: Any, *diff: Any) -> Any:
            return run(forward_fn, gv, merged(nd_args, diff), True)

        def f_bwd(res: Any, g: Any) -> Any:
            var_t, *inputs_t = backward_fn(*nd_args, res, g[0])
            return (var_t, *inputs_t)

        f.defvjp(f_fwd, f_bwd)
        y, outs = f(gvars[0] if single else gvars, *diff_args)
        packed.publish(outs)
        return y

    return wrapper


class FrozenMapping(Mapping[Any, Any]):
    """A read-only, hashable mapping: the default ``variable_axes``/``split_rngs`` of module
    fields (modules are hashed)."""

    def __init__(self, items: Mapping[Any, Any] | None = None) -> None:
        self._d = dict(items or {})

    def __getitem__(self, key: Any) -> Any:
        return self._d[key]

    def __iter__(self) -> Any:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        return hash(tuple(self._d.items()))

    def __repr__(self) -> str:
        return f"FrozenDict({self._d!r})"
