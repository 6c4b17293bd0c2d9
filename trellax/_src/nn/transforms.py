"""Lifted transforms over modules (Flax's ``flax.linen.transforms``): ``nn.vmap``, ``nn.scan``,
``nn.jit``, ``nn.remat``, ... applied to a Module class (its ``__call__`` or ``methods``) or to
a function whose first argument is a module.

The transformed method runs on a *clone* of the module bound to the inner scope of the
scope-level transform (:mod:`trellax._src.nn.lift`); submodules it holds in fields or creates in
``setup`` are bound below it, so their variables pass through the transform too. A transformed
class is named as Flax names it (``VmapDense``, ``ScanLSTMCell``, ``CheckpointDense``), which
gives the same auto-names (``VmapDense_0``) and so the same parameter paths and keys.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from trellax import tree_util
from trellax._src.nn import errors, lift
from trellax._src.nn import partitioning as meta
from trellax._src.nn.flax_hooks import FLAX_HOOKS
from trellax._src.nn.module import Module, Variable, _State, _wrap_method
from trellax._src.nn.scope import Scope

Target = TypeVar("Target")


def _under(path: tuple[str, ...], base: tuple[str, ...]) -> bool:
    return path[: len(base)] == base


def _rebind(value: Any, outer: Scope, inner: Scope) -> Any:
    """``value`` with the modules and variables bound to ``outer``'s root re-bound at the same
    paths of ``inner``'s root (which holds the variables of every lifted scope)."""
    if isinstance(value, Module):
        s = value.scope
        if s is not None and s.root is outer.root:
            if _under(s.path, outer.path) or any(_under(s.path, p) for p in outer.lifted):
                return _bound_clone(value, Scope(inner.root, s.path), outer, inner)
            raise NotImplementedError(
                f"a lifted transform of the module at /{'/'.join(outer.path)} reached the "
                f"module bound at /{'/'.join(s.path)}, whose scope it does not lift"
            )
        return value
    if isinstance(value, Variable):
        s = value.scope
        if s.root is outer.root:
            return Variable(Scope(inner.root, s.path), value.collection, value.name, value.unbox)
        return value
    if isinstance(value, list | tuple) and not hasattr(value, "_fields"):
        items = [_rebind(v, outer, inner) for v in value]
        return value if all(a is b for a, b in zip(items, value)) else type(value)(items)
    if isinstance(value, dict):
        new = {k: _rebind(v, outer, inner) for k, v in value.items()}
        return value if all(new[k] is value[k] for k in value) else new
    return value


def _bound_elsewhere(value: Any, root: Any, found: list[tuple[str, ...]], seen: set[int]) -> None:
    """Collects the paths of the modules and variables bound to ``root`` that ``value`` holds
    (through module fields, lists, tuples and dicts)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Module):
        s = value.scope
        if s is not None and s.root is root:
            found.append(s.path)
        for f in dataclasses.fields(value):
            if f.name != "parent":
                _bound_elsewhere(getattr(value, f.name, None), root, found, seen)
    elif isinstance(value, Variable):
        if value.scope.root is root:
            found.append(value.scope.path)
    elif isinstance(value, list | tuple):
        for v in value:
            _bound_elsewhere(v, root, found, seen)
    elif isinstance(value, dict):
        for v in value.values():
            _bound_elsewhere(v, root, found, seen)


def _lifted_scope(module: Module, refs: Sequence[Any]) -> Scope:
    """The module's scope, carrying the paths of the other scopes of its root that its fields
    and the module/variable arguments ``refs`` use (Flax lifts them all together)."""
    own = _module_scope(module)
    found: list[tuple[str, ...]] = []
    seen: set[int] = {id(module)}
    for f in dataclasses.fields(module):
        if f.name != "parent":
            _bound_elsewhere(getattr(module, f.name, None), own.root, found, seen)
    for r in refs:
        _bound_elsewhere(r, own.root, found, seen)
    paths: list[tuple[str, ...]] = []
    for p in sorted(set(found), key=len):
        if not _under(p, own.path) and not any(_under(p, q) for q in paths):
            paths.append(p)
    if not paths:
        return own
    scope = Scope(own.root, own.path)
    scope.debug_path = own.debug_path
    scope.lifted = tuple(paths)
    return scope


class _Ref:
    """Stands for a module or variable argument of a lifted method while the arguments pass
    through the transform (a pytree without leaves); the body gets it re-bound."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __repr__(self) -> str:
        return f"_Ref({self.index})"


