"""Partitioning metadata (Flax's ``flax.core.meta`` and ``flax.linen.spmd``) on one device.

A parameter may be created *boxed*: ``with_partitioning(init, names)`` wraps the initializer's
array in :class:`Partitioned`, which records one mesh-axis name per array axis. The box is what
``init`` returns and ``apply`` receives; ``Module.param`` hands the layer the plain array
(``unbox``). The lifted transforms that add an axis to a variable (``nn.vmap``, ``nn.scan``)
insert or remove ``metadata_params["partition_name"]`` in the names, as Flax does.

trellax runs on one device, so a sharding constraint changes nothing; the partition specs,
logical-axis rules and ``NamedSharding`` objects are computed as Flax computes them.
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import enum
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from trellax._src.api import jit_options
from trellax._src.nn import errors
from trellax._src.tree import tree_util
from trellax._src.tree.keys import GetAttrKey
from trellax._src.tree.registry import register_pytree_with_keys

# ``PartitionSpec`` and ``NamedSharding`` live on a higher floor (runtime); it registers them here
_SHARDING_TYPES: dict[str, Any] = {}


def register_sharding_types(partition_spec: type, named_sharding: type) -> None:
    """Called by ``trellax._src.runtime.sharding`` with its ``PartitionSpec``/``NamedSharding``."""
    _SHARDING_TYPES["PartitionSpec"] = partition_spec
    _SHARDING_TYPES["NamedSharding"] = named_sharding


def PartitionSpec(*names: Any) -> Any:
    return _SHARDING_TYPES["PartitionSpec"](*names)


def NamedSharding(mesh: Any, spec: Any) -> Any:
    return _SHARDING_TYPES["NamedSharding"](mesh, spec)


def _is_pspec(x: Any) -> bool:
    cls = _SHARDING_TYPES.get("PartitionSpec")
    return cls is not None and isinstance(x, cls)


LogicalRules = Sequence[tuple[str, Any]]
PARTITION_NAME = "partition_name"


_Boxed = TypeVar("_Boxed")


class AxisMetadata(abc.ABC, Generic[_Boxed]):
    """A box around a variable that carries per-axis metadata (Flax's ``AxisMetadata``;
    ``AxisMetadata[T]`` for a box holding a ``T``)."""

    @abc.abstractmethod
    def unbox(self) -> Any:
        """The boxed value."""

    @abc.abstractmethod
    def replace_boxed(self, val: Any) -> AxisMetadata[Any]:
        """The same metadata around ``val``."""

    @abc.abstractmethod
    def add_axis(self, index: int, params: dict[Any, Any]) -> AxisMetadata[Any]:
        """The metadata after a transform added axis ``index`` (``nn.vmap``/``nn.scan``)."""

    @abc.abstractmethod
    def remove_axis(self, index: int, params: dict[Any, Any]) -> AxisMetadata[Any]:
        """The metadata after a transform removed axis ``index``."""


def get_global_mesh() -> Any:
    """The abstract mesh of the context mesh (``jax.set_mesh``), or None without one."""
    mesh = jit_options._context_mesh()
    return None if mesh is None or mesh.empty else mesh.abstract_mesh


def global_mesh_defined() -> bool:
    """Whether a context mesh is set."""
    return get_global_mesh() is not None


def is_axis_metadata(val: Any) -> bool:
    """Whether ``val`` is an :class:`AxisMetadata` box."""
    return isinstance(val, AxisMetadata)


def map_axis_meta(fn: Callable[[AxisMetadata[Any]], Any], tree: Any) -> Any:
    """Applies ``fn`` to every box of ``tree`` (leaves that are not boxes stay)."""
    return tree_util.tree_map(
        lambda x: fn(x) if isinstance(x, AxisMetadata) else x, tree, is_leaf=is_axis_metadata
    )


def add_axis(tree: Any, index: int, params: dict[Any, Any]) -> Any:
    """Every box of ``tree`` after adding axis ``index``."""
    return map_axis_meta(lambda x: x.add_axis(index, params), tree)


def remove_axis(tree: Any, index: int, params: dict[Any, Any]) -> Any:
    """Every box of ``tree`` after removing axis ``index``."""
    return map_axis_meta(lambda x: x.remove_axis(index, params), tree)


def unbox(tree: Any) -> Any:
    """``tree`` with every :class:`AxisMetadata` box replaced by its value."""
    return map_axis_meta(lambda x: unbox(x.unbox()), tree)


def replace_boxed(tree: Any, updates: Any) -> Any:
    """``tree``'s boxes around the values of ``updates`` (same structure, unboxed)."""

    def update(c: Any, v: Any) -> Any:
        if isinstance(c, AxisMetadata):
            return c.replace_boxed(replace_boxed(c.unbox(), v))
        return v

    return tree_util.tree_map(update, tree, updates, is_leaf=is_axis_metadata)


