"""Flax's older axis-annotated variables (``flax.linen.partitioning``): ``param_with_axes`` and
``variable_with_axes`` store the logical axis names of a variable beside it, as an
:class:`AxisMetadata` in the collection ``<col>_axes`` under ``<name>_axes``;
``get_axis_names`` turns those into ``PartitionSpec``s; ``scan_with_axes``/``vmap_with_axes``
insert the loop's axis name into them. On one device the sharding constraints they apply are
checks of the rules only (``with_logical_constraint``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

from trellax._src.nn import errors, transforms
from trellax._src.nn import module as module_lib
from trellax._src.nn.flax_hooks import FLAX_HOOKS
from trellax._src.nn.module_util import Variable
from trellax._src.nn.partitioning import PartitionSpec, RulesFallback, with_logical_constraint
from trellax._src.tree import tree_util
from trellax._src.tree.registry import register_pytree_node


@dataclasses.dataclass(frozen=True)
class AxisMetadata:
    """The logical axis names of one variable (a pytree of name tuples; no array leaves)."""

    names: Any

    def replace(self, **updates: Any) -> AxisMetadata:
        """A copy with ``updates`` applied."""
        return dataclasses.replace(self, **updates)


register_pytree_node(AxisMetadata, lambda m: ((), m.names), lambda names, _: AxisMetadata(names))


def _is_logical_spec(x: Any) -> bool:
    return x is None or (isinstance(x, tuple) and all(isinstance(e, str) or e is None for e in x))


def _sow_reduce(x: Any, y: Any) -> Any:
    if not isinstance(y, AxisMetadata):
        raise TypeError("Expected newly sown value to be an AxisMetadata")
    if isinstance(x, AxisMetadata):
        if x != y:
            raise ValueError(
                f"If axis names are sown twice, expected them to match. Got {x} and {y}."
            )
    elif x:
        raise AssertionError(f"Non-initial-or-AxisMetadata value encountered: {x}")
    return y


def _current(module: Any) -> Any:
    if module is None:
        module = module_lib._context.module_stack[-1]
    if module is None:
        raise ValueError("param_with_axes/variable_with_axes need a module being run")
    return module


def param_with_axes(
    name: str,
    init_fn: Callable[..., Any],
    *init_args: Any,
    axes: tuple[str, ...] | None = None,
    module: Any = None,
    **init_kwargs: Any,
) -> Any:
    """The parameter ``name`` of the module being run (or ``module``); with ``axes``, its
    axis names are sown into ``params_axes/<name>_axes``."""
    module = _current(module)
    value = module.param(name, init_fn, *init_args, **init_kwargs)
    if axes is not None:
        value = with_logical_constraint(value, axes)
        module.sow("params_axes", f"{name}_axes", AxisMetadata(axes), reduce_fn=_sow_reduce)
    return value


class PartitionedVariable(Variable):
    """A variable whose value is constrained to its logical axes when read and written."""

    def __init__(
        self,
        scope: Any,
        collection: str,
        name: str,
        axes: tuple[str, ...] | None = None,
        fallback: RulesFallback = RulesFallback.AXIS_IS_UNSHARDED,
    ) -> None:
        super().__init__(scope, collection, name, unbox=False)
        self.axes = axes
        self.fallback = fallback

    @property
    def value(self) -> Any:
        value = self.scope.get_variable(self.collection, self.name)
        if self.axes is not None:
            value = with_logical_constraint(value, self.axes, fallback=self.fallback)
        return value

    @value.setter
    def value(self, value: Any) -> None:
        if self.axes is not None:
            value = with_logical_constraint(value, self.axes, fallback=self.fallback)
        self.scope.put_variable(self.collection, self.name, value)


def variable_with_axes(
    collection: str,
    name: str,
    init_fn: Callable[..., Any],
    *init_args: Any,
    axes: tuple[str, ...] | None = None,
    module: Any = None,
    fallback: RulesFallback = RulesFallback.AXIS_IS_UNSHARDED,
    **init_kwargs: Any,
) -> PartitionedVariable:
    """The variable ``collection/name`` of the module being run; with ``axes``, its axis
    names are sown into ``<collection>_axes/<name>_axes``."""
    module = _current(module)

    def init() -> Any:
        value = init_fn(*init_args, **init_kwargs)
        return value if axes is None else with_logical_constraint(value, axes, fallback=fallback)

    var = module.variable(collection, name, init)
    if axes is not None:
        module.sow(f"{collection}_axes", f"{name}_axes", AxisMetadata(axes), reduce_fn=_sow_reduce)
    return PartitionedVariable(var.scope, collection, name, axes, fallback)


def _flatten(tree: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    out: dict[tuple[str, ...], Any] = {}
    for k, v in tree.items():
        if isinstance(v, Mapping):
            out.update(_flatten(v, (*prefix, k)))
        else:
            key = (*prefix, k)
            out[key] = v
    return out


def get_axis_names(axes_metadata: Mapping[str, Any]) -> Any:
    """The ``PartitionSpec`` of every variable of an ``*_axes`` collection, by variable path
    (the ``_axes`` suffix removed)."""

    def rewrite(names: Any) -> Any:
        return tree_util.tree_map(
            lambda x: None if x is None else PartitionSpec(*x), names, is_leaf=_is_logical_spec
        )

    out: dict[str, Any] = {}
    for path, meta in _flatten(axes_metadata).items():
        node = out
        *parents, last = (*path[:-1], re.sub(r"_axes$", "", path[-1]))
        for p in parents:
            node = node.setdefault(p, {})
        node[last] = rewrite(meta.names)
    freeze = FLAX_HOOKS.get("FrozenDict")
    return freeze(out) if freeze is not None else out


def _tree_map_axes(fn: Callable[[AxisMetadata], Any], tree: Any) -> Any:
    return tree_util.tree_map(
        lambda x: fn(x) if isinstance(x, AxisMetadata) else x,
        tree,
        is_leaf=lambda x: isinstance(x, AxisMetadata),
    )


def _is_mutable(axis_col: str) -> bool:
    last = module_lib._context.module_stack[-1]
    return bool(last.is_mutable_collection(axis_col)) if last is not None else True


def _add_axis_to_metadata(fn: Any, axis_pos: Any, axis_name: str, axis_col: str) -> Any:
    pos: int = getattr(axis_pos, "axis", axis_pos)

    def insert(meta: AxisMetadata) -> AxisMetadata:
        def leaf(names: Any) -> Any:
            if names is None:
                return names
            names = list(names)
            names.insert(pos, axis_name)
            return tuple(names)

        return meta.replace(names=tree_util.tree_map(leaf, meta.names, is_leaf=_is_logical_spec))

    def remove(meta: AxisMetadata) -> AxisMetadata:
        def leaf(names: Any) -> Any:
            if names is None:
                return names
            names = list(names)
            if names[pos] != axis_name:
                raise ValueError(
                    f"Expected axis {axis_name} at position {pos} in axis metadata {names}."
                )
            names.pop(pos)
            return tuple(names)

        return meta.replace(names=tree_util.tree_map(leaf, meta.names, is_leaf=_is_logical_spec))

    return transforms.map_variables(
        fn,
        axis_col,
        mutable=_is_mutable(axis_col),
        trans_in_fn=lambda tree: _tree_map_axes(remove, tree),
        trans_out_fn=lambda tree: _tree_map_axes(insert, tree),
    )


def _union(a: Any, b: tuple[str, ...]) -> Any:
    if a is True:
        return True
    if a is False or a is None:
        return b
    if isinstance(a, str):
        return (a, *b)
    try:
        return (*a, *b)
    except TypeError:
        raise errors.InvalidFilterError(a) from None


def scan_with_axes(
    target: Any,
    variable_axes: Mapping[Any, Any] = {},
    variable_broadcast: Any = False,
    variable_carry: Any = False,
    split_rngs: Mapping[Any, bool] = {},
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    axis_name: str = "layers",
    axes_collections: tuple[str, ...] = ("params",),
    data_transform: Callable[..., Any] | None = None,
    methods: Any = None,
) -> Any:
    """``nn.scan`` whose ``<col>_axes`` metadata are broadcast and get ``axis_name`` inserted
    at the scanned axis of ``<col>``."""
    del data_transform  # no transform of the lifted data here
    broadcast = _union(variable_broadcast, tuple(f"{c}_axes" for c in axes_collections))
    scanned = transforms.scan(
        target,
        variable_axes=variable_axes,
        variable_broadcast=broadcast,
        variable_carry=variable_carry,
        split_rngs=split_rngs,
        in_axes=in_axes,
        out_axes=out_axes,
        length=length,
        reverse=reverse,
        unroll=unroll,
        methods=methods,
    )
    for col in axes_collections:
        if col in variable_axes:
            scanned = _add_axis_to_metadata(scanned, variable_axes[col], axis_name, f"{col}_axes")
    return scanned


def vmap_with_axes(
    target: Any,
    variable_axes: Mapping[Any, Any],
    split_rngs: Mapping[Any, bool] = {},
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
    axis_name: str | None = None,
    partitioning_axis_names: Mapping[Any, str] = {},
    spmd_axis_name: str | None = None,
    methods: Any = None,
) -> Any:
    """``nn.vmap`` whose ``<col>_axes`` metadata get ``partitioning_axis_names[col]``
    inserted at the mapped axis of ``<col>``."""
    variable_axes = dict(variable_axes)
    for name in partitioning_axis_names:
        variable_axes[f"{name}_axes"] = None
    vmapped = transforms.vmap(
        target,
        variable_axes=variable_axes,
        split_rngs=split_rngs,
        in_axes=in_axes,
        out_axes=out_axes,
        axis_size=axis_size,
        axis_name=axis_name,
        spmd_axis_name=spmd_axis_name,
        methods=methods,
    )
    for col, axis in variable_axes.items():
        if col in partitioning_axis_names:
            vmapped = _add_axis_to_metadata(
                vmapped, axis, partitioning_axis_names[col], f"{col}_axes"
            )
    return vmapped