tree_util.register_pytree_node(_Ref, lambda r: ((), r.index), lambda index, _: _Ref(index))


def _is_ref_target(x: Any) -> bool:
    return isinstance(x, Module | Variable)


def _take_refs(tree: Any, refs: list[Any]) -> Any:
    """``tree`` with each module or variable in it (anywhere in the pytree: lists, dicts,
    ``flax.struct`` dataclasses, ... as Flax finds them) replaced by a ``_Ref``, appended to
    ``refs``."""

    def take(x: Any) -> Any:
        if _is_ref_target(x):
            refs.append(x)
            return _Ref(len(refs) - 1)
        return x

    found = tree_util.tree_leaves(tree, is_leaf=_is_ref_target)
    if not any(_is_ref_target(x) for x in found):
        return tree  # nothing to take: the arguments pass unchanged
    return tree_util.tree_map(take, tree, is_leaf=_is_ref_target)


def _put_refs(tree: Any, refs: Sequence[Any]) -> Any:
    if not refs:
        return tree
    return tree_util.tree_map(
        lambda x: refs[x.index] if isinstance(x, _Ref) else x,
        tree,
        is_leaf=lambda x: isinstance(x, _Ref),
    )


def _bound_clone(
    module: Module, scope: Scope, outer: Scope, inner: Scope, cls: type[Module] | None = None
) -> Module:
    values = {
        f.name: _rebind(getattr(module, f.name), outer, inner)
        for f in dataclasses.fields(module)
        if f.init and f.name != "parent"
    }
    return (cls or type(module))(parent=scope, **values)


def _snapshot(module: Module) -> tuple[dict[str, int], bool, frozenset[str]]:
    """The naming state a clone starts from (taken once per call of the transformed method, so
    that every trace of the body names its submodules alike)."""
    s: _State = module._state
    return dict(s.autoname), s.in_compact, frozenset(s.reserved - s.setup_names)


def _export_state(snap: tuple[dict[str, int], bool, frozenset[str]], dst: Module) -> None:
    d: _State = dst._state
    d.autoname = dict(snap[0])
    d.in_compact = snap[1]
    d.reserved = set()  # as Flax's reservations, which belong to the (fresh) inner scope


def _reimport_state(dst: Module, src: Module) -> None:
    dst._state.autoname.update(src._state.autoname)


def _check_return(res: Any, name: Any) -> None:
    leaves = tree_util.tree_leaves(res, is_leaf=lambda x: isinstance(x, Module | Variable))
    if any(isinstance(x, Module | Variable) for x in leaves):
        raise errors.TransformedMethodReturnValueError(name)


def _module_scope(module: Any) -> Scope:
    if not isinstance(module, Module):
        raise errors.TransformTargetError(module)
    s = module.scope
    if s is None:
        raise errors.CallCompactUnboundModuleError()
    return s


#: the names Flax's lifted scopes show in ``Scope.debug_path`` where trellax's differ
_DEBUG_NAMES = {"checkpoint": "remat"}