@dataclasses.dataclass(frozen=True)
class Partitioned(AxisMetadata[_Boxed]):
    """A value with one mesh-axis name (or ``None``) per axis; a pytree whose one child is
    ``value`` (``names`` and ``mesh`` are static)."""

    value: Any
    names: tuple[Any, ...]
    mesh: Any = None

    def unbox(self, apply_constraint: bool = True) -> Any:
        """The value (a sharding constraint is a no-op on one device)."""
        return self.value

    def replace(self, **updates: Any) -> Any:
        """A copy with some fields replaced."""
        return dataclasses.replace(self, **updates)

    def replace_boxed(self, val: Any) -> Any:
        return self.replace(value=val)

    def _partition_name(self, params: dict[Any, Any]) -> Any:
        if PARTITION_NAME not in params:
            raise errors.PartitioningUnspecifiedError(self)
        return params[PARTITION_NAME]

    def add_axis(self, index: int, params: dict[Any, Any]) -> Any:
        name = self._partition_name(params)
        names = list(self.names)
        while len(names) < index:
            names.append(None)
        names.insert(index, name)
        return self.replace(names=tuple(names))

    def remove_axis(self, index: int, params: dict[Any, Any]) -> Any:
        name = self._partition_name(params)
        names = list(self.names)
        removed = names.pop(index)
        if removed != name:
            raise ValueError(f"axis {index} of {self.names} is {removed!r}, not {name!r}")
        return self.replace(names=tuple(names))

    def get_partition_spec(self) -> Any:
        """The ``PartitionSpec`` of the names."""
        return PartitionSpec(*self.names)

    def get_sharding(self, mesh: Any) -> Any:
        """The ``NamedSharding`` of the names on ``mesh``."""
        return NamedSharding(mesh, self.get_partition_spec())

    #: field name -> the name of the same metadata on an ``nnx.Variable`` (nnx's Linen bridge)
    _nnx_names: ClassVar[dict[str, str]] = {"names": "out_sharding"}

    def to_nnx_metadata(self) -> dict[str, Any]:
        """The fields as ``nnx.Variable`` metadata (``names`` is nnx's ``out_sharding``)."""
        return {
            self._nnx_names.get(f.name, f.name): getattr(self, f.name)
            for f in dataclasses.fields(self)
        }

    @classmethod
    def from_nnx_metadata(cls, metadata: dict[str, Any]) -> Any:
        """The box of an ``nnx.Variable``'s value and metadata (the inverse of
        :meth:`to_nnx_metadata`; metadata that are not fields are dropped)."""
        back = {nnx: field for field, nnx in cls._nnx_names.items()}
        fields = {f.name for f in dataclasses.fields(cls)}
        kwargs = {back.get(k, k): v for k, v in metadata.items()}
        return cls(**{k: v for k, v in kwargs.items() if k in fields})


@dataclasses.dataclass(frozen=True, eq=False)
class LogicallyPartitioned(Partitioned[_Boxed]):
    """:class:`Partitioned` with *logical* axis names, mapped to mesh axes by ``rules`` (or the
    rules of :func:`logical_axis_rules`)."""

    rules: Any = None

    _nnx_names: ClassVar[dict[str, str]] = {"names": "out_sharding", "rules": "sharding_rules"}

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is type(self):
            return bool((self.value,) == (other.value,))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def get_partition_spec(self) -> Any:
        return PartitionSpec(*self.names)


def _flatten_partitioned(p: Partitioned[Any]) -> tuple[tuple[Any], tuple[Any, ...]]:
    aux = tuple(getattr(p, f.name) for f in dataclasses.fields(p) if f.name != "value")
    return (p.value,), aux


