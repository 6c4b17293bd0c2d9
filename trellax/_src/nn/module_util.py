"""Helpers of :mod:`trellax._src.nn.module` that need no ``Module``: the unspecified-parent
marker, the setup states, Flax's attribute freezing and submodule naming of containers, the
``Variable`` handle, the parameter shape check and ``merge_param``.

Flax's ``flax.linen.module`` has helpers of the same names (``_freeze_attr``,
``_get_local_method_names``, ``_get_suffix_value_pairs``, ``SetupState``) with the same results;
``trellax.nn.module`` re-exports them.
"""

from __future__ import annotations

import enum
import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from trellax._src.api.api import ShapeDtypeStruct, eval_shape
from trellax._src.nn import errors
from trellax._src.nn import partitioning as meta
from trellax._src.nn.flax_hooks import FLAX_HOOKS
from trellax._src.nn.scope import Scope
from trellax._src.tree import tree_util


class _Unspecified:
    def __repr__(self) -> str:
        return "_UNSPECIFIED"

    def __copy__(self) -> _Unspecified:
        return self

    def __deepcopy__(self, memo: Any) -> _Unspecified:
        return self

    def __reduce__(self) -> str:
        return "_UNSPECIFIED"


_UNSPECIFIED: Any = _Unspecified()


class SetupState(enum.IntEnum):
    """Where a bound module's ``setup`` stands: not run (``NEW``), or run (``DONE``).
    (``TRANSFORMED``, Flax's setup run outside a transform boundary, is never used.)"""

    NEW = 0
    TRANSFORMED = 1
    DONE = 2


def _freeze_attr(value: Any) -> Any:
    """``value`` with lists turned into tuples (named tuples keep their class) and dicts into
    ``FrozenDict``s, recursively: what an attribute assigned in ``setup`` becomes."""
    if isinstance(value, Mapping) and (isinstance(value, dict) or _is_frozen_dict(value)):
        frozen = {k: _freeze_attr(v) for k, v in value.items()}
        make = FLAX_HOOKS.get("FrozenDict")
        return make(frozen) if make is not None else frozen
    if isinstance(value, tuple):
        items = [_freeze_attr(v) for v in value]
        if hasattr(value, "_fields") or type(value).__name__ == "PartitionSpec":
            return type(value)(*items)
        return tuple(items)
    if isinstance(value, list):
        return tuple(_freeze_attr(v) for v in value)
    return value


def _is_frozen_dict(value: Any) -> bool:
    cls = FLAX_HOOKS.get("FrozenDict")
    return cls is not None and isinstance(value, cls)  # type: ignore[arg-type]


def _get_local_method_names(cls: type, exclude: Iterable[str] = ()) -> tuple[str, ...]:
    """The names of the methods ``cls`` itself defines (not inherited), leaving out static and
    class methods, classes and the names in ``exclude``."""
    skip = set(exclude)
    names = []
    for name, value in cls.__dict__.items():
        if name in skip or inspect.isclass(value) or not callable(value):
            continue
        if isinstance(value, staticmethod | classmethod):
            continue
        names.append(name)
    return tuple(names)


def _get_suffix_value_pairs(tree: Any) -> list[tuple[str, Any]]:
    """``[(suffix, leaf)]`` of a container of submodules: ``_key`` per dict level, ``_i`` per
    list or tuple index, sorted by the key path; a leaf or an empty container gives
    ``[("", tree)]``. (The names ``setup`` gives the modules of ``self.layers = [...]``.)"""
    flat = _flatten_named(tree, ())
    if not flat or (len(flat) == 1 and flat[0][0] == ()):
        return [("", tree)]
    flat.sort(key=lambda item: item[0])
    return [("_" + "_".join(path), v) for path, v in flat]