def _core_fn(
    module: Module,
    method: Callable[..., Any],
    cls: type[Module] | None,
    outer: Scope | None = None,
    refs: Sequence[Any] = (),
    transform: str = "",
) -> Callable[..., Any]:
    """``(inner_scope, *args) -> method(clone bound to inner_scope, *args)``; the ``_Ref``
    placeholders in ``args`` become the modules/variables of ``refs`` re-bound inside."""
    outer = _module_scope(module) if outer is None else outer
    name = getattr(method, "__name__", None)
    snap = _snapshot(module)

    debug = outer.debug_path
    if transform and debug:
        debug = (*debug[:-1], f"{_DEBUG_NAMES.get(transform, transform)}({debug[-1]})")

    def core(inner: Scope, *args: Any, **kwargs: Any) -> Any:
        inner.debug_path = debug
        cloned = _bound_clone(module, inner, outer, inner, cls)
        _export_state(snap, cloned)
        if refs:
            rebound = [_rebind(r, outer, inner) for r in refs]
            args, kwargs = _put_refs(args, rebound), _put_refs(kwargs, rebound)
        try:
            res = method(cloned, *args, **kwargs)
        finally:
            _reimport_state(module, cloned)
        _check_return(res, name)
        return res

    core.method = method  # type: ignore[attr-defined]
    return core


def _is_module_class(target: Any) -> bool:
    if isinstance(target, functools.partial):
        return _is_module_class(target.func)
    return inspect.isclass(target) and issubclass(target, Module)