def _register(cls: type[Partitioned[Any]]) -> None:
    names = [f.name for f in dataclasses.fields(cls) if f.name != "value"]

    def unflatten(aux: Any, children: Any) -> Partitioned[Any]:
        return cls(next(iter(children)), **dict(zip(names, aux)))

    def flatten_with_keys(p: Partitioned[Any]) -> tuple[Any, Any]:
        children, aux = _flatten_partitioned(p)
        return [(GetAttrKey("value"), children[0])], aux

    register_pytree_with_keys(cls, flatten_with_keys, unflatten, _flatten_partitioned)


_register(Partitioned)
_register(LogicallyPartitioned)


def with_partitioning(
    fn: Callable[..., Any], names: Sequence[Any], mesh: Any = None
) -> Callable[..., Partitioned[Any]]:
    """Wraps initializer ``fn`` so that its array comes boxed in :class:`Partitioned`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Partitioned[Any]:
        return Partitioned(fn(*args, **kwargs), tuple(names), mesh=mesh)

    return wrapper


def with_logical_partitioning(
    fn: Callable[..., Any], names: Sequence[Any], mesh: Any = None, rules: Any = None
) -> Callable[..., LogicallyPartitioned[Any]]:
    """Wraps initializer ``fn`` so that its array comes boxed in :class:`LogicallyPartitioned`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> LogicallyPartitioned[Any]:
        return LogicallyPartitioned(fn(*args, **kwargs), tuple(names), mesh=mesh, rules=rules)

    return wrapper


def _leaf_pspec(x: Any) -> Any:
    if hasattr(x, "get_partition_spec"):
        return x.get_partition_spec()
    if hasattr(x, "shape"):
        return PartitionSpec()
    return None


def get_partition_spec(tree: Any) -> Any:
    """The tree of ``PartitionSpec``: a box's names, ``PartitionSpec()`` for a plain array."""
    return tree_util.tree_map(_leaf_pspec, tree, is_leaf=is_axis_metadata)


def get_sharding(tree: Any, mesh: Any) -> Any:
    """The tree of ``NamedSharding`` on ``mesh`` of :func:`get_partition_spec`."""

    def one(x: Any) -> Any:
        spec = _leaf_pspec(x)
        return None if spec is None else NamedSharding(mesh, spec)

    return tree_util.tree_map(one, tree, is_leaf=is_axis_metadata)


# -- logical axis rules --------------------------------------------------------------------------


class _AxisRules(threading.local):
    rules: LogicalRules = ()


_AXIS_RULES = _AxisRules()


def set_logical_axis_rules(rules: LogicalRules) -> None:
    """Sets the global logical-to-mesh axis rules."""
    _AXIS_RULES.rules = rules


def get_logical_axis_rules() -> LogicalRules:
    """The current logical-to-mesh axis rules."""
    return _AXIS_RULES.rules


@contextlib.contextmanager
def logical_axis_rules(rules: LogicalRules) -> Iterator[None]:
    """Sets the logical-to-mesh axis rules inside a ``with`` block."""
    old = _AXIS_RULES.rules
    try:
        _AXIS_RULES.rules = rules
        yield
    finally:
        _AXIS_RULES.rules = old


class _Unassigned:
    def __repr__(self) -> str:
        return "UnassignedAxis"

    def __bool__(self) -> bool:
        return False


_UNASSIGNED = _Unassigned()


def _flat_names(x: Any) -> set[Any]:
    if isinstance(x, list | tuple):
        out: set[Any] = set()
        for e in x:
            out |= _flat_names(e)
        return out
    return {x}


def _unconstrained(name: Any) -> bool:
    cls = _SHARDING_TYPES.get("PartitionSpec")
    return cls is not None and name is getattr(cls, "UNCONSTRAINED", None)


def _logical_to_mesh_axes(
    array_dim_names: Sequence[Any] | None, rules: LogicalRules | None = None
) -> list[Any] | None:
    """The mesh axes of each logical name (``_UNASSIGNED`` where no rule assigns one)."""
    if array_dim_names is None:
        return None
    if rules is None:
        rules = get_logical_axis_rules()
    names = list(array_dim_names)
    dups = tuple(
        sorted({n for n in names if isinstance(n, str) and names.count(n) > 1}, key=names.index)
    )
    if dups:
        raise ValueError(f"Unsupported: Dimensions {dups} occur more than once in array names.")
    if not isinstance(rules, tuple | list):
        raise ValueError("Unknown axis rule specification type.")
    result: list[Any] = [(_UNASSIGNED if isinstance(n, str) else n) for n in names]
    for logical, mesh_names in rules:
        if logical in names:
            pos = names.index(logical)
            used: set[Any] = set()
            for r in result:
                if r is not _UNASSIGNED:
                    used |= _flat_names(r)
            # None and UNCONSTRAINED name no mesh axis: any number of axes may take them
            new = {n for n in _flat_names(mesh_names) if n is not None and not _unconstrained(n)}
            if not (used & new) and result[pos] is _UNASSIGNED:
                result[pos] = mesh_names
    return result


