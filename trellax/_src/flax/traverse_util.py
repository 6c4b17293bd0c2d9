"""``flax.traverse_util``: nested-dict flattening, path-aware maps and the Traversal classes.

``flatten_dict`` turns ``{'a': {'b': 1}}`` into ``{('a', 'b'): 1}`` (or ``{'a/b': 1}`` with
``sep='/'``); ``unflatten_dict`` inverts it. ``path_aware_map(f, tree)`` calls ``f(path, value)``
on each leaf of a nested dict, e.g. to label parameters for ``optax.multi_transform``.

A :class:`Traversal` selects parts of a structure: ``t_identity['params'].each()`` selects each
entry of ``x['params']``; ``.iterate(x)`` yields them and ``.update(fn, x)`` returns a copy with
``fn`` applied to them (the input is never mutated). Flax deprecates Traversals (creating one
warns ``DeprecationWarning``) in favour of optax's masks; they are here so old programs run.

Example::

    >>> flatten_dict({"a": {"b": 1, "c": {}}, "d": 2}, sep="/")
    {'a/b': 1, 'd': 2}
    >>> path_aware_map(lambda path, v: "kernel" in path, {"dense": {"kernel": 0, "bias": 0}})
    {'dense': {'kernel': True, 'bias': False}}
"""

from __future__ import annotations

import abc
import copy
import dataclasses
import warnings
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from trellax._src.flax.frozen_dict import FrozenDict, unfreeze
from trellax._src.flax.struct import dataclass
from trellax.tree_util import tree_leaves, tree_map


@dataclass
class _EmptyNode:
    """Stands for an empty dict in ``flatten_dict(..., keep_empty_nodes=True)``'s output."""


empty_node = _EmptyNode()


def _flatten(
    xs: Any,
    prefix: tuple[Any, ...],
    keep_empty_nodes: bool,
    is_leaf: Callable[[tuple[Any, ...], Any], bool] | None,
    sep: str | None,
) -> dict[Any, Any]:
    def key(path: tuple[Any, ...]) -> Any:
        return path if sep is None else sep.join(path)

    if not isinstance(xs, (FrozenDict, dict)) or (is_leaf is not None and is_leaf(prefix, xs)):
        return {key(prefix): xs}
    flat: dict[Any, Any] = {}
    for k, value in xs.items():
        flat.update(_flatten(value, (*prefix, k), keep_empty_nodes, is_leaf, sep))
    if keep_empty_nodes and not xs and prefix:
        return {key(prefix): empty_node}
    return flat


def flatten_dict(
    xs: Any,
    keep_empty_nodes: bool = False,
    is_leaf: Callable[[tuple[Any, ...], Any], bool] | None = None,
    sep: str | None = None,
) -> dict[Any, Any]:
    """A nested dict (or FrozenDict) as one flat dict keyed by key tuples.

    Args:
      xs: the nested dict.
      keep_empty_nodes: keep empty sub-dicts, as the value ``empty_node`` (``unflatten_dict``
        restores them); by default they are dropped.
      is_leaf: ``is_leaf(path, value)`` says a sub-dict is a leaf (not flattened further).
      sep: when given, the keys are ``sep``-joined strings instead of tuples.
    """
    if not isinstance(xs, (FrozenDict, dict)):
        raise TypeError(f"flatten_dict expects a dict or FrozenDict; got {type(xs)}")
    return _flatten(xs, (), keep_empty_nodes, is_leaf, sep)


def unflatten_dict(xs: dict[Any, Any], sep: str | None = None) -> dict[Any, Any]:
    """The nested dict that ``flatten_dict`` flattened (``sep`` as given to it)."""
    if not isinstance(xs, dict):
        raise TypeError(f"unflatten_dict expects a dict; got {type(xs)}")
    nested: dict[Any, Any] = {}
    for path, value in xs.items():
        keys = path.split(sep) if sep is not None else path
        if value is empty_node:
            value = {}
        node = nested
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node[keys[-1]] = value
    return nested