def _lift(
    name: str,
    make: Callable[..., Callable[..., Any]],
    target: Any,
    methods: Any = None,
    scope_args: Callable[[Module], tuple[Any, ...]] = lambda m: (),
) -> Any:
    """``target`` (a Module class or a function of a module) with each transformed method run
    as ``make(core)(scope, *scope_args(module), *args)``; ``make`` may take the method's
    per-method keyword arguments (``methods`` given as a dict)."""
    if _is_module_class(target):
        partial = target if isinstance(target, functools.partial) else None
        cls: type[Module] = partial.func if partial is not None else target  # type: ignore[assignment]
        if methods is None:
            per_method: dict[str, dict[str, Any]] = {"__call__": {}}
        elif isinstance(methods, list | tuple):
            per_method = {m: {} for m in methods}
        elif isinstance(methods, Mapping):
            per_method = {k: dict(v) for k, v in methods.items()}
        else:
            raise ValueError("transform methods argument must be None, tuple, list, or dict.")

        def transformed(fn_name: str, overrides: dict[str, Any]) -> Callable[..., Any]:
            fn = getattr(cls, fn_name)

            @functools.wraps(fn)
            def wrapped(self: Module, *args: Any, **kwargs: Any) -> Any:
                if isinstance(self, Module) and self.scope is None:
                    return fn(self, *args, **kwargs)  # unbound: nothing to lift
                refs: list[Any] = []
                args, kwargs = _take_refs(args, refs), _take_refs(kwargs, refs)
                scope = _lifted_scope(self, refs)
                core = _core_fn(self, fn, cls, scope, refs, name)
                return make(core, **overrides)(scope, *scope_args(self), *args, **kwargs)

            wrapped.__wrapped_method__ = True  # type: ignore[attr-defined]
            return wrapped

        attrs = {k: transformed(k, v) for k, v in per_method.items()}
        new_cls = type(name.capitalize() + cls.__name__, (cls,), attrs)
        if partial is not None:
            return functools.partial(new_cls, *partial.args, **partial.keywords)
        return new_cls
    if not callable(target):
        raise errors.TransformTargetError(target)
    inner_fn = target if getattr(target, "__wrapped_method__", False) else _wrap_method(target)

    @functools.wraps(target)
    def wrapped_fn(self: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(self, Module) and self.scope is None:
            return inner_fn(self, *args, **kwargs)  # unbound: nothing to lift
        refs: list[Any] = []
        args, kwargs = _take_refs(args, refs), _take_refs(kwargs, refs)
        scope = _lifted_scope(self, refs)
        core = _core_fn(self, inner_fn, None, scope, refs, name)
        return make(core)(scope, *scope_args(self), *args, **kwargs)

    wrapped_fn.__wrapped_method__ = True  # type: ignore[attr-defined]
    return wrapped_fn


# -- the transforms ------------------------------------------------------------------------------


def vmap(
    target: Target,
    variable_axes: Mapping[Any, Any] = {},
    split_rngs: Mapping[Any, bool] = {},
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
    axis_name: str | None = None,
    spmd_axis_name: str | None = None,
    metadata_params: Mapping[Any, Any] = {},
    methods: Any = None,
) -> Target:
    """A module (class or function of a module) vectorized over an axis of its inputs and of
    the collections in ``variable_axes`` (``{'params': 0}`` stacks one set of parameters per
    index; ``None`` shares them); ``split_rngs={'params': True}`` gives each index its own
    key, derived as Flax derives it."""

    def make(core: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
        opts = {
            "variable_axes": variable_axes,
            "split_rngs": split_rngs,
            "in_axes": in_axes,
            "out_axes": out_axes,
            "axis_size": axis_size,
            "axis_name": axis_name,
            "metadata_params": metadata_params,
            **kw,
        }
        return lift.vmap(core, **opts)

    return _lift("vmap", make, target, methods)  # type: ignore[no-any-return]


def scan(
    target: Target,
    variable_axes: Mapping[Any, Any] = {},
    variable_broadcast: Any = False,
    variable_carry: Any = False,
    split_rngs: Mapping[Any, bool] = {},
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    data_transform: Callable[..., Any] | None = None,
    metadata_params: Mapping[Any, Any] = {},
    methods: Any = None,
    _split_transpose: bool = False,
    check_constancy_invariants: bool = True,
) -> Target:
    """A module whose method ``(carry, *xs) -> (carry, ys)`` is looped over an axis of ``xs``
    (``nn.broadcast`` in ``in_axes`` passes an argument whole): ``variable_axes`` collections
    are stacked per step, ``variable_broadcast`` ones shared, ``variable_carry`` ones carried;
    ``split_rngs`` gives each step its own keys."""
    if data_transform is not None:
        raise NotImplementedError("nn.scan's data_transform (SPMD annotations) is not supported")

    def make(core: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
        opts = {
            "variable_axes": variable_axes,
            "variable_broadcast": variable_broadcast,
            "variable_carry": variable_carry,
            "split_rngs": split_rngs,
            "in_axes": in_axes,
            "out_axes": out_axes,
            "length": length,
            "reverse": reverse,
            "unroll": unroll,
            "metadata_params": metadata_params,
            **kw,
        }
        return lift.scan(core, **opts)

    return _lift("scan", make, target, methods)  # type: ignore[no-any-return]


def checkpoint(
    target: Target,
    variables: Any = True,
    rngs: Any = True,
    concrete: bool = False,
    prevent_cse: bool = True,
    static_argnums: int | tuple[int, ...] = (),
    policy: Callable[..., bool] | None = None,
    methods: Any = None,
) -> Target:
    """A module recomputed in the backward pass (``trellax.checkpoint``); ``static_argnums``
    count the module as argument 0, as Flax's."""
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    shifted = tuple(n - 1 for n in nums if n > 0)

    def make(core: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
        opts = {
            "variables": variables,
            "rngs": rngs,
            "prevent_cse": prevent_cse,
            "static_argnums": shifted,
            "policy": policy,
            **kw,
        }
        return lift.checkpoint(core, **opts)

    return _lift("checkpoint", make, target, methods)  # type: ignore[no-any-return]


remat = checkpoint


def jit(
    target: Target,
    variables: Any = True,
    rngs: Any = True,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
    donate_argnums: int | Sequence[int] = (),
    device: Any = None,
    backend: str | None = None,
    methods: Any = None,
) -> Target:
    """A module whose method is compiled with ``trellax.jit``, as Flax's ``nn.jit``: the
    variables and rng keys are arguments, and the trace is reused for a module with the same
    attributes (``static_argnums`` count the module as argument 0). The rng streams are forked
    with one ``make_rng`` of the module, so parameters and masks equal Flax's."""
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    compiled: dict[Any, lift.CompiledJit] = {}

    def make(core: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
        method = getattr(core, "method", None)
        if method not in compiled:
            compiled[method] = lift.CompiledJit(nums, static_argnames)
        return lift.jit(
            core,
            variables=kw.get("variables", variables),
            rngs=kw.get("rngs", rngs),
            compiled=compiled[method],
        )

    def scope_args(m: Module) -> tuple[Any, ...]:
        return (m.name, _HashableProxy.from_module(m))

    return _lift("jit", make, target, methods, scope_args=scope_args)  # type: ignore[no-any-return]


def fold_rngs(target: Target, variables: Any = True, rngs: Any = True) -> Target:
    """A module whose method sees its rng streams forked (one ``make_rng`` each), as ``jit``."""

    def make(core: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
        return lift.fold_rngs(core, variables=variables, rngs=rngs)

    return _lift("fold_rngs", make, target, None, scope_args=lambda m: (m.name,))  # type: ignore[no-any-return]


def map_variables(
    target: Target,
    mapped_collections: Any = True,
    trans_in_fn: Callable[..., Any] = lambda x: x,
    trans_out_fn: Callable[..., Any] = lambda x: x,
    init: bool = False,
    mutable: bool = False,
    rngs: Any = True,
    variables: Any = True,
    methods: Any = None,
) -> Target:
    """A module that sees ``trans_in_fn`` of its ``mapped_collections`` (a dict of
    collections) and, when ``mutable`` or ``init``, stores ``trans_out_fn`` of their updates."""

    def make(core: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
        return lift.map_variables(
            core, mapped_collections, trans_in_fn, trans_out_fn, init, mutable, rngs, variables
        )

    return _lift("map_variables", make, target, methods)  # type: ignore[no-any-return]


def remat_scan(
    target: Target,
    lengths: Sequence[int] | None = (),
    policy: Callable[..., bool] | None = None,
    variable_broadcast: Any = False,
    variable_carry: Any = False,
    variable_axes: Mapping[Any, Any] = {True: 0},
    split_rngs: Mapping[Any, bool] = {True: True},
) -> Target:
    """A module applied ``prod(lengths)`` times to a carry by nested ``scan`` loops with
    ``remat`` around each inner loop (parameters stacked with one axis per loop)."""
    lens = tuple(lengths or ())

    def make(core: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
        return lift.remat_scan(
            core, lens, policy, variable_broadcast, variable_carry, variable_axes, split_rngs
        )

    return _lift("remat_scan", make, target, None)  # type: ignore[no-any-return]


# -- direct transforms: functions of (module, *args) called at once ------------------------------


def _direct(
    fns: Sequence[Callable[..., Any]], mdl: Module
) -> tuple[Scope, list[Callable[..., Any]]]:
    scope = _lifted_scope(mdl, ())
    cores = []
    for fn in fns:
        if inspect.ismethod(fn) and isinstance(fn.__self__, Module):
            fn = fn.__func__  # a bound method of the module: run it on the lifted clone
        inner_fn = fn if getattr(fn, "__wrapped_method__", False) else _wrap_method(fn)
        cores.append(_core_fn(mdl, inner_fn, None, scope))
    return scope, cores


def cond(
    pred: Any,
    true_fun: Callable[..., Any],
    false_fun: Callable[..., Any],
    mdl: Module,
    *operands: Any,
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """``lax.cond`` over ``true_fun(mdl, *operands)`` and ``false_fun(mdl, *operands)``; both
    branches are traced, so during ``init`` both create their variables."""
    scope, (t, f) = _direct((true_fun, false_fun), mdl)
    return lift.cond(pred, t, f, scope, *operands, variables=variables, rngs=rngs)


def switch(
    index: Any,
    branches: Sequence[Callable[..., Any]],
    mdl: Module,
    *operands: Any,
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """``lax.switch`` over ``branch(mdl, *operands)``; every branch is traced."""
    scope, cores = _direct(tuple(branches), mdl)
    return lift.switch(index, cores, scope, *operands, variables=variables, rngs=rngs)


def while_loop(
    cond_fn: Callable[..., Any],
    body_fn: Callable[..., Any],
    mdl: Module,
    init: Any,
    carry_variables: Any = False,
    broadcast_variables: Any = True,
    split_rngs: Mapping[Any, bool] = {},
) -> Any:
    """``lax.while_loop`` with ``cond_fn(mdl, c)`` and ``body_fn(mdl, c)``; the
    ``carry_variables`` collections are carried from one iteration to the next."""
    scope, (c, b) = _direct((cond_fn, body_fn), mdl)
    return lift.while_loop(c, b, scope, init, carry_variables, broadcast_variables, split_rngs)


def vjp(
    fn: Callable[..., Any],
    mdl: Module,
    *primals: Any,
    has_aux: bool = False,
    reduce_axes: Any = (),
    vjp_variables: Any = "params",
    variables: Any = True,
    rngs: Any = True,
    multi_scope: bool = False,
) -> Any:
    """``(y, pullback)`` of ``fn(mdl, *primals)``; the pullback returns the cotangents of the
    ``vjp_variables`` collections and of the primals."""
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to vjp is deprecated")
    scope, (core,) = _direct((fn,), mdl)
    return lift.vjp(
        core,
        scope,
        *primals,
        has_aux=has_aux,
        vjp_variables=vjp_variables,
        variables=variables,
        rngs=rngs,
    )


def value_and_grad(
    fn: Callable[..., Any],
    mdl: Module,
    *primals: Any,
    has_aux: bool = False,
    reduce_axes: Any = (),
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """``(value, primal_grads)`` of a scalar ``fn(mdl, *primals)`` (``((value, aux),
    grads)`` with ``has_aux``)."""
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to value_and_grad is deprecated")
    scope, (core,) = _direct((fn,), mdl)
    res = lift.value_and_grad(
        core, scope, *primals, has_aux=has_aux, variables=variables, rngs=rngs
    )
    out = res[0]
    if getattr(out, "shape", ()) != ():
        raise ValueError(
            f"grad can only work on functions with scalar-valued outputs. out shape={out.shape}"
        )
    if has_aux:
        return (out, res[1]), res[2]
    return out, res[1]


def grad(
    fn: Callable[..., Any],
    mdl: Module,
    *primals: Any,
    has_aux: bool = False,
    reduce_axes: Any = (),
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """The gradients of a scalar ``fn(mdl, *primals)`` with respect to the primals
    (``(grads, aux)`` with ``has_aux``)."""
    res = value_and_grad(
        fn, mdl, *primals, has_aux=has_aux, reduce_axes=reduce_axes, variables=variables, rngs=rngs
    )
    if has_aux:
        (_, aux), g = res
        return g, aux
    return res[1]


def jvp(
    fn: Callable[..., Any],
    mdl: Module,
    primals: Any,
    tangents: Any,
    variable_tangents: Mapping[str, Any],
    variables: Any = True,
    rngs: Any = True,
) -> Any:
    """``(y, y_tangent)`` of ``fn(mdl, *primals)`` along ``tangents`` and the collection
    tangents ``variable_tangents`` (``{'params': ...}``)."""
    scope, (core,) = _direct((fn,), mdl)
    return lift.jvp(core, scope, primals, tangents, variable_tangents, variables, rngs)


def custom_vjp(
    fn: Callable[..., Any],
    forward_fn: Callable[..., Any],
    backward_fn: Callable[..., Any],
    grad_vars: Any = "params",
    nondiff_argnums: Sequence[int] = (),
) -> Callable[..., Any]:
    """``fn(mdl, *args)`` with a custom VJP: ``forward_fn(mdl, *args) -> (y, residuals)``,
    ``backward_fn(*nondiff_args, residuals, y_t) -> (grad_vars_cotangent, *arg_cotangents)``."""

    def call(mdl: Module, *args: Any) -> Any:
        scope, (f, fwd) = _direct((fn, forward_fn), mdl)
        return lift.custom_vjp(f, fwd, backward_fn, grad_vars, nondiff_argnums)(scope, *args)

    return call


_NAMED_CALL = [False]


def named_call(class_fn: Callable[..., Any], force: bool = True) -> Callable[..., Any]:
    """``class_fn`` itself: trellax has no profiler name stack to label."""
    return class_fn


def enable_named_call() -> None:
    """Turns on the labelling of module methods for profiles (no effect in trellax)."""
    _NAMED_CALL[0] = True


def disable_named_call() -> None:
    """Turns off the labelling of module methods for profiles (no effect in trellax)."""
    _NAMED_CALL[0] = False


@contextlib.contextmanager
def override_named_call(enable: bool = True) -> Iterator[None]:
    """Sets the named-call flag inside a ``with`` block (no effect in trellax)."""
    old = _NAMED_CALL[0]
    _NAMED_CALL[0] = enable
    try:
        yield
    finally:
        _NAMED_CALL[0] = old


def add_metadata_axis(
    target: Target,
    variable_axes: Mapping[Any, Any] = {},
    metadata_params: dict[Any, Any] = {},  # noqa: B006
) -> Target:
    """A module whose boxed variables (``Partitioned``) get an extra axis name
    (``metadata_params["partition_name"]``) at ``variable_axes``' axis, as a lifted
    ``vmap``/``scan`` would record it, without mapping anything."""
    ins, outs = lift._split_axes(variable_axes)

    def make(core: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
        def wrapper(scope: Scope, *args: Any, **kwargs: Any) -> Any:
            packed = lift.Packed(scope, [f for f, _ in ins], [f for f, _ in outs], (True,))
            groups = tuple(
                meta.remove_axis(g, ax, metadata_params) if ax is not None else g
                for g, (_, ax) in zip(packed.variable_groups, ins)
            )
            inner = packed.inner(groups, packed.rng_groups)
            y = core(inner, *args, **kwargs)
            out = tuple(
                meta.add_axis(g, ax, metadata_params) if ax is not None else g
                for g, (_, ax) in zip(packed.repack(inner), outs)
            )
            packed.publish(out)
            return y

        return wrapper

    return _lift("add_metadata_axis", make, target, None)  # type: ignore[no-any-return]


def _fingerprint(value: Any, seen: dict[int, int] | None = None) -> Any:
    """A hashable summary of ``value`` for ``nn.jit``'s cache (Flax's module fingerprint): a
    module by its type, its fields other than ``parent`` and ``name``, and its naming state."""
    seen = {} if seen is None else seen
    if isinstance(value, Module):
        if id(value) in seen:
            return (type(value), seen[id(value)])
        seen[id(value)] = len(seen)
        fields = [
            (f.name, _fingerprint(getattr(value, f.name, None), seen))
            for f in dataclasses.fields(value)
            if f.name not in ("parent", "name")
        ]
        st: _State = value._state
        state = (st.in_compact, st.setup_called, tuple(sorted(st.autoname.items())))
        return (type(value), tuple(fields), state)
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return (type(value), tuple(_fingerprint(v, seen) for v in value))
    if isinstance(value, Mapping):
        return (type(value), tuple((k, _fingerprint(v, seen)) for k, v in value.items()))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = tuple(
            (f.name, _fingerprint(getattr(value, f.name, None), seen))
            for f in dataclasses.fields(value)
        )
        return (type(value), items)
    if "state_dict" in FLAX_HOOKS:  # registered with flax.serialization: by its state dict
        registered, state = FLAX_HOOKS["state_dict"](value)
        if registered:
            return (type(value), _fingerprint(state, seen))
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    return value


@dataclasses.dataclass(frozen=True, eq=False)
class _HashableProxy:
    """A hashable stand-in for a module: equal for modules with equal fields (Flax's cache key
    of ``nn.jit``)."""

    module_ref: weakref.ref[Module]
    hash_key: int

    @classmethod
    def from_module(cls, module: Module) -> _HashableProxy:
        return cls(weakref.ref(module), hash(_fingerprint(module)))

    def __hash__(self) -> int:
        return self.hash_key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _HashableProxy) and self.hash_key == other.hash_key

    @property
    def module(self) -> Module | None:
        return self.module_ref()