def logical_to_mesh_axes(
    array_dim_names: Sequence[Any] | None, rules: LogicalRules | None = None
) -> Any:
    """The ``PartitionSpec`` of an array whose axes have the given logical names: each rule
    ``(logical, mesh)``, in order, assigns mesh axis(es) ``mesh`` to the axis named
    ``logical`` if neither is assigned yet; names no rule assigns become ``None``."""
    result = _logical_to_mesh_axes(array_dim_names, rules)
    if result is None:
        return None
    return PartitionSpec(*[None if r is _UNASSIGNED else r for r in result])


def logical_to_mesh(tree: Any, rules: LogicalRules | None = None) -> Any:
    """:func:`logical_to_mesh_axes` on every ``PartitionSpec`` of ``tree``."""
    return tree_util.tree_map(
        lambda x: logical_to_mesh_axes(x, rules),
        tree,
        is_leaf=_is_pspec,
    )


def logical_to_mesh_sharding(tree: Any, mesh: Any, rules: LogicalRules | None = None) -> Any:
    """The ``NamedSharding`` on ``mesh`` of every logical ``PartitionSpec`` of ``tree``."""
    return tree_util.tree_map(
        lambda x: NamedSharding(mesh, x),
        logical_to_mesh(tree, rules),
        is_leaf=_is_pspec,
    )


class RulesFallback(enum.Enum):
    """What ``with_logical_constraint`` does with a logical axis no rule maps."""

    AXIS_IS_UNSHARDED = "axis_is_unsharded"
    RAISE_ERROR = "raise_error"
    NO_CONSTRAINT = "no_constraint"


def _with_sharding_constraint(x: Any, axis_resources: Any, mesh: Any = None) -> Any:
    """``x`` itself: with one device there is nothing to constrain (Flax's helper is a no-op
    too without a global mesh)."""
    del axis_resources, mesh
    return x


def _constrain_one(
    axis_resources: Any, x: Any, fallback: RulesFallback, rules: Any, mesh: Any
) -> Any:
    mesh_axes = _logical_to_mesh_axes(axis_resources, rules)
    if mesh_axes is None:
        return _with_sharding_constraint(x, None, mesh=mesh)
    if fallback == RulesFallback.AXIS_IS_UNSHARDED:
        mesh_axes = [None if a is _UNASSIGNED else a for a in mesh_axes]
    elif any(a is _UNASSIGNED for a in mesh_axes):
        if fallback == RulesFallback.RAISE_ERROR:
            raise ValueError(f"Axis names {axis_resources} did not match a rule")
        return x
    return _with_sharding_constraint(x, PartitionSpec(*mesh_axes), mesh=mesh)


def _is_logical_spec(x: Any) -> bool:
    if x is None or _is_pspec(x):
        return True
    return isinstance(x, tuple) and all(
        isinstance(e, str) or e is None or _unconstrained(e) for e in x
    )


def with_logical_constraint(
    x: Any,
    logical_axis_resources: Any,
    rules: LogicalRules | None = None,
    mesh: Any = None,
    fallback: RulesFallback = RulesFallback.AXIS_IS_UNSHARDED,
) -> Any:
    """``x`` itself: a sharding constraint has no effect on one device. The logical names are
    still resolved by the rules: duplicated names raise ``ValueError``, and so does a name no
    rule maps with ``fallback=RulesFallback.RAISE_ERROR``."""
    if rules is None:
        rules = get_logical_axis_rules()
    if not rules or logical_axis_resources is None:
        return x
    return tree_util.tree_map(
        lambda spec, leaf: _constrain_one(spec, leaf, fallback, rules, mesh),
        logical_axis_resources,
        x,
        is_leaf=_is_logical_spec,
    )
    tree_util.tree_map(
        lambda spec: logical_to_mesh_axes(spec, rules),
        logical_axis_resources,
        is_leaf=lambda s: s is None or isinstance(s, tuple),
    )
    return x