def _flatten_named(tree: Any, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
    if isinstance(tree, Mapping):
        items = [(str(k), v) for k, v in tree.items()]
    elif isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a named tuple: by field
        items = [(str(k), getattr(tree, k)) for k in tree._fields]
    elif isinstance(tree, list | tuple):
        items = [(str(i), v) for i, v in enumerate(tree)]
    else:
        return [(path, tree)]
    if not items:
        return [] if path else [(path, tree)]
    return [leaf for k, v in items for leaf in _flatten_named(v, (*path, k))]


def _takes_module(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` can take the module as its first positional argument."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return True
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return bool(params) and (
        params[0].kind in kinds or params[0].kind is inspect.Parameter.VAR_POSITIONAL
    )


def _one(shapes: list[Any]) -> Any:
    return shapes[0] if len(shapes) == 1 else shapes


def _zeros_like(x: Any) -> Any:
    return x * 0


def _add(a: Any, b: Any) -> Any:
    return a + b


def _returns(value: Any) -> Callable[[], Any]:
    return lambda: value


def _boxes(tree: Any) -> list[Any]:
    return tree_util.tree_leaves(tree, is_leaf=meta.is_axis_metadata)


def merge_param(name: str, a: Any, b: Any) -> Any:
    """The one of ``a`` (constructor attribute) and ``b`` (call argument) that is not None."""
    if a is None and b is None:
        raise ValueError(f'Parameter "{name}" must be passed to the constructor or at call time.')
    if a is not None and b is not None:
        raise ValueError(
            f'Parameter "{name}" was passed to the constructor and at call time. '
            "Should be passed just once."
        )
    return a if b is None else b


_SHAPE_CACHE: dict[Any, Any] = {}


def _check_param_shape(
    name: str,
    path: str,
    value: Any,
    init_fn: Callable[..., Any],
    init_args: tuple[Any, ...],
    init_kwargs: dict[str, Any],
) -> None:
    """Raises ScopeParamShapeError when ``value``'s shapes differ from the initializer's."""

    try:
        cache_key: Any = (init_fn, init_args, tuple(sorted(init_kwargs.items())))
        hash(cache_key)
    except TypeError:
        cache_key = None
    expected = _SHAPE_CACHE.get(cache_key) if cache_key is not None else None
    if expected is None:
        abstract_key = ShapeDtypeStruct((2,), np.dtype(np.uint32))
        out = eval_shape(lambda k: init_fn(k, *init_args, **init_kwargs), abstract_key)
        expected = [tuple(leaf.shape) for leaf in tree_util.tree_leaves(out)]
        if cache_key is not None:
            if len(_SHAPE_CACHE) >= 4096:  # initializers made per call would grow it forever
                _SHAPE_CACHE.clear()
            _SHAPE_CACHE[cache_key] = expected
    got = [tuple(getattr(leaf, "shape", ())) for leaf in tree_util.tree_leaves(value)]
    # a boxed initializer's abstract output has the same leaves as the stored box
    if got != expected:
        raise errors.ScopeParamShapeError(name, path, _one(got), _one(expected))


class Variable:
    """A handle on one variable; ``.value`` reads and (for a mutable collection) writes it."""

    def __init__(self, scope: Scope, collection: str, name: str, unbox: bool = True) -> None:
        self.scope = scope
        self.collection = collection
        self.name = name
        self.unbox = unbox

    @property
    def value(self) -> Any:
        v = self.scope.get_variable(self.collection, self.name)
        return meta.unbox(v) if self.unbox else v

    @value.setter
    def value(self, v: Any) -> None:
        if self.unbox and self.scope.has_variable(self.collection, self.name):
            old = self.scope.get_variable(self.collection, self.name)
            if any(meta.is_axis_metadata(x) for x in _boxes(old)):
                v = meta.replace_boxed(old, v)
        self.scope.put_variable(self.collection, self.name, v)

    def is_mutable(self) -> bool:
        return self.scope.root.is_mutable(self.collection)

    def __repr__(self) -> str:
        return f"Variable({self.collection}/{self.name} in {self.scope.path_text})"


def _unbound_only_hash(hash_fn: Callable[[Any], int]) -> Callable[[Any], int]:
    """``hash_fn`` for unbound modules; a module bound to variables refuses to be hashed (its
    value depends on the variables it sees), as in Flax."""
    if getattr(hash_fn, "_unbound_only", False):
        return hash_fn

    @functools.wraps(hash_fn)
    def hash_unbound(self: Any) -> int:
        st = self.__dict__.get("_state")
        if st is not None and st.scope is not None:
            raise TypeError("Can't call __hash__ on modules that hold variables.")
        return hash_fn(self)

    hash_unbound._unbound_only = True  # type: ignore[attr-defined]
    return hash_unbound