def path_aware_map(f: Callable[[tuple[Any, ...], Any], Any], nested_dict: Any) -> dict[Any, Any]:
    """A nested dict of ``f(path, value)`` for every leaf (``path`` a tuple of keys).

    Empty sub-dicts are kept as they are.
    """
    flat = flatten_dict(nested_dict, keep_empty_nodes=True)
    return unflatten_dict({k: v if v is empty_node else f(k, v) for k, v in flat.items()})


# ----------------------------------------------------------------- Traversals


class Traversal(abc.ABC):
    """Selects parts of a structure to ``iterate`` over or ``update`` (deprecated in Flax)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Traversal:
        warnings.warn(
            # The message starts as Flax's does: programs and test configs filter on it.
            "`flax.traverse_util.Traversal` will be deprecated. Select parameters with optax "
            "masks instead (optax.masked, optax.multi_transform and path_aware_map).",
            DeprecationWarning,
            stacklevel=2,
        )
        return super().__new__(cls)

    @abc.abstractmethod
    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        """A copy of ``inputs`` with ``fn`` applied to every selected item."""

    @abc.abstractmethod
    def iterate(self, inputs: Any) -> Iterator[Any]:
        """The selected items of ``inputs``."""

    def set(self, values: list[Any], inputs: Any) -> Any:
        """A copy of ``inputs`` with the selected items replaced by ``values``, in order.

        Raises ``ValueError`` when ``values`` has fewer or more items than the selection.
        """
        remaining = list(values)

        def take(_: Any) -> Any:
            if not remaining:
                raise ValueError("Not enough values provided")
            return remaining.pop(0)

        result = self.update(take, inputs)
        if remaining:
            raise ValueError("Too many values provided")
        return result

    def compose(self, other: Traversal) -> Traversal:
        """This traversal followed by ``other`` on each selected item."""
        return TraverseCompose(self, other)

    def merge(self, *traversals: Traversal) -> Traversal:
        """Then the union of the selections of ``traversals``."""
        return self.compose(TraverseMerge(*traversals))

    def each(self) -> Traversal:
        """Then each entry of the selected lists, tuples or dicts."""
        return self.compose(TraverseEach())

    def tree(self) -> Traversal:
        """Then each leaf of the selected pytrees."""
        return self.compose(TraverseTree())

    def filter(self, fn: Callable[[Any], bool]) -> Traversal:
        """Then only the selected items for which ``fn`` is true."""
        return self.compose(TraverseFilter(fn))

    def __getattr__(self, attr: str) -> Traversal:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return self.compose(TraverseAttr(attr))

    def __getitem__(self, key: Any) -> Traversal:
        return self.compose(TraverseItem(key))


class TraverseId(Traversal):
    """Selects the input itself."""

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        return fn(inputs)

    def iterate(self, inputs: Any) -> Iterator[Any]:
        yield inputs


with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    t_identity = TraverseId()


class TraverseMerge(Traversal):
    """Selects what any of the given traversals select (updates apply in order)."""

    def __init__(self, *traversals: Traversal) -> None:
        self._traversals = traversals

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        for traversal in self._traversals:
            inputs = traversal.update(fn, inputs)
        return inputs

    def iterate(self, inputs: Any) -> Iterator[Any]:
        for traversal in self._traversals:
            yield from traversal.iterate(inputs)


class TraverseCompose(Traversal):
    """Applies the second traversal to each item the first selects."""

    def __init__(self, x: Traversal, y: Traversal) -> None:
        self._x = x
        self._y = y

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        return self._x.update(lambda item: self._y.update(fn, item), inputs)

    def iterate(self, inputs: Any) -> Iterator[Any]:
        for item in self._x.iterate(inputs):
            yield from self._y.iterate(item)


class TraverseFilter(Traversal):
    """Selects the input when the predicate holds for it."""

    def __init__(self, fn: Callable[[Any], bool]) -> None:
        self._fn = fn

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        return fn(inputs) if self._fn(inputs) else inputs

    def iterate(self, inputs: Any) -> Iterator[Any]:
        if self._fn(inputs):
            yield inputs


def _is_namedtuple_type(t: type) -> bool:
    return issubclass(t, tuple) and hasattr(t, "_fields")


class TraverseAttr(Traversal):
    """Selects an attribute; updates copy the object (namedtuple ``_replace``, dataclass
    ``replace``, otherwise a shallow copy)."""

    def __init__(self, attr: str) -> None:
        self._attr = attr

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        value = fn(getattr(inputs, self._attr))
        if _is_namedtuple_type(type(inputs)):
            return inputs._replace(**{self._attr: value})
        if dataclasses.is_dataclass(inputs) and not isinstance(inputs, type):
            return dataclasses.replace(inputs, **{self._attr: value})
        new = copy.copy(inputs)
        setattr(new, self._attr, value)
        return new

    def iterate(self, inputs: Any) -> Iterator[Any]:
        yield getattr(inputs, self._attr)


class TraverseItem(Traversal):
    """Selects ``inputs[key]`` (a slice selects several items of a sequence)."""

    def __init__(self, key: Hashable | slice) -> None:
        self._key = key

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        if isinstance(inputs, tuple):
            key = self._key
            chosen = key if isinstance(key, slice) else slice(key, key + 1)  # type: ignore[operator]
            indices = set(range(*chosen.indices(len(inputs))))
            items = [fn(x) if i in indices else x for i, x in enumerate(inputs)]
            if _is_namedtuple_type(type(inputs)):
                return type(inputs)(*items)
            return type(inputs)(items)
        new = copy.copy(inputs)
        new[self._key] = fn(new[self._key])
        return new

    def iterate(self, inputs: Any) -> Iterator[Any]:
        if isinstance(self._key, slice):
            yield from inputs[self._key]
        else:
            yield inputs[self._key]


class TraverseEach(Traversal):
    """Selects each entry of a list, tuple or dict (dict values)."""

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        ty = type(inputs)
        if ty is dict:
            return {key: fn(value) for key, value in inputs.items()}
        if ty not in (list, tuple):
            raise ValueError("Only the entries of a list or tuple can be traversed.")
        return ty(fn(x) for x in inputs)

    def iterate(self, inputs: Any) -> Iterator[Any]:
        if isinstance(inputs, dict):
            yield from inputs.values()
        else:
            yield from inputs


class TraverseTree(Traversal):
    """Selects each leaf of a pytree."""

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        return tree_map(fn, inputs)

    def iterate(self, inputs: Any) -> Iterator[Any]:
        yield from tree_leaves(inputs)


def _params_dict(inputs: Any) -> dict[Any, Any]:
    if isinstance(inputs, (dict, FrozenDict)):
        result: dict[Any, Any] = unfreeze(inputs)
        return result
    raise ValueError(
        f"Can only traverse a flax Model instance or a nested dict, not {type(inputs)}"
    )


class ModelParamTraversal(Traversal):
    """Selects the parameters of a nested dict whose name passes ``filter_fn(name, value)``.

    A parameter's name is its path joined by ``/`` with a leading ``/``, e.g.
    ``'/Dense_0/kernel'``. Parameters are visited in sorted path order.
    """

    def __init__(self, filter_fn: Callable[[str, Any], bool]) -> None:
        self._filter_fn = filter_fn

    def iterate(self, inputs: Any) -> Iterator[Any]:
        flat = flatten_dict(_params_dict(inputs))
        for path, value in sorted(flat.items(), key=lambda item: item[0]):
            if self._filter_fn("/" + "/".join(path), value):
                yield value

    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        flat = flatten_dict(_params_dict(inputs), keep_empty_nodes=True)
        updated = {}
        for path, value in sorted(flat.items(), key=lambda item: item[0]):
            if value is not empty_node and self._filter_fn("/" + "/".join(path), value):
                value = fn(value)
            updated[path] = value
        nested = unflatten_dict(updated)
        return FrozenDict(nested) if isinstance(inputs, FrozenDict) else nested
